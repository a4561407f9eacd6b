package pcp

import (
	"fmt"
	"slices"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
	"dcimon/pcpwire"
	"dcimon/pmproxy"
)

// A remote host's processes come from PCP's proc PMDA (schema.procPMDA): the reading path is
// every class's, with two things of their own, here: an instance's second level (its start
// time), and a class the PMDA will not serve said as such, never as a host with no processes
// (issue 40 item 5).

// noInstances is the reading of a class of instances that has none to read, and true: the host
// (or its archive: pmlogger logs what its configuration names) has none of its metrics, which is
// no fault of the host's; or, for a class that says what its PMDA needs (PMDAClass.Denied), a
// live host whose PMDA gave no values of its instance metric, with why.
func (h *pcpHost) noInstances(pc pcpClass, present []string, f *pmproxy.Fetched) (collect.ClassReading, bool) {
	if len(present) == 0 && h.descs != nil {
		return collect.ClassReading{Class: pc.Class, Specs: []ns.InstanceSpec{}}, true
	}
	if pc.Denied == "" || len(present) == 0 || len(f.Get(present[0])) > 0 {
		return collect.ClassReading{}, false
	}
	if h.recorded {
		return collect.ClassReading{}, false // a record that has none of them: as it was logged
	}
	why := "no values"
	if code, ok := f.Errs[present[0]]; ok {
		why = pcpwire.Code(code).Error()
	}
	// Not the last reading's instances in error (keepInError): the processes of a host change,
	// and a permission lost is not a reading that failed once. Why comes first: a line cut to a
	// narrow column still says it.
	return collect.ClassReading{Class: pc.Class, Specs: []ns.InstanceSpec{},
		Err: fmt.Errorf("%s: %s (%s on %s); %s", h.sup.Module, why, present[0], h.opt.Hostspec, pc.Denied)}, true
}

// startLevels gives each instance of a class with a start metric its second level, the
// metric's value for it (0 where it has none), and its label, the command name; and clips its
// description (the PMDA's instance name holds the whole command line).
func (h *pcpHost) startLevels(pc pcpClass, specs []ns.InstanceSpec, ids []int64, f *pmproxy.Fetched) {
	if pc.StartMetric == "" {
		return
	}
	for i := range specs {
		var start uint64
		if v, ok := f.Lookup(pc.StartMetric, ids[i]); ok {
			start, _ = v.Uint64()
		}
		sp := &specs[i]
		sp.Levels = []uint64{sp.Levels[0], start}
		sp.Desc = ns.Clip(sp.Desc, ns.SiMaxLName-1)
		if v, ok := f.Lookup(schema.ProcCommandMetric, ids[i]); ok {
			sp.Label = ns.EscapeName(v.Text)
		}
	}
}

// colRaw is one value of a column in the datum's unit (pcpRaw); a process's text is kept as
// the local Proc class keeps it, to schema.MaxCmdline bytes (a command line, its control groups).
func colRaw(c *pcpCol, val pmproxy.Value) ns.Raw {
	if c.long && c.typ == "string" {
		return ns.RawS(ns.Clip(val.Text, schema.MaxCmdline))
	}
	return pcpRaw(val, c.typ, c.mult)
}

// holder is a recorded host's source (an archive, a host's series) that says which metrics
// it holds: pmlogger logs what its configuration names.
type holder interface{ holds(name string) bool }

// holds says the archive logged the metric.
func (x *archiveContext) holds(name string) bool { return x.byName[name] != nil }

// holds says the host's series hold the metric (the mapping's metrics are resolved when the
// series are opened, so this reads what is there).
func (x *seriesContext) holds(name string) bool {
	if !x.s.known[name] {
		return false
	}
	x.s.mu.Lock()
	m := x.s.metrics[name]
	x.s.mu.Unlock()
	if m == nil {
		return false
	}
	_, ok := m.desc[x.i]
	return ok
}

// liveOnlyOut leaves out of an archive's or a series' host the classes read from a live pmcd
// unless recorded (schema.PMDAClass.LiveOnly: the processes), with the classes above them, and
// the metrics they alone read: a class is kept where its source holds any of its metrics (an
// archive that logged proc.*, series loaded from one, issue 40 item 5), so a replay's overview
// never shows a process table that waits forever for metrics never recorded.
func liveOnlyOut(decl []*ns.Class, classes []pcpClass, names []string, src holder) ([]*ns.Class, []pcpClass, []string) {
	var out []ns.ClassID
	for _, pc := range classes {
		if pc.LiveOnly && !holdsAny(src, pc) {
			out = append(out, pc.Class.ID)
		}
	}
	if len(out) == 0 {
		return decl, classes, names
	}
	gone := func(c *ns.Class) bool {
		for _, id := range out {
			if len(c.ID) <= len(id) && slices.Equal(c.ID, id[:len(c.ID)]) {
				return true // the class or one above it
			}
		}
		return false
	}
	decl = slices.DeleteFunc(slices.Clone(decl), gone)
	classes = slices.DeleteFunc(slices.Clone(classes), func(pc pcpClass) bool { return gone(pc.Class) })
	return decl, classes, metricsOf(classes, func(int) bool { return true })
}

// holdsAny says src holds any metric of the class (a nil src none).
func holdsAny(src holder, pc pcpClass) bool {
	if src == nil {
		return false
	}
	for _, n := range metricsOf([]pcpClass{pc}, func(int) bool { return true }) {
		if src.holds(n) {
			return true
		}
	}
	return false
}
