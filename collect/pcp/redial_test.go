package pcp

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	"dcimon/internal/pcptest"
	ns "dcimon/namespace"
)

// fleetWith is a sampler of hosts read natively, each host's requests under request, the
// collection under collection, the start waiting probe for the first connections.
func fleetWith(t *testing.T, request, collection, probe time.Duration, hosts ...Host) *collect.Sampler {
	t.Helper()
	provs, err := Fleet(Options{Interval: time.Second, Deadline: request, ProbeDeadline: probe}, hosts)
	return samplerOf(t, provs, err, collect.Options{Deadline: collection})
}

// Issue 40 item 1: beside a host that accepts and never answers, no collection waits for it:
// its dials are made off the collection path, so each reading takes what the good host takes,
// far below the 20 s the hung host's dial may take (before, every re-dial of it held the
// collection up to its deadline), and the hung host's classes say why at every reading.
func TestNeverWaitOnAHungHost(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	p := pcptest.Start(t)
	for _, path := range []string{"native", "rest"} {
		t.Run(path, func(t *testing.T) {
			url := ""
			if path == "rest" {
				url = p.URL() // the REST path: pmproxy's context on the hung host is made off the path too
			}
			testNeverWait(t, url, p.Hostspec(), pcptest.Hung(t))
		})
	}
}

func testNeverWait(t *testing.T, url, good, hung string) {
	const long = 20 * time.Second
	provs, err := Fleet(Options{URL: url, Interval: time.Second, Deadline: long, ProbeDeadline: 2 * time.Second},
		[]Host{{"good", good}, {"hung", hung}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := collect.NewSampler(ns.NewRegistry(), provs, collect.Options{Deadline: long})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range 5 {
		t0 := time.Now()
		snap, err := s.Sample(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(t0); d > long/4 {
			t.Errorf("reading %d took %v beside a hung host (its requests may take %v)", i, d, long)
		}
		if i > 0 {
			if v := collecttest.Value(t, s, snap, "good/CPU/busy"); v.State != ns.Valid {
				t.Errorf("reading %d: good/CPU/busy %+v", i, v)
			}
		}
		st := statusOf(s, "hung")
		if st.State != "failing" || st.LastErr == nil || !errors.Is(st.LastErr, errConnecting) {
			t.Errorf("reading %d: hung host %s, %v; want failing, connecting", i, st.State, st.LastErr)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// Issue 40 item 1: a host that stops answering on its connection costs the collection its
// deadline, not its own longer request deadline; it is marked busy with why while its request
// goes on, and when it answers again it goes on on the same connection: no re-initialisation,
// rates at once (before, the collection's deadline broke the connection, and the host lost a
// reading's rates to a new one).
func TestSlowHostKeepsItsConnection(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	p := pcptest.Start(t)
	relay := pcptest.StartRelay(t, p.Hostspec())
	const collection = time.Second
	s := fleetWith(t, 60*time.Second, collection, 10*time.Second, Host{"good", p.Hostspec()}, Host{"slow", relay.Addr})
	ctx := context.Background()
	sample := func(i int) *ns.Snapshot {
		t0 := time.Now()
		snap, err := s.Sample(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(t0); d > 10*collection {
			t.Errorf("reading %d took %v (collection deadline %v)", i, d, collection)
		}
		return snap
	}
	sample(0)
	time.Sleep(200 * time.Millisecond)
	if v := collecttest.Value(t, s, sample(1), "slow/CPU/busy"); v.State != ns.Valid {
		t.Fatalf("slow/CPU/busy before the freeze: %+v (%+v)", v, statusOf(s, "slow"))
	}
	reset := statusOf(s, "slow").Supplier.Reset
	relay.Freeze()
	for i := 2; i < 4; i++ {
		time.Sleep(200 * time.Millisecond)
		snap := sample(i)
		if v := collecttest.Value(t, s, snap, "good/CPU/busy"); v.State != ns.Valid {
			t.Errorf("reading %d: good/CPU/busy %+v beside a host that stopped answering", i, v)
		}
		v := collecttest.Value(t, s, snap, "slow/CPU/busy")
		if v.State == ns.Valid || v.Reason != ns.ReasonTimeout {
			t.Errorf("reading %d: slow/CPU/busy %+v, want n/a for a timeout", i, v)
		}
	}
	if st := statusOf(s, "slow"); st.State != "busy" {
		t.Errorf("a host whose request is still running: %s (%v), want busy", st.State, st.LastErr)
	}
	relay.Thaw()
	var back bool
	for i := 4; i < 40 && !back; i++ {
		time.Sleep(200 * time.Millisecond)
		snap := sample(i)
		if v := collecttest.Value(t, s, snap, "slow/CPU/busy"); v.State == ns.Valid {
			back = true
			if got := statusOf(s, "slow").Supplier.Reset; got != reset {
				t.Errorf("the host that answered late was re-initialised (reset %x → %x): its connection was lost", reset, got)
			}
		}
	}
	if !back {
		t.Fatalf("the slow host did not come back: %+v", statusOf(s, "slow"))
	}
}

// Issue 40 item 3: a host down at start that starts answering has every class at its first
// reading (its own processor count and memory size, not the one processor it was declared
// with), and its rates at its second.
func TestHostBackAtFirstReading(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	p := pcptest.Start(t)
	up := pcptest.Start(t)
	p.StopPMCD()
	s := fleetWith(t, 10*time.Second, 10*time.Second, 2*time.Second, Host{"up", up.Hostspec()}, Host{"late", p.Hostspec()})
	ctx := context.Background()
	if _, err := s.Sample(ctx); err != nil {
		t.Fatal(err)
	}
	if st := statusOf(s, "late"); st.State != "failing" || st.LastErr == nil || !strings.Contains(st.LastErr.Error(), "refused") {
		t.Fatalf("a host down at start: %s %v", st.State, st.LastErr)
	}
	p.StartPMCD(t)
	share := func(host string) float64 {
		ref := mustRef(t, s, host+"/CPU/busy")
		return ref.Datum.Share
	}
	for i := 0; ; i++ {
		if i == 100 {
			t.Fatalf("the host did not come back: %+v", statusOf(s, "late"))
		}
		time.Sleep(200 * time.Millisecond)
		snap, err := s.Sample(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if statusOf(s, "late").State != "ok" {
			continue
		}
		// Its first reading: every class, at the host's own scales.
		if got, want := share("late"), share("up"); got != want {
			t.Errorf("late/CPU/busy is a share of %v processors at its first reading, want %v", got, want)
		}
		for _, path := range []string{"late/Mem/Real/total", "late/Mem/Real/used", "late/Host/load1"} {
			if v := collecttest.Value(t, s, snap, path); v.State != ns.Valid {
				t.Errorf("%s at the host's first reading: %+v", path, v)
			}
		}
		break
	}
	time.Sleep(300 * time.Millisecond)
	snap, err := s.Sample(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"late/CPU/busy", "late/CPU/cpu0/idle"} {
		if v := collecttest.Value(t, s, snap, path); v.State != ns.Valid {
			t.Errorf("%s at the host's second reading: %+v", path, v)
		}
	}
}

// Issue 40 item 3: a source's first dials are spread over part of the first interval, a
// millisecond a host at most, so a thousand hosts do not dial at once and two hosts wait for
// nothing.
func TestStartJitter(t *testing.T) {
	for _, tt := range []struct {
		n        int
		interval time.Duration
		want     time.Duration
	}{
		{1, time.Second, time.Millisecond},
		{2, time.Second, 2 * time.Millisecond},
		{1000, time.Second, 500 * time.Millisecond},
		{1000, 10 * time.Second, time.Second},
		{1000, 200 * time.Millisecond, 100 * time.Millisecond},
	} {
		if got := startJitter(tt.n, tt.interval); got != tt.want {
			t.Errorf("startJitter(%d, %v) = %v, want %v", tt.n, tt.interval, got, tt.want)
		}
	}
	for _, tt := range []struct{ interval, request, want time.Duration }{
		{time.Second, 2 * time.Second, 900 * time.Millisecond},
		{10 * time.Second, 2 * time.Second, 2 * time.Second},
		{100 * time.Millisecond, 2 * time.Second, 250 * time.Millisecond},
		{0, 3 * time.Second, 3 * time.Second},
	} {
		if got := CollectDeadline(tt.interval, tt.request); got != tt.want {
			t.Errorf("CollectDeadline(%v, %v) = %v, want %v", tt.interval, tt.request, got, tt.want)
		}
	}
}

// Issue 40 item 6: under real load, through pmproxy and natively, the processor's parts are
// judged against the interval of the host's own timestamps, at the host's own scale: every
// reading of CPU/busy, user and kern is a value, never "parts add up to more than the time
// elapsed". The hosts' first connections are not waited for (as when a loaded pmproxy
// answers after the start's probe deadline), so the scales come with the connection made
// after the start.
func TestCPUPartsUnderLoadRemote(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	p := pcptest.Start(t)
	var stop atomic.Bool
	defer stop.Store(true)
	go func() { // a processor's worth of work, in this process
		for !stop.Load() {
		}
	}()
	for _, path := range []string{"native", "rest"} {
		t.Run(path, func(t *testing.T) {
			opt := Options{Interval: time.Second, Deadline: 10 * time.Second, ProbeDeadline: time.Nanosecond}
			if path == "rest" {
				opt.URL = p.URL()
			}
			provs, err := Fleet(opt, []Host{{"a", p.Hostspec()}, {"b", p.Hostspec()}})
			s := samplerOf(t, provs, err, collect.Options{Deadline: 10 * time.Second})
			valid := 0
			var last ns.Value
			for i := 0; i < 60 && valid < 3; i++ {
				time.Sleep(time.Second / 2)
				snap, err := s.Sample(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				last = collecttest.Value(t, s, snap, "a/CPU/busy")
				if last.State != ns.Valid && last.Reason != ns.ReasonBeyondElapsed {
					continue // not connected yet, or no rate yet
				}
				valid++
				for _, h := range []string{"a", "b"} {
					for _, stat := range []string{"busy", "user", "kern", "idle"} {
						v := collecttest.Value(t, s, snap, h+"/CPU/"+stat)
						if v.State != ns.Valid || (stat == "busy" && v.V > 100.5) {
							t.Errorf("%s: %s/CPU/%s %+v", path, h, stat, v)
						}
					}
				}
			}
			if valid < 3 {
				t.Fatalf("%s: %d readings with rates; the last a/CPU/busy %+v, status %+v", path, valid, last, statusOf(s, "a"))
			}
		})
	}
}
