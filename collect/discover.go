package collect

import (
	"context"
	"dcimon/namespace"
	"fmt"
	"slices"
	"strings"
	"time"
)

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

// discovery is the state of finding users' suppliers (guarded by Sampler.mu).
type discovery struct {
	last    time.Time       // when the last discovery was taken
	pending chan discResult // a discovery still running after its deadline
	lastErr string          // the last discovery's error, said once
}

type discResult struct {
	provs []Provider
	err   error
}

// discover asks the Discoverer which suppliers there are, when it is due: new ones are added
// (their classes registered as they declare them), those gone are removed with their classes.
// A discovery that does not answer within half a second is taken at a later collection.
func (s *Sampler) discover(ctx context.Context, now time.Time) {
	if !s.discoveryDue(now) {
		return
	}
	res, ok := s.awaitDiscovery(ctx)
	if !ok {
		return
	}
	s.disc.last = now
	s.noteDiscoveryError(res.err, now)
	gone, added := s.takeFound(res.provs)
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
		if ps.origin == discovered && ps.health.liveness == alive && len(ps.refused) > 0 {
			s.redescribe(ps, now)
		}
	}
}

// discoveryDue says a discovery is to be asked for or taken now: one is still running, or none
// was taken within DiscoverEvery.
func (s *Sampler) discoveryDue(now time.Time) bool {
	if s.opt.Discover == nil {
		return false
	}
	return s.disc.pending != nil || s.disc.last.IsZero() || now.Sub(s.disc.last) >= s.opt.DiscoverEvery
}

// awaitDiscovery starts a discovery unless one is running, and waits up to half a second for its
// answer; false when it has none yet (it is taken at a later collection).
func (s *Sampler) awaitDiscovery(ctx context.Context) (discResult, bool) {
	if s.disc.pending == nil {
		ch := make(chan discResult, 1)
		dctx, cancel := context.WithTimeout(context.Background(), s.opt.Deadline)
		d := s.opt.Discover
		go func() {
			defer cancel()
			p, err := d.Discover(dctx)
			ch <- discResult{p, err}
		}()
		s.disc.pending = ch
	}
	t := time.NewTimer(min(s.opt.Deadline, 500*time.Millisecond))
	defer t.Stop()
	select {
	case res := <-s.disc.pending:
		s.disc.pending = nil
		return res, true
	case <-t.C:
	case <-ctx.Done():
	}
	return discResult{}, false
}

// Discovering says a discovery of users' suppliers has not answered yet: Sample waits half a
// second for one, and takes a later answer at a later collection.
func (s *Sampler) Discovering() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.disc.pending != nil
}

// noteDiscoveryError says a discovery's error in the events, once, not at every discovery.
func (s *Sampler) noteDiscoveryError(err error, now time.Time) {
	if err != nil && err.Error() != s.disc.lastErr {
		s.log.Add(namespace.Event{Time: now, Kind: namespace.EvProviderError, Path: "dds", Text: "finding users' suppliers: " + err.Error()})
	}
	s.disc.lastErr = ""
	if err != nil {
		s.disc.lastErr = err.Error()
	}
}

// takeFound makes the provider list the built-in suppliers and those found now, sorted by module:
// gone are the found suppliers no longer there, added those new.
func (s *Sampler) takeFound(found []Provider) (gone, added []*provState) {
	present := make(map[Provider]bool, len(found))
	for _, p := range found {
		present[p] = true
	}
	s.stMu.Lock()
	defer s.stMu.Unlock()
	known := map[Provider]bool{}
	keep := make([]*provState, 0, len(s.prov)+len(found))
	for _, ps := range s.prov {
		known[ps.p] = true
		if ps.origin == discovered && !present[ps.p] {
			gone = append(gone, ps)
			continue
		}
		keep = append(keep, ps)
	}
	for _, p := range found {
		if known[p] {
			continue
		}
		s.nextID++
		// Its reset is taken as known and zero (resetKnown), so its first declaration is taken at once.
		ps := &provState{p: p, sup: p.Supplier(), id: s.nextID, origin: discovered, needStatic: true,
			insts: map[*namespace.Class][]*namespace.Instance{}}
		added = append(added, ps)
		keep = append(keep, ps)
	}
	slices.SortStableFunc(keep, func(a, b *provState) int { return strings.Compare(a.sup.Module, b.sup.Module) })
	s.prov = keep
	return gone, added
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
	if ps.origin == builtIn {
		s.stMu.Unlock()
		return fmt.Errorf("supplier %s is built in: only extension suppliers can be told to go away (SPMI-DDS-5)", module)
	}
	s.prov = slices.Delete(slices.Clone(s.prov), i, i+1)
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
