package collect

import (
	"context"
	"math"
	"sync"
	"testing"
	"time"

	ns "dcimon/namespace"
)

// harness is a minimal DCI server for provider tests: it registers the providers' classes in a
// fresh registry, and turns each round of Collects into the next snapshot the way the sampler
// does (Sync, then namespace.Next), without the sampler's concurrency.
type harness struct {
	t      testing.TB
	reg    *ns.Registry
	provs  []Provider
	insts  map[*ns.Class][]*ns.Instance
	snap   *ns.Snapshot
	events []ns.Event
	errs   []error // provider errors of the last step
	last   []Batch // batches of the last step, in provider order (zero for a failed provider)
}

func newHarness(t testing.TB, provs []Provider) *harness {
	t.Helper()
	h := &harness{t: t, reg: ns.NewRegistry(), provs: provs, insts: map[*ns.Class][]*ns.Instance{}}
	for _, p := range provs {
		for _, c := range p.Classes() {
			if err := h.reg.RegisterClass(c); err != nil {
				t.Fatalf("%s: %v", p.Supplier().Module, err)
			}
		}
	}
	return h
}

// step collects every provider once and builds the next snapshot.
func (h *harness) step(req Request) *ns.Snapshot { return h.stepReuse(req, nil) }

// stepReuse is step recycling the buffers of snapshot reuse, which nobody reads any more.
func (h *harness) stepReuse(req Request, reuse *ns.Snapshot) *ns.Snapshot {
	h.t.Helper()
	var smp ns.Sample
	h.errs, h.last = nil, nil
	for _, p := range h.provs {
		b, err := p.Collect(context.Background(), req)
		h.last = append(h.last, b)
		if err != nil {
			h.errs = append(h.errs, err)
			continue
		}
		for _, cr := range b.Classes {
			insts, evs, err := h.reg.Sync(cr.Class, cr.Specs, b.Time, h.insts[cr.Class])
			if err != nil {
				h.t.Fatalf("Sync %s: %v", cr.Class.ID, err)
			}
			h.insts[cr.Class] = insts
			h.events = append(h.events, evs...)
			cs := ns.ClassSample{Class: cr.Class, Reset: b.Reset, Time: b.Time, Start: b.Time, End: b.Time, Insts: insts, Raw: cr.Raw, Err: cr.Err}
			if cr.Err != nil {
				cs.ErrReason = ns.ReasonProviderError
			}
			smp.Classes = append(smp.Classes, cs)
		}
	}
	h.snap = ns.Next(h.snap, &smp, reuse)
	return h.snap
}

// value looks a statistic up by SPMI path in the latest snapshot.
func (h *harness) value(path string) ns.Value {
	h.t.Helper()
	ref, err := h.reg.Lookup(nil, path)
	if err != nil {
		h.t.Fatalf("%s: %v", path, err)
	}
	v, _, ok := h.snap.Lookup(ref)
	if !ok {
		h.t.Fatalf("%s: not in the snapshot", path)
	}
	return v
}

// datum looks a statistic's declaration up by SPMI path.
func (h *harness) datum(path string) *ns.Datum {
	h.t.Helper()
	ref, err := h.reg.Lookup(nil, path)
	if err != nil || ref.Datum == nil {
		h.t.Fatalf("%s: %v", path, err)
	}
	return ref.Datum
}

// instance looks an instance up by the SPMI path of its context.
func (h *harness) instance(path string) *ns.Instance {
	h.t.Helper()
	ref, err := h.reg.Lookup(nil, path)
	if err != nil || ref.Ctx == nil || ref.Ctx.Inst == nil {
		h.t.Fatalf("%s: not an instance: %v", path, err)
	}
	return ref.Ctx.Inst
}

// reading returns the class reading of class id in the last step.
func (h *harness) reading(id string) *ClassReading {
	h.t.Helper()
	for i := range h.last {
		for j := range h.last[i].Classes {
			if cr := &h.last[i].Classes[j]; cr.Class.ID.String() == id {
				return cr
			}
		}
	}
	h.t.Fatalf("class %s not read", id)
	return nil
}

// fakeClock is a manual clock for the sampler.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// value looks a statistic up by path in snap.
func value(t *testing.T, s *Sampler, snap *ns.Snapshot, path string) ns.Value {
	t.Helper()
	ref, err := s.Registry().Lookup(nil, path)
	if err != nil {
		t.Fatal(err)
	}
	v, _, _ := snap.Lookup(ref)
	return v
}

// tick moves the clock on by d and samples.
func tick(t *testing.T, s *Sampler, c *fakeClock, d time.Duration) *ns.Snapshot {
	t.Helper()
	c.Add(d)
	snap, err := s.Sample(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// near reports whether got is within a relative 1e-9 of want.
func near(got, want float64) bool { return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want)) }
