package headless

import (
	"context"
	"testing"
	"time"

	ns "dcimon/namespace"
)

// Issue 40 item 2: readings on the clock. Each reading takes some time (here 300 ms of a 1 s
// interval, then one of 1.2 s, then one of 2.7 s): the waits make up for it, so readings stay
// on the ticks of the first one (1, 2, 3, 5 s); one that ends just past its successor's tick is
// followed at once (4.2 s), and one later than half an interval skips to the next tick on the
// clock (8 s, after one that ended at 7.7 s). Before, each
// wait was a whole interval after the reading's end: 60 readings took 64 s.
func TestClockTicks(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	now := t0
	var at []time.Duration
	e := Env{Now: func() time.Time { return now }, Sleep: func(ctx context.Context, d time.Duration) error {
		if d < 0 {
			t.Errorf("a wait of %v", d)
		}
		now = now.Add(d)
		at = append(at, now.Sub(t0))
		return nil
	}}
	first := &ns.Snapshot{Start: t0}
	now = t0.Add(300 * time.Millisecond) // the first reading took 300 ms
	c := ticksFrom(first, time.Second, e)
	for _, took := range []time.Duration{300, 300, 1200, 300, 2700, 300} {
		if err := c.wait(context.Background(), e); err != nil {
			t.Fatal(err)
		}
		now = now.Add(took * time.Millisecond)
	}
	got := make([]float64, len(at))
	for i, d := range at {
		got[i] = d.Seconds()
	}
	exp := []float64{1, 2, 3, 4.2, 5, 8}
	for i := range exp {
		if i >= len(got) || got[i] != exp[i] {
			t.Fatalf("readings at %v s, want %v s", got, exp)
		}
	}
}
