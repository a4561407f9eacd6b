package views

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"dcimon/namespace"
)

// HostRow is one host of a fleet at one reading, as the hosts table shows it (issue 40 item 4):
// its name, whether it answers and why not, and its busiest figures. A figure that could not be
// read is NaN, with its reason in the row's Why; nothing is ever 0 for want of a value.
type HostRow struct {
	Name  string // the host's context name: its alias, or its hostspec as given
	Path  string // its context's path, to open it
	Desc  string // the host's description (its hostspec: "Host 10.0.0.5:44321 through PCP")
	State string // the sampler's word: ok, failing, busy, dead, idle
	Why   string // why it does not answer ("" when it does)
	// CPU is the share of all its processors busy, Mem the share of its memory used, Load1
	// its 1-minute load average, Disk the busiest disk's share of time busy (DiskName which),
	// Net its interfaces' bytes a second received and sent (loopback left out).
	CPU, Mem, Load1, Disk, Net float64
	DiskName                   string
	Age                        time.Duration // since its last reading; -1 when it never answered

	// ctx is the host's context; pending says its figures (CPU to Net) are not read yet
	// (HostStates): Figures reads them.
	ctx     *namespace.Context
	pending bool
}

// HostKeys are the columns a hosts table sorts by, in the order shown.
var HostKeys = []string{"name", "state", "cpu", "mem", "load", "disk", "net", "age"}

// HostRows are the hosts of a fleet in snap: each top-level context of a supplier that holds a
// host's classes (a host of --hosts, --archive or --series with several hosts), in the order of
// the name space. A single host, or a local source, has none.
func HostRows(reg *namespace.Registry, snap *namespace.Snapshot) []HostRow {
	rows := HostStates(reg, snap)
	for i := range rows {
		rows[i].Figures(reg, snap)
	}
	return rows
}

// HostStates are HostRows without their figures (CPU, memory, load, disk, network): each
// host's name, state, why and age, enough to sort by name, state or age. Figures reads a row's
// figures when it is drawn: a table of 10,000 hosts sorted by name reads the figures of the
// rows on screen, not 10,000 hosts' 30 statistics at every reading (issue 38).
func HostStates(reg *namespace.Registry, snap *namespace.Snapshot) []HostRow {
	if reg == nil || snap == nil {
		return nil
	}
	top := reg.Top()
	var mon *namespace.Context
	for _, c := range top.Children() {
		if c.Name == "Monitor" {
			mon = c
		}
	}
	mons := monitorsOf(mon)
	var rows []HostRow
	for _, c := range top.Children() {
		if c.Class == nil || c.Class.Supplier == nil || len(c.Class.ID) != 1 || c.Deleted() {
			continue
		}
		if child(c, "CPU") == nil && child(c, "Host") == nil && child(c, "Disk") == nil {
			continue // a class of a single host, not a host
		}
		rows = append(rows, hostRow(snap, c, mons[c.Class.Supplier.Module]))
	}
	return rows
}

// monitorsOf is the Monitor instances under mon by supplier module: each by its name and, when
// that was made short (a long hostspec), by its OS name, which keeps the module. Made once for
// the hosts table, not looked for among every host's for each host (10,000 hosts: 10^8 names
// compared at every reading, issue 38).
func monitorsOf(mon *namespace.Context) map[string]*namespace.Context {
	if mon == nil {
		return nil
	}
	kids := mon.Children()
	out := make(map[string]*namespace.Context, len(kids))
	for _, k := range kids {
		if k.Deleted() {
			continue
		}
		// The first of a name wins, as a walk in order found it.
		if _, ok := out[k.Name]; !ok {
			out[k.Name] = k
		}
		if k.Inst != nil && k.Inst.OSName != k.Name {
			if _, ok := out[k.Inst.OSName]; !ok {
				out[k.Inst.OSName] = k
			}
		}
	}
	return out
}

func child(c *namespace.Context, name string) *namespace.Context {
	for _, k := range c.Children() {
		if k.Name == name && !k.Deleted() {
			return k
		}
	}
	return nil
}

// stat is the value of path below c in snap as its text shows it, at the base of its unit (a
// share in %, bytes a second), NaN when it is not a valid number.
func stat(reg *namespace.Registry, snap *namespace.Snapshot, c *namespace.Context, path string) float64 {
	ref, err := reg.Lookup(c, path)
	if err != nil || ref.Datum == nil {
		return math.NaN()
	}
	v, _, ok := snap.Lookup(ref)
	if !ok || v.State != namespace.Valid {
		return math.NaN()
	}
	return MeasureWith(Options{Class: ref.Ctx.Stats}, ref.Datum).Base(v.V)
}

// hostRow is host c's row without its figures; m is its Monitor instance (nil when it has none).
func hostRow(snap *namespace.Snapshot, c *namespace.Context, m *namespace.Context) HostRow {
	nan := math.NaN()
	r := HostRow{Name: c.Name, Path: c.Path(), Desc: c.Desc, State: "idle", Age: -1,
		CPU: nan, Mem: nan, Load1: nan, Disk: nan, Net: nan, ctx: c, pending: true}
	if m != nil {
		hostState(snap, m, &r)
	}
	if r.State == "ok" {
		r.Why = ""
		if cpu := child(c, "CPU"); cpu != nil && cpu.Stats != nil {
			if cv := snap.Class(cpu.Stats); cv != nil && cv.Err == nil && !cv.End.IsZero() {
				r.Age = max(snap.End.Sub(cv.End), 0) // finer than last_ok's seconds
			}
		}
	}
	return r
}

// Figures reads the row's figures from snap, the reading it was made of, when they are not
// read yet (HostStates); a row made otherwise is left as it is.
func (r *HostRow) Figures(reg *namespace.Registry, snap *namespace.Snapshot) {
	if !r.pending {
		return
	}
	r.pending = false
	c := r.ctx
	r.CPU = stat(reg, snap, c, "CPU/busy")
	r.Mem = stat(reg, snap, c, "Mem/Real/%used")
	r.Load1 = stat(reg, snap, c, "Host/load1")
	r.Disk, r.DiskName = busiestDisk(reg, snap, child(c, "Disk"))
	r.Net = netBytes(reg, snap, child(c, "NetIf"))
}

// Pending says the row's figures are not read yet (HostStates, Figures).
func (r *HostRow) Pending() bool { return r.pending }

// monitorValue is the value of datum name of the host's Monitor instance m, and whether it is
// valid. The instance has statistics and no subcontext: its datum is taken by name, as
// Registry.Lookup would, without a path to split (three a host at every reading).
func monitorValue(snap *namespace.Snapshot, m *namespace.Context, name string) (namespace.Value, bool) {
	if m.Deleted() || m.Stats == nil || child(m, name) != nil {
		return namespace.Value{}, false
	}
	j := m.Stats.DatumByName(name)
	if j < 0 || m.Stats.Datums[j].ID == namespace.InvalidDatumID {
		return namespace.Value{}, false
	}
	v, _, ok := snap.Lookup(namespace.Ref{Ctx: m, Datum: &m.Stats.Datums[j]})
	return v, ok && v.State == namespace.Valid
}

// hostState fills r's state, why and age from the host's Monitor instance m.
func hostState(snap *namespace.Snapshot, m *namespace.Context, r *HostRow) {
	if v, ok := monitorValue(snap, m, "state"); ok && v.S != "" {
		r.State = v.S
	}
	if v, ok := monitorValue(snap, m, "error"); ok {
		r.Why = v.S
	}
	if v, ok := monitorValue(snap, m, "last_ok"); ok && v.N > 0 {
		r.Age = max(snap.End.Sub(time.Unix(int64(v.N), 0)), 0)
	}
}

// busiestDisk is the largest busy share of the disks under d and that disk's name, NaN when
// none is read.
func busiestDisk(reg *namespace.Registry, snap *namespace.Snapshot, d *namespace.Context) (float64, string) {
	busiest, name := math.NaN(), ""
	if d == nil {
		return busiest, name
	}
	for _, k := range d.Children() {
		if v := stat(reg, snap, k, "busy"); !math.IsNaN(v) && (math.IsNaN(busiest) || v > busiest) {
			busiest, name = v, k.Name
		}
	}
	return busiest, name
}

// netBytes is the bytes a second of the interfaces under n but loopback, NaN when none is read.
func netBytes(reg *namespace.Registry, snap *namespace.Snapshot, n *namespace.Context) float64 {
	sum := math.NaN()
	if n == nil {
		return sum
	}
	for _, k := range n.Children() {
		if k.Name == "lo" {
			continue
		}
		if v := stat(reg, snap, k, "bytes"); !math.IsNaN(v) {
			sum = nanZero(sum) + v
		}
	}
	return sum
}

func nanZero(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

// SortHosts orders rows by key (one of HostKeys), largest first when desc; a figure that could
// not be read goes last either way, and ties keep the name order, so a table never reorders
// rows that compare equal from one reading to the next.
func SortHosts(rows []HostRow, key string, desc bool) {
	slices.SortStableFunc(rows, func(a, b HostRow) int {
		var c int
		switch key {
		case "name":
			c = strings.Compare(a.Name, b.Name)
		case "state":
			c = strings.Compare(a.State, b.State)
		default:
			x, y := hostValue(key, a), hostValue(key, b)
			switch xn, yn := math.IsNaN(x), math.IsNaN(y); {
			case xn && yn:
			case xn:
				return 1
			case yn:
				return -1
			default:
				c = cmp.Compare(x, y)
			}
		}
		if desc {
			c = -c
		}
		if c == 0 {
			c = strings.Compare(a.Name, b.Name)
		}
		return c
	})
}

// HostFigure is a figure of a hosts table as text: a share or load with the decimals top and
// iostat print, bytes a second in decimal units (kB/s, MB/s as sar prints them), "n/a" for one
// that could not be read.
func HostFigure(key string, r HostRow) string {
	x := hostValue(key, r)
	switch {
	case key == "age" && math.IsNaN(x):
		return "never"
	case key == "age" && r.Age < 10*time.Second:
		return fmt.Sprintf("%.1fs", r.Age.Seconds())
	case key == "age":
		return r.Age.Round(time.Second).String()
	case math.IsNaN(x):
		return "n/a"
	}
	switch key {
	case "load":
		return fmt.Sprintf("%.2f", x)
	case "net":
		return BytesRate(x)
	}
	return fmt.Sprintf("%.1f", x)
}

// hostValue is the figure of r that key names (one of HostKeys but name and state), NaN when
// it could not be read (an age: the host never answered).
func hostValue(key string, r HostRow) float64 {
	switch key {
	case "cpu":
		return r.CPU
	case "mem":
		return r.Mem
	case "load":
		return r.Load1
	case "disk":
		return r.Disk
	case "net":
		return r.Net
	case "age":
		if r.Age < 0 {
			return math.NaN()
		}
		return r.Age.Seconds()
	}
	return math.NaN()
}

// BytesRate is a rate of bytes a second in decimal units, three significant digits or more.
func BytesRate(x float64) string {
	units := []string{"B/s", "kB/s", "MB/s", "GB/s", "TB/s"}
	i := 0
	for x >= 1000 && i < len(units)-1 {
		x /= 1000
		i++
	}
	if x < 10 && i > 0 {
		return fmt.Sprintf("%.2f %s", x, units[i])
	}
	if x < 100 && i > 0 {
		return fmt.Sprintf("%.1f %s", x, units[i])
	}
	return fmt.Sprintf("%.0f %s", x, units[i])
}

// HostName fits a host's name into width cells: a relayed host (`db1@gateway`, or two
// hostspecs that differ only after the relay) keeps its pmcd's part and as much of its relay as
// fits, so two relayed hosts stay told apart; any other long name loses its middle.
func HostName(name string, width int) string {
	name = Safe(name)
	if Width(name) <= width || width <= 1 {
		return name
	}
	if host, relay, ok := strings.Cut(name, "@"); ok {
		if Width(host)+3 <= width {
			return host + "@" + clipMiddle(relay, width-Width(host)-1)
		}
		if width >= 4 {
			return clipMiddle(host, width-2) + "@…" // the pmcd's part tells relayed hosts apart
		}
	}
	return clipMiddle(name, width)
}

// clipMiddle keeps the start and the end of s, with "…" between, in width cells.
func clipMiddle(s string, width int) string {
	r := []rune(s)
	if len(r) <= width {
		return s
	}
	if width <= 1 {
		return "…"
	}
	head := (width - 1) / 2
	tail := width - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}
