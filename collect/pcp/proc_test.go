package pcp

import (
	"strings"
	"testing"

	"dcimon/collect/schema"
)

// Issue 40 item 5: a live host has the proc PMDA's Proc class and reads its metrics; an
// archive's or a series' host has neither (not read from them yet), and keeps every other class.
func TestProcLiveOnly(t *testing.T) {
	decl, classes := pcpMapping(4, 8<<30)
	names := metricsOf(classes, func(int) bool { return true })
	has := func(names []string, m string) bool {
		for _, n := range names {
			if n == m {
				return true
			}
		}
		return false
	}
	if !has(names, "proc.psinfo.utime") || !has(names, schema.ProcStartMetric) {
		t.Fatalf("a live host does not read the proc PMDA: %v", names)
	}
	d2, c2, n2 := liveOnlyOut(decl, classes, names)
	for _, c := range d2 {
		if c.ID[0] == schema.ProcASN {
			t.Errorf("an archive's host declares %s (%s)", c.Name, c.ID)
		}
	}
	for _, n := range n2 {
		if strings.HasPrefix(n, "proc.") {
			t.Errorf("an archive's host reads %s", n)
		}
	}
	if len(d2) != len(decl)-2 || len(c2) != len(classes)-1 || !has(n2, "disk.dev.read") {
		t.Errorf("%d of %d classes declared, %d of %d mapped", len(d2), len(decl), len(c2), len(classes))
	}
}
