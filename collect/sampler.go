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

// Discoverer finds the suppliers there are now. It returns the same Provider for a supplier as
// long as it stays; one it no longer returns has gone, and its classes go with it.
type Discoverer interface {
	Discover(ctx context.Context) ([]Provider, error)
}

// GoAwayer is a supplier that can be told it is no longer wanted (SPMI-DDS-5): it stops, and
// does not come back by itself.
type GoAwayer interface {
	GoAway()
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
	LastOK    time.Time
}

type provState struct {
	p       Provider
	sup     namespace.Supplier
	classes []*namespace.Class // the classes registered for it (parents before children)
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
}

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

type discResult struct {
	provs []Provider
	err   error
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

// redescribe takes a re-initialised supplier's class declarations again (PCPD-13, PCPF-13): a
// class whose datums are now described otherwise (a counter that became 64 bits, kilobytes that
// became megabytes) is registered anew in place of the old one, so nothing is ever scaled by the
// old description; its instances start again as new ones (no rate across the change), and a
// DATACHANGED event tells the monitor to read everything again (DCI-EVT-5). A dynamic supplier
// (a user's file) may also declare classes it did not have, and stop declaring others: those are
// added and removed.
func (s *Sampler) redescribe(ps *provState, t time.Time) {
	d, ok := ps.p.(Describer)
	if !ok {
		return // its descriptions never change
	}
	decl := d.Describe()
	byID := make(map[string]*namespace.Class, len(decl))
	for _, c := range decl {
		byID[c.ID.String()] = c
	}
	var drop []*namespace.Class
	kept := map[string]bool{}
	for _, c := range ps.classes {
		n := byID[c.ID.String()]
		switch {
		case n == nil && !ps.dynamic:
			kept[c.ID.String()] = true // a built-in supplier's classes stay
		case n == nil, n != c && !(c.Shared && n.Shared) && namespace.ClassDiffers(c, n):
			drop = append(drop, c)
		default:
			kept[c.ID.String()] = true
		}
	}
	replaced := map[string]bool{}
	// Children before their parents.
	slices.SortStableFunc(drop, func(a, b *namespace.Class) int { return len(b.ID) - len(a.ID) })
	for _, c := range drop {
		if byID[c.ID.String()] != nil {
			replaced[c.ID.String()] = true
		}
		s.unregisterClass(ps, c, t)
	}
	ps.classes = slices.DeleteFunc(ps.classes, func(c *namespace.Class) bool { return !kept[c.ID.String()] })
	for _, nc := range decl { // parents before children
		key := nc.ID.String()
		if kept[key] {
			continue
		}
		if !ps.dynamic && !replaced[key] {
			continue // a built-in supplier declares its classes once
		}
		if err := s.registerClass(ps, nc); err != nil {
			if ps.refused == nil {
				ps.refused = map[string]string{}
			}
			if ps.refused[key] != err.Error() {
				ps.refused[key] = err.Error()
				s.log.Add(namespace.Event{Time: t, Kind: namespace.EvProviderError, Path: ps.sup.Module,
					Text: fmt.Sprintf("supplier %s: class %s (%s) not registered: %v", ps.sup.Module, nc.ID, nc.Name, err)})
			}
			continue
		}
		delete(ps.refused, key)
		ps.classes = append(ps.classes, nc)
		kept[key] = true
		ps.needStatic = true // its values are read whole at the next collection
		switch {
		case replaced[key]:
			s.log.Add(namespace.Event{Time: t, Kind: namespace.EvDataChanged, Path: nc.Context().Path(), Class: nc.ID,
				Text: fmt.Sprintf("class %s described anew by supplier %s", nc.ID, ps.sup.Module)})
		case !nc.Shared:
			s.log.Add(namespace.Event{Time: t, Kind: namespace.EvDataChanged, Path: nc.Context().Path(), Class: nc.ID,
				Text: fmt.Sprintf("class %s added by supplier %s", nc.ID, ps.sup.Module)})
		}
	}
	// Keep the declaration's order: parents before children.
	order := make(map[string]int, len(decl))
	for i, c := range decl {
		order[c.ID.String()] = i
	}
	slices.SortStableFunc(ps.classes, func(a, b *namespace.Class) int { return order[a.ID.String()] - order[b.ID.String()] })
}

// registerClass registers one class of ps; a Shared context already there is counted, not
// registered twice (SPMI-DDS-2).
func (s *Sampler) registerClass(ps *provState, c *namespace.Class) error {
	if c.Supplier == nil {
		sup := ps.sup
		c.Supplier = &sup
	}
	key := c.ID.String()
	if c.Shared && s.shared[key] > 0 {
		if o := s.reg.Class(c.ID); o == nil || !o.Shared || o.Name != c.Name {
			return fmt.Errorf("%s (%d): context %s is another supplier's", namespace.SiDuplicate, int(namespace.SiDuplicate), c.ID)
		}
		s.shared[key]++
		return nil
	}
	if err := s.reg.RegisterClass(c); err != nil {
		return err
	}
	if c.Shared {
		s.shared[key] = 1
	}
	return nil
}

// unregisterClass takes one class of ps back, with its instances' removed events; a Shared
// context goes with the last supplier that declares it.
func (s *Sampler) unregisterClass(ps *provState, c *namespace.Class, t time.Time) {
	key := c.ID.String()
	if c.Shared {
		if s.shared[key]--; s.shared[key] > 0 {
			return
		}
		delete(s.shared, key)
	}
	evs, err := s.reg.UnregisterClass(c.ID, t)
	if err != nil {
		s.log.Add(namespace.Event{Time: t, Kind: namespace.EvProviderError, Path: ps.sup.Module,
			Text: fmt.Sprintf("supplier %s: class %s cannot be removed: %v", ps.sup.Module, c.ID, err)})
		return
	}
	s.log.Add(evs...)
	delete(ps.insts, c)
}

// grow registers the classes a Grower found in its last collection, parents before children.
// A class the registry refuses is said in the events and left out.
func (s *Sampler) grow(ps *provState, t time.Time) {
	g, ok := ps.p.(Grower)
	if !ok {
		return
	}
	for _, c := range g.Grown() {
		if err := s.registerClass(ps, c); err != nil {
			s.log.Add(namespace.Event{Time: t, Kind: namespace.EvProviderError, Path: ps.sup.Module,
				Text: fmt.Sprintf("supplier %s: class %s (%s) not registered: %v", ps.sup.Module, c.ID, c.Name, err)})
			continue
		}
		ps.classes = append(ps.classes, c)
	}
}

// retract takes every class of ps back, children first: a supplier that died or went away.
func (s *Sampler) retract(ps *provState, t time.Time) {
	for i := len(ps.classes) - 1; i >= 0; i-- {
		s.unregisterClass(ps, ps.classes[i], t)
	}
	ps.classes = nil
}

// register puts a provider's classes in the name space, all or none: a supplier without a
// statistic is refused (DCI4-SUP-5: max_stat counts from 0, so a supplier has at least one), and
// a class the registry refuses takes back the ones registered before it.
func (s *Sampler) register(ps *provState) error {
	stats := 0
	for _, c := range ps.classes {
		stats += len(c.Datums)
	}
	if stats == 0 {
		return fmt.Errorf("supplier %s has no statistics (DCI4-SUP-5)", ps.sup.Module)
	}
	var done []*namespace.Class
	for _, c := range ps.classes {
		if c.Supplier == nil {
			sup := ps.sup
			c.Supplier = &sup
		}
		if err := s.reg.RegisterClass(c); err != nil {
			for i := len(done) - 1; i >= 0; i-- {
				_, _ = s.reg.UnregisterClass(done[i].ID, s.opt.Now())
			}
			return fmt.Errorf("provider %s: %w", ps.sup.Module, err)
		}
		done = append(done, c)
	}
	return nil
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

// Subscribe registers interest in classes (SPMI-FEAT-2). While someone is subscribed to
// something, a collection reads the subscribed classes, and every other class only once every
// IdleEvery (SPMI-DDS-6), so the name space and the providers' health stay current at a fraction
// of the cost; a provider with no subscribed class is not run in between. While nobody is
// subscribed to anything, every class is read. The returned function cancels the subscription.
func (s *Sampler) Subscribe(classes ...*namespace.Class) (cancel func()) {
	s.subMu.Lock()
	defer s.subMu.Unlock()
	for _, c := range classes {
		s.subs[c]++
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			s.subMu.Lock()
			defer s.subMu.Unlock()
			for _, c := range classes {
				if s.subs[c]--; s.subs[c] <= 0 {
					delete(s.subs, c)
				}
			}
		})
	}
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
		Failures: ps.failures, LastErr: ps.lastErr, LastOK: ps.lastOK}
}

// request builds one provider's request, or reports that nobody wants it now.
func (s *Sampler) request(ps *provState, now time.Time, refresh bool) (Request, bool) {
	req, ok := s.subscribed(ps, now, refresh)
	// A disabled, not implemented, not applicable or obsolete class is never read (DCI-CLS-2),
	// and an on-demand class only while someone subscribes to it (SPMI-DDS-6).
	var off []*namespace.Class
	lazy := false
	s.subMu.Lock()
	for _, c := range ps.classes {
		lazy = lazy || c.Lazy
		// An uninstantiated lazy class is asked for too while subscribed: its provider lists
		// what lies below it.
		if (c.Instantiated() || c.Lazy) && (c.Unavailable() != "" || (c.OnDemand && s.subs[c] == 0)) {
			off = append(off, c)
		}
	}
	s.subMu.Unlock()
	// A provider with lazy classes is always told which it wants: "every class" would
	// explore its whole name space.
	if !ok || (len(off) == 0 && !lazy) {
		return req, ok
	}
	if req.Classes == nil {
		req.every = true
		req.Classes = map[*namespace.Class]bool{}
		for _, c := range ps.classes {
			req.Classes[c] = true
		}
	}
	for _, c := range off {
		delete(req.Classes, c)
	}
	for c := range req.Classes {
		if c.Instantiated() || c.Lazy {
			return req, true
		}
	}
	return req, false
}

// subscribed is the request for a provider by what is subscribed: every class, or the
// subscribed ones while the rest are read only every IdleEvery (SPMI-DDS-6).
func (s *Sampler) subscribed(ps *provState, now time.Time, refresh bool) (Request, bool) {
	req := Request{Static: ps.needStatic, Variable: refresh || ps.needStatic || now.Sub(ps.lastVar) >= variableEvery}
	s.subMu.Lock()
	defer s.subMu.Unlock()
	// Subscriptions to on-demand classes alone (a command's `Proc/*/rss`) leave everything else
	// read as when nobody subscribes.
	plain := 0
	for c := range s.subs {
		if !c.OnDemand {
			plain++
		}
	}
	if plain == 0 || s.opt.EveryClass || ps.lastFull.IsZero() || now.Sub(ps.lastFull) >= s.opt.IdleEvery {
		return req, true // every class
	}
	for _, c := range ps.classes {
		if s.subs[c] > 0 {
			if req.Classes == nil {
				req.Classes = map[*namespace.Class]bool{}
			}
			req.Classes[c] = true
		}
	}
	return req, req.Classes != nil
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

	type job struct {
		ps  *provState
		req Request
		ch  chan result
	}
	var jobs []job
	var skipped []*provState
	s.stMu.Lock()
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
		j := job{ps: ps, req: req, ch: make(chan result, 1)}
		jobs = append(jobs, j)
	}
	s.stMu.Unlock()
	dctx, cancel := context.WithTimeout(ctx, s.opt.Deadline)
	defer cancel()
	for _, j := range jobs {
		go s.run(dctx, j.ps, j.req, j.ch)
	}

	var samples []namespace.ClassSample
	for _, j := range jobs {
		var res result
		select {
		case res = <-j.ch:
		case <-dctx.Done():
			// Take a result that arrived at the same moment, else give up on this provider.
			select {
			case res = <-j.ch:
			default:
				res = result{err: fmt.Errorf("%s: no answer within %v", j.ps.sup.Module, s.opt.Deadline), why: namespace.ReasonTimeout, dur: s.opt.Deadline}
			}
		}
		if res.err == nil && j.ps.haveReset && res.batch.Reset != j.ps.reset {
			// The supplier re-initialised: log it, and read everything again (static datums
			// and descriptions) so the new incarnation is complete from its first reading. A
			// user's supplier that has just been found declares its first classes so.
			if !j.ps.dynamic || j.ps.reset != ([8]byte{}) {
				s.log.Add(namespace.Event{Time: start, Kind: namespace.EvSupplierReset, Path: j.ps.sup.Module,
					Text: fmt.Sprintf("supplier %s re-initialised (reset %x → %x)", j.ps.sup.Module, j.ps.reset[:], res.batch.Reset[:])})
			}
			j.ps.needStatic = true
			s.redescribe(j.ps, start)
			req := j.req
			req.Static, req.Variable = true, true
			ch := make(chan result, 1)
			s.stMu.Lock()
			j.ps.running = true
			s.stMu.Unlock()
			go s.run(dctx, j.ps, req, ch)
			// The second call may reuse the first batch's buffers, so the first is never used
			// after it: the new incarnation's reading, or a failure.
			select {
			case res = <-ch:
			case <-dctx.Done():
				res = result{err: fmt.Errorf("%s: no answer within %v after re-initialising", j.ps.sup.Module, s.opt.Deadline), why: namespace.ReasonTimeout, dur: s.opt.Deadline}
			}
		}
		samples = append(samples, s.absorb(j.ps, j.req, res, start)...)
		s.grow(j.ps, start)
	}
	for _, ps := range skipped {
		res := result{err: fmt.Errorf("%s: still busy with an earlier collection", ps.sup.Module), why: namespace.ReasonTimeout}
		req, _ := s.request(ps, start, false)
		samples = append(samples, s.absorb(ps, req, res, start)...)
	}
	end := s.opt.Now()
	samples = append(samples, s.mon.sample(ctx, start, end)...)
	next := namespace.Next(s.prev, &namespace.Sample{Start: start, End: end, Classes: samples, Restart: s.restart}, s.older)
	s.restart = false
	s.older, s.prev = s.prev, next
	s.logJumps(next, end)
	return next, nil
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

// absorb turns one provider result into class samples, syncing instances and updating health.
func (s *Sampler) absorb(ps *provState, req Request, res result, now time.Time) []namespace.ClassSample {
	s.stMu.Lock()
	defer s.stMu.Unlock()
	ps.lastDur = res.dur
	wasDead := ps.dead
	if res.err == nil {
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
	} else {
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
	// SPMI-DDS-4: no update for longer than the timeout → assumed dead; its instances go.
	if s.opt.Liveness > 0 && !ps.dead && !ps.lastOK.IsZero() && now.Sub(ps.lastOK) > s.opt.Liveness {
		ps.dead = true
		s.log.Add(namespace.Event{Time: now, Kind: namespace.EvSupplierDead, Path: ps.sup.Module,
			Text: fmt.Sprintf("supplier %s: %s", ps.sup.Module, namespace.SiAssumedDead.Line())})
		if ps.dynamic {
			// A user's supplier's contexts and statistics are removed (SPMI-DDS-4); they are
			// declared again when it updates.
			s.retract(ps, now)
			return nil
		}
	}
	if ps.dynamic && wasDead && !ps.dead {
		s.redescribe(ps, now)
	}

	var out []namespace.ClassSample
	if res.err == nil && !ps.dead {
		for _, cr := range res.batch.Classes {
			if cr.Class == nil || !req.Wants(cr.Class) || (ps.dynamic && !slices.Contains(ps.classes, cr.Class)) {
				continue // a user's class the registry refused (a duplicate, SPMI-DDS-2)
			}
			insts, evs, err := s.reg.Sync(cr.Class, cr.Specs, now, ps.insts[cr.Class])
			ps.insts[cr.Class] = insts
			if !cr.Class.Churn {
				s.log.Add(evs...)
			}
			cs := namespace.ClassSample{Class: cr.Class, Reset: res.batch.Reset, Time: res.batch.Time,
				Start: now, End: now.Add(res.dur), Insts: insts, Raw: cr.Raw, Err: cr.Err}
			if cs.Time.IsZero() {
				cs.Time = cs.End
			}
			if cr.Err != nil {
				cs.ErrReason = namespace.ReasonProviderError
			}
			if err != nil && cr.Err == nil {
				cs.Err, cs.ErrReason = err, namespace.ReasonProviderError
			}
			out = append(out, cs)
		}
		return out
	}
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

// Reach reads the name spaces read as they are explored (a host's PCP name space, Class.Lazy)
// along paths, a level at a time: the lazy classes along them are subscribed to (for as long as
// the sampler lives) and a collection made, until one reaches no new class; at most 16 of them,
// more than PCP's names have levels. snap is the latest snapshot, returned when nothing was
// read.
func (s *Sampler) Reach(ctx context.Context, snap *namespace.Snapshot, paths ...string) (*namespace.Snapshot, error) {
	seen := map[*namespace.Class]bool{}
	for range 16 {
		var fresh []*namespace.Class
		for _, p := range paths {
			for _, c := range s.reg.LazyAlong(p) {
				if !seen[c] {
					seen[c] = true
					fresh = append(fresh, c)
				}
			}
		}
		if len(fresh) == 0 {
			break
		}
		s.Subscribe(fresh...)
		var err error
		if snap, err = s.Sample(ctx); err != nil {
			return snap, err
		}
	}
	return snap, nil
}

// discover asks the Discoverer which suppliers there are, when it is due: new ones are added
// (their classes registered as they declare them), those gone are removed with their classes.
// A discovery that does not answer within half a second is taken at a later collection.
func (s *Sampler) discover(ctx context.Context, now time.Time) {
	if s.opt.Discover == nil || (s.discCh == nil && !s.lastDisc.IsZero() && now.Sub(s.lastDisc) < s.opt.DiscoverEvery) {
		return
	}
	if s.discCh == nil {
		ch := make(chan discResult, 1)
		dctx, cancel := context.WithTimeout(context.Background(), s.opt.Deadline)
		d := s.opt.Discover
		go func() {
			defer cancel()
			p, err := d.Discover(dctx)
			ch <- discResult{p, err}
		}()
		s.discCh = ch
	}
	wait := min(s.opt.Deadline, 500*time.Millisecond)
	t := time.NewTimer(wait)
	defer t.Stop()
	var res discResult
	select {
	case res = <-s.discCh:
		s.discCh = nil
	case <-t.C:
		return
	case <-ctx.Done():
		return
	}
	s.lastDisc = now
	if res.err != nil && res.err.Error() != s.discErr {
		s.log.Add(namespace.Event{Time: now, Kind: namespace.EvProviderError, Path: "dds", Text: "finding users' suppliers: " + res.err.Error()})
	}
	s.discErr = ""
	if res.err != nil {
		s.discErr = res.err.Error() // said once, not at every discovery
	}
	present := make(map[Provider]bool, len(res.provs))
	for _, p := range res.provs {
		present[p] = true
	}
	s.stMu.Lock()
	known := map[Provider]bool{}
	var gone, added []*provState
	keep := make([]*provState, 0, len(s.prov)+len(res.provs))
	for _, ps := range s.prov {
		known[ps.p] = true
		if ps.dynamic && !present[ps.p] {
			gone = append(gone, ps)
			continue
		}
		keep = append(keep, ps)
	}
	for _, p := range res.provs {
		if known[p] {
			continue
		}
		s.nextID++
		// The reset is taken as known and zero, so the first declaration is taken at once.
		ps := &provState{p: p, sup: p.Supplier(), id: s.nextID, dynamic: true, needStatic: true, haveReset: true,
			insts: map[*namespace.Class][]*namespace.Instance{}}
		added = append(added, ps)
		keep = append(keep, ps)
	}
	slices.SortStableFunc(keep, func(a, b *provState) int { return strings.Compare(a.sup.Module, b.sup.Module) })
	for i, ps := range keep {
		ps.index = i
	}
	s.prov = keep
	s.stMu.Unlock()
	for _, ps := range gone {
		s.retract(ps, now)
		s.log.Add(namespace.Event{Time: now, Kind: namespace.EvSupplierGone, Path: ps.sup.Module,
			Text: fmt.Sprintf("supplier %s has gone: %s", ps.sup.Module, ps.sup.Description)})
	}
	for _, ps := range added {
		s.redescribe(ps, now)
		s.log.Add(namespace.Event{Time: now, Kind: namespace.EvSupplierAdded, Path: ps.sup.Module,
			Text: fmt.Sprintf("supplier %s found: %s", ps.sup.Module, ps.sup.Description)})
	}
	// A class refused because another supplier had it may be free now.
	for _, ps := range s.prov {
		if ps.dynamic && !ps.dead && len(ps.refused) > 0 {
			s.redescribe(ps, now)
		}
	}
}

// GoAway tells the extension supplier with this module it is no longer wanted (SPMI-DDS-5): it
// stops (a running program is killed) and its contexts and statistics are removed. A user's file
// or program comes back only when it changes. Built-in suppliers cannot be sent away.
func (s *Sampler) GoAway(module string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stMu.Lock()
	i := slices.IndexFunc(s.prov, func(ps *provState) bool { return ps.sup.Module == module })
	if i < 0 {
		s.stMu.Unlock()
		return fmt.Errorf("no supplier %q", module)
	}
	ps := s.prov[i]
	if !ps.dynamic {
		s.stMu.Unlock()
		return fmt.Errorf("supplier %s is built in: only extension suppliers can be told to go away (SPMI-DDS-5)", module)
	}
	s.prov = slices.Delete(slices.Clone(s.prov), i, i+1)
	for j, o := range s.prov {
		o.index = j
	}
	s.stMu.Unlock()
	if g, ok := ps.p.(GoAwayer); ok {
		g.GoAway()
	}
	now := s.opt.Now()
	s.retract(ps, now)
	s.log.Add(namespace.Event{Time: now, Kind: namespace.EvSupplierGone, Path: module,
		Text: fmt.Sprintf("supplier %s told to go away (SPMI-DDS-5)", module)})
	return nil
}
