// The values pane's instance table: one row per instance subcontext, one column per statistic,
// laid out and sorted like the command-line tools an administrator knows (iostat -x, ifstat).

package ui

import (
	"dcimon/namespace"
)

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

// calcCell is a computed column's cell (%MEM, TIME+): a valid value only where every value it
// is computed from is valid, else the first missing one's state and reason.
func (p *valuesPane) calcCell(r *tableRow, c *tableCol) (namespace.Value, bool) {
	if r.totals || r.inst == nil || r.class != p.class {
		return namespace.Value{}, false
	}
	cv := p.snap.Class(p.class)
	v, ok := cv.Value(r.inst, c.di)
	if !ok {
		return v, false
	}
	switch c.calc {
	case calcMem:
		if v.State != namespace.Valid {
			return v, true
		}
		if p.memTotal <= 0 {
			return namespace.Value{State: namespace.Unavailable, Reason: namespace.ReasonNotSupported}, true
		}
		return namespace.Value{V: 100 * v.V / p.memTotal}, true
	case calcTime:
		si := p.class.DatumByName("stime")
		s, _ := cv.Value(r.inst, si)
		for _, x := range []namespace.Value{v, s} {
			if si < 0 || x.State == namespace.Unavailable || x.State == namespace.Invalid {
				return x, true
			}
		}
		// A counter's cumulative reading is N whether or not it has a rate yet.
		return namespace.Value{V: float64(v.N + s.N)}, true
	}
	return namespace.Value{}, false
}

// key names the column in a gone row's final values: the header and the datum, since two
// columns can show one datum (RES and %MEM) and two datums can go by one header.
func (c *tableCol) key() string { return c.header + "\x00" + c.name }

// title is the column's header.
func (c *tableCol) title() string { return c.header }

func (p *valuesPane) cell(r *tableRow, c *tableCol) (namespace.Value, bool) {
	if r.gone {
		v, ok := r.last[c.key()]
		return v, ok
	}
	if c.calc != calcNone {
		return p.calcCell(r, c)
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
