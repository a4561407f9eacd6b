//go:build linux

package resident

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An smaps of a binary whose path has a space, with its writable data, a library and the heap.
const smapsFixture = `00400000-00bd6000 r-xp 00000000 fd:01 1234                       /opt/my tools/dcimon
Size:               8024 kB
Rss:                6992 kB
Pss:                6992 kB
00bd6000-013d8000 r--p 007d6000 fd:01 1234                       /opt/my tools/dcimon
Rss:                6408 kB
013d8000-01478000 rw-p 00fd8000 fd:01 1234                       /opt/my tools/dcimon
Rss:                 576 kB
01478000-034bd000 rw-p 00000000 00:00 0 
Rss:                 112 kB
7f00000000-7f00001000 r-xp 00000000 fd:01 99                         /usr/lib/libc.so.6
Rss:                   4 kB
7f00002000-7f00003000 r--s 00000000 fd:01 1234                       /opt/my tools/dcimon
Rss:                   4 kB
`

// readOnlyMappings takes the executable's private read-only mappings only: never its writable
// data (dropping it would lose the program's variables), a shared mapping, another file or
// anonymous memory.
func TestReadOnlyMappings(t *testing.T) {
	p := filepath.Join(t.TempDir(), "smaps")
	if err := os.WriteFile(p, []byte(smapsFixture), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readOnlyMappings(p, "/opt/my tools/dcimon")
	if err != nil {
		t.Fatal(err)
	}
	want := []mapping{{0x400000, 0xbd6000, 6992 << 10}, {0xbd6000, 0x13d8000, 6408 << 10}}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("mapping %d: got %+x, want %+x", i, got[i], want[i])
		}
	}
}

// kept is written before the drop and read after it: package variables live in the writable
// mappings, which the drop leaves alone.
var kept = map[string]int{}

// DropStartPages gives back resident pages of this test binary, and the program goes on: its
// code runs again (faulted back from the page cache), its read-only data reads the same and its
// variables keep their values.
func TestDropStartPagesKeepsTheProgramWhole(t *testing.T) {
	kept["before"] = 42
	text := strings.Repeat("x", 3) // code of package strings, run before and after
	d, err := DropStartPages()
	if err != nil {
		t.Skipf("no /proc/self/smaps or madvise here: %v", err)
	}
	if d.Mapped == 0 || d.Resident == 0 || d.Resident > d.Mapped {
		t.Fatalf("dropped %+v: want some resident bytes of the mapped ones", d)
	}
	if kept["before"] != 42 || strings.Repeat("x", 3) != text || smapsFixture[:8] != "00400000" {
		t.Fatal("the program changed after its pages were given back")
	}
	// The second drop finds less resident: what ran since came back, the rest stayed out.
	d2, err := DropStartPages()
	if err != nil {
		t.Fatal(err)
	}
	if d2.Resident >= d.Resident {
		t.Errorf("resident before the second drop %d bytes, before the first %d: the first gave nothing back", d2.Resident, d.Resident)
	}
}
