package pcp

import (
	"context"
	"strings"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/internal/archivetest"
	ns "dcimon/namespace"
)

// Issue 40 item 7: the key-value server stops after the start: a replay's reading does not fail
// (the monitor stays), each host's classes say why, the events say it, and once the server is
// back the next reading has the values again.
func TestSeriesDownAfterStart(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	p, bases, s := seriesFleet(t, archivetest.Fleet{Hosts: 2, Disks: 1, Samples: 20})
	provs, err := SeriesProviders(s, time.Time{}, false)
	smp := samplerOf(t, provs, err, collect.Options{Now: s.Clock, Deadline: 30 * time.Second, EveryClass: true})
	r := collect.NewReplay(smp, s, time.Time{})
	ctx := context.Background()
	// The monitor's play moves the cursor on, a sample at a time here; a reading that fails
	// is said on its status line, and the next one tries again.
	k := 0
	step := func(what string) *ns.Snapshot {
		t.Helper()
		k++
		r.Move(archivetest.Start.Add(time.Duration(k) * 10 * time.Second))
		snap, err := r.Sample(ctx)
		if err != nil {
			t.Logf("%s: %v", what, err)
			return smp.Snapshot()
		}
		return snap
	}
	step("first")
	snap := step("second")
	ref := mustRef(t, smp, "node000/Disk/sda/reads")
	if v, _, _ := snap.Lookup(ref); v.State != ns.Valid {
		t.Fatalf("before the stop: %+v", v)
	}
	p.StopKV()
	seq := smp.Events().Seq()
	k = 9 // past the windows of values read so far
	start := time.Now()
	snap = step("server down")
	// pmproxy leaves some requests to a stopped server unanswered: the first that fails (its
	// deadline, 10 s) says so for the others, which do not wait theirs (before: 55 s).
	if d := time.Since(start); d > 25*time.Second {
		t.Errorf("a reading with the server down took %v", d)
	}
	start = time.Now()
	step("server still down")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the next reading with the server down took %v", d)
	}
	if v, cv, _ := snap.Lookup(ref); v.State == ns.Valid || cv == nil || cv.Err == nil {
		t.Errorf("with the key-value server down: %+v", v)
	}
	said := false
	for _, e := range smp.Events().Events() {
		if e.Kind == ns.EvProviderError && strings.Contains(e.Text, "key-value server") {
			said = true
		}
	}
	if !said || smp.Events().Seq() == seq {
		t.Errorf("the events do not say the key-value server is down: %+v", smp.Events().Events())
	}
	// Back, with its data (this one keeps none on disk: loaded again).
	p.StartKV(t)
	p.Load(t, bases...)
	var back bool
	for range 20 {
		time.Sleep(500 * time.Millisecond)
		snap = step("server back")
		if v, _, _ := snap.Lookup(ref); v.State == ns.Valid || v.State == ns.NoRate {
			back = true
			break
		}
	}
	if !back {
		v, cv, _ := snap.Lookup(ref)
		t.Errorf("the key-value server is back, the values are not: %+v (%v)", v, cv.Err)
	}
}
