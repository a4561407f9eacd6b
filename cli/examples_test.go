package cli

import (
	"strings"
	"testing"
)

// The examples in examples/suppliers.d stay valid: both the file and the program are read under
// DDS/example with their values and units (issue 18).
func TestExampleSuppliers(t *testing.T) {
	out, errOut, code := runFake(t, "get", "DDS/example/backup_size/value", "DDS/example/backup_bytes_total/nas/value",
		"DDS/example/logged_in_users/value", "DDS/example/backup_duration_seconds/count",
		"--source", "synthetic:disks=1,nics=1,cpus=1,seed=7", "--suppliers", "../examples/suppliers.d", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	for _, want := range []string{`"path":"DDS/example/backup_size/value"`, `"text":"1 GiB"`, `"path":"DDS/example/logged_in_users/value"`} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in\n%s", want, out)
		}
	}
	if strings.Contains(out, `"state":"error"`) || strings.Contains(out, "unknown") {
		t.Errorf("an example does not read:\n%s", out)
	}
}
