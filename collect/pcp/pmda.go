package pcp

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"

	ns "dcimon/namespace"
	"dcimon/pcparchive"
)

// pmdaTable is what PCP's Linux PMDA says of each metric the mapping reads (`pminfo -dmf` of
// pcp 6.0.3's pmcd): its pmid, type, semantics, units and instance domain, and the instances of
// a domain whose instances are fixed (the load averages' "1 minute", the pressure windows). The
// recorder writes a datum under a PMDA name only with this descriptor, so that PCP's tools, and
// pmlogextract merging a recording with a pmlogger archive, see the PMDA's own metric (issue 30).
// TestPMDADescriptors checks it against a real pmcd, and -update writes it again from one.
//
//go:embed pmda.tsv
var pmdaTable string

// pmdaDesc is one metric of the Linux PMDA.
type pmdaDesc struct {
	name  string
	pmid  uint32
	typ   int32
	sem   int32
	units ns.PMUnits
	indom uint32
	insts []pmdaInst // a fixed instance domain's instances; nil for a domain of the host's things
	text  string     // its one-line help, as the PMDA gives it (pmlogger writes it)
}

// pmdaInst is one instance of a fixed instance domain.
type pmdaInst struct {
	id   int32
	name string
}

// pmdaDescs is the table, parsed once (the descriptors are only read).
var pmdaDescs = sync.OnceValues(parsePMDATable)

// parsePMDATable parses the table: one metric a line, tab-separated: name, pmid, type,
// semantics, units, indom, the fixed instances as id=name, comma-separated, and the one-line help.
func parsePMDATable() (map[string]*pmdaDesc, error) {
	out := map[string]*pmdaDesc{}
	for n, line := range strings.Split(pmdaTable, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		d, err := parsePMDALine(line)
		if err != nil {
			return nil, fmt.Errorf("pmda.tsv line %d: %w", n+1, err)
		}
		out[d.name] = d
	}
	return out, nil
}

// parsePMDALine parses one metric's line of the table.
func parsePMDALine(line string) (*pmdaDesc, error) {
	f := strings.Split(line, "\t")
	if len(f) != 8 {
		return nil, fmt.Errorf("%d fields, want 8", len(f))
	}
	d := &pmdaDesc{name: f[0], indom: pcparchive.InDomNull, text: f[7]}
	var err error
	if d.pmid, err = parseDotted(f[1], 3); err != nil {
		return nil, fmt.Errorf("pmid %q: %w", f[1], err)
	}
	if d.typ = typeCode(f[2]); d.typ < 0 {
		return nil, fmt.Errorf("type %q", f[2])
	}
	if d.sem = semCode(f[3]); d.sem < 0 {
		return nil, fmt.Errorf("semantics %q", f[3])
	}
	if f[4] != "none" {
		u, ok := ns.ParsePMUnits(f[4])
		if !ok {
			return nil, fmt.Errorf("units %q", f[4])
		}
		d.units = u
	}
	if f[5] != "null" {
		if d.indom, err = parseDotted(f[5], 2); err != nil {
			return nil, fmt.Errorf("indom %q: %w", f[5], err)
		}
	}
	if d.insts, err = parsePMDAInsts(f[6]); err != nil {
		return nil, err
	}
	return d, nil
}

// semCode is PCP's code of a semantics word (PM_SEM_*): counter, instant or discrete; -1 for
// another word.
func semCode(word string) int32 {
	switch word {
	case "counter":
		return 1
	case "instant":
		return 3
	case "discrete":
		return 4
	}
	return -1
}

// parsePMDAInsts parses a fixed instance domain's instances, id=name, comma-separated; nil for
// none.
func parsePMDAInsts(list string) ([]pmdaInst, error) {
	if list == "" {
		return nil, nil
	}
	var insts []pmdaInst
	for _, in := range strings.Split(list, ",") {
		id, name, ok := strings.Cut(in, "=")
		v, err := strconv.ParseInt(id, 10, 32)
		if !ok || err != nil {
			return nil, fmt.Errorf("instance %q", in)
		}
		insts = append(insts, pmdaInst{int32(v), name})
	}
	return insts, nil
}

// parseDotted reads a pmid (domain.cluster.item) or an instance domain (domain.serial).
func parseDotted(s string, parts int) (uint32, error) {
	f := strings.Split(s, ".")
	if len(f) != parts {
		return 0, fmt.Errorf("want %d parts", parts)
	}
	var v [3]uint64
	for i, p := range f {
		n, err := strconv.ParseUint(p, 10, 32)
		if err != nil {
			return 0, err
		}
		v[i] = n
	}
	if parts == 2 {
		if v[0] >= 1<<9 || v[1] >= 1<<22 {
			return 0, fmt.Errorf("out of range")
		}
		return pcparchive.InDomOf(uint32(v[0]), uint32(v[1])), nil
	}
	if v[0] >= 1<<9 || v[1] >= 1<<12 || v[2] >= 1<<10 {
		return 0, fmt.Errorf("out of range")
	}
	return pcparchive.PMID(uint32(v[0]), uint32(v[1]), uint32(v[2])), nil
}

// typeCode is the archive's number for pmTypeStr's word, -1 for another.
func typeCode(w string) int32 {
	for t := ns.PMType32; t <= ns.PMTypeString; t++ {
		if t.Word() == w {
			return int32(t)
		}
	}
	if w == "aggregate" {
		return pcparchive.TypeAggr
	}
	return -1
}

// describePMDA gives datum d the descriptor of the Linux PMDA's metric md it is read from, which
// describe shows as pminfo -d does: the PMDA's own numbers, which pmcd gives the metric on every
// host (60.0.4 for disk.dev.read), not dcimon's (issue 31), and its type, semantics and units
// (issue 39 item 8). withIDs is false where the datum is one instance of a metric of several
// (a pressure window): its pmid would name them all.
func describePMDA(d *ns.Datum, md *pmdaDesc, withIDs bool) {
	if md == nil {
		return
	}
	d.PCP.Host = &ns.PMDesc{Type: ns.PMType(md.typ), Sem: ns.PMSem(md.sem), Units: md.units}
	if !withIDs {
		return
	}
	d.PCP.PMID = pcparchive.PMIDString(md.pmid)
	if md.indom != pcparchive.InDomNull {
		d.PCP.InDom = pcparchive.InDomString(md.indom)
	}
}

// DescribeLinuxPMDA gives the datums of classes that name a Linux PMDA metric (PCP.Name, as
// collect/schema declares them for this host's providers too) that metric's descriptor, so that
// describe says on this host what it says of the same datum read through pmcd: one answer
// wherever the host is read (issue 37 item 2, issue 39 item 8). A name with an instance in it
// (kernel.all.pressure.<resource>.some.total) names no one metric and is left as it is.
func DescribeLinuxPMDA(classes []*ns.Class) {
	pmda, _ := pmdaDescs() // the embedded table parses: TestPMDADescriptors
	for _, c := range classes {
		for i := range c.Datums {
			d := &c.Datums[i]
			if d.PCP.Name == "" || d.PCP.Host != nil || d.IsDerived() {
				continue
			}
			describePMDA(d, pmda[d.PCP.Name], true)
		}
	}
}
