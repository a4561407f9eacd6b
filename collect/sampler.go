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
type Sampler struct {
	reg  *namespace.Registry
	log  *namespace.EventLog
	opt  Options
	prov []*provState
	mon  *monitor

	mu          sync.Mutex // serialises Sample
	prev, older *namespace.Snapshot
	lastSamples int // how many class samples the last collection made: room for the next
	refresh     bool
	restart     bool // the next collection does not follow the previous one (Restart)

	subMu sync.Mutex
	subs  map[*namespace.Class]int
	stMu  sync.Mutex // guards the provStates' status fields read by Status, and the list itself

	shared   map[string]int // a Shared context's id → how many suppliers declare it (SPMI-DDS-2)
	nextID   uint32
	lastDisc time.Time
	discCh   chan discResult // a discovery still running after its deadline
	discErr  string          // the last discovery's error, said once
}

// NewSampler registers every provider's classes, and the Monitor class, in reg.
func NewSampler(reg *namespace.Registry, provs []Provider, opt Options) (*Sampler, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Deadline <= 0 {
		opt.Deadline = 2 * time.Second
	}
	if opt.Liveness < 0 {
		opt.Liveness = DefaultLiveness
	}
	if err := ValidateLiveness(opt.Liveness); err != nil {
		return nil, err
	}
	if opt.Events <= 0 {
		opt.Events = 1000
	}
	if opt.IdleEvery <= 0 {
		opt.IdleEvery = DefaultIdleEvery
	}
	if opt.DiscoverEvery <= 0 {
		opt.DiscoverEvery = 2 * time.Second
	}
	s := &Sampler{reg: reg, log: namespace.NewEventLog(opt.Events), opt: opt, subs: map[*namespace.Class]int{}, shared: map[string]int{}}
	// The order suppliers are found in means nothing (DCI4-SUP-9): they are sorted by module.
	provs = slices.Clone(provs)
	slices.SortStableFunc(provs, func(a, b Provider) int { return strings.Compare(a.Supplier().Module, b.Supplier().Module) })
	for i, p := range provs {
		s.nextID++
		ps := &provState{p: p, sup: p.Supplier(), index: i, id: s.nextID, needStatic: true, insts: map[*namespace.Class][]*namespace.Instance{}}
		ps.classes = p.Classes()
		// One supplier that cannot be registered does not stop the others (DCI4-SUP-2): it stays
		// listed, failed, with its error, and is never collected.
		if err := s.register(ps); err != nil {
			ps.regErr, ps.lastErr, ps.failing = err, err, true
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
	return s.prev
}

// Restart says the next collection does not follow the previous one: a replayed archive was
// moved to another time, so no rate or delta is taken across (namespace.Sample.Restart). Call
// it between collections (Sample serialises, and it is the Replay's, which calls it under its
// own lock).
func (s *Sampler) Restart() {
	s.mu.Lock()
	s.restart = true
	s.mu.Unlock()
}

// Refresh makes the next collection re-read SV_VARIABLE datums too (DCI4-DESC-3).
func (s *Sampler) Refresh() {
	s.mu.Lock()
	s.refresh = true
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
		return s.prev, err
	}
	start := s.opt.Now()
	refresh := s.refresh
	s.refresh = false
	s.discover(ctx, start)

	jobs, skipped := s.plan(start, refresh)
	dctx, cancel := context.WithTimeout(ctx, s.opt.Deadline)
	defer cancel()
	for _, j := range jobs {
		go s.run(dctx, j.ps, j.req, j.ch)
	}

	samples := make([]namespace.ClassSample, 0, s.lastSamples)
	for _, j := range jobs {
		res := s.await(dctx, j)
		if s.reinitialised(j.ps, res) {
			res, j.req = s.readReinitialised(dctx, j, res, start, refresh)
		}
		samples = s.absorb(samples, j.ps, j.req, res, start)
		s.grow(j.ps, start)
	}
	for _, ps := range skipped {
		res := result{err: fmt.Errorf("%s: still busy with an earlier collection", ps.sup.Module), why: namespace.ReasonTimeout}
		req, _ := s.request(ps, start, false)
		samples = s.absorb(samples, ps, req, res, start)
	}
	end := s.opt.Now()
	samples = append(samples, s.mon.sample(ctx, start, end)...)
	s.lastSamples = len(samples)
	next := namespace.Next(s.prev, &namespace.Sample{Start: start, End: end, Classes: samples, Restart: s.restart}, s.older)
	s.restart = false
	s.older, s.prev = s.prev, next
	s.logJumps(next, end)
	return next, nil
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
		if ps.regErr != nil {
			continue
		}
		req, ok := s.request(ps, start, refresh)
		if !ok {
			continue
		}
		if ps.running { // still stuck in an earlier collection: do not pile up goroutines
			skipped = append(skipped, ps)
			continue
		}
		ps.running = true
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
			return result{err: fmt.Errorf("%s: no answer within %v", j.ps.sup.Module, s.opt.Deadline), why: namespace.ReasonTimeout, dur: s.opt.Deadline}
		}
	}
}

// reinitialised says a good result comes from a new incarnation of the supplier: its reset
// value is not the one known (or a supplier just found declares its first classes so).
func (s *Sampler) reinitialised(ps *provState, res result) bool {
	return res.err == nil && (ps.haveReset || res.batch.Redeclared) && res.batch.Reset != ps.reset
}

// readReinitialised handles a supplier that re-initialised: it is logged, and everything read
// again (static datums and descriptions) so the new incarnation is complete from its first
// reading. It returns that reading, or a failure, and the request it answers.
func (s *Sampler) readReinitialised(dctx context.Context, j collectJob, res result, start time.Time, refresh bool) (result, Request) {
	// A user's supplier that has just been found declares its first classes so: not logged.
	if (!j.ps.dynamic || j.ps.reset != ([8]byte{})) && j.ps.haveReset {
		s.log.Add(namespace.Event{Time: start, Kind: namespace.EvSupplierReset, Path: j.ps.sup.Module,
			Text: fmt.Sprintf("supplier %s re-initialised (reset %x → %x)", j.ps.sup.Module, j.ps.reset[:], res.batch.Reset[:])})
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
	j.ps.running = true
	s.stMu.Unlock()
	ch := make(chan result, 1)
	go s.run(dctx, j.ps, req, ch)
	// The second call may reuse the first batch's buffers, so the first is never used
	// after it: the new incarnation's reading, or a failure.
	select {
	case res = <-ch:
	case <-dctx.Done():
		res = result{err: fmt.Errorf("%s: no answer within %v after re-initialising", j.ps.sup.Module, s.opt.Deadline), why: namespace.ReasonTimeout, dur: s.opt.Deadline}
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
// running flag is cleared before the result is sent, so a collection that follows at once never
// mistakes a finished provider for a stuck one.
func (s *Sampler) run(ctx context.Context, ps *provState, req Request, ch chan<- result) {
	t0 := s.opt.Now()
	var res result
	defer func() {
		if r := recover(); r != nil {
			res = result{err: fmt.Errorf("%s: panic: %v\n%s", ps.sup.Module, r, firstLines(debug.Stack(), 8)), why: namespace.ReasonProviderError, dur: s.opt.Now().Sub(t0)}
		}
		s.stMu.Lock()
		ps.running = false
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
