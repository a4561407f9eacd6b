package cli

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"dcimon/headless"
	"dcimon/internal/archivetest"
	"dcimon/internal/pcptest"
)

// waitingSays samples the waiting monitor's source once and returns its events' text.
func waitingSays(t *testing.T, o openedHistory) string {
	t.Helper()
	if _, err := o.s.Sample(context.Background()); err != nil {
		t.Logf("sample: %v", err)
	}
	var b strings.Builder
	for _, ev := range o.s.Events().Events() {
		b.WriteString(ev.Text + "\n")
	}
	return b.String()
}

// Issue 40 item 7: the monitor on pmproxy's series opens at once when pmproxy does not answer
// (before: a blank screen for 11 s, then exit 1): its source says history is unreachable and
// why, in its status line and its events, and the series are opened again in the background.
func TestMonitorHistoryProxyDown(t *testing.T) {
	c := headless.Common{Series: fmt.Sprintf("pcp://127.0.0.1:%d", pcptest.FreePort(t)), Fleet: true}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	o, later := openMonitorHistory(ctx, c, headless.RealEnv())
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the monitor waited %v to open", d)
	}
	if o.err != nil || o.s == nil || later == nil {
		t.Fatalf("no waiting source: %+v, later %v", o, later)
	}
	if !strings.Contains(o.status, "history unreachable") || !strings.Contains(o.status, "does not answer") {
		t.Errorf("the status line: %q", o.status)
	}
	if ev := waitingSays(t, o); !strings.Contains(ev, "history unreachable") || !strings.Contains(ev, "does not answer") {
		t.Errorf("the events do not say history is unreachable and why:\n%s", ev)
	}
}

// Issue 40 item 7: with the key-value server down at the start, the monitor opens at once on
// the waiting source, and goes on to the series once the server is back (and loaded again).
func TestMonitorHistoryComesBack(t *testing.T) {
	p := pcptest.StartSeries(t)
	bases, err := archivetest.WriteFleet(t.TempDir(), archivetest.Fleet{Hosts: 2, Disks: 1, Samples: 10})
	if err != nil {
		t.Fatal(err)
	}
	p.StopKV()
	defer func(r [2]time.Duration) { historyRetry = r }(historyRetry)
	historyRetry = [2]time.Duration{200 * time.Millisecond, time.Second}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	o, later := openMonitorHistory(ctx, headless.Common{Series: p.URL(), Fleet: true}, headless.RealEnv())
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the monitor waited %v to open", d)
	}
	if o.err != nil || later == nil {
		t.Fatalf("no waiting source: %+v", o)
	}
	// The first attempt fails (the server is down): the events say why.
	deadline := time.Now().Add(30 * time.Second)
	var ev string
	for time.Now().Before(deadline) {
		if ev = waitingSays(t, o); strings.Contains(ev, "history unreachable") {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !strings.Contains(ev, "history unreachable") || !strings.Contains(ev, "key-value server") {
		t.Errorf("the events do not say the key-value server is down:\n%s", ev)
	}
	p.StartKV(t)
	p.Load(t, bases...)
	select {
	case got := <-later:
		if got.err != nil || got.s == nil || got.past == nil || len(got.past.Hosts()) != 2 {
			t.Fatalf("the series opened as %+v", got)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the series did not open within 60 s of the server's return")
	}
}
