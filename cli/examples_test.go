package cli

import (
	"os"
	"path/filepath"
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

// A program supplier whose first run takes longer than a collection's deadline (2 s; here 3 s, as
// `find` over a big /tmp took on a loaded host) still names its statistics for get: the command
// reads again while a supplier it found has not answered, instead of saying "no statistic" of a
// supplier that is there; a path no supplier names is still the error it was, once the suppliers
// have answered.
func TestGetWaitsForASlowProgramSupplier(t *testing.T) {
	t.Parallel() // it waits on a program's sleep
	dir := t.TempDir()
	prog := "#!/bin/sh\nsleep 3\necho '# DCIMON vendor=slow'\necho '# TYPE waited gauge'\necho 'waited 7'\n"
	if err := os.WriteFile(filepath.Join(dir, "slow"), []byte(prog), 0o755); err != nil {
		t.Fatal(err)
	}
	syn := []string{"--source", "synthetic:disks=1,nics=1,cpus=1,seed=7", "--suppliers", dir, "--json"}
	out, errOut, code := runFake(t, append([]string{"get", "DDS/slow/waited/value"}, syn...)...)
	if code != 0 || !strings.Contains(out, `"path":"DDS/slow/waited/value","state":"valid","text":"7"`) {
		t.Errorf("get of a slow program's statistic: exit %d: %s\n%s", code, errOut, out)
	}
	_, errOut, code = runFake(t, append([]string{"get", "DDS/slow/nothing/value"}, syn...)...)
	if code == 0 || !strings.Contains(errOut, "no statistic DDS/slow/nothing/value") {
		t.Errorf("get of what the program does not print: exit %d: %s", code, errOut)
	}
}
