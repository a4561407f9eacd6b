package collect_test

import (
	"context"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	ns "dcimon/namespace"
)

// backClock is a provider whose reading moves the clock back, as a fleet of archives' replay
// clock (the latest record any archive has read) moves while the hosts read concurrently.
type backClock struct{ *fakeProv }

func (b backClock) Collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	bt, err := b.fakeProv.Collect(ctx, req)
	b.clock.Add(-time.Second)
	return bt, err
}

// Issue 40 item 6: on a recording's clock (Options.Replay) a reading takes no time, however the
// clock moved meanwhile, and its timestamp has ReplaySlack; on the wall clock a reading's
// End − Start is how long it took.
func TestReplayReadingsTakeNoTime(t *testing.T) {
	for _, replay := range []bool{false, true} {
		clock := &collecttest.FakeClock{T: time.Date(2026, 11, 28, 14, 17, 58, 0, time.UTC)}
		p := backClock{newFake("alpha", 10, clock, "a0")}
		s, err := collect.NewSampler(ns.NewRegistry(), []collect.Provider{p}, collect.Options{Now: clock.Now, Replay: replay})
		if err != nil {
			t.Fatal(err)
		}
		snap := collecttest.Tick(t, s, clock, 2*time.Second)
		cv := snap.Class(p.class)
		if cv == nil {
			t.Fatalf("replay %v: no reading of %s", replay, p.class.Name)
		}
		took := cv.End.Sub(cv.Start)
		switch {
		case replay && (took != 0 || cv.Slack != collect.ReplaySlack):
			t.Errorf("a replayed reading took %v with slack %v, want 0 and %v", took, cv.Slack, collect.ReplaySlack)
		case !replay && (took != -time.Second || cv.Slack != 0):
			t.Errorf("a live reading took %v with slack %v, want the clock's −1s and none", took, cv.Slack)
		}
	}
}
