package pcp

import (
	"cmp"
	"context"
	"slices"

	"dcimon/collect/schema"
	ns "dcimon/namespace"
	"dcimon/pmproxy"
)

// presentMetrics are the metrics of a class the host has: the class's instances are those of any
// of them (an archive of a pmlogger configuration that logs disk.dev.write and not disk.dev.read
// has its disks), named by the domain they share. They are worked out once per set of descriptors.
func (h *pcpHost) presentMetrics(pc pcpClass, bf *pcpBufs) []string {
	if bf.presentOf == h.descsGen {
		return bf.present
	}
	bf.present, bf.presentOf = bf.present[:0], h.descsGen
	for _, b := range pc.Datums {
		if _, ok := h.descs[b.Metric]; ok && !slices.Contains(bf.present, b.Metric) {
			bf.present = append(bf.present, b.Metric)
		}
	}
	return bf.present
}

// nameMetric is the metric that names a class's instances (a file system's mount point), or ""
// when the class has none or the host has not that metric: then they keep their PCP names.
func (h *pcpHost) nameMetric(pc pcpClass) string {
	if _, ok := h.descs[pc.NameMetric]; !ok && h.descs != nil {
		return ""
	}
	return pc.NameMetric
}

// parentsNow are the parents of a class's instances the fetch has (a partition's disks), by
// name, or nil for a class without parents.
func (h *pcpHost) parentsNow(ctx context.Context, pc pcpClass, bf *pcpBufs, present []string, f *pmproxy.Fetched) (map[string]int64, error) {
	pm := h.parentMetric(pc, present)
	if pm == "" {
		return nil, nil
	}
	pn, err := h.instanceNames(ctx, pm, f)
	if err != nil {
		return nil, err
	}
	if bf.parents == nil {
		bf.parents = make(map[string]int64, len(pn))
	}
	clear(bf.parents)
	for _, v := range f.Get(pm) {
		bf.parents[pn[v.Instance]] = v.Instance
	}
	return bf.parents, nil
}

// specMaker makes the specs of one reading of a class's instances: what it needs to decide
// each instance's spec.
type specMaker struct {
	h          *pcpHost
	pc         pcpClass
	bf         *pcpBufs
	f          *pmproxy.Fetched
	names      map[int64]string // the instances' PCP names, by instance number
	parents    map[string]int64 // the parents the fetch has, by name (nil: no parents)
	nameMetric string           // the metric that names the instances, or "" (nameMetric)
}

// instances are the specs of the instances the present metrics have in the fetch, each once
// (in the first metric's order, then the others' new ones), with their instance numbers and
// their places in the first metric's values (-1: not known).
func (s *specMaker) instances(present []string) (specs []ns.InstanceSpec, ids []int64, poss []int) {
	specs, ids, poss = s.bf.specs[:0], s.bf.ids[:0], s.bf.poss[:0]
	var seen map[int64]bool
	for mi, m := range present {
		if mi == 1 {
			seen = s.bf.seenOf(ids)
		}
		for k, v := range s.f.Get(m) {
			if seen != nil {
				if seen[v.Instance] {
					continue
				}
				seen[v.Instance] = true
				k = -1 // its place in the first metric's values is not known
			}
			sp, ok := s.spec(v.Instance)
			if !ok {
				continue
			}
			ids, poss = append(ids, v.Instance), append(poss, k)
			specs = append(specs, sp)
		}
	}
	return specs, ids, poss
}

// seenOf is the set of the instances ids, in the buffers' map kept for it.
func (bf *pcpBufs) seenOf(ids []int64) map[int64]bool {
	if bf.seen == nil {
		bf.seen = make(map[int64]bool, len(ids))
	}
	clear(bf.seen)
	for _, id := range ids {
		bf.seen[id] = true
	}
	return bf.seen
}

// spec is an instance's spec, and false for one not shown: unnamed, not of the class, hidden,
// not named by the name metric, or a child whose parent is not there.
func (s *specMaker) spec(inst int64) (ns.InstanceSpec, bool) {
	name, known := s.names[inst]
	if !known {
		return ns.InstanceSpec{}, false
	}
	if sp, ok := s.asLastTime(name, inst); ok {
		return sp, true
	}
	level, ok := s.pc.InstOf(name, inst)
	if !ok || s.hidden(name) {
		return ns.InstanceSpec{}, false
	}
	sp := ns.InstanceSpec{Levels: []uint64{level}, OSName: name, ASN: schema.ASNFor(level + 1), Desc: ns.EscapeName(name)}
	switch {
	case s.nameMetric != "":
		if sp, ok = s.namedByMetric(sp, name, inst); !ok {
			return sp, false // not mounted any more, or not yet
		}
	case s.pc.NameAs != nil:
		sp.OSName = s.pc.NameAs(name) // named by its PCP name, the one the host has
	}
	if s.pc.Parent != nil {
		pl, asn, ok := s.pc.Parent(name, s.parents)
		if !ok {
			return sp, false // a partition whose disk is not there (hidden, or gone)
		}
		sp.Levels, sp.ASN = []uint64{pl, level}, asn
	}
	if s.nameMetric == "" && s.pc.Parent == nil {
		s.bf.rememberKnown(name, sp, len(s.names))
	}
	return sp, true
}

// hidden says the class hides the instance (a loop device) and the options do not show it.
func (s *specMaker) hidden(name string) bool {
	return s.pc.Hidden != nil && !s.h.opt.ShowLoop && s.pc.Hidden(name)
}

// asLastTime is the spec an instance had at the last reading when it still stands: one without
// parents, not named by a metric, or named by it as then.
func (s *specMaker) asLastTime(name string, inst int64) (ns.InstanceSpec, bool) {
	if s.pc.Parent != nil {
		return ns.InstanceSpec{}, false
	}
	if s.nameMetric == "" {
		sp, ok := s.bf.known[name]
		return sp, ok
	}
	was, ok := s.bf.named[name]
	if !ok {
		return ns.InstanceSpec{}, false
	}
	if nv, ok := s.f.Lookup(s.nameMetric, inst); ok && nv.Text == was.text {
		return was.sp, true
	}
	return ns.InstanceSpec{}, false
}

// namedByMetric is an instance's spec named by the name metric's text for it (kept for the next
// reading), and false when the metric has no text for it.
func (s *specMaker) namedByMetric(sp ns.InstanceSpec, name string, inst int64) (ns.InstanceSpec, bool) {
	named := false
	for _, nv := range s.f.Get(s.nameMetric) {
		if nv.Instance != inst || nv.Text == "" {
			continue
		}
		if was, ok := s.bf.named[name]; ok && was.text == nv.Text && s.pc.Parent == nil {
			return was.sp, true // named as at the last reading
		}
		sp.OSName, sp.Desc, named = s.pc.NameAs(nv.Text), ns.Clip(ns.EscapeName(nv.Text)+" ("+ns.EscapeName(name)+")", ns.SiMaxLName-1), true
		if s.pc.Parent == nil {
			s.bf.rememberNamed(name, namedSpec{nv.Text, sp}, len(s.names))
		}
	}
	return sp, named
}

// rememberKnown keeps an instance's spec for the next reading; instances that came and went do
// not pile up past a few times the n the host has.
func (bf *pcpBufs) rememberKnown(name string, sp ns.InstanceSpec, n int) {
	if len(bf.known) > 4*n+64 {
		clear(bf.known)
	}
	bf.known[name] = sp
}

// rememberNamed keeps the spec a name metric made for an instance for the next reading, as
// rememberKnown does.
func (bf *pcpBufs) rememberNamed(name string, spec namedSpec, n int) {
	if bf.named == nil || len(bf.named) > 4*n+64 {
		bf.named = map[string]namedSpec{}
	}
	bf.named[name] = spec
}

// sortSpecs puts the buffers' specs in order, parents first and instances stably by level value:
// order says which spec is where, sorted has them so.
func (bf *pcpBufs) sortSpecs() {
	specs := bf.specs
	order := bf.order[:0]
	for i := range specs {
		order = append(order, i)
	}
	bf.order = order
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(specs[a].Levels[0], specs[b].Levels[0]) })
	// The sampler is done with the last reading's slices before it asks for the next one.
	sorted := slices.Grow(bf.sorted[:0], len(specs))[:len(specs)]
	for i, j := range order {
		sorted[i] = specs[j]
	}
	bf.sorted = sorted
}
