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
// The monitor calls Move and Step on its own goroutine, between collections, and Sample inside
// its commands; a Sample without a move reads again where the cursor is (a class that came on
// screen), never further.
//
// Its state is in two parts, each with its own lock: the move asked for and not read yet (mu),
// written by Move and Step and taken whole by Sample; and the timelines' reading places, which
// only Sample moves, one Sample at a time (reading).
type Replay struct {
	*Sampler
	history History // the hosts' recorded past: its timelines and its clock

	mu    sync.Mutex // guards asked
	asked cursorMove // the move asked for since the last Sample

	reading sync.Mutex // serialises Sample's reading of the archives
}

// cursorMove is a move of the replay cursor asked for and not read yet.
type cursorMove struct {
	pending bool      // a Move or Step was asked for since the last Sample
	to      time.Time // where Move asked to read; zero when the steps count from the sample shown
	steps   int       // samples to step from there: +n the nth after, -n the nth before
}

// from is where the move's steps count from: its time, or the sample shown.
func (m cursorMove) from(shown time.Time) time.Time {
	if m.to.IsZero() {
		return shown
	}
	return m.to
}

// NewReplay puts a time cursor on s, a sampler of the archives as (OpenSource). It starts at
// at, or where the archives' first rates are when at is zero.
func NewReplay(s *Sampler, h History, at time.Time) *Replay {
	r := &Replay{Sampler: s, history: h}
	s.opt.EveryClass = true // a reading after a jump has every class's rates
	if at.IsZero() {
		at = earliestStart(h)
	}
	r.Move(at)
	return r
}

// earliestStart is where the first rates of any of h's timelines are.
func earliestStart(h History) time.Time {
	var at time.Time
	for _, x := range h.Timelines() {
		if at.IsZero() || x.Start().Before(at) {
			at = x.Start()
		}
	}
	return at
}

// Span is the time from the first archive's start to the last one's end.
func (r *Replay) Span() (first, last time.Time) { return r.history.Span() }

// Hosts are the archives' hosts.
func (r *Replay) Hosts() []string { return r.history.Hosts() }

// Now is the time of the sample shown: the latest one read.
func (r *Replay) Now() time.Time { return r.history.Clock() }

// Move asks the next Sample to read at t (the last sample at or before it), kept within the
// archives' span.
func (r *Replay) Move(t time.Time) {
	first, last := r.Span()
	t = Within(t, first, last)
	r.mu.Lock()
	r.asked = cursorMove{pending: true, to: t}
	r.mu.Unlock()
}

// Step asks the next Sample to read the nth sample after the one shown (n > 0) or before it
// (n < 0); steps asked for before a Sample add up, and after a Move not read yet they count
// from its time. It reads nothing itself: the monitor calls it on its own goroutine.
func (r *Replay) Step(n int) {
	r.mu.Lock()
	if !r.asked.pending {
		r.asked.to = time.Time{} // from the sample shown
	}
	r.asked.pending, r.asked.steps = true, r.asked.steps+n
	r.mu.Unlock()
}

// takeMove is the move asked for since the last Sample, which no longer is.
func (r *Replay) takeMove() cursorMove {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.asked
	r.asked = cursorMove{}
	return m
}

// Sample reads at the time the last Move or Steps asked for, or again where the cursor is.
func (r *Replay) Sample(ctx context.Context) (*ns.Snapshot, error) {
	move := r.takeMove()
	r.reading.Lock()
	defer r.reading.Unlock()
	switch {
	case !move.pending:
		return r.seekAndRead(ctx, r.Now())
	case move.steps > 0:
		return r.stepForward(ctx, move.from(r.Now()), move.steps)
	case move.steps < 0:
		return r.stepBack(ctx, move.from(r.Now()), -move.steps)
	}
	return r.readFollowing(ctx, move.from(r.Now()))
}

// stepForward reads the nth sample after from. From a time before the sample shown (a Move
// not read yet, then steps) the timelines are placed there first, and the reading is a seek;
// from the sample shown it follows on.
func (r *Replay) stepForward(ctx context.Context, from time.Time, n int) (*ns.Snapshot, error) {
	placed := from.Before(r.Now())
	if placed {
		for _, x := range r.history.Timelines() {
			_ = x.Seek(clampTo(from, x)) // its records after from come next
		}
	}
	at, ok := r.nthStep(from, n)
	if !ok {
		return r.Sampler.Snapshot(), fmt.Errorf("replay: %w: no sample after %s", ErrArchiveEnd, r.Now().Format(time.RFC3339))
	}
	if placed {
		return r.seekAndRead(ctx, at)
	}
	return r.readFollowing(ctx, at)
}

// stepBack reads the nth sample before from, by a seek.
func (r *Replay) stepBack(ctx context.Context, from time.Time, n int) (*ns.Snapshot, error) {
	at, ok := r.nthBefore(from, n)
	if !ok {
		return r.Sampler.Snapshot(), fmt.Errorf("replay: the start of the archive: no sample before %s", r.Now().Format(time.RFC3339))
	}
	return r.seekAndRead(ctx, at)
}

// nthStep is the time n steps forward from t reads at (NextStep n times), as far as the
// timelines go; false when there is not one step.
func (r *Replay) nthStep(t time.Time, n int) (time.Time, bool) { return nth(t, n, r.NextStep) }

// nthBefore is the time of the nth sample before t, of any timeline, as far as they go; false
// when there is none before t.
func (r *Replay) nthBefore(t time.Time, n int) (time.Time, bool) { return nth(t, n, r.latestBefore) }

// nth is the time n moves of move from t, as far as move goes (it returns zero where it cannot);
// false when it cannot move once.
func nth(t time.Time, n int, move func(time.Time) time.Time) (time.Time, bool) {
	for i := range n {
		next := move(t)
		if next.IsZero() {
			return t, i > 0
		}
		t = next
	}
	return t, true
}

// latestBefore is the time of the last sample before t of any timeline; zero when none has one.
func (r *Replay) latestBefore(t time.Time) time.Time {
	var latest time.Time
	for _, x := range r.history.Timelines() {
		if p, ok := x.Before(t); ok && p.After(latest) {
			latest = p
		}
	}
	return latest
}

// readFollowing reads at t, a time that may follow the sample shown: when each timeline has at
// most its next sample by t and one has it, the reading goes on from the one shown; when none
// has a sample by t (a play between two samples), what is shown stays. Otherwise (t before a
// sample shown, or two samples or more ahead) it is a seek.
func (r *Replay) readFollowing(ctx context.Context, t time.Time) (*ns.Snapshot, error) {
	shown := r.Sampler.Snapshot()
	behind, ahead := r.samplesAhead(t)
	switch {
	case shown == nil || behind:
	case ahead == 1:
		return r.readAt(ctx, t)
	case ahead == 0 && !t.Equal(r.Now()):
		return shown, nil
	}
	return r.seekAndRead(ctx, t)
}

// samplesAhead says whether t is before the sample some timeline shows (behind), and the most
// samples any timeline has after the one it shows and up to t, counted to 2 at most.
func (r *Replay) samplesAhead(t time.Time) (behind bool, most int) {
	for _, x := range r.history.Timelines() {
		behind = behind || t.Before(x.Shown())
		most = max(most, x.Count(x.Shown(), t, 2))
	}
	return behind, most
}

// seekAndRead is a seek: every timeline to the two samples that end at t, read as a first
// reading and then the one with rates. Each timeline's first reading is its own first of the
// two: hosts whose archives end at different times (one ended long before t) each have their
// rates.
func (r *Replay) seekAndRead(ctx context.Context, t time.Time) (*ns.Snapshot, error) {
	timelines := r.history.Timelines()
	firsts := make([]time.Time, len(timelines)) // each timeline's first of the two samples
	someBefore := false                         // some timeline's first is before t
	for i, x := range timelines {
		// A time this host's archive does not cover: it reads its nearest end.
		if err := x.Seek(clampTo(t, x)); err != nil {
			return nil, err
		}
		firsts[i] = t
		if first, ok := x.Ahead(); ok && first.Before(t) {
			firsts[i], someBefore = first, true
		}
	}
	r.Sampler.Restart()
	if someBefore {
		if _, err := r.readEach(ctx, firsts); err != nil {
			return nil, err
		}
	}
	return r.readAt(ctx, t)
}

// NextStep is the time a step forward from t reads at: the next sample of every archive when
// none of them has two by then (hosts sampled at the same interval, a little apart, all move
// on together), else the earliest one's.
func (r *Replay) NextStep(t time.Time) time.Time {
	earliest, latest := r.nextSamples(t)
	if latest.Equal(earliest) {
		return earliest
	}
	for _, x := range r.history.Timelines() {
		if x.Count(t, latest, 2) > 1 {
			return earliest
		}
	}
	return latest
}

// nextSamples is the earliest and the latest of the timelines' first samples after t; zero
// when none has one.
func (r *Replay) nextSamples(t time.Time) (earliest, latest time.Time) {
	for _, x := range r.history.Timelines() {
		next, ok := x.After(t)
		if !ok {
			continue
		}
		if earliest.IsZero() || next.Before(earliest) {
			earliest = next
		}
		latest = later(latest, next)
	}
	return earliest, latest
}

// later is the later of a and b.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// clampTo is t within a timeline's span.
func clampTo(t time.Time, x Timeline) time.Time {
	first, last := x.Span()
	return Within(t, first, last)
}

// readAt is one collection of every archive up to t.
func (r *Replay) readAt(ctx context.Context, t time.Time) (*ns.Snapshot, error) {
	upTo := make([]time.Time, len(r.history.Timelines()))
	for i := range upTo {
		upTo[i] = t
	}
	return r.readEach(ctx, upTo)
}

// readEach is one collection of every archive, archive i up to upTo[i].
func (r *Replay) readEach(ctx context.Context, upTo []time.Time) (*ns.Snapshot, error) {
	var last time.Time
	for i, x := range r.history.Timelines() {
		x.ReadTo(upTo[i])
		last = later(last, upTo[i])
	}
	snap, err := r.Sampler.Sample(ctx)
	if err != nil {
		return nil, fmt.Errorf("replay at %s: %w", last.Format(time.RFC3339), err)
	}
	return snap, nil
}
