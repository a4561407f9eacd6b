package ui

import (
	"dcimon/namespace"
	"dcimon/views"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// view is View as lines exactly w wide, h of them, with their gen (see renderCache): drawn
// again only when what it shows changed.
func (p *hotPane) view() ([]string, uint64) {
	k := listViewKey{ver: p.ver, w: p.w, h: p.h, cursor: p.cursor, offset: p.offset, focused: p.focused}
	return p.cache.view(k, p.render)
}

func (p *hotPane) render() []string {
	if p.w <= 0 || p.h <= 0 {
		return nil
	}
	var lines []string
	if len(p.rows) == 0 {
		msg := "no hotsets — select a statistic and press " + p.keys.New.Help().Key
		lines = append(lines, p.st.Text.Muted.Render(pad(msg, p.w)))
		if len(p.pending) > 0 {
			lines = append(lines, p.st.Text.Muted.Render(pad(fmt.Sprintf("%d default hotsets wait for their peers", len(p.pending)), p.w)))
		}
		return fitBlock(lines, p.w, p.h)
	}
	elapsed := time.Duration(0)
	if p.hs != nil {
		elapsed = p.hs.TimeChange()
	}
	for i := p.offset; i < len(p.rows) && len(lines) < p.h; i++ {
		r := p.rows[i]
		sel := i == p.cursor
		switch r.item {
		case -1:
			l1, l2 := p.header(r.entry, elapsed)
			lines = append(lines, p.selStyle(sel, p.st.Text.Accent).Render(pad(l1, p.w)))
			lines = append(lines, p.st.Text.Muted.Render(pad("  "+l2, p.w)))
		case -2:
			txt := fmt.Sprintf("  %s — top %d of %d", r.set.Path(), r.set.Count, r.set.AvailResp)
			lines = append(lines, p.selStyle(sel, p.st.Text.Bold).Render(pad(txt, p.w)))
		default:
			lines = append(lines, p.item(r, sel))
		}
	}
	return fitBlock(lines, p.w, p.h)
}

func (p *hotPane) selStyle(sel bool, base ink) ink {
	if !sel {
		return base
	}
	if p.focused {
		return p.st.Row.Selected
	}
	return p.st.Row.SelectedBlur
}

// header is the peer set's SPMI header in two lines: what is ranked and how many answered, then
// the parameters (SPMI-HOT-16, SPMI-HOT-10).
func (p *hotPane) header(e *namespace.HotVals, elapsed time.Duration) (string, string) {
	spec := e.Spec()
	m := p.hotMeasure(e)
	l1 := p.title(e)
	l1 += fmt.Sprintf(" — top %d of %d", e.Count, e.AvailResp)
	if e.Err != namespace.SiSuccess && e.Err != namespace.SiNoValue {
		// In plain words (issue 32 item 4); the inspector gives the SPMI code.
		l1 += " — " + views.ErrWords(e.Err)
		if e.ErrReason != namespace.ReasonNone {
			l1 += ": " + e.ErrReason.String()
		}
	}
	maxr := strconv.Itoa(spec.MaxResp)
	if spec.MaxResp == 0 {
		maxr = "all"
	}
	thr := "0"
	if spec.Threshold != 0 {
		thr = m.Format(spec.Threshold)
	}
	parts := []string{"threshold " + thr, "max " + maxr, "listed: " + views.FeedWords(spec.Feed)}
	if spec.Except != namespace.SiHotNoException {
		x := fmt.Sprintf("%s every %d min, severity %d", views.ExceptWords(spec.Except), spec.Frequency, spec.Severity)
		if spec.Except.Traps() {
			x += fmt.Sprintf(" trap %d", spec.TrapNo)
		}
		parts = append(parts, x)
	}
	if e.RefCount() > 1 {
		parts = append(parts, fmt.Sprintf("ref %d", e.RefCount()))
	}
	if elapsed > 0 {
		parts = append(parts, "elapsed "+fmtElapsed(elapsed))
	}
	return l1, strings.Join(parts, " · ")
}

// hotMeasure is how a peer set's statistic is shown, the units its threshold is in.
func (p *hotPane) hotMeasure(e *namespace.HotVals) views.Measure {
	if d := e.Stat(); d != nil {
		return p.vf.measure(e.StatClass(), d)
	}
	return views.Measure{}
}

func fmtElapsed(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + "s"
}

func (p *hotPane) item(r hotRow, sel bool) string {
	it := r.set.Items[r.item]
	d := r.entry.Stat()
	var cls *namespace.Class
	if it.Inst != nil {
		cls = it.Inst.Class
	}
	txt := "?"
	if d != nil {
		txt = p.vf.text(cls, d, it.Val)
	}
	rank := strconv.Itoa(r.item + 1)
	const rankW = 3
	nameW := min(16, max(p.w/4, 6))
	fleet := r.entry.Fleet()
	if fleet {
		nameW = min(28, max(p.w/3, 6)) // a host and its peer
	}
	valW := 10
	barW := p.w - rankW - 1 - nameW - 1 - valW - 1
	if sel {
		// The selected row keeps its bar (issue 12), in the selection's colours.
		line := padLeft(rank, rankW) + " " + pad(fitItemNameIn(it, fleet, nameW, compactItems(r.set.Items, fleet, nameW)), nameW) + " " + padLeft(txt, valW)
		if frac, over, ok := p.itemBar(r, d, it); ok && barW >= 4 {
			full, empty := barCells(frac, barW)
			if over && empty == 0 {
				full = cellRun(fullCells, barW-1) + "▶"
			}
			line += " " + full + cellRun(emptyCells, empty)
		}
		return p.selStyle(true, p.st.Text.Normal).Render(pad(line, p.w))
	}
	var sb strings.Builder
	sb.Grow(4 * p.w)
	p.st.Text.Muted.writePadLeft(&sb, rank, rankW)
	sb.WriteByte(' ')
	p.st.Text.Normal.writePad(&sb, fitItemNameIn(it, fleet, nameW, compactItems(r.set.Items, fleet, nameW)), nameW)
	sb.WriteByte(' ')
	p.st.Text.Normal.writePadLeft(&sb, txt, valW)
	if barW >= 4 {
		if frac, over, ok := p.itemBar(r, d, it); ok {
			sb.WriteByte(' ')
			writeBar(&sb, p.st, frac, over, barW)
		}
	}
	return sb.String()
}

// itemName is a ranked item's name, with its label where that says more: a process is its PID
// and its command name ("1099 sshd").
func itemName(it namespace.HotItem) string {
	if it.Inst != nil && it.Inst.Label.ASCII != "" && it.Inst.Label.ASCII != it.Name && it.Inst.Label.ASCII != it.Inst.Name {
		return it.Name + " " + it.Inst.Label.ASCII // a process's command beside its PID
	}
	return it.Name
}

// fitItemName is a ranked item's name in w cells. A fleet's item (`web01/Disk/sda`) that does
// not fit drops its class (the hotset's title names it) and then shortens its host in the middle,
// where hostspecs and host names differ least (`127.0.…:34567 sda`, `web…-017 sda`): the row
// still says which host and which peer it is (issue 31).
func fitItemName(it namespace.HotItem, fleet bool, w int) string {
	return fitItemNameIn(it, fleet, w, false)
}

// fitItemNameIn is fitItemName, with compact when some item of the same ranking does not fit:
// every item then drops its class, so that the rows read alike.
func fitItemNameIn(it namespace.HotItem, fleet bool, w int, compact bool) string {
	name := itemName(it)
	if !fleet || (width(name) <= w && !compact) {
		return name
	}
	host, rest, ok := strings.Cut(name, "/")
	if !ok {
		return name
	}
	if i := strings.LastIndexByte(rest, '/'); i >= 0 {
		rest = rest[i+1:] // the peer itself, without its class
	}
	if width(host)+1+width(rest) <= w {
		return host + " " + rest
	}
	room := w - 1 - width(rest) // cells for the host
	if room < 5 {
		return cut(rest, w) // too narrow for a host worth reading: the peer, as before
	}
	hr := []rune(host)
	tail := (room - 1) / 2
	head := room - 1 - tail
	if head+tail >= len(hr) {
		return host + " " + rest
	}
	return string(hr[:head]) + "…" + string(hr[len(hr)-tail:]) + " " + rest
}

// itemBar is how full a ranked item's bar is: on the statistic's SPMI scale, or without one
// relative to the top item, so the ranking still reads at a glance.
func (p *hotPane) itemBar(r hotRow, d *namespace.Datum, it namespace.HotItem) (frac float64, over, ok bool) {
	if d == nil {
		return 0, false, false
	}
	frac, over, ok = datumBar(d, it.Val)
	if !ok && len(r.set.Items) > 0 && it.Val.State == namespace.Valid {
		top := math.Abs(r.set.Items[0].Val.V)
		frac, over, ok = barScale(math.Abs(it.Val.V), 0, top)
	}
	return frac, over, ok
}

// compactItems says some item of a fleet's ranking is wider than w: all are then shown without
// their class (fitItemNameIn).
func compactItems(items []namespace.HotItem, fleet bool, w int) bool {
	if !fleet {
		return false
	}
	for _, it := range items {
		if width(itemName(it)) > w {
			return true
		}
	}
	return false
}

// title names a peer set for a block or a header: its path and statistic with its threshold
// (`Disk busy > 80.0%`), and the hotset's name first when another open peer set ranks the same
// statistic (`busy-disks: Disk busy > 80.0%`), so two on one statistic are told apart (issue 42
// item 3).
func (p *hotPane) title(e *namespace.HotVals) string {
	spec := e.Spec()
	t := e.Path() + " " + spec.Stat
	switch {
	case spec.Threshold == 0:
	case spec.Feed == namespace.SiHotAlways:
		// Every peer is listed: the threshold marks and alerts, it does not select.
		t += " (" + views.ThresholdText(p.hotMeasure(e), spec.Threshold) + " marked)"
	default:
		t += " " + views.ThresholdText(p.hotMeasure(e), spec.Threshold)
	}
	for _, o := range p.Entries() {
		if o != e && o.Path() == e.Path() && o.Spec().Stat == spec.Stat {
			if name := p.names[e]; name != "" {
				return safe(name) + ": " + t
			}
			return t + fmt.Sprintf(" (max %d)", spec.MaxResp)
		}
	}
	return t
}
