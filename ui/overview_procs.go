// The overview's process block: the busiest processes as htop's first rows name them (issue 32
// item 1): PID, user, %CPU, %MEM, TIME+ and the command line, and beside them, where the width
// allows, the largest by memory and the busiest by I/O.

package ui

import (
	"strconv"
	"strings"

	"dcimon/namespace"
	"dcimon/views"
)

// procBlock is one ranking of the process block: the statistic the processes are ranked by and
// the column it is shown in.
type procBlock struct {
	title string // "by CPU"
	stat  string // the datum ranked by
	head  string // its column's header
	width int    // its column's width
}

var procBlocks = [...]procBlock{
	{"by CPU", "cpu", "%CPU", 5},
	{"by memory", "rss", "RES", 6},
	{"by I/O", "io_bytes", "DISK R/W", 9}, // htop's name of the column: bytes read and written a second
}

// procCols are the data of the process class the block reads, by datum index; -1 where the
// class has no such datum.
type procCols struct {
	c                                              *namespace.Class
	user, cpu, rss, io, utime, stime, cmd, cmdline int
}

// procClass finds the class of one process (the on-demand class under Proc with a cpu and a
// user), nil when the name space has none. It is looked up again only when the registry's
// generation moves.
func (m *Model) procClass() *procCols {
	if m.reg == nil {
		return nil
	}
	if g := m.reg.Generation(); g != m.ov.procGen || m.ov.procs == nil {
		m.ov.procGen, m.ov.procs = g, &procCols{}
		for _, c := range m.reg.OnDemand("Proc") {
			if c.DatumByName("cpu") >= 0 && c.DatumByName("user") >= 0 {
				m.ov.procs = &procCols{c: c, user: c.DatumByName("user"), cpu: c.DatumByName("cpu"), rss: c.DatumByName("rss"),
					io: c.DatumByName("io_bytes"), utime: c.DatumByName("utime"), stime: c.DatumByName("stime"),
					cmd: c.DatumByName("command"), cmdline: c.DatumByName("cmdline")}
				break
			}
		}
	}
	if m.ov.procs.c == nil {
		return nil
	}
	return m.ov.procs
}

// ranked is a process of the block and the value it is ranked by.
type ranked struct {
	slot int
	v    float64
}

// topN keeps the n highest valid values of datum di in cv, highest first, in dst; it returns
// them and how many processes had a valid value. One pass, no sort of the whole table: a host
// has thousands of processes and the block shows a handful.
func topN(cv *namespace.ClassValues, di, n int, dst []ranked) ([]ranked, int) {
	dst = dst[:0]
	valid := 0
	for slot, in := range cv.Insts {
		if in == nil || di < 0 {
			continue
		}
		x, ok := cv.ValidAt(slot, di)
		if !ok {
			continue
		}
		valid++
		if len(dst) == n && x <= dst[n-1].v {
			continue
		}
		if len(dst) < n {
			dst = append(dst, ranked{})
		}
		i := len(dst) - 1
		for ; i > 0 && dst[i-1].v < x; i-- {
			dst[i] = dst[i-1]
		}
		dst[i] = ranked{slot, x}
	}
	return dst, valid
}

// maxProcRows is the most processes a ranking of the overview lists; the process table (P) has
// them all. The overview gives the blocks the height the hotsets and events leave (issue 42
// item 1: at 200×60, 27 rows stayed empty under blocks stopped at 15).
const maxProcRows = 40

// overviewProcs is the process block for a w×h area: up to three rankings side by side (CPU,
// then memory and I/O as the width allows), each a title, a header and up to maxProcRows
// processes; nil when the source has no processes.
func (m *Model) overviewProcs(w, h int) []ovLine {
	if m.fleetOnly() {
		return m.overviewFleetProcs(w, h) // every host's together (issue 40 item 5)
	}
	pc := m.procClass()
	if pc == nil || h < 3 || m.snap == nil {
		return nil
	}
	cv := m.snap.Class(pc.c)
	nb := procBlockCount(w)
	colW := (w - (nb - 1)) / nb
	rows := min(h-2, maxProcRows)
	memTotal := 0.0
	if v, _, _, ok := m.statValue("Mem/Real/total"); ok && v.State == namespace.Valid {
		memTotal = v.V
	}
	var blocks [][]ovLine
	m.ov.rowMemo.begin()
	for bi, b := range procBlocks[:nb] {
		di := pc.c.DatumByName(b.stat)
		if di < 0 {
			continue
		}
		var top []ranked
		valid := 0
		if cv != nil {
			top, valid = topN(cv, di, rows, m.ov.top[:0])
			m.ov.top = top[:0]
		}
		title := "Processes " + b.title + m.procRankCount(cv, len(top), valid)
		out := []ovLine{{m.st.Text.Accent.Render(cut(title, colW)), "Proc"}}
		ms := m.vf.measure(pc.c, &pc.c.Datums[di]) // once a block, not a row
		// The ranked column is as wide as its widest value or its header (issue 42 item 1:
		// "72.4 MiB…" was cut).
		texts := m.ov.texts[:0]
		for _, r := range top {
			t := procValueText(b, cv.At(r.slot, di), ms)
			texts = append(texts, t)
			b.width = max(b.width, width(t))
		}
		m.ov.texts = texts[:0]
		out = append(out, ovLine{m.st.Table.Header.Render(fitLine(procHeader(b, memTotal > 0, colW), colW)), "Proc"})
		for i, r := range top {
			out = append(out, m.ov.rowMemo.line(m, cv, pc, bi, b, di, ms, r.slot, memTotal, colW, texts[i]))
		}
		blocks = append(blocks, out)
	}
	return sideBySide(blocks, colW)
}

// overviewProcsHeight is how many lines overviewProcs(w, h) gives, without making them on one
// host: a title and a header a ranking, and as many processes as the longest ranking has.
func (m *Model) overviewProcsHeight(w, h int) int {
	if m.fleetOnly() {
		// Every host's processes ranked together: their height is the block's, drawn to learn it.
		return len(m.overviewFleetProcs(w, h))
	}
	pc := m.procClass()
	if pc == nil || h < 3 || m.snap == nil {
		return 0
	}
	cv := m.snap.Class(pc.c)
	nb := procBlockCount(w)
	rows := min(h-2, maxProcRows)
	n := 0
	for _, b := range procBlocks[:nb] {
		di := pc.c.DatumByName(b.stat)
		if di < 0 {
			continue
		}
		shown := 0
		if cv != nil {
			shown = min(validCount(cv, di), rows)
		}
		n = max(n, 2+shown)
	}
	return n
}

// validCount is how many processes of cv have a valid value of datum di.
func validCount(cv *namespace.ClassValues, di int) int {
	n := 0
	for slot, in := range cv.Insts {
		if _, ok := cv.ValidAt(slot, di); in != nil && ok {
			n++
		}
	}
	return n
}

// procBlockCount is how many rankings of procBlocks the block shows side by side in w cells.
func procBlockCount(w int) int {
	switch {
	case w >= 180:
		return 3
	case w >= 116:
		return 2
	}
	return 1
}

// procRankCount is what a ranking's title says of its shown rows of the valid ones: still
// measuring before a sampled second snapshot, none to rank, or top shown of valid.
func (m *Model) procRankCount(cv *namespace.ClassValues, shown, valid int) string {
	switch {
	case shown == 0 && cv != nil && cv.Err != nil:
		// Why there are none: the class's error (a host whose proc PMDA denies access, issue
		// 40 item 5), never "none to rank".
		return " — " + errText(cv)
	case shown == 0 && (m.snap.Seq < 2 || cv == nil || !cv.Sampled):
		return " — measuring…"
	case shown == 0:
		return " — none to rank"
	}
	return " — top " + strconv.Itoa(shown) + " of " + strconv.Itoa(valid)
}

// sideBySide lays blocks of lines side by side, each colW wide and a space apart, as many lines
// as the longest; a line's path is that of its first block with a line there.
func sideBySide(blocks [][]ovLine, colW int) []ovLine {
	var out []ovLine
	n := 0
	for _, b := range blocks {
		n = max(n, len(b))
	}
	for i := range n {
		var sb strings.Builder
		path := ""
		for j, b := range blocks {
			if j > 0 {
				sb.WriteByte(' ')
			}
			cell := ""
			if i < len(b) {
				cell = b[i].text
				if path == "" {
					path = b[i].path
				}
			}
			sb.WriteString(fitLine(cell, colW))
		}
		out = append(out, ovLine{sb.String(), path})
	}
	return out
}

// procHeader is a block's column header, as htop's: PID USER, the ranked column, %MEM and TIME+
// where they fit, and COMMAND.
func procHeader(b procBlock, mem bool, w int) string {
	var sb strings.Builder
	writePadLeft(&sb, "PID", 7)
	sb.WriteString(" USER     ")
	writePadLeft(&sb, b.head, b.width)
	if mem && b.stat != "io_bytes" {
		sb.WriteString(" %MEM")
	}
	if b.stat == "cpu" && w >= 60 {
		sb.WriteString("     TIME+")
	}
	sb.WriteString(" COMMAND")
	return sb.String()
}

// procRow is one process of a block, in procHeader's columns; the command line takes the rest of
// the width.
func (m *Model) procRow(cv *namespace.ClassValues, pc *procCols, b procBlock, di int, ms views.Measure, slot int, memTotal float64, w int, txt string) string {
	get := func(i int) namespace.Value {
		if i < 0 {
			return namespace.Value{State: namespace.Unavailable, Reason: namespace.ReasonNotSupported}
		}
		return cv.At(slot, i)
	}
	var sb strings.Builder
	m.st.Text.Normal.writePadLeft(&sb, cv.Insts[slot].Context().Name, 7)
	sb.WriteByte(' ')
	m.st.Text.Muted.writePad(&sb, cut(safe(get(pc.user).S), 8), 8)
	sb.WriteByte(' ')
	v := cv.At(slot, di)
	ink := m.st.Text.Normal
	if b.stat == "cpu" && ms.Base(v.V) >= procBusyAt {
		ink = m.st.Text.Warn
	}
	ink.writePadLeft(&sb, txt, b.width)
	if memTotal > 0 && b.stat != "io_bytes" {
		mem := "n/a"
		if r := get(pc.rss); r.State == namespace.Valid {
			mem = strconv.FormatFloat(100*r.V/memTotal, 'f', 1, 64)
		}
		sb.WriteByte(' ')
		m.st.Text.Normal.writePadLeft(&sb, mem, 4)
	}
	if b.stat == "cpu" && w >= 60 {
		t := "n/a"
		if u, s := get(pc.utime), get(pc.stime); u.State != namespace.Unavailable && s.State != namespace.Unavailable && pc.utime >= 0 && pc.stime >= 0 {
			t = timePlus(u.N + s.N)
		}
		sb.WriteByte(' ')
		m.st.Text.Normal.writePadLeft(&sb, t, 9)
	}
	sb.WriteByte(' ')
	cmd := get(pc.cmdline).S
	if cmd == "" {
		cmd = get(pc.cmd).S
	}
	sb.WriteString(cut(htopCommand(cmd), max(w-width(sb.String()), 0)))
	return sb.String()
}

// procValueText is a process's value in the ranked column of block b: %CPU with one decimal,
// RES as htop's (htopBytes), and the I/O rate as htop's DISK R/W column (`72.38 M/s`).
func procValueText(b procBlock, v namespace.Value, ms views.Measure) string {
	if v.State != namespace.Valid {
		return views.Mark(v)
	}
	switch b.stat {
	case "cpu":
		return strconv.FormatFloat(ms.Base(v.V), 'f', 1, 64)
	case "rss":
		return string(htopBytes(nil, v.V))
	}
	return htopRate(ms.Base(v.V))
}

// timePlus is a processor time in milliseconds as htop's TIME+ prints it: minutes, seconds and
// hundredths under an hour (`12:05.31`), hours, minutes and seconds under a hundred hours
// (`5h07:12`), then days and hours (`13d04h`).
func timePlus(ms uint64) string {
	hs := ms / 10
	s := hs / 100
	switch {
	case s < 3600:
		return strconv.FormatUint(s/60, 10) + ":" + two(s%60) + "." + two(hs%100)
	case s < 100*3600:
		return strconv.FormatUint(s/3600, 10) + "h" + two(s/60%60) + ":" + two(s%60)
	}
	return strconv.FormatUint(s/86400, 10) + "d" + two(s/3600%24) + "h"
}

func two(n uint64) string {
	if n < 10 {
		return "0" + strconv.FormatUint(n, 10)
	}
	return strconv.FormatUint(n, 10)
}
