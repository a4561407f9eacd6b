// The values pane's instance table: one row per instance subcontext, one column per statistic,
// laid out and sorted like the command-line tools an administrator knows (iostat -x, ifstat).

package ui

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"dcimon/namespace"
	"dcimon/views"
)

// tableCol is one statistic column of the instance table.
type tableCol struct {
	header string
	di     int // datum index in the instance class
	ti     int // datum index in the context's own (totals) class, or -1
	col    views.Column
	valid  bool // some cell of the column is valid this tick: its unit means something
}

// tableRow is one row of the instance table: an instance, or the context's own totals.
type tableRow struct {
	inst   *namespace.Instance
	name   string
	path   string
	totals bool
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
		if !d.Shown() || (!d.IsDerived() && !d.Type.IsNumeric()) {
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
