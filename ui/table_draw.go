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

func (p *valuesPane) viewTable(lines []string) []string {
	nameW, vis := p.tableLayout()
	var h1, h2 strings.Builder
	nameHdr := "name"
	if h, ok := nameHeaders[orTop(p.ctx)]; ok {
		nameHdr = h
	}
	if p.sortCol == 0 {
		nameHdr += sortMark(p.sortDesc)
	}
	// PIDs are numbers: right-aligned, as top and ps print them, the column a space wider.
	numeric := nameHdr == "PID" || strings.HasPrefix(nameHdr, "PID")
	if numeric {
		h1.WriteString(p.headerStyle(0).Render(padLeft(nameHdr, nameW-1) + " "))
	} else {
		h1.WriteString(p.headerStyle(0).Render(pad(nameHdr, nameW)))
	}
	h2.WriteString(strings.Repeat(" ", nameW))
	cws := make([]int, len(vis))
	for k, i := range vis {
		c := &p.cols[i]
		cws[k] = p.colWidth(i)
		if c.fill {
			cws[k] = p.fillWidth(vis)
		}
		hd := c.title()
		if p.sortCol == i+1 {
			hd += sortMark(p.sortDesc)
		}
		if c.text || c.fill {
			if c.fill && p.forest {
				hd += " (tree)"
			}
			if c.fill && p.cmdOff > 0 {
				hd += " ‹ +" + strconv.Itoa(p.cmdOff)
			}
			h1.WriteString(" " + p.headerStyle(i+1).Render(pad(hd, cws[k])))
			h2.WriteString(" " + blanks(cws[k]))
			continue
		}
		h1.WriteString(" " + p.headerStyle(i+1).Render(padLeft(hd, cws[k])))
		h2.WriteString(" " + p.st.Text.Muted.Render(padLeft(c.unitText(), cws[k])))
	}
	if left, right := p.moreCols(vis); left || right {
		note := ""
		if left {
			note += "‹"
		}
		if right {
			note += "›"
		}
		h1.WriteString(" " + p.st.Text.Accent.Render(note))
	}
	lines = append(lines, h1.String(), h2.String())
	bh := p.bodyH()
	var cellBuf []byte
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
		switch {
		case numeric && sel:
			writePadLeft(&sb, name, nameW-1)
			sb.WriteByte(' ')
		case numeric:
			ns.writePadLeft(&sb, name, nameW-1)
			sb.WriteByte(' ')
		case sel:
			writePad(&sb, name, nameW)
		default:
			ns.writePad(&sb, name, nameW)
		}
		for k, cw := range cws {
			c := &p.cols[vis[k]]
			txt := ""
			var v namespace.Value
			ok := false
			if p.snap != nil {
				v, ok = p.cell(r, c)
			}
			if !ok && p.snap != nil && !r.totals {
				v, ok = namespace.Value{State: namespace.Unavailable, Reason: namespace.ReasonNoValues}, true
			}
			if c.text || c.fill {
				txt = c.textCell(v, ok)
				if c.fill && p.forest {
					txt = p.treePrefix(p.order[i]) + txt
				}
				if c.fill {
					txt = skipCells(txt, p.cmdOff)
				}
				sb.WriteByte(' ')
				switch {
				case sel:
					writePad(&sb, txt, cw)
				case r.gone || !ok || v.State != namespace.Valid:
					p.st.Text.Muted.writePad(&sb, txt, cw)
				default:
					p.st.Text.Normal.writePad(&sb, txt, cw)
				}
				continue
			}
			if ok {
				if c.fixed {
					cellBuf = c.fixedText(cellBuf[:0], v, r.totals)
					txt = string(cellBuf)
				} else {
					txt = cellText(c.column(r.totals), v)
				}
			}
			sb.WriteByte(' ')
			level := p.pastLimit(r, c, v, ok)
			if c.bar > 0 {
				// df's Use% with a bar, coloured by the hotset's threshold (issue 19).
				p.writeCellBar(&sb, v, ok && !r.gone, level, sel, c.bar)
				sb.WriteByte(' ')
				cw -= c.bar + 1
			}
			if level > 0 && !sel && !r.gone {
				p.levelInk(level).writePadLeft(&sb, txt, cw) // near or past the hotset's threshold
			} else if ok && !sel && r.gone {
				p.st.Text.Muted.writePadLeft(&sb, txt, cw) // final values, greyed
			} else if ok && !sel {
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
