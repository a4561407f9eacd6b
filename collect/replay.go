package collect

import (
	"context"
	"fmt"
	"sync"
	"time"

	ns "dcimon/namespace"
)

// Replay is the monitor's time cursor over PCP archives (issue 15): a Sampler whose collections
// read the archives at a time the user moves, rather than the next sample. Each reading is the
// last sample at or before that time, with its rates over the interval that ends there, exactly
// as a live reading at that moment: a step forward reads the next sample after the one shown; any
// other move (back, a jump, a time typed) seeks through the temporal index and reads the two
// samples that end at the new time, with nothing taken across the move (Sampler.Restart).
//
// The monitor calls Move between collections and Sample inside its commands; a Sample without
// a Move reads again where the cursor is (a class that came on screen), never further.
type Replay struct {
	*Sampler
	h History

	mu     sync.Mutex // guards moveTo, moved and step
	moveTo time.Time  // a move asked for, not read yet
	moved  bool
	step   int        // a move by samples asked for (with moved): +1 the next, -1 the one before
	rd     sync.Mutex // serialises Sample's reading of the archives
}

// NewReplay puts a time cursor on s, a sampler of the archives as (OpenSource). It starts at
// at, or where the archives' first rates are when at is zero.
func NewReplay(s *Sampler, h History, at time.Time) *Replay {
	r := &Replay{Sampler: s, h: h}
	s.opt.EveryClass = true // a reading after a jump has every class's rates
	if at.IsZero() {
		for _, x := range h.Timelines() {
			if at.IsZero() || x.Start().Before(at) {
				at = x.Start()
			}
		}
	}
	r.Move(at)
	return r
}

// Span is the time from the first archive's start to the last one's end.
func (r *Replay) Span() (first, last time.Time) { return r.h.Span() }

// Hosts are the archives' hosts.
func (r *Replay) Hosts() []string { return r.h.Hosts() }

// Now is the time of the sample shown: the latest one read.
func (r *Replay) Now() time.Time { return r.h.Clock() }

// Move asks the next Sample to read at t (the last sample at or before it), kept within the
// archives' span.
func (r *Replay) Move(t time.Time) {
	first, last := r.Span()
	t = Within(t, first, last)
	r.mu.Lock()
	r.moveTo, r.moved, r.step = t, true, 0
	r.mu.Unlock()
}

// Step asks the next Sample to read the nth sample after the one shown (n > 0) or before it
// (n < 0); steps asked for before a Sample add up. It reads nothing itself: the monitor calls it
// on its own goroutine.
func (r *Replay) Step(n int) {
	r.mu.Lock()
	if !r.moved {
		r.moveTo = time.Time{} // from the sample shown; after a Move not read yet, from its time
	}
	r.moved, r.step = true, r.step+n
	r.mu.Unlock()
}

// Sample reads at the time the last Move asked for, or again where the cursor is.
func (r *Replay) Sample(ctx context.Context) (*ns.Snapshot, error) {
	r.mu.Lock()
	at, moved, step := r.moveTo, r.moved, r.step
	r.moved, r.step = false, 0
	r.mu.Unlock()
	r.rd.Lock()
	defer r.rd.Unlock()
	base := at
	if base.IsZero() {
		base = r.Now()
	}
	moved2 := false // the cursors were moved to find the step: what follows is a seek
	switch {
	case step > 0:
		if base.Before(r.Now()) {
			moved2 = true
			for _, x := range r.h.Timelines() {
				_ = x.Seek(clampTo(base, x)) // its records after base come next
			}
		}
		from := base
		for i := 0; i < step; i++ {
			next := r.NextStep(from)
			if next.IsZero() {
				if i == 0 {
					return r.Sampler.Snapshot(), fmt.Errorf("replay: %w: no sample after %s", ErrArchiveEnd, r.Now().Format(time.RFC3339))
				}
				break
			}
			from = next
		}
		at = from
	case step < 0:
		at, moved2 = base, true
		for i := 0; i < -step; i++ {
			prev := time.Time{}
			for _, x := range r.h.Timelines() {
				if p, ok := x.Before(at); ok && p.After(prev) {
					prev = p
				}
			}
			if prev.IsZero() {
				if i == 0 {
					return r.Sampler.Snapshot(), fmt.Errorf("replay: the start of the archive: no sample before %s", r.Now().Format(time.RFC3339))
				}
				break
			}
			at = prev
		}
	}
	if !moved {
		at = r.Now()
	} else if !moved2 {
		// The next sample of each archive at most, and one at least: the reading follows the
		// one shown. Nothing new (a play between two samples): what is shown stays.
		back, most, any := false, 0, false
		for _, x := range r.h.Timelines() {
			back = back || at.Before(x.Shown())
			k := x.Count(x.Shown(), at, 2)
			most, any = max(most, k), any || k > 0
		}
		switch {
		case !back && most == 1 && r.Sampler.Snapshot() != nil:
			return r.readAt(ctx, at)
		case !back && !any && !at.Equal(r.Now()):
			if snap := r.Sampler.Snapshot(); snap != nil {
				return snap, nil
			}
		}
	}
	// A seek: every archive to the two samples that end at at, read as a first reading and
	// then the one with rates. Each archive's first reading is its own first of the two: hosts
	// whose archives end at different times (one ended long before at) each have their rates.
	tls := r.h.Timelines()
	firsts := make([]time.Time, len(tls))
	some := false
	for i, x := range tls {
		// A time this host's archive does not cover: it reads its nearest end.
		if err := x.Seek(clampTo(at, x)); err != nil {
			return nil, err
		}
		firsts[i] = at
		if q, ok := x.Ahead(); ok && q.Before(at) { // the first of its two samples
			firsts[i], some = q, true
		}
	}
	r.Sampler.Restart()
	if some {
		if _, err := r.readEach(ctx, firsts); err != nil {
			return nil, err
		}
	}
	return r.readAt(ctx, at)
}

// NextStep is the time a step forward from t reads at: the next sample of every archive when
// none of them has two by then (hosts sampled at the same interval, a little apart, all move
// on together), else the earliest one's.
func (r *Replay) NextStep(t time.Time) time.Time {
	var first, last time.Time
	for _, x := range r.h.Timelines() {
		if n, ok := x.After(t); ok {
			if first.IsZero() || n.Before(first) {
				first = n
			}
			if n.After(last) {
				last = n
			}
		}
	}
	if last.Equal(first) {
		return first
	}
	for _, x := range r.h.Timelines() {
		if x.Count(t, last, 2) > 1 {
			return first
		}
	}
	return last
}

// clampTo is t within a timeline's span.
func clampTo(t time.Time, x Timeline) time.Time {
	first, last := x.Span()
	return Within(t, first, last)
}

// readAt is one collection of every archive up to t.
func (r *Replay) readAt(ctx context.Context, t time.Time) (*ns.Snapshot, error) {
	tls := r.h.Timelines()
	ts := make([]time.Time, len(tls))
	for i := range ts {
		ts[i] = t
	}
	return r.readEach(ctx, ts)
}

// readEach is one collection of every archive, archive i up to ts[i].
func (r *Replay) readEach(ctx context.Context, ts []time.Time) (*ns.Snapshot, error) {
	var last time.Time
	for i, x := range r.h.Timelines() {
		x.ReadTo(ts[i])
		if ts[i].After(last) {
			last = ts[i]
		}
	}
	snap, err := r.Sampler.Sample(ctx)
	if err != nil {
		return nil, fmt.Errorf("replay at %s: %w", last.Format(time.RFC3339), err)
	}
	return snap, nil
}
