package linux

import (
	"os"
	"path/filepath"
	"testing"
)

// Issue 38 item 5: on a live procfs a file read at every tick is kept open and read again from
// its start, each read the kernel's content of that moment, without a descriptor more per read.
// /proc/self/io counts the bytes this process read: each read of it moves its own rchar.
func TestFileReaderKeepsLiveProcfsFiles(t *testing.T) {
	if !isProcfs("/proc/self") {
		t.Skip("no live procfs here")
	}
	var fr fileReader
	rchar := func() uint64 {
		b, err := fr.read("/proc/self/io")
		if err != nil {
			t.Skipf("no I/O accounting here: %v", err)
		}
		var io procIO
		if err := parseProcIO("io", b, &io); err != nil {
			t.Fatal(err)
		}
		return io.rchar
	}
	before := rchar()
	if fr.kept["/proc/self/io"].f == nil {
		t.Fatal("a live procfs file was not kept")
	}
	fds := func() int { e, _ := os.ReadDir("/proc/self/fd"); return len(e) }
	n := fds()
	last := before
	for range 100 {
		now := rchar()
		if now <= last {
			t.Fatalf("rchar %d after %d: the kept file did not read the kernel's content of now", now, last)
		}
		last = now
	}
	if fds() != n {
		t.Errorf("descriptors %d after 100 reads, %d before", fds(), n)
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
