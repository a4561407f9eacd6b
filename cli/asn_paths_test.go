package cli

import (
	"strings"
	"testing"
)

// DCI-LBL-5 (issue 29 item 21): statistics and contexts are named by their SPMI path or by their
// dotted ASN.1 id (list --ids shows it), and every command takes both: get, describe, list and
// hot name the same thing either way.
func TestCommandsTakeASNIDs(t *testing.T) {
	fixture := []string{"--procfs", fixProc, "--sysfs", fixSys}
	run := func(args ...string) string {
		t.Helper()
		out, stderr, code := runFake(t, append(args, fixture...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		return out
	}
	if by, name := run("get", "2.1.1"), run("get", "Disk/vda/reads"); by != name || !strings.Contains(by, "Disk/vda/reads") {
		t.Errorf("get 2.1.1:\n%s\nget Disk/vda/reads:\n%s", by, name)
	}
	if by, name := run("describe", "1.1.4"), run("describe", "CPU/cpu0/idle"); by != name {
		t.Errorf("describe 1.1.4 differs from describe CPU/cpu0/idle:\n%s\n%s", by, name)
	}
	if by, name := run("list", "2.1"), run("list", "Disk/vda"); by != name || !strings.Contains(by, "Disk/vda/reads") {
		t.Errorf("list 2.1:\n%s\nlist Disk/vda:\n%s", by, name)
	}
	// A grandparent by its id: Disk/vda's id (2.1 is no class id, so it is read as the ASN.1 id).
	if by, name := run("hot", "2.1", "reads"), run("hot", "Disk/vda", "reads"); by != name || !strings.HasPrefix(strings.SplitN(by, "\n", 2)[1], "Disk/vda reads") {
		t.Errorf("hot 2.1 reads:\n%s\nhot Disk/vda reads:\n%s", by, name)
	}
	// An id that names nothing says which part is missing.
	_, stderr, code := runFake(t, append([]string{"describe", "1.1.99"}, fixture...)...)
	if code == 0 || !strings.Contains(stderr, "ASN.1 id 1.1.99: CPU/cpu0 has no statistic 99") {
		t.Errorf("describe 1.1.99: exit %d %s", code, stderr)
	}
}
