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

// statGrid is statistics mode's layout in one frame: the widths of the name, the value with its
// unit, the sparkline and the bar, and within the value those of the numbers and the units in
// view, which line up on their last digit and first letter (issue 12).
type statGrid struct {
	name, val, spark, bar int
	num, unit             int
}

// viewStats appends statistics mode's lines to lines: the header, then a line per statistic in
// view.
func (p *valuesPane) viewStats(lines []string) []string {
	var g statGrid
	g.name, g.val, g.spark, g.bar = p.statLayout()
	lines = append(lines, p.st.Table.Header.Render(pad(g.header(), p.w)))
	var cv *namespace.ClassValues
	if p.snap != nil {
		cv = p.snap.Class(p.ctx.Stats)
	}
	in := p.ctx.StatsInst
	end := min(p.offset+p.bodyH(), len(p.stats))
	g.num, g.unit = p.numberWidths(cv, in, end)
	g.num = max(g.num, g.val-1-g.unit) // the numbers fill the value column
	for i := p.offset; i < end; i++ {
		lines = append(lines, p.statLine(g, i, cv, in))
	}
	return lines
}

// header is statistics mode's header line, without the columns that have no room.
func (g statGrid) header() string {
	hdr := pad("statistic", g.name) + " " + padLeft("value", g.val)
	if g.spark > 0 {
		hdr += " " + pad("recent", g.spark)
	}
	if g.bar > 0 {
		hdr += " " + pad("scale", g.bar)
	}
	return hdr
}

// numberWidths are the widths of the widest number and the widest unit of the valid numeric
// statistics in view (from offset to end).
func (p *valuesPane) numberWidths(cv *namespace.ClassValues, in *namespace.Instance, end int) (numW, unitW int) {
	for i := p.offset; i < end; i++ {
		s := p.stats[i]
		if v, ok := cv.Value(in, s.di); ok && v.State == namespace.Valid && !s.text {
			num, unit := views.SplitUnit(p.vf.text(p.ctx.Stats, s.datum, v))
			numW, unitW = max(numW, width(num)), max(unitW, width(unit))
		}
	}
	return numW, unitW
}

// statLine is statistic i's line: its name and value, then its recent values and its bar; for
// text and numbers that do not move (a capacity, a constant) neither, and where there is no
// valid value why, in their room.
func (p *valuesPane) statLine(g statGrid, i int, cv *namespace.ClassValues, in *namespace.Instance) string {
	s := p.stats[i]
	v, ok := cv.Value(in, s.di)
	if !ok {
		v = namespace.Value{State: namespace.Unavailable, Reason: namespace.ReasonNotSampled}
	}
	var sb strings.Builder
	p.writeStatValue(&sb, g, s, v, i == p.cursor)
	switch {
	case (s.text || s.datum.PCP.Sem == namespace.PMSemDiscrete) && v.State == namespace.Valid:
	case v.State != namespace.Valid && g.spark+g.bar > 0:
		sb.WriteString(" " + p.st.Text.Muted.Render(pad(whyText(v), p.w-g.name-g.val-2)))
	default:
		p.writeStatTrend(&sb, g, s, v, p.rings.get(ringKey{in, s.di}))
	}
	return sb.String()
}

// writeStatValue draws a statistic's name and value, numbers aligned on their last digit and
// units on their first letter; in the selection's colours on the selected line.
func (p *valuesPane) writeStatValue(sb *strings.Builder, g statGrid, s statRow, v namespace.Value, sel bool) {
	txt := p.vf.text(p.ctx.Stats, s.datum, v)
	if !s.text && g.num+1+g.unit <= g.val {
		txt = views.AlignValue(txt, g.num, g.unit)
	}
	name := pad(s.datum.Name, g.name)
	vt := padLeft(txt, g.val)
	if s.text && v.State == namespace.Valid && width(txt) > g.val {
		// Text longer than the value column takes the room of the sparkline and the bar,
		// which it has no use for; a short one ("no", "up") lines up with the numbers.
		vt = pad(txt, p.w-g.name-1)
	}
	if !sel {
		sb.WriteString(p.st.Text.Normal.Render(name) + " ")
		sb.WriteString(p.valueStyle(v).Render(vt))
		return
	}
	st := p.st.Row.SelectedBlur
	if p.focused {
		st = p.st.Row.Selected
	}
	sb.WriteString(st.Render(name + " " + vt))
}

// writeStatTrend draws a statistic's sparkline of its recent values (ring r, nil before the
// first) and its bar, where there is room for them. The sparkline shares the bar's SPMI scale,
// so the two read alike; without a scale (or with autoscale on) it scales to what it shows.
func (p *valuesPane) writeStatTrend(sb *strings.Builder, g statGrid, s statRow, v namespace.Value, r *ring) {
	if g.spark > 0 {
		sp := strings.Repeat(" ", g.spark)
		if r != nil {
			lo, hi := s.datum.Min, s.datum.Max
			if p.autoscale {
				hi = lo
			}
			p.spark = r.values(p.spark)
			sp = sparkline(p.spark, g.spark, lo, hi)
		}
		sb.WriteString(" " + p.st.Spark.Render(sp))
	}
	if g.bar > 0 {
		sb.WriteString(" " + p.renderBar(s.datum, v, r, g.bar))
	}
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
