// The hosts table: the first block of a fleet's overview (issue 40 item 4), a row per host as
// pmstat -h a -h b or a fleet dashboard gives it: whether it answers and why not, its CPU,
// memory used, load, busiest disk, network and the age of its reading. Its rows are
// views.HostRows, the figures `dcimon hosts` prints; htop's keys sort it as they sort the
// process table, and Enter opens the host.

package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"dcimon/namespace"
	"dcimon/views"
)

// hostsTable is the hosts table's state: its rows at the last reading, sorted, and which of
// them are on screen.
type hostsTable struct {
	rows  []views.HostRow
	key   string // a column of views.HostKeys
	desc  bool
	top   int // the first row on screen
	shown int // rows on screen in the last frame
	keys  *procKeys
	list  *listKeys
	rev   key.Binding
	// reg and snap are what the rows were made of: a row's figures are read from them when it is
	// drawn or the table is sorted by one (views.HostStates).
	reg  *namespace.Registry
	snap *namespace.Snapshot
}

// hostCols are the table's columns after the host's name: heading, width, sort key.
var hostCols = []struct {
	head string
	w    int
	key  string
}{{"STATE", 7, "state"}, {"CPU%", 6, "cpu"}, {"MEM%", 6, "mem"}, {"LOAD1", 6, "load"}, {"DISK%", 6, "disk"}, {"NET", 11, "net"}, {"AGE", 6, "age"}}

// setHosts takes the hosts of a new reading (called when a collection has come back, so that
// the registry is not being changed meanwhile).
// Sorted by name, state or age, only the rows drawn have their figures read (hostsLines): a
// fleet of 10,000 hosts is not read whole for the 30 rows on screen (issue 38).
func (t *hostsTable) set(reg *namespace.Registry, snap *namespace.Snapshot) {
	t.reg, t.snap = reg, snap
	t.rows = views.HostStates(reg, snap)
	if t.key == "" {
		t.key, t.desc = "name", false
	}
	t.sort()
}

// sort orders the rows by the table's key, their figures read first when it is one of them.
func (t *hostsTable) sort() {
	if t.key != "name" && t.key != "state" && t.key != "age" {
		t.figures(0, len(t.rows))
	}
	views.SortHosts(t.rows, t.key, t.desc)
}

// figures reads the figures of rows [from, to) that do not have them yet.
func (t *hostsTable) figures(from, to int) {
	for i := max(from, 0); i < min(to, len(t.rows)); i++ {
		t.rows[i].Figures(t.reg, t.snap)
	}
}

// sortBy orders the rows by key: figures largest first, names and states in order; the same
// key again turns the order round.
func (t *hostsTable) sortBy(k string) {
	if t.key == k {
		t.desc = !t.desc
	} else {
		t.key, t.desc = k, k != "name" && k != "state" && k != "age"
	}
	t.sort()
}

// hostsShown says the overview shows the hosts table: a fleet's overview with hosts.
func (m *Model) hostsShown() bool { return m.ov.on && len(m.ov.hosts.rows) > 1 && m.fleetOnly() }

// hostsKey takes the hosts table's keys on a fleet's overview: P, M and T sort by CPU, memory
// and age as in the process table, < and > (F6) by the previous or next column, S the other
// way round; ↑ and ↓ past the rows on screen, PgUp and PgDn, scroll them. ok is false for any
// other key.
func (m *Model) hostsKey(km tea.KeyMsg) (cmd tea.Cmd, ok bool) {
	t := &m.ov.hosts
	if !m.hostsShown() {
		return nil, false
	}
	if t.keys == nil {
		pk, lk := newProcKeys(), newListKeys()
		t.keys, t.list, t.rev = &pk, &lk, newValuesKeys().Reverse
	}
	sorted := func(k string) (tea.Cmd, bool) {
		k0 := m.hostsFirstPath()
		t.sortBy(k)
		m.hostsRepath(k0)
		dir := "largest first"
		if !t.desc {
			dir = "smallest first"
		}
		if k == "name" || k == "state" {
			dir = map[bool]string{false: "A to Z", true: "Z to A"}[t.desc]
		}
		m.touch()
		return flashCmd("hosts sorted by "+k+", "+dir+" (P M T < > S)", false), true
	}
	step := func(d int) int {
		i := 0
		for j, c := range views.HostKeys {
			if c == t.key {
				i = j
			}
		}
		return (i + d + len(views.HostKeys)) % len(views.HostKeys)
	}
	switch {
	case key.Matches(km, t.keys.SortCPU):
		return sorted("cpu")
	case key.Matches(km, t.keys.SortMem):
		return sorted("mem")
	case key.Matches(km, t.keys.SortTime):
		return sorted("age")
	case key.Matches(km, t.keys.SortNext):
		return sorted(views.HostKeys[step(1)])
	case key.Matches(km, t.keys.SortPrev):
		return sorted(views.HostKeys[step(-1)])
	case key.Matches(km, t.rev):
		k0 := m.hostsFirstPath()
		t.desc = !t.desc
		views.SortHosts(t.rows, t.key, t.desc)
		m.hostsRepath(k0)
		m.touch()
		return nil, true
	}
	// Scrolling: only with the cursor on the table's rows.
	at := -1
	if m.ov.cursor < len(m.ov.paths) {
		for i := t.top; i < min(t.top+t.shown, len(t.rows)); i++ {
			if t.rows[i].Path == m.ov.paths[m.ov.cursor] {
				at = i
			}
		}
	}
	if at < 0 {
		return nil, false
	}
	last, oldTop := max(len(t.rows)-t.shown, 0), t.top
	switch {
	case key.Matches(km, t.list.Down) && at == t.top+t.shown-1 && t.top < last:
		t.top++
	case key.Matches(km, t.list.Up) && at == t.top && t.top > 0:
		t.top--
	case key.Matches(km, t.list.PageDown):
		t.top = min(t.top+max(t.shown-1, 1), last)
	case key.Matches(km, t.list.PageUp):
		t.top = max(t.top-max(t.shown-1, 1), 0)
	default:
		return nil, false
	}
	m.hostsRepath(m.ov.cursor - (at - oldTop))
	m.touch()
	return nil, true
}

// hostsFirstPath is where the table's first row on screen is among the overview's paths, -1
// when it is not there.
func (m *Model) hostsFirstPath() int {
	t := &m.ov.hosts
	if t.top >= len(t.rows) {
		return -1
	}
	for i, p := range m.ov.paths {
		if p == t.rows[t.top].Path {
			return i
		}
	}
	return -1
}

// hostsRepath makes the overview's paths of the rows on screen, from k0, those of the rows now
// there: a key that sorts or scrolls may come before the next frame, and Enter must open the
// host the row shows.
func (m *Model) hostsRepath(k0 int) {
	t := &m.ov.hosts
	for j := 0; k0 >= 0 && j < t.shown && k0+j < len(m.ov.paths) && t.top+j < len(t.rows); j++ {
		m.ov.paths[k0+j] = t.rows[t.top+j].Path
	}
}

// hostsLines is the hosts table in at most h lines of width w: a heading, the rows that fit
// from the first on screen, and how many more there are.
func (m *Model) hostsLines(w, h int) []ovLine {
	t := &m.ov.hosts
	if len(t.rows) == 0 || h < 2 {
		t.shown = 0
		return nil
	}
	muted := func(s string) string { return m.st.Text.Muted.Render(s) }
	n := min(len(t.rows), h-1)
	if n < len(t.rows) && n > 1 {
		n-- // a line says how many more
	}
	t.shown = n
	t.top = clamp(t.top, 0, max(len(t.rows)-n, 0))
	t.figures(t.top, t.top+n)
	nameW := 5 // "HOST" and its sort mark
	for _, r := range t.rows {
		nameW = max(nameW, views.Width(views.Safe(r.Name)))
	}
	fixed := 0
	for _, c := range hostCols {
		fixed += c.w + 1
	}
	nameW = min(nameW, max(w-fixed-2, 8), 32)

	var out []ovLine
	var sb strings.Builder
	head := func(s string, k string, w int, left bool) {
		if k == t.key {
			s += map[bool]string{true: "▾", false: "▴"}[t.desc]
		}
		if left {
			sb.WriteString(pad(s, w))
		} else {
			sb.WriteString(views.PadLeft(s, w))
		}
	}
	head("HOST", "name", nameW, true)
	for _, c := range hostCols {
		sb.WriteByte(' ')
		head(c.head, c.key, c.w, c.key == "state")
	}
	out = append(out, ovLine{m.st.Text.Accent.Render(cut(sb.String(), w)), ""})
	for _, r := range t.rows[t.top : t.top+n] {
		sb.Reset()
		sb.WriteString(pad(views.HostName(r.Name, nameW), nameW))
		for _, c := range hostCols {
			sb.WriteByte(' ')
			if c.key == "state" {
				st := pad(views.Safe(r.State), c.w)
				if r.State != "ok" {
					st = m.st.Text.Warn.Render(st)
				}
				sb.WriteString(st)
				continue
			}
			sb.WriteString(views.PadLeft(views.HostFigure(c.key, r), c.w))
		}
		line := sb.String()
		if room := w - width(line) - 2; r.Why != "" && room > 8 {
			line += "  " + muted(cut(views.Safe(r.Why), room))
		} else if room > 4 && r.DiskName != "" {
			line += "  " + muted(cut("disk "+views.Safe(r.DiskName), room))
		}
		out = append(out, ovLine{line, r.Path})
	}
	if more := len(t.rows) - t.top - n; n < len(t.rows) {
		out = append(out, ovLine{muted("     " + strconv.Itoa(t.top) + " above, " + strconv.Itoa(more) + " below · ↑↓ PgUp PgDn scroll · P M T < > S sort · Enter opens a host"), ""})
	}
	return out
}

// hostsContexts are the contexts whose statistics the hosts table shows (each host's CPU,
// memory and host figures; its disks and interfaces are the fleet hotsets'), and each host's
// processes for the fleet's process block (overview_fleetprocs.go), to subscribe to
// while it is on screen: they are read at every collection, not now and then.
func (m *Model) hostsContexts() []*namespace.Context {
	var out []*namespace.Context
	procs := m.procHosts()
	for _, r := range m.ov.hosts.rows {
		for _, p := range []string{"/CPU", "/Mem/Real", "/Host", "/Disk", "/NetIf", "/Proc"} {
			if p == "/Proc" && !procs[r.Name] {
				continue
			}
			if ref, err := m.reg.Lookup(nil, r.Path+p); err == nil {
				out = append(out, ref.Ctx)
			}
		}
	}
	return out
}

// hostsOnScreen names the hosts whose processes are read (procHosts), for the subscription's
// key: when they change (a scroll, a sort, a new order by CPU), other hosts' processes are read.
func (m *Model) hostsOnScreen() string {
	if m.ov == nil || len(m.ov.hosts.rows) == 0 {
		return ""
	}
	t := &m.ov.hosts
	n := t.shown
	if n <= 0 {
		n = maxProcHosts
	}
	var sb strings.Builder
	for i := max(t.top, 0); i < min(t.top+n, len(t.rows)); i++ {
		sb.WriteString(t.rows[i].Name)
		sb.WriteByte(0)
	}
	return sb.String()
}

// maxProcHosts is how many hosts' processes the fleet's process block reads when the hosts
// table's rows on screen are not known yet.
const maxProcHosts = 30

// procHosts are the hosts whose processes the fleet's process block reads and ranks: those of
// the hosts table's rows on screen (the busiest when it is sorted by CPU), never every host
// of a thousand, whose processes (some 200 a host) would be read at every collection.
func (m *Model) procHosts() map[string]bool {
	t := &m.ov.hosts
	n := t.shown
	if n <= 0 {
		n = maxProcHosts
	}
	out := make(map[string]bool, n)
	for i := max(t.top, 0); i < min(t.top+n, len(t.rows)); i++ {
		out[t.rows[i].Name] = true
	}
	return out
}
