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
	local := collecttest.NewHarness(t, linux.Providers(linux.Options{Procfs: fix + "proc", Sysfs: fix + "sys"}))
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
			}
		}
	}
	if bound < 50 {
		t.Errorf("only %d bound datums compared", bound)
	}
	local.Step(collect.Request{Static: true})
	if got := local.Datum("Disk/vda/reads").PCP.Name; got != "disk.dev.read" {
		t.Errorf("Disk/vda/reads locally names PCP's %q, want disk.dev.read", got)
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
