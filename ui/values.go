package ui

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"dcimon/namespace"
	"dcimon/views"
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

// tableCol is one statistic column of the instance table.
type tableCol struct {
	header string
	di     int // datum index in the instance class
	ti     int // datum index in the context's own (totals) class, or -1
	col    views.Column
	valid  bool // some cell of the column is valid this tick: its unit means something
}

// childRow is one subcontext in subcontexts mode.
type childRow struct {
	ctx         *namespace.Context
	kids, stats int
}

// tableRow is one row of the instance table: an instance, or the context's own totals.
type tableRow struct {
	inst   *namespace.Instance
	name   string
	path   string
	totals bool
}

// valuesPane shows the values of the selected context: its statistics with sparklines and bars
// on their SPMI scale, a sortable table of its instances (the per-disk table reads like
// `iostat -x`), or the subcontexts of an uninstantiated class.
type valuesPane struct {
	st      *styles
	vf      valueFormat
	keys    *valuesKeys
	focused bool
	w, h    int

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

	cursor, offset int
	rings          ringStore
	spark          []float64

	ver   uint64 // moved on when the rows, the columns, the order or the snapshot change
	cache *renderCache[valuesKey]
}

// valuesKey is what the values pane's View reads besides what ver stands for.
type valuesKey struct {
	ver                          uint64
	w, h, cursor, offset, colOff int
	sortCol                      int
	sortDesc, autoscale, focused bool
}

func newValues(st *styles, keys valuesKeys, vf valueFormat) valuesPane {
	return valuesPane{st: st, keys: &keys, vf: vf, cache: newRenderCache[valuesKey]()}
}

// SetSize sets the inner size of the pane.
func (p *valuesPane) SetSize(w, h int) {
	p.w, p.h = max(w, 0), max(h, 0)
	p.scrollToCursor()
}

// Focus gives the pane the keyboard.
func (p *valuesPane) Focus() { p.focused = true }

// Blur takes the keyboard away.
func (p *valuesPane) Blur() { p.focused = false }

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
	p.stats, p.rows, p.kids = p.stats[:0], p.rows[:0], p.kids[:0]
	if p.ctx == nil {
		p.mode = valuesEmpty
		return
	}
	p.reg.Read(func() {
		ctx := p.ctx
		var instClass *namespace.Class
		for _, k := range ctx.Children() {
			if k.Kind == namespace.CtxInstance {
				instClass = k.Class
				break
			}
		}
		p.instClass = instClass
		p.byOwn = ctx.Kind != namespace.CtxInstance && p.ownStat(instClass)
		switch {
		case ctx.Kind == namespace.CtxInstance || (instClass == nil && ctx.Stats != nil) || p.ownStat(instClass):
			p.mode = valuesStats
			for i := range ctx.Stats.Datums {
				if d := &ctx.Stats.Datums[i]; d.ID != namespace.InvalidDatumID {
					p.stats = append(p.stats, statRow{datum: d, di: i, text: isText(d)})
				}
			}
		case instClass != nil:
			p.mode = valuesTable
			if instClass != p.class || ctxChanged {
				p.class = instClass
				p.cols = tableColumns(p.vf, ctx, instClass)
				p.sortCol, p.sortDesc = 0, false
			}
			if ctx.Stats != nil && slices.ContainsFunc(p.cols, func(c tableCol) bool { return c.ti >= 0 }) {
				// The context's own statistics are the totals of its instances' (CPU).
				p.rows = append(p.rows, tableRow{name: "(all)", path: ctx.Path(), totals: true})
			}
			for _, k := range ctx.Children() {
				if k.Kind == namespace.CtxInstance && k.Class == instClass && k.Inst != nil {
					p.rows = append(p.rows, tableRow{inst: k.Inst, name: k.Name, path: k.Path()})
				}
			}
			p.nameW = 6
			for _, r := range p.rows {
				p.nameW = max(p.nameW, width(r.name))
			}
			p.nameW = min(p.nameW, 16)
		default:
			p.mode = valuesChildren
			for _, k := range ctx.Children() {
				p.kids = append(p.kids, childRow{ctx: k, kids: len(k.Children()), stats: k.NumStats()})
			}
		}
	})
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

// tableColumns chooses the instance table's columns from the class's datums by name: the
// preferred columns of well-known contexts first (the per-disk table of `iostat -x`), then
// every other numeric statistic.
func tableColumns(vf valueFormat, ctx *namespace.Context, c *namespace.Class) []tableCol {
	var cols []tableCol
	used := map[int]bool{}
	add := func(header string, di int) {
		if di < 0 || used[di] {
			return
		}
		d := &c.Datums[di]
		if d.ID == namespace.InvalidDatumID || (!d.IsDerived() && !d.Type.IsNumeric()) {
			return
		}
		used[di] = true
		ti := -1
		if ctx.Stats != nil {
			if j := ctx.Stats.DatumByName(d.Name); j >= 0 && ctx.Stats.Datums[j].ID == d.ID {
				ti = j
			}
		}
		cols = append(cols, tableCol{header: header, di: di, ti: ti, col: vf.column(c, d)})
	}
	for _, pc := range preferredColumns[ctx.Name] {
		for _, n := range pc.names {
			if di := c.DatumByName(n); di >= 0 {
				add(pc.header, di)
				break
			}
		}
	}
	for i := range c.Datums {
		add(c.Datums[i].Name, i)
	}
	return cols
}

// colPref is a column a well-known table shows first, with the datum names it may go by. A
// header with "%s" takes the short form of the column's unit ("rkB/s" while the column is in
// KiB/s, "rMB/s" once it moves to MiB/s), the way iostat -k and -m name them.
type colPref struct {
	header string
	names  []string
}

// preferredColumns puts the columns people expect first: the per-disk table reads like
// `iostat -x`, the per-interface one like `sar -n DEV`, the per-CPU one like `mpstat`.
var preferredColumns = map[string][]colPref{
	"Disk": {
		{"r/s", []string{"reads", "r_s"}},
		{"w/s", []string{"writes", "w_s"}},
		{"r%s", []string{"read_bytes", "rbytes"}},
		{"w%s", []string{"write_bytes", "wbytes"}},
		{"r_await", []string{"r_await"}},
		{"w_await", []string{"w_await"}},
		{"aqu-sz", []string{"aqu_sz", "aqu-sz"}},
		{"%util", []string{"busy", "%util", "util", "%busy"}},
	},
	"NetIf": {
		{"rx%s", []string{"ibytes", "rx_bytes"}},
		{"tx%s", []string{"obytes", "tx_bytes"}},
		{"rxpck/s", []string{"ipackets", "rx_packets"}},
		{"txpck/s", []string{"opackets", "tx_packets"}},
	},
	"CPU": {
		{"%busy", []string{"busy", "%busy"}},
	},
}

// title is the column's header, with the short unit filled in for a templated header.
func (c *tableCol) title() string {
	if !strings.Contains(c.header, "%s") {
		return c.header
	}
	return strings.Replace(c.header, "%s", shortUnit(c.col.Unit()), 1)
}

// shortUnit turns a views rate unit into iostat's spelling: "KiB/s" → "kB/s", "MiB/s" → "MB/s".
func shortUnit(u string) string {
	switch {
	case u == "":
		return "B/s"
	case u == "KiB/s":
		return "kB/s"
	case strings.HasSuffix(u, "iB/s") && len(u) == 5:
		return u[:1] + "B/s"
	}
	return u
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
		p.fitColumns()
		p.sortRows()
	}
}

func (p *valuesPane) cell(r *tableRow, c *tableCol) (namespace.Value, bool) {
	if r.totals {
		if c.ti < 0 {
			return namespace.Value{}, false
		}
		return p.snap.Class(p.ctx.Stats).Value(p.ctx.StatsInst, c.ti)
	}
	return p.snap.Class(p.class).Value(r.inst, c.di)
}

// fitColumns picks each column's unit for this snapshot from its values (views.Column keeps the
// hysteresis across snapshots, so a unit does not flip every tick).
func (p *valuesPane) fitColumns() {
	for i := range p.cols {
		c := &p.cols[i]
		c.valid = false
		for j := range p.rows {
			if v, ok := p.cell(&p.rows[j], c); ok {
				c.col.Observe(v)
				c.valid = c.valid || v.State == namespace.Valid
			}
		}
		c.col.Settle()
	}
}

// sortRows orders the instance rows by the sort column; the totals row stays first, values that
// are not valid sort last whatever the direction, ties go by name.
func (p *valuesPane) sortRows() {
	p.ver = p.cache.next()
	p.order = p.order[:0]
	first := 0
	if len(p.rows) > 0 && p.rows[0].totals {
		p.order = append(p.order, 0)
		first = 1
	}
	for i := first; i < len(p.rows); i++ {
		p.order = append(p.order, i)
	}
	rest := p.order[first:]
	if p.sortCol == 0 || p.sortCol > len(p.cols) || p.snap == nil {
		sort.SliceStable(rest, func(a, b int) bool {
			less := lessName(p.rows[rest[a]].name, p.rows[rest[b]].name)
			if p.sortDesc {
				return lessName(p.rows[rest[b]].name, p.rows[rest[a]].name)
			}
			return less
		})
		return
	}
	c := &p.cols[p.sortCol-1]
	keys := make([]float64, len(p.rows))
	for _, i := range rest {
		v, ok := p.cell(&p.rows[i], c)
		if ok && v.State == namespace.Valid {
			keys[i] = v.V
		} else {
			keys[i] = math.NaN()
		}
	}
	sort.SliceStable(rest, func(a, b int) bool {
		ka, kb := keys[rest[a]], keys[rest[b]]
		switch {
		case math.IsNaN(ka) != math.IsNaN(kb):
			return !math.IsNaN(ka)
		case ka != kb && !math.IsNaN(ka):
			if p.sortDesc {
				return ka > kb
			}
			return ka < kb
		}
		return lessName(p.rows[rest[a]].name, p.rows[rest[b]].name)
	})
}

// lessName orders names with their numbers by value: cpu2 before cpu10.
func lessName(a, b string) bool {
	for a != "" && b != "" {
		ia, ib := digitsAt(a), digitsAt(b)
		if ia > 0 && ib > 0 {
			na, _ := strconv.ParseUint(a[:min(ia, 18)], 10, 64)
			nb, _ := strconv.ParseUint(b[:min(ib, 18)], 10, 64)
			if na != nb {
				return na < nb
			}
			a, b = a[ia:], b[ib:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digitsAt(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
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

func (p *valuesPane) moveTo(i int) {
	n := p.rowCount()
	if n == 0 {
		p.cursor = 0
		return
	}
	p.cursor = clamp(i, 0, n-1)
	p.scrollToCursor()
}

func (p *valuesPane) scrollToCursor() {
	h := p.bodyH()
	if h <= 0 {
		return
	}
	p.offset = keepInView(p.cursor, p.offset, h, p.rowCount())
}

// Scroll moves the cursor by n rows, for the mouse wheel.
func (p *valuesPane) Scroll(n int) { p.moveTo(p.cursor + n) }

// ClickRow selects the row at line y of the pane.
func (p *valuesPane) ClickRow(y int) {
	if y < p.headerLines() {
		return
	}
	if i := p.offset + y - p.headerLines(); i < p.rowCount() {
		p.moveTo(i)
	}
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
	case key.Matches(km, k.Left) && p.mode == valuesTable:
		p.colOff = max(p.colOff-1, 0)
	case key.Matches(km, k.Right) && p.mode == valuesTable:
		p.colOff = min(p.colOff+1, max(len(p.cols)-1, 0))
	case key.Matches(km, k.Autoscale) && p.mode == valuesStats:
		p.autoscale = !p.autoscale
	case key.Matches(km, k.Open):
		if r := p.Selected(); r.Ctx != nil && r.Ctx != p.ctx {
			return p, openCmd(r.Path())
		}
	}
	return p, nil
}

// showSortCol scrolls the columns so the sort column is on screen.
func (p *valuesPane) showSortCol() {
	if p.sortCol == 0 {
		return
	}
	i := p.sortCol - 1
	if i < p.colOff {
		p.colOff = i
	}
	for p.colOff < i && !p.colVisible(i) {
		p.colOff++
	}
}

func (p *valuesPane) colVisible(i int) bool {
	_, shown := p.tableLayout()
	return i >= p.colOff && i < p.colOff+shown
}

// View renders the pane, exactly w×h.
func (p valuesPane) View() string {
	lines, _ := p.view()
	return strings.Join(lines, "\n")
}

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
	for i := p.offset; i < min(p.offset+h, len(p.stats)); i++ {
		s := p.stats[i]
		v, ok := cv.Value(in, s.di)
		if !ok {
			v = namespace.Value{State: namespace.Unavailable, Reason: namespace.ReasonNotSampled}
		}
		txt := p.vf.text(p.ctx.Stats, s.datum, v)
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
		if s.text && v.State == namespace.Valid {
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

// tableLayout is the width of the name column and how many statistic columns fit from colOff.
func (p *valuesPane) tableLayout() (nameW, shown int) {
	nameW = p.nameW
	used := nameW
	for i := p.colOff; i < len(p.cols); i++ {
		cw := p.colWidth(i)
		if used+1+cw > p.w-1 && shown > 0 {
			break
		}
		used += 1 + cw
		shown++
	}
	return nameW, shown
}

func (p *valuesPane) colWidth(i int) int {
	c := &p.cols[i]
	return max(8, width(c.title())+1, width(c.col.Unit()))
}

func (p *valuesPane) viewTable(lines []string) []string {
	nameW, shown := p.tableLayout()
	var h1, h2 strings.Builder
	nameHdr := "name"
	if p.sortCol == 0 {
		nameHdr += sortMark(p.sortDesc)
	}
	h1.WriteString(p.headerStyle(0).Render(pad(nameHdr, nameW)))
	h2.WriteString(strings.Repeat(" ", nameW))
	for i := p.colOff; i < p.colOff+shown; i++ {
		c := &p.cols[i]
		cw := p.colWidth(i)
		hd := c.title()
		if p.sortCol == i+1 {
			hd += sortMark(p.sortDesc)
		}
		h1.WriteString(" " + p.headerStyle(i+1).Render(padLeft(hd, cw)))
		unit := ""
		if c.valid {
			unit = c.col.Unit()
		}
		h2.WriteString(" " + p.st.Text.Muted.Render(padLeft(unit, cw)))
	}
	if more := len(p.cols) - p.colOff - shown; more > 0 || p.colOff > 0 {
		note := ""
		if p.colOff > 0 {
			note += "‹"
		}
		if more > 0 {
			note += "›"
		}
		h1.WriteString(" " + p.st.Text.Accent.Render(note))
	}
	lines = append(lines, h1.String(), h2.String())
	cws := make([]int, shown)
	for k := range cws {
		cws[k] = p.colWidth(p.colOff + k)
	}
	bh := p.bodyH()
	for i := p.offset; i < min(p.offset+bh, len(p.order)); i++ {
		r := &p.rows[p.order[i]]
		sel := i == p.cursor
		// A selected row is painted whole; the others cell by cell.
		var sb strings.Builder
		sb.Grow(2 * p.w)
		ns := p.st.Text.Normal
		if r.totals {
			ns = p.st.Text.Bold
		}
		if sel {
			writePad(&sb, r.name, nameW)
		} else {
			ns.writePad(&sb, r.name, nameW)
		}
		for k, cw := range cws {
			c := &p.cols[p.colOff+k]
			txt := ""
			var v namespace.Value
			ok := false
			if p.snap != nil {
				v, ok = p.cell(r, c)
			}
			if !ok && p.snap != nil && !r.totals {
				v, ok = namespace.Value{State: namespace.Unavailable, Reason: namespace.ReasonNoValues}, true
			}
			if ok {
				txt = cellText(&c.col, v)
			}
			sb.WriteByte(' ')
			if ok && !sel {
				p.valueStyle(v).writePadLeft(&sb, txt, cw)
			} else {
				writePadLeft(&sb, txt, cw)
			}
		}
		if sel {
			st := p.st.Row.SelectedBlur
			if p.focused {
				st = p.st.Row.Selected
			}
			lines = append(lines, st.Render(pad(sb.String(), p.w)))
			continue
		}
		lines = append(lines, sb.String())
	}
	return lines
}

// cellText is a table cell: the number alone, since the column's unit is in its header.
func cellText(c *views.Column, v namespace.Value) string {
	t := c.Format(v)
	if u := c.Unit(); u != "" && v.State == namespace.Valid {
		t = strings.TrimRight(strings.TrimSuffix(t, u), " ")
	}
	return t
}

func (p *valuesPane) headerStyle(col int) ink {
	if col == p.sortCol {
		return p.st.Table.HeaderSorted
	}
	return p.st.Table.Header
}

func sortMark(desc bool) string {
	if desc {
		return "▼"
	}
	return "▲"
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

// ShortHelp is the pane's help line.
func (p valuesPane) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.Sort, p.keys.Open}
}

// FullHelp is the pane's help overlay column.
func (p valuesPane) FullHelp() [][]key.Binding {
	return [][]key.Binding{append(p.keys.all(), p.keys.Sort, p.keys.Reverse, p.keys.Left, p.keys.Right, p.keys.Open, p.keys.Autoscale)}
}

// restyle draws the pane again with the (changed) styles.
func (p *valuesPane) restyle() { p.ver = p.cache.next() }
