package collect

import (
	"dcimon/namespace"
	"fmt"
	"slices"
	"time"
)

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
	kept, drop := ps.sortOut(byID)
	replaced := s.dropClasses(ps, drop, byID, t)
	ps.classes = slices.DeleteFunc(ps.classes, func(c *namespace.Class) bool { return !kept[c.ID.String()] })
	for _, nc := range decl { // parents before children
		s.takeDeclared(ps, nc, kept, replaced, t)
	}
	// Keep the declaration's order: parents before children.
	order := make(map[string]int, len(decl))
	for i, c := range decl {
		order[c.ID.String()] = i
	}
	slices.SortStableFunc(ps.classes, func(a, b *namespace.Class) int { return order[a.ID.String()] - order[b.ID.String()] })
}

// sortOut is which of the provider's classes a new declaration (byID) keeps, by id, and which it
// drops: those it no longer declares (a built-in supplier's stay), and those described otherwise.
func (ps *provState) sortOut(byID map[string]*namespace.Class) (kept map[string]bool, drop []*namespace.Class) {
	kept = map[string]bool{}
	for _, c := range ps.classes {
		n := byID[c.ID.String()]
		switch {
		case n == nil && ps.origin == builtIn:
			kept[c.ID.String()] = true // a built-in supplier's classes stay
		case n == nil, n != c && !(c.Shared && n.Shared) && namespace.ClassDiffers(c, n):
			drop = append(drop, c)
		default:
			kept[c.ID.String()] = true
		}
	}
	return kept, drop
}

// dropClasses takes the dropped classes back, children before their parents; it says which of
// them the declaration has anew (replaced), by id.
func (s *Sampler) dropClasses(ps *provState, drop []*namespace.Class, byID map[string]*namespace.Class, t time.Time) (replaced map[string]bool) {
	replaced = map[string]bool{}
	slices.SortStableFunc(drop, func(a, b *namespace.Class) int { return len(b.ID) - len(a.ID) })
	for _, c := range drop {
		if byID[c.ID.String()] != nil {
			replaced[c.ID.String()] = true
		}
		s.unregisterClass(ps, c, t)
	}
	return replaced
}

// takeDeclared registers a declared class the provider does not have: a dynamic supplier's
// new class, or one described anew. A class the registry refuses is said once; one taken is
// read whole at the next collection, and said in the events (DCI-EVT-5).
func (s *Sampler) takeDeclared(ps *provState, nc *namespace.Class, kept, replaced map[string]bool, t time.Time) {
	key := nc.ID.String()
	if kept[key] || (ps.origin == builtIn && !replaced[key]) {
		return // kept, or a built-in supplier's class, declared once
	}
	if err := s.registerClass(ps, nc); err != nil {
		s.noteRefused(ps, nc, err, t)
		return
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

// noteRefused keeps why the registry refused a class, saying it in the events once.
func (s *Sampler) noteRefused(ps *provState, nc *namespace.Class, err error, t time.Time) {
	key := nc.ID.String()
	if ps.refused == nil {
		ps.refused = map[string]string{}
	}
	if ps.refused[key] != err.Error() {
		ps.refused[key] = err.Error()
		s.log.Add(namespace.Event{Time: t, Kind: namespace.EvProviderError, Path: ps.sup.Module,
			Text: fmt.Sprintf("supplier %s: class %s (%s) not registered: %v", ps.sup.Module, nc.ID, nc.Name, err)})
	}
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
