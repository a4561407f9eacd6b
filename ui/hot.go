package ui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"dcimon/namespace"
	"dcimon/views"
)

// fsFullAt is the used share (in %) past which a file system is flagged: the default hotset's
// exception threshold, which colours the FS table's Use% (hotPane.limitOf).
const fsFullAt = 90

// procBusyAt is the share of a processor (in %) past which a process raises an exception.
const procBusyAt = 90

// hotRow is one line of the hot pane that the cursor can rest on.
type hotRow struct {
	entry *namespace.HotVals // the hotset entry the row belongs to
	set   *namespace.HotVals // the entry, or one of its peer groups
	item  int                // index into set.Items; -1 for the entry's header, -2 for a group's
}

// hotPane shows the SPMI hotsets: for each peer set its header (path, statistic, threshold, max
// responses, feed, exceptions, qualifying and returned counts, elapsed time) and its ranked items
// with bars. It owns the HotSet and reads it once per snapshot, in Update.
type hotPane struct {
	st   *styles
	vf   valueFormat
	keys *hotKeys
	paneBox

	reg *namespace.Registry
	src *namespace.Reading
	hs  *namespace.HotSet
	// confirmDel is the peer set d asked to delete, until the next key says yes or no.
	confirmDel *namespace.HotVals
	pending    []HotsetConfig                  // defaults whose peers have not appeared yet
	names      map[*namespace.HotVals]string   // each open peer set's name
	alts       map[*namespace.HotVals][]string // the statistic names a configured set tries, kept when it is saved
	critical   map[*namespace.HotVals]float64  // a configured set's critical threshold (hot --check's), kept when it is saved
	tried      uint64                          // the registry generation the pending ones were last tried at
	// onScreen are the configured peer sets open only while their class is selected
	// (HotsetConfig.OnScreen); shown holds those open now, by name.
	onScreen []HotsetConfig
	shown    map[string]*namespace.HotVals
	rows     []hotRow
	cursor   int
	offset   int // first row shown
	err      error

	ver   uint64 // moved on when the rows or the peer sets' readings change
	cache *renderCache[listViewKey]
}

// listViewKey is what a list pane's View reads besides its rows (ver): the hot and events panes.
type listViewKey struct {
	ver                  uint64
	w, h, cursor, offset int
	focused              bool
}

func newHot(st *styles, keys hotKeys, vf valueFormat) hotPane {
	return hotPane{st: st, keys: &keys, vf: vf, cache: newRenderCache[listViewKey]()}
}

// SetSize sets the inner size of the pane.
func (p *hotPane) SetSize(w, h int) {
	p.w, p.h = max(w, 0), max(h, 0)
	p.scrollToCursor()
}

// SetRegistry creates the hotset over the registry and opens the configured peer sets; hotset
// exceptions are written to log.
func (p *hotPane) SetRegistry(reg *namespace.Registry, log *namespace.EventLog, cfgs []HotsetConfig) {
	p.reg = reg
	p.src = namespace.NewReading(nil)
	p.hs = namespace.NewHotSet(reg, p.src, log)
	p.pending, p.onScreen = nil, nil
	for _, c := range cfgs {
		if c.OnScreen {
			p.onScreen = append(p.onScreen, c)
		} else {
			p.pending = append(p.pending, c)
		}
	}
	p.shown = map[string]*namespace.HotVals{}
	p.tried = ^uint64(0)
	p.ver = p.cache.next()
	p.openPending()
}

// limitOf is the lowest positive threshold of the peer sets over statistic d of class c (as the
// statistic's decoded value), ok false where no peer set has one. The values pane colours cells by
// it: the fullest file systems' 90% turns a file system's Use% red.
func (p *hotPane) limitOf(c *namespace.Class, d *namespace.Datum) (lim float64, ok bool) {
	if p.hs == nil || c == nil || d == nil {
		return 0, false
	}
	for _, v := range p.hs.Entries() {
		t := v.Spec().Threshold
		sc, sd := v.StatClass(), v.Stat()
		if t <= 0 || sc == nil || sd == nil || sd.ID != d.ID || !sc.ID.Equal(c.ID) {
			continue
		}
		if !ok || t < lim {
			lim, ok = t, true
		}
	}
	return lim, ok
}

// ShowFor opens the on-screen peer sets of the class the selected context is in (the top
// processes while Proc or a process is selected) and closes the others. One that cannot open
// yet (its class has no instance before it is first read) is tried again at the next call.
func (p *hotPane) ShowFor(sel *namespace.Context) {
	if p.hs == nil || len(p.onScreen) == 0 {
		return
	}
	top := ""
	for c := sel; c != nil && c.Parent() != nil; c = c.Parent() {
		top = c.Name
	}
	changed := false
	for _, c := range p.onScreen {
		v := p.shown[c.Name]
		want := top != "" && top == strings.SplitN(strings.Trim(c.Grandpa, "/"), "/", 2)[0]
		switch {
		case want && v == nil:
			if nv, err := p.addConfig(c); err == nil {
				p.shown[c.Name], changed = nv, true
			}
		case !want && v != nil:
			_ = p.hs.Del(v)
			delete(p.names, v)
			delete(p.alts, v)
			delete(p.shown, c.Name)
			changed = true
		}
	}
	if changed {
		if p.src.Snapshot() != nil {
			p.err = p.hs.Read(false)
		}
		p.ver = p.cache.next()
		p.rebuildRows()
	}
}

// SetSnapshot publishes the tick's one snapshot to the hotset's shared reading and reads every peer set
// from it (X-4, SPMI-HOT-17); the read raises the exceptions into the event log.
func (p *hotPane) SetSnapshot(snap *namespace.Snapshot) {
	if p.hs == nil || snap == nil {
		return
	}
	p.openPending()
	p.src.Publish(snap)
	p.err = p.hs.Read(false)
	p.rebuildRows()
}

// Add opens a peer set with spec; when replace is not nil the new one takes its place (an edit).
func (p *hotPane) Add(spec namespace.HotSpec, replace *namespace.HotVals) (*namespace.HotVals, error) {
	v, err := p.hs.Add(spec)
	if err != nil {
		return nil, err
	}
	name := ""
	if replace != nil {
		name = p.names[replace] // an edit keeps its name
	}
	if replace != nil && replace != v {
		_ = p.hs.Del(replace)
		delete(p.names, replace)
		if a, ok := p.alts[replace]; ok {
			p.alts[v] = a
			delete(p.alts, replace)
		}
		if c, ok := p.critical[replace]; ok {
			p.critical[v] = c
			delete(p.critical, replace)
		}
	}
	p.name(v, name)
	if p.src.Snapshot() != nil {
		p.err = p.hs.Read(false)
	}
	p.rebuildRows()
	p.selectEntry(v)
	return v, nil
}

// Delete closes the selected peer set.
func (p *hotPane) Delete(v *namespace.HotVals) error {
	if err := p.hs.Del(v); err != nil {
		return err
	}
	for name, sv := range p.shown {
		if sv == v { // an on-screen peer set deleted is not opened again
			delete(p.shown, name)
			p.onScreen = slices.DeleteFunc(p.onScreen, func(c HotsetConfig) bool { return c.Name == name })
		}
	}
	delete(p.names, v)
	delete(p.alts, v)
	p.rebuildRows()
	p.moveTo(p.cursor)
	return nil
}

// name records v's name: name, or one made from its path and statistic ("Disk-busy", then
// "Disk-busy-2"), unique among the open and pending peer sets.
func (p *hotPane) name(v *namespace.HotVals, name string) {
	if p.names == nil {
		p.names = map[*namespace.HotVals]string{}
	}
	if _, ok := p.names[v]; ok && name == "" {
		return
	}
	if name == "" {
		base := strings.NewReplacer("/", "-", " ", "-", "*", "all").Replace(strings.Trim(v.Spec().Grandpa, "/")) + "-" + v.Spec().Stat
		taken := func(n string) bool {
			for w, m := range p.names {
				if m == n && w != v {
					return true
				}
			}
			return slices.ContainsFunc(p.pending, func(c HotsetConfig) bool { return c.Name == n })
		}
		name = base
		for i := 2; taken(name); i++ {
			name = fmt.Sprintf("%s-%d", base, i)
		}
	}
	p.names[v] = name
}

// Entries are the open peer sets.
func (p *hotPane) Entries() []*namespace.HotVals {
	if p.hs == nil {
		return nil
	}
	return p.hs.Entries()
}

// selectEntry puts the cursor on a peer set's header and scrolls its items into view too, as
// many as fit (issue 12: a new hotset was saved out of view).
func (p *hotPane) selectEntry(v *namespace.HotVals) {
	for i, r := range p.rows {
		if r.entry == v && r.item == -1 {
			p.moveTo(i)
			last := i
			for last+1 < len(p.rows) && p.rows[last+1].entry == v {
				last++
			}
			for p.offset < i && p.h > 0 && p.linesBetween(p.offset, last+1) > p.h {
				p.offset++
			}
			return
		}
	}
}

func (p *hotPane) rebuildRows() {
	p.ver = p.cache.next()
	var cur *namespace.HotVals
	if p.cursor < len(p.rows) {
		cur = p.rows[p.cursor].entry
	}
	p.rows = p.rows[:0]
	for _, e := range p.Entries() {
		p.rows = append(p.rows, hotRow{entry: e, set: e, item: -1})
		if gs := e.Groups(); gs != nil {
			for _, g := range gs {
				p.rows = append(p.rows, hotRow{entry: e, set: g, item: -2})
				for i := range g.Items {
					p.rows = append(p.rows, hotRow{entry: e, set: g, item: i})
				}
			}
			continue
		}
		for i := range e.Items {
			p.rows = append(p.rows, hotRow{entry: e, set: e, item: i})
		}
	}
	if cur != nil && (p.cursor >= len(p.rows) || p.rows[p.cursor].entry != cur) {
		p.selectEntry(cur)
	}
	p.moveTo(p.cursor)
}

// rowLines is how many screen lines a row takes: an entry's header takes two.
func (r hotRow) rowLines() int {
	if r.item == -1 {
		return 2
	}
	return 1
}

// Selected is the row under the cursor as a reference: a peer's statistic, or the grandparent.
func (p *hotPane) Selected() namespace.Ref {
	if p.cursor >= len(p.rows) {
		return namespace.Ref{}
	}
	r := p.rows[p.cursor]
	if r.item >= 0 && r.item < len(r.set.Items) {
		if in := r.set.Items[r.item].Inst; in != nil && !in.Removed() {
			return namespace.Ref{Ctx: in.Context(), Datum: r.entry.Stat()}
		}
	}
	if gp := r.set.Grandpa(); gp != nil && !gp.Deleted() {
		return namespace.Ref{Ctx: gp}
	}
	return namespace.Ref{}
}

// OnHeader reports whether the cursor is on a peer set's header rather than one of its items.
func (p *hotPane) OnHeader() bool {
	return p.cursor < len(p.rows) && p.rows[p.cursor].item == -1
}

// SelectedEntry is the hotset entry under the cursor, or nil.
func (p *hotPane) SelectedEntry() *namespace.HotVals {
	if p.cursor >= len(p.rows) {
		return nil
	}
	return p.rows[p.cursor].entry
}

func (p *hotPane) moveTo(i int) {
	if len(p.rows) == 0 {
		p.cursor, p.offset = 0, 0
		return
	}
	p.cursor = clamp(i, 0, len(p.rows)-1)
	p.scrollToCursor()
}

// scrollToCursor keeps the cursor's row, with its header when it has one, on screen.
func (p *hotPane) scrollToCursor() {
	if p.h <= 0 || len(p.rows) == 0 {
		return
	}
	if p.cursor < p.offset {
		p.offset = p.cursor
	}
	for p.offset < p.cursor && p.linesBetween(p.offset, p.cursor+1) > p.h {
		p.offset++
	}
}

func (p *hotPane) linesBetween(a, b int) int {
	n := 0
	for i := a; i < b && i < len(p.rows); i++ {
		n += p.rows[i].rowLines()
	}
	return n
}

// Scroll moves the cursor by n rows, for the mouse wheel.
func (p *hotPane) Scroll(n int) { p.moveTo(p.cursor + n) }

// ClickRow selects the row drawn at line y of the pane.
func (p *hotPane) ClickRow(y int) {
	line := 0
	for i := p.offset; i < len(p.rows); i++ {
		line += p.rows[i].rowLines()
		if y < line {
			p.moveTo(i)
			return
		}
	}
}

// formRequestMsg asks the root to open the hotset form: for a new peer set when edit is nil.
type formRequestMsg struct{ edit *namespace.HotVals }

func formRequestCmd(edit *namespace.HotVals) tea.Cmd {
	return func() tea.Msg { return formRequestMsg{edit: edit} }
}

// Update handles the pane's keys.
func (p hotPane) Update(msg tea.Msg) (hotPane, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	k := p.keys
	if i, ok := cursorKey(k.listKeys, km, p.cursor, len(p.rows), p.h/2); ok {
		p.moveTo(i)
		return p, nil
	}
	if e := p.confirmDel; e != nil {
		// The key after d: d again or y deletes, anything else keeps the peer set (issue 12).
		p.confirmDel = nil
		if key.Matches(km, k.Delete) || km.String() == "y" {
			name := e.Path() + " " + e.Spec().Stat
			if err := p.Delete(e); err != nil {
				p.err = err
				return p, flashCmd("hotset "+name+": "+views.PlainError(err), true)
			}
			// One message: the note and the save in that order, so a failed save is never hidden
			// by the note arriving after it (issue 41 item 8).
			return p, func() tea.Msg { return hotsetsChangedMsg{note: "hotset " + name + " deleted"} }
		}
		return p, flashCmd("hotset kept", false)
	}
	switch {
	case key.Matches(km, k.New):
		return p, formRequestCmd(nil)
	case key.Matches(km, k.Edit):
		if e := p.SelectedEntry(); e != nil {
			return p, formRequestCmd(e)
		}
	case key.Matches(km, k.Delete):
		if e := p.SelectedEntry(); e != nil {
			p.confirmDel = e
			return p, flashCmd("delete hotset "+e.Path()+" "+e.Spec().Stat+"? d or y deletes, any other key keeps it", false)
		}
	case key.Matches(km, k.Open):
		if r := p.Selected(); r.Ctx != nil {
			return p, openCmd(r.Ctx.Path())
		}
	}
	return p, nil
}

// View renders the pane, exactly w×h.
func (p hotPane) View() string { return joined(p.view()) }

// ShortHelp is the pane's help line.
func (p hotPane) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.New, p.keys.Edit, p.keys.Delete}
}

// FullHelp is the pane's help overlay column.
func (p hotPane) FullHelp() [][]key.Binding {
	return [][]key.Binding{append(p.keys.all(), p.keys.New, p.keys.Edit, p.keys.Delete, p.keys.Open)}
}

// restyle draws the pane again with the (changed) styles.
func (p *hotPane) restyle() { p.ver = p.cache.next() }

// Blur takes the focus away, and with it a deletion that was waiting for its yes.
func (p *hotPane) Blur() {
	p.confirmDel = nil
	p.paneBox.Blur()
}
