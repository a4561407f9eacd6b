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

// Liveness limits (SPMI-DDS-4, AMB-48): 0 disables the check, otherwise 15 s to 600 s.
const (
	DefaultLiveness = 30 * time.Second
	MinLiveness     = 15 * time.Second
	MaxLiveness     = 600 * time.Second
	// variableEvery is how often SV_VARIABLE datums are re-read (DCI4-DESC-3, AMB-56).
	variableEvery = 5 * time.Minute
	// DefaultIdleEvery is how often classes nobody is subscribed to are still read while others
	// are (SPMI-DDS-6: "keep updating slowly, about every 5 s, rather than stopping").
	DefaultIdleEvery = 5 * time.Second
)

// Options configure a Sampler.
type Options struct {
	// Now is the clock; time.Now when nil. Tests inject a fake one.
	Now func() time.Time
	// Replay says Now is a recording's clock (archives, a series), not the wall clock: a
	// reading takes no time on it, and each class sample's timestamp may be ReplaySlack from
	// its values (issue 40 item 6).
	Replay bool
	// Deadline bounds one provider's collection; 2 s when zero. A provider that is still
	// running at the deadline fails this collection (its goroutine is left to finish) and is
	// not started again until it returns.
	Deadline time.Duration
	// Liveness is the SPMI dynamic-data-supplier timeout: a provider whose data has not been
	// updated for longer is assumed dead (SiAssumedDead). 0 disables; negative means the default.
	Liveness time.Duration
	// Events is the size of the event log; 1000 when zero.
	Events int
	// IdleEvery is how often a provider's unsubscribed classes are read while someone is
	// subscribed to something; DefaultIdleEvery when zero.
	IdleEvery time.Duration
	// EveryClass reads every class at every collection, subscribed or not (a replay: its
	// readings jump in time, and a class read now and then would have no rate after a jump).
	EveryClass bool
	// Discover, when set, finds suppliers that come and go while dcimon runs (users' files and
	// programs under DDS, issue 18); it is asked at the first collection and then every
	// DiscoverEvery (2 s when zero), under the deadline.
	Discover      Discoverer
	DiscoverEvery time.Duration
	// Self reads dcimon's own process for the Monitor class (the Linux source's reader of
	// /proc/self); without it those statistics are n/a.
	Self func(ctx context.Context) (SelfUsage, error)
}

// SelfUsage is what dcimon's own process holds now: resident and virtual memory in bytes, and
// its threads. Its CPU time comes from getrusage.
type SelfUsage struct {
	RSS, VM, Threads uint64
}

// ValidateLiveness checks a liveness timeout: 0 or 15 s to 600 s (SPMI-DDS-4).
func ValidateLiveness(d time.Duration) error {
	if d == 0 || (d >= MinLiveness && d <= MaxLiveness) {
		return nil
	}
	return fmt.Errorf("liveness timeout %v: want 0 (disabled) or %v to %v (SPMI-DDS-4)", d, MinLiveness, MaxLiveness)
}

// ProviderStatus is what the sampler knows about one provider's health.
type ProviderStatus struct {
	ID        uint32 // its number among every supplier the sampler has had
	Dynamic   bool   // an extension supplier (a user's file or program), which can be told to go away
	Supplier  namespace.Supplier
	State     string // "ok", "failing", "busy" (still running after a deadline), "dead", "idle"
	LastDur   time.Duration
	Successes uint64
	Failures  uint64
	LastErr   error
	Warning   error // what is wrong though it still supplies (Warner); nil when nothing is
	LastOK    time.Time
}

type provState struct {
	p       Provider
	sup     namespace.Supplier
	classes []*namespace.Class        // the classes registered for it (parents before children)
	every   map[*namespace.Class]bool // a request's every class, kept while classes stay: never changed once made
	warning error                     // its Warner's last warning
	index   int
	id      uint32 // its number among every supplier the sampler has had (the Monitor instance)
	// dynamic marks a supplier found by the Discoverer: its classes are registered one by one,
	// as it declares them, and taken back when it dies or goes (SPMI-DDS-1 to 5).
	dynamic bool
	refused map[string]string // class id → why the registry refused it, so it is said once

	reset      [8]byte
	haveReset  bool
	needStatic bool
	lastVar    time.Time
	lastFull   time.Time // when every class was last asked for (SPMI-DDS-6)
	lastTime   time.Time // the provider's own timestamp of its last data (liveness)
	lastOK     time.Time // when the sampler last saw it update
	dead       bool
	failing    bool
	running    bool // a collection goroutine has not returned yet
	successes  uint64
	failures   uint64
	lastErr    error
	regErr     error // registration failed: the supplier is listed, failed, and never collected
	lastDur    time.Duration
	insts      map[*namespace.Class][]*namespace.Instance
}

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
	// subsPlain counts the classes of subs that are not on demand (requests.go).
	subsPlain int
	stMu      sync.Mutex // guards the provStates' status fields read by Status, and the list itself

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

func (ps *provState) status() ProviderStatus {
	st := "ok"
	switch {
	case ps.regErr != nil:
		st = "not registered"
	case ps.dead:
		st = "dead"
	case ps.running && ps.failing:
		st = "busy"
	case ps.failing:
		st = "failing"
	case ps.successes == 0 && ps.failures == 0:
		st = "idle"
	}
	sup := ps.sup
	sup.Reset = ps.reset
	return ProviderStatus{ID: ps.id, Dynamic: ps.dynamic, Supplier: sup, State: st, LastDur: ps.lastDur, Successes: ps.successes,
		Failures: ps.failures, LastErr: ps.lastErr, Warning: ps.warning, LastOK: ps.lastOK}
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

// absorb turns one provider result into class samples, appended to out, syncing instances and
// updating health.
func (s *Sampler) absorb(out []namespace.ClassSample, ps *provState, req Request, res result, now time.Time) []namespace.ClassSample {
	s.stMu.Lock()
	defer s.stMu.Unlock()
	ps.lastDur = res.dur
	if s.opt.Replay {
		// The replay clock is the latest record any archive has read: the other hosts' reads
		// move it meanwhile, so its difference over one reading is no duration of this one's.
		res.dur, res.slack = 0, ReplaySlack
	}
	wasDead := ps.dead
	if res.err == nil {
		s.noteAnswer(ps, req, res, now)
	} else {
		s.noteFailure(ps, res, now)
	}
	if s.diesNow(ps, now) && ps.dynamic {
		// A user's supplier's contexts and statistics are removed (SPMI-DDS-4); they are
		// declared again when it updates.
		s.retract(ps, now)
		return out
	}
	if ps.dynamic && wasDead && !ps.dead {
		s.redescribe(ps, now)
	}
	if res.err == nil && !ps.dead {
		return s.readSamples(out, ps, req, res, now)
	}
	return s.failedSamples(out, ps, req, res, now)
}

// noteAnswer updates a provider's health after an answer: its time, a supplier answering again
// or warning anew is logged, and the static and variable datums count as read once every class
// has been read.
func (s *Sampler) noteAnswer(ps *provState, req Request, res result, now time.Time) {
	t := res.batch.Time
	if t.IsZero() {
		t = now.Add(res.dur)
	}
	updated := t.After(ps.lastTime) || ps.lastTime.IsZero()
	if updated {
		ps.lastTime, ps.lastOK = t, now
	}
	if ps.failing || (ps.dead && updated) {
		s.log.Add(namespace.Event{Time: now, Kind: namespace.EvSupplierAlive, Path: ps.sup.Module,
			Text: fmt.Sprintf("supplier %s answers again", ps.sup.Module)})
	}
	ps.failing, ps.lastErr = false, nil
	s.noteWarning(ps, now)
	ps.successes++
	ps.reset, ps.haveReset = res.batch.Reset, true
	// Static and variable datums count as read once every class has been read.
	if req.Static && (req.Classes == nil || req.every) {
		ps.needStatic = false
	}
	if req.Variable && (req.Classes == nil || req.every) {
		ps.lastVar = now
	}
	if updated {
		ps.dead = false
	}
}

// noteWarning keeps a provider's warning (a Warner's), logging one that is new or changed.
func (s *Sampler) noteWarning(ps *provState, now time.Time) {
	w, ok := ps.p.(Warner)
	if !ok {
		return
	}
	werr := w.Warning()
	if werr != nil && (ps.warning == nil || ps.warning.Error() != werr.Error()) {
		s.log.Add(namespace.Event{Time: now, Kind: namespace.EvProviderError, Path: ps.sup.Module,
			Text: fmt.Sprintf("supplier %s: %v", ps.sup.Module, werr)})
	}
	ps.warning = werr
}

// noteFailure updates a provider's health after a failure, logging an error that is new.
func (s *Sampler) noteFailure(ps *provState, res result, now time.Time) {
	ps.failures++
	if !ps.failing || ps.lastErr == nil || ps.lastErr.Error() != res.err.Error() {
		s.log.Add(namespace.Event{Time: now, Kind: namespace.EvProviderError, Path: ps.sup.Module,
			Text: fmt.Sprintf("provider %s: %v", ps.sup.Module, res.err)})
	}
	ps.failing, ps.lastErr = true, res.err
	// Static and variable datums skipped in a reading that never arrived must be read again.
	ps.needStatic = true
	if ps.lastOK.IsZero() {
		ps.lastOK = now // liveness counts from the first attempt
	}
}

// diesNow says the provider is assumed dead at this reading, marking and logging it so:
// SPMI-DDS-4, no update for longer than the timeout; its instances go.
func (s *Sampler) diesNow(ps *provState, now time.Time) bool {
	if s.opt.Liveness <= 0 || ps.dead || ps.lastOK.IsZero() || now.Sub(ps.lastOK) <= s.opt.Liveness {
		return false
	}
	ps.dead = true
	s.log.Add(namespace.Event{Time: now, Kind: namespace.EvSupplierDead, Path: ps.sup.Module,
		Text: fmt.Sprintf("supplier %s: %s", ps.sup.Module, namespace.SiAssumedDead.Line())})
	return true
}

// readSamples appends the samples of a good result's wanted classes, their instances synced
// with the registry.
func (s *Sampler) readSamples(out []namespace.ClassSample, ps *provState, req Request, res result, now time.Time) []namespace.ClassSample {
	for _, cr := range res.batch.Classes {
		if cr.Class == nil || !req.Wants(cr.Class) || (ps.dynamic && !slices.Contains(ps.classes, cr.Class)) {
			continue // a user's class the registry refused (a duplicate, SPMI-DDS-2)
		}
		insts, evs, err := s.reg.Sync(cr.Class, cr.Specs, now, ps.insts[cr.Class])
		ps.insts[cr.Class] = insts
		if !cr.Class.Churn {
			s.log.Add(evs...)
		}
		out = append(out, readSample(cr, insts, err, res, now))
	}
	return out
}

// readSample is one class's sample of a result: timed by the class's own time when it has one,
// else the batch's, else the collection's end; its error the reading's, else the instances'.
func readSample(cr ClassReading, insts []*namespace.Instance, syncErr error, res result, now time.Time) namespace.ClassSample {
	cs := namespace.ClassSample{Class: cr.Class, Reset: res.batch.Reset, Time: res.batch.Time,
		Start: now, End: now.Add(res.dur), Insts: insts, Raw: cr.Raw, Err: cr.Err, Slack: res.slack}
	if !cr.Time.IsZero() {
		cs.Time, cs.Times = cr.Time, cr.Times
	}
	if cs.Time.IsZero() {
		cs.Time = cs.End
	}
	if cr.Err != nil {
		cs.ErrReason = namespace.ReasonProviderError
	}
	if syncErr != nil && cr.Err == nil {
		cs.Err, cs.ErrReason = syncErr, namespace.ReasonProviderError
	}
	return cs
}

// failedSamples appends the samples of a failed or dead provider's wanted classes: each with
// the error and its reason, and a dead supplier's contexts removed (SPMI-DDS-4; they come back
// when it does).
func (s *Sampler) failedSamples(out []namespace.ClassSample, ps *provState, req Request, res result, now time.Time) []namespace.ClassSample {
	why, err := res.why, res.err
	if ps.dead {
		why = namespace.ReasonAssumedDead
		if err == nil {
			err = fmt.Errorf("%s: %s", ps.sup.Module, namespace.SiAssumedDead.Line())
		}
	}
	for _, c := range ps.classes {
		if !c.Instantiated() || !req.Wants(c) {
			continue
		}
		insts := s.reg.Instances(c)
		if ps.dead && !c.SingleInstance() && len(insts) > 0 {
			// A dead supplier's contexts are removed (SPMI-DDS-4); they come back when it does.
			_, evs, _ := s.reg.Sync(c, nil, now, nil)
			s.log.Add(evs...)
			insts = nil
		}
		out = append(out, namespace.ClassSample{Class: c, Reset: ps.reset, Time: now, Start: now,
			End: now.Add(res.dur), Insts: insts, Err: err, ErrReason: why})
	}
	return out
}
