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

// title is the column's header.
func (c *tableCol) title() string { return c.header }

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
