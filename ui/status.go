package ui

import (
	"strconv"
	"strings"

	"dcimon/namespace"
)

// segment is one part of the status bar.
type segment struct {
	text  string
	style ink
}

// statusLine is the bar under the panes: host, time of the last sample, interval, paused or
// live, providers ok and degraded, dcimon's own CPU and memory when the name space has a Monitor
// context (nothing is shown otherwise: no invented numbers), and the latest message.
func (m *Model) statusLine() string {
	st := m.st.Status
	segs := make([]segment, 0, 10)
	if m.host != "" {
		segs = append(segs, segment{m.host, st.Host})
	}
	if m.snap != nil {
		t := m.snap.End
		if t.IsZero() {
			t = m.snap.Start
		}
		loc := m.opts.Location
		if loc == nil {
			loc = t.Location()
		}
		segs = append(segs, segment{"sample " + t.In(loc).Format("15:04:05"), st.Value})
	} else {
		segs = append(segs, segment{"waiting for the first sample", st.Key})
	}
	segs = append(segs, segment{"every " + m.interval.String(), st.Value})
	if m.paused {
		segs = append(segs, segment{"⏸ paused", st.Paused})
	} else {
		segs = append(segs, segment{"▶ live", st.OK})
	}
	if m.snap != nil {
		segs = append(segs, segment{"providers " + strconv.Itoa(m.okN) + " ok", st.OK})
		if m.badN > 0 {
			segs = append(segs, segment{strconv.Itoa(m.badN) + " degraded", st.Warn})
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
		segs = append(segs, segment{"dcimon " + strings.Join(parts, " "), st.Value})
	}
	if m.skipped > 0 {
		segs = append(segs, segment{strconv.Itoa(m.skipped) + " slow ticks", st.Warn})
	}
	if m.flash != "" {
		fs := st.Value
		if m.flashErr {
			fs = st.Crit
		}
		segs = append(segs, segment{safe(m.flash), fs})
	}
	var sb strings.Builder
	used := 0
	sep := m.st.Help.Sep.Render(" │ ")
	for i, s := range segs {
		w := width(s.text)
		extra := 0
		if i > 0 {
			extra = 3
		}
		if used+extra+w > m.w-1 {
			if room := m.w - 1 - used - extra; room > 4 {
				if i > 0 {
					sb.WriteString(sep)
				}
				sb.WriteString(s.style.Render(cut(s.text, room)))
			}
			break
		}
		if i > 0 {
			sb.WriteString(sep)
		}
		sb.WriteString(s.style.Render(s.text))
		used += extra + w
	}
	return fitLine(" "+sb.String(), m.w)
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
