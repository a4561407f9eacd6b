package collect

import (
	"context"
	"dcimon/namespace"
	"slices"
	"sync"
	"time"
)

// subscriptions count who is subscribed to each class: any goroutine changes them (Subscribe),
// and each collection reads them.
type subscriptions struct {
	mu      sync.Mutex
	count   map[*namespace.Class]int
	partial map[*namespace.Class]*datumSubs // SubscribeDatums' subscriptions
	plain   int                             // how many classes of count are not on demand
	conf    confinement                     // Confine's paths and the classes they name
}

// confinement is what a command that reads only what it names lets be read (Confine): the
// classes its paths name, worked out again when the registry's generation changes.
type confinement struct {
	paths []string
	gen   uint64
	named map[*namespace.Class]bool // nil: nothing confined (no paths, or they name no class)
}

// Confine makes every collection from the next one on, the first included, read only the
// classes paths name (Registry.ClassesNamed) and those subscribed to (issue 38 item 1: `dcimon
// get Disk/*/busy` reads no partition, and a class it does not name is never read). Paths that
// name no class confine nothing, so what they fail to name is found as before, nor do paths
// naming the Monitor class (it says how every provider's collections go), nor does a recording
// (Options.Replay: archives and series are read whole, as their records time the readings).
// The classes are worked out again whenever the registry changes (a user's supplier found, a
// host's name space grown).
func (s *Sampler) Confine(paths ...string) {
	s.subs.mu.Lock()
	defer s.subs.mu.Unlock()
	s.subs.conf = confinement{paths: slices.Clone(paths)}
	s.subs.conf.gen-- // never the registry's: worked out at the next request
}

// confined is the classes Confine lets be read, nil for every class. The registry is read
// without s.subs.mu held (the two locks are never nested).
func (s *Sampler) confined() map[*namespace.Class]bool {
	s.subs.mu.Lock()
	paths, gen, named := s.subs.conf.paths, s.subs.conf.gen, s.subs.conf.named
	s.subs.mu.Unlock()
	if paths == nil {
		return nil
	}
	now := s.reg.Generation()
	if now == gen {
		return named
	}
	named = nil
	for _, c := range s.reg.ClassesNamed(paths...) {
		if c == s.mon.self || c == s.mon.provs {
			// The Monitor class says how every provider's collections go: all are read.
			named = nil
			break
		}
		if named == nil {
			named = map[*namespace.Class]bool{}
		}
		named[c] = true
	}
	s.subs.mu.Lock()
	if slices.Equal(s.subs.conf.paths, paths) {
		s.subs.conf.gen, s.subs.conf.named = now, named
	}
	s.subs.mu.Unlock()
	return named
}

// Subscribe registers interest in classes (SPMI-FEAT-2). While someone is subscribed to
// something, a collection reads the subscribed classes, and every other class only once every
// IdleEvery (SPMI-DDS-6), so the name space and the providers' health stay current at a fraction
// of the cost; a provider with no subscribed class is not run in between. While nobody is
// subscribed to anything, every class is read. The returned function cancels the subscription.
func (s *Sampler) Subscribe(classes ...*namespace.Class) (cancel func()) {
	s.subs.mu.Lock()
	defer s.subs.mu.Unlock()
	for _, c := range classes {
		if s.subs.count[c]++; s.subs.count[c] == 1 && !c.OnDemand {
			s.subs.plain++
		}
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			s.subs.mu.Lock()
			defer s.subs.mu.Unlock()
			for _, c := range classes {
				if s.subs.count[c]--; s.subs.count[c] <= 0 {
					delete(s.subs.count, c)
					if !c.OnDemand {
						s.subs.plain--
					}
				}
			}
		})
	}
}

// datumSubs are the subscriptions to some datums of one class, and the datums any of them wants.
type datumSubs struct {
	masks []*[]bool
	union []bool
}

// SubscribeDatums is Subscribe for one class of which only some datums are on screen (want[i]:
// the class's datum i): while every subscriber to the class is one of these, its provider is
// asked for those datums only (Request.Datums), and may leave out the files the others need.
// A subscriber to the whole class (Subscribe) has every datum read.
func (s *Sampler) SubscribeDatums(c *namespace.Class, want []bool) (cancel func()) {
	mask := slices.Clone(want)
	s.subs.mu.Lock()
	if s.subs.partial == nil {
		s.subs.partial = map[*namespace.Class]*datumSubs{}
	}
	d := s.subs.partial[c]
	if d == nil {
		d = &datumSubs{}
		s.subs.partial[c] = d
	}
	d.masks = append(d.masks, &mask)
	d.unite()
	s.subs.mu.Unlock()
	whole := s.Subscribe(c)
	var once sync.Once
	return func() {
		once.Do(func() {
			whole()
			s.subs.mu.Lock()
			defer s.subs.mu.Unlock()
			d.masks = slices.DeleteFunc(d.masks, func(m *[]bool) bool { return m == &mask })
			if len(d.masks) == 0 {
				delete(s.subs.partial, c)
				return
			}
			d.unite()
		})
	}
}

// unite makes d.union the datums any of its subscriptions wants.
func (d *datumSubs) unite() {
	n := 0
	for _, m := range d.masks {
		n = max(n, len(*m))
	}
	d.union = make([]bool, n)
	for _, m := range d.masks {
		for i, w := range *m {
			d.union[i] = d.union[i] || w
		}
	}
}

// datumsOf is Request.Datums for a provider's classes: those every subscriber of which wants
// some datums only; nil when there are none.
func (s *Sampler) datumsOf(classes []*namespace.Class) map[*namespace.Class][]bool {
	s.subs.mu.Lock()
	defer s.subs.mu.Unlock()
	var out map[*namespace.Class][]bool
	if len(s.subs.partial) == 0 {
		return nil
	}
	for _, c := range classes {
		if d := s.subs.partial[c]; d != nil && s.subs.count[c] == len(d.masks) {
			if out == nil {
				out = map[*namespace.Class][]bool{}
			}
			out[c] = d.union
		}
	}
	return out
}

// request builds one provider's request, or reports that nobody wants it now.
func (s *Sampler) request(ps *provState, now time.Time, refresh bool) (Request, bool) {
	req, ok := s.subscribed(ps, now, refresh)
	named := s.namedOf(ps)
	if named != nil && !(ok && req.Classes == nil) {
		// What a confined command names is read at every collection, as what is subscribed.
		for _, c := range ps.classes {
			if named[c] {
				if req.Classes == nil {
					req.Classes = map[*namespace.Class]bool{}
				}
				req.Classes[c], ok = true, true
			}
		}
	}
	req.Datums = s.datumsOf(ps.classes)
	// The classes not read now, gathered here rather than by a function that returns them:
	// a slice that stays in this frame costs no allocation (a thousand hosts a second).
	var off []*namespace.Class
	lazy := false
	s.subs.mu.Lock()
	for _, c := range ps.classes {
		lazy = lazy || c.Lazy
		if s.offNow(c) || (named != nil && !named[c] && s.subs.count[c] == 0) {
			off = append(off, c)
		}
	}
	s.subs.mu.Unlock()
	// A provider with lazy classes is always told which it wants: "every class" would
	// explore its whole name space.
	if !ok || (len(off) == 0 && !lazy) {
		return req, ok
	}
	if req.Classes == nil {
		req.every = true
		req.Classes = ps.everyBut(off)
	} else {
		for _, c := range off {
			delete(req.Classes, c)
		}
	}
	return req, anyReadable(req.Classes)
}

// namedOf is what Confine lets be read of a provider's classes, nil for all of them. A
// recording (Options.Replay) is read whole: its readings are timed by its records, and which
// records a host's archive steps to depends on the classes read of it and of the others.
func (s *Sampler) namedOf(ps *provState) map[*namespace.Class]bool {
	if s.opt.Replay {
		return nil
	}
	return s.confined()
}

// offNow says a class is not read now: a disabled, not implemented, not applicable or obsolete
// class never is (DCI-CLS-2), and an on-demand class only while someone subscribes to it
// (SPMI-DDS-6). An uninstantiated lazy class is asked for too while subscribed: its provider
// lists what lies below it. The caller holds s.subs.mu.
func (s *Sampler) offNow(c *namespace.Class) bool {
	return (c.Instantiated() || c.Lazy) && (c.Unavailable() != "" || (c.OnDemand && s.subs.count[c] == 0))
}

// everyBut is a request's every class of the provider but those off: the same map as at the
// last collection when they are the same, never changed once made (a thousand hosts ask for
// every class each second).
func (ps *provState) everyBut(off []*namespace.Class) map[*namespace.Class]bool {
	if sameClasses(ps.every, ps.classes, off) {
		return ps.every
	}
	m := make(map[*namespace.Class]bool, len(ps.classes))
	for _, c := range ps.classes {
		if !slices.Contains(off, c) {
			m[c] = true
		}
	}
	ps.every = m
	return m
}

// anyReadable says a request has a class to read: one with instances, or a lazy one.
func anyReadable(classes map[*namespace.Class]bool) bool {
	for c := range classes {
		if c.Instantiated() || c.Lazy {
			return true
		}
	}
	return false
}

// subscribed is the request for a provider by what is subscribed: every class, or the
// subscribed ones while the rest are read only every IdleEvery (SPMI-DDS-6).
func (s *Sampler) subscribed(ps *provState, now time.Time, refresh bool) (Request, bool) {
	req := Request{Static: ps.needStatic, Variable: refresh || ps.needStatic || now.Sub(ps.lastVar) >= variableEvery}
	s.subs.mu.Lock()
	defer s.subs.mu.Unlock()
	// Subscriptions to on-demand classes alone (a command's `Proc/*/rss`) leave everything else
	// read as when nobody subscribes.
	// Counted as they come and go, not here: a thousand hosts' providers each asking would
	// walk every subscription a thousand times a collection (issue 40, budgets).
	plain := s.subs.plain
	if plain == 0 || s.opt.EveryClass || ps.lastFull.IsZero() || now.Sub(ps.lastFull) >= s.opt.IdleEvery {
		return req, true // every class
	}
	for _, c := range ps.classes {
		if s.subs.count[c] > 0 {
			if req.Classes == nil {
				req.Classes = map[*namespace.Class]bool{}
			}
			req.Classes[c] = true
		}
	}
	return req, req.Classes != nil
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

// sameClasses says m holds exactly the classes of cs that are not off.
func sameClasses(m map[*namespace.Class]bool, cs, off []*namespace.Class) bool {
	if m == nil || len(m) != len(cs)-len(off) {
		return false
	}
	for _, c := range cs {
		if m[c] == slices.Contains(off, c) {
			return false
		}
	}
	return true
}
