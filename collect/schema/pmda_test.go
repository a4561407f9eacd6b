package schema

import (
	"strings"
	"testing"

	ns "dcimon/namespace"
)

// TestLinuxPMDABindsDeclaredDatums: every binding names a datum its class declares, read (not
// derived), once; and every bound datum's declaration names its PCP metric, the binding's (with
// its instance where the declaration says it), so the fact is kept in one place (issues 28, 37).
func TestLinuxPMDABindsDeclaredDatums(t *testing.T) {
	decl, classes := LinuxPMDA(4, 8<<30)
	if len(decl) == 0 || len(classes) == 0 {
		t.Fatal("an empty table")
	}
	for _, pc := range classes {
		seen := map[uint8]bool{}
		for _, b := range pc.Datums {
			if seen[b.Datum] {
				t.Errorf("%s: datum %d bound twice", pc.Class.Name, b.Datum)
			}
			seen[b.Datum] = true
			d := datumOf(pc.Class, b.Datum)
			if d == nil {
				t.Errorf("%s: %s is bound to datum %d, which the class does not declare", pc.Class.Name, b.Metric, b.Datum)
				continue
			}
			if d.IsDerived() {
				t.Errorf("%s/%s: a derived datum is bound to %s", pc.Class.Name, d.Name, b.Metric)
			}
			if b.Metric == MetricClock || b.Metric == MetricConst {
				continue
			}
			if d.PCP.Name == "" { // issue 37 item 2: describe names it wherever the host is read
				t.Errorf("%s/%s: bound to %s but declares no PCP metric", pc.Class.Name, d.Name, b.Metric)
				continue
			}
			if name, _, _ := strings.Cut(d.PCP.Name, " ["); name != b.Metric {
				t.Errorf("%s/%s: declared as PCP's %q, bound to %q", pc.Class.Name, d.Name, d.PCP.Name, b.Metric)
			}
		}
	}
}

func datumOf(c *ns.Class, low uint8) *ns.Datum {
	for i := range c.Datums {
		if c.Datums[i].ID.Low() == low {
			return &c.Datums[i]
		}
	}
	return nil
}
