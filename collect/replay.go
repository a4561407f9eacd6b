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
	as *Archives

	mu     sync.Mutex // guards moveTo, moved and step
	moveTo time.Time  // a move asked for, not read yet
	moved  bool
	step   int        // a move by samples asked for (with moved): +1 the next, -1 the one before
	rd     sync.Mutex // serialises Sample's reading of the archives
}

// NewReplay puts a time cursor on s, a sampler of the archives as (OpenSource). It starts at
// at, or where the archives' first rates are when at is zero.
func NewReplay(s *Sampler, as *Archives, at time.Time) *Replay {
	r := &Replay{Sampler: s, as: as}
	s.opt.EveryClass = true // a reading after a jump has every class's rates
	if at.IsZero() {
		for _, x := range as.xs {
			if at.IsZero() || x.second.Before(at) {
				at = x.second
			}
		}
	}
	r.Move(at)
	return r
}

// Span is the time from the first archive's start to the last one's end.
func (r *Replay) Span() (first, last time.Time) { return r.as.Span() }

// Hosts are the archives' hosts.
func (r *Replay) Hosts() []string { return r.as.Hosts() }

// Now is the time of the sample shown: the latest one read.
func (r *Replay) Now() time.Time { return r.as.Clock() }

// Move asks the next Sample to read at t (the last sample at or before it), kept within the
// archives' span.
func (r *Replay) Move(t time.Time) {
	first, last := r.Span()
	t = within(t, first, last)
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

// dataAfter is the time of the archive's first data record after t, which is not before the
// one read last (its records ahead are read into pending).
func (x *archiveContext) dataAfter(t time.Time) (time.Time, bool) {
	for i := 0; ; i++ {
		if len(x.pending) <= i && !x.more() {
			return time.Time{}, false
		}
		if r := x.pending[i]; isData(r) && r.Time.After(t) {
			return r.Time, true
		}
	}
}

// dataBefore is the time of the archive's last data record before t, found by a seek (which
// the Sample that asks for it follows with a seek of its own).
func (x *archiveContext) dataBefore(t time.Time) (time.Time, bool) {
	if !t.After(x.first) {
		return time.Time{}, false
	}
	if err := x.seek(t.Add(-time.Nanosecond)); err != nil {
		return time.Time{}, false
	}
	var last time.Time
	for _, q := range x.pending {
		if q.Time.Before(t) && isData(q) {
			last = q.Time
		}
	}
	return last, !last.IsZero()
}

// countBetween counts the archive's data records after t and up to u, at most most, among its
// records ahead (more read ahead as needed): t is not before the one read last.
func (x *archiveContext) countBetween(t, u time.Time, most int) int {
	k := 0
	for i := 0; k < most; i++ {
		if len(x.pending) <= i && !x.more() {
			break
		}
		r := x.pending[i]
		if r.Time.After(u) {
			break
		}
		if isData(r) && r.Time.After(t) {
			k++
		}
	}
	return k
}

// more reads one more record ahead into pending; false at the end (or past a long run of
// pmcd's own records: no sample near).
func (x *archiveContext) more() bool {
	if len(x.pending) >= 256 {
		return false
	}
	rec, err := x.cur.Next()
	if err != nil {
		return false
	}
	x.pending = append(x.pending, rec)
	return true
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
			for _, x := range r.as.xs {
				_ = x.seek(clampTo(base, x)) // its records after base come next
			}
		}
		from := base
		for i := 0; i < step; i++ {
			next := r.nextStep(from)
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
			for _, x := range r.as.xs {
				if p, ok := x.dataBefore(at); ok && p.After(prev) {
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
		for _, x := range r.as.xs {
			back = back || at.Before(x.now)
			k := x.countBetween(x.now, at, 2)
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
	// then the one with rates.
	var before time.Time
	for _, x := range r.as.xs {
		// A time this host's archive does not cover: it reads its nearest end.
		if err := x.seek(clampTo(at, x)); err != nil {
			return nil, err
		}
		for _, q := range x.pending { // the first of its two samples
			if isData(q) {
				if q.Time.After(before) && q.Time.Before(at) {
					before = q.Time
				}
				break
			}
		}
	}
	r.Sampler.Restart()
	if !before.IsZero() {
		if _, err := r.readAt(ctx, before); err != nil {
			return nil, err
		}
	}
	return r.readAt(ctx, at)
}

// nextStep is the time a step forward from t reads at: the next sample of every archive when
// none of them has two by then (hosts sampled at the same interval, a little apart, all move
// on together), else the earliest one's.
func (r *Replay) nextStep(t time.Time) time.Time {
	var first, last time.Time
	for _, x := range r.as.xs {
		if n, ok := x.dataAfter(t); ok {
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
	for _, x := range r.as.xs {
		if x.countBetween(t, last, 2) > 1 {
			return first
		}
	}
	return last
}

// clampTo is t within the archive's span.
func clampTo(t time.Time, x *archiveContext) time.Time {
	first, last := x.Span()
	return within(t, first, last)
}

// readAt is one collection of every archive up to t.
func (r *Replay) readAt(ctx context.Context, t time.Time) (*ns.Snapshot, error) {
	for _, x := range r.as.xs {
		x.target.Store(t.UnixNano())
	}
	snap, err := r.Sampler.Sample(ctx)
	if err != nil {
		return nil, fmt.Errorf("replay at %s: %w", t.Format(time.RFC3339), err)
	}
	return snap, nil
}
