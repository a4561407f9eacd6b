package cli

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"dcimon/collect"
	"dcimon/collect/pcp"
	"dcimon/collect/schema"
	"dcimon/headless"
	ns "dcimon/namespace"
)

// The monitor on pmproxy's time series when they cannot be opened at its start (pmproxy or its
// key-value server down, issue 40 item 7): it opens at once on a source that says why history
// is unreachable, in its status line and events, while the series are opened again in the
// background, and goes on to them when they open.

// openedHistory is a source the monitor runs on: its sampler, and the past it replays.
type openedHistory struct {
	s    *collect.Sampler
	past collect.History
	err  error
	// status is the waiting monitor's status line: history unreachable and why, or being
	// opened; its events say why at each change.
	status string
}

// historyFirstWait is how long the monitor waits for the series to open before it shows the
// waiting source: a series that opens at once is shown at once, one that does not never keeps
// the screen blank.
const historyFirstWait = 400 * time.Millisecond

// historyStatusMax is the most bytes of the waiting monitor's status.
const historyStatusMax = 56

// historyRetry bounds the pause between attempts to open the series: it doubles from the first
// to the last, each drawn from half to one and a half of it.
var historyRetry = [2]time.Duration{time.Second, 30 * time.Second}

// openMonitorHistory opens the series of c for the monitor. When they open within
// historyFirstWait, or fail with the command line's fault, that is the answer (later nil);
// otherwise it returns a waiting sampler whose provider says why history is unreachable, and
// later, on which the series come once they open (attempts go on until ctx ends).
func openMonitorHistory(ctx context.Context, c headless.Common, e headless.Env) (opened openedHistory, later <-chan openedHistory) {
	first := make(chan openedHistory, 1)
	open := func() openedHistory {
		s, past, err := headless.OpenSource(c, e)
		return openedHistory{s: s, past: past, err: err}
	}
	go func() { first <- open() }()
	var o openedHistory
	select {
	case o = <-first:
		var ue *headless.UsageError
		if o.err == nil || errors.As(o.err, &ue) {
			return o, nil
		}
	case <-time.After(historyFirstWait):
	}
	w := &historyWait{url: c.Series, since: e.Now()}
	w.set(o.err)
	s, err := collect.NewSampler(ns.NewRegistry(), []collect.Provider{w}, collect.Options{Now: e.Now})
	if err != nil {
		return openedHistory{err: err}, nil
	}
	out := make(chan openedHistory, 1)
	retry := historyRetry // read here, not by the goroutine, which may outlive a test that set it
	go func() {
		pause := retry[0]
		if o.err == nil { // the first attempt is still going
			o = <-first
			w.set(o.err)
		}
		for o.err != nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Duration(float64(pause) * (0.5 + rand.Float64()))):
			}
			pause = min(2*pause, retry[1])
			o = open()
			w.set(o.err)
		}
		out <- o
	}()
	// Short enough to stay on the status line beside its other segments; the events and
	// Monitor/series/error have the whole of it.
	status := clipWords("history: opening "+c.Series, historyStatusMax)
	if o.err != nil {
		// Without the URL the user gave: the why fits.
		why := strings.ReplaceAll(strings.TrimPrefix(o.err.Error(), "--series: "), " "+c.Series, "")
		status = clipWords("history unreachable: "+why, historyStatusMax)
	}
	return openedHistory{s: s, status: status}, out
}

// historyWait is the provider of the waiting monitor: one class, History, never read, and
// every collection fails with why the series cannot be opened, so the status line counts it
// degraded, Monitor/series/error says why, and the events do (again whenever why changes).
type historyWait struct {
	url   string
	since time.Time
	once  sync.Once
	decl  []*ns.Class
	mu    sync.Mutex
	why   error
}

// set keeps why the last attempt failed (nil while the first is going).
func (w *historyWait) set(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.why = err
}

// Supplier names the series the monitor waits for.
func (w *historyWait) Supplier() ns.Supplier {
	return schema.Supplier(1, "series", "PCP time series", ns.Clip("pmproxy's time series at "+ns.EscapeName(w.url), 255),
		ns.SPTGeneralSupplier, w.Classes())
}

// Classes is History, whose one statistic says why it has no values: there is nothing else to
// show until the series open (a supplier needs a statistic to be registered).
func (w *historyWait) Classes() []*ns.Class {
	w.once.Do(func() {
		w.decl = []*ns.Class{{ID: ns.ClassID{pcp.FleetASNBase}, Name: "History", Desc: "pmproxy's time series, not open yet",
			Flags: ns.ClassEnabled, Levels: schema.SingleLevel(),
			Datums: []ns.Datum{ns.Text(1, "series", "The series' URL", "--series")}}}
	})
	return w.decl
}

// Collect says why history is unreachable, or that it is being opened.
func (w *historyWait) Collect(context.Context, collect.Request) (collect.Batch, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.why == nil {
		return collect.Batch{}, fmt.Errorf("history: opening pmproxy's time series at %s (since %s)", w.url, w.since.Format("15:04:05"))
	}
	return collect.Batch{}, fmt.Errorf("history unreachable: %w (tried again in the background)", w.why)
}

// clipWords is s in n bytes at most, cut after a whole word with "…" when it is longer.
func clipWords(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = ns.Clip(s, n-len("…"))
	if i := strings.LastIndexByte(s, ' '); i > 0 {
		s = s[:i]
	}
	return s + "…"
}
