package dds

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
	"dcimon/supply"
)

// ddsHarness is a sampler whose only suppliers are a suppliers directory's.
type ddsHarness struct {
	t     testing.TB
	dir   string
	clock *collecttest.FakeClock
	s     *collect.Sampler
	dds   *DDS
	snap  *ns.Snapshot
	mtime time.Time
}

func newDDSHarness(t testing.TB, liveness time.Duration) *ddsHarness {
	t.Helper()
	h := &ddsHarness{t: t, dir: t.TempDir(), clock: &collecttest.FakeClock{T: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)},
		mtime: time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)}
	h.dds = New(Options{Dirs: []string{h.dir}, Timeout: 2 * time.Second})
	s, err := collect.NewSampler(ns.NewRegistry(), nil, collect.Options{Now: h.clock.Now, Liveness: liveness, Discover: h.dds, DiscoverEvery: time.Second, Deadline: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	h.s = s
	return h
}

// write puts a supplier file in place with a modification time a step after the last one, as a
// writer that rewrites it each interval would.
func (h *ddsHarness) write(name, text string, step time.Duration) {
	h.t.Helper()
	p := filepath.Join(h.dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		h.t.Fatal(err)
	}
	h.mtime = h.mtime.Add(step)
	if err := os.Chtimes(p, h.mtime, h.mtime); err != nil {
		h.t.Fatal(err)
	}
}

func (h *ddsHarness) tick(d time.Duration) *ns.Snapshot {
	h.t.Helper()
	h.snap = collecttest.Tick(h.t.(*testing.T), h.s, h.clock, d)
	return h.snap
}

func (h *ddsHarness) value(path string) ns.Value {
	h.t.Helper()
	return collecttest.Value(h.t.(*testing.T), h.s, h.snap, path)
}

func (h *ddsHarness) exists(path string) bool {
	_, err := h.s.Registry().Lookup(nil, path)
	return err == nil
}

func (h *ddsHarness) events(kind ns.EventKind) []string {
	var out []string
	for _, e := range h.s.Events().Events() {
		if e.Kind == kind {
			out = append(out, e.Text)
		}
	}
	return out
}

const acmeText = `# DCIMON vendor=acme
# HELP queue_depth Messages waiting in each queue.
# TYPE queue_depth gauge
queue_depth{queue="mail"} 12
queue_depth{queue="jobs"} 3
# HELP jobs_done_total Jobs finished.
# TYPE jobs_done_total counter
jobs_done_total 1000
# HELP latency_seconds Time to serve a job.
# TYPE latency_seconds summary
latency_seconds_sum 2.5
latency_seconds_count 10
# PCP5 acme.cache.size 99.1.1 u64 PM_INDOM_NULL instant Kbyte
# HELP cache_size Cache in use.
# TYPE cache_size gauge
cache_size 2048
ratio 0.25
`

func TestDDSFileMapsFamiliesToClasses(t *testing.T) {
	h := newDDSHarness(t, 0)
	h.write("acme.prom", acmeText, 0)
	h.tick(time.Second)
	// SPMI-DDS-1: statistics only in subcontexts of DDS/<vendor>.
	for _, p := range []string{"DDS/acme/queue_depth/mail/value", "DDS/acme/queue_depth/jobs/value",
		"DDS/acme/jobs_done_total/value", "DDS/acme/latency_seconds/mean", "DDS/acme/cache_size/value", "DDS/acme/ratio/value"} {
		if !h.exists(p) {
			t.Errorf("%s is not in the name space", p)
		}
	}
	if v := h.value("DDS/acme/queue_depth/mail/value"); v.State != ns.Valid || v.V != 12 {
		t.Errorf("queue_depth{mail} = %+v, want 12", v)
	}
	ref, _ := h.s.Registry().Lookup(nil, "DDS/acme/cache_size/value")
	if d := ref.Datum; d.Units != ns.UnitKBytes || d.PCP.Name != "acme.cache.size" || d.Desc != "Cache in use." {
		t.Errorf("cache_size: units %v, pcp name %q, desc %q; want Kbytes from the # PCP5 line", d.Units, d.PCP.Name, d.Desc)
	}
	// A family with decimals is kept in millionths (AMB-30: no floating point in DCI data).
	ref, _ = h.s.Registry().Lookup(nil, "DDS/acme/ratio/value")
	if d := ref.Datum; d.Units != ns.UnitMicroUnits || !strings.Contains(d.Help, "No # TYPE") {
		t.Errorf("ratio: units %v help %q, want DCIMON_MICRO and a quantity with unspecified units", d.Units, d.Help)
	}
	if v := h.value("DDS/acme/ratio/value"); v.N != 250000 {
		t.Errorf("ratio raw = %d, want 250000 millionths", v.N)
	}
	// seconds with decimals: milliseconds.
	ref, _ = h.s.Registry().Lookup(nil, "DDS/acme/latency_seconds/sum")
	if ref.Datum.Units != ns.UnitMillisecs {
		t.Errorf("latency sum units %v, want milliseconds (2.5 s is 2500 ms)", ref.Datum.Units)
	}
	// SPMI-ASN-4: DDS is 99, and a vendor with no enterprise number gets one of 32768..65535.
	ref, _ = h.s.Registry().Lookup(nil, "DDS/acme")
	if a := ref.Ctx.ASN; a < 32768 {
		t.Errorf("DDS/acme ASN %d, want 32768..65535", a)
	}

	// The writer rewrites the file 10 s later: the counter's rate uses the file's own times.
	h.write("acme.prom", strings.Replace(acmeText, "jobs_done_total 1000", "jobs_done_total 1500", 1), 10*time.Second)
	h.tick(time.Second)
	if v := h.value("DDS/acme/jobs_done_total/value"); v.State != ns.Valid || v.V != 50 {
		t.Errorf("jobs_done_total rate = %+v, want 50/s (500 over the file's 10 s)", v)
	}
	// The mean of a summary is its sum per observation over the interval.
	h.write("acme.prom", strings.NewReplacer("latency_seconds_sum 2.5", "latency_seconds_sum 4.5",
		"latency_seconds_count 10", "latency_seconds_count 14").Replace(acmeText), 10*time.Second)
	h.tick(time.Second)
	if v := h.value("DDS/acme/latency_seconds/mean"); v.State != ns.Valid || v.V != 500 {
		t.Errorf("latency mean = %+v, want 500 ms per observation (2 s over 4)", v)
	}
}

// SPMI-DDS-2: two suppliers naming one vendor share its context; one statistic twice is
// SiDuplicate (193), and the second supplier's other statistics are unaffected.
func TestDDSVendorSharedDuplicateRefused(t *testing.T) {
	h := newDDSHarness(t, 0)
	h.write("a.prom", "# DCIMON vendor=acme\nqueue_depth 1\nup 1\n", 0)
	h.write("b.prom", "# DCIMON vendor=acme\nqueue_depth 2\nusers 7\n", 0)
	h.tick(time.Second)
	if !h.exists("DDS/acme/up/value") || !h.exists("DDS/acme/users/value") {
		t.Fatal("both suppliers' statistics should be under the one DDS/acme")
	}
	if v := h.value("DDS/acme/queue_depth/value"); v.V != 1 {
		t.Errorf("queue_depth = %v, want the first supplier's 1", v.V)
	}
	dup := strings.Join(h.events(ns.EvProviderError), "\n")
	if !strings.Contains(dup, "SiDuplicate (193)") || !strings.Contains(dup, "dds:b.prom") {
		t.Errorf("no SiDuplicate event for b.prom's queue_depth: %q", dup)
	}
	// Issue 33 item 8: each of the two says the clash, not only the one refused.
	h.tick(2 * time.Second) // the next discovery sees both suppliers' families
	for _, c := range []struct{ file, other string }{{"a.prom", "dds:b.prom"}, {"b.prom", "dds:a.prom"}} {
		w := h.dds.sups[filepath.Join(h.dir, c.file)].Warning()
		if w == nil || !strings.Contains(w.Error(), "SiDuplicate (193): family queue_depth of DDS/acme is also given by "+c.other) {
			t.Errorf("%s: warning %v, want the clash with %s", c.file, w, c.other)
		}
	}
	if w := h.dds.sups[filepath.Join(h.dir, "a.prom")].Warning(); w != nil && strings.Contains(w.Error(), "users") {
		t.Errorf("a.prom warned of b.prom's users, which it does not give: %v", w)
	}
	// The first supplier goes: DDS/acme stays for the second, whose queue_depth is now taken.
	if err := os.Remove(filepath.Join(h.dir, "a.prom")); err != nil {
		t.Fatal(err)
	}
	h.tick(2 * time.Second)
	h.tick(time.Second)
	if h.exists("DDS/acme/up") || !h.exists("DDS/acme/users") {
		t.Error("a.prom's statistics should have gone and b.prom's stayed")
	}
	if v := h.value("DDS/acme/queue_depth/value"); v.V != 2 {
		t.Errorf("queue_depth = %+v, want b.prom's 2 once a.prom has gone", v)
	}
	if err := os.Remove(filepath.Join(h.dir, "b.prom")); err != nil {
		t.Fatal(err)
	}
	h.tick(2 * time.Second)
	if h.exists("DDS") {
		t.Error("DDS should go with the last supplier")
	}
}

// SPMI-DDS-1: a statistic directly in DDS/<vendor> is refused; in a subcontext it is accepted.
func TestDDSStatisticsOnlyInSubcontexts(t *testing.T) {
	reg := ns.NewRegistry()
	top := &ns.Class{ID: ns.ClassID{99}, Name: "DDS", Desc: "d", Flags: ns.ClassEnabled}
	vendor := &ns.Class{ID: ns.ClassID{99, 2}, Name: "Acme", Desc: "d", Flags: ns.ClassEnabled}
	for _, c := range []*ns.Class{top, vendor} {
		if err := reg.RegisterClass(c); err != nil {
			t.Fatal(err)
		}
	}
	stat := func(id ns.ClassID) *ns.Class {
		return &ns.Class{ID: id, Name: "Test", Desc: "d", Flags: ns.ClassEnabled, Levels: schema.SingleLevel(),
			Datums: []ns.Datum{ns.Gauge(1, "gadgets", ns.TypeInt8, ns.UnitCount, "Fake counter value", "test")}}
	}
	if err := reg.RegisterClass(stat(ns.ClassID{99, 3})); err == nil || !strings.Contains(err.Error(), "SPMI-DDS-1") {
		t.Errorf("statistics directly in DDS/<vendor>: err %v, want SPMI-DDS-1", err)
	}
	if err := reg.RegisterClass(stat(ns.ClassID{99, 2, 1})); err != nil {
		t.Errorf("DDS/Acme/Test: %v", err)
	}
	if _, err := reg.Lookup(nil, "DDS/Acme/Test/gadgets"); err != nil {
		t.Error(err)
	}
}

// SPMI-DDS-4: a file that stops changing is assumed dead after the liveness timeout (not
// before): its contexts go with SiAssumedDead, and come back when it changes again.
func TestDDSLiveness(t *testing.T) {
	h := newDDSHarness(t, 30*time.Second)
	h.write("acme.prom", "queue_depth{queue=\"a\"} 1\n", 0)
	h.tick(time.Second)
	h.tick(29 * time.Second)
	if !h.exists("DDS/acme/queue_depth/a") {
		t.Fatal("removed before the timeout")
	}
	h.tick(2 * time.Second)
	if h.exists("DDS/acme") {
		t.Fatal("DDS/acme still there 31 s after the file last changed")
	}
	if ev := h.events(ns.EvSupplierDead); len(ev) != 1 || !strings.Contains(ev[0], "SiAssumedDead (183)") {
		t.Errorf("dead events %q", ev)
	}
	h.write("acme.prom", "queue_depth{queue=\"a\"} 5\n", 40*time.Second)
	h.tick(time.Second)
	if v := h.value("DDS/acme/queue_depth/a/value"); v.V != 5 {
		t.Errorf("after the file changed: %+v, want 5", v)
	}

	// With the timeout 0 nothing is ever removed.
	h0 := newDDSHarness(t, 0)
	h0.write("acme.prom", "up 1\n", 0)
	h0.tick(time.Second)
	h0.tick(10 * time.Minute)
	if !h0.exists("DDS/acme/up/value") {
		t.Error("removed with liveness 0")
	}
}

// SPMI-DDS-5: the monitor tells a supplier to go away; its subtree is removed and it is not read
// again until it changes. A built-in supplier cannot be sent away.
func TestDDSGoAway(t *testing.T) {
	h := newDDSHarness(t, 0)
	h.write("acme.prom", "up 1\n", 0)
	h.tick(time.Second)
	if err := h.s.GoAway("dds:acme.prom"); err != nil {
		t.Fatal(err)
	}
	if h.exists("DDS") {
		t.Error("DDS still there after go-away")
	}
	h.tick(5 * time.Second)
	if h.exists("DDS") {
		t.Error("found again though unchanged")
	}
	if err := h.s.GoAway("dcimon-monitor"); err == nil {
		t.Error("no supplier named dcimon-monitor should be sent away")
	}
	h.write("acme.prom", "up 2\n", time.Minute)
	h.tick(5 * time.Second)
	if v := h.value("DDS/acme/up/value"); v.V != 2 {
		t.Errorf("after the file changed: %+v", v)
	}
}

// programHarness is newDDSHarness for a test of programs, skipped where there is no /bin/sh to
// write them in.
func programHarness(t *testing.T) *ddsHarness {
	t.Helper()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh to write test programs in")
	}
	return newDDSHarness(t, 0)
}

// writeProgram writes dir/name, a shell script running script, and returns its path.
func writeProgram(t *testing.T, dir, name, script string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// Programs: run without a shell of ours, killed at their deadline; garbage and endless output are
// errors of that supplier alone, with the line.
func TestDDSPrograms(t *testing.T) {
	h := programHarness(t)
	h.dds.opt.Timeout = time.Second
	h.dds.opt.Limits = supply.Limits{MaxBytes: 64 << 10, MaxLine: 4096, MaxSeries: 1000} // forever hits it at once, even under -race
	writeProgram(t, h.dir, "good", "echo '# DCIMON vendor=acme'\necho 'queue_depth{queue=\"q1\"} 4'\n")
	writeProgram(t, h.dir, "hang", "echo 'x 1'\nexec sleep 60\n")
	writeProgram(t, h.dir, "garbage", "echo 'ok 1'\necho 'this is { not text'\n")
	writeProgram(t, h.dir, "forever", "exec yes 'x 1'\n")
	h.write("file.prom", "up 1\n", 0)
	h.tick(time.Second)
	h.tick(time.Second) // the slow ones have hit their deadline by now
	time.Sleep(1300 * time.Millisecond)
	h.tick(time.Second)
	if v := h.value("DDS/acme/queue_depth/q1/value"); v.V != 4 {
		t.Errorf("good program: %+v", v)
	}
	if v := h.value("DDS/file/up/value"); v.V != 1 {
		t.Errorf("file next to failing programs: %+v", v)
	}
	st := map[string]collect.ProviderStatus{}
	for _, p := range h.s.Status() {
		st[p.Supplier.Module] = p
	}
	for mod, want := range map[string]string{"dds:hang": "killed", "dds:garbage": "garbage: text format parsing error in line 2", "dds:forever": "more than"} {
		p := st[mod]
		if p.State != "failing" || p.LastErr == nil || !strings.Contains(p.LastErr.Error(), want) {
			t.Errorf("%s: state %s err %v, want failing with %q", mod, p.State, p.LastErr, want)
		}
	}
}

func TestDDSHostileNames(t *testing.T) {
	h := newDDSHarness(t, 0)
	h.write("evil.prom", "# HELP m \x1b[31mred\x1b[0m help\nm{dev=\"a/b\\n\x1b]0;x\x07\"} 1\n", 0)
	h.tick(time.Second)
	found := false
	h.s.Registry().Walk(func(c *ns.Context, depth int) bool {
		if strings.ContainsAny(c.Name+c.Desc, "\x1b\x07\n") || strings.Contains(c.Name, "/") {
			t.Errorf("raw control character in %q (%q), or a slash in the name", c.Name, c.Desc)
		}
		if strings.HasPrefix(c.Path(), "DDS/evil/m/") {
			found = true
		}
		return true
	})
	if !found {
		t.Error("the hostile series is not in the name space")
	}
}

func TestDDSUnitsFromNamesAndPCP(t *testing.T) {
	for _, c := range []struct {
		fam  supply.Family
		unit ns.Unit
	}{
		{supply.Family{Name: "x_bytes_total", Type: "counter", Series: []supply.Series{{Value: 3}}}, ns.UnitBytes},
		{supply.Family{Name: "x_seconds_total", Type: "counter", Series: []supply.Series{{Value: 3.000001}}}, ns.UnitMicrosecs},
		{supply.Family{Name: "t", Type: "gauge", Unit: "celsius", Series: []supply.Series{{Value: 41.5}}}, ns.UnitMilliCelsius},
		{supply.Family{Name: "n_total", Type: "counter", Series: []supply.Series{{Value: 3}}}, ns.UnitCount},
		{supply.Family{Name: "g", Type: "gauge", Series: []supply.Series{{Value: 3}}}, ns.UnitNone},
		{supply.Family{Name: "p", Type: "gauge", PCP: &supply.PCP5{Units: "millisec"}, Series: []supply.Series{{Value: 1.5}}}, ns.UnitMicrosecs},
		{supply.Family{Name: "r", Type: "gauge", PCP: &supply.PCP5{Units: "Kbyte / sec"}, Series: []supply.Series{{Value: 1}}}, ns.UnitNone},
	} {
		u := refine(unitOf(&c.fam), &c.fam, 0)
		if u.unit != c.unit {
			t.Errorf("%s: unit %v, want %v", c.fam.Name, u.unit, c.unit)
		}
	}
	if u, ok := ns.ParsePMUnits("Kbyte / sec"); !ok || u != (ns.PMUnits{DimSpace: 1, DimTime: -1, ScaleSpace: ns.PMSpaceKByte, ScaleTime: ns.PMTimeSec}) {
		t.Errorf("Kbyte / sec: %+v %v", u, ok)
	}
}

func TestDDSNaNIsNotZero(t *testing.T) {
	h := newDDSHarness(t, 0)
	h.write("acme.prom", "a NaN\nb +Inf\n", 0)
	h.tick(time.Second)
	for _, p := range []string{"DDS/acme/a/value", "DDS/acme/b/value"} {
		if v := h.value(p); v.State != ns.Unavailable || v.Reason != ns.ReasonNotANumber {
			t.Errorf("%s = %+v, want unavailable: not a number", p, v)
		}
	}
}

func TestDDSDiscoverSkipsTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	for name, mode := range map[string]os.FileMode{"a.prom": 0o644, ".a.prom.tmp": 0o644, "b.prom~": 0o644, "README": 0o644, "run": 0o755} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x 1\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	d := New(Options{Dirs: []string{dir, filepath.Join(dir, "missing")}})
	ps, err := d.Discover(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var mods []string
	for _, p := range ps {
		mods = append(mods, p.Supplier().Module)
	}
	if got := strings.Join(mods, " "); got != "dds:a.prom dds:run" {
		t.Errorf("suppliers %q, want dds:a.prom dds:run", got)
	}
}

// Label sets that come and go do not pile up: after many rewrites with new label values the
// family remembers about as many as the text has, and those still there keep their numbers.
func TestDDSLabelChurnBounded(t *testing.T) {
	ids := newDDSIDs()
	vn := ids.vendor("acme", 0)
	fam := func(from int) *supply.Family {
		f := &supply.Family{Name: "req", Type: "gauge", Line: 1}
		f.Series = append(f.Series, supply.Series{Labels: []supply.Label{{Name: "id", Value: "steady"}}, Value: 1})
		for i := from; i < from+10; i++ {
			f.Series = append(f.Series, supply.Series{Labels: []supply.Label{{Name: "id", Value: fmt.Sprint(i)}}, Value: 1})
		}
		return f
	}
	f := fam(0)
	fd := declare(nil, ids, "acme", vn, "x", f, nil)
	fd.learn(f)
	specs, _ := fd.read(f)
	steady := specs[0].Levels[0]
	for i := 1; i < 500; i++ {
		f = fam(i * 10)
		fd.learn(f)
		specs, _ = fd.read(f)
	}
	if n := len(fd.sets); n > 2*len(f.Series)+1024+len(f.Series) {
		t.Errorf("%d label sets remembered for a text of %d", n, len(f.Series))
	}
	if specs[0].Levels[0] != steady {
		t.Errorf("the steady series changed number: %d → %d", steady, specs[0].Levels[0])
	}
}

// SPMI-DDS-6: a program nobody looks at is run only at the slow pace of unsubscribed classes
// (every 5 s), not at every collection.
func TestDDSProgramDemandDriven(t *testing.T) {
	h := programHarness(t)
	runs := filepath.Join(t.TempDir(), "runs")
	writeProgram(t, h.dir, "counted", "echo x >> '"+runs+"'\necho 'up 1'\n")
	h.tick(time.Second)
	self := h.s.Registry().Class(ns.ClassID{90, 1})
	cancel := h.s.Subscribe(self) // someone watches something else
	defer cancel()
	for range 10 {
		time.Sleep(150 * time.Millisecond) // a run takes real time: let each finish
		h.tick(time.Second)
	}
	data, _ := os.ReadFile(runs)
	n := strings.Count(string(data), "x")
	if n < 2 || n > 4 {
		t.Errorf("the program ran %d times in 11 s with nobody watching it, want 2-4 (every 5 s)", n)
	}
	sub := h.s.Registry().Class(h.s.Registry().Classes()[len(h.s.Registry().Classes())-1].ID)
	cancel2 := h.s.Subscribe(sub) // now its statistic is on screen
	defer cancel2()
	before := n
	for range 5 {
		time.Sleep(150 * time.Millisecond)
		h.tick(time.Second)
	}
	data, _ = os.ReadFile(runs)
	if n = strings.Count(string(data), "x"); n-before < 4 {
		t.Errorf("the program ran %d times in 5 s while watched, want 4 or 5", n-before)
	}
}

// A suppliers directory that cannot be read is said once, not at every discovery.
func TestDDSDirectoryErrorSaidOnce(t *testing.T) {
	h := newDDSHarness(t, 0)
	bad := filepath.Join(h.dir, "notadir")
	if err := os.WriteFile(bad, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.dds.opt.Dirs = append(h.dds.opt.Dirs, bad) // ReadDir of a file: an error, not "does not exist"
	for range 5 {
		h.tick(2 * time.Second)
	}
	n := 0
	for _, e := range h.events(ns.EvProviderError) {
		if strings.Contains(e, "finding users' suppliers") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the directory's error was said %d times in 5 discoveries, want once", n)
	}
}

// read is a supplier file's text.
func (h *ddsHarness) read(name string) string {
	h.t.Helper()
	data, err := os.ReadFile(filepath.Join(h.dir, name))
	if err != nil {
		h.t.Fatal(err)
	}
	return string(data)
}
