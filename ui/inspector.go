package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"dcimon/namespace"
	"dcimon/views"
)

// inspectorPane shows every attribute of the selected context (class, instance) or statistic
// (datum), grouped by standard as namespace.Describe lists them (SPMI, DCI, DCI4, PCP,
// documentation, supplier), after the value's own status: valid, invalid, unavailable and why.
// Text wraps and is never cut, so the DCI4 minimum widths always hold (DCI4-SUP-7, AMB-57).
type inspectorPane struct {
	st   *styles
	keys *scrollKeys
	paneBox
	loc *time.Location

	reg      *namespace.Registry
	ref      namespace.Ref
	peers    *namespace.HotVals // a peer set shown instead of ref (SPMI-HOT-16)
	event    *namespace.Event   // an event shown, followed by its context's attributes
	hs       *namespace.HotSet
	gen      uint64
	sections []namespace.Section
	// shownDeleted is whether ref's context had been deleted when sections were made.
	shownDeleted bool
	snap         *namespace.Snapshot
	first        namespace.Section // the value's or the collection's status, or the peer set's record
	head         []string          // the title's lines
	// firstLines are first's lines, laid out again when a snapshot changes it; rest are the
	// other sections', laid out only when the target or the width changes.
	firstLines, rest []string
	lines            []string // head, firstLines and rest: what View shows
	offset           int

	ver   uint64 // moved on when the lines change
	cache *renderCache[inspectorKey]
}

// inspectorKey is what the inspector's View reads besides its lines (ver).
type inspectorKey struct {
	ver          uint64
	w, h, offset int
}

func newInspector(st *styles, keys scrollKeys, loc *time.Location) inspectorPane {
	return inspectorPane{st: st, keys: &keys, loc: loc, cache: newRenderCache[inspectorKey]()}
}

// SetSize sets the inner size of the pane and lays the text out again.
func (p *inspectorPane) SetSize(w, h int) {
	if w == p.w && h == p.h {
		return
	}
	p.w, p.h = max(w, 0), max(h, 0)
	p.layout()
}

// SetTarget shows the attributes of ref.
func (p *inspectorPane) SetTarget(reg *namespace.Registry, ref namespace.Ref) {
	gen := reg.Generation()
	if ref == p.ref && reg == p.reg && gen == p.gen && p.peers == nil && p.event == nil {
		return
	}
	if ref != p.ref || p.peers != nil || p.event != nil {
		p.offset = 0
	}
	p.reg, p.ref, p.gen, p.peers, p.event = reg, ref, gen, nil, nil
	p.sections = nil
	if ref.Ctx != nil {
		p.sections = describe(reg, ref)
		p.shownDeleted = ref.Ctx.Deleted()
	}
	p.layout()
}

// SetPeerSet shows a hotset's peer set record, its parameters and its last reading, followed by
// the attributes of its grandparent context.
func (p *inspectorPane) SetPeerSet(reg *namespace.Registry, hs *namespace.HotSet, v *namespace.HotVals) {
	if v == p.peers {
		return
	}
	p.offset = 0
	p.reg, p.hs, p.peers, p.gen, p.event = reg, hs, v, reg.Generation(), nil
	p.ref = namespace.Ref{}
	p.sections = nil
	if gp := v.Grandpa(); gp != nil && !gp.Deleted() {
		p.ref = namespace.Ref{Ctx: gp}
		p.sections = reg.Describe(p.ref)
	}
	p.layout()
}

// SetEvent shows an event of the log whole (its text is often longer than the events pane is
// wide), followed by the attributes of its context while that still exists.
func (p *inspectorPane) SetEvent(reg *namespace.Registry, e namespace.Event) {
	if p.event != nil && sameEvent(*p.event, e) && reg.Generation() == p.gen {
		return
	}
	p.offset = 0
	p.reg, p.peers, p.gen, p.event = reg, nil, reg.Generation(), &e
	p.ref, p.sections = namespace.Ref{}, nil
	if e.Path != "" {
		if ref, err := reg.Lookup(nil, e.Path); err == nil {
			p.ref, p.sections = ref, describe(reg, ref)
		}
	}
	p.layout()
}

// describe is the registry's description of ref, with a statistic's DCI4 conformance.
func describe(reg *namespace.Registry, ref namespace.Ref) []namespace.Section {
	secs := reg.Describe(ref)
	if ref.Datum != nil && ref.Ctx != nil {
		views.AddConformance(secs, ref.Ctx.Stats, ref.Datum)
	}
	return secs
}

func sameEvent(a, b namespace.Event) bool {
	return a.Time.Equal(b.Time) && a.Kind == b.Kind && a.Path == b.Path && a.Text == b.Text &&
		a.Severity == b.Severity && a.TrapNo == b.TrapNo && slices.Equal(a.Class, b.Class) && a.Inst.Mask == b.Inst.Mask && slices.Equal(a.Inst.Values, b.Inst.Values)
}

// eventSection is the event's record.
func (p *inspectorPane) eventSection() namespace.Section {
	e := p.event
	s := namespace.Section{Title: "Event", Fields: []namespace.Field{
		{Key: "time", Value: p.fmtTime(e.Time)},
		{Key: "kind", Value: e.Kind.String()},
	}}
	add := func(k, v string) { s.Fields = append(s.Fields, namespace.Field{Key: k, Value: v}) }
	if e.Path != "" {
		add("path", e.Path)
		if p.ref.Ctx == nil {
			add("context", "gone")
		}
	}
	if len(e.Class) > 0 {
		add("class id", e.Class.String())
	}
	if len(e.Inst.Values) > 0 {
		add("instance id", e.Inst.String())
	}
	if e.Severity > 0 {
		add("severity", strconv.Itoa(e.Severity))
	}
	if e.TrapNo > 0 {
		add("trap", strconv.Itoa(e.TrapNo))
	}
	if e.Text != "" {
		add("text", e.Text)
	}
	return s
}

// Target is what the pane describes.
func (p *inspectorPane) Target() namespace.Ref { return p.ref }

// SetSnapshot refreshes the value's status. Only the first section (the value or the
// collection, or the peer set's reading) depends on the snapshot: the others stay laid out, and
// nothing changes when the first section reads the same.
func (p *inspectorPane) SetSnapshot(snap *namespace.Snapshot) {
	p.snap = snap
	if p.w <= 0 || (p.ref.Ctx == nil && p.peers == nil) || p.event != nil {
		return // an event's record does not change with the readings
	}
	if c := p.ref.Ctx; c != nil && p.peers == nil && c.Deleted() != p.shownDeleted {
		// The context shown has gone since it was described: its record says so at once
		// (SPMI-HIER-11), not when the selection moves.
		p.shownDeleted = c.Deleted()
		p.sections = describe(p.reg, p.ref)
		p.layout()
		return
	}
	first := p.firstSection()
	if first.Title == p.first.Title && slices.Equal(first.Fields, p.first.Fields) {
		return
	}
	p.first = first
	p.firstLines = p.sectionLines(p.firstLines[:0], first)
	p.join()
}

// firstSection is the section about the current reading: a peer set's record, or the status of
// a statistic's value or of a context's collection.
func (p *inspectorPane) firstSection() namespace.Section {
	if p.peers != nil {
		return p.peerSet()
	}
	if p.event != nil {
		return p.eventSection()
	}
	return p.status()
}

// layout turns the title and the sections into wrapped, styled lines for the current width.
func (p *inspectorPane) layout() {
	p.head, p.firstLines, p.rest = p.head[:0], p.firstLines[:0], p.rest[:0]
	p.first = namespace.Section{}
	if p.w > 0 && (p.ref.Ctx != nil || p.peers != nil || p.event != nil) {
		title := p.ref.Path()
		if title == "" {
			title = "Top"
		}
		switch {
		case p.peers != nil:
			title = "hotset " + p.peers.Path() + " " + p.peers.Spec().Stat
		case p.event != nil:
			title = "event " + p.event.Kind.String()
		}
		for _, l := range wrapText(title, p.w) {
			p.head = append(p.head, p.st.Text.Bold.Render(l))
		}
		p.first = p.firstSection()
		p.firstLines = p.sectionLines(p.firstLines, p.first)
		if reset, ok := p.snap.SupplierReset(namespace.DescribedSupplier(p.ref)); ok {
			namespace.LiveReset(p.sections, reset)
		}

		for _, s := range p.sections {
			p.rest = p.sectionLines(p.rest, s)
		}
	}
	p.join()
}

// join puts the title, the first section and the others together as the lines View shows.
func (p *inspectorPane) join() {
	p.ver = p.cache.next()
	p.lines = append(append(append(p.lines[:0], p.head...), p.firstLines...), p.rest...)
	p.offset = clamp(p.offset, 0, max(len(p.lines)-p.h, 0))
}

// sectionLines appends a section's lines to dst: a blank line, its title, its fields.
func (p *inspectorPane) sectionLines(dst []string, s namespace.Section) []string {
	if len(s.Fields) == 0 {
		return dst
	}
	dst = append(dst, "", p.st.Text.Accent.Render(cut(s.Title, p.w)))
	kw := 8
	for _, f := range s.Fields {
		kw = max(kw, width(f.Key))
	}
	kw = min(kw, 18, max(p.w/3, 6))
	for _, f := range s.Fields {
		dst = p.addField(dst, f, kw)
	}
	return dst
}

func (p *inspectorPane) addField(dst []string, f namespace.Field, kw int) []string {
	val := safe(f.Value)
	vw := p.w - kw - 2
	if vw >= 16 && width(f.Key) <= kw {
		for i, l := range wrapText(val, vw) {
			k := ""
			if i == 0 {
				k = f.Key
			}
			// Whole lines, exactly the pane's width: render's fitting then keeps them as they are.
			var sb strings.Builder
			sb.Grow(p.w + 32)
			p.st.Text.Muted.writePad(&sb, k, kw)
			sb.WriteString("  ")
			p.st.Text.Normal.writePad(&sb, l, p.w-kw-2)
			dst = append(dst, sb.String())
		}
		return dst
	}
	// Too narrow for two columns: the key on its own line, the value below it, wrapped.
	for _, l := range wrapText(f.Key, p.w) {
		dst = append(dst, p.st.Text.Muted.Render(l))
	}
	for _, l := range wrapText(val, max(p.w-2, 1)) {
		dst = append(dst, "  "+p.st.Text.Normal.Render(l))
	}
	return dst
}

func (p *inspectorPane) fmtTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	loc := p.loc
	if loc == nil {
		loc = time.Local
	}
	return t.In(loc).Format("2006-01-02 15:04:05.000 MST")
}

// status is the section about the current reading: the value of a statistic, or the collection
// of a context's class.
func (p *inspectorPane) status() namespace.Section {
	ref := p.ref
	if ref.Datum == nil {
		return p.classStatus()
	}
	s := namespace.Section{Title: "Value"}
	add := func(k, v string) { s.Fields = append(s.Fields, namespace.Field{Key: k, Value: v}) }
	if p.snap == nil {
		add("state", "not sampled yet")
		return s
	}
	v, cv, ok := p.snap.Lookup(ref)
	if !ok && v.State == namespace.Valid {
		v = namespace.Value{State: namespace.Unavailable, Reason: namespace.ReasonNoValues}
	}
	state := v.State.String()
	if why := whyText(v); why != "" {
		state += " — " + why
	}
	add("state", state)
	add("value", valueFormat{loc: p.loc}.text(ref.Ctx.Stats, ref.Datum, v))
	if v.State != namespace.Invalid && v.State != namespace.Unavailable {
		readingFields(&s, ref, v)
	}
	if v.State != namespace.Valid {
		errorFields(&s, v)
	}
	if cv != nil {
		add("read at", p.fmtTime(cv.Time))
		if cv.Elapsed > 0 {
			add("interval", cv.Elapsed.Round(time.Millisecond).String())
		}
		add("supplier", supplierText(cv))
	}
	return s
}

// readingFields add what a statistic's value was read as: a text's quoted; a number's raw
// reading, its change, and, when valid, its decoded value (per second for a counter) and a
// time counter's plain rate, which the value shows as a utilization (issue 12: `CPU/cpu0/idle
// 89.0%` is `890 ms/s`).
func readingFields(s *namespace.Section, ref namespace.Ref, v namespace.Value) {
	add := func(k, val string) { s.Fields = append(s.Fields, namespace.Field{Key: k, Value: val}) }
	d := ref.Datum
	if !d.IsDerived() && !d.Type.IsNumeric() {
		add("val", strconv.Quote(v.S))
		return
	}
	if !d.IsDerived() {
		add("val", rawText(d, v))
	}
	if d.IsCounter() || v.Change != 0 {
		add("val_change", strconv.FormatFloat(v.Change, 'g', -1, 64))
	}
	if v.State != namespace.Valid {
		return
	}
	dec := strconv.FormatFloat(v.V, 'g', -1, 64)
	if d.IsCounter() {
		dec += " per second"
	}
	add("decoded", dec)
	if m := views.MeasureFor(ref.Ctx.Stats, d); m.Util {
		add("rate", views.RateMeasure(ref.Ctx.Stats, d).Format(v.V))
	}
}

// errorFields add why a value is not valid: its SPMI error, said temporary when reading again
// may bring a value (SPMI-ERR-3), and its DCI status.
func errorFields(s *namespace.Section, v namespace.Value) {
	code := v.Reason.SiErr()
	line := code.Line()
	if code.Retryable() {
		line += " — temporary: read again at the next collection (SPMI-ERR-3)"
	}
	s.Fields = append(s.Fields, namespace.Field{Key: "SPMI error", Value: line},
		namespace.Field{Key: "DCI status", Value: v.Reason.Status().String()})
}

// peerSet is the SpmiHotVals record of a peer set: its parameters as given and the results of
// the hotset's last read, with every item's val, val_change and decoded value (SPMI-HOT-16,
// SPMI-HOT-10, SPMI-HOT-11).
func (p *inspectorPane) peerSet() namespace.Section {
	v := p.peers
	sp := v.Spec()
	s := namespace.Section{Title: "SPMI peer set"}
	add := func(k, val string) { s.Fields = append(s.Fields, namespace.Field{Key: k, Value: val}) }
	add("path", v.Path())
	add("statistic", sp.Stat)
	d := v.Stat()
	if d != nil {
		add("value type", d.ValType.String()+scaleNoteText(d))
	}
	// The threshold as the hotsets pane and the form show it, in the statistic's display units
	// (10.0%, not 0.1: issue 32 item 5), with the number SPMI holds beside it.
	thr := v.ThresholdText()
	if d != nil && sp.Threshold != 0 {
		thr = views.ThresholdText(views.MeasureFor(v.StatClass(), d), sp.Threshold) + " (" + thr + " as the statistic's own value)"
	}
	add("threshold", thr)
	add("max_responses", strconv.Itoa(sp.MaxResp))
	add("feed_type", sp.Feed.String())
	add("except_type", sp.Except.String())
	freq := strconv.Itoa(sp.Frequency) + " min"
	if sp.Except == namespace.SiHotNoException {
		freq += " (no exceptions: SPMI wants 0; at least 5 with them)"
	}
	add("frequency", freq)
	add("severity", strconv.Itoa(sp.Severity))
	add("trap_no", strconv.Itoa(sp.TrapNo))
	add("ref_count", strconv.Itoa(v.RefCount()))
	add("avail_resp", strconv.Itoa(v.AvailResp))
	add("count", strconv.Itoa(v.Count))
	errText := v.Err.Line()
	if v.ErrReason != namespace.ReasonNone {
		errText += " — " + v.ErrReason.String()
	}
	add("error", errText)
	if gs := v.Groups(); gs != nil {
		add("peer groups", strconv.Itoa(len(gs)))
	}
	if p.hs != nil {
		add("time", p.fmtTime(p.hs.Time()))
		if tc := p.hs.TimeChange(); tc > 0 {
			add("time_change", tc.Round(time.Millisecond).String())
		}
	}
	vf := valueFormat{loc: p.loc}
	items := func(set *namespace.HotVals, prefix string) {
		for i, it := range set.Items {
			txt := "?"
			var cls *namespace.Class
			if it.Inst != nil {
				cls = it.Inst.Class
			}
			if d != nil {
				txt = vf.text(cls, d, it.Val)
			}
			add(fmt.Sprintf("%sitem %d", prefix, i+1), fmt.Sprintf("%s %s (val %d, val_change %g)", it.Name, txt, it.Val.N, it.Val.Change))
		}
	}
	if gs := v.Groups(); gs != nil {
		for _, g := range gs {
			add("group", fmt.Sprintf("%s: top %d of %d", g.Path(), g.Count, g.AvailResp))
			items(g, "  ")
		}
	} else {
		items(v, "")
	}
	return s
}

func scaleNoteText(d *namespace.Datum) string {
	if d.IsCounter() {
		return " (ranked and compared as a rate per second)"
	}
	return ""
}

func rawText(d *namespace.Datum, v namespace.Value) string {
	switch d.Type {
	case namespace.TypeInt4:
		return strconv.FormatInt(int64(int32(v.N)), 10)
	case namespace.TypeInt8:
		return strconv.FormatInt(int64(v.N), 10)
	}
	return strconv.FormatUint(v.N, 10)
}

func supplierText(cv *namespace.ClassValues) string {
	h := classHealth(cv)
	switch h {
	case healthDegraded, healthDead:
		return h.String() + ": " + errText(cv)
	}
	s := h.String()
	if cv.ResetSeen {
		s += " (re-initialised at this reading, DCI4-SUP-8)"
	}
	return s
}

func (p *inspectorPane) classStatus() namespace.Section {
	s := namespace.Section{Title: "Collection"}
	add := func(k, v string) { s.Fields = append(s.Fields, namespace.Field{Key: k, Value: v}) }
	c := p.ref.Ctx.Stats
	if c == nil {
		c = p.ref.Ctx.Class
	}
	if c == nil || !c.Instantiated() || p.snap == nil {
		return s
	}
	cv := p.snap.Class(c)
	if cv == nil {
		add("state", "not sampled yet")
		return s
	}
	add("class", c.ID.String()+" "+c.Name)
	add("supplier", supplierText(cv))
	add("read at", p.fmtTime(cv.Time))
	if cv.Elapsed > 0 {
		add("interval", cv.Elapsed.Round(time.Millisecond).String())
	}
	if d := cv.End.Sub(cv.Start); d > 0 {
		add("took", d.Round(time.Microsecond).String())
	}
	n := 0
	for _, in := range cv.Insts {
		if in != nil {
			n++
		}
	}
	add("instances", strconv.Itoa(n)) // read by this collection
	add("reset", fmt.Sprintf("%x", cv.Reset[:]))
	if in := p.ref.Ctx.StatsInst; in != nil {
		if inv := cv.InvalidList(in); len(inv) > 0 {
			var names []string
			for _, id := range inv {
				if d := c.Datum(id.Low()); d != nil {
					names = append(names, d.DisplayLabel())
				}
			}
			add("invalid data", strings.Join(names, ", "))
		}
	}
	return s
}

func (p *inspectorPane) scrollTo(o int) { p.offset = clamp(o, 0, max(len(p.lines)-p.h, 0)) }

// Scroll moves the text by n lines, for the mouse wheel.
func (p *inspectorPane) Scroll(n int) { p.scrollTo(p.offset + n) }

// Update handles the pane's keys.
func (p inspectorPane) Update(msg tea.Msg) (inspectorPane, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	p.offset = scrollKey(p.keys.listKeys, km, p.offset, len(p.lines), p.h)
	return p, nil
}

// scrollKey applies a list key to a scroll offset over n lines shown h at a time.
func scrollKey(k listKeys, km tea.KeyMsg, off, n, h int) int {
	switch {
	case key.Matches(km, k.Up):
		off--
	case key.Matches(km, k.Down):
		off++
	case key.Matches(km, k.PageUp):
		off -= max(h-1, 1)
	case key.Matches(km, k.PageDown):
		off += max(h-1, 1)
	case key.Matches(km, k.Top):
		off = 0
	case key.Matches(km, k.Bottom):
		off = n
	}
	return clamp(off, 0, max(n-h, 0))
}

// cursorKey is where a list key moves a cursor among n rows, page rows to a page; ok is false
// for any other key. Every list pane moves its cursor with it.
func cursorKey(k listKeys, km tea.KeyMsg, cur, n, page int) (next int, ok bool) {
	page = max(page, 1)
	switch {
	case key.Matches(km, k.Up):
		return cur - 1, true
	case key.Matches(km, k.Down):
		return cur + 1, true
	case key.Matches(km, k.PageUp):
		return cur - page, true
	case key.Matches(km, k.PageDown):
		return cur + page, true
	case key.Matches(km, k.Top):
		return 0, true
	case key.Matches(km, k.Bottom):
		return n - 1, true
	}
	return cur, false
}

// View renders the visible lines, exactly w×h.
func (p inspectorPane) View() string { return joined(p.view()) }

// view is View as lines exactly w wide, h of them, with their gen (see renderCache): drawn
// again only when what it shows changed.
func (p *inspectorPane) view() ([]string, uint64) {
	k := inspectorKey{ver: p.ver, w: p.w, h: p.h, offset: p.offset}
	return p.cache.view(k, p.render)
}

func (p *inspectorPane) render() []string {
	if p.w <= 0 || p.h <= 0 {
		return nil
	}
	if len(p.lines) == 0 {
		return mutedBlock(p.st, "select a context or statistic", p.w, p.h)
	}
	end := min(p.offset+p.h, len(p.lines))
	// A copy: the kept lines must not change when the pane lays its lines out again.
	return fitBlock(append(make([]string, 0, p.h), p.lines[p.offset:end]...), p.w, p.h)
}

// ShortHelp is the pane's help line.
func (p inspectorPane) ShortHelp() []key.Binding { return []key.Binding{p.keys.Up, p.keys.Down} }

// FullHelp is the pane's help overlay column.
func (p inspectorPane) FullHelp() [][]key.Binding { return [][]key.Binding{p.keys.all()} }

// restyle lays the text out again with the (changed) styles.
func (p *inspectorPane) restyle() { p.layout() }
