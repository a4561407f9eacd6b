// The fleet overview's process block (issue 40 item 5): the busiest processes of the hosts in
// the hosts table's rows on screen ranked together, as on one host (overview_procs.go), each
// row led by its host's name.

package ui

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"dcimon/namespace"
	"dcimon/views"
)

// fleetProcHost is one host's process class, with the host's name and memory size path.
type fleetProcHost struct {
	pc   procCols
	name string // the host's context name, as paths name it
}

// fleetRanked is a process of the fleet's block: its host, its slot, the value it is ranked by.
type fleetRanked struct {
	host, slot int
	v          float64
}

// fleetProcClasses are the process classes of a fleet's hosts, one a host in the name space's
// order, looked up again only when the registry's generation moves.
func (m *Model) fleetProcClasses() []fleetProcHost {
	if m.reg == nil {
		return nil
	}
	if g := m.reg.Generation(); g == m.ov.fleetProcGen && m.ov.fleetProcs != nil {
		return m.ov.fleetProcs
	}
	m.ov.fleetProcGen = m.reg.Generation()
	hosts := map[uint32]string{}
	m.reg.Read(func() {
		for _, c := range m.reg.Top().Children() {
			if c.Class != nil && len(c.Class.ID) == 1 && !c.Deleted() {
				hosts[c.Class.ID[0]] = c.Name
			}
		}
	})
	out := []fleetProcHost{}
	seen := map[uint32]bool{}
	for _, c := range m.reg.OnDemand("*") {
		name, ok := hosts[c.ID[0]]
		if !ok || seen[c.ID[0]] || c.DatumByName("cpu") < 0 || c.DatumByName("user") < 0 {
			continue
		}
		seen[c.ID[0]] = true
		out = append(out, fleetProcHost{name: name, pc: procCols{c: c, user: c.DatumByName("user"), cpu: c.DatumByName("cpu"),
			rss: c.DatumByName("rss"), io: c.DatumByName("io_bytes"), utime: c.DatumByName("utime"), stime: c.DatumByName("stime"),
			cmd: c.DatumByName("command"), cmdline: c.DatumByName("cmdline")}})
	}
	m.ov.fleetProcs = out
	return out
}

// fleetTop ranks the valid values of the statistic stat of every host's processes, highest
// first, n at most: equal values rank by the host's name, then by PID, so the block reads the
// same whatever order the hosts answered in. It also says how many processes had a value, on
// how many hosts, and the first host's error when no host had any.
func (m *Model) fleetTop(hosts []fleetProcHost, stat string, n int) (top []fleetRanked, valid, on int, why string) {
	shown := m.procHosts()
	for h, fh := range hosts {
		if !shown[fh.name] {
			continue // its processes are not read (hostsContexts)
		}
		cv := m.snap.Class(fh.pc.c)
		di := fh.pc.c.DatumByName(stat)
		if cv == nil || di < 0 {
			continue
		}
		if cv.Err != nil && why == "" {
			why = fh.name + ": " + errText(cv)
		}
		var some []ranked
		some, k := topN(cv, di, n, m.ov.top[:0])
		m.ov.top = some[:0]
		valid += k
		if k > 0 {
			on++
		}
		for _, r := range some {
			top = append(top, fleetRanked{h, r.slot, r.v})
		}
	}
	slices.SortFunc(top, func(a, b fleetRanked) int {
		if c := cmp.Compare(b.v, a.v); c != 0 {
			return c
		}
		if c := strings.Compare(hosts[a.host].name, hosts[b.host].name); c != 0 {
			return c
		}
		ca, cb := m.snap.Class(hosts[a.host].pc.c), m.snap.Class(hosts[b.host].pc.c)
		return cmp.Compare(ca.Insts[a.slot].Context().Name, cb.Insts[b.slot].Context().Name)
	})
	return top[:min(len(top), n)], valid, on, why
}

// overviewFleetProcs is the process block of a fleet for a w×h area: the rankings of the
// single host's block (CPU, then memory and I/O as the width allows), across every host, each
// row led by its host's name; nil when no host has processes.
func (m *Model) overviewFleetProcs(w, h int) []ovLine {
	hosts := m.fleetProcClasses()
	if len(hosts) == 0 || h < 3 || m.snap == nil {
		return nil
	}
	hostW := 4
	for _, fh := range hosts {
		hostW = max(hostW, width(safe(fh.name)))
	}
	hostW = min(hostW, 16)
	nb := 1
	switch {
	case w >= 180+3*(hostW+1):
		nb = 3
	case w >= 116+2*(hostW+1):
		nb = 2
	}
	colW := (w - (nb - 1)) / nb
	rows := min(h-2, maxProcRows)
	var blocks [][]ovLine
	for _, b := range procBlocks[:nb] {
		top, valid, on, why := m.fleetTop(hosts, b.stat, rows)
		title := "Processes " + b.title + " of the fleet"
		switch {
		case len(top) > 0:
			title += " — top " + strconv.Itoa(len(top)) + " of " + strconv.Itoa(valid) + " on " + strconv.Itoa(on) + " of " + strconv.Itoa(min(len(hosts), len(m.procHosts()))) + " hosts"
		case why != "":
			title += " — " + why
		case m.snap.Seq < 2:
			title += " — measuring…"
		default:
			title += " — none to rank"
		}
		out := []ovLine{{m.st.Text.Accent.Render(cut(title, colW)), ""}}
		texts := m.ov.texts[:0]
		for _, r := range top {
			fh := hosts[r.host]
			di := fh.pc.c.DatumByName(b.stat)
			cv := m.snap.Class(fh.pc.c)
			t := procValueText(b, cv.At(r.slot, di), m.vf.measure(fh.pc.c, &fh.pc.c.Datums[di]))
			texts = append(texts, t)
			b.width = max(b.width, width(t))
		}
		m.ov.texts = texts[:0]
		restW := max(colW-hostW-1, 0)
		var sb strings.Builder
		writePad(&sb, "HOST", hostW)
		sb.WriteByte(' ')
		sb.WriteString(procHeader(b, true, restW))
		out = append(out, ovLine{m.st.Table.Header.Render(fitLine(sb.String(), colW)), ""})
		for i, r := range top {
			fh := hosts[r.host]
			di := fh.pc.c.DatumByName(b.stat)
			cv := m.snap.Class(fh.pc.c)
			memTotal := 0.0
			if v, _, _, ok := m.statValue(fh.name + "/Mem/Real/total"); ok && v.State == namespace.Valid {
				memTotal = v.V
			}
			ms := m.vf.measure(fh.pc.c, &fh.pc.c.Datums[di])
			var line strings.Builder
			m.st.Text.Muted.writePad(&line, views.HostName(fh.name, hostW), hostW)
			line.WriteByte(' ')
			line.WriteString(m.procRow(cv, &fh.pc, b, di, ms, r.slot, memTotal, restW, texts[i]))
			out = append(out, ovLine{line.String(), cv.Insts[r.slot].Context().Path() + "/" + b.stat})
		}
		blocks = append(blocks, out)
	}
	return sideBySide(blocks, colW)
}
