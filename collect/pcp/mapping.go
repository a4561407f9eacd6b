package pcp

import (
	"hash/fnv"
	"strconv"
	"strings"
	"sync"

	"dcimon/collect/schema"
	ns "dcimon/namespace"
	"dcimon/pmproxy"
)

// expand names the metrics of each fixed instance once, so a reading does not.
// pcpDatum is one datum's binding (schema.Binding).
type pcpDatum = schema.Binding

// pcpClass is one class of a remote host, as the PMDA has it, with the datums of each fixed
// instance named once.
type pcpClass struct {
	schema.PMDAClass
	// perFixed are the datums of each fixed instance, their metrics named (made once).
	perFixed [][]pcpDatum
}

// expand names the metrics of each fixed instance once, so a reading does not.
func (pc *pcpClass) expand() {
	if pc.Fixed == nil {
		return
	}
	pc.perFixed = make([][]pcpDatum, len(pc.Fixed))
	for i, r := range pc.Fixed {
		for _, m := range pc.Datums {
			m.Metric = strings.ReplaceAll(m.Metric, schema.Resource, r)
			pc.perFixed[i] = append(pc.perFixed[i], m)
		}
	}
}

// pcpMapping is the one table from PCP's Linux PMDA to dcimon's classes (schema.LinuxPMDA), with
// each datum's source said as this source reads it.
func pcpMapping(ncpu int, memTotal uint64) (decl []*ns.Class, classes []pcpClass) {
	decl, pm := schema.LinuxPMDA(ncpu, memTotal)
	classes = make([]pcpClass, len(pm))
	for i, c := range pm {
		classes[i] = pcpClass{PMDAClass: c}
		classes[i].expand()
	}
	pmda, _ := pmdaDescs() // the embedded table parses: TestPMDADescriptors
	for _, pc := range classes {
		for i := range pc.Class.Datums {
			d := &pc.Class.Datums[i]
			if d.IsDerived() || d.ID == ns.InvalidDatumID {
				continue
			}
			d.Source = "not read from PCP: no Linux PMDA metric is mapped to it"
			for _, m := range pc.Datums {
				switch {
				case d.ID.Low() == m.Datum && m.Metric == schema.MetricClock:
					d.Source = "pmcd's timestamp of the fetch, milliseconds"
				case d.ID.Low() == m.Datum && m.Metric == schema.MetricConst:
					d.Source = "constant " + strconv.FormatFloat(m.Mult, 'f', -1, 64)
				case d.ID.Low() == m.Datum:
					// The schema's declaration names the metric (d.PCP.Name), as the local
					// host's does: one answer wherever the host is read (issue 37).
					d.Source = "PCP metric " + m.Metric
					describePMDA(d, pmda[m.Metric], pc.Fixed == nil)
				}
			}
		}
	}
	return decl, classes
}

// sharedMapping is the mapping for one scale (processors, memory bytes), compiled once and
// shared by every host of that scale: the classes' datums and tables, the bindings and the
// metrics' names exist once, however many hosts read them (issue 38 item 1).
type sharedMapping struct {
	decl    []*ns.Class
	classes []pcpClass
	names   []string
}

// mappings are the shared mappings by scale; at most keptScales of them are kept (a fleet of
// hosts of as many sizes is declared per host past that, as before).
var mappings struct {
	sync.Mutex
	byScale map[[2]uint64]*sharedMapping
}

const keptScales = 64

// sharedPCPMapping is pcpMapping for one host: each class a clone (ns.Class.CloneDecl) of the
// declaration of its scale, made and compiled once in the process, with its bindings and the
// metrics they read (names, not to be changed) shared too. A host's classes are its own (their
// ids, their instances, their place in the tree); what they declare is not.
func sharedPCPMapping(ncpu int, memTotal uint64) (decl []*ns.Class, classes []pcpClass, names []string) {
	key := [2]uint64{uint64(ncpu), memTotal}
	mappings.Lock()
	m := mappings.byScale[key]
	if m == nil {
		d, cs := pcpMapping(ncpu, memTotal)
		for _, c := range d {
			if c.Compile() != nil { // the table is checked by its tests; never shared uncompiled
				mappings.Unlock()
				return d, cs, metricsOf(cs, func(int) bool { return true })
			}
		}
		m = &sharedMapping{decl: d, classes: cs, names: metricsOf(cs, func(int) bool { return true })}
		if len(mappings.byScale) >= keptScales || mappings.byScale == nil {
			mappings.byScale = map[[2]uint64]*sharedMapping{}
		}
		mappings.byScale[key] = m
	}
	mappings.Unlock()
	decl = make([]*ns.Class, len(m.decl))
	clone := make(map[*ns.Class]*ns.Class, len(m.decl))
	for i, c := range m.decl {
		decl[i] = c.CloneDecl()
		clone[c] = decl[i]
	}
	classes = make([]pcpClass, len(m.classes))
	for i, pc := range m.classes {
		classes[i] = pc
		classes[i].Class = clone[pc.Class]
	}
	return decl, classes, m.names
}

// descSets are the sets of descriptors the hosts' contexts gave, each kept once: the hosts of a
// fleet running one PMDA have the same, and share one map (never written to after it is made)
// rather than one each (issue 38 item 1). At most keptScales sets are kept.
var descSets struct {
	sync.Mutex
	byHash map[uint64][]map[string]pmproxy.Desc
}

// sharedDescs is descs by name: the map of another host that has the same, else a new one (kept
// for the next when no descriptor has labels of its own).
func sharedDescs(descs []pmproxy.Desc) map[string]pmproxy.Desc {
	h := fnv.New64a()
	labelled := false
	for _, d := range descs {
		for _, s := range [...]string{d.Name, d.PMID, d.InDom, d.Type, d.Sem, d.Units, d.OneLine, d.Help} {
			_, _ = h.Write([]byte(s))
			_, _ = h.Write([]byte{0})
		}
		labelled = labelled || d.Labels != nil
	}
	sum := h.Sum64()
	descSets.Lock()
	defer descSets.Unlock()
	if !labelled {
		for _, m := range descSets.byHash[sum] {
			if sameDescs(m, descs) {
				return m
			}
		}
	}
	m := make(map[string]pmproxy.Desc, len(descs))
	for _, d := range descs {
		m[d.Name] = d
	}
	if !labelled {
		if descSets.byHash == nil || len(descSets.byHash) >= keptScales {
			descSets.byHash = map[uint64][]map[string]pmproxy.Desc{}
		}
		descSets.byHash[sum] = append(descSets.byHash[sum], m)
	}
	return m
}

// sameDescs says m is descs by name, exactly (none has labels).
func sameDescs(m map[string]pmproxy.Desc, descs []pmproxy.Desc) bool {
	if len(m) != len(descs) { // a name given twice makes a map of fewer: never shared
		return false
	}
	for _, d := range descs {
		o, ok := m[d.Name]
		if !ok || o.Labels != nil || o.PMID != d.PMID || o.InDom != d.InDom || o.Type != d.Type || o.Sem != d.Sem ||
			o.Units != d.Units || o.OneLine != d.OneLine || o.Help != d.Help {
			return false
		}
	}
	return true
}

// metricsOf names the metrics of the classes want says yes to, each once: the ones their
// datums read, the ones naming their instances and finding their parents.
func metricsOf(classes []pcpClass, want func(i int) bool) []string {
	var out []string
	seen := map[string]bool{schema.MetricClock: true, schema.MetricConst: true}
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for i, pc := range classes {
		if !want(i) {
			continue
		}
		add(pc.NameMetric)
		add(pc.ParentMetric)
		add(pc.StartMetric)
		rows := [][]pcpDatum{pc.Datums}
		if pc.Fixed != nil {
			rows = pc.perFixed
		}
		for _, ds := range rows {
			for _, m := range ds {
				add(m.Metric)
			}
		}
	}
	return out
}
