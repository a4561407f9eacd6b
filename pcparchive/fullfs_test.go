package pcparchive

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"dcimon/internal/pcptest"
)

// fill writes an archive at base until a write fails: in "volume" mode records of a few
// metrics (the volume is the file that outgrows the others), in "meta" mode descriptions of
// new metrics, each followed by a record of its value. It returns how many records were
// written whole, the failure, and the archive closed as dcimon record closes it (CloseAt the
// last record's time).
func fill(base, mode string, version int) (records int, failure, closeErr error) {
	start := time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC)
	w, err := Create(base, version, Label{PID: 1, Start: start, Host: "full", TZ: "UTC", Zoneinfo: ":UTC"})
	if err != nil {
		return 0, err, nil
	}
	w.IndexEvery = 3
	load := PMID(60, 2, 0)
	if err := w.PutDesc(Desc{PMID: load, Type: TypeDouble, InDom: InDomNull, Sem: 3, Names: []string{"kernel.all.load"}}); err != nil {
		return 0, err, w.Close()
	}
	var last time.Time
	for i := 0; ; i++ {
		at := start.Add(time.Duration(i) * time.Second)
		sets := []OutSet{{PMID: load, Values: []OutValue{{Inst: -1, F: float64(i)}}}}
		if mode == "meta" {
			p := PMID(245, uint32(1+i/1000), uint32(i%1000))
			if err := w.PutDesc(Desc{PMID: p, Type: TypeString, InDom: InDomNull, Sem: 4,
				Names: []string{fmt.Sprintf("dcimon.test.%s.m%d", strings.Repeat("long", 40), i)}}); err != nil {
				return records, err, w.CloseAt(last)
			}
			sets = append(sets, OutSet{PMID: p, Values: []OutValue{{Inst: -1, S: "v"}}})
		}
		if err := w.PutResult(at, sets); err != nil {
			return records, err, w.CloseAt(last)
		}
		records, last = records+1, at
	}
}

// TestFileSizeLimitChild is the process TestWriterFileSizeLimit runs with a file size limit
// (RLIMIT_FSIZE, SIGXFSZ ignored so that a write past it fails with EFBIG, as a full disk's
// fails with ENOSPC): it fills an archive and prints what it wrote.
func TestFileSizeLimitChild(t *testing.T) {
	spec := os.Getenv("PCPARCHIVE_FSIZE_CHILD") // limit,mode,version,base
	if spec == "" {
		t.Skip("run by TestWriterFileSizeLimit")
	}
	f := strings.SplitN(spec, ",", 4)
	limit, _ := strconv.ParseUint(f[0], 10, 64)
	version, _ := strconv.Atoi(f[2])
	signal.Ignore(syscall.SIGXFSZ)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
		t.Fatal(err)
	}
	n, failure, closeErr := fill(f[3], f[1], version)
	fmt.Printf("RECORDS %d\nFAILURE %v\nCLOSE %v\n", n, failure, closeErr)
}

// Issue 30 item 12: a write that fails for want of room leaves no torn record. The real writer
// runs in a process of its own under a file size limit (a tmpfs of a set size needs root's
// mounts; RLIMIT_FSIZE needs nothing), until a write fails; then pmlogcheck finds nothing
// wrong, pmdumplog reads it, and this package reads every record written whole and no error.
func TestWriterFileSizeLimit(t *testing.T) {
	for _, c := range []struct {
		mode    string
		version int
		limit   int
	}{{"volume", 3, 20000}, {"volume", 2, 9000}, {"meta", 3, 30000}, {"meta", 2, 12345}} {
		t.Run(fmt.Sprintf("%s-v%d", c.mode, c.version), func(t *testing.T) {
			base := filepath.Join(t.TempDir(), "a")
			cmd := exec.Command(os.Args[0], "-test.run=^TestFileSizeLimitChild$", "-test.v")
			cmd.Env = append(os.Environ(), fmt.Sprintf("PCPARCHIVE_FSIZE_CHILD=%d,%s,%d,%s", c.limit, c.mode, c.version, base))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var n int
			var failure string
			for _, l := range strings.Split(string(out), "\n") {
				if v, ok := strings.CutPrefix(l, "RECORDS "); ok {
					n, _ = strconv.Atoi(v)
				}
				if v, ok := strings.CutPrefix(l, "FAILURE "); ok {
					failure = v
				}
			}
			file := map[string]string{"volume": base + ".0", "meta": base + ".meta"}[c.mode]
			if n < 5 || !strings.Contains(failure, "file too large") || !strings.HasPrefix(failure, file+": writing a record of ") {
				t.Fatalf("the writer wrote %d records before %q:\n%s", n, failure, out)
			}
			checkWhole(t, base, n, int64(c.limit))
		})
	}
}

// checkWhole checks an archive a failed write ended: no file past limit (when not 0), no torn
// record for PCP's tools or this package, and n records.
func checkWhole(t *testing.T, base string, n int, limit int64) {
	t.Helper()
	for _, suf := range []string{".meta", ".index", ".0"} {
		st, err := os.Stat(base + suf)
		if err != nil {
			t.Fatal(err)
		}
		if limit > 0 && st.Size() > limit {
			t.Errorf("%s: %d bytes, past the limit of %d", suf, st.Size(), limit)
		}
	}
	a, err := Open(base)
	if err != nil {
		t.Fatalf("the archive a failed write left: %v", err)
	}
	rs, err := a.ReadVolume(0)
	if err != nil || len(rs) != n {
		t.Errorf("%d records read, %d written; %v", len(rs), n, err)
	}
	if ok, _ := pcptest.Installed(); !ok {
		return
	}
	if out, err := pcptest.Output("pmlogcheck", base); err != nil || strings.TrimSpace(out) != "" {
		t.Errorf("pmlogcheck: %v\n%s", err, out)
	}
	dump := pcptest.Run(t, "pmdumplog", "-a", base)
	if got := strings.Count(dump, "kernel.all.load"); got < n {
		t.Errorf("pmdumplog shows kernel.all.load %d times, %d records were written:\n%s", got, n, dump[:min(len(dump), 2000)])
	}
}

// Issue 30 item 12, on a real full file system: a 2 MiB ext4 image mounted by loop (root only:
// skipped elsewhere), filled until the writer's write fails with "no space left on device".
func TestWriterFullFileSystem(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a loop file system needs root")
	}
	dir := t.TempDir()
	img, mnt := filepath.Join(dir, "img"), filepath.Join(dir, "mnt")
	if err := os.WriteFile(img, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 2<<20); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", img).CombinedOutput(); err != nil {
		t.Skipf("mkfs.ext4: %v %s", err, out)
	}
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-o", "loop", img, mnt).CombinedOutput(); err != nil {
		t.Skipf("mount -o loop: %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", mnt, err, out)
		}
	})
	for _, mode := range []string{"volume", "meta"} {
		base := filepath.Join(mnt, mode)
		n, failure, closeErr := fill(base, mode, 3)
		if !errors.Is(failure, syscall.ENOSPC) || n < 5 {
			t.Fatalf("%s: %d records, then %v", mode, n, failure)
		}
		t.Logf("%s: %d records, then %v; closed: %v", mode, n, failure, closeErr)
		checkWhole(t, base, n, 0)
		// Room for the next one: what filled the disk goes.
		for _, suf := range []string{".meta", ".index", ".0"} {
			if err := os.Remove(base + suf); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// Issue 30 item 13: a refused Create leaves nothing behind, and once the conflict is gone the
// next one succeeds (and Abort takes it away whole): a first volume that is there, a directory that is not, and a label that
// cannot be written whole (a file size limit smaller than it: what was created is removed).
func TestCreateRefusedLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "x")
	if err := os.WriteFile(base+".0", []byte("a user's file"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Create(base, 3, Label{Start: time.Now()})
	if !errors.Is(err, fs.ErrExist) || !strings.Contains(err.Error(), base+".0") {
		t.Errorf("x.0 there: %v", err)
	}
	left, _ := filepath.Glob(base + ".*")
	if len(left) != 1 {
		t.Errorf("a refused Create left %q", left)
	}
	if b, _ := os.ReadFile(base + ".0"); string(b) != "a user's file" {
		t.Errorf("x.0 was changed: %q", b)
	}
	if err := os.Remove(base + ".0"); err != nil {
		t.Fatal(err)
	}
	w, err := Create(base, 3, Label{Start: time.Now()})
	if err != nil {
		t.Fatalf("once the conflict is gone: %v", err)
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(base + ".*"); len(left) != 0 {
		t.Errorf("an aborted archive left %q", left)
	}
	if err := os.WriteFile(filepath.Join(dir, "afile"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(filepath.Join(dir, "afile", "y"), 3, Label{Start: time.Now()}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("an archive in a directory that is a file: %v", err)
	}
	if err := Vacant(filepath.Join(dir, "no", "y")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a directory that is not there: %v", err)
	}
	// A label that cannot be written: every file this Create made is removed.
	base = filepath.Join(dir, "small")
	cmd := exec.Command(os.Args[0], "-test.run=^TestFileSizeLimitChild$", "-test.v")
	cmd.Env = append(os.Environ(), "PCPARCHIVE_FSIZE_CHILD=100,volume,3,"+base)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "file too large") {
		t.Fatalf("%v\n%s", err, out)
	}
	if left, _ := filepath.Glob(base + ".*"); len(left) != 0 {
		t.Errorf("a Create whose label failed left %q", left)
	}
}
