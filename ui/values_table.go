// The values pane's instance table: one row per instance subcontext, one column per statistic,
// laid out and sorted like the command-line tools an administrator knows (iostat -x, ifstat).

package ui

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"dcimon/namespace"
	"dcimon/views"
)

// tableCol is one statistic column of the instance table.
type tableCol struct {
	header string
	name   string // the datum's name, to find it in the classes of nested rows (partitions)
	di     int    // datum index in the instance class
	ti     int    // datum index in the context's own (totals) class, or -1
	col    views.Column
	tcol   views.Column // the totals row's: CPU's own time is a share of every processor
	valid  bool         // some cell of the column is valid this tick: its unit means something
	// A column of a well-known table (iostat -x, mpstat) is printed the way that tool prints
	// it: a fixed unit, two decimals. fixed is false for the other columns, which scale.
	fixed  bool
	unit   string  // the fixed unit row: "kB/s", "ms", "%"
	div    float64 // the value's base quantity (views.Measure.Base) divided by div is printed
	pinned bool    // always on screen, at the right edge (%util)
	textW  int     // the widest cell of a fixed column this tick
	help   string  // what the column is, for the help overlay
	bar    int     // the cells of a bar drawn before the number (df's Use%), 0 for none
	human  float64 // a fixed column printed as df -h does, in powers of human (1024 or 1000)
	datum  *namespace.Datum
	// A text column (top's USER and S) shows the value's text, left-aligned, at most maxW
	// cells; a fill column (COMMAND) is the last and takes the width the others leave.
	text, fill bool
	maxW       int
	dec        int // colPref.dec
	sortFirst  bool
}

// tableRow is one row of the instance table: an instance, or the context's own totals.
type tableRow struct {
	inst   *namespace.Instance
	class  *namespace.Class // the instance's class; partitions have their own
	name   string
	path   string
	totals bool
	depth  int    // 1 for a partition under its disk
	parent string // the disk's name, for a partition
	// A gone row is an instance removed at the latest collection, shown greyed with its final
	// values (last, by column name) for one interval (DCI-EVT-4), then dropped.
	gone   bool
	goneAt uint64 // the sequence number of the snapshot its final values come from
	last   map[string]namespace.Value
}

// lessRow orders rows by name the way a person reads a device list: naturally (cpu2 before
// cpu10, sdz before sdaa), a partition right after its disk.
func lessRow(a, b *tableRow) bool {
	ka, kb := a.name, b.name
	if a.depth > 0 {
		ka = a.parent
	}
	if b.depth > 0 {
		kb = b.parent
	}
	if ka != kb {
		return lessName(ka, kb)
	}
	if a.depth != b.depth {
		return a.depth < b.depth
	}
	return lessName(a.name, b.name)
}

// tableColumns chooses the instance table's columns from the class's datums by name: the
// columns of well-known contexts first, in their tool's order and form (the per-disk table of
// `iostat -x`, the per-processor one of `mpstat -P ALL`), then every other numeric statistic.
func tableColumns(vf valueFormat, ctx *namespace.Context, c *namespace.Class) []tableCol {
	var cols []tableCol
	used := map[int]bool{}
	add := func(pc colPref, di int) {
		if di < 0 || used[di] {
			return
		}
		d := &c.Datums[di]
		if !d.Shown() || (!d.IsDerived() && !d.Type.IsNumeric() && !pc.text && !pc.fill) {
			return
		}
		used[di] = true
		ti := -1
		if ctx.Stats != nil {
			if j := ctx.Stats.DatumByName(d.Name); j >= 0 && ctx.Stats.Datums[j].ID == d.ID {
				ti = j
			}
		}
		col := tableCol{header: pc.header, name: d.Name, di: di, ti: ti, col: vf.column(c, d), help: pc.help, datum: d}
		if pc.bar {
			col.bar = cellBarW
		}
		if ti >= 0 {
			col.tcol = vf.column(ctx.Stats, &ctx.Stats.Datums[ti])
		}
		col.pinned = pc.pinned
		col.text, col.fill, col.maxW, col.dec, col.sortFirst = pc.text, pc.fill, pc.maxW, pc.dec, pc.sort
		if (pc.unit != "" || pc.div != 0) && !vf.raw { // raw readings are exact numbers, not the tool's form
			col.fixed, col.unit, col.div, col.human = true, pc.unit, pc.div, pc.human
			if pc.unit == "kB/s" && col.col.Measure().Kind == views.KindBits {
				// net_units = "bits": the interface's rates in Mbit/s, as a link's speed is given.
				col.header, col.unit, col.div = strings.Replace(pc.header, "kB/s", "Mbit/s", 1), "Mbit/s", 1e6
			}
			if col.div == 0 {
				col.div = 1
			}
		}
		cols = append(cols, col)
	}
	for _, pc := range preferredColumns[ctx.Name] {
		for _, n := range pc.names {
			if di := c.DatumByName(n); di >= 0 {
				add(pc, di)
				break
			}
		}
	}
	for i := range c.Datums {
		add(colPref{header: c.Datums[i].Name}, i)
	}
	return cols
}

// TableLayout is a configured layout of a well-known table (disk, netif, cpu, fs, proc, cgroup): the columns
// shown, in order, by header (all of them when empty), and the column sorted at first.
type TableLayout struct {
	Columns    []string
	Sort       string
	Descending bool
}

// apply keeps the columns the layout names, in its order.
func (l TableLayout) apply(cols []tableCol) []tableCol {
	if len(l.Columns) == 0 {
		return cols
	}
	out := make([]tableCol, 0, len(l.Columns))
	for _, name := range l.Columns {
		if i := slices.IndexFunc(cols, func(c tableCol) bool { return c.title() == name }); i >= 0 {
			out = append(out, cols[i])
		}
	}
	return out
}

// TableColumns are the well-known tables' columns by table name (disk, netif, cpu, fs, proc, cgroup), for a
// configuration to name: the headers as the monitor prints them.
func TableColumns() map[string][]string {
	out := map[string][]string{}
	for ctx, prefs := range preferredColumns {
		name := strings.ToLower(ctx)
		for _, pc := range prefs {
			out[name] = append(out[name], pc.header)
		}
	}
	return out
}

// colPref is a column a well-known table shows first, with the datum names it may go by, and
// the tool's form: the unit it is printed in and the divisor from the value's base quantity
// (bytes, seconds, ones, percent) to it.
type colPref struct {
	header string
	names  []string
	unit   string
	div    float64
	pinned bool
	help   string
	bar    bool    // a bar before the number, coloured by the statistic's hotset threshold
	human  float64 // printed as df -h: 1024 for bytes (100G), 1000 for counts (262k)
	dec    int     // decimals of a fixed column + 1 (1: whole numbers, 2: one, as top's %CPU); 0 is two
	text   bool    // the value's text, left-aligned in at most maxW cells (USER, S)
	fill   bool    // text in the width the other columns leave, last (COMMAND)
	maxW   int
	sort   bool // the column the table is sorted by at first, highest first (top's %CPU)
}

// nameHeaders name the name column of the tables whose instances are not devices.
var nameHeaders = map[string]string{"Proc": "PID", "CGroup": "group"}

// cellBarW is the width of a bar in a table cell.
const cellBarW = 10

// The fixed forms of iostat -x and mpstat: rates per second, kB (1024 bytes) per second, ms,
// kB per request, percentages; two decimals each.
var (
	perSec = func(h, help string, names ...string) colPref {
		return colPref{header: h, names: names, unit: "/s", div: 1, help: help}
	}
	dfh = func(h, help string, names ...string) colPref {
		return colPref{header: h, names: names, unit: "bytes", div: 1, human: 1024, help: help}
	}
	kBps = func(h, help string, names ...string) colPref {
		return colPref{header: h, names: names, unit: "kB/s", div: 1024, help: help}
	}
	msec = func(h, help string, names ...string) colPref {
		return colPref{header: h, names: names, unit: "ms", div: 1e-3, help: help}
	}
	pct = func(h, help string, names ...string) colPref {
		return colPref{header: h, names: names, unit: "%", div: 1, help: help}
	}
)

// preferredColumns puts the columns people expect first: the per-disk table reads like
// `iostat -x` (the most used columns first, so they fit 80 columns, %util pinned), the
// per-interface one like `sar -n DEV`, the per-processor one like `mpstat -P ALL`.
var preferredColumns = map[string][]colPref{
	"Disk": {
		perSec("r/s", "reads completed per second", "reads"),
		perSec("w/s", "writes completed per second", "writes"),
		kBps("rkB/s", "kilobytes (1024 bytes) read per second", "read_bytes"),
		kBps("wkB/s", "kilobytes written per second", "write_bytes"),
		msec("r_await", "average time of a read, queue and service, in milliseconds", "r_await"),
		msec("w_await", "average time of a write, in milliseconds", "w_await"),
		{header: "aqu-sz", names: []string{"aqu_sz"}, div: 1, help: "average number of requests queued or in service"},
		{header: "%util", names: []string{"busy", "%util"}, unit: "%", div: 1, pinned: true,
			help: "share of the interval with at least one request in flight"},
		{header: "rareq-sz", names: []string{"rareq_sz"}, unit: "kB", div: 1024, help: "average size of a read, in kilobytes"},
		{header: "wareq-sz", names: []string{"wareq_sz"}, unit: "kB", div: 1024, help: "average size of a write, in kilobytes"},
		perSec("rrqm/s", "reads merged per second before being issued", "reads_merged"),
		perSec("wrqm/s", "writes merged per second", "writes_merged"),
		pct("%rrqm", "share of reads merged", "%rrqm"),
		pct("%wrqm", "share of writes merged", "%wrqm"),
		perSec("d/s", "discards completed per second", "discards"),
		kBps("dkB/s", "kilobytes discarded per second", "discard_bytes"),
		perSec("f/s", "flushes completed per second", "flushes"),
	},
	"FS": {
		dfh("Size", "the file system's size, as df -h (K, M, G, T: powers of 1024, rounded up)", "size"),
		dfh("Used", "space in use", "used"),
		dfh("Avail", "space an unprivileged user can still write", "avail"),
		{header: "Use%", names: []string{"%used"}, unit: "%", div: 1, pinned: true, bar: true,
			help: "used / (used + avail), as df; the bar turns warn at 90% of the fullest-file-systems hotset's threshold, crit past it"},
		{header: "Inodes", names: []string{"inodes"}, unit: "inodes", div: 1, human: 1000, help: "files the file system can hold (k, M, G: powers of 1000)"},
		{header: "IUse%", names: []string{"%iused"}, unit: "%", div: 1, help: "inodes in use, as df -i"},
	},
	"NetIf": {
		kBps("rxkB/s", "kilobytes received per second", "ibytes"),
		kBps("txkB/s", "kilobytes sent per second", "obytes"),
		perSec("rxpck/s", "packets received per second", "ipackets"),
		perSec("txpck/s", "packets sent per second", "opackets"),
	},
	// The process table reads like top: PID (the name column), USER, S, %CPU, RES, the I/O
	// rates that top lacks and every peer is asked for, and the command line in what is left.
	"Proc": {
		{header: "USER", names: []string{"user"}, text: true, maxW: 9, help: "the effective user (a number where /etc/passwd has no name)"},
		{header: "S", names: []string{"state"}, text: true, maxW: 1, help: "R running, S sleeping, D disk wait, Z zombie, T stopped, I idle kernel thread"},
		{header: "%CPU", names: []string{"cpu"}, unit: "%", div: 1, dec: 2, sort: true, help: "share of one processor over the interval, as top (many threads can pass 100)"},
		{header: "RES", names: []string{"rss"}, unit: "bytes", div: 1, human: 1024, help: "resident memory, as top's RES (K, M, G: powers of 1024)"},
		kBps("read/s", "kilobytes per second the process caused to be read from storage; n/a where /proc/PID/io is closed to dcimon", "read_bytes"),
		kBps("write/s", "kilobytes per second the process caused to be written to storage", "write_bytes"),
		kBps("io/s", "read/s + write/s: what the busiest processes by I/O are ranked by", "io_bytes"),
		{header: "THR", names: []string{"threads"}, div: 1, dec: 1, help: "threads"},
		{header: "NI", names: []string{"nice"}, div: 1, dec: 1, help: "nice value, -20 to 19"},
		{header: "COMMAND", names: []string{"cmdline"}, fill: true, help: "the command line ([name] for a kernel thread); T shows the processes as a tree by parent"},
	},
	"CGroup": {
		{header: "%CPU", names: []string{"cpu"}, unit: "%", div: 1, dec: 2, sort: true, help: "the group's CPU time as a share of one processor"},
		{header: "MEM", names: []string{"mem"}, unit: "bytes", div: 1, human: 1024, help: "memory charged to the group"},
		{header: "MAX", names: []string{"mem_max"}, unit: "bytes", div: 1, human: 1024, help: "the group's memory limit (n/a: none)"},
		kBps("rkB/s", "kilobytes read from storage per second", "io_rbytes"),
		kBps("wkB/s", "kilobytes written per second", "io_wbytes"),
		pct("%thr", "share of the interval the group was held back by its CPU quota", "throttled"),
		{header: "procs", names: []string{"nprocs"}, div: 1, dec: 1, help: "processes in the group itself"},
		{header: "CONTAINER", names: []string{"container_name", "container"}, fill: true, help: "the container's name, where it can be read without a daemon"},
	},
	"CPU": {
		pct("%usr", "user code, guest time excluded", "usr"),
		pct("%nice", "niced user code, guest time excluded", "niced"),
		pct("%sys", "kernel code, interrupts excluded", "kern"),
		pct("%iowait", "idle with I/O outstanding", "wait"),
		pct("%irq", "hardware interrupts", "irq"),
		pct("%soft", "software interrupts", "softirq"),
		pct("%steal", "ready but not run by the hypervisor", "steal"),
		pct("%guest", "running a guest", "guest"),
		pct("%gnice", "running a niced guest", "guest_nice"),
		{header: "%idle", names: []string{"idle"}, unit: "%", div: 1, pinned: true, help: "idle with no I/O outstanding"},
		pct("%busy", "everything but idle and iowait", "busy"),
	},
}

// explain is the help overlay's legend of the pane: each column of the table with what it
// is and its unit, or the statistics list's columns.
func (p *valuesPane) explain() []string {
	switch p.mode {
	case valuesTable:
		out := []string{"Columns of " + orTop(p.ctx) + " (s sorts by the next column, ‹ › scroll)"}
		for i := range p.cols {
			c := &p.cols[i]
			what := c.help
			if what == "" {
				what = c.col.Measure().BaseLabel()
				if d := &p.class.Datums[c.di]; d.Desc != "" {
					what = d.Desc + ", " + what
				}
			}
			out = append(out, pad(c.title(), 10)+" "+what)
		}
		return out
	case valuesStats:
		return []string{"Statistics of " + orTop(p.ctx),
			"value      the latest value: counters as a rate per second, time counters as % busy",
			"recent     a sparkline of the last readings, on the statistic's scale",
			"scale      a bar on the statistic's default scale; ▶ marks a value above it",
			"—, n/a     no rate yet, or not valid for this instance; the reason is beside it"}
	}
	return nil
}

// title is the column's header.
func (c *tableCol) title() string { return c.header }

// unitText is the column's unit row: the fixed unit, or the scaled column's unit while some
// cell is valid.
func (c *tableCol) unitText() string {
	switch {
	case c.fixed:
		return strings.TrimSpace(c.unit)
	case c.valid:
		return c.col.Unit()
	}
	return ""
}

// fixedText is a cell of a fixed column: the value's base quantity over the divisor, with two
// decimals, the way iostat and mpstat print it (`265.00`, `0.52`, `99.80`).
func (c *tableCol) fixedText(dst []byte, v namespace.Value, totals bool) []byte {
	if v.State != namespace.Valid {
		return append(dst, views.Mark(v)...)
	}
	x := c.column(totals).Measure().Base(v.V) / c.div
	if c.human > 0 {
		return humanText(dst, x, c.human)
	}
	if math.Abs(x) < 0.005 {
		x = 0 // never -0.00
	}
	return strconv.AppendFloat(dst, x, 'f', c.decimals(), 64)
}

// decimals is how many decimals a fixed column prints: two, as iostat and mpstat, unless its
// tool prints another number (top's %CPU one, a thread count none).
func (c *tableCol) decimals() int {
	if c.dec == 0 {
		return 2
	}
	return c.dec - 1
}

// textCell is a text column's cell: the value's text made safe, a mark for a missing value,
// nothing for a fill column's value that is not there (a group that is no container).
func (c *tableCol) textCell(v namespace.Value, ok bool) string {
	switch {
	case !ok:
		return ""
	case v.State == namespace.Valid:
		return safe(v.S)
	case c.fill && v.Reason == namespace.ReasonNotPresent:
		return ""
	}
	return views.Mark(v)
}

// humanText writes x the way df -h does: below base as a whole number, above it in powers of
// base with a suffix (K M G T P E for 1024, k M G T P E for 1000), one decimal below ten;
// rounded up, as df rounds, so a size is never understated (`100G`, `2.0T`, `4.3G`).
func humanText(dst []byte, x, base float64) []byte {
	suffixes := "KMGTPE"
	if base == 1000 {
		suffixes = "kMGTPE"
	}
	if x < 0 {
		dst, x = append(dst, '-'), -x
	}
	if x < base {
		return strconv.AppendFloat(dst, math.Ceil(x), 'f', 0, 64)
	}
	x /= base
	for i := 0; ; i++ {
		r := math.Ceil(x)
		if x < 10 {
			r = math.Ceil(x*10) / 10
		}
		if r >= base && i+1 < len(suffixes) {
			x /= base
			continue
		}
		prec := 0
		if r < 10 {
			prec = 1
		}
		dst = strconv.AppendFloat(dst, r, 'f', prec, 64)
		return append(dst, suffixes[i])
	}
}

// column is how the column's cells of a row are shown: the totals row has its own datum.
func (c *tableCol) column(totals bool) *views.Column {
	if totals && c.ti >= 0 {
		return &c.tcol
	}
	return &c.col
}

func (p *valuesPane) cell(r *tableRow, c *tableCol) (namespace.Value, bool) {
	if r.gone {
		v, ok := r.last[c.name]
		return v, ok
	}
	if r.totals {
		if c.ti < 0 {
			return namespace.Value{}, false
		}
		return p.snap.Class(p.ctx.Stats).Value(p.ctx.StatsInst, c.ti)
	}
	if r.class != nil && r.class != p.class {
		// A partition under its disk: the same statistic by name in its own class.
		di := r.class.DatumByName(c.name)
		if di < 0 {
			return namespace.Value{}, false
		}
		return p.snap.Class(r.class).Value(r.inst, di)
	}
	return p.snap.Class(p.class).Value(r.inst, c.di)
}

// fitColumns picks each column's unit for this snapshot from its values (views.Column keeps the
// hysteresis across snapshots, so a unit does not flip every tick).
func (p *valuesPane) fitColumns() {
	for i := range p.cols {
		c := &p.cols[i]
		c.valid = false
		c.textW = 0
		if c.text || c.fill {
			for j := range p.rows {
				v, ok := p.cell(&p.rows[j], c)
				c.textW = max(c.textW, width(c.textCell(v, ok)))
				c.valid = c.valid || (ok && v.State == namespace.Valid)
			}
			if c.maxW > 0 {
				c.textW = min(c.textW, c.maxW)
			}
			continue
		}
		big, neg := 0.0, false
		for j := range p.rows {
			if v, ok := p.cell(&p.rows[j], c); ok {
				col := c.column(p.rows[j].totals)
				col.Observe(v)
				c.valid = c.valid || v.State == namespace.Valid
				switch {
				case !c.fixed:
				case v.State == namespace.Valid:
					x := col.Measure().Base(v.V) / c.div
					big, neg = max(big, math.Abs(x)), neg || x <= -0.005
				default:
					c.textW = max(c.textW, len(views.Mark(v)))
				}
			}
		}
		switch {
		case c.fixed && c.human > 0:
			c.textW = max(c.textW, 5) // df -h's widest: "1023K", "9.9G"
		case c.fixed:
			// The widest number: its integer digits, the point and the decimals, a sign.
			w := len(strconv.FormatFloat(big, 'f', c.decimals(), 64))
			if neg {
				w++
			}
			c.textW = max(c.textW, w)
		}
		c.col.Settle()
		if c.ti >= 0 {
			c.tcol.Settle()
		}
	}
}

// sortRows orders the instance rows by the sort column, keeps those the filter matches, and in
// tree mode puts each process under its parent.
func (p *valuesPane) sortRows() {
	p.sortRowsBy()
	p.filterRows()
	if p.forest {
		p.forestOrder()
	}
	p.followPicked()
}

// filterRows keeps the rows whose name or text (user, command line) holds the filter, in any case.
func (p *valuesPane) filterRows() {
	if p.filter == "" {
		return
	}
	f := strings.ToLower(p.filter)
	keep := p.order[:0]
	for _, i := range p.order {
		r := &p.rows[i]
		if r.totals || strings.Contains(strings.ToLower(r.name), f) {
			keep = append(keep, i)
			continue
		}
		for k := range p.cols {
			c := &p.cols[k]
			if !c.text && !c.fill {
				continue
			}
			if v, ok := p.cell(r, c); ok && v.State == namespace.Valid && strings.Contains(strings.ToLower(v.S), f) {
				keep = append(keep, i)
				break
			}
		}
	}
	p.order = keep
	p.cursor = min(p.cursor, max(len(p.order)-1, 0))
}

// forestOrder lays the rows out as a tree by parent (the ppid statistic), each parent's
// children in the sort order, as top -V and htop's tree view: a row whose parent is not shown
// is a root. tdepth holds each row's depth.
func (p *valuesPane) forestOrder() {
	pi := -1
	if p.class != nil {
		pi = p.class.DatumByName("ppid")
	}
	if pi < 0 || p.snap == nil {
		return
	}
	cv := p.snap.Class(p.class)
	byPID := make(map[string]int, len(p.order))
	for _, i := range p.order {
		byPID[p.rows[i].name] = i
	}
	kids := map[int][]int{}
	var roots []int
	for _, i := range p.order {
		r := &p.rows[i]
		parent := -1
		if !r.totals && !r.gone && cv != nil {
			if v, ok := cv.Value(r.inst, pi); ok && v.State == namespace.Valid {
				if j, ok := byPID[strconv.FormatUint(uint64(v.V), 10)]; ok && j != i {
					parent = j
				}
			}
		}
		if parent < 0 {
			roots = append(roots, i)
		} else {
			kids[parent] = append(kids[parent], i)
		}
	}
	if p.tdepth == nil {
		p.tdepth = map[int]int{}
	}
	clear(p.tdepth)
	out := p.order[:0:0]
	seen := make(map[int]bool, len(p.order))
	var walk func(i, d int)
	walk = func(i, d int) {
		if seen[i] {
			return // a loop of parents (PIDs reused while read) is cut
		}
		seen[i] = true
		out = append(out, i)
		p.tdepth[i] = d
		for _, k := range kids[i] {
			walk(k, d+1)
		}
	}
	for _, i := range roots {
		walk(i, 0)
	}
	for _, i := range p.order { // rows left in a loop of parents
		if !seen[i] {
			walk(i, 0)
		}
	}
	p.order = out
}

// treePrefix indents a row's command in tree mode under its parent's.
func (p *valuesPane) treePrefix(row int) string {
	d := p.tdepth[row]
	if d == 0 {
		return ""
	}
	return strings.Repeat("  ", min(d-1, 20)) + "└ "
}

// sortRowsBy orders the instance rows by the sort column; the totals row stays first, values
// that are not valid sort last whatever the direction, ties go by name.
func (p *valuesPane) sortRowsBy() {
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
			if p.sortDesc {
				return lessRow(&p.rows[rest[b]], &p.rows[rest[a]])
			}
			return lessRow(&p.rows[rest[a]], &p.rows[rest[b]])
		})
		return
	}
	c := &p.cols[p.sortCol-1]
	if c.text || c.fill {
		texts := make([]string, len(p.rows))
		for _, i := range rest {
			v, ok := p.cell(&p.rows[i], c)
			texts[i] = c.textCell(v, ok)
		}
		sort.SliceStable(rest, func(a, b int) bool {
			ta, tb := texts[rest[a]], texts[rest[b]]
			if ta != tb {
				return (ta < tb) != p.sortDesc
			}
			return lessName(p.rows[rest[a]].name, p.rows[rest[b]].name)
		})
		return
	}
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

// lessName orders names naturally: numbers by value (cpu2 before cpu10), and the letters of
// kernel device names the way the kernel hands them out (sda … sdz, then sdaa): two runs of
// letters that share their first two are shorter first.
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
		la, lb := lettersAt(a), lettersAt(b)
		if la > 0 && lb > 0 {
			ra, rb := a[:la], b[:lb]
			if ra != rb {
				if la != lb && la >= 2 && lb >= 2 && ra[:2] == rb[:2] {
					return la < lb
				}
				return ra < rb
			}
			a, b = a[la:], b[lb:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func lettersAt(s string) int {
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	return i
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
		if p.cols[i].pinned {
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
		reserve = min(24, p.w/4) // the command line is what names a process: keep room for it
	}
	for i := p.colOff; i < len(p.cols); i++ {
		if p.cols[i].pinned || p.cols[i].fill {
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
