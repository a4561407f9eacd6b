package ui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"dcimon/namespace"
)

// valuesMode is what the values pane shows for the selected context: empty; statistics (one row
// per statistic of the context); instances (one row per instance subcontext, one column per
// statistic); subcontexts (an uninstantiated class: its subcontexts, DCI-NS-3).
type valuesMode int

const (
	valuesEmpty    valuesMode = iota // empty
	valuesStats                      // statistics
	valuesTable                      // instances
	valuesChildren                   // subcontexts
)

// statRow is one statistic of the context shown in statistics mode.
type statRow struct {
	datum *namespace.Datum
	di    int
	text  bool // shown as DCI4 text (strings, times, addresses, booleans): no sparkline or bar
}

// childRow is one subcontext in subcontexts mode.
type childRow struct {
	ctx         *namespace.Context
	kids, stats int
}

// valuesPane shows the values of the selected context: its statistics with sparklines and bars
// on their SPMI scale, a sortable table of its instances (the per-disk table reads like
// `iostat -x`), or the subcontexts of an uninstantiated class.
type valuesPane struct {
	st    *styles
	vf    valueFormat
	keys  *valuesKeys
	pkeys *procKeys // htop's keys, while the table is a process table
	paneBox

	reg  *namespace.Registry
	gen  uint64
	snap *namespace.Snapshot
	ctx  *namespace.Context
	want *namespace.Datum // the statistic selected in the tree
	mode valuesMode

	stats     []statRow
	class     *namespace.Class // the class of the table's instances
	instClass *namespace.Class // the class of the context's instance subcontexts, nil for none
	byOwn     bool             // statistics mode for one of the context's own statistics (ownStat)
	cols      []tableCol
	rows      []tableRow // instance rows, the totals row first when there is one
	order     []int      // row indices in display order
	kids      []childRow
	colOff    int
	nameW     int // the name column of the table, from the longest instance name

	sortCol   int // 0 = name, i+1 = cols[i]
	sortDesc  bool
	autoscale bool
	// forest shows a process table as a tree by parent (T); tdepth is each row's depth then.
	forest  bool
	tdepth  map[int]int
	tprefix map[int]string // each row's branch, drawn before its command
	// filter keeps the table's rows whose name or text holds it (/ while the table has the
	// focus), in any case.
	filter string
	// user keeps one user's processes (u), "" for every user's.
	user string
	// goAway is the supplier a first X chose; a second X sends it away (SPMI-DDS-5).
	goAway string
	// picked is the instance the user put the cursor on in the table, followed across sorts.
	picked *namespace.Instance

	cursor, offset int
	rings          ringStore
	spark          []float64

	ver   uint64 // moved on when the rows, the columns, the order or the snapshot change
	cache *renderCache[valuesKey]

	// layouts are the configured columns and sort of the well-known tables, by table name.
	layouts map[string]TableLayout

	// memTotal is the host's memory (Mem/Real/total, bytes) at the latest snapshot, for %MEM;
	// 0 when the source has none.
	memTotal float64
	// cmdOff scrolls the command line of the process table: → past the last column moves it.
	cmdOff int

	// limit is the threshold of a hotset over a statistic (in the statistic's decoded value, as
	// Value.V), for the colour of its cells; the hot pane's, set by the model.
	limit func(c *namespace.Class, d *namespace.Datum) (float64, bool)
}

// valuesKey is what the values pane's View reads besides what ver stands for.
type valuesKey struct {
	ver                          uint64
	w, h, cursor, offset, colOff int
	sortCol                      int
	sortDesc, autoscale, focused bool
}

func newValues(st *styles, keys valuesKeys, pkeys procKeys, vf valueFormat) valuesPane {
	return valuesPane{st: st, keys: &keys, pkeys: &pkeys, vf: vf, cache: newRenderCache[valuesKey]()}
}

// SetSize sets the inner size of the pane.
func (p *valuesPane) SetSize(w, h int) {
	p.w, p.h = max(w, 0), max(h, 0)
	p.scrollToCursor()
}

// SetSelection shows the context of ref; a statistic in ref is put under the cursor.
func (p *valuesPane) SetSelection(reg *namespace.Registry, ref namespace.Ref) {
	gen := reg.Generation()
	if ref.Ctx == p.ctx && reg == p.reg && gen == p.gen {
		if ref.Datum != nil && ref.Datum != p.want {
			p.want = ref.Datum
			if p.ownStat(p.instClass) != p.byOwn {
				p.reshape(false) // between the context's own statistics and its instances
				p.refresh()
			}
			p.cursorToDatum()
			p.sortByDatum()
		}
		return
	}
	changed := ref.Ctx != p.ctx
	p.reg, p.gen, p.ctx, p.want = reg, gen, ref.Ctx, ref.Datum
	p.reshape(changed)
	if changed {
		p.cursor, p.offset, p.colOff = 0, 0, 0
		p.picked = nil
		p.cursorToDatum()
	}
	p.sortByDatum()
	p.refresh()
}

// sortByDatum ranks the instance table by the statistic selected in the tree, busiest first:
// selecting Disk's %util shows the disks by %util.
func (p *valuesPane) sortByDatum() {
	if p.mode != valuesTable || p.want == nil {
		return
	}
	for i := range p.cols {
		if d := &p.class.Datums[p.cols[i].di]; d.Name == p.want.Name {
			if p.sortCol != i+1 {
				p.sortCol, p.sortDesc = i+1, true
				p.showSortCol()
				p.sortRows()
			}
			return
		}
	}
}

// SetSnapshot feeds a new snapshot: values, sparklines and the table's order.
func (p *valuesPane) SetSnapshot(snap *namespace.Snapshot) {
	p.snap = snap
	p.refresh()
}

// Mode is what the pane shows.
func (p *valuesPane) Mode() valuesMode { return p.mode }

// Selected is the row under the cursor as a reference: a statistic, an instance or a subcontext.
func (p *valuesPane) Selected() namespace.Ref {
	switch p.mode {
	case valuesStats:
		if p.cursor < len(p.stats) {
			return namespace.Ref{Ctx: p.ctx, Datum: p.stats[p.cursor].datum}
		}
	case valuesTable:
		if p.cursor < len(p.order) {
			r := p.rows[p.order[p.cursor]]
			if r.totals {
				return namespace.Ref{Ctx: p.ctx}
			}
			return namespace.Ref{Ctx: r.inst.Context()}
		}
	case valuesChildren:
		if p.cursor < len(p.kids) {
			return namespace.Ref{Ctx: p.kids[p.cursor].ctx}
		}
	}
	return namespace.Ref{Ctx: p.ctx}
}

// reshape works out the mode, rows and columns from the tree (under the registry's lock).
func (p *valuesPane) reshape(ctxChanged bool) {
	p.ver = p.cache.next()
	var gone []tableRow
	if !ctxChanged && p.mode == valuesTable {
		gone = p.goneRows()
	}
	p.stats, p.rows, p.kids = p.stats[:0], p.rows[:0], p.kids[:0]
	if p.ctx == nil {
		p.mode = valuesEmpty
		return
	}
	p.reg.Read(func() { p.shapeLocked(ctxChanged, gone) })
}

// shapeLocked picks what the pane shows of its context, under the registry's read lock: the
// context's own statistics (an instance, a context with no instances, or a statistic of its own
// selected in the tree), else a table of its instances with the gone rows kept, else its
// subcontexts.
func (p *valuesPane) shapeLocked(ctxChanged bool, gone []tableRow) {
	ctx := p.ctx
	instClass := instanceClass(ctx)
	p.instClass = instClass
	p.byOwn = ctx.Kind != namespace.CtxInstance && p.ownStat(instClass)
	switch {
	case ctx.Kind == namespace.CtxInstance || (instClass == nil && ctx.Stats != nil) || p.ownStat(instClass):
		p.mode = valuesStats
		p.statRows(ctx)
	case instClass != nil:
		p.mode = valuesTable
		if instClass != p.class || ctxChanged {
			p.newTable(ctx, instClass)
		}
		p.tableRows(ctx, instClass)
		p.rows = append(p.rows, gone...)
		p.nameW = p.nameWidth(ctx, instClass)
	default:
		p.mode = valuesChildren
		for _, k := range ctx.Children() {
			p.kids = append(p.kids, childRow{ctx: k, kids: len(k.Children()), stats: k.NumStats()})
		}
	}
}

// instanceClass is the class of a context's first instance child: the class its table shows;
// nil when it has no instances.
func instanceClass(ctx *namespace.Context) *namespace.Class {
	for _, k := range ctx.Children() {
		if k.Kind == namespace.CtxInstance {
			return k.Class
		}
	}
	return nil
}

// statRows lists the context's statistics that are shown, one row each.
func (p *valuesPane) statRows(ctx *namespace.Context) {
	for i := range ctx.Stats.Datums {
		if d := &ctx.Stats.Datums[i]; d.Shown() {
			p.stats = append(p.stats, statRow{datum: d, di: i, text: isText(d)})
		}
	}
}

// newTable starts the table of a class afresh: its columns and their default order (top's %CPU,
// highest first, where a column sorts first), no tree, filter or scrolled command line, then the
// user's saved layout for the context where there is one.
func (p *valuesPane) newTable(ctx *namespace.Context, instClass *namespace.Class) {
	p.class = instClass
	p.cols = tableColumns(p.vf, ctx, instClass)
	p.sortCol, p.sortDesc = 0, false
	if i := slices.IndexFunc(p.cols, func(c tableCol) bool { return c.sortFirst }); i >= 0 {
		p.sortCol, p.sortDesc = i+1, true // top's %CPU, highest first
	}
	p.forest, p.filter, p.user, p.cmdOff = false, "", "", 0
	if l, ok := p.layouts[strings.ToLower(ctx.Name)]; ok {
		p.applyLayout(l)
	}
}

// applyLayout orders and hides the columns as the user's saved layout says and sorts by its
// column when it names one that is there.
func (p *valuesPane) applyLayout(l TableLayout) {
	p.cols = l.apply(p.cols)
	if i := slices.IndexFunc(p.cols, func(c tableCol) bool { return c.title() == l.Sort }); i >= 0 && l.Sort != "" {
		p.sortCol, p.sortDesc = i+1, l.Descending
	}
}

// tableRows lists the context's instances of the class, one row each, after a totals row "(all)"
// where the context's own statistics are the totals of its instances' (CPU); nested instances (a
// disk's partitions) follow their parent, as iostat -p.
func (p *valuesPane) tableRows(ctx *namespace.Context, instClass *namespace.Class) {
	if ctx.Stats != nil && slices.ContainsFunc(p.cols, func(c tableCol) bool { return c.ti >= 0 }) {
		p.rows = append(p.rows, tableRow{name: "(all)", path: ctx.Path(), totals: true})
	}
	for _, k := range ctx.Children() {
		if k.Kind != namespace.CtxInstance || k.Class != instClass || k.Inst == nil {
			continue
		}
		p.rows = append(p.rows, tableRow{inst: k.Inst, class: instClass, name: k.Name, path: k.Path()})
		for _, kk := range k.Children() {
			if kk.Kind == namespace.CtxInstance && kk.Inst != nil && kk.Class != instClass {
				p.rows = append(p.rows, tableRow{inst: kk.Inst, class: kk.Class, name: kk.Name,
					path: kk.Path(), depth: 1, parent: k.Name})
			}
		}
	}
}

// nameWidth is the width of the name column: the widest name (a partition's indented, a gone
// row's with " (gone)" unless its class comes and goes by nature), at least 6 and at most 16
// cells, a cell more for PIDs, which are right-aligned with a space before the next column.
func (p *valuesPane) nameWidth(ctx *namespace.Context, instClass *namespace.Class) int {
	w := 6
	for _, r := range p.rows {
		rw := width(r.name) + r.depth
		if r.gone && !instClass.Churn {
			rw += len(" (gone)") // a process that exited is greyed only: they come and go
		}
		w = max(w, rw)
	}
	if nameHeaders[ctx.Name] == "PID" {
		w++ // right-aligned PIDs keep a space before the next column
	}
	return min(w, 16)
}

// goneRows are the table's rows whose instance has been removed, with their final values taken
// from the snapshot still held (the one before the removal), and the gone rows of the last
// reshape that are still to be shown (DCI-EVT-4). Called before the rows are made again.
func (p *valuesPane) goneRows() []tableRow {
	var out []tableRow
	for i := range p.rows {
		r := &p.rows[i]
		switch {
		case r.gone:
			out = append(out, *r)
		case r.totals || r.inst == nil || !r.inst.Removed() || p.snap == nil:
		default:
			g := tableRow{inst: r.inst, class: r.class, name: r.name, path: r.path, depth: r.depth, parent: r.parent,
				gone: true, goneAt: p.snap.Seq, last: make(map[string]namespace.Value, len(p.cols))}
			for j := range p.cols {
				if v, ok := p.cell(r, &p.cols[j]); ok {
					g.last[p.cols[j].key()] = v
				}
			}
			out = append(out, g)
		}
	}
	return out
}

// dropGone removes the gone rows that have been shown for one interval.
func (p *valuesPane) dropGone() {
	if p.snap == nil {
		return
	}
	keep := p.rows[:0]
	dropped := false
	for _, r := range p.rows {
		if r.gone && r.goneAt+1 < p.snap.Seq {
			dropped = true
			continue
		}
		keep = append(keep, r)
	}
	p.rows = keep
	if dropped {
		p.cursor = min(p.cursor, max(len(p.rows)-1, 0))
	}
}

// ownStat reports whether the statistic selected in the tree is one of the context's own that
// the instance table has no column for (Monitor's cpu above its providers): it is then shown
// with the context's statistics rather than lost in a table of something else.
func (p *valuesPane) ownStat(instClass *namespace.Class) bool {
	d, ctx := p.want, p.ctx
	if d == nil || ctx == nil || ctx.Stats == nil || instClass == nil {
		return false
	}
	if i := ctx.Stats.DatumIndex(d.ID); i < 0 || &ctx.Stats.Datums[i] != d {
		return false
	}
	j := instClass.DatumByName(d.Name)
	return j < 0 || instClass.Datums[j].ID != d.ID
}

// isText reports whether a statistic's values read as text (strings, times, addresses,
// booleans) rather than as quantities with a sparkline and a bar.
func isText(d *namespace.Datum) bool {
	if d.IsDerived() {
		return false
	}
	if !d.Type.IsNumeric() {
		return true
	}
	switch d.DCI4.Type {
	case namespace.STString, namespace.STTime, namespace.STAddress, namespace.STBoolean:
		return true
	}
	return false
}

func (p *valuesPane) cursorToDatum() {
	if p.mode != valuesStats || p.want == nil {
		return
	}
	for i, s := range p.stats {
		if s.datum == p.want {
			p.cursor = i
			p.scrollToCursor()
			return
		}
	}
}

// refresh recomputes what depends on the snapshot: sparkline rings, column units and the order.
func (p *valuesPane) refresh() {
	p.ver = p.cache.next()
	if p.snap == nil {
		p.order = p.order[:0]
		for i := range p.rows {
			p.order = append(p.order, i)
		}
		return
	}
	switch p.mode {
	case valuesStats:
		cv := p.snap.Class(p.ctx.Stats)
		if cv == nil {
			return
		}
		in := p.ctx.StatsInst
		for _, s := range p.stats {
			if v, ok := cv.Value(in, s.di); ok {
				p.rings.feed(ringKey{in, s.di}, p.snap.Seq, v)
			}
		}
		p.rings.prune(p.snap.Seq)
	case valuesTable:
		p.memTotal = 0
		if ref, err := p.reg.Lookup(nil, "Mem/Real/total"); err == nil {
			if v, _, ok := p.snap.Lookup(ref); ok && v.State == namespace.Valid {
				p.memTotal = v.V
			}
		}
		p.dropGone()
		p.fitColumns()
		p.sortRows()
	}
}

func (p *valuesPane) rowCount() int {
	switch p.mode {
	case valuesStats:
		return len(p.stats)
	case valuesTable:
		return len(p.order)
	case valuesChildren:
		return len(p.kids)
	}
	return 0
}

// bodyH is the number of rows below the pane's header lines.
func (p *valuesPane) bodyH() int { return max(p.h-p.headerLines(), 0) }

func (p *valuesPane) headerLines() int {
	n := 1
	if p.mode == valuesTable {
		n = 2
	}
	n += len(p.degradedLines())
	return min(n, p.h)
}

func (p *valuesPane) degraded() string {
	if p.snap == nil || p.ctx == nil {
		return ""
	}
	c := p.ctx.Stats
	if p.mode == valuesTable {
		c = p.class
	}
	cv := p.snap.Class(c)
	if cv == nil {
		return ""
	}
	switch classHealth(cv) {
	case healthDead:
		return "✗ supplier assumed dead: " + errText(cv)
	case healthDegraded:
		return "! supplier degraded: " + errText(cv)
	}
	return ""
}

// degradedLines is the supplier's failure wrapped onto at most two lines.
func (p *valuesPane) degradedLines() []string {
	d := p.degraded()
	if d == "" || p.w <= 0 {
		return nil
	}
	l := wrapText(d, p.w)
	if len(l) > 2 {
		l = l[:2]
		l[1] = cut(l[1]+" …", p.w)
	}
	return l
}

func errText(cv *namespace.ClassValues) string {
	if cv.Err != nil {
		return safe(cv.Err.Error())
	}
	return cv.ErrReason.String()
}

// flashMsg asks the root to show a short message on the status line: a pane's feedback on a
// key that changes nothing else on screen.
type flashMsg struct {
	text  string
	isErr bool
}

func flashCmd(text string, isErr bool) tea.Cmd {
	return func() tea.Msg { return flashMsg{text, isErr} }
}

// openMsg asks the root to reveal a path in the tree.
type openMsg struct{ path string }

func openCmd(path string) tea.Cmd { return func() tea.Msg { return openMsg{path} } }

// Update handles the pane's keys.
func (p valuesPane) Update(msg tea.Msg) (valuesPane, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	k := p.keys
	if !key.Matches(km, k.GoAway) {
		p.goAway = "" // the second X must follow the first
	}
	if i, ok := cursorKey(k.listKeys, km, p.cursor, p.rowCount(), p.bodyH()-1); ok {
		p.moveTo(i)
		return p, nil
	}
	switch {
	case key.Matches(km, k.Sort) && p.mode == valuesTable:
		p.sortCol = (p.sortCol + 1) % (len(p.cols) + 1)
		p.sortDesc = p.sortCol != 0 // values rank highest first, names alphabetically
		p.showSortCol()
		p.sortRows()
	case key.Matches(km, k.Reverse) && p.mode == valuesTable:
		p.sortDesc = !p.sortDesc
		p.sortRows()
	case key.Matches(km, k.GoAway):
		return p, p.goAwayKey()
	case key.Matches(km, k.Left) && p.mode == valuesTable && p.cmdOff > 0:
		p.cmdOff = max(p.cmdOff-cmdStep, 0) // the command line back first, then the columns
	case key.Matches(km, k.Left) && p.mode == valuesTable:
		p.colOff = max(p.colOff-1, 0)
	case key.Matches(km, k.Right) && p.mode == valuesTable && p.commandScrolls():
		// Past the last column the command line scrolls, as htop's does (issue 32 item 8).
		p.cmdOff = min(p.cmdOff+cmdStep, p.longestCommand())
	case key.Matches(km, k.Right) && p.mode == valuesTable:
		p.colOff = min(p.colOff+1, max(len(p.cols)-1, 0))
	case key.Matches(km, k.Raw):
		// counters as their cumulative readings (and every value exactly in its declared
		// unit), or as rates again.
		p.vf.raw = !p.vf.raw
		p.class = nil // the table's columns are made again in the new form
		p.reshape(false)
		p.refresh()
		if p.vf.raw {
			return p, flashCmd("raw: counters show their cumulative readings, values their exact units (R: rates)", false)
		}
		return p, flashCmd("rates: counters show their rate per second (R: raw readings)", false)
	case key.Matches(km, k.Autoscale) && p.mode == valuesStats:
		p.autoscale = !p.autoscale
		if p.autoscale {
			return p, flashCmd("autoscale on: the bars' top follows the highest recent value", false)
		}
		return p, flashCmd("autoscale off: bars on each statistic's default scale", false)
	case key.Matches(km, k.Autoscale):
		return p, flashCmd("autoscale works on a context's statistics, not on a table", false)
	case key.Matches(km, k.Open):
		if r := p.Selected(); r.Ctx != nil && r.Ctx != p.ctx {
			return p, openCmd(r.Path())
		}
	}
	return p, nil
}

// SetFilter keeps the table's rows whose name or text holds text ("" for every row).
func (p *valuesPane) SetFilter(text string) {
	if text == p.filter {
		return
	}
	p.filter = text
	p.cursor, p.offset = 0, 0
	p.refresh()
}

// Filterable reports whether the table filters its own rows: one with text columns (the
// processes), where a name alone does not find a row.
func (p *valuesPane) Filterable() bool {
	return p.mode == valuesTable && slices.ContainsFunc(p.cols, func(c tableCol) bool { return c.text || c.fill })
}

// Filter is the table's filter.
func (p *valuesPane) Filter() string { return p.filter }

// SortBy sorts the table by the column with header h, highest first; false when it has none.
func (p *valuesPane) SortBy(h string) bool {
	for i := range p.cols {
		if p.cols[i].title() == h {
			p.sortCol, p.sortDesc = i+1, true
			p.showSortCol()
			p.sortRows()
			return true
		}
	}
	return false
}

// ShortHelp is the pane's help line.
func (p valuesPane) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.Sort, p.keys.Open}
}

// FullHelp is the pane's help overlay column.
func (p valuesPane) FullHelp() [][]key.Binding {
	return [][]key.Binding{append(p.keys.all(), p.keys.Sort, p.keys.Reverse, p.keys.Left, p.keys.Right, p.keys.Open, p.keys.Autoscale, p.keys.Raw, p.keys.GoAway)}
}

// restyle draws the pane again with the (changed) styles.
func (p *valuesPane) restyle() { p.ver = p.cache.next() }

// ForgetHistory drops the sparklines' history: the replay jumped in time, and a line drawn across
// the jump would join values hours apart.
func (p *valuesPane) ForgetHistory() { p.rings.reset() }
