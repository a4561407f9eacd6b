package archivetest

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"dcimon/pcparchive"
)

// Issue 39 item 2: the generated archive compressed by xz in blocks (several here, as
// pmlogger_daily's 10 MiB blocks are in a day's volume) seeks to any time and reads the two
// samples ending there, every value checked, as the uncompressed one does; a seek's memory is
// the uncompressed one's and a bounded decoder (xz -0's 256 KiB dictionary, a buffer).
func TestCompressedArchiveSeeks(t *testing.T) {
	s := TenMinutes
	plain := filepath.Join(t.TempDir(), "a")
	if err := Generate(plain, s); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(t.TempDir(), "a")
	CompressXZ(t, plain, base, "-0", "--block-size=256KiB")
	a, err := pcparchive.Open(base)
	if err != nil || !a.Compressed() {
		t.Fatalf("%v, compressed %v", err, a != nil && a.Compressed())
	}
	if n := a.Notes(); len(n) != 1 || n[0] != "compressed: a.meta.xz, a.0.xz; a.0.xz: a seek decompresses at most 256 KiB (one of 12 xz blocks), none within the block last read" {
		t.Errorf("notes %q", n)
	}
	rng := rand.New(rand.NewPCG(39, 2))
	ks := append([]int{1, 59, 60, 61, s.Records - 1}, rng.IntN(s.Records-1)+1, rng.IntN(s.Records-1)+1)
	for _, k := range ks {
		seekTwo(t, base, s, k)
	}
	alloc := func(base string) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for _, k := range ks {
			seekTwo(t, base, s, k)
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / uint64(len(ks))
	}
	p, z := alloc(plain), alloc(base)
	t.Logf("allocated a seek: %d bytes uncompressed, %d compressed", p, z)
	if z > p+2<<20 {
		t.Errorf("a seek in the compressed archive allocates %d bytes, the uncompressed one %d: more than 2 MiB beyond", z, p)
	}
}

// BenchmarkSeekDayXZ is issue 39's budget (≤ 150 ms): the 24-hour archive (424 MB, Day)
// compressed as pmlogger_daily compresses it (xz -0 --block-size=10MiB: 41 blocks, 19 MB),
// opened, a seek to a random time and the two samples ending there read, every value checked.
// Each seek opens the archive anew, so nothing is kept from one to the next: a seek
// decompresses from the start of its block. Only under -bench.
func BenchmarkSeekDayXZ(b *testing.B) {
	if testing.Short() {
		b.Skip("the 24-hour archive is about 424 MB")
	}
	base := CachedXZ(b, Day)
	rng := rand.New(rand.NewPCG(30, 6))
	var worst, worstCPU, cpu time.Duration
	var heap uint64
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		t0, c0 := time.Now(), cpuTime()
		seekTwo(b, base, Day, 1+rng.IntN(Day.Records-1))
		c := cpuTime() - c0
		worst, worstCPU, cpu = max(worst, time.Since(t0)), max(worstCPU, c), cpu+c
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		heap = max(heap, m.HeapInuse)
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/seek")
	b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
	// The process's processor time: on a machine shared with other work, the wall clock's
	// figures are stretched by the load; these are the seek's own.
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/seek")
	b.ReportMetric(float64(worstCPU.Microseconds())/1000, "worst-cpu-ms")
	b.ReportMetric(float64(heap)/(1<<20), "heap-MiB")
}

// BenchmarkSeekDayXZBlockEnd is the worst seek of the compressed day: to the last records of a
// 10 MiB block, every byte of which is decoded first (issue 39 item 2). Only under -bench.
func BenchmarkSeekDayXZBlockEnd(b *testing.B) {
	if testing.Short() {
		b.Skip("the 24-hour archive is about 424 MB")
	}
	base := CachedXZ(b, Day)
	st, err := os.Stat(Cached(b, Day) + ".0")
	if err != nil {
		b.Fatal(err)
	}
	// The records are of one size: the last whole ones before the second block's start.
	k := int(int64(Day.Records)*(10<<20)/st.Size()) - 3
	var cpu, worstCPU time.Duration
	for b.Loop() {
		c0 := cpuTime()
		seekTwo(b, base, Day, k)
		c := cpuTime() - c0
		cpu, worstCPU = cpu+c, max(worstCPU, c)
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/seek")
	b.ReportMetric(float64(worstCPU.Microseconds())/1000, "worst-cpu-ms")
}

// cpuTime is the processor time the process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Issue 39 item 2: in a compressed file with no index to seek by (gzip; bzip2 and an xz of one
// block alike), a cursor that lets go of a volume hands its decoder to the archive, and the next
// cursor's seek forward goes on from where it stopped: two seeks forward decompress the volume
// once up to the later time, not twice from its start.
func TestCompressedSeekForwardGoesOn(t *testing.T) {
	s := TenMinutes
	plain := filepath.Join(t.TempDir(), "a")
	if err := Generate(plain, s); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	base := filepath.Join(dir, "a")
	for _, suf := range []string{".meta", ".index", ".0"} {
		b, _ := os.ReadFile(plain + suf)
		os.WriteFile(base+suf, b, 0o644)
	}
	if _, err := exec.LookPath("gzip"); err != nil {
		t.Skip("gzip is not installed")
	}
	if out, err := exec.Command("gzip", base+".0").CombinedOutput(); err != nil {
		t.Fatalf("gzip: %v %s", err, out)
	}
	st, _ := os.Stat(plain + ".0")
	a, err := pcparchive.Open(base)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for _, k := range []int{200, 400, 550} {
		seekOn(t, a, s, k)
	}
	if d := a.Decompressed(); d > st.Size() {
		t.Errorf("three seeks forward decompressed %d bytes; the volume has %d: one went back to the start", d, st.Size())
	}
	seekOn(t, a, s, 100) // back: from the start again
	if d := a.Decompressed(); d <= st.Size()*550/600 {
		t.Errorf("a seek back decompressed %d bytes in all", d)
	}
}

// seekOn seeks an open archive to record k's time and checks the record there.
func seekOn(t testing.TB, a *pcparchive.Archive, s Spec, k int) {
	t.Helper()
	c, err := a.Cursor(s.Time(k))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r, err := c.Next()
	if err != nil || !r.Time.Equal(s.Time(k)) {
		t.Fatalf("seek to record %d: a record at %v (%v)", k, r.Time, err)
	}
}

// BenchmarkMinuteMovesDayXZ is the replay's moves in the compressed day (`<` `>`, a minute back
// and forth; a seek each, as the monitor does), after a first move into the block: from the
// block kept decoded (decompress.MaxCache), none decodes again. Only under -bench.
func BenchmarkMinuteMovesDayXZ(b *testing.B) {
	if testing.Short() {
		b.Skip("the 24-hour archive is about 424 MB")
	}
	a, err := pcparchive.Open(CachedXZ(b, Day))
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	k := Day.Records / 2
	seekOn(b, a, Day, k)
	i := 0
	for b.Loop() {
		seekOn(b, a, Day, k+[]int{-60, 60, -120, 30}[i%4])
		i++
	}
	b.ReportMetric(float64(a.Decompressed())/float64(b.N+1)/(1<<20), "MiB-decoded/move")
}
