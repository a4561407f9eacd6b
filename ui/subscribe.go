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
	cancel  func()
}

// subKey is everything the shown classes depend on: when none of it moved, they did not either.
type subKey struct {
	overview  bool
	sel, insp *namespace.Context
	tree      [3]int  // the tree's first row, height and width: the rows whose values it shows
	hot       uintptr // the open peer sets (hotKey)
	gen       uint64  // the registry's generation: instances come and go
	hostsTop  string  // the hosts table's first row on screen and how many: their processes are read
}

// shownClasses are the classes whose values are on screen: the selected context's own and its
// instances' (the values pane), the same for the inspector's target, the statistics in view in
// a wide tree, and every class under an open peer set's context, at every level (the hot pane
// ranks disks and their partitions).
func (m *Model) shownClasses() []*namespace.Class {
	var out []*namespace.Class
	// The classes by id, so that those below a class are a run of them, found by a binary
	// search: with a thousand hosts, a walk over every class for each context shown cost more
	// than the collection (issue 40, budgets).
	ix := newClassIndex(m.reg.Classes())
	seen := map[*namespace.Class]bool{}
	var add func(c *namespace.Class)
	add = func(c *namespace.Class) {
		// An uninstantiated class (Disk, Mem) has no data: reading it would only run its
		// provider. A lazy one (a node of a remote PCP name space) is read to list what is
		// below it.
		if c == nil || (!c.Instantiated() && !c.Lazy) || seen[c] {
			return
		}
		seen[c] = true
		out = append(out, c)
		if c.OnDemand && !c.Lazy && len(c.ID) > 1 {
			// The on-demand classes of one family are read together (a group's devices with
			// it): those below the class's parent, never a lazy one (a node of a PCP name
			// space is read along its path). The family was once every on-demand class
			// below the first level: a fleet's host, so a host's processes on screen read
			// every node of its PCP name space explored so far (990 classes for two hosts,
			// each collection past its deadline, issue 40).
			ix.under(c.ID[:len(c.ID)-1], func(o *namespace.Class) {
				if o.OnDemand && !o.Lazy {
					add(o)
				}
			})
		}
	}
	addCtx := func(ctx *namespace.Context) {
		if ctx == nil {
			return
		}
		if c := ctx.Class; c != nil && !c.Instantiated() {
			// Proc before its first reading has no instance to find it by: its on-demand
			// classes are read because it is shown. A node of a PCP name space: the classes
			// of its own statistics and instances.
			ix.under(c.ID, func(o *namespace.Class) {
				switch {
				case len(o.ID) <= len(c.ID):
				case o.OnDemand && !o.Lazy:
					add(o)
				case o.Lazy && o.Instantiated() && len(o.ID) == len(c.ID)+1:
					add(o)
				}
			})
		}
		add(ctx.Class)
		add(ctx.Stats)
		var last *namespace.Class
		for _, k := range ctx.Children() {
			if k.Kind == namespace.CtxInstance && k.Class != last {
				last = k.Class
				add(k.Class)
			}
		}
	}
	// The overview shows the processors, memory, the host (issue 12) and the busiest
	// processes (issue 32).
	var over []*namespace.Context
	if m.ov != nil && m.ov.on {
		for _, p := range []string{"CPU", "Mem/Real", "Mem/Swap", "Host", "Pressure", "Proc"} {
			if ref, err := m.reg.Lookup(nil, p); err == nil {
				over = append(over, ref.Ctx)
			}
		}
		over = append(over, m.hostsContexts()...) // a fleet's hosts table (hosts.go)
	}
	m.reg.Read(func() {
		for _, c := range over {
			addCtx(c)
		}
		addCtx(m.sel.Ctx)
		addCtx(m.insp.ref.Ctx)
		m.tree.VisibleStatClasses(add)
		for _, e := range m.hot.Entries() {
			for _, c := range e.PeerClasses() {
				add(c) // a fleet peer set's peers are on every host
			}
			g := e.Grandpa()
			if g == nil || g.Class == nil {
				continue
			}
			ix.under(g.Class.ID, add)
		}
	})
	return out
}

// classIndex is classes sorted by id: those below a class (and the class) are a run.
type classIndex []*namespace.Class

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
		tree: [3]int{m.tree.offset, m.tree.h, m.tree.w}, hostsTop: m.hostsOnScreen()}
	if key == m.sub.key && m.sub.cancel != nil {
		return nil
	}
	m.sub.key = key
	want := m.shownClasses()
	changed, stale := len(want) != len(m.sub.classes), false
	had := make(map[*namespace.Class]bool, len(m.sub.classes)) // a thousand hosts' classes: no search of a list each
	for _, c := range m.sub.classes {
		had[c] = true
	}
	for _, c := range want {
		if !had[c] {
			changed = true
			stale = stale || m.staleIn(c)
		}
	}
	if !changed && m.sub.cancel != nil {
		return nil
	}
	// Subscribe first, then cancel: a class in both never drops to no subscriber.
	cancel := sub.Subscribe(want...)
	if m.sub.cancel != nil {
		m.sub.cancel()
	}
	m.sub.classes, m.sub.cancel = want, cancel
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

// staleIn reports whether the latest collection did not read class c (it is read only now and
// then while nothing shows it).
func (m *Model) staleIn(c *namespace.Class) bool {
	if m.snap == nil {
		return false
	}
	cv := m.snap.Class(c)
	return cv == nil || !cv.Sampled || cv.End.Before(m.snap.Start)
}
