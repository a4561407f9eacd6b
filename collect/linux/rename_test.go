package linux

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	ns "dcimon/namespace"
)

// Issue 41 item 7: a disk is keyed by its major:minor and its name. When another name comes
// under the same major:minor (vda gone, vdz made with 254:0), Disk/vdz is found, a new
// instance whose first reading has no rate, and Disk/vda is gone.
func TestDiskRenamedIsANewInstance(t *testing.T) {
	t.Parallel()
	st := newSamplerTree(t)
	st.step(time.Second)
	st.step(time.Second)
	if v, _ := st.value("Disk/vda/reads"); v.State != ns.Valid {
		t.Fatalf("vda before: %s", show(v))
	}
	data, err := os.ReadFile(filepath.Join(st.dir, "proc/diskstats"))
	if err != nil {
		t.Fatal(err)
	}
	st.write("proc/diskstats", strings.Replace(string(data), " vda ", " vdz ", 1))
	if err := os.Rename(filepath.Join(st.dir, "sys/block/vda"), filepath.Join(st.dir, "sys/block/vdz")); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		st.step(3 * time.Second)
	}
	reg := st.s.Registry()
	if _, err := reg.Lookup(nil, "Disk/vdz/reads"); err != nil {
		t.Errorf("Disk/vdz not found while diskstats says vdz: %v", err)
	}
	if _, err := reg.Lookup(nil, "Disk/vda/reads"); err == nil {
		t.Error("Disk/vda is still there after the rename")
	}
}

// Issue 41 item 10: descriptions escape as paths do, backslash included: a mount at a literal
// `p\x0aq` and one at `p<newline>q` read differently, each as its path is written.
func TestDescriptionsEscapeBackslash(t *testing.T) {
	t.Parallel()
	lit, nl := fsDesc(`/p\x0aq`), fsDesc("/p\nq")
	if lit == nl || lit != `File system mounted on /p\\x0aq` || nl != `File system mounted on /p\x0aq` {
		t.Errorf("literal %q, newline %q", lit, nl)
	}
}
