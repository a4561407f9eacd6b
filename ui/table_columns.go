package ui

import (
	"dcimon/namespace"
	"dcimon/views"
	"math"
	"slices"
	"strconv"
	"strings"
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
	htop   bool    // a fixed column of bytes printed as htop's RES (htopBytes)
	datum  *namespace.Datum
	// A text column (top's USER and S) shows the value's text, left-aligned, at most maxW
	// cells; a fill column (COMMAND) is the last and takes the width the others leave.
	text, fill bool
	maxW       int
	dec        int // colPref.dec
	sortFirst  bool
	// calc computes the cell from other values (%MEM, TIME+) rather than showing the datum's.
	calc colCalc
}

// colCalc is how a computed column makes its cells.
type colCalc int

const (
	calcNone colCalc = iota // the datum's own value
	calcMem                 // %MEM: the datum (rss) over the host's memory, in percent
	calcTime                // TIME+: the cumulative utime + stime, in ms, as htop prints it
)

// tableColumns chooses the instance table's columns from the class's datums by name: the
// columns of well-known contexts first, in their tool's order and form (the per-disk table of
// `iostat -x`, the per-processor one of `mpstat -P ALL`), then every other numeric statistic.
func tableColumns(vf valueFormat, ctx *namespace.Context, c *namespace.Class) []tableCol {
	var cols []tableCol
	used := map[int]bool{} // datums with a column of their own value
	add := func(pc colPref, di int) {
		if !columnWanted(c, pc, di, used) {
			return
		}
		if pc.calc == calcNone {
			used[di] = true
		}
		cols = append(cols, newTableCol(vf, ctx, c, pc, di))
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

// columnWanted reports whether datum di of class c gets the column pc: a datum that is there,
// shown, and numeric unless the column is text; one column of its own value (used), others of
// values computed from it.
func columnWanted(c *namespace.Class, pc colPref, di int, used map[int]bool) bool {
	if di < 0 || (used[di] && pc.calc == calcNone) {
		return false
	}
	d := &c.Datums[di]
	return d.Shown() && (d.IsDerived() || d.Type.IsNumeric() || pc.text || pc.fill)
}

// newTableCol is the column pc of datum di of class c, with the context's own datum of the same
// name and id, when it has one, for the totals row.
func newTableCol(vf valueFormat, ctx *namespace.Context, c *namespace.Class, pc colPref, di int) tableCol {
	d := &c.Datums[di]
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
	col.text, col.fill, col.maxW, col.dec, col.sortFirst, col.calc = pc.text, pc.fill, pc.maxW, pc.dec, pc.sort, pc.calc
	if (pc.unit != "" || pc.div != 0) && !vf.raw { // raw readings are exact numbers, not the tool's form
		col.toolForm(pc)
	}
	return col
}

// toolForm prints the column in its tool's fixed form: pc's unit and divisor (1 when it names
// none); with net_units = "bits", an interface's rates in Mbit/s, as a link's speed is given.
func (col *tableCol) toolForm(pc colPref) {
	col.fixed, col.unit, col.div, col.human, col.htop = true, pc.unit, pc.div, pc.human, pc.htop
	if pc.unit == "kB/s" && col.col.Measure().Kind == views.KindBits {
		col.header, col.unit, col.div = strings.Replace(pc.header, "kB/s", "Mbit/s", 1), "Mbit/s", 1e6
	}
	if col.div == 0 {
		col.div = 1
	}
}

// TableLayout is a configured layout of a well-known table (disk, netif, cpu, fs, proc, cgroup): the columns
// shown, in order, by header (all of them when empty), and the column sorted at first.
type TableLayout struct {
	Columns    []string
	Sort       string
	Descending bool
}

// apply keeps the columns the layout names, in its order: a column the tool pins at the right
// edge (iostat's %util) stands where the layout puts it (issue 32 item 9).
func (l TableLayout) apply(cols []tableCol) []tableCol {
	if len(l.Columns) == 0 {
		return cols
	}
	out := make([]tableCol, 0, len(l.Columns))
	for _, name := range l.Columns {
		if i := slices.IndexFunc(cols, func(c tableCol) bool { return c.title() == name }); i >= 0 {
			c := cols[i]
			c.pinned = false
			out = append(out, c)
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
	htop   bool    // bytes printed as htop's RES and VIRT (1037M, 12.3G: htopBytes)
	dec    int     // decimals of a fixed column + 1 (1: whole numbers, 2: one, as top's %CPU); 0 is two
	text   bool    // the value's text, left-aligned in at most maxW cells (USER, S)
	fill   bool    // text in the width the other columns leave, last (COMMAND)
	maxW   int
	sort   bool // the column the table is sorted by at first, highest first (top's %CPU)
	calc   colCalc
}

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
	// The process table reads like htop: PID (the name column), USER, S, %CPU, %MEM, RES,
	// TIME+, the I/O rates that htop lacks and every peer is asked for, and the command line in
	// what is left (issue 32 item 8).
	"Proc": {
		{header: "USER", names: []string{"user"}, text: true, maxW: 9, help: "the effective user (a number where /etc/passwd has no name)"},
		{header: "S", names: []string{"state"}, text: true, maxW: 1, help: "R running, S sleeping, D disk wait, Z zombie, T stopped, I idle kernel thread"},
		{header: "%CPU", names: []string{"cpu"}, unit: "%", div: 1, dec: 2, sort: true, help: "share of one processor over the interval, as top (many threads can pass 100)"},
		{header: "%MEM", names: []string{"rss"}, unit: "%", div: 1, dec: 2, calc: calcMem, help: "resident memory as a share of the host's memory (Mem/Real/total), as htop's MEM%"},
		{header: "RES", names: []string{"rss"}, unit: "KiB", div: 1, htop: true, help: "resident memory as htop's RES: KiB (no mark) under 100000, then M, G marked (powers of 1024), never rounded up: 1037M, not 1.1G"},
		{header: "TIME+", names: []string{"utime"}, div: 1, calc: calcTime, help: "processor time used since the process started, user and system, as htop's TIME+ (minutes:seconds.hundredths; 5h07:12 past an hour)"},
		kBps("read/s", "kilobytes per second the process caused to be read from storage; n/a where /proc/PID/io is closed to dcimon", "read_bytes"),
		kBps("write/s", "kilobytes per second the process caused to be written to storage", "write_bytes"),
		kBps("io/s", "read/s + write/s: what the busiest processes by I/O are ranked by", "io_bytes"),
		{header: "THR", names: []string{"threads"}, div: 1, dec: 1, help: "threads"},
		{header: "NI", names: []string{"nice"}, div: 1, dec: 1, help: "nice value, -20 to 19"},
		{header: "VIRT", names: []string{"vsize"}, unit: "KiB", div: 1, htop: true, help: "virtual memory as htop's VIRT: KiB (no mark) under 100000, then M, G marked, never rounded up"},
		{header: "COMMAND", names: []string{"cmdline"}, fill: true, help: "the command line ([name] for a kernel thread): it takes the width the other columns leave, and → past the last column scrolls it; t shows the processes as a tree by parent"},
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
	// mpstat's shares: each part's ticks over the ticks counted in every part, so a row adds
	// up to 100 (issue 32 item 6); the wall-clock rates where a source has no shares.
	"CPU": {
		pct("%usr", "user code, guest time excluded", "%usr", "usr"),
		pct("%nice", "niced user code, guest time excluded", "%nice", "niced"),
		pct("%sys", "kernel code, interrupts excluded", "%sys", "kern"),
		pct("%iowait", "idle with I/O outstanding", "%iowait", "wait"),
		pct("%irq", "hardware interrupts", "%irq", "irq"),
		pct("%soft", "software interrupts", "%soft", "softirq"),
		pct("%steal", "ready but not run by the hypervisor", "%steal", "steal"),
		pct("%guest", "running a guest", "%guest", "guest"),
		pct("%gnice", "running a niced guest", "%gnice", "guest_nice"),
		{header: "%idle", names: []string{"%idle", "idle"}, unit: "%", div: 1, pinned: true, help: "idle with no I/O outstanding"},
		pct("%busy", "everything but idle and iowait", "busy"),
	},
}

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
	switch c.calc {
	case calcMem:
		return strconv.AppendFloat(dst, v.V, 'f', c.decimals(), 64)
	case calcTime:
		return append(dst, timePlus(uint64(v.V))...)
	}
	x := c.column(totals).Measure().Base(v.V) / c.div
	if c.htop {
		return htopBytes(dst, x)
	}
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
	case v.State == namespace.Valid && c.fill && (c.name == "cmdline" || c.name == "command"):
		return htopCommand(v.S) // a newline a space, other control characters ?, as htop
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
