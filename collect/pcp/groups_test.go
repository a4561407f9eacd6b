package pcp

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/internal/pcptest"
	ns "dcimon/namespace"
)

// multiGroupConf is a pmlogger configuration of several logging groups, as a site's: a once group
// first, context switches every second, disks every three (issue 39 item 1).
const multiGroupConf = `log mandatory on once { hinv.ncpu mem.physmem kernel.uname }
log mandatory on every 1 second { kernel.all.pswitch }
log mandatory on every 3 seconds { disk.dev.read disk.dev.write disk.dev.avactive kernel.all.cpu }
`

// pmlogGroups has a real pmlogger record conf from a pmcd the test starts for span (a pmlogger
// time, "7sec"), and returns the archive's base.
func pmlogGroups(t *testing.T, conf, span string) string {
	t.Helper()
	p := pcptest.Start(t)
	dir := t.TempDir()
	cf := filepath.Join(dir, "config")
	if err := os.WriteFile(cf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "g")
	pcptest.Run(t, "pmlogger", "-h", p.Hostspec(), "-c", cf, "-T", span, "-l", filepath.Join(dir, "log"), base)
	return base
}

// dumped are a metric's records as pmdumplog prints them: its times and, by instance name ("" for
// a singular metric), its raw values.
type dumped struct {
	times []time.Time
	vals  []map[string]float64
}

// pmdumpOf reads metrics' records from pmdumplog, each with its own times.
func pmdumpOf(t *testing.T, base string, metrics ...string) map[string]*dumped {
	t.Helper()
	out := pcptest.Run(t, "pmdumplog", append([]string{"-Z", "UTC", base}, metrics...)...)
	recRe := regexp.MustCompile(`^(\d\d:\d\d:\d\d\.\d+) \d+ metrics?$`)
	valRe := regexp.MustCompile(`^\s+[\d.]+ \(([^)]+)\):(?: inst \[\d+ or "([^"]*)"\])? value (\S+)$`)
	instRe := regexp.MustCompile(`^\s+inst \[\d+ or "([^"]*)"\] value (\S+)$`)
	got := map[string]*dumped{}
	var at time.Time
	var cur *dumped
	for _, line := range strings.Split(out, "\n") {
		if m := recRe.FindStringSubmatch(line); m != nil {
			c, err := time.Parse("15:04:05.000000", m[1])
			if err != nil {
				t.Fatal(err)
			}
			at = c
			continue
		}
		if m := valRe.FindStringSubmatch(line); m != nil {
			d := got[m[1]]
			if d == nil {
				d = &dumped{}
				got[m[1]] = d
			}
			d.times, d.vals = append(d.times, at), append(d.vals, map[string]float64{})
			cur = d
			v, _ := strconv.ParseFloat(m[3], 64)
			d.vals[len(d.vals)-1][m[2]] = v
			continue
		}
		if m := instRe.FindStringSubmatch(line); m != nil && cur != nil {
			v, _ := strconv.ParseFloat(m[2], 64)
			cur.vals[len(cur.vals)-1][m[1]] = v
		}
	}
	return got
}

// ownRate is a counter's rate at the record of time at (to the microsecond, as pmdumplog
// prints), from the metric's own value before it; false when it has none there.
func (d *dumped) ownRate(at time.Time, inst string) (float64, bool) {
	clock := func(t time.Time) string { return t.UTC().Format("15:04:05.000000") }
	for i := 1; i < len(d.times); i++ {
		if clock(d.times[i]) == clock(at) {
			return (d.vals[i][inst] - d.vals[i-1][inst]) / d.times[i].Sub(d.times[i-1]).Seconds(), true
		}
	}
	return 0, false
}

// Issue 39 item 1: an archive of several logging groups (a once group, context switches every
// second, disks every three) replays with each rate over its own metric's interval, compared
// with pmdumplog's records: never 0/s at a record of the other group, never a rate over
// another metric's interval; a statistic not logged at a record keeps its value and time.
func TestMultiGroupArchiveRatesPerMetric(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	base := pmlogGroups(t, multiGroupConf, "10sec")
	dump := pmdumpOf(t, base, "kernel.all.pswitch", "disk.dev.read")
	sw, rd := dump["kernel.all.pswitch"], dump["disk.dev.read"]
	if sw == nil || rd == nil || len(sw.times) < 6 || len(rd.times) < 3 {
		t.Fatalf("pmlogger's archive is short: %+v %+v", sw, rd)
	}
	s, _ := archiveSampler(t, sw.times[0].Add(-time.Hour), true, base)
	reg := s.Registry()
	checked := map[string]int{}
	for range 40 {
		snap, err := s.Sample(context.Background())
		if err != nil {
			break
		}
		for _, c := range []struct {
			path, inst string
			d          *dumped
		}{{"Host/ctxsw", "", sw}, {"Disk/*/reads", "", rd}} {
			refs, err := reg.Glob(c.path)
			if err != nil {
				continue // no disk yet
			}
			for _, ref := range refs {
				v, cv, _ := snap.Lookup(ref)
				if v.State != ns.Valid {
					continue
				}
				inst := c.inst
				if c.d == rd {
					inst = strings.Split(ref.Path(), "/")[1] // Disk/vda/reads: named by PCP's name
				}
				at := cv.TimeOf(cv.Class.DatumIndex(ref.Datum.ID))
				want, ok := c.d.ownRate(at, inst)
				if !ok {
					t.Errorf("%s at %s: %v/s, and pmdumplog has no value of its metric then", ref.Path(), at.UTC().Format("15:04:05.000000"), v.V)
					continue
				}
				if math.Abs(v.V-want) > 1e-9*math.Max(1, math.Abs(want)) {
					t.Errorf("%s at %s = %v/s, pmdumplog's own consecutive values give %v/s", ref.Path(), at.UTC().Format("15:04:05.000000"), v.V, want)
				}
				checked[c.path]++
			}
		}
	}
	if checked["Host/ctxsw"] < 4 || checked["Disk/*/reads"] < 2 {
		t.Errorf("rates compared: %v, want at least 4 context-switch and 2 disk readings", checked)
	}

	// The default time lands where every metric logged more than once has a rate: the disks'
	// second record, past the once group and the first records (it read "interval 0.02 s",
	// every rate "—", no disk).
	s, as := archiveSampler(t, time.Time{}, false, base)
	reg = s.Registry()
	var snap *ns.Snapshot
	var err error
	for range 2 {
		if snap, err = s.Sample(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if !snap.End.Equal(rd.times[1]) && snap.End.UTC().Format("15:04:05.000000") != rd.times[1].Format("15:04:05.000000") {
		t.Errorf("the default reading is at %s, the disks' second record at %s", snap.End.UTC(), rd.times[1])
	}
	for _, p := range []string{"Host/ctxsw", "Disk/*/reads", "Disk/*/busy"} {
		refs, err := reg.Glob(p)
		if err != nil || len(refs) == 0 {
			t.Errorf("%s at the default time: %v", p, err)
			continue
		}
		if v, _, _ := snap.Lookup(refs[0]); v.State != ns.Valid {
			t.Errorf("%s at the default time: %+v, want a rate", refs[0].Path(), v)
		}
	}

	// Just after the first records, before kernel.all.cpu's second: no invented value, either
	// "no rate yet" or "not recorded yet", never 0.0% valid.
	first, _ := as.Span()
	day := first.UTC().Truncate(24 * time.Hour)
	clock := sw.times[0].Sub(sw.times[0].Truncate(24 * time.Hour))
	s, _ = archiveSampler(t, day.Add(clock+time.Millisecond), false, base)
	reg = s.Registry()
	for range 2 {
		if snap, err = s.Sample(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	ref, err := reg.Lookup(nil, "CPU/user")
	if err != nil {
		t.Fatal(err)
	}
	if v, _, _ := snap.Lookup(ref); v.State == ns.Valid {
		t.Errorf("CPU/user just after the first record: %+v, PCP has no rate there", v)
	}

	// The monitor's time cursor: from its opening time, steps forward and a jump back, each
	// reading's rates over their own metrics' intervals.
	s, as = archiveSampler(t, time.Time{}, false, base)
	reg = s.Registry()
	r := collect.NewReplay(s, as, time.Time{})
	compared := 0
	check := func(what string) {
		snap, err := r.Sample(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		for _, c := range []struct {
			path string
			d    *dumped
		}{{"Host/ctxsw", sw}, {"Disk/*/reads", rd}} {
			refs, _ := reg.Glob(c.path)
			for _, ref := range refs {
				v, cv, _ := snap.Lookup(ref)
				if v.State != ns.Valid {
					continue
				}
				inst := ""
				if c.d == rd {
					inst = strings.Split(ref.Path(), "/")[1]
				}
				at := cv.TimeOf(cv.Class.DatumIndex(ref.Datum.ID))
				if want, ok := c.d.ownRate(at, inst); !ok || math.Abs(v.V-want) > 1e-9*math.Max(1, math.Abs(want)) {
					t.Errorf("replay %s: %s at %s = %v/s, pmdumplog's values give %v/s (%v)", what, ref.Path(), at.UTC().Format("15:04:05.000000"), v.V, want, ok)
				}
				compared++
			}
		}
	}
	check("at its opening")
	for i := range 5 {
		r.Step(1)
		check("step " + strconv.Itoa(i+1))
	}
	r.Move(day.Add(sw.times[2].Sub(sw.times[2].Truncate(24 * time.Hour))))
	check("back to the third second")
	if compared < 6 {
		t.Errorf("the replay compared %d rates", compared)
	}
}

// Issue 39 item 1 on a site's configuration: pmlogconf's own (its default groups and its once
// groups; here the group of context switches every second and the others every 3 s, so that
// records hold different metrics), replayed with every context-switch and disk rate equal to the
// one pmdumplog's records of that metric give, to 1e-9.
func TestPmlogconfArchiveRatesPerMetric(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	p := pcptest.Start(t)
	dir := t.TempDir()
	conf := filepath.Join(dir, "config")
	pcptest.Run(t, "pmlogconf", "-h", p.Hostspec(), "-q", conf)
	b, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	// The group that logs context switches first every second, every other default group
	// every 3 s (kernel.all.pswitch in that group only): records of one group or the other,
	// and classes whose metrics come from both (Disk: avactive every second, reads every 3 s).
	groups := regexp.MustCompile(`(?s)log advisory on (default|once) \{.*?\n\}`).FindAllString(string(b), -1)
	fast, n := false, 0
	for i, g := range groups {
		once := strings.HasPrefix(g, "log advisory on once")
		body := g[strings.Index(g, "{"):]
		if strings.Contains(body, "\tkernel.all.pswitch") {
			if fast {
				body = regexp.MustCompile(`(?m)^\s*kernel\.all\.pswitch.*\n`).ReplaceAllString(body, "")
			} else if !once {
				fast = true
				groups[i] = "log mandatory on every 1 second " + body
				continue
			}
		}
		if once {
			groups[i] = "log mandatory on once " + body
		} else {
			groups[i], n = "log mandatory on every 3 seconds "+body, n+1
		}
	}
	text := strings.Join(groups, "\n") + "\n"
	if n < 10 || !fast || !strings.Contains(text, "on once {") {
		t.Fatalf("pmlogconf wrote %d default groups:\n%s", n, b)
	}
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "site")
	pcptest.Run(t, "pmlogger", "-h", p.Hostspec(), "-c", conf, "-T", "6sec", "-l", filepath.Join(dir, "log"), base)
	dump := pmdumpOf(t, base, "kernel.all.pswitch", "disk.dev.read", "disk.dev.write", "disk.dev.avactive")
	s, _ := archiveSampler(t, time.Time{}, true, base)
	reg := s.Registry()
	checked := map[string]int{}
	for range 400 {
		snap, err := s.Sample(context.Background())
		if err != nil {
			break
		}
		for _, c := range []struct{ path, metric string }{
			{"Host/ctxsw", "kernel.all.pswitch"}, {"Disk/*/reads", "disk.dev.read"}, {"Disk/*/writes", "disk.dev.write"},
			{"Disk/*/io_ms", "disk.dev.avactive"}} {
			refs, err := reg.Glob(c.path)
			if err != nil {
				continue
			}
			for _, ref := range refs {
				v, cv, _ := snap.Lookup(ref)
				if v.State != ns.Valid {
					continue
				}
				inst := ""
				if c.metric != "kernel.all.pswitch" {
					inst = strings.Split(ref.Path(), "/")[1]
				}
				at := cv.TimeOf(cv.Class.DatumIndex(ref.Datum.ID))
				want, ok := dump[c.metric].ownRate(at, inst)
				if !ok || math.Abs(v.V-want) > 1e-9*math.Max(1, math.Abs(want)) {
					t.Errorf("%s at %s = %v/s, pmdumplog's own consecutive values give %v/s (%v)", ref.Path(), at.UTC().Format("15:04:05.000000"), v.V, want, ok)
				}
				checked[c.path]++
			}
		}
	}
	t.Logf("rates compared: %v", checked)
	if checked["Host/ctxsw"] < 3 || checked["Disk/*/reads"] < 1 || checked["Disk/*/io_ms"] < 3 {
		t.Errorf("rates compared: %v", checked)
	}
}
