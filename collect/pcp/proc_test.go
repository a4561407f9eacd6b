package pcp

import (
	"strings"
	"testing"

	"dcimon/collect/schema"
)

// Issue 40 item 5: a live host has the proc PMDA's Proc class and reads its metrics; an
// archive's or a series' host has them only where its source holds proc.* (pmlogger logged
// them), and keeps every other class either way.
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
	d2, c2, n2 := liveOnlyOut(decl, classes, names, nil)
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

// holding is a recorded source that holds the metrics named.
type holding map[string]bool

func (h holding) holds(name string) bool { return h[name] }

// Issue 40 item 5: an archive that logged proc.psinfo.utime keeps the Proc class and reads
// every proc metric the mapping binds (those not logged are read as not recorded).
func TestProcKeptWhereRecorded(t *testing.T) {
	decl, classes := pcpMapping(4, 8<<30)
	names := metricsOf(classes, func(int) bool { return true })
	d2, c2, n2 := liveOnlyOut(decl, classes, names, holding{"proc.psinfo.utime": true})
	if len(d2) != len(decl) || len(c2) != len(classes) || len(n2) != len(names) {
		t.Errorf("an archive that logged proc.*: %d of %d classes declared, %d of %d mapped, %d of %d metrics",
			len(d2), len(decl), len(c2), len(classes), len(n2), len(names))
	}
	d3, _, _ := liveOnlyOut(decl, classes, names, holding{"disk.dev.read": true})
	if len(d3) != len(decl)-2 {
		t.Errorf("an archive without proc.*: %d of %d classes declared", len(d3), len(decl))
	}
}

// Issue 40 item 5: pmseries keeps a string value in double quotes; the value read from the
// series is what is inside, as from the archive (a process's command labels it: "sh", not `"sh"`).
func TestSeriesStringUnquoted(t *testing.T) {
	for _, c := range []struct{ in, want string }{{`"sh"`, "sh"}, {`""`, ""}, {`"a "b""`, `a "b"`}, {`x`, `x`}} {
		if got := seriesValue(1, c.in, "string").Text; got != c.want {
			t.Errorf("seriesValue(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := seriesValue(1, "42", "u64"); got.Text != "" {
		t.Errorf("a number kept as text: %+v", got)
	}
}
