package headless

import (
	"context"
	"time"

	ns "dcimon/namespace"
)

// clockTicks keeps a command's readings on the clock, as sar and pmrep keep them (issue 40 item
// 2): the n-th reading is due n intervals after the first one began, whatever each one took, so
// `get -i 1s -n 60` takes 60 s after its first reading, not 60 s and every reading's own time. A
// reading that ended past its successor's tick by less than half an interval is followed at
// once; one later than that skips the ticks it missed, to the next one on the clock.
type clockTicks struct {
	next  time.Time
	every time.Duration
}

// ticksFrom are the ticks of a command whose first reading is first.
func ticksFrom(first *ns.Snapshot, every time.Duration, e Env) *clockTicks {
	t := e.Now()
	if first != nil && !first.Start.IsZero() && !first.Start.After(t) && t.Sub(first.Start) < every {
		t = first.Start
	}
	return &clockTicks{next: t, every: every}
}

// wait sleeps until the next tick.
func (c *clockTicks) wait(ctx context.Context, e Env) error {
	c.next = c.next.Add(c.every)
	now := e.Now()
	if late := now.Sub(c.next); late > 0 && c.every > 0 {
		if late < c.every/2 {
			return e.Sleep(ctx, 0)
		}
		c.next = c.next.Add((late/c.every + 1) * c.every)
	}
	return e.Sleep(ctx, c.next.Sub(now))
}
