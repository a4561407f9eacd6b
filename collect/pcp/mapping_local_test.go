package pcp

import (
	"strings"
	"testing"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	"dcimon/collect/linux"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// Issue 37 item 2, one answer per fact: every datum the remote sources read from a PCP metric
// (the mapping of schema.LinuxPMDA) names that metric in this host's local declaration too, as
// describe shows it (`describe Disk/vda/reads`: disk.dev.read, locally and through pmcd alike).
func TestLocalDeclarationsNameTheMappedMetric(t *testing.T) {
	fix := "../linux/testdata/basic/t0/"
	provs := linux.Providers(linux.Options{Procfs: fix + "proc", Sysfs: fix + "sys"})
	for _, p := range provs {
		DescribeLinuxPMDA(p.Classes()) // as headless.OpenSource does for this host
	}
	local := collecttest.NewHarness(t, provs)
	_, classes := pcpMapping(4, 8<<30)
	bound := 0
	for _, pc := range classes {
		lc := local.Reg.Class(pc.Class.ID)
		if lc == nil {
			t.Errorf("%s (%s): mapped for PCP but not declared locally", pc.Class.Name, pc.Class.ID)
			continue
		}
		for _, b := range pc.Datums {
			if b.Metric == schema.MetricClock || b.Metric == schema.MetricConst {
				continue
			}
			bound++
			remote, here := datumNamed(pc.Class.Datums, b.Datum), datumNamed(lc.Datums, b.Datum)
			switch {
			case remote == "" || here == "":
				t.Errorf("%s datum %d (%s): PCP name remote %q, local %q", pc.Class.Name, b.Datum, b.Metric, remote, here)
			case remote != here:
				t.Errorf("%s datum %d: remote names PCP's %q, local %q: one fact, two answers", pc.Class.Name, b.Datum, remote, here)
			case !strings.HasPrefix(here, b.Metric):
				t.Errorf("%s datum %d: named %q, read from %q", pc.Class.Name, b.Datum, here, b.Metric)
			case pc.Fixed == nil && !strings.Contains(here, "<"):
				// The whole descriptor, as pminfo -d gives it, is one answer too (issue 39
				// item 8): pmid, instance domain, type, semantics and units.
				rd, ld := datumLow(pc.Class.Datums, b.Datum), datumLow(lc.Datums, b.Datum)
				if rd.PCP.PMID != ld.PCP.PMID || rd.PCP.InDom != ld.PCP.InDom || (rd.PCP.Host == nil) != (ld.PCP.Host == nil) ||
					(rd.PCP.Host != nil && *rd.PCP.Host != *ld.PCP.Host) {
					t.Errorf("%s datum %d (%s): remote describes pmid %q indom %q %+v, local pmid %q indom %q %+v",
						pc.Class.Name, b.Datum, b.Metric, rd.PCP.PMID, rd.PCP.InDom, rd.PCP.Host, ld.PCP.PMID, ld.PCP.InDom, ld.PCP.Host)
				}
				if ld.PCP.Host == nil {
					t.Errorf("%s datum %d (%s): no Linux PMDA descriptor", pc.Class.Name, b.Datum, b.Metric)
				}
			}
		}
	}
	if bound < 50 {
		t.Errorf("only %d bound datums compared", bound)
	}
	local.Step(collect.Request{Static: true})
	if d := local.Datum("Disk/vda/reads"); d.PCP.Name != "disk.dev.read" || d.PCP.PMID != "60.0.4" || d.PCP.InDom != "60.1" {
		t.Errorf("Disk/vda/reads locally names PCP's %q, pmid %q, indom %q; want disk.dev.read, 60.0.4, 60.1 (pminfo -d)", d.PCP.Name, d.PCP.PMID, d.PCP.InDom)
	}
}

// datumNamed is the PCP name of the datum numbered low among ds ("" when there is none).
func datumNamed(ds []ns.Datum, low uint8) string {
	for _, d := range ds {
		if d.ID.Low() == low {
			return d.PCP.Name
		}
	}
	return ""
}

// datumLow is the datum numbered low among ds (a zero datum when there is none).
func datumLow(ds []ns.Datum, low uint8) ns.Datum {
	for _, d := range ds {
		if d.ID.Low() == low {
			return d
		}
	}
	return ns.Datum{}
}
