package linux

import (
	"os"
	"path/filepath"
	"testing"
)

// Issue 38 item 5: on a live procfs a file read at every tick is kept open and read again from
// its start, each read the kernel's content of that moment, without a descriptor more per read.
func TestFileReaderKeepsLiveProcfsFiles(t *testing.T) {
	if !isProcfs("/proc/self") {
		t.Skip("no live procfs here")
	}
	var fr fileReader
	first, err := fr.read("/proc/self/schedstat")
	if err != nil {
		t.Fatal(err)
	}
	before := string(first)
	if fr.kept["/proc/self/schedstat"].f == nil {
		t.Fatal("a live procfs file was not kept")
	}
	fds := func() int { e, _ := os.ReadDir("/proc/self/fd"); return len(e) }
	n := fds()
	x := 0
	for i := range 3_000_000 { // run: schedstat's first field is this thread group's leader's run time
		x += i
	}
	_ = x
	var again string
	for range 100 {
		b, err := fr.read("/proc/self/schedstat")
		if err != nil {
			t.Fatal(err)
		}
		again = string(b)
	}
	if fds() != n {
		t.Errorf("descriptors %d after 100 reads, %d before", fds(), n)
	}
	if again == "" || again[len(again)-1] != '\n' {
		t.Errorf("kept read %q: not the whole file", again)
	}
	if again == before {
		t.Errorf("the kept file read %q again after this process ran: not the kernel's content of now", again)
	}
}

// A tree of regular files (the tests' fixtures, rewritten between readings) is opened at every
// read: a file written anew is read anew, and nothing is kept open.
func TestFileReaderRereadsRegularFiles(t *testing.T) {
	p := filepath.Join(t.TempDir(), "stat")
	var fr fileReader
	for _, want := range []string{"one\n", "two, longer\n", "3\n"} {
		if err := os.WriteFile(p+".new", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(p+".new", p); err != nil { // a new file where the old one was
			t.Fatal(err)
		}
		got, err := fr.read(p)
		if err != nil || string(got) != want {
			t.Fatalf("read %q, %v; want %q", got, err, want)
		}
	}
	if fr.kept[p].f != nil {
		t.Error("a regular file was kept open")
	}
}
