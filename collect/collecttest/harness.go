package collecttest

import (
	"context"
	"math"
	"sync"
	"testing"
	"time"

	"dcimon/collect"
	ns "dcimon/namespace"
)

// Harness is a minimal DCI server for provider tests: it registers the providers' classes in a
// fresh registry, and turns each round of Collects into the next snapshot the way the sampler
// does (Sync, then namespace.Next), without the sampler's concurrency.
type Harness struct {
	T      testing.TB
	Reg    *ns.Registry
	Provs  []collect.Provider
	insts  map[*ns.Class][]*ns.Instance
	Snap   *ns.Snapshot
	Events []ns.Event
	Errs   []error         // provider errors of the last step
	Last   []collect.Batch // batches of the last step, in provider order (zero for a failed provider)
}

func NewHarness(t testing.TB, provs []collect.Provider) *Harness {
	t.Helper()
	h := &Harness{T: t, Reg: ns.NewRegistry(), Provs: provs, insts: map[*ns.Class][]*ns.Instance{}}
	for _, p := range provs {
		for _, c := range p.Classes() {
			if err := h.Reg.RegisterClass(c); err != nil {
				t.Fatalf("%s: %v", p.Supplier().Module, err)
			}
		}
	}
	return h
}

// Step collects every provider once and builds the next snapshot.
func (h *Harness) Step(req collect.Request) *ns.Snapshot { return h.StepReuse(req, nil) }

// StepReuse is step recycling the buffers of snapshot reuse, which nobody reads any more.
func (h *Harness) StepReuse(req collect.Request, reuse *ns.Snapshot) *ns.Snapshot {
	h.T.Helper()
	var smp ns.Sample
	h.Errs, h.Last = nil, nil
	for _, p := range h.Provs {
		b, err := p.Collect(context.Background(), req)
		h.Last = append(h.Last, b)
		if err != nil {
			h.Errs = append(h.Errs, err)
			continue
		}
		for _, cr := range b.Classes {
			insts, evs, err := h.Reg.Sync(cr.Class, cr.Specs, b.Time, h.insts[cr.Class])
			if err != nil {
				h.T.Fatalf("Sync %s: %v", cr.Class.ID, err)
			}
			h.insts[cr.Class] = insts
			h.Events = append(h.Events, evs...)
			cs := ns.ClassSample{Class: cr.Class, Reset: b.Reset, Time: b.Time, Start: b.Time, End: b.Time, Insts: insts, Raw: cr.Raw, Err: cr.Err}
			if cr.Err != nil {
				cs.ErrReason = ns.ReasonProviderError
			}
			smp.Classes = append(smp.Classes, cs)
		}
	}
	h.Snap = ns.Next(h.Snap, &smp, reuse)
	return h.Snap
}

// StepRemoved is Step, returning the paths of the instances the step removed, in the order the
// registry reported them.
func (h *Harness) StepRemoved(req collect.Request) []string {
	h.T.Helper()
	n := len(h.Events)
	h.Step(req)
	var removed []string
	for _, ev := range h.Events[n:] {
		if ev.Kind == ns.EvInstanceRemoved {
			removed = append(removed, ev.Path)
		}
	}
	return removed
}

// Value looks a statistic up by SPMI path in the latest snapshot.
func (h *Harness) Value(path string) ns.Value {
	h.T.Helper()
	ref, err := h.Reg.Lookup(nil, path)
	if err != nil {
		h.T.Fatalf("%s: %v", path, err)
	}
	v, _, ok := h.Snap.Lookup(ref)
	if !ok {
		h.T.Fatalf("%s: not in the snapshot", path)
	}
	return v
}

// Datum looks a statistic's declaration up by SPMI path.
func (h *Harness) Datum(path string) *ns.Datum {
	h.T.Helper()
	ref, err := h.Reg.Lookup(nil, path)
	if err != nil || ref.Datum == nil {
		h.T.Fatalf("%s: %v", path, err)
	}
	return ref.Datum
}

// Instance looks an instance up by the SPMI path of its context.
func (h *Harness) Instance(path string) *ns.Instance {
	h.T.Helper()
	ref, err := h.Reg.Lookup(nil, path)
	if err != nil || ref.Ctx == nil || ref.Ctx.Inst == nil {
		h.T.Fatalf("%s: not an instance: %v", path, err)
	}
	return ref.Ctx.Inst
}

// Reading returns the class reading of class id in the last step.
func (h *Harness) Reading(id string) *collect.ClassReading {
	h.T.Helper()
	for i := range h.Last {
		for j := range h.Last[i].Classes {
			if cr := &h.Last[i].Classes[j]; cr.Class.ID.String() == id {
				return cr
			}
		}
	}
	h.T.Fatalf("class %s not read", id)
	return nil
}

// FakeClock is a manual clock for the sampler.
type FakeClock struct {
	mu sync.Mutex
	T  time.Time
}

func (c *FakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.T }
func (c *FakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.T = c.T.Add(d)
	c.mu.Unlock()
}

// Value looks a statistic up by path in snap.
func Value(t *testing.T, s *collect.Sampler, snap *ns.Snapshot, path string) ns.Value {
	t.Helper()
	ref, err := s.Registry().Lookup(nil, path)
	if err != nil {
		t.Fatal(err)
	}
	v, _, _ := snap.Lookup(ref)
	return v
}

// Tick moves the clock on by d and samples.
func Tick(t *testing.T, s *collect.Sampler, c *FakeClock, d time.Duration) *ns.Snapshot {
	t.Helper()
	c.Add(d)
	snap, err := s.Sample(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// Near reports whether got is within a relative 1e-9 of want.
func Near(got, want float64) bool { return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want)) }
