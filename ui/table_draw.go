package ui

import (
	"dcimon/namespace"
	"dcimon/views"
	"math"
	"slices"
	"strconv"
	"strings"
)

// fitColumns picks each column's unit for this snapshot from its values (views.Column keeps the
// hysteresis across snapshots, so a unit does not flip every tick).
func (p *valuesPane) fitColumns() {
	for i := range p.cols {
		c := &p.cols[i]
		c.valid = false
		c.textW = 0
		if c.text || c.fill {
			p.fitTextColumn(c)
			continue
		}
		p.fitNumberColumn(c)
		c.col.Settle()
		if c.ti >= 0 {
			c.tcol.Settle()
		}
	}
}

// fitTextColumn sizes a text column to its widest cell, up to its most.
func (p *valuesPane) fitTextColumn(c *tableCol) {
	for j := range p.rows {
		v, ok := p.cell(&p.rows[j], c)
		c.textW = max(c.textW, width(c.textCell(v, ok)))
		c.valid = c.valid || (ok && v.State == namespace.Valid)
	}
	if c.maxW > 0 {
		c.textW = min(c.textW, c.maxW)
	}
}

// fitNumberColumn lets a number column observe its values and, when its width is fixed, sizes
// it to its widest value.
func (p *valuesPane) fitNumberColumn(c *tableCol) {
	big, neg := 0.0, false
	for j := range p.rows {
		if v, ok := p.cell(&p.rows[j], c); ok {
			col := c.column(p.rows[j].totals)
			col.Observe(v)
			c.valid = c.valid || v.State == namespace.Valid
			switch {
			case !c.fixed:
			case v.State == namespace.Valid && c.calc != calcNone:
				c.textW = max(c.textW, len(c.fixedText(nil, v, false)))
			case v.State == namespace.Valid:
				x := col.Measure().Base(v.V) / c.div
				big, neg = max(big, math.Abs(x)), neg || x <= -0.005
			default:
				c.textW = max(c.textW, len(views.Mark(v)))
			}
		}
	}
	c.textW = max(c.textW, c.fixedWidth(big, neg))
}

// fixedWidth is the least width of a fixed-width column whose largest number is big (neg: one
// of them is negative); 0 for a column that is not fixed or shows a calculation.
func (c *tableCol) fixedWidth(big float64, neg bool) int {
	switch {
	case c.fixed && c.human > 0:
		return 5 // df -h's widest: "1023K", "9.9G"
	case c.fixed && c.htop:
		return 5 // htop's RES is five wide: "99999", "9999M", "12.3G"
	case c.fixed && c.calc != calcNone:
	case c.fixed:
		// The widest number: its integer digits, the point and the decimals, a sign.
		w := len(strconv.FormatFloat(big, 'f', c.decimals(), 64))
		if neg {
			w++
		}
		return w
	}
	return 0
}

// pinnedCol says whether column i is always on screen: a pinned one (%util), or the process
// table's sort column, which stays in sight without scrolling USER and S away (issue 42 item 2:
// after T they went and did not come back).
func (p *valuesPane) pinnedCol(i int) bool {
	return p.cols[i].pinned || (i == p.sortCol-1 && !p.cols[i].fill && p.ProcTable())
}

// showSortCol scrolls the columns so the sort column is on screen. The process table's is
// pinned: a sort there scrolls back to the first columns, as htop's table never scrolls them.
func (p *valuesPane) showSortCol() {
	if p.sortCol == 0 {
		return
	}
	if p.ProcTable() {
		p.colOff = 0
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
	_, vis := p.tableLayout()
	return slices.Contains(vis, i)
}

// tableLayout is the width of the name column and the statistic columns that fit, in order:
// those from colOff that fit, with the pinned columns (%util) always among them, in their place
// when it is inside the shown range and else at the right edge.
func (p *valuesPane) tableLayout() (nameW int, vis []int) {
	nameW = p.nameW
	used := nameW
	var pinned []int
	for i := range p.cols {
		if p.pinnedCol(i) {
			used += 1 + p.colWidth(i)
			pinned = append(pinned, i)
		}
	}
	fill := -1
	for i := range p.cols {
		if p.cols[i].fill {
			fill = i
		}
	}
	reserve := 0
	if fill >= 0 {
		// The command line is what names a process: it keeps half the width of a wide pane and
		// two fifths of a narrow one (issue 32 item 8); the columns that do not fit are a → away.
		reserve = p.w / 2
		if p.w < 100 {
			reserve = p.w * 2 / 5
		}
	}
	for i := p.colOff; i < len(p.cols); i++ {
		if p.pinnedCol(i) || p.cols[i].fill {
			continue
		}
		cw := p.colWidth(i)
		if used+1+cw > p.w-1-reserve && len(vis) > 0 {
			break
		}
		used += 1 + cw
		vis = append(vis, i)
	}
	last := -1
	if len(vis) > 0 {
		last = vis[len(vis)-1]
	}
	for _, i := range pinned {
		if i > p.colOff && i < last {
			k, _ := slices.BinarySearch(vis, i)
			vis = slices.Insert(vis, k, i)
		} else {
			vis = append(vis, i)
		}
	}
	// The fill column (COMMAND) takes what is left, when that is worth showing.
	if fill >= 0 && p.w-1-used >= 8 {
		vis = append(vis, fill)
	}
	return nameW, vis
}

// fillWidth is the width left for the fill column after the others in vis.
func (p *valuesPane) fillWidth(vis []int) int {
	used := p.nameW
	for _, i := range vis {
		if !p.cols[i].fill {
			used += 1 + p.colWidth(i)
		}
	}
	return max(p.w-used-1, 0)
}

func (p *valuesPane) colWidth(i int) int {
	c := &p.cols[i]
	bar := 0
	if c.bar > 0 {
		bar = c.bar + 1
	}
	switch {
	case c.text:
		return max(width(c.title())+1, c.textW)
	case c.fixed:
		return bar + max(width(c.title())+1, width(c.unitText()), c.textW)
	}
	return bar + max(8, width(c.title())+1, width(c.col.Unit()))
}

// moreCols reports whether columns are hidden to the left and to the right of vis.
func (p *valuesPane) moreCols(vis []int) (left, right bool) {
	if p.colOff > 0 {
		left = true
	}
	for i := p.colOff; i < len(p.cols); i++ {
		if !slices.Contains(vis, i) && !p.cols[i].fill {
			right = true
		}
	}
	return left, right
}

// tableGrid is the table's layout in one frame: the name column's width, the statistic columns
// shown (indexes into cols) with their widths, and whether the names are numbers (PIDs).
type tableGrid struct {
	nameW   int
	vis     []int
	widths  []int
	numeric bool
}

// tableCell is one cell being drawn: its row and column, its value (ok false where there is
// none) and whether its row is the selected one.
type tableCell struct {
	row *tableRow
	col *tableCol
	v   namespace.Value
	ok  bool
	sel bool
}

// viewTable appends the table's lines to lines: the two header lines, then the rows in view.
func (p *valuesPane) viewTable(lines []string) []string {
	nameHdr, numeric := p.nameHeader()
	g := p.tableGrid(numeric)
	h1, h2 := p.tableHeads(g, nameHdr)
	lines = append(lines, h1, h2)
	bh := p.bodyH()
	var cellBuf []byte
	for i := p.offset; i < min(p.offset+bh, len(p.order)); i++ {
		lines = append(lines, p.tableLine(g, i, &cellBuf))
	}
	return lines
}

// nameHeader is the title of the name column (the kind of thing the rows name: PID, Disk…) with
// the sort mark when the table is sorted by name, and whether the names are numbers: PIDs, which
// are right-aligned as top and ps print them, the column a space wider.
func (p *valuesPane) nameHeader() (string, bool) {
	hdr := "name"
	if h, ok := nameHeaders[orTop(p.ctx)]; ok {
		hdr = h
	}
	if p.sortCol == 0 {
		hdr += sortMark(p.sortDesc)
	}
	return hdr, hdr == "PID" || strings.HasPrefix(hdr, "PID")
}

// tableGrid lays the table out for this frame: the fill column (COMMAND) takes the width the
// others leave.
func (p *valuesPane) tableGrid(numeric bool) tableGrid {
	nameW, vis := p.tableLayout()
	widths := make([]int, len(vis))
	for k, i := range vis {
		widths[k] = p.colWidth(i)
		if p.cols[i].fill {
			widths[k] = p.fillWidth(vis)
		}
	}
	return tableGrid{nameW: nameW, vis: vis, widths: widths, numeric: numeric}
}

// tableHeads are the table's two header lines: the columns' titles, and under the numbers their
// units; text columns are left-aligned, numbers right-aligned.
func (p *valuesPane) tableHeads(g tableGrid, nameHdr string) (string, string) {
	var h1, h2 strings.Builder
	if g.numeric {
		h1.WriteString(p.headerStyle(0).Render(padLeft(nameHdr, g.nameW-1) + " "))
	} else {
		h1.WriteString(p.headerStyle(0).Render(pad(nameHdr, g.nameW)))
	}
	h2.WriteString(strings.Repeat(" ", g.nameW))
	for k, i := range g.vis {
		c := &p.cols[i]
		hd, w := p.columnTitle(i), g.widths[k]
		if c.text || c.fill {
			h1.WriteString(" " + p.headerStyle(i+1).Render(pad(hd, w)))
			h2.WriteString(" " + blanks(w))
			continue
		}
		h1.WriteString(" " + p.headerStyle(i+1).Render(padLeft(hd, w)))
		h2.WriteString(" " + p.st.Text.Muted.Render(padLeft(c.unitText(), w)))
	}
	if note := p.moreColsNote(g.vis); note != "" {
		h1.WriteString(" " + p.st.Text.Accent.Render(note))
	}
	return h1.String(), h2.String()
}

// columnTitle is column i's header: its title with the sort mark when the table is sorted by it,
// and on the fill column (COMMAND) a note of the tree and of how far it is scrolled.
func (p *valuesPane) columnTitle(i int) string {
	c := &p.cols[i]
	hd := c.title()
	if p.sortCol == i+1 {
		hd += sortMark(p.sortDesc)
	}
	if c.fill && p.forest {
		hd += " (tree)"
	}
	if c.fill && p.cmdOff > 0 {
		hd += " ‹ +" + strconv.Itoa(p.cmdOff)
	}
	return hd
}

// moreColsNote is the arrows at the header's right end that say columns are hidden to the left
// (‹) or right (›) of those shown; empty when all are shown.
func (p *valuesPane) moreColsNote(vis []int) string {
	left, right := p.moreCols(vis)
	note := ""
	if left {
		note += "‹"
	}
	if right {
		note += "›"
	}
	return note
}

// tableLine draws the row at position i of the order: the selected row painted whole in the
// selection's colours, the others cell by cell. cellBuf is scratch space the frame's cells share.
func (p *valuesPane) tableLine(g tableGrid, i int, cellBuf *[]byte) string {
	r := &p.rows[p.order[i]]
	sel := i == p.cursor
	var sb strings.Builder
	sb.Grow(2 * p.w)
	p.writeRowName(&sb, g, r, sel)
	for k, w := range g.widths {
		c := &p.cols[g.vis[k]]
		v, ok := p.cellValue(r, c)
		cell := tableCell{row: r, col: c, v: v, ok: ok, sel: sel}
		sb.WriteByte(' ')
		if c.text || c.fill {
			p.writeTextCell(&sb, cell, p.order[i], w)
			continue
		}
		p.writeValueCell(&sb, cell, w, cellBuf)
	}
	if !sel {
		return sb.String()
	}
	st := p.st.Row.SelectedBlur
	if p.focused {
		st = p.st.Row.Selected
	}
	return st.Render(pad(sb.String(), p.w))
}

// writeRowName draws a row's name: a partition indented under its disk, the totals row bold, a
// gone row greyed and marked "(gone)" unless its class comes and goes by nature (processes); in
// the row's colours on the selected row.
func (p *valuesPane) writeRowName(sb *strings.Builder, g tableGrid, r *tableRow, sel bool) {
	ns := p.st.Text.Normal
	if r.totals {
		ns = p.st.Text.Bold
	}
	name := r.name
	if r.depth > 0 {
		name = " " + name // a partition under its disk
	}
	if r.gone {
		ns = p.st.Text.Muted
		if r.class == nil || !r.class.Churn {
			name += " (gone)"
		}
	}
	if sel {
		ns = ink{} // the selected row is painted whole
	}
	if g.numeric {
		ns.writePadLeft(sb, name, g.nameW-1)
		sb.WriteByte(' ')
		return
	}
	ns.writePad(sb, name, g.nameW)
}

// cellValue is a row's value in a column: none before the first snapshot; Unavailable with the
// reason "no values" where the snapshot has none, except on the totals row, which stays blank.
func (p *valuesPane) cellValue(r *tableRow, c *tableCol) (namespace.Value, bool) {
	if p.snap == nil {
		return namespace.Value{}, false
	}
	if v, ok := p.cell(r, c); ok || r.totals {
		return v, ok
	}
	return namespace.Value{State: namespace.Unavailable, Reason: namespace.ReasonNoValues}, true
}

// writeTextCell draws a text cell (a state, a name, the command line), left-aligned in w cells:
// the command line behind its tree branches and scrolled by cmdOff, greyed where there is no
// valid value. row is the row's index, for its place in the process tree.
func (p *valuesPane) writeTextCell(sb *strings.Builder, cell tableCell, row, w int) {
	c := cell.col
	txt := c.textCell(cell.v, cell.ok)
	if c.fill && p.forest {
		txt = p.treePrefix(row) + txt
	}
	if c.fill {
		txt = skipCells(txt, p.cmdOff)
	}
	switch {
	case cell.sel:
		writePad(sb, txt, w)
	case cell.row.gone || !cell.ok || cell.v.State != namespace.Valid:
		p.st.Text.Muted.writePad(sb, txt, w)
	default:
		p.st.Text.Normal.writePad(sb, txt, w)
	}
}

// writeValueCell draws a number right-aligned in w cells, behind its bar where the column has
// one. cellBuf is scratch space for the fixed-format columns' text.
func (p *valuesPane) writeValueCell(sb *strings.Builder, cell tableCell, w int, cellBuf *[]byte) {
	c, r, v := cell.col, cell.row, cell.v
	txt := ""
	if cell.ok && c.fixed {
		*cellBuf = c.fixedText((*cellBuf)[:0], v, r.totals)
		txt = string(*cellBuf)
	} else if cell.ok {
		txt = cellText(c.column(r.totals), v)
	}
	level := p.pastLimit(r, c, v, cell.ok)
	if c.bar > 0 {
		// df's Use% with a bar, coloured by the hotset's threshold (issue 19).
		p.writeCellBar(sb, v, cell.ok && !r.gone, level, cell.sel, c.bar)
		sb.WriteByte(' ')
		w -= c.bar + 1
	}
	p.numberInk(cell, level).writePadLeft(sb, txt, w)
}

// numberInk is the ink of a number: the warning or critical colour near or past its hotset's
// threshold, greyed on a gone row (its final values), the value's own colour otherwise; plain
// on the selected row, which is painted whole, and where there is no value.
func (p *valuesPane) numberInk(cell tableCell, level int) ink {
	switch {
	case cell.sel:
		return ink{}
	case level > 0 && !cell.row.gone:
		return p.levelInk(level) // near or past the hotset's threshold
	case cell.ok && cell.row.gone:
		return p.st.Text.Muted // final values, greyed
	case cell.ok:
		return p.valueStyle(cell.v)
	}
	return ink{}
}

// pastLimit says where a cell's value sits against the threshold of a hotset over its statistic:
// 0 below 90% of it (or with no such hotset), 1 near it, 2 at or past it.
func (p *valuesPane) pastLimit(r *tableRow, c *tableCol, v namespace.Value, ok bool) int {
	if !ok || v.State != namespace.Valid || p.limit == nil || r.totals {
		return 0
	}
	cl := r.class
	if cl == nil {
		cl = p.class
	}
	lim, has := p.limit(cl, c.datum)
	switch {
	case !has:
		return 0
	case v.V >= lim:
		return 2
	case v.V >= 0.9*lim:
		return 1
	}
	return 0
}

func (p *valuesPane) levelInk(level int) ink {
	if level >= 2 {
		return p.st.Text.Crit
	}
	return p.st.Text.Warn
}

// writeCellBar draws a w-cell bar of a share (a value between 0 and 1) into a table cell; blank
// where there is no valid value, in the row's colours on the selected row.
func (p *valuesPane) writeCellBar(sb *strings.Builder, v namespace.Value, ok bool, level int, sel bool, w int) {
	if !ok || v.State != namespace.Valid || math.IsNaN(v.V) {
		sb.WriteString(blanks(w))
		return
	}
	fill, empty := barCells(min(max(v.V, 0), 1), w)
	if sel {
		sb.WriteString(fill + cellRun(emptyCells, empty))
		return
	}
	fs := p.st.Bar.Fill
	if level > 0 {
		fs = p.levelInk(level)
	}
	fs.write(sb, fill)
	p.st.Bar.Empty.write(sb, cellRun(emptyCells, empty))
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
