// The overview: the first screen, which answers "is this host all right, and what is busiest?"
// at every size (issue 12). It is built from the name space's own statistics and the open
// hotsets, not a second code path: every number on it is a statistic a person can open in the
// tree and the inspector (j/k choose one, Enter opens it).

package ui

import (
	"strconv"
	"strings"
	"time"

	"dcimon/namespace"
	"dcimon/views"
)

// overview is the overview screen's state: which of its numbers the cursor is on.
type overview struct {
	on      bool // the overview is the screen (the panes are one key away)
	cursor  int
	allCPUs bool // every processor has a bar: the CPU hotset would say nothing more
	// paths of the numbers in the last frame, top to bottom, for the cursor and Enter.
	paths []string
	rows  []int // the body line each path is on
	// the process class, looked up again when the registry's generation moves (procGen), and
	// the block's ranking, reused from frame to frame.
	procs   *procCols
	procGen uint64
	top     []ranked
	hosts   hostsTable  // a fleet's hosts, first on its overview (hosts.go)
	texts   []string    // overviewProcs' value texts, reused
	rowMemo procRowMemo // the process block's lines of the last frame (overview_rowmemo.go)
	// a fleet's process classes, a host each (overview_fleetprocs.go), looked up again when
	// the registry's generation moves.
	fleetProcs   []fleetProcHost
	fleetProcGen uint64
}

// ovLine is one line of the overview being built, and the statistic it shows when it has one.
type ovLine struct {
	text string
	path string
}

// statValue looks up a statistic of the latest snapshot by path: its value and datum, ok false
// when the name space has no such statistic (a provider that is not there).
func (m *Model) statValue(path string) (namespace.Value, *namespace.Datum, *namespace.Class, bool) {
	if m.reg == nil || m.snap == nil {
		return namespace.Value{}, nil, nil, false
	}
	ref, err := m.reg.Lookup(nil, path)
	if err != nil || ref.Datum == nil {
		return namespace.Value{}, nil, nil, false
	}
	v, cv, ok := m.snap.Lookup(ref)
	if !ok {
		v = namespace.Value{State: namespace.Unavailable, Reason: namespace.ReasonNotSampled}
	}
	c := ref.Ctx.Stats
	if cv != nil {
		c = cv.Class
	}
	return v, ref.Datum, c, true
}

// statText is a statistic's value as every pane shows it, "" when there is no such statistic;
// a counter that has no rate yet says so in words rather than with a dash, for the first
// quarter second.
func (m *Model) statText(path string) string {
	v, d, c, ok := m.statValue(path)
	if !ok {
		return ""
	}
	if v.State == namespace.NoRate {
		return "…"
	}
	return m.vf.text(c, d, v)
}

// loadText is a load average as uptime and top print it, with the kernel's two decimals
// (`0.40`, not `0.4`); the statistic's own text when it is not a valid number.
func (m *Model) loadText(path string) string {
	v, _, _, ok := m.statValue(path)
	if ok && v.State == namespace.Valid {
		return strconv.FormatFloat(v.V, 'f', 2, 64)
	}
	return m.statText(path)
}

// overviewBar is a labelled bar of a percentage statistic: `CPU  ████░░░░  42.0%`.
func (m *Model) overviewBar(sb *strings.Builder, label string, labelW int, path string, barW int) {
	sb.WriteString(m.st.Text.Bold.Render(pad(label, labelW)))
	sb.WriteByte(' ')
	v, d, c, ok := m.statValue(path)
	txt := "n/a"
	if ok {
		txt = m.vf.text(c, d, v)
		if v.State == namespace.NoRate {
			txt = "…"
		}
	}
	frac, over, bok := 0.0, false, false
	if ok {
		frac, over, bok = datumBar(d, v)
	}
	if bok && barW > 0 {
		writeBar(sb, m.st, frac, over, barW)
	} else {
		sb.WriteString(m.st.Bar.Empty.Render(cellRun(emptyCells, barW)))
	}
	sb.WriteByte(' ')
	valueInk(m.st, v).writePadLeft(sb, txt, 6)
}

// fleetOnly says the name space is a source of several hosts: no processors of its own, and a
// peer set ranking across hosts.
func (m *Model) fleetOnly() bool {
	if m.reg == nil {
		return false
	}
	if _, err := m.reg.Lookup(nil, "CPU"); err == nil {
		return false
	}
	for _, e := range m.hot.Entries() {
		if e.Fleet() {
			return true
		}
	}
	return false
}

// overviewLines builds the overview for a w×h body.
func (m *Model) overviewLines(w, h int) []ovLine {
	var out []ovLine
	if m.fleetOnly() {
		out = m.overviewFleetHead(w, h)
	} else {
		out = m.overviewHostHead(w, h)
	}
	out = m.appendOverviewProcs(out, w, h)

	// The open hotsets, side by side as many as fit.
	out = append(out, m.overviewHotsets(w, h-len(out))...)

	// With room to spare, the latest events.
	return append(out, m.overviewLatestEvents(w, h-len(out)-1)...)
}

// overviewFleetHead heads the overview of several hosts (issue 14): no host of its own to show,
// a row per host, the fleet's busiest below.
func (m *Model) overviewFleetHead(w, h int) []ovLine {
	hosts := safe(m.opts.Host)
	if m.hosts > 1 {
		hosts = strconv.Itoa(m.hostsOK) + " of " + strconv.Itoa(m.hosts) + " hosts answer"
	}
	out := []ovLine{{m.st.Text.Bold.Render(hosts) + m.st.Text.Muted.Render(" · a row per host, the busiest disks, interfaces and processors of every host ranked together below"), ""}}
	if rows := m.hostsLines(w, max(h/2, min(h-2, 6))); len(rows) > 0 {
		out = append(out, rows...)
	}
	return append(out, ovLine{})
}

// overviewHostHead heads the overview of one host: the host in one line, its processors, memory,
// swap and pressure stalls, then a blank line.
func (m *Model) overviewHostHead(w, h int) []ovLine {
	out := m.overviewHostLine()

	// Processors: all together with mpstat's breakdown, then one bar each, as many as fit.
	// The bars share one width, so the values line up; they give way to the words beside
	// them (the CPU's parts, the memory's key figures) down to barMin cells.
	labelW := 5
	busy := m.overviewBusy()
	memTexts := m.memTexts()
	need := 0
	if busy >= 0 {
		need = width(m.cpuBreakdown(busy, w))
	}
	if len(memTexts) > 1 {
		need = max(need, width(memTexts[1]))
	}
	const barMin = 10
	barW := max(min(w-labelW-9-2-need, 40), barMin)
	out = append(out, m.overviewCPUBar(w, labelW, barW, busy))
	out = append(out, m.overviewCPUCells(w, h)...)

	// Memory and swap.
	out = append(out, m.overviewMemBar(w, labelW, barW, memTexts))
	out = append(out, m.overviewSwap(w, labelW, barW)...)
	out = append(out, m.overviewStalls(labelW)...)
	return append(out, ovLine{})
}

// overviewHostLine is the host in one line, when there is anything to say: who, how long up,
// load, tasks.
func (m *Model) overviewHostLine() []ovLine {
	var hl []string
	if t := m.statText("Host/uptime"); t != "" {
		if i := strings.Index(t, "("); i >= 0 && strings.HasSuffix(t, ")") {
			t = t[i+1 : len(t)-1] // `5m 21s`, not the seconds
		}
		hl = append(hl, "up "+t)
	}
	if l1 := m.loadText("Host/load1"); l1 != "" {
		hl = append(hl, "load "+l1+" "+m.loadText("Host/load5")+" "+m.loadText("Host/load15"))
	}
	if r := m.statText("Host/running"); r != "" {
		num, _ := views.SplitUnit(r)
		b, _ := views.SplitUnit(m.statText("Host/blocked"))
		hl = append(hl, num+" running "+b+" blocked")
	}
	if th := m.statText("Host/threads"); th != "" {
		hl = append(hl, th)
	}
	if n := m.statText("CPU/ncpu"); n != "" {
		hl = append(hl, n)
	}
	if len(hl) == 0 {
		return nil
	}
	return []ovLine{{strings.Join(hl, m.st.Text.Muted.Render(" · ")), "Host/load1"}}
}

// overviewBusy is the processors' busy share, -1 when it is not a valid value.
func (m *Model) overviewBusy() float64 {
	if v, _, _, ok := m.statValue("CPU/busy"); ok && v.State == namespace.Valid {
		return v.V
	}
	return -1
}

// overviewCPUBar is the bar of all the processors together, with mpstat's breakdown beside it
// when it fits.
func (m *Model) overviewCPUBar(w, labelW, barW int, busy float64) ovLine {
	var sb strings.Builder
	m.overviewBar(&sb, "CPU", labelW, "CPU/busy", barW)
	if room := w - width(sb.String()) - 2; room > 10 && busy >= 0 {
		if parts := m.cpuBreakdown(busy, room); parts != "" {
			sb.WriteString("  " + m.st.Text.Muted.Render(parts))
		}
	}
	return ovLine{sb.String(), "CPU/busy"}
}

// overviewCPUInstances are the processors' instances under CPU.
func (m *Model) overviewCPUInstances() []*namespace.Context {
	var cpus []*namespace.Context
	if m.reg == nil {
		return nil
	}
	m.reg.Read(func() {
		if ref, err := m.reg.Lookup(nil, "CPU"); err == nil {
			for _, k := range ref.Ctx.Children() {
				if k.Kind == namespace.CtxInstance {
					cpus = append(cpus, k)
				}
			}
		}
	})
	return cpus
}

// overviewCPUCells are the processors' bars, a cell each, as many rows as fit; it records whether
// every processor was shown (the CPU hotset then gives way).
func (m *Model) overviewCPUCells(w, h int) []ovLine {
	cpus := m.overviewCPUInstances()
	// A cell: `cpu12 ███░░░  44.1%`, cells three spaces apart so a value never reads as the
	// next label.
	labW := 5
	for _, k := range cpus {
		labW = max(labW, width(k.Name))
	}
	cellW := labW + 1 + 10 + 1 + 6 + 3
	cols := max((w+3)/cellW, 1)
	maxRows := max(min(4, h/5), 1)
	shown := min(len(cpus), cols*maxRows)
	var out []ovLine
	for r := 0; r*cols < shown; r++ {
		out = append(out, m.overviewCPURow(cpus[r*cols:min(r*cols+cols, shown)], labW))
	}
	m.ov.allCPUs = shown == len(cpus)
	if more := len(cpus) - shown; more > 0 {
		out = append(out, ovLine{m.st.Text.Muted.Render("     … " + strconv.Itoa(more) + " more processors: the busiest are in the CPU hotset below"), "CPU"})
	}
	return out
}

// overviewCPURow is one row of processors' cells, three spaces apart, the line's path the first's.
func (m *Model) overviewCPURow(cpus []*namespace.Context, labW int) ovLine {
	var lb strings.Builder
	first := ""
	for c, k := range cpus {
		path := "CPU/" + k.Name + "/busy"
		if first == "" {
			first = path
		}
		if c > 0 {
			lb.WriteString("   ")
		}
		m.overviewBar(&lb, k.Name, labW, path, 10)
	}
	return ovLine{lb.String(), first}
}

// overviewMemBar is the memory's bar with the longest of its words that fits.
func (m *Model) overviewMemBar(w, labelW, barW int, memTexts []string) ovLine {
	var sb strings.Builder
	m.overviewBar(&sb, "Mem", labelW, "Mem/Real/%used", barW)
	room := w - width(sb.String()) - 2
	for _, t := range memTexts {
		if width(t) <= room {
			sb.WriteString("  " + m.st.Text.Muted.Render(t))
			break
		}
	}
	return ovLine{sb.String(), "Mem/Real/%used"}
}

// overviewSwap is the swap's line when the host says its size: a bar, or "none configured".
func (m *Model) overviewSwap(w, labelW, barW int) []ovLine {
	t := m.statText("Mem/Swap/total")
	if t == "" {
		return nil
	}
	muted := m.st.Text.Muted.Render
	var sb strings.Builder
	if v, _, _, _ := m.statValue("Mem/Swap/total"); v.State == namespace.Valid && v.N == 0 {
		sb.WriteString(m.st.Text.Bold.Render(pad("Swap", labelW)) + " " + muted("none configured"))
	} else {
		m.overviewBar(&sb, "Swap", labelW, "Mem/Swap/%used", barW)
		sb.WriteString("  " + muted(cut(m.statText("Mem/Swap/used")+" used of "+t, max(w-width(sb.String())-2, 0))))
	}
	return []ovLine{{sb.String(), "Mem/Swap/%used"}}
}

// overviewStalls is the pressure stalls' line (issue 19) when the host has them: the share of
// the last 10 s some task waited, per resource, warned from a tenth of the time.
func (m *Model) overviewStalls(labelW int) []ovLine {
	if m.statText("Pressure/cpu/some_avg10") == "" {
		return nil
	}
	var parts []string
	for _, r := range []string{"cpu", "memory", "io"} {
		txt := m.statText("Pressure/" + r + "/some_avg10")
		if v, _, _, _ := m.statValue("Pressure/" + r + "/some_avg10"); v.State == namespace.Valid && v.N >= 1000 {
			txt = m.st.Text.Warn.Render(txt) // a tenth of the time stalled or more
		}
		parts = append(parts, r+" "+txt)
	}
	return []ovLine{{m.st.Text.Bold.Render(pad("Stall", labelW)) + " " + strings.Join(parts, "  ") + m.st.Text.Muted.Render("  (some task waited, last 10 s)"), "Pressure/cpu/some_avg10"}}
}

// appendOverviewProcs appends the busiest processes to the head out, as htop's first rows (issue
// 32 item 1): a third of what is left, from 5 to 10 processes, and the height the hotsets and
// the events leave over goes to more processes.
func (m *Model) appendOverviewProcs(out []ovLine, w, h int) []ovLine {
	procH := min(max((h-len(out))/3, 5), 10)
	// The block's height first, without drawing it: it is drawn once, at its final height.
	n := m.overviewProcsHeight(w, procH)
	if n == 0 {
		return out
	}
	used := len(out) + n + 1 + len(m.overviewHotsets(w, h-len(out)-n-1))
	if n := len(m.overviewEvents(6)); n > 0 {
		used += n + 1
	}
	if spare := h - used; spare > 0 {
		procH += spare
	}
	out = append(out, m.overviewProcs(w, procH)...)
	return append(out, ovLine{})
}

// overviewLatestEvents are the latest events under their title when room (the lines left) is 3
// or more and there are any.
func (m *Model) overviewLatestEvents(w, room int) []ovLine {
	if room < 3 || m.events == nil || len(m.overviewEvents(room-1)) == 0 {
		return nil
	}
	out := []ovLine{{m.st.Text.Accent.Render("Latest events"), ""}}
	for _, e := range m.overviewEvents(room - 1) {
		text := e.Text
		if text == "" || e.Kind == namespace.EvInstanceAdded || e.Kind == namespace.EvInstanceRemoved {
			text = e.Path
		}
		out = append(out, ovLine{m.st.Text.Muted.Render(e.Time.In(m.evLoc()).Format("15:04:05")) + " " + pad(shortKind(e.Kind), 9) + " " + cut(safe(text), max(w-19, 0)), ""})
	}
	return out
}

// memTexts are the words beside the memory bar, longest first: the first that fits is shown, so
// a narrow screen drops the cache before it cuts the memory still available (issue 32 item 3).
func (m *Model) memTexts() []string {
	u := m.statText("Mem/Real/used")
	if u == "" {
		return nil
	}
	total, avail := m.statText("Mem/Real/total"), m.statText("Mem/Real/avail")
	return []string{
		u + " used of " + total + " · avail " + avail + " · cached " + m.statText("Mem/Real/cached"),
		u + " used of " + total + " · avail " + avail,
		"avail " + avail + " of " + total,
		"avail " + avail,
	}
}

// overviewEvents are the latest events worth the first screen, at most n: not the instances
// found at the first reading (every disk and interface is "added" at start-up), nor those of
// dcimon's own Monitor class (issue 32 item 1).
func (m *Model) overviewEvents(n int) []namespace.Event {
	var out []namespace.Event
	for _, e := range m.events.events {
		if len(out) == n {
			break
		}
		if e.Kind == namespace.EvInstanceAdded || e.Kind == namespace.EvInstanceRemoved {
			if strings.HasPrefix(e.Path, "Monitor/") || (e.Kind == namespace.EvInstanceAdded && !e.Time.After(m.firstAt)) {
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

func (m *Model) evLoc() *time.Location {
	if m.opts.Location != nil {
		return m.opts.Location
	}
	return time.Local
}

// overviewHotsets lays the open peer sets out in columns: a title, then the ranked peers with
// bars, as many as the height allows.
func (m *Model) overviewHotsets(w, h int) []ovLine {
	entries := m.hot.Entries()
	if len(entries) == 0 || h < 2 {
		return nil
	}
	n := 0
	for _, e := range entries {
		if !m.overviewSkipsHotset(e) {
			n++
		}
	}
	cols := max(min(n, w/38), 1)
	colW := min((w-(cols-1))/cols, 72)
	var blocks []ovHotBlock
	for _, e := range entries {
		if m.overviewSkipsHotset(e) {
			continue // every processor has its bar above, every process its line
		}
		blocks = append(blocks, m.overviewHotBlock(e, colW))
	}
	// Columns of blocks; a column takes the next block while the height allows.
	var out []ovLine
	for start := 0; start < len(blocks); start += cols {
		row := blocks[start:min(start+cols, len(blocks))]
		n := 0
		for _, b := range row {
			n = max(n, len(b.items)+1)
		}
		n = min(n, h-len(out))
		if n <= 0 {
			break
		}
		out = append(out, m.overviewHotRow(row, n, colW)...)
		if len(out) < h {
			out = append(out, ovLine{})
		}
	}
	return out
}

// overviewSkipsHotset says the overview shows a hotset's peers elsewhere: the processors when
// every one has its bar above, the processes when they have a block of their own.
func (m *Model) overviewSkipsHotset(e *namespace.HotVals) bool {
	return (e.Path() == "CPU" && m.ov.allCPUs) || (e.Path() == "Proc" && m.procClass() != nil)
}

// ovHotBlock is one hotset's block in the overview.
type ovHotBlock struct {
	e     *namespace.HotVals
	title string // without its count: the count is of the rows the height lets it show
	items []ovLine
}

// overviewHotBlock is a hotset's block colW wide: titled by the hotset's name and threshold, so
// two on one statistic are told apart (issue 42 item 3), a line per ranked peer.
func (m *Model) overviewHotBlock(e *namespace.HotVals, colW int) ovHotBlock {
	bl := ovHotBlock{e: e, title: m.hot.title(e)}
	d := e.Stat()
	// The value column is as wide as the block's widest value (issue 42 item 1), 10 at least
	// so blocks side by side line up.
	valW := 10
	texts := make([]string, len(e.Items))
	for i, it := range e.Items {
		if it.Inst != nil {
			texts[i] = m.vf.text(it.Inst.Class, d, it.Val)
			valW = max(valW, width(texts[i]))
		}
	}
	valW = min(valW, colW/3)
	for i, it := range e.Items {
		if it.Inst == nil {
			continue
		}
		bl.items = append(bl.items, m.overviewHotItem(e, i, texts[i], colW, valW))
	}
	return bl
}

// overviewHotItem is the line of a hotset's i-th peer: its rank, name, value and, with room, bar.
func (m *Model) overviewHotItem(e *namespace.HotVals, i int, txt string, colW, valW int) ovLine {
	it, d := e.Items[i], e.Stat()
	nameW := min(12, colW/3)
	if e.Fleet() {
		nameW = min(24, colW*2/5) // a host and its peer
	}
	bw := colW - 3 - nameW - valW - 2
	var sb strings.Builder
	m.st.Text.Muted.writePadLeft(&sb, strconv.Itoa(i+1), 2)
	sb.WriteByte(' ')
	m.st.Text.Normal.writePad(&sb, fitItemNameIn(it, e.Fleet(), nameW, compactItems(e.Items, e.Fleet(), nameW)), nameW)
	sb.WriteByte(' ')
	m.st.Text.Normal.writePadLeft(&sb, txt, valW)
	if bw >= 4 {
		r := hotRow{entry: e, set: e, item: i}
		if frac, over, ok := m.hot.itemBar(r, d, it); ok {
			sb.WriteByte(' ')
			writeBar(&sb, m.st, frac, over, bw)
		}
	}
	return ovLine{sb.String(), it.Inst.Context().Path() + "/" + d.Name}
}

// overviewHotHead is a block's title, colW wide, counting the rows it shows of the n lines it
// has, never more (issue 42 item 1: "top 4 of 4" over one row); the title gives way before the
// count: the count says what the rows are.
func (m *Model) overviewHotHead(b ovHotBlock, n, colW int) ovLine {
	count := ""
	switch e := b.e; {
	case e.Stat() == nil:
	case e.Count == 0 && (e.Err == namespace.SiNoValue || m.snap == nil || m.snap.Seq < 2):
		count = " — measuring…"
	default:
		count = " — top " + strconv.Itoa(min(e.Count, len(b.items), n-1)) + " of " + strconv.Itoa(e.AvailResp)
	}
	title := cut(b.title, max(colW-width(count), colW/2)) + count
	return ovLine{m.st.Text.Accent.Render(cut(title, colW)), b.e.Path()}
}

// overviewHotRow lays blocks side by side in n lines (n at least 1, the most any block has),
// each colW wide: their titles, then as many of their items as fit.
func (m *Model) overviewHotRow(blocks []ovHotBlock, n, colW int) []ovLine {
	cols := make([][]ovLine, len(blocks))
	for j, b := range blocks {
		cols[j] = append([]ovLine{m.overviewHotHead(b, n, colW)}, b.items[:min(len(b.items), n-1)]...)
	}
	return sideBySide(cols, colW)
}

// ovMargin is the overview's left margin, the cursor's column: its lines are w-ovMargin wide.
const ovMargin = 2

// overviewView is the overview body, exactly w×h, with the cursor's line marked.
func (m *Model) overviewView(w, h int) []string {
	lines := m.overviewLines(w-ovMargin, h)
	ov := m.ov
	ov.paths, ov.rows = ov.paths[:0], ov.rows[:0]
	for i, l := range lines {
		if l.path != "" && i < h {
			ov.paths = append(ov.paths, l.path)
			ov.rows = append(ov.rows, i)
		}
	}
	ov.cursor = clamp(ov.cursor, 0, max(len(ov.paths)-1, 0))
	out := make([]string, 0, h)
	for i := 0; i < h; i++ {
		text := ""
		if i < len(lines) {
			text = lines[i].text
		}
		mark := "  "
		if len(ov.rows) > 0 && ov.rows[ov.cursor] == i {
			mark = m.st.Text.Accent.Render("▸ ")
		}
		out = append(out, fitLine(mark+text, w))
	}
	return out
}
