// The values pane's rendering: statistics with sparklines and bars, the instance table, the
// subcontexts of an uninstantiated class.

package ui

import (
	"math"
	"strconv"
	"strings"

	"dcimon/namespace"
	"dcimon/views"
)

// View renders the pane, exactly w×h.
func (p valuesPane) View() string { return joined(p.view()) }

// view is View as lines exactly w wide, h of them, with their gen (see renderCache): drawn
// again only when what it shows changed.
func (p *valuesPane) view() ([]string, uint64) {
	k := valuesKey{ver: p.ver, w: p.w, h: p.h, cursor: p.cursor, offset: p.offset, colOff: p.colOff,
		sortCol: p.sortCol, sortDesc: p.sortDesc, autoscale: p.autoscale, focused: p.focused}
	return p.cache.view(k, p.render)
}

func (p *valuesPane) render() []string {
	if p.w <= 0 || p.h <= 0 {
		return nil
	}
	lines := make([]string, 0, p.h)
	for _, l := range p.degradedLines() {
		lines = append(lines, p.st.Text.Warn.Render(pad(l, p.w)))
	}
	switch p.mode {
	case valuesEmpty:
		lines = append(lines, p.st.Text.Muted.Render(pad("nothing selected", p.w)))
	case valuesStats:
		lines = p.viewStats(lines)
	case valuesTable:
		lines = p.viewTable(lines)
	case valuesChildren:
		lines = p.viewChildren(lines)
	}
	return fitBlock(lines, p.w, p.h)
}

// statLayout is the column widths of statistics mode: the name, the value with its unit, the
// sparkline and the bar.
func (p *valuesPane) statLayout() (name, val, spark, bar int) {
	name = 10
	for _, s := range p.stats {
		name = max(name, width(s.datum.Name))
	}
	// At least 20 characters of a statistic name and the ellipsis after them (DCI4-SUP-7), more
	// when the pane is wide.
	name = min(name, max(21, p.w/3))
	val = 14
	rest := p.w - name - val - 2
	if rest >= 12 {
		spark = min(ringLen/2, (rest-1)/2)
		bar = rest - spark - 1
	} else if rest >= 6 {
		bar = rest - 1
	}
	return
}

func (p *valuesPane) viewStats(lines []string) []string {
	nw, vw, sw, bw := p.statLayout()
	hdr := pad("statistic", nw) + " " + padLeft("value", vw)
	if sw > 0 {
		hdr += " " + pad("recent", sw)
	}
	if bw > 0 {
		hdr += " " + pad("scale", bw)
	}
	lines = append(lines, p.st.Table.Header.Render(pad(hdr, p.w)))
	var cv *namespace.ClassValues
	if p.snap != nil {
		cv = p.snap.Class(p.ctx.Stats)
	}
	in := p.ctx.StatsInst
	h := p.bodyH()
	// Numbers line up on their last digit and units on their first letter (issue 12).
	numW, unitW := 0, 0
	for i := p.offset; i < min(p.offset+h, len(p.stats)); i++ {
		s := p.stats[i]
		if v, ok := cv.Value(in, s.di); ok && v.State == namespace.Valid && !s.text {
			num, unit := views.SplitUnit(p.vf.text(p.ctx.Stats, s.datum, v))
			numW, unitW = max(numW, width(num)), max(unitW, width(unit))
		}
	}
	numW = max(numW, vw-1-unitW)
	for i := p.offset; i < min(p.offset+h, len(p.stats)); i++ {
		s := p.stats[i]
		v, ok := cv.Value(in, s.di)
		if !ok {
			v = namespace.Value{State: namespace.Unavailable, Reason: namespace.ReasonNotSampled}
		}
		txt := p.vf.text(p.ctx.Stats, s.datum, v)
		if !s.text && numW+1+unitW <= vw {
			txt = views.AlignValue(txt, numW, unitW)
		}
		var sb strings.Builder
		name := pad(s.datum.Name, nw)
		vt := padLeft(txt, vw)
		if s.text && v.State == namespace.Valid && width(txt) > vw {
			// Text longer than the value column takes the room of the sparkline and the bar,
			// which it has no use for; a short one ("no", "up") lines up with the numbers.
			vt = pad(txt, p.w-nw-1)
		}
		sel := i == p.cursor
		if sel {
			st := p.st.Row.SelectedBlur
			if p.focused {
				st = p.st.Row.Selected
			}
			sb.WriteString(st.Render(name + " " + vt))
		} else {
			sb.WriteString(p.st.Text.Normal.Render(name) + " ")
			sb.WriteString(p.valueStyle(v).Render(vt))
		}
		if (s.text || s.datum.PCP.Sem == namespace.PMSemDiscrete) && v.State == namespace.Valid {
			// Text, and numbers that do not move (a capacity, a constant): no sparkline, no bar.
			lines = append(lines, sb.String())
			continue
		}
		if v.State != namespace.Valid && sw+bw > 0 {
			// Why there is no number, in the room of the sparkline and the bar.
			sb.WriteString(" " + p.st.Text.Muted.Render(pad(whyText(v), p.w-nw-vw-2)))
			lines = append(lines, sb.String())
			continue
		}
		r := p.rings.get(ringKey{in, s.di})
		if sw > 0 {
			sp := strings.Repeat(" ", sw)
			if r != nil {
				// The sparkline shares the bar's SPMI scale, so the two read alike; without a
				// scale (or with autoscale on) it scales to what it shows.
				lo, hi := s.datum.Min, s.datum.Max
				if p.autoscale {
					hi = lo
				}
				p.spark = r.values(p.spark)
				sp = sparkline(p.spark, sw, lo, hi)
			}
			sb.WriteString(" " + p.st.Spark.Render(sp))
		}
		if bw > 0 {
			sb.WriteString(" " + p.renderBar(s.datum, v, r, bw))
		}
		lines = append(lines, sb.String())
	}
	return lines
}

func (p *valuesPane) valueStyle(v namespace.Value) ink { return valueInk(p.st, v) }

// renderBar draws v on the statistic's SPMI scale: clamped at the top with a marker when the
// value exceeds it (the true value is in the value column, AMB-41). With autoscale on, the top
// of the scale rises to the highest recent value.
func (p *valuesPane) renderBar(d *namespace.Datum, v namespace.Value, r *ring, w int) string {
	if v.State != namespace.Valid {
		return p.st.Text.Muted.Render(pad(whyText(v), w)) // why there is no number
	}
	frac, over, ok := datumBar(d, v)
	if p.autoscale && r != nil {
		if m := r.max(); !math.IsNaN(m) && m > d.Max {
			frac, over, ok = barScale(v.V, d.Min, m)
		}
	}
	if !ok {
		return blanks(w) // no SPMI scale: no bar
	}
	return drawBar(p.st, frac, over, w)
}

// drawBar renders a w-cell bar; the last cell of an over-scale bar is a "▶" marker.
func drawBar(st *styles, frac float64, over bool, w int) string {
	var sb strings.Builder
	writeBar(&sb, st, frac, over, w)
	return sb.String()
}

// writeBar is drawBar onto sb.
func writeBar(sb *strings.Builder, st *styles, frac float64, over bool, w int) {
	if over {
		st.Bar.Over.write(sb, cellRun(fullCells, max(w-1, 0))+"▶")
		return
	}
	fill, empty := barCells(frac, w)
	fs := st.Bar.Fill
	if frac >= 0.8 {
		fs = st.Bar.High
	}
	fs.write(sb, fill)
	st.Bar.Empty.write(sb, cellRun(emptyCells, empty))
}

func (p *valuesPane) viewChildren(lines []string) []string {
	nw := 12
	for _, k := range p.kids {
		nw = max(nw, width(k.ctx.Name))
	}
	nw = min(nw, max(20, p.w/3))
	lines = append(lines, p.st.Table.Header.Render(pad(pad("context", nw)+" "+padLeft("subctx", 6)+" "+padLeft("stats", 5)+" description", p.w)))
	bh := p.bodyH()
	for i := p.offset; i < min(p.offset+bh, len(p.kids)); i++ {
		k := p.kids[i]
		row := pad(k.ctx.Name, nw) + " " + padLeft(strconv.Itoa(k.kids), 6) + " " + padLeft(strconv.Itoa(k.stats), 5) + " "
		desc := safe(k.ctx.Desc)
		if i == p.cursor {
			st := p.st.Row.SelectedBlur
			if p.focused {
				st = p.st.Row.Selected
			}
			lines = append(lines, st.Render(pad(row+desc, p.w)))
			continue
		}
		lines = append(lines, p.st.Text.Normal.Render(row)+p.st.Text.Muted.Render(cut(desc, max(p.w-width(row), 0))))
	}
	return lines
}
