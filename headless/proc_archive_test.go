package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"dcimon/internal/pcptest"
)

// pmrepProcCPU is pmrep's CPU % of process pid at each record of the archive at base: the rate
// of proc.psinfo.utime + stime (ms/s, counters as rates over the records' own timestamps, no
// interpolation) over 10, by the record's time; a record without a rate (the first) is absent.
func pmrepProcCPU(t *testing.T, base string, pid int) map[time.Time]float64 {
	t.Helper()
	csv := pcptest.Run(t, "pmrep", "-a", base, "-u", "-o", "csv", "-P", "6", "-Z", "UTC", "-f", "%Y-%m-%d %H:%M:%S.%f",
		"-i", fmt.Sprintf("0*%d .*", pid), "proc.psinfo.utime", "proc.psinfo.stime")
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	out := map[time.Time]float64{}
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		at, err := time.ParseInLocation("2006-01-02 15:04:05.000000", f[0], time.UTC)
		if err != nil || len(f) != 3 {
			t.Fatalf("pmrep's line %q (%v):\n%s", l, err, csv)
		}
		u, err1 := strconv.ParseFloat(f[1], 64)
		s, err2 := strconv.ParseFloat(f[2], 64)
		if err1 != nil || err2 != nil {
			continue // no rate yet
		}
		out[at] = (u + s) / 10
	}
	if len(out) == 0 {
		t.Fatalf("pmrep has no rate of process %d:\n%s", pid, csv)
	}
	return out
}

// atRecord is pmrep's figure at the host's last record at or before at (within a millisecond:
// pmrep prints microseconds, the archive may keep nanoseconds), with that record's time. A
// fleet's reading is timed by whichever archive's record comes next, so a reading between two
// of this host's records shows the rate at the earlier one; a record without a rate (the
// first) is not in recs, and a reading before any rated record has nothing to compare.
func atRecord(recs map[time.Time]float64, at time.Time) (float64, time.Time, bool) {
	var best time.Time
	for t := range recs {
		if !t.After(at.Add(time.Millisecond)) && t.After(best) {
			best = t
		}
	}
	if best.IsZero() {
		return 0, best, false
	}
	return recs[best], best, true
}

// Issue 40 item 5: processes from archives that logged proc.*. A real pmlogger records a
// private pmcd whose proc PMDA runs with -A while a shell loop spins, and another pmcd without
// proc.*: the first archive's host has its Proc class, `hot '*/Proc' cpu` ranks the loop with
// its command, and its CPU % at every record is pmrep's rate of proc.psinfo.utime + stime over
// the same records within 1% or one tick (10 ms over the record's interval); the second host
// (named as the first, with ~2: one machine under both pmcds) has no Proc class (nothing
// logged, so no process table that waits forever).
func TestArchiveProcesses(t *testing.T) {
	bases, pid := recordProcesses(t)
	checkProcesses(t, Common{Archives: bases, Fleet: true, JSON: true}, bases[0], pid, "~2", procSamples-2)
}

// Issue 40 item 5: the same from pmproxy's time series, the archive of proc.* loaded with a
// pmseries configuration that keeps them (PCP's own leaves proc.* out). The series name a
// host by its host name, which the two archives share, so only the first is loaded.
func TestSeriesProcesses(t *testing.T) {
	bases, pid := recordProcesses(t)
	p := pcptest.StartSeries(t)
	p.LoadProcesses(t, bases[0])
	// A step of pmlogger's longer than half again its shortest is a gap in the series, with no
	// rate after it (docs/series.md; pmlogger fetching every process may take longer than its
	// second): some readings, not every one, have the loop's CPU.
	checkProcesses(t, Common{Series: p.URL(), Fleet: true, JSON: true}, bases[0], pid, "", 1)
}

// processRecording is the one recording that TestArchiveProcesses and TestSeriesProcesses
// both read, made by whichever of them runs first: an archive reads the same whoever reads
// it, and each test recording its own cost CI 6 s of pmlogger and two pmcds' start more
// (issue 37 item 6). TestMain removes its folder.
var processRecording struct {
	sync.Mutex
	dirs  []string // the folders of the recordings tried
	bases []string // the archives, nil until a recording succeeded
	pid   int      // the spinning loop's PID while it was recorded
}

// recordProcesses returns the archives of 6 s of two private pmcds recorded with pmlogger, the
// first's proc.* among them, while a shell loop spins, and the loop's PID: recorded by the
// first test that asks, the same for those after it (a test whose recording failed fails,
// and the next records again).
func recordProcesses(t *testing.T) ([]string, int) {
	t.Helper()
	pcptest.NeedPmrep(t)
	if testing.Short() {
		t.Skip("records 6 s of two hosts")
	}
	r := &processRecording
	r.Lock()
	defer r.Unlock()
	if r.bases != nil {
		return r.bases, r.pid
	}
	dir, err := os.MkdirTemp("", "dcimon-processes-")
	if err != nil {
		t.Fatal(err)
	}
	r.dirs = append(r.dirs, dir)
	r.bases, r.pid = recordProcessesIn(t, dir)
	return r.bases, r.pid
}

// recordProcessesIn makes recordProcesses' recording in dir.
func recordProcessesIn(t *testing.T, dir string) ([]string, int) {
	t.Helper()
	open, plain := pcptest.StartProcPMCD(t, true), pcptest.StartProcPMCD(t, false)
	pid := busyLoop(t)
	time.Sleep(300 * time.Millisecond)
	logs := []struct{ host, metrics string }{
		{open.Hostspec(), "proc.psinfo proc.id proc.io hinv.ncpu mem.physmem kernel.all.cpu kernel.uname"},
		{plain.Hostspec(), "hinv.ncpu mem.physmem kernel.all.cpu kernel.uname"},
	}
	bases := []string{filepath.Join(dir, "a"), filepath.Join(dir, "b")}
	var wg sync.WaitGroup
	errs := make([]error, len(logs))
	outs := make([]string, len(logs))
	for i, l := range logs {
		conf := filepath.Join(dir, strconv.Itoa(i)+".config")
		if err := os.WriteFile(conf, []byte("log mandatory on every 1 second {\n\t"+l.metrics+"\n}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = pcptest.Output("pmlogger", "-h", l.host, "-c", conf, "-s", strconv.Itoa(procSamples), "-t", "1",
				"-l", bases[i]+".log", bases[i])
		}()
	}
	wg.Wait()
	for i := range logs {
		if errs[i] != nil {
			t.Fatalf("pmlogger of %s: %v\n%s", logs[i].host, errs[i], outs[i])
		}
	}
	return bases, pid
}

// procSamples is how many records recordProcesses makes.
const procSamples = 6

// checkProcesses checks the processes of the two hosts recordProcesses recorded, read from
// src: the loop ranked, its CPU % pmrep's at every record, none for the host without proc.*
// (the first host's name and other, when other is not ""); at least least readings rank and
// compare the loop.
func checkProcesses(t *testing.T, archives Common, base string, pid int, other string, least int) {
	t.Helper()

	// The ranking: the loop among the first, with its command; no process of the other host.
	var out bytes.Buffer
	if err := Hot(context.Background(), HotOptions{Common: archives, Grandparent: "*/Proc", Stat: "cpu", Max: 5, Feed: "always"}, RealEnv(), &out); err != nil {
		t.Fatalf("hot: %v\n%s", err, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	ranked, hostA := 0, ""
	for _, l := range lines {
		var r struct {
			Sets []hotJSON `json:"sets"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || len(r.Sets) != 1 {
			t.Fatalf("%v: %s", err, l)
		}
		for _, it := range r.Sets[0].Items {
			if strings.HasSuffix(it.Name, "/Proc/"+strconv.Itoa(pid)) && it.Label == "sh" && it.Value != nil && *it.Value > 5 {
				ranked++
			}
			if hostA == "" {
				hostA, _, _ = strings.Cut(it.Name, "/")
			}
			if !strings.HasPrefix(it.Name, hostA+"/") || other != "" && strings.Contains(hostA, other) {
				t.Errorf("a process of a host whose archive has none: %+v", it)
			}
		}
	}
	if ranked < least {
		t.Errorf("the busy loop %d is ranked in %d of %d readings:\n%s", pid, ranked, len(lines), out.String())
	}

	// The truth: CPU % at every record against pmrep's.
	want := pmrepProcCPU(t, base, pid)
	out.Reset()
	path := fmt.Sprintf("/%s/Proc/%d/cpu", hostA, pid)
	if err := Get(context.Background(), GetOptions{Common: archives, Paths: []string{path}}, RealEnv(), &out); err != nil {
		t.Fatalf("get: %v\n%s", err, out.String())
	}
	compared := 0
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r struct {
			Time   time.Time   `json:"time"`
			Values []jsonValue `json:"values"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || len(r.Values) != 1 {
			t.Fatalf("%v: %s", err, l)
		}
		at := r.Time
		if rec := r.Values[0].Recorded; rec != nil {
			at = *rec
		}
		w, _, ok := atRecord(want, at)
		if !ok || r.Values[0].Value == nil {
			continue
		}
		compared++
		got := *r.Values[0].Value
		// One tick (10 ms of CPU) over the record's interval (about 1 s) is 1 point.
		if d := math.Abs(got - w); d > math.Max(0.01*w, 1.0) {
			t.Errorf("%s at %s: %.3f%%, pmrep %.3f%%", path, r.Time.Format("15:04:05.000"), got, w)
		}
	}
	if compared < least {
		t.Errorf("%d readings compared with pmrep's %d:\n%s", compared, len(want), out.String())
	}
	if other == "" {
		return
	}
	out.Reset()
	if err := Get(context.Background(), GetOptions{Common: archives, Paths: []string{"/" + hostA + other + "/Proc/*/cpu"}}, RealEnv(), &out); err != nil ||
		!strings.Contains(out.String(), "DCI_UNKNOWNCLASS") || strings.Contains(out.String(), `"valid"`) {
		t.Errorf("a host whose archive logged no proc.* has processes (%v):\n%s", err, out.String())
	}
}
