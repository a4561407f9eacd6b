package cli

import (
	"regexp"
	"testing"
)

// DCI4-SUP-3, DCI4-SUP-8 (issue 29 item 23): a context with no statistics of its own (Disk, CPU)
// shows its supplier's reset as last read, the same value a statistic of that supplier shows,
// never the registered record's zeros.
func TestDescribeContextLiveReset(t *testing.T) {
	reset := regexp.MustCompile(`(?m)^\s+reset\s+([0-9a-f]{16})$`)
	of := func(path string) string {
		t.Helper()
		out, errs, code := runFake(t, "describe", path, "--procfs", fixProc, "--sysfs", fixSys)
		if code != 0 {
			t.Fatalf("describe %s: exit %d: %s", path, code, errs)
		}
		m := reset.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("describe %s shows no reset:\n%s", path, out)
		}
		return m[1]
	}
	live := of("Disk/vda/reads")
	if live == "0000000000000000" {
		t.Fatalf("the statistic's reset is zeros")
	}
	for _, p := range []string{"Disk", "Disk/vda"} {
		if got := of(p); got != live {
			t.Errorf("describe %s: reset %s, want %s as describe Disk/vda/reads shows", p, got, live)
		}
	}
}
