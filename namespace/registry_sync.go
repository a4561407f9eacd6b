package namespace

import (
	"fmt"
	"slices"
	"time"
)

// Sync makes the class's instances exactly those in specs (in one step, for a provider that
// enumerates its instances every sample, SPMI-INST-5): new ones are added, missing ones removed,
// with their events. out receives the instance of each spec in order and is returned (pass a
// reused slice to avoid allocation in the steady state).
func (r *Registry) Sync(c *Class, specs []InstanceSpec, t time.Time, out []*Instance) ([]*Instance, []Event, error) {
	if c.SingleInstance() {
		out = append(out[:0], c.slots[0])
		return out, nil, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if c.reg != r {
		return out, nil, errf(StatusUnknownClass, SiInvalidCx, "class %s is not registered", c.ID)
	}
	r.sweep++
	gen := r.sweep
	r.syncing = true
	defer r.settle()
	// out holds the previous call's result, usually in the same order as specs: an instance at
	// the same position with the same levels is found without a map lookup.
	if cap(out) < len(specs) {
		grown := make([]*Instance, len(specs))
		copy(grown, out)
		out = grown
	} else {
		out = out[:len(specs)]
	}
	// Mark what is still there, then remove what vanished, then add what is new: a name that
	// comes back with another identity (a re-created interface) frees its old context first.
	for i := range specs {
		in := c.stillThere(out[i], &specs[i])
		if in != nil {
			in.seen = gen
		}
		out[i] = in
	}
	var evs []Event
	for _, in := range c.slots {
		if in != nil && in.seen != gen && !in.removed.Load() {
			evs = r.removeLocked(in, t, evs)
		}
	}
	// An instance still reported whose parent went (a group re-created under the same name) went
	// with it: it is added again, under the new parent.
	for i, in := range out {
		if in != nil && in.removed.Load() {
			out[i] = nil
		}
	}
	var firstErr error
	for i := range specs {
		if out[i] != nil {
			continue
		}
		in, ev, err := r.addLocked(c, &specs[i], t)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		in.seen = gen
		out[i] = in
		evs = append(evs, ev)
	}
	return out, evs, firstErr
}

// stillThere is the class's instance that s names, nil when it has none: prev, the instance at
// the same position in the previous call's result, when it is that instance, else the one found
// by its levels. The same key under another name is another thing (issue 41 item 7: a disk
// renamed under its major:minor): the old instance goes, the new one comes, and no rate spans
// the two.
func (c *Class) stillThere(prev *Instance, s *InstanceSpec) *Instance {
	in := prev
	if in == nil || in.removed.Load() || in.Class != c || !slices.Equal(in.Levels, s.Levels) {
		in = c.lookup(s.Levels)
		if in != nil && !slices.Equal(in.Levels, s.Levels) {
			return nil
		}
	}
	if in != nil && in.OSName != s.OSName {
		return nil
	}
	return in
}

// AddInstance adds one instance and returns its DCI_INSTANCEADDED event.
func (r *Registry) AddInstance(c *Class, s InstanceSpec, t time.Time) (*Instance, Event, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c.reg != r {
		return nil, Event{}, errf(StatusUnknownClass, SiInvalidCx, "class %s is not registered", c.ID)
	}
	if c.SingleInstance() {
		return nil, Event{}, errf(StatusInvalidArg, SiBadArgument, "class %s has its single instance already (DCI-NS-4)", c.ID)
	}
	if in := c.lookup(s.Levels); in != nil && slices.Equal(in.Levels, s.Levels) {
		return nil, Event{}, errf(StatusDuplicate, SiDuplicate, "instance %s of class %s already exists", in.ID(), c.ID)
	}
	return r.addLocked(c, &s, t)
}

// RemoveInstance removes one instance and returns its DCI_INSTANCEREMOVED event.
func (r *Registry) RemoveInstance(in *Instance, t time.Time) (Event, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if in.removed.Load() || in.Class.reg != r || in.Class.SingleInstance() {
		return Event{}, errf(StatusInvalidArg, SiDeleted, "instance %s cannot be removed", in.Name)
	}
	evs := r.removeLocked(in, t, nil)
	return evs[len(evs)-1], nil
}

func (r *Registry) addLocked(c *Class, s *InstanceSpec, t time.Time) (*Instance, Event, error) {
	if len(s.Levels) != len(c.Levels) {
		return nil, Event{}, errf(StatusInvalidArg, SiBadArgument, "class %s: instance has %d level values, the class has %d levels", c.ID, len(s.Levels), len(c.Levels))
	}
	name := InstanceName(s.OSName)
	if s.OSName == "" {
		name = Inst(s.Levels...).String()
	}
	host := c.ctx
	if s.Parent != nil {
		pi := c.lookup(s.Parent)
		if pi == nil || pi.removed.Load() || !slices.Equal(pi.Levels, s.Parent) {
			return nil, Event{}, errf(StatusInvalidArg, SiInvalidCx, "class %s: instance %q has no parent instance %s", c.ID, name, Inst(s.Parent...))
		}
		host = pi.ctx
	} else if len(c.NestUnder) > 0 {
		hc := r.classes[c.NestUnder.String()]
		var hi *Instance
		if hc != nil {
			for _, cand := range hc.slots {
				if cand != nil && len(cand.Levels) > 0 && cand.Levels[0] == s.Levels[0] {
					hi = cand
					break
				}
			}
		}
		if hi == nil {
			return nil, Event{}, errf(StatusInvalidArg, SiInvalidCx, "class %s: instance %q has no %s instance with level-0 value %d to nest under", c.ID, name, c.NestUnder, s.Levels[0])
		}
		host = hi.ctx
		if !slices.Contains(host.k().hosted, c) {
			host.own().hosted = append(host.k().hosted, c)
		}
	}
	if o := host.k().byName[name]; o != nil {
		return nil, Event{}, errf(StatusDuplicate, SiDuplicate, "class %s: %s already has a subcontext named %q (SPMI-HIER-10)", c.ID, host.Path(), name)
	}
	// 0 when the parent has used every number: SPMI numbers are unsigned shorts, so such a
	// context exists and is named by its path, but has no ASN.1 identifier.
	asn := host.freeASN(s.ASN)
	label := name
	if s.Label != "" {
		label = s.Label
	}
	in := &Instance{Class: c, Levels: slices.Clone(s.Levels), Name: name, OSName: s.OSName,
		Label: Label{ASCII: SanitizeLabel(label)}, Flags: s.Flags, Desc: s.Desc, Attrs: slices.Clone(s.Attrs), Labels: s.Labels, Added: t}
	if n := len(c.free); n > 0 {
		in.slot = c.free[n-1]
		c.free = c.free[:n-1]
		c.slots[in.slot] = in
	} else {
		in.slot = len(c.slots)
		c.slots = append(c.slots, in)
	}
	desc := s.Desc
	if desc == "" {
		desc = c.Desc
	}
	in.ctx = &Context{Name: name, Desc: desc, Kind: CtxInstance, ASN: asn, Class: c, Inst: in, Stats: c, StatsInst: in}
	r.attach(host, in.ctx)
	c.keep(in)
	r.gen++
	return in, Event{Time: t, Kind: EvInstanceAdded, Path: in.ctx.Path(), Class: c.ID, Inst: in.ID(),
		Text: fmt.Sprintf("instance %s added", in.ctx.Path())}, nil
}

// attach makes k a subcontext of host: in its place at once, or at the end of the Sync that runs.
func (r *Registry) attach(host, k *Context) {
	if !r.syncing {
		host.addChild(k)
	} else if host.addChildLater(k) {
		r.unsettled = append(r.unsettled, host)
	}
}

// detach takes k from host's subcontexts: at once, or at the end of the Sync that runs.
func (r *Registry) detach(host, k *Context) {
	if !r.syncing {
		host.removeChild(k)
	} else if host.removeChildLater(k) {
		r.unsettled = append(r.unsettled, host)
	}
}

// settle ends a Sync: every context whose children it changed has them in order again.
func (r *Registry) settle() {
	for _, host := range r.unsettled {
		host.settle()
	}
	clear(r.unsettled)
	r.unsettled = r.unsettled[:0]
	r.syncing = false
}

// removeLocked removes an instance, nested instances under it first, appending one
// DCI_INSTANCEREMOVED event for each (the instance's own last).
func (r *Registry) removeLocked(in *Instance, t time.Time, evs []Event) []Event {
	c := in.Class
	path := in.ctx.Path()
	for _, k := range slices.Clone(in.ctx.k().children) {
		if k.Inst != nil && !k.Inst.removed.Load() {
			evs = r.removeLocked(k.Inst, t, evs)
		}
	}
	if in.ctx.parent != nil {
		r.detach(in.ctx.parent, in.ctx)
	}
	in.removed.Store(true)
	c.slots[in.slot] = nil
	c.free = append(c.free, in.slot)
	c.drop(in.Levels)
	r.gen++
	return append(evs, Event{Time: t, Kind: EvInstanceRemoved, Path: path, Class: c.ID, Inst: in.ID(),
		Text: fmt.Sprintf("instance %s removed", path)})
}
