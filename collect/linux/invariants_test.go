package linux

// Arithmetic across datums and state kept from start-up must never show a wrong number as valid
// (issue 29): a fixture tree rewritten between readings, read through the real providers and the
// real sampler (which registers a supplier's classes again when it re-initialises).

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dcimon/collect"
	ns "dcimon/namespace"
)

// samplerTree is a private copy of testdata/basic/t0 read by a real sampler whose clock the test
// moves; the test writes the files it is about whole.
type samplerTree struct {
	t   *testing.T
	dir string
	now time.Time
	s   *collect.Sampler
	snp *ns.Snapshot
	up  time.Duration // /proc/uptime, the clock a tree's disk times are measured by
}

func newSamplerTree(t *testing.T) *samplerTree {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "basic", "t0"))); err != nil {
		t.Fatal(err)
	}
	st := &samplerTree{t: t, dir: dir}
	provs := Providers(Options{Procfs: filepath.Join(dir, "proc"), Sysfs: filepath.Join(dir, "sys")})
	pointAt(t, provs, dir)
	st.now = treeTime(t, dir)
	for _, p := range provs {
		baseOf(t, p).now = func() time.Time { return st.now }
	}
	s, err := collect.NewSampler(ns.NewRegistry(), provs, collect.Options{Now: func() time.Time { return st.now }})
	if err != nil {
		t.Fatal(err)
	}
	st.s = s
	return st
}

// write replaces file rel of the tree.
func (st *samplerTree) write(rel, text string) {
	st.t.Helper()
	if err := os.WriteFile(filepath.Join(st.dir, rel), []byte(text), 0o644); err != nil {
		st.t.Fatal(err)
	}
}

// stat writes /proc/stat with the given cpu lines (ticks: user nice system idle iowait irq
// softirq steal guest guest_nice), the totals their sum unless total is given.
func (st *samplerTree) stat(total string, cpus ...[10]uint64) {
	st.t.Helper()
	var sum [10]uint64
	var b strings.Builder
	for i, c := range cpus {
		for k := range c {
			sum[k] += c[k]
		}
		fmt.Fprintf(&b, "cpu%d %s\n", i, tickText(c))
	}
	if total == "" {
		total = tickText(sum)
	}
	st.write("proc/stat", "cpu  "+total+"\n"+b.String()+"intr 1\nctxt 100\nbtime 1765000000\nprocesses 10\nprocs_running 1\nprocs_blocked 0\n")
}

func tickText(c [10]uint64) string {
	f := make([]string, len(c))
	for k, v := range c {
		f[k] = fmt.Sprint(v)
	}
	return strings.Join(f, " ")
}

// step moves the clock on by dt and takes a reading of every class.
func (st *samplerTree) step(dt time.Duration) {
	st.t.Helper()
	st.now = st.now.Add(dt)
	st.up += dt
	st.write("proc/uptime", fmt.Sprintf("%.2f %.2f\n", 500+st.up.Seconds(), 900+st.up.Seconds()))
	st.s.Refresh()
	snap, err := st.s.Sample(context.Background())
	if err != nil {
		st.t.Fatal(err)
	}
	st.snp = snap
}

// value is a statistic of the latest reading, and its datum.
func (st *samplerTree) value(path string) (ns.Value, *ns.Datum) {
	st.t.Helper()
	ref, err := st.s.Registry().Lookup(nil, path)
	if err != nil {
		st.t.Fatalf("%s: %v", path, err)
	}
	v, _, _ := st.snp.Lookup(ref)
	return v, ref.Datum
}

// share is a time counter's value as the monitor shows it: its rate as a share of its datum's
// Share, in percent.
func (st *samplerTree) share(path string) (float64, ns.Value) {
	st.t.Helper()
	v, d := st.value(path)
	return v.V / (10 * d.ShareOrOne()), v
}

// proc is a processor's ticks: user, and idle making up the rest of 100 ticks a second.
func proc(user, idle uint64) [10]uint64 { return [10]uint64{user, 0, 0, idle} }

// twoProcessorTree is a sampler tree of two processors at 1000 ticks of user and 1000 of idle,
// after its first reading.
func twoProcessorTree(t *testing.T) *samplerTree {
	t.Helper()
	st := newSamplerTree(t)
	st.stat("", proc(1000, 1000), proc(1000, 1000))
	st.step(time.Second)
	return st
}

// TestCPUTotalsFollowProcessorsPresent: the totals are over the processors the kernel lists now,
// not those of start-up (issue 29 item 1).
func TestCPUTotalsFollowProcessorsPresent(t *testing.T) {
	t.Parallel()
	t.Run("a processor hot-plugged", func(t *testing.T) {
		st := twoProcessorTree(t)
		st.stat("", proc(1050, 1050), proc(1050, 1050))
		st.step(time.Second)
		if pct, v := st.share("CPU/user"); v.State != ns.Valid || pct < 49.9 || pct > 50.1 {
			t.Fatalf("two processors at 50%% user: CPU/user %.1f%% (%s)", pct, show(v))
		}
		// cpu2 comes on line: the totals are declared again for three processors, and no rate
		// is taken across the change.
		st.stat("", proc(1100, 1100), proc(1100, 1100), proc(0, 0))
		st.step(time.Second)
		if _, v := st.share("CPU/user"); v.State == ns.Valid {
			t.Errorf("a rate across the change of processors: %+v", v)
		}
		st.stat("", proc(1150, 1150), proc(1150, 1150), proc(50, 50))
		st.step(time.Second)
		if pct, v := st.share("CPU/user"); v.State != ns.Valid || pct < 49.9 || pct > 50.1 {
			t.Errorf("three processors at 50%% user: CPU/user %.1f%% (%s), want 50%%", pct, show(v))
		}
		if v, _ := st.value("CPU/ncpu"); v.N != 3 {
			t.Errorf("ncpu = %d, want 3", v.N)
		}
	})
	t.Run("a processor taken off-line", func(t *testing.T) {
		st := twoProcessorTree(t)
		st.stat("", proc(1000, 1100))
		st.step(time.Second)
		st.stat("", proc(1100, 1100))
		st.step(time.Second)
		if pct, v := st.share("CPU/user"); v.State != ns.Valid || pct < 99.9 || pct > 100.1 {
			t.Errorf("the one processor left at 100%% user: CPU/user %.1f%% (%s), want 100%%", pct, show(v))
		}
		if pct, v := st.share("CPU/busy_ms"); v.State != ns.Valid || pct < 99.9 {
			t.Errorf("busy_ms %.1f%% (%s)", pct, show(v))
		}
	})
}

// TestCPUPartsWithinElapsed: a processor's parts add up to at most the time elapsed, plus a tick;
// a reading that claims more is an error, in the totals too (issue 29 item 2).
func TestCPUPartsWithinElapsed(t *testing.T) {
	t.Parallel()
	st := twoProcessorTree(t)
	// cpu0 claims 1.5 s of user time in 1 s; cpu1 0.5 s of user and 0.5 s of idle: the totals
	// say 3 s of time in 1 s on 2 processors.
	st.stat("", proc(1150, 1000), proc(1050, 1050))
	st.step(time.Second)
	for _, p := range []string{"CPU/cpu0/user", "CPU/user", "CPU/idle"} {
		if v, _ := st.value(p); v.State == ns.Valid {
			t.Errorf("%s valid: %+v", p, v)
		}
	}
	if v, _ := st.value("CPU/user"); v.Reason != ns.ReasonBeyondElapsed {
		t.Errorf("CPU/user: %s, want the invariant named", show(v))
	}
	if v, _ := st.value("CPU/busy"); v.State == ns.Valid {
		t.Errorf("CPU/busy valid from parts that cannot all be true: %+v", v)
	}
	// cpu1 alone is coherent and keeps its rates.
	if pct, v := st.share("CPU/cpu1/user"); v.State != ns.Valid || pct < 49.9 || pct > 50.1 {
		t.Errorf("cpu1 user %.1f%% (%s)", pct, show(v))
	}
	// Slack for when readings are taken (namespace.TickSlack, PartSlack): 103 ticks in 1 s is
	// a reading taken between two ticks, not an error; 107 is.
	st.stat("", proc(1203, 1050), proc(1100, 1100))
	st.step(time.Second)
	if v, _ := st.value("CPU/cpu0/user"); v.State != ns.Valid {
		t.Errorf("three ticks over: %s", show(v))
	}
	st.stat("", proc(1260, 1100), proc(1150, 1150))
	st.step(time.Second)
	if v, _ := st.value("CPU/cpu0/user"); v.Reason != ns.ReasonBeyondElapsed {
		t.Errorf("seven ticks over: %s", show(v))
	}
}

// TestProcStatDamage: a /proc/stat cut short or with a line that cannot be read gives errors,
// never a processor gone or a value "not supported" (issue 29 item 6).
func TestProcStatDamage(t *testing.T) {
	t.Parallel()
	t.Run("cut inside the cpu lines", func(t *testing.T) {
		st := twoProcessorTree(t)
		st.write("proc/stat", "cpu  2100 0 0 2100 0 0 0 0 0 0\ncpu0 1050 0 0 1050 0 0 0 0 0 0\n")
		st.step(time.Second)
		if v, _ := st.value("CPU/cpu1/user"); v.Reason == ns.ReasonRemoved || v.State == ns.Valid {
			t.Errorf("cpu1 in a file cut short: %s, want an error", show(v))
		}
		if v, _ := st.value("CPU/ncpu"); v.State == ns.Valid {
			t.Errorf("ncpu of a file cut short is valid: %d", v.N)
		}
		if v, _ := st.value("CPU/cpu0/user"); v.State != ns.Valid {
			t.Errorf("cpu0, read whole: %s", show(v))
		}
	})
	t.Run("a totals line that is not numbers", func(t *testing.T) {
		st := twoProcessorTree(t)
		st.stat("85x5 0 0 2100 0 0 0 0 0 0", proc(1050, 1050), proc(1050, 1050))
		st.step(time.Second)
		v, _ := st.value("CPU/user")
		if v.State == ns.Valid || v.Reason == ns.ReasonNotSupported {
			t.Errorf("CPU/user from \"cpu  85x5\": %s, want an error", show(v))
		}
	})
}

// TestMemUsedWithinTotal: used is never larger than the total, and the total is read at every
// reading (a balloon), issue 29 items 3 and 4.
func TestMemUsedWithinTotal(t *testing.T) {
	t.Parallel()
	st := newSamplerTree(t)
	mem := func(total, avail uint64) {
		st.write("proc/meminfo", fmt.Sprintf("MemTotal: %d kB\nMemFree: %d kB\nMemAvailable: %d kB\nBuffers: 0 kB\nCached: 0 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n", total, avail, avail))
	}
	mem(24684096, 12000000)
	st.step(time.Second)
	// A memory balloon takes the total from 24.7 GB to 12 GB.
	mem(12000000, 11000000)
	st.step(time.Second)
	if v, _ := st.value("Mem/Real/used"); v.State != ns.Valid || v.V != 1000000*1024 {
		t.Errorf("used after the balloon: %.0f (%s), want %d", v.V, show(v), 1000000*1024)
	}
	if v, _ := st.value("Mem/Real/%used"); v.State != ns.Valid || v.V < 0.0833 || v.V > 0.0834 {
		t.Errorf("%%used after the balloon: %.4f (%s), want 0.0833", v.V, show(v))
	}
	// MemAvailable above MemTotal: no negative size, no negative share.
	mem(12000000, 17000000)
	st.step(time.Second)
	if v, _ := st.value("Mem/Real/used"); v.State == ns.Valid || v.Reason != ns.ReasonUsedAboveTotal {
		t.Errorf("used with avail > total: %.0f (%s), want the invariant named", v.V, show(v))
	}
	if v, _ := st.value("Mem/Real/%used"); v.State == ns.Valid {
		t.Errorf("%%used with avail > total: %.3f valid", v.V)
	}
}

// TestDiskstatsLineCut: a /proc/diskstats line cut mid-number to 11 statistics, after readings
// of 17, is an error, and the reading after it has no rate across it, never a spike of
// weighted_ms or aqu_sz (issue 29 item 5).
func TestDiskstatsLineCut(t *testing.T) {
	t.Parallel()
	st := newSamplerTree(t)
	line := func(weighted uint64, stats int) string {
		v := []uint64{26394, 5193, 1334218, 43112, 2177, 20062, 952952, 3620, 0, 10200, weighted, 5033, 47, 145088, 445, 9, 0}
		return " 254       0 vda " + tickText([10]uint64(v[:10])) + " " + strings.Trim(fmt.Sprint(v[10:stats]), "[]") + "\n"
	}
	st.write("proc/diskstats", line(47179, 17))
	st.step(time.Second)
	st.write("proc/diskstats", line(47279, 17))
	st.step(time.Second)
	if v, _ := st.value("Disk/vda/aqu_sz"); v.State != ns.Valid {
		t.Fatalf("aqu_sz of whole lines: %s", show(v))
	}
	// The line is cut inside weighted_ms (47379 → 47), after its 11th statistic.
	st.write("proc/diskstats", strings.Replace(line(47379, 11), "47379", "47", 1))
	st.step(time.Second)
	for _, p := range []string{"Disk/vda/weighted_ms", "Disk/vda/aqu_sz", "Disk/vda/reads"} {
		if v, _ := st.value(p); v.State == ns.Valid {
			t.Errorf("%s from a line cut short: %.1f valid", p, v.V)
		}
	}
	st.write("proc/diskstats", line(47479, 17))
	st.step(time.Second)
	if v, _ := st.value("Disk/vda/aqu_sz"); v.State == ns.Valid && v.V > 1 {
		t.Errorf("aqu_sz after the cut line: %.1f, a spike", v.V)
	}
}

// TestCPUSharesSumTo100: mpstat's shares are each part's ticks over the ticks counted in every
// part, so a processor's add up to 100 even when a reading lands late and counts 102 ticks in a
// second, where shares of the wall clock add up to 102 (issue 32 item 6; DCI-DER-2, DCI-DER-4:
// each share is a PERCENT of interval deltas).
func TestCPUSharesSumTo100(t *testing.T) {
	t.Parallel()
	st := newSamplerTree(t)
	// user nice system idle iowait irq softirq steal guest guest_nice
	st.stat("", [10]uint64{1000, 100, 300, 5000, 50, 10, 20, 5, 200, 30}, proc(1000, 1000))
	st.step(time.Second)
	// cpu0 counts 102 ticks in the second: 40 user (10 of them guest), 6 nice (2 guest_nice),
	// 12 system, 30 idle, 5 iowait, 2 irq, 4 softirq, 3 steal.
	st.stat("", [10]uint64{1040, 106, 312, 5030, 55, 12, 24, 8, 210, 32}, proc(1050, 1050))
	st.step(time.Second)
	for _, inst := range []string{"CPU/cpu0/", "CPU/cpu1/", "CPU/"} {
		sum, wall := 0.0, 0.0
		for _, n := range []string{"%usr", "%nice", "%sys", "%iowait", "%irq", "%soft", "%steal", "%guest", "%gnice", "%idle"} {
			v, _ := st.value(inst + n)
			if v.State != ns.Valid {
				t.Fatalf("%s%s: %s", inst, n, show(v))
			}
			sum += v.V
		}
		for _, n := range []string{"user", "nice", "kern", "idle", "wait", "irq", "softirq", "steal"} {
			pct, _ := st.share(inst + n)
			wall += pct
		}
		if sum < 1-1e-12 || sum > 1+1e-12 {
			t.Errorf("%s shares add up to %.6f%%, want 100%%", inst, 100*sum)
		}
		if inst == "CPU/cpu0/" && (wall < 101.9 || wall > 102.1) {
			t.Errorf("cpu0's shares of the wall clock add up to %.2f%%, want 102%% (the case this is about)", wall)
		}
	}
	// Guest time is inside user and nice, and mpstat shows it apart: %usr is (40-10)/102.
	for n, want := range map[string]float64{"%usr": 30.0 / 102, "%nice": 4.0 / 102, "%guest": 10.0 / 102, "%gnice": 2.0 / 102, "%idle": 30.0 / 102} {
		if v, _ := st.value("CPU/cpu0/" + n); v.V < want-1e-9 || v.V > want+1e-9 {
			t.Errorf("cpu0 %s = %.5f, want %.5f", n, v.V, want)
		}
	}
	// busy is the share of every part but idle and iowait: the same denominator.
	busy, _ := st.value("CPU/cpu0/busy")
	if want := 67.0 / 102; busy.V < want-1e-9 || busy.V > want+1e-9 {
		t.Errorf("cpu0 busy = %.5f, want %.5f", busy.V, want)
	}
}
