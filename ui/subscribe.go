package ui

import (
	"slices"
	"unsafe"

	tea "github.com/charmbracelet/bubbletea"

	"dcimon/namespace"
)

// subscription is what the monitor has asked its sampler to read at every collection. It is
// shared by every copy of the model, like the frame cache.
type subscription struct {
	key     subKey
	classes []*namespace.Class
	partial *namespace.Class // the process class, when only the overview's block shows it (procDatums)
	cancel  func()
}

// subKey is everything the shown classes depend on: when none of it moved, they did not either.
type subKey struct {
	overview  bool
	sel, insp *namespace.Context
	tree      [3]int  // the tree's first row, height and width: the rows whose values it shows
	hot       uintptr // the open peer sets (hotKey)
	gen       uint64  // the registry's generation: instances come and go
	w         int     // the terminal's width: whether the overview's process block ranks by I/O
	hostsTop  string  // the hosts table's first row on screen and how many: their processes are read
}

// shownClasses are the classes whose values are on screen: the selected context's own and its
// instances' (the values pane), the same for the inspector's target, the statistics in view in
// a wide tree, and every class under an open peer set's context, at every level (the hot pane
// ranks disks and their partitions); with overview, the overview's too (procDatums asks what
// the rest shows).
func (m *Model) shownClasses(overview bool) []*namespace.Class {
	shown := &shownSet{ix: newClassIndex(m.reg.Classes()), seen: map[*namespace.Class]bool{}}
	var over []*namespace.Context
	if overview {
		over = m.overviewContexts()
	}
	m.reg.Read(func() {
		for _, c := range over {
			shown.addCtx(c)
		}
		shown.addCtx(m.sel.Ctx)
		shown.addCtx(m.insp.ref.Ctx)
		m.tree.VisibleStatClasses(shown.add)
		for _, e := range m.hot.Entries() {
			shown.addPeerSet(e)
		}
	})
	return shown.out
}

// overviewContexts are the contexts the overview shows: the processors, memory, the host
// (issue 12), the busiest processes (issue 32) and a fleet's hosts table (hosts.go).
func (m *Model) overviewContexts() []*namespace.Context {
	var over []*namespace.Context
	for _, p := range []string{"CPU", "Mem/Real", "Mem/Swap", "Host", "Pressure", "Proc"} {
		if ref, err := m.reg.Lookup(nil, p); err == nil {
			over = append(over, ref.Ctx)
		}
	}
	return append(over, m.hostsContexts()...)
}

// shownSet gathers the classes on screen, each once, in the order met.
type shownSet struct {
	out  []*namespace.Class
	seen map[*namespace.Class]bool
	// ix is every class of the name space by id, so that those below a class are a run of
	// them, found by a binary search: with a thousand hosts, a walk over every class for each
	// context shown cost more than the collection (issue 40, budgets).
	ix classIndex
}

// add takes a class with data. An uninstantiated class (Disk, Mem) has none: reading it would
// only run its provider. A lazy one (a node of a remote PCP name space) is read to list what is
// below it.
func (s *shownSet) add(c *namespace.Class) {
	if c == nil || (!c.Instantiated() && !c.Lazy) || s.seen[c] {
		return
	}
	s.seen[c] = true
	s.out = append(s.out, c)
	if c.OnDemand && !c.Lazy && len(c.ID) > 1 {
		// The on-demand classes of one family are read together (a group's devices with it):
		// those below the class's parent, never a lazy one (a node of a PCP name space is read
		// along its path). The family was once every on-demand class below the first level: a
		// fleet's host, so a host's processes on screen read every node of its PCP name space
		// explored so far (990 classes for two hosts, each collection past its deadline, issue 40).
		s.ix.under(c.ID[:len(c.ID)-1], func(o *namespace.Class) {
			if o.OnDemand && !o.Lazy {
				s.add(o)
			}
		})
	}
}

// addCtx takes the classes a context shows: its own, its statistics', and its instances'.
func (s *shownSet) addCtx(ctx *namespace.Context) {
	if ctx == nil {
		return
	}
	if c := ctx.Class; c != nil && !c.Instantiated() {
		s.addBelow(c)
	}
	s.add(ctx.Class)
	s.add(ctx.Stats)
	var last *namespace.Class
	for _, k := range ctx.Children() {
		if k.Kind == namespace.CtxInstance && k.Class != last {
			last = k.Class
			s.add(k.Class)
		}
	}
}

// addBelow takes what an uninstantiated class shows below it. Proc before its first reading has
// no instance to find it by: its on-demand classes are read because it is shown. A node of a PCP
// name space: the classes of its own statistics and instances.
func (s *shownSet) addBelow(c *namespace.Class) {
	s.ix.under(c.ID, func(o *namespace.Class) {
		switch {
		case len(o.ID) <= len(c.ID):
		case o.OnDemand && !o.Lazy:
			s.add(o)
		case o.Lazy && o.Instantiated() && len(o.ID) == len(c.ID)+1:
			s.add(o)
		}
	})
}

// addPeerSet takes an open peer set's classes: a fleet peer set's peers on every host, and every
// class at or under its context's.
func (s *shownSet) addPeerSet(e *namespace.HotVals) {
	for _, c := range e.PeerClasses() {
		s.add(c)
	}
	if g := e.Grandpa(); g != nil && g.Class != nil {
		s.ix.under(g.Class.ID, s.add)
	}
}

// classIndex is classes sorted by id: those below a class (and the class) are a run.
type classIndex []*namespace.Class

// newClassIndex is all sorted by id.
func newClassIndex(all []*namespace.Class) classIndex {
	ix := classIndex(slices.Clone(all))
	slices.SortFunc(ix, func(a, b *namespace.Class) int { return slices.Compare(a.ID, b.ID) })
	return ix
}

// under calls f with each class whose id begins with id, in id order.
func (ix classIndex) under(id namespace.ClassID, f func(*namespace.Class)) {
	i, _ := slices.BinarySearchFunc(ix, id, func(c *namespace.Class, id namespace.ClassID) int { return slices.Compare(c.ID, id) })
	for ; i < len(ix) && len(ix[i].ID) >= len(id) && slices.Equal(ix[i].ID[:len(id)], id); i++ {
		f(ix[i])
	}
}

// hotKey stands for the open peer sets: which they are, not the hot pane's version, which moves
// at every reading (its rows drawn again), so that the shown classes were worked out again at
// every reading (a sixth of a processor for a fleet of 1,000 hosts at 100 ms, issue 40).
func (m *Model) hotKey() uintptr {
	var k uintptr
	for _, e := range m.hot.Entries() {
		k = k*31 + uintptr(unsafe.Pointer(e))
	}
	return k
}

// resubscribe brings the subscription in line with what is on screen. When a class comes on
// screen that the latest collection did not read, it collects at once (unless a collection is
// running, the monitor is paused, or the last one was moments ago), so its values are current
// rather than a few seconds old.
func (m *Model) resubscribe() tea.Cmd {
	sub, ok := m.src.(subscriber)
	if !ok || m.sub == nil {
		return nil
	}
	key := subKey{overview: m.ov != nil && m.ov.on, sel: m.sel.Ctx, insp: m.insp.ref.Ctx, hot: m.hotKey(), gen: m.reg.Generation(),
		tree: [3]int{m.tree.offset, m.tree.h, m.tree.w}, w: m.w, hostsTop: m.hostsOnScreen()}
	if key == m.sub.key && m.sub.cancel != nil {
		return nil
	}
	m.sub.key = key
	want := m.shownClasses(m.ov != nil && m.ov.on)
	partial, mask := m.procDatums(key, want)
	if partial != nil {
		want = slices.DeleteFunc(slices.Clone(want), func(c *namespace.Class) bool { return c == partial })
	}
	changed, stale := len(want) != len(m.sub.classes) || partial != m.sub.partial, false
	had := make(map[*namespace.Class]bool, len(m.sub.classes)) // a thousand hosts' classes: no search of a list each
	for _, c := range m.sub.classes {
		had[c] = true
	}
	for _, c := range append(want, partial) {
		if c != nil && !had[c] && c != m.sub.partial {
			changed = true
			stale = stale || m.staleIn(c)
		}
	}
	if !changed && m.sub.cancel != nil {
		return nil
	}
	// Subscribe first, then cancel: a class in both never drops to no subscriber.
	cancel := sub.Subscribe(want...)
	if partial != nil {
		cancelWhole, cancelPartial := cancel, m.src.(datumSubscriber).SubscribeDatums(partial, mask)
		cancel = func() { cancelWhole(); cancelPartial() }
	}
	if m.sub.cancel != nil {
		m.sub.cancel()
	}
	m.sub.classes, m.sub.partial, m.sub.cancel = want, partial, cancel
	m.log.Printf("reading at every collection: %d classes", len(want))
	// A collection right after another would give rates over a few milliseconds, which the
	// kernel's 100 Hz tick cannot resolve: within firstRateAfter of the last one, the next beat
	// brings the new class instead.
	// A replay has no beats while paused, and its readings take their rates from the archive:
	// it reads at once.
	if !stale || m.inflight || m.snap == nil || (m.rp == nil && (m.paused || m.now().Sub(m.lastStart) < firstRateAfter)) {
		return nil
	}
	m.inflight, m.extra = true, true
	return sampleCmd(m.ctx, m.src, m.now)
}

// datumSubscriber is a Sampler that can read some datums of a class only (collect.Sampler).
type datumSubscriber interface {
	SubscribeDatums(c *namespace.Class, want []bool) (cancel func())
}

// procIODatums are the process class's datums read from /proc/PID/io.
var procIODatums = [...]string{"rchar", "wchar", "syscr", "syscw", "read_bytes", "write_bytes", "io_bytes"}

// procDatums is the process class and the datums to read of it when nothing but the overview's
// process block shows it (issue 38 item 5): every datum but the control group and the context
// switches, which the block never shows, and but those of /proc/PID/io when the block does not
// rank by I/O (the third of procBlocks, on a terminal of 182 cells or more); the collection
// leaves their files unread (a kernel thread's status and schedstat too).
// Otherwise (the table, the tree or the inspector on a process) nil: the whole class is read.
func (m *Model) procDatums(key subKey, want []*namespace.Class) (*namespace.Class, []bool) {
	if _, ok := m.src.(datumSubscriber); !ok || !key.overview {
		return nil, nil
	}
	pc := m.procClass()
	if pc == nil || !slices.Contains(want, pc.c) || slices.Contains(m.shownClasses(false), pc.c) {
		return nil, nil
	}
	mask := make([]bool, len(pc.c.Datums))
	for i := range mask {
		mask[i] = true
	}
	for _, n := range [...]string{"cgroup", "vctxsw", "nvctxsw"} {
		if i := pc.c.DatumByName(n); i >= 0 {
			mask[i] = false
		}
	}
	if procBlockCount(key.w-ovMargin) < 3 {
		for _, n := range procIODatums {
			if i := pc.c.DatumByName(n); i >= 0 {
				mask[i] = false
			}
		}
	}
	return pc.c, mask
}

// staleIn reports whether the latest collection did not read class c (it is read only now and
// then while nothing shows it).
func (m *Model) staleIn(c *namespace.Class) bool {
	if m.snap == nil {
		return false
	}
	cv := m.snap.Class(c)
	return cv == nil || !cv.Sampled || cv.End.Before(m.snap.Start)
}
