package linux

// Wrong numbers a hostile or corrupt /proc must never produce (issue 21 items 2 and 3), read
// through the real providers from a fixture tree rewritten between collections.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	ns "dcimon/namespace"
)

// rewriteTree is a private copy of testdata/<scenario>/t0 whose files a test rewrites, read by
// host providers whose clock the test moves.
type rewriteTree struct {
	t    *testing.T
	dir  string
	now  time.Time
	h    *collecttest.Harness
	orig map[string]string
}

func newRewriteTree(t *testing.T, scenario string, dirs ...string) *rewriteTree {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", scenario, "t0"))); err != nil {
		t.Fatal(err)
	}
	// Directories the tree has from the start (the providers look for some when they are made).
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	rt := &rewriteTree{t: t, dir: dir, orig: map[string]string{}}
	provs := Providers(Options{Procfs: filepath.Join(dir, "proc"), Sysfs: filepath.Join(dir, "sys")})
	pointAt(t, provs, dir)
	rt.now = treeTime(t, dir)
	for _, p := range provs {
		baseOf(t, p).now = func() time.Time { return rt.now }
	}
	rt.h = collecttest.NewHarness(t, provs)
	return rt
}

// replace rewrites file rel (relative to the tree) with old replaced by new in its original text.
func (rt *rewriteTree) replace(rel, old, new string) {
	rt.t.Helper()
	p := filepath.Join(rt.dir, rel)
	orig, ok := rt.orig[rel]
	if !ok {
		b, err := os.ReadFile(p)
		if err != nil {
			rt.t.Fatal(err)
		}
		orig = string(b)
		rt.orig[rel] = orig
	}
	if !strings.Contains(orig, old) {
		rt.t.Fatalf("%s has no %q", rel, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(orig, old, new, 1)), 0o644); err != nil {
		rt.t.Fatal(err)
	}
}

// step advances the clock by dt and collects everything.
func (rt *rewriteTree) step(dt time.Duration) {
	rt.now = rt.now.Add(dt)
	rt.h.Step(collect.Request{Static: true, Variable: true})
}

func show(v ns.Value) string {
	if v.State == ns.Valid {
		return "valid"
	}
	return v.State.String() + ": " + v.Reason.String()
}

func TestImpossibleJumps(t *testing.T) {
	t.Parallel()
	// X-3, issue 21 item 2: a rise no hardware makes is "—" with the reason, never a rate:
	// 500 → 18446744073709551000 reads in 1 s, 1500 → 4294967000 reads, one processor busy
	// 1.5 s in 1 s; the next ordinary rise is a rate again.
	rt := newRewriteTree(t, "basic")
	rt.replace("proc/diskstats", "vda 26394 ", "vda 500 ")
	rt.replace("proc/stat", "cpu0 4157 ", "cpu0 4157 ")
	rt.step(0)
	steps := []struct {
		reads, cpu0user string
		wantReads       string
		wantUser        string
	}{
		{"1500", "4200", "valid", "valid"},
		{"4294967000", "4200", "no rate: counter jumped further than the hardware can", "valid"},
		{"4294968000", "4350", "valid", "no rate: counter jumped further than the hardware can"}, // 150 ticks = 1.5 s
		{"18446744073709551000", "4400", "no rate: counter jumped further than the hardware can", "valid"},
	}
	for i, st := range steps {
		rt.replace("proc/diskstats", "vda 26394 ", "vda "+st.reads+" ")
		rt.replace("proc/stat", "cpu0 4157 ", "cpu0 "+st.cpu0user+" ")
		rt.step(time.Second)
		if got := show(rt.h.Value("Disk/vda/reads")); got != st.wantReads {
			t.Errorf("step %d reads %s: %s, want %s", i, st.reads, got, st.wantReads)
		}
		if got := show(rt.h.Value("CPU/cpu0/user")); got != st.wantUser {
			t.Errorf("step %d cpu0 user %s: %s, want %s", i, st.cpu0user, got, st.wantUser)
		}
	}
}

func TestOverflowingReadings(t *testing.T) {
	t.Parallel()
	// X-5, issue 21 item 3: a value that does not fit its type, or is impossible for its datum,
	// is n/a with the reason: never 1969, 1970-01-01 00:00:17, 4.29G procs or a wrapped CPU time.
	tests := []struct {
		rel, old, new string
		path          string
		want          string
	}{
		{"proc/stat", "btime 1795224670", "btime 18446744073709551615", "Host/boottime", "unavailable: implausible value"},
		{"proc/stat", "btime 1795224670", "btime 17", "Host/boottime", "unavailable: implausible value"},
		{"proc/stat", "procs_running 1", "procs_running 18446744073709551615", "Host/running", "invalid: value does not fit its type"},
		{"proc/stat", "cpu0 4157 ", "cpu0 18446744073709551615 ", "CPU/cpu0/user", "unavailable: value does not fit its type"},
		{"sys/class/net/lo/mtu", "65536", "18446744073709551615", "NetIf/lo/mtu", "invalid: value does not fit its type"},
		{"proc/stat", "btime 1795224670", "btime 1795224670", "Host/boottime", "valid"},
	}
	for _, tt := range tests {
		t.Run(tt.path+"="+tt.new, func(t *testing.T) {
			t.Parallel()
			rt := newRewriteTree(t, "basic")
			rt.replace(tt.rel, tt.old, tt.new)
			rt.step(0)
			if got := show(rt.h.Value(tt.path)); got != tt.want {
				t.Errorf("%s: %s, want %s", tt.path, got, tt.want)
			}
		})
	}
}

// DCI4-DESC-3, X-10 (issue 20 item 1): link state is SV_VOLATILE, read at every collection, so an
// interface taken down shows so at the next reading, not five minutes later; the MTU, which is
// SV_VARIABLE, waits for variable data to be due (or an explicit refresh).
func TestLinkStateIsCurrent(t *testing.T) {
	t.Parallel()
	rt := newRewriteTree(t, "basic")
	rt.step(0)
	look := func(p string) ns.Value { t.Helper(); return rt.h.Value(p) }
	if v := look("NetIf/eth0/running"); v.State != ns.Valid || v.N != 1 {
		t.Fatalf("eth0 running at start: %+v", v)
	}
	mtu := look("NetIf/eth0/mtu").N
	rt.replace("sys/class/net/eth0/operstate", "up", "down")
	rt.replace("sys/class/net/eth0/mtu", "1400", "9000")
	rt.now = rt.now.Add(time.Second)
	rt.h.Step(collect.Request{}) // an ordinary tick: neither static nor variable data due
	if v := look("NetIf/eth0/running"); v.State != ns.Valid || v.N != 0 {
		t.Errorf("eth0 taken down: running %+v, want 0 at once", v)
	}
	if v := look("NetIf/eth0/mtu"); v.State == ns.Valid && v.N != mtu {
		t.Errorf("mtu %d read at an ordinary tick; SV_VARIABLE waits", v.N)
	}
	rt.now = rt.now.Add(time.Second)
	rt.h.Step(collect.Request{Variable: true}) // due, or the refresh key
	if v := look("NetIf/eth0/mtu"); v.State != ns.Valid || v.N != 9000 {
		t.Errorf("mtu after a variable read: %+v, want 9000", v)
	}
}
