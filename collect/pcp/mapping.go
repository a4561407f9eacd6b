package pcp

import (
	"strconv"
	"strings"

	"dcimon/collect/schema"
	ns "dcimon/namespace"
	"dcimon/pcparchive"
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
					d.PCP.Name, d.Source = m.Metric, "PCP metric "+m.Metric
					// describe names the metric by the Linux PMDA's own numbers, which pmcd
					// gives it on every host (60.0.4 for disk.dev.read), not dcimon's (issue 31).
					if md := pmda[m.Metric]; md != nil {
						d.PCP.Host = &ns.PMDesc{Type: ns.PMType(md.typ), Sem: ns.PMSem(md.sem), Units: md.units}
					}
					if md := pmda[m.Metric]; md != nil && pc.Fixed == nil {
						d.PCP.PMID = pcparchive.PMIDString(md.pmid)
						if md.indom != pcparchive.InDomNull {
							d.PCP.InDom = pcparchive.InDomString(md.indom)
						}
					}
				}
			}
		}
	}
	return decl, classes
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
