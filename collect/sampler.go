package collect

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"dcimon/namespace"
)

type result struct {
	batch Batch
	err   error
	dur   time.Duration
	why   namespace.Reason
	slack time.Duration // the class samples' Slack: ReplaySlack on a recording's clock
}

// ReplaySlack is how far a recorded reading's timestamp may be from when its values were read:
// an archive's record carries the time pmcd stamped its answer with, not how long the fetch took
// (a loaded pmcd's first answer to pmlogger was stamped 76 ms after its values were read: 2.00 s
// of processor time in 0.92 s on 2 processors). A live reading's slack is how long it took.
const ReplaySlack = 50 * time.Millisecond

// Sampler is dcimon's DCI server: it owns the name space, runs the providers concurrently under
// a deadline (for the classes someone is subscribed to, and every class now and then: see
// Subscribe), isolates their failures, keeps instances in step with what they report (with
// added and removed events), and turns each collection into the next immutable snapshot.
// Sample calls are serialised; everything else is safe for concurrent use.
//
// Its state has three owners, each a lock over named parts:
//   - mu is held by Sample and GoAway for the whole of their run (Snapshot, Restart and Refresh
//     take it a moment): it guards what one collection leaves the next (col), the finding of
//     users' suppliers (disc), the Shared contexts' count and every provState's reading fields;
//   - stMu guards the provider list and every provider's health, which Status reads while a
//     Sample runs: only the holder of mu changes them (and run's goroutine health.collecting);
//   - subs has its own lock: any goroutine changes the subscriptions (Subscribe).
type Sampler struct {
	reg *namespace.Registry
	log *namespace.EventLog // safe for concurrent use
	opt Options
	mon *monitor

	mu     sync.Mutex
	col    collection
	disc   discovery
	shared map[string]int // a Shared context's id → how many suppliers declare it (SPMI-DDS-2)
	nextID uint32         // how many suppliers the sampler has had

	stMu sync.Mutex
	prov []*provState

	subs subscriptions
}

// collection is what one collection leaves the next (guarded by Sampler.mu).
type collection struct {
	prev, older *namespace.Snapshot // the latest snapshot and the one before it
	asked       nextAsks            // what callers asked of the next collection
	// samples is the class samples' array, used again collection after collection: Next copies
	// what it keeps of them, and a fleet of 10,000 hosts makes 300,000 of 192 bytes a
	// collection (57 MB a second to allocate and collect, issue 38).
	samples []namespace.ClassSample
}

// nextAsks is what callers asked of the next collection between two, taken whole by it.
type nextAsks struct {
	rereadVariable bool // re-read SV_VARIABLE datums too (Refresh)
	restart        bool // it does not follow the previous one (Restart)
}

// takeAsked is what was asked of this collection, which the next no longer is.
func (c *collection) takeAsked() nextAsks {
	a := c.asked
	c.asked = nextAsks{}
	return a
}

// keep makes this collection's snapshot from its samples and keeps it as the latest.
func (c *collection) keep(samples []namespace.ClassSample, start, end time.Time, restart, noDerived bool) *namespace.Snapshot {
	next := namespace.Next(c.prev, &namespace.Sample{Start: start, End: end, Classes: samples, Restart: restart, NoDerived: noDerived}, c.older)
	c.older, c.prev = c.prev, next
	// The array is kept for the next collection, emptied of what it points to (the providers'
	// rows, the instances, the errors), which it must not keep alive.
	clear(samples)
	c.samples = samples[:0]
	return next
}

// NewSampler registers every provider's classes, and the Monitor class, in reg.
func NewSampler(reg *namespace.Registry, provs []Provider, opt Options) (*Sampler, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Sampler{reg: reg, log: namespace.NewEventLog(opt.Events), opt: opt, subs: subscriptions{count: map[*namespace.Class]int{}}, shared: map[string]int{}}
	// The order suppliers are found in means nothing (DCI4-SUP-9): they are sorted by module.
	provs = slices.Clone(provs)
	slices.SortStableFunc(provs, func(a, b Provider) int { return strings.Compare(a.Supplier().Module, b.Supplier().Module) })
	for _, p := range provs {
		s.nextID++
		ps := &provState{p: p, sup: p.Supplier(), id: s.nextID, needStatic: true, insts: map[*namespace.Class][]*namespace.Instance{}}
		ps.classes = p.Classes()
		// One supplier that cannot be registered does not stop the others (DCI4-SUP-2): it stays
		// listed, failed, with its error, and is never collected.
		if err := s.register(ps); err != nil {
			ps.health.read, ps.health.lastErr = unregistered, err
			ps.classes = nil
			s.log.Add(namespace.Event{Time: opt.Now(), Kind: namespace.EvProviderError, Path: ps.sup.Module,
				Text: fmt.Sprintf("supplier %s not registered: %v", ps.sup.Module, err)})
		}
		s.prov = append(s.prov, ps)
	}
	m, err := newMonitor(reg, s)
	if err != nil {
		return nil, err
	}
	s.mon = m
	return s, nil
}

// Registry is the name space the sampler fills.
func (s *Sampler) Registry() *namespace.Registry { return s.reg }

// Events is the event log: instances added and removed, supplier resets and deaths, provider errors.
func (s *Sampler) Events() *namespace.EventLog { return s.log }

// Snapshot is the latest snapshot, nil before the first Sample.
func (s *Sampler) Snapshot() *namespace.Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.col.prev
}

// Restart says the next collection does not follow the previous one: a replayed archive was
// moved to another time, so no rate or delta is taken across (namespace.Sample.Restart). Call
// it between collections (Sample serialises, and it is the Replay's, which calls it under its
// own lock).
func (s *Sampler) Restart() {
	s.mu.Lock()
	s.col.asked.restart = true
	s.mu.Unlock()
}

// Refresh makes the next collection re-read SV_VARIABLE datums too (DCI4-DESC-3).
func (s *Sampler) Refresh() {
	s.mu.Lock()
	s.col.asked.rereadVariable = true
	s.mu.Unlock()
}

// Status reports every provider's health, in provider order.
func (s *Sampler) Status() []ProviderStatus {
	s.stMu.Lock()
	defer s.stMu.Unlock()
	out := make([]ProviderStatus, len(s.prov))
	for i, ps := range s.prov {
		out[i] = ps.status()
	}
	return out
}

// Sample runs one collection and returns the new snapshot. Provider failures never fail the
// sample: they are reported per class, in the Monitor class and in the event log (house style
// rule 6, PCPF-12). The error is only for a cancelled ctx.
func (s *Sampler) Sample(ctx context.Context) (*namespace.Snapshot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return s.col.prev, err
	}
	start := s.opt.Now()
	asked := s.col.takeAsked()
	s.discover(ctx, start)
	samples := s.collectProviders(ctx, start, asked.rereadVariable)
	end := s.opt.Now()
	samples = append(samples, s.mon.sample(ctx, start, end)...)
	next := s.col.keep(samples, start, end, asked.restart, s.opt.NoDerived)
	s.logJumps(next, end)
	return next, nil
}

// collectProviders runs every provider that has something to read, each on its goroutine
// (worker.go) under the deadline, and turns their results into class samples, in provider order.
func (s *Sampler) collectProviders(ctx context.Context, start time.Time, refresh bool) []namespace.ClassSample {
	jobs, skipped := s.plan(start, refresh)
	dctx, cancel := context.WithTimeout(ctx, s.opt.Deadline)
	defer cancel()
	for _, j := range jobs {
		j.ps.give(provJob{s: s, ctx: dctx, ps: j.ps, req: j.req, ch: j.ch})
	}
	samples := s.col.samples[:0]
	s.col.samples = nil // taken: Sample gives it back through keep
	for _, j := range jobs {
		samples = s.absorbJob(dctx, samples, j, start, refresh)
	}
	for _, ps := range skipped {
		samples = s.absorbBusy(samples, ps, start)
	}
	return samples
}

// absorbJob waits for a job's result (read again whole when the supplier re-initialised) and
// turns it into class samples; the classes its provider grew are registered after.
func (s *Sampler) absorbJob(dctx context.Context, out []namespace.ClassSample, j collectJob, start time.Time, refresh bool) []namespace.ClassSample {
	res := s.await(dctx, j)
	if s.reinitialised(j.ps, res) {
		res, j.req = s.readReinitialised(dctx, j, res, start, refresh)
	}
	out = s.absorb(out, j.ps, j.req, res, start)
	s.grow(j.ps, start)
	return out
}

// absorbBusy is the samples of a provider still stuck in an earlier collection: each a timeout.
func (s *Sampler) absorbBusy(out []namespace.ClassSample, ps *provState, start time.Time) []namespace.ClassSample {
	res := result{err: fmt.Errorf("%s: still busy with an earlier collection", ps.sup.Module), why: namespace.ReasonTimeout}
	req, _ := s.request(ps, start, false)
	return s.absorb(out, ps, req, res, start)
}

// collectJob is one provider's collection in a sample: its request and where its result comes.
type collectJob struct {
	ps  *provState
	req Request
	ch  chan result
}

// plan is the collections of a sample: one job per registered provider that has something to
// read, marked running; skipped are those still stuck in an earlier collection (no goroutines
// pile up on them).
func (s *Sampler) plan(start time.Time, refresh bool) (jobs []collectJob, skipped []*provState) {
	s.stMu.Lock()
	defer s.stMu.Unlock()
	for _, ps := range s.prov {
		if ps.health.read == unregistered {
			continue
		}
		req, ok := s.request(ps, start, refresh)
		if !ok {
			continue
		}
		if ps.health.collecting { // still stuck in an earlier collection: do not pile up goroutines
			skipped = append(skipped, ps)
			continue
		}
		ps.health.collecting = true
		if req.Classes == nil || req.every {
			ps.lastFull = start
		}
		jobs = append(jobs, collectJob{ps: ps, req: req, ch: make(chan result, 1)})
	}
	return jobs, skipped
}

// await is a job's result, or a timeout once the sample's deadline passes: a result that
// arrived at the same moment is taken, else the provider is given up on.
func (s *Sampler) await(dctx context.Context, j collectJob) result {
	select {
	case res := <-j.ch:
		return res
	case <-dctx.Done():
		select {
		case res := <-j.ch:
			return res
		default:
			return result{err: fmt.Errorf("%s: %w within %v", j.ps.sup.Module, ErrNoAnswer, s.opt.Deadline), why: namespace.ReasonTimeout, dur: s.opt.Deadline}
		}
	}
}

// reinitialised says a good result comes from a new incarnation of the supplier: its reset
// value is not the one known (or a supplier just found declares its first classes so).
func (s *Sampler) reinitialised(ps *provState, res result) bool {
	return res.err == nil && (ps.resetKnown() || res.batch.Redeclared) && res.batch.Reset != ps.health.reset
}

// readReinitialised handles a supplier that re-initialised: it is logged, and everything read
// again (static datums and descriptions) so the new incarnation is complete from its first
// reading. It returns that reading, or a failure, and the request it answers.
func (s *Sampler) readReinitialised(dctx context.Context, j collectJob, res result, start time.Time, refresh bool) (result, Request) {
	// A user's supplier that has just been found declares its first classes so: not logged.
	if (j.ps.origin == builtIn || j.ps.health.reset != ([8]byte{})) && j.ps.resetKnown() {
		s.log.Add(namespace.Event{Time: start, Kind: namespace.EvSupplierReset, Path: j.ps.sup.Module,
			Text: fmt.Sprintf("supplier %s re-initialised (reset %x → %x)", j.ps.sup.Module, j.ps.health.reset[:], res.batch.Reset[:])})
	}
	j.ps.needStatic = true
	s.redescribe(j.ps, start)
	// The request again, of the classes as now registered (those described anew are
	// other classes): every one of them is read in this collection.
	s.stMu.Lock()
	if req, ok := s.request(j.ps, start, refresh); ok {
		j.req = req
	}
	req := j.req
	req.Static, req.Variable = true, true
	j.ps.health.collecting = true
	s.stMu.Unlock()
	ch := make(chan result, 1)
	j.ps.give(provJob{s: s, ctx: dctx, ps: j.ps, req: req, ch: ch})
	// The second call may reuse the first batch's buffers, so the first is never used
	// after it: the new incarnation's reading, or a failure.
	select {
	case res = <-ch:
	case <-dctx.Done():
		res = result{err: fmt.Errorf("%s: %w within %v after re-initialising", j.ps.sup.Module, ErrNoAnswer, s.opt.Deadline), why: namespace.ReasonTimeout, dur: s.opt.Deadline}
	}
	return res, j.req
}

// logJumps records every counter whose rise was impossible at this reading: the value is
// shown as "—" with the reason, and the event log says which statistic and what it read.
func (s *Sampler) logJumps(snap *namespace.Snapshot, now time.Time) {
	for i := range snap.Classes {
		cv := &snap.Classes[i]
		if cv.Jumps == 0 {
			continue
		}
		for _, ref := range cv.JumpRefs() {
			v, _, _ := snap.Lookup(ref)
			s.log.Add(namespace.Event{Time: now, Kind: namespace.EvDiscontinuity, Path: ref.Path(), Class: cv.Class.ID,
				Text: fmt.Sprintf("%s: counter read %d after %v, a rise no hardware makes: no rate this interval",
					ref.Path(), v.N, cv.Elapsed.Round(time.Millisecond))})
		}
	}
}

// run is one provider collection in its own goroutine, with panics turned into errors. The
// collecting mark (health.collecting) is cleared before the result is sent, so a collection that follows at once never
// mistakes a finished provider for a stuck one.
func (s *Sampler) run(ctx context.Context, ps *provState, req Request, ch chan<- result) {
	t0 := s.opt.Now()
	var res result
	defer func() {
		if r := recover(); r != nil {
			res = result{err: fmt.Errorf("%s: panic: %v\n%s", ps.sup.Module, r, firstLines(debug.Stack(), 8)), why: namespace.ReasonProviderError, dur: s.opt.Now().Sub(t0)}
		}
		s.stMu.Lock()
		ps.health.collecting = false
		s.stMu.Unlock()
		ch <- res
	}()
	b, err := ps.p.Collect(ctx, req)
	res = result{batch: b, err: err, dur: s.opt.Now().Sub(t0)}
	if err != nil {
		res.why = namespace.ReasonProviderError
		if errors.Is(err, context.DeadlineExceeded) {
			res.why = namespace.ReasonTimeout
		}
	}
}

func firstLines(b []byte, n int) string {
	for i, c := range b {
		if c == '\n' {
			if n--; n == 0 {
				return string(b[:i])
			}
		}
	}
	return string(b)
}
