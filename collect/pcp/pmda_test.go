package pcp

import (
	"flag"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"dcimon/collect/schema"
	"dcimon/internal/pcptest"
)

// pmdaMetrics are the Linux PMDA metrics the mapping reads, and whether each is read at fixed
// instances (the load averages' 1, 5 and 15 minutes; the pressure windows).
func pmdaMetrics() (names []string, fixed map[string]bool) {
	_, classes := schema.LinuxPMDA(1, 0)
	fixed = map[string]bool{}
	seen := map[string]bool{}
	for _, pc := range classes {
		bs := append(slices.Clone(pc.Datums), schema.Binding{Metric: pc.NameMetric}, schema.Binding{Metric: pc.ParentMetric})
		for _, b := range bs {
			if b.Metric == "" || b.Metric == schema.MetricClock || b.Metric == schema.MetricConst {
				continue
			}
			ms := []string{b.Metric}
			if pc.Fixed != nil {
				ms = nil
				for _, r := range pc.Fixed {
					ms = append(ms, strings.ReplaceAll(b.Metric, schema.Resource, r))
				}
			}
			for _, m := range ms {
				if !seen[m] {
					seen[m] = true
					names = append(names, m)
				}
				fixed[m] = fixed[m] || b.Inst != 0
			}
		}
	}
	sort.Strings(names)
	return names, fixed
}

var pminfoTypes = map[string]string{
	"32-bit int": "32", "32-bit unsigned int": "u32", "64-bit int": "64", "64-bit unsigned int": "u64",
	"float": "float", "double": "double", "string": "string", "aggregate": "aggregate",
}

// TestPMDADescriptors (issue 30): the recorder's table of the Linux PMDA's descriptors is what
// this machine's pmcd says: pmid, type, semantics, units, instance domain, and the fixed
// instances. With -update it is written again from the pmcd. A metric the PMDA lacks (the cpu
// "full" pressure of older PMDAs) is not in it, and is recorded under dcimon's own name.
func TestPMDADescriptors(t *testing.T) {
	p := pcptest.Start(t)
	names, fixed := pmdaMetrics()
	// pminfo fails for the names the PMDA lacks, and describes the others.
	out, _ := pcptest.Output("pminfo", append([]string{"-h", p.Hostspec(), "-dmft"}, names...)...)
	head := regexp.MustCompile(`^(\S+) PMID: (\d+\.\d+\.\d+)(?: \[(.*)\])?$`)
	typ := regexp.MustCompile(`^\s+Data Type: (.+?)\s+InDom: (\S+)`)
	sem := regexp.MustCompile(`^\s+Semantics: (\S+)\s+Units: (.+)$`)
	inst := regexp.MustCompile(`^\s+inst \[(\d+) or "([^"]*)"\]`)
	var lines []string
	var cur []string
	var insts []string
	var text string
	flush := func() {
		if cur != nil {
			if !fixed[cur[0]] {
				insts = nil
			}
			lines = append(lines, strings.Join(append(cur, strings.Join(insts, ","), text), "\t"))
		}
		cur, insts, text = nil, nil, ""
	}
	for _, l := range strings.Split(out, "\n") {
		switch {
		case head.MatchString(l):
			flush()
			m := head.FindStringSubmatch(l)
			cur, text = []string{m[1], m[2]}, m[3]
		case cur != nil && typ.MatchString(l):
			m := typ.FindStringSubmatch(l)
			w, ok := pminfoTypes[m[1]]
			if !ok {
				t.Fatalf("%s: type %q", cur[0], m[1])
			}
			indom := m[2]
			if indom == "PM_INDOM_NULL" {
				indom = "null"
			}
			cur = append(cur, w, indom)
		case cur != nil && sem.MatchString(l):
			m := sem.FindStringSubmatch(l)
			cur = append(cur[:3], m[1], strings.TrimSpace(m[2]), cur[3])
		case cur != nil && inst.MatchString(l):
			m := inst.FindStringSubmatch(l)
			insts = append(insts, m[1]+"="+m[2])
		}
	}
	flush()
	want := "# The Linux PMDA's descriptors of the metrics dcimon's mapping reads, as pcp 6.0.3's pmcd gives them\n" +
		"# (pminfo -dmft): name, pmid, type, semantics, units, instance domain, fixed instances (id=name), one-line help.\n" +
		"# Written by go test ./collect/pcp -run TestPMDADescriptors -update against a real pmcd.\n" +
		strings.Join(lines, "\n") + "\n"
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile("pmda.tsv", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if pmdaTable != want {
		t.Errorf("pmda.tsv is not what the pmcd says; go test ./collect/pcp -run TestPMDADescriptors -update\ngot:\n%s\nwant:\n%s", pmdaTable, want)
	}
	descs, err := pmdaDescs()
	if err != nil || len(descs) != len(lines) {
		t.Fatalf("pmdaDescs: %d of %d, %v", len(descs), len(lines), err)
	}
}
