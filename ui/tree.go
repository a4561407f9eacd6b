package ui

import (
	"maps"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"dcimon/namespace"
	"dcimon/views"
)

// treePane shows the SPMI context tree: contexts, instance subcontexts and statistics. It keeps a
// flattened list of the visible rows, rebuilt only when the name space changes (its generation),
// a context is expanded or collapsed, or the filter changes; View renders only the rows on screen.
type treePane struct {
	st   *styles
	keys *treeKeys
	paneBox

	reg     *namespace.Registry
	gen     uint64
	built   bool
	rows    []treeRow
	cursor  int
	offset  int
	open    map[string]bool // explicit expand state by path; absent = default (top level open)
	selKey  string          // the selected row's path, kept across rebuilds
	health  healthMap
	filter  string
	index   *filterIndex
	matches int
	first   int // the first matching row

	ver   uint64 // moved on when the rows or the health markers change
	cache *renderCache[treeKey]

	// Values beside statistic names when the pane is wide (the compact layout, where the tree
	// is the whole screen): read from snap, formatted by vf.
	snap  *namespace.Snapshot
	vf    valueFormat
	nameW int       // the cells before the value column, worked out per render
	valW  int       // the value column's width (0: no values)
	vals  []treeVal // the values of the rows in view, per render
}

// Inline values: a statistic row shows its value in a column of at least treeValueW cells when
// the pane is at least treeValuesMinW wide, which leaves names more than DCI4-SUP-7's 20.
const (
	treeValuesMinW = 60
	treeValueW     = 14
)

// showsValues reports whether the tree has room for its value column.
func (p *treePane) showsValues() bool { return p.w >= treeValuesMinW }

// SetSnapshot gives the tree the values its statistic rows show when it is wide.
func (p *treePane) SetSnapshot(snap *namespace.Snapshot) { p.snap = snap }

// VisibleStatClasses are the classes of the statistic rows on screen whose values the tree
// shows (none when it is too narrow to show values): the monitor subscribes to them.
func (p *treePane) VisibleStatClasses(add func(*namespace.Class)) {
	if !p.showsValues() {
		return
	}
	for i := p.offset; i < min(p.offset+p.h, len(p.rows)); i++ {
		if r := &p.rows[i]; r.datum != nil && r.ctx.Stats != nil {
			add(r.ctx.Stats)
		}
	}
}

// treeKey is what the tree's View reads besides the rows and health markers (ver).
type treeKey struct {
	ver            uint64
	w, h           int
	cursor, offset int
	focused        bool
	filter         string
	snap           uint64 // the snapshot the values come from, when the tree shows them
}

func newTree(st *styles, keys treeKeys) treePane {
	return treePane{st: st, keys: &keys, open: map[string]bool{}, cache: newRenderCache[treeKey]()}
}

// SetSize sets the inner size of the pane.
func (p *treePane) SetSize(w, h int) {
	p.w, p.h = max(w, 0), max(h, 0)
	p.scrollToCursor()
}

// SetRegistry sets the name space shown and rebuilds the rows when its generation changed.
func (p *treePane) SetRegistry(reg *namespace.Registry) {
	gen := reg.Generation()
	if p.reg == reg && p.built && gen == p.gen {
		return
	}
	p.reg, p.gen = reg, gen
	p.rebuild()
}

// SetHealth sets the supplier health markers.
func (p *treePane) SetHealth(h healthMap) {
	if maps.Equal(h, p.health) {
		return // nothing to draw again
	}
	p.health = h
	p.ver = p.cache.next()
}

// SetFilter shows only the rows matching text (and the contexts above them); "" shows the tree.
func (p *treePane) SetFilter(text string) {
	if text == p.filter {
		return
	}
	if text == "" && p.selKey != "" {
		// Leaving the filter keeps the row found with it on screen: open the contexts above it.
		parts := strings.Split(p.selKey, "/")
		for i := 1; i < len(parts); i++ {
			p.open[strings.Join(parts[:i], "/")] = true
		}
	}
	p.filter = text
	p.rebuild()
}

// Filter is the current filter text.
func (p *treePane) Filter() string { return p.filter }

// Matches is the number of rows the filter matched.
func (p *treePane) Matches() int { return p.matches }

// Len is the number of visible rows.
func (p *treePane) Len() int { return len(p.rows) }

// Selected is the reference of the row under the cursor (a zero Ref when the tree is empty).
func (p *treePane) Selected() namespace.Ref {
	if p.cursor < 0 || p.cursor >= len(p.rows) {
		return namespace.Ref{}
	}
	return p.rows[p.cursor].ref()
}

// SelectedPath is the full path of the row under the cursor.
func (p *treePane) SelectedPath() string {
	if p.cursor < 0 || p.cursor >= len(p.rows) {
		return ""
	}
	return p.rows[p.cursor].full()
}

func (p *treePane) isOpen(path string, depth int) bool {
	if v, ok := p.open[path]; ok {
		return v
	}
	return depth == 0
}

// rebuild recomputes the visible rows and puts the cursor back on the selected path, or on the
// nearest context above it when that has gone.
func (p *treePane) rebuild() {
	if p.reg == nil {
		return
	}
	p.built = true
	p.ver = p.cache.next()
	p.reg.Read(func() {
		if p.filter == "" {
			p.rows = flatten(p.reg.Top(), p.isOpen, p.rows)
			p.matches = 0
			return
		}
		if p.index == nil || p.index.gen != p.gen {
			p.index = buildFilterIndex(p.reg.Top(), p.gen)
		}
		p.rows, p.matches, p.first = p.index.filterRows(p.filter, p.rows)
	})
	p.reselect()
}

func (p *treePane) reselect() {
	if len(p.rows) == 0 {
		p.cursor, p.offset = 0, 0
		return
	}
	key := p.selKey
	if p.filter != "" {
		// Filtering: stay on the selected row while it matches, else go to the first match.
		for i := range p.rows {
			if p.rows[i].match && p.rows[i].is(key) {
				p.cursor = i
				p.scrollToCursor()
				return
			}
		}
		p.cursor = max(p.first, 0)
		p.selKey = p.rows[p.cursor].full()
		p.scrollToCursor()
		return
	}
	for key != "" {
		for i := range p.rows {
			if p.rows[i].is(key) {
				p.cursor = i
				p.scrollToCursor()
				return
			}
		}
		i := strings.LastIndexByte(key, '/')
		if i < 0 {
			break
		}
		key = key[:i]
	}
	p.cursor = clamp(p.cursor, 0, len(p.rows)-1)
	p.selKey = p.rows[p.cursor].full()
	p.scrollToCursor()
}

// Reveal opens the contexts above ref's path and puts the cursor on it.
func (p *treePane) Reveal(path string) {
	if p.filter != "" {
		p.filter = ""
	}
	parts := strings.Split(path, "/")
	for i := 1; i < len(parts); i++ {
		p.open[strings.Join(parts[:i], "/")] = true
	}
	p.selKey = path
	p.rebuild()
}

func (p *treePane) moveTo(i int) {
	if len(p.rows) == 0 {
		return
	}
	p.cursor = clamp(i, 0, len(p.rows)-1)
	p.selKey = p.rows[p.cursor].full()
	p.scrollToCursor()
}

func (p *treePane) scrollToCursor() {
	if p.h <= 0 {
		return
	}
	p.offset = keepInView(p.cursor, p.offset, p.h, len(p.rows))
}

// Scroll moves the view (and the cursor with it) by n rows, for the mouse wheel.
func (p *treePane) Scroll(n int) { p.moveTo(p.cursor + n) }

// ClickRow selects the row at line y of the pane (0 = first inner line).
func (p *treePane) ClickRow(y int) {
	if i := p.offset + y; i >= 0 && i < len(p.rows) {
		p.moveTo(i)
	}
}

func (p *treePane) setOpen(i int, open bool) {
	r := p.rows[i]
	if !r.expandable() || r.expanded == open {
		return
	}
	p.open[r.path] = open
	if p.filter != "" {
		// Leaving the filter to show the whole subtree is what a person expanding a match wants.
		p.filter = ""
	}
	p.rebuild()
	if open {
		p.showChildren()
	}
}

// showChildren scrolls so that the rows just opened under the cursor are in view, as many as
// fit with the cursor's row still on screen (issue 12: opening the last visible row showed
// nothing new).
func (p *treePane) showChildren() {
	if p.h <= 0 || p.cursor >= len(p.rows) {
		return
	}
	depth := p.rows[p.cursor].depth
	last := p.cursor
	for last+1 < len(p.rows) && p.rows[last+1].depth > depth && last-p.cursor < p.h-1 {
		last++
	}
	if last >= p.offset+p.h {
		p.offset = min(last-p.h+1, p.cursor)
	}
}

// Update handles the pane's keys.
func (p treePane) Update(msg tea.Msg) (treePane, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok || len(p.rows) == 0 {
		return p, nil
	}
	k := p.keys
	if i, ok := cursorKey(k.listKeys, km, p.cursor, len(p.rows), p.h-1); ok {
		p.moveTo(i)
		return p, nil
	}
	switch {
	case key.Matches(km, k.Toggle):
		p.setOpen(p.cursor, !p.rows[p.cursor].expanded)
	case key.Matches(km, k.Expand):
		r := p.rows[p.cursor]
		if r.expandable() && !r.expanded {
			p.setOpen(p.cursor, true)
		} else if r.expanded {
			p.moveTo(p.cursor + 1)
		}
	case key.Matches(km, k.Collapse):
		r := p.rows[p.cursor]
		if r.expanded {
			p.setOpen(p.cursor, false)
		} else if full := r.full(); strings.LastIndexByte(full, '/') > 0 {
			parent := full[:strings.LastIndexByte(full, '/')]
			for j := p.cursor - 1; j >= 0; j-- {
				if p.rows[j].is(parent) {
					p.moveTo(j)
					break
				}
			}
		}
	}
	return p, nil
}

// View renders the visible rows, exactly w×h.
func (p treePane) View() string { return joined(p.view()) }

// view is View as lines exactly w wide, h of them, with their gen (see renderCache): drawn
// again only when what it shows changed.
func (p *treePane) view() ([]string, uint64) {
	k := treeKey{ver: p.ver, w: p.w, h: p.h, cursor: p.cursor, offset: p.offset, focused: p.focused, filter: p.filter}
	if p.showsValues() && p.snap != nil {
		k.snap = p.snap.Seq
	}
	return p.cache.view(k, p.render)
}

func (p *treePane) render() []string {
	if p.w <= 0 || p.h <= 0 {
		return nil
	}
	lines := make([]string, 0, p.h)
	if len(p.rows) == 0 {
		msg := "the name space is empty"
		if p.filter != "" {
			msg = "nothing matches “" + p.filter + "”"
		}
		return fitBlock(append(lines, p.st.Text.Muted.Render(pad(msg, p.w))), p.w, p.h)
	}
	end := min(p.offset+p.h, len(p.rows))
	// With values, the value column follows the longest name in view rather than the far edge,
	// so the eye does not cross an empty half screen from a name to its value, and it is as
	// wide as the widest value in view (a date, a MAC address), within what the names leave.
	p.nameW, p.valW = p.w, 0
	p.vals = p.vals[:0]
	if p.showsValues() {
		p.nameW = 0
		for i := p.offset; i < end; i++ {
			r := &p.rows[i]
			p.nameW = max(p.nameW, p.rowWidth(r))
			v := treeVal{ink: p.st.Text.Normal}
			if r.datum != nil {
				v.text, v.ink = p.valueText(r)
			}
			p.vals = append(p.vals, v)
		}
		p.valW = p.alignVals()
		p.nameW = min(p.nameW+2, p.w-treeValueW-1)
		p.valW = min(max(p.valW, treeValueW), p.w-p.nameW-1)
	}
	for i := p.offset; i < end; i++ {
		lines = append(lines, p.renderRow(&p.rows[i], i == p.cursor, i-p.offset))
	}
	return fitBlock(lines, p.w, p.h)
}

// treeVal is a statistic row's value as the value column shows it.
type treeVal struct {
	text string
	ink  ink
}

// rowWidth is the cells a row's indent, marker, name, count and health flag take.
func (p *treePane) rowWidth(r *treeRow) int {
	n := 2*min(r.depth, 12) + 2
	if r.datum != nil {
		return n + width(r.datum.Name)
	}
	n += width(r.ctx.Name) + width(unavailNote(r))
	if r.kids > 0 {
		n += 3 + len(strconv.Itoa(r.kids))
	}
	return n + 2 // a health flag
}

// unavailNote is " (disabled)", " (not implemented)", … for a context whose class is not sampled
// (DCI-CLS-2), "" otherwise.
func unavailNote(r *treeRow) string {
	if r.datum != nil {
		return ""
	}
	if c := r.ctx.Class; c != nil && c.Unavailable() != "" {
		return " (" + c.Unavailable() + ")"
	}
	if c := r.ctx.Stats; c != nil && c.Unavailable() != "" {
		return " (" + c.Unavailable() + ")"
	}
	return ""
}

func (p *treePane) renderRow(r *treeRow, selected bool, k int) string {
	indent := strings.Repeat("  ", min(r.depth, 12))
	marker := "  "
	switch {
	case r.datum != nil:
		marker = "· "
	case r.expanded:
		marker = "▾ "
	case r.expandable():
		marker = "▸ "
	}
	name := r.ctx.Name
	if r.datum != nil {
		name = r.datum.Name
	}
	count := ""
	if r.datum == nil && r.kids > 0 {
		count = " (" + strconv.Itoa(r.kids) + ")"
	}
	flag, flagStyle := "", p.st.Tree.Degraded
	if r.datum == nil {
		switch p.health.of(r.ctx) {
		case healthDegraded:
			flag = " !"
		case healthDead:
			flag, flagStyle = " ✗", p.st.Tree.Dead
		}
	}
	// The value column, when the pane is wide: the statistic's value with its unit, or its mark.
	w := p.w
	val, valInk := "", p.st.Text.Normal
	if p.valW > 0 && k < len(p.vals) {
		w = p.nameW
		val, valInk = cut(p.vals[k].text, p.valW), p.vals[k].ink
	}
	if note := unavailNote(r); note != "" && width(indent)+width(marker)+width(name)+width(count)+width(note) <= w-2 {
		count += note // a class that is not sampled says why (DCI-CLS-2), where the name leaves room
	}
	// The name keeps at least 20 characters when the pane allows (DCI4-SUP-7): on a deep row
	// the indent gives way first, then a statistic's marker.
	room := w - width(flag) - width(count)
	if need := width(indent) + width(marker) + width(name); need > room {
		over := need - room
		trim := min(over, len(indent))
		indent = indent[:len(indent)-trim]
		if over > trim && r.datum != nil && room-width(name) < width(marker)+1 {
			marker = ""
		}
	}
	text := cut(indent+marker+name, max(room, 0))
	line := text + count
	if selected {
		st := p.st.Row.SelectedBlur
		if p.focused {
			st = p.st.Row.Selected
		}
		if w < p.w {
			return st.Render(pad(line, w-width(flag))) + flagStyle.Render(flag) + st.Render(pad(" "+padLeft(val, p.valW), p.w-w))
		}
		return st.Render(pad(line, p.w-width(flag))) + flagStyle.Render(flag)
	}
	var sb strings.Builder
	lead := len(indent) + len(marker)
	if lead > len(text) {
		lead = 0
	}
	if r.datum != nil {
		sb.WriteString(p.st.Tree.Marker.Render(text[:lead]))
		sb.WriteString(p.st.Tree.Stat.Render(text[lead:]))
	} else {
		ns := p.st.Text.Normal
		if p.filter != "" && !r.match {
			ns = p.st.Text.Muted // shown only because something below it matched
		}
		sb.WriteString(p.st.Tree.Marker.Render(text[:lead]))
		sb.WriteString(ns.Render(text[lead:]))
	}
	sb.WriteString(p.st.Tree.Count.Render(count))
	if fill := w - width(line) - width(flag); fill > 0 {
		sb.WriteString(blanks(fill))
	}
	sb.WriteString(flagStyle.Render(flag))
	if w < p.w {
		sb.WriteByte(' ')
		valInk.writePadLeft(&sb, val, p.valW)
		sb.WriteString(blanks(p.w - w - 1 - p.valW))
	}
	return sb.String()
}

// alignVals lays the values in view out so that numbers line up on their last digit and units on
// their first letter (issue 12: `4.5%` under `12.4 MiB/s`), and returns the column's width.
func (p *treePane) alignVals() int {
	numW, unitW, other := 0, 0, 0
	for i := range p.vals {
		num, unit := views.SplitUnit(p.vals[i].text)
		switch {
		case unit != "":
			numW, unitW = max(numW, width(num)), max(unitW, width(unit))
		case len(num) <= 8:
			numW = max(numW, width(num))
		default:
			other = max(other, width(num))
		}
	}
	for i := range p.vals {
		if p.vals[i].text != "" {
			p.vals[i].text = views.AlignValue(p.vals[i].text, numW, unitW)
		}
	}
	return max(other, numW+1+unitW)
}

// valueText is a statistic row's value for the value column and the ink its state is painted
// with (valueInk): a mark is never shown as a number.
func (p *treePane) valueText(r *treeRow) (string, ink) {
	if p.snap == nil || r.ctx.Stats == nil {
		return "", p.st.Text.Muted
	}
	c := r.ctx.Stats
	i := c.DatumIndex(r.datum.ID)
	if i < 0 {
		return "", p.st.Text.Muted
	}
	v, ok := p.snap.Class(c).Value(r.ctx.StatsInst, i)
	if !ok {
		return "", p.st.Text.Muted
	}
	return safe(p.vf.text(c, r.datum, v)), valueInk(p.st, v)
}

// ShortHelp is the pane's help line.
func (p treePane) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.Up, p.keys.Down, p.keys.Toggle}
}

// FullHelp is the pane's help overlay column.
func (p treePane) FullHelp() [][]key.Binding {
	return [][]key.Binding{append(p.keys.all(), p.keys.Toggle, p.keys.Expand, p.keys.Collapse)}
}

// restyle draws the pane again with the (changed) styles.
func (p *treePane) restyle() { p.ver = p.cache.next() }
