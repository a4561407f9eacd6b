package collect

import (
	"context"
	"dcimon/namespace"
	"slices"
	"sync"
	"time"
)

// Subscribe registers interest in classes (SPMI-FEAT-2). While someone is subscribed to
// something, a collection reads the subscribed classes, and every other class only once every
// IdleEvery (SPMI-DDS-6), so the name space and the providers' health stay current at a fraction
// of the cost; a provider with no subscribed class is not run in between. While nobody is
// subscribed to anything, every class is read. The returned function cancels the subscription.
func (s *Sampler) Subscribe(classes ...*namespace.Class) (cancel func()) {
	s.subMu.Lock()
	defer s.subMu.Unlock()
	for _, c := range classes {
		if s.subs[c]++; s.subs[c] == 1 && !c.OnDemand {
			s.subsPlain++
		}
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			s.subMu.Lock()
			defer s.subMu.Unlock()
			for _, c := range classes {
				if s.subs[c]--; s.subs[c] <= 0 {
					delete(s.subs, c)
					if !c.OnDemand {
						s.subsPlain--
					}
				}
			}
		})
	}
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
		if sameClasses(ps.every, ps.classes, off) {
			// Every class but those off, as at the last collection: the same map, never
			// changed once made (a thousand hosts ask for every class each second).
			req.Classes = ps.every
		} else {
			req.Classes = make(map[*namespace.Class]bool, len(ps.classes))
			for _, c := range ps.classes {
				if !slices.Contains(off, c) {
					req.Classes[c] = true
				}
			}
			ps.every = req.Classes
		}
	} else {
		for _, c := range off {
			delete(req.Classes, c)
		}
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
	// Counted as they come and go, not here: a thousand hosts' providers each asking would
	// walk every subscription a thousand times a collection (issue 40, budgets).
	plain := s.subsPlain
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
