package ui

import (
	"strconv"
	"strings"
	"time"

	"dcimon/namespace"
)

// segment is one part of the status bar. When the bar is too narrow for all of them, the ones
// with the lowest rank give way first (the later of equals first), so a warning is never the
// part that is cut off at 80 columns.
type segment struct {
	text  string
	style ink
	rank  int
}

// Status bar ranks, from the first to give way to the last.
const (
	rankSelf    = iota // dcimon's own cost
	rankRoutine        // providers ok, the interval
	rankHost           // which machine this is
	rankState          // the sample time, live or paused
	rankWarning        // degraded providers, slow ticks
)

// statusLine is the bar under the panes: host, time of the last sample, interval, paused or
// live, providers ok and degraded, and dcimon's own CPU and memory when the name space has a
// Monitor context (nothing is shown otherwise: no invented numbers). Messages have the line
// below it (bottomLine).
// slowSample reports whether a collection took more than a quarter of the interval or more than
// a second (DCI-RET-2, AMB-31: the documents leave "close enough" to the consumer).
func slowSample(took, interval time.Duration) bool {
	return interval > 0 && took > interval/4 || took > time.Second
}

func (m *Model) statusLine() string {
	st := m.st.Status
	segs := make([]segment, 0, 10)
	switch {
	case m.hosts > 1:
		// A fleet: how many of its hosts answer (issue 14); which ones is under Monitor.
		hs := st.Host
		if m.hostsOK < m.hosts {
			hs = st.Warn
		}
		segs = append(segs, segment{strconv.Itoa(m.hostsOK) + " of " + strconv.Itoa(m.hosts) + " hosts answer", hs, rankHost})
	case m.host != "":
		segs = append(segs, segment{m.host, st.Host, rankHost})
	}
	if m.rp != nil {
		segs = append(segs, m.replaySegments()...)
	} else if m.snap != nil {
		t := m.snap.End
		if t.IsZero() {
			t = m.snap.Start
		}
		loc := m.opts.Location
		if loc == nil {
			loc = t.Location()
		}
		segs = append(segs, segment{"sample " + t.In(loc).Format("15:04:05"), st.Value, rankState})
		// DCI-RET-2: a collection whose start and end are far apart read its classes at
		// different moments; over a quarter of the interval it is flagged with its duration.
		if took := m.snap.End.Sub(m.snap.Start); slowSample(took, m.interval) {
			segs = append(segs, segment{"slow: took " + took.Round(time.Millisecond).String() + " (" +
				strconv.Itoa(int(100*took/m.interval)) + "% of the interval)", st.Warn, rankWarning})
		}
	} else {
		segs = append(segs, segment{"waiting for the first sample", st.Key, rankState})
	}
	if m.rp == nil {
		segs = append(segs, segment{"every " + m.interval.String(), st.Value, rankRoutine})
		if m.paused {
			segs = append(segs, segment{"⏸ paused", st.Paused, rankState})
		} else {
			segs = append(segs, segment{"▶ live", st.OK, rankState})
		}
	}
	if m.snap != nil {
		segs = append(segs, segment{"providers " + strconv.Itoa(m.okN) + " ok", st.OK, rankRoutine})
		if m.badN > 0 {
			segs = append(segs, segment{strconv.Itoa(m.badN) + " degraded", st.Warn, rankWarning})
		}
	}
	if cpu, mem := m.selfUsage(); cpu != "" || mem != "" {
		var parts []string
		if cpu != "" {
			parts = append(parts, "cpu "+cpu)
		}
		if mem != "" {
			parts = append(parts, "mem "+mem)
		}
		segs = append(segs, segment{"dcimon " + strings.Join(parts, " "), st.Value, rankSelf})
	}
	if m.skipped > 0 {
		segs = append(segs, segment{strconv.Itoa(m.skipped) + " slow ticks", st.Warn, rankWarning})
	}
	segs = fitSegments(segs, m.w-1)
	var sb strings.Builder
	sep := m.st.Help.Sep.Render(" │ ")
	used := 0
	for i, s := range segs {
		if i > 0 {
			sb.WriteString(sep)
			used += 3
		}
		// Only a lone segment can still be too long: it is cut.
		sb.WriteString(s.style.Render(cut(s.text, max(m.w-1-used, 0))))
		used += width(s.text)
	}
	return fitLine(" "+sb.String(), m.w)
}

// replaySegments are a replay's part of the status bar: the time cursor (the sample shown, with
// its date), playing or paused and at which speed, and where the cursor is in the archive.
func (m *Model) replaySegments() []segment {
	st, rs := m.st.Status, m.rp
	loc := m.opts.Location
	segs := []segment{{"REPLAY", st.Warn, rankState}}
	if m.snap != nil {
		segs = append(segs, segment{"@ " + rs.r.Now().In(loc).Format("2006-01-02 15:04:05"), st.Value, rankState})
	} else {
		segs = append(segs, segment{"reading the archive", st.Key, rankState})
	}
	if m.paused {
		segs = append(segs, segment{"⏸ paused", st.Paused, rankState})
	} else {
		segs = append(segs, segment{"▶ ×" + strconv.Itoa(rs.speed), st.OK, rankState})
	}
	if total := rs.spanLast.Sub(rs.spanFirst); total > 0 && m.snap != nil {
		pct := int(100 * rs.r.Now().Sub(rs.spanFirst) / total)
		segs = append(segs, segment{strconv.Itoa(max(0, min(pct, 100))) + "% of " + total.Round(time.Second).String(), st.Value, rankRoutine})
	}
	return segs
}

// fitSegments drops the lowest-ranked segments (the later of equals first) until the rest fit
// in w cells with their " │ " separators; the survivors keep their order.
func fitSegments(segs []segment, w int) []segment {
	total := func() int {
		n := 0
		for i, s := range segs {
			if i > 0 {
				n += 3
			}
			n += width(s.text)
		}
		return n
	}
	for len(segs) > 1 && total() > w {
		drop := len(segs) - 1
		for i := len(segs) - 1; i >= 0; i-- {
			if segs[i].rank < segs[drop].rank {
				drop = i
			}
		}
		segs = append(segs[:drop], segs[drop+1:]...)
	}
	return segs
}

// selfUsage is dcimon's own CPU and memory from the Monitor context, when it exists and has
// valid values; "" otherwise.
func (m *Model) selfUsage() (cpu, mem string) {
	if m.snap == nil || m.self.ctx == nil {
		return "", ""
	}
	pick := func(d *namespace.Datum) string {
		if d == nil {
			return ""
		}
		v, _, ok := m.snap.Lookup(namespace.Ref{Ctx: m.self.ctx, Datum: d})
		if !ok || v.State != namespace.Valid {
			return ""
		}
		return m.vf.text(m.self.ctx.Stats, d, v)
	}
	return pick(m.self.cpu), pick(m.self.mem)
}

// selfRefs are the Monitor context's statistics the status bar shows, looked up when the name
// space changes rather than at every frame.
type selfRefs struct {
	gen      uint64
	looked   bool
	ctx      *namespace.Context
	cpu, mem *namespace.Datum
}

// findSelf looks the Monitor context's CPU and memory statistics up again when the name space
// changed.
func (m *Model) findSelf() {
	gen := m.reg.Generation()
	if m.self.looked && m.self.gen == gen {
		return
	}
	m.self = selfRefs{gen: gen, looked: true}
	ref, err := m.reg.Lookup(nil, "Monitor")
	if err != nil || ref.Ctx.Stats == nil {
		return
	}
	c := ref.Ctx.Stats
	pick := func(names ...string) *namespace.Datum {
		for _, n := range names {
			if i := c.DatumByName(n); i >= 0 {
				return &c.Datums[i]
			}
		}
		return nil
	}
	m.self = selfRefs{gen: gen, looked: true, ctx: ref.Ctx, cpu: pick("%cpu", "cpu%", "%busy", "cpu"), mem: pick("rss", "mem", "rss_bytes")}
}

// setFlash shows s on the status line for a while: five seconds, or three intervals when longer.
func (m *Model) setFlash(s string, isErr bool) {
	m.flash, m.flashErr = s, isErr
	m.flashUntil = m.now().Add(max(5*time.Second, 3*m.interval))
}

// statusState is what the status line says of the collections: a message shown for a while
// (flash), the last collection's error and how long it took, the classes' health and how many
// are well, how many remote hosts answered (a PCP source of several hosts, issue 14), and
// dcimon's own process.
type statusState struct {
	flash      string
	flashErr   bool
	flashUntil time.Time

	lastErr   error
	took      time.Duration
	health    healthMap
	okN, badN int
	// hostsOK of hosts remote hosts answered.
	hostsOK, hosts int
	self           selfRefs
}
