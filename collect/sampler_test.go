package collect_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	ns "dcimon/namespace"
)

// fakeProv is a scriptable provider with one class: a counter, a static datum and a variable one.
type fakeProv struct {
	name   string
	id     uint32
	mu     sync.Mutex
	count  uint64         // the counter's value
	insts  []string       // instance names
	reset  byte           // reset value
	fail   error          // return this error
	panics bool           // panic in Collect
	hang   chan struct{}  // block until closed (or ctx done if honourCtx)
	stale  bool           // report the same collect.Batch.Time as last time (stopped updating)
	reads  map[string]int // datum reads by volatility
	calls  atomic.Int32
	class  *ns.Class
	lastT  time.Time
	clock  *collecttest.FakeClock
}

func newFake(name string, id uint32, clock *collecttest.FakeClock, insts ...string) *fakeProv {
	f := &fakeProv{name: name, id: id, insts: insts, clock: clock, reads: map[string]int{}}
	return f
}

func (f *fakeProv) Supplier() ns.Supplier {
	return ns.Supplier{IVersion: 101, SVersion: 100, Module: f.name, Title: "fake " + f.name, Description: "a scripted test supplier"}
}

func (f *fakeProv) Classes() []*ns.Class {
	top := &ns.Class{ID: ns.ClassID{f.id}, Name: strings.ToUpper(f.name[:1]) + f.name[1:], Flags: ns.ClassEnabled}
	f.class = &ns.Class{ID: ns.ClassID{f.id, 2}, Name: "item", Flags: ns.ClassEnabled, InstFreq: ns.SiContInst,
		Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagDevice, Size: 4}},
		Datums: []ns.Datum{
			ns.Counter(1, "ops", ns.TypeUint8, ns.UnitCount, "operations", "fake"),
			ns.Discrete(2, "size", ns.TypeUint8, ns.UnitBytes, "static size", "fake"),
			ns.Gauge(3, "mtu", ns.TypeUint4, ns.UnitBytes, "variable", "fake").WithVolatility(ns.SVVariable),
		}}
	return []*ns.Class{top, f.class}
}

func (f *fakeProv) Collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	f.calls.Add(1)
	f.mu.Lock()
	hang, fail, panics := f.hang, f.fail, f.panics
	f.mu.Unlock()
	if panics {
		panic("provider bug")
	}
	if hang != nil {
		<-hang
	}
	if fail != nil {
		return collect.Batch{}, fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	b := collect.Batch{Reset: [8]byte{f.reset}, Time: f.clock.Now()}
	if f.stale {
		b.Time = f.lastT
	}
	f.lastT = b.Time
	cr := collect.ClassReading{Class: f.class}
	for i, n := range f.insts {
		cr.Specs = append(cr.Specs, ns.InstanceSpec{Levels: []uint64{uint64(i + 1)}, OSName: n})
		row := []ns.Raw{{N: f.count}, {State: ns.RawSkipped}, {State: ns.RawSkipped}}
		f.reads["volatile"]++
		if req.Due(ns.SVStatic) {
			row[1] = ns.Raw{N: 4096}
			f.reads["static"]++
		}
		if req.Due(ns.SVVariable) {
			row[2] = ns.Raw{N: 1500}
			f.reads["variable"]++
		}
		cr.Raw = append(cr.Raw, row...)
	}
	b.Classes = []collect.ClassReading{cr}
	return b, nil
}

func (f *fakeProv) set(fn func(f *fakeProv)) { f.mu.Lock(); fn(f); f.mu.Unlock() }

func newTestSampler(t *testing.T, opt collect.Options, provs ...*fakeProv) (*collect.Sampler, *collecttest.FakeClock) {
	t.Helper()
	var clock *collecttest.FakeClock
	for _, p := range provs {
		clock = p.clock
	}
	opt.Now = clock.Now
	ps := make([]collect.Provider, len(provs))
	for i, p := range provs {
		ps[i] = p
	}
	s, err := collect.NewSampler(ns.NewRegistry(), ps, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s, clock
}

func TestSamplerRatesAndEvents(t *testing.T) {
	clock := &collecttest.FakeClock{T: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	a := newFake("alpha", 10, clock, "a0")
	s, c := newTestSampler(t, collect.Options{Liveness: -1}, a)
	a.set(func(f *fakeProv) { f.count = 100 })
	snap := collecttest.Tick(t, s, c, 0)
	if v := collecttest.Value(t, s, snap, "Alpha/a0/ops"); v.State != ns.NoRate {
		t.Fatalf("first reading %+v", v)
	}
	if v := collecttest.Value(t, s, snap, "Alpha/a0/size"); v.N != 4096 { // static read at the first collection
		t.Fatalf("static %+v", v)
	}
	a.set(func(f *fakeProv) { f.count = 300; f.insts = append(f.insts, "a1") })
	snap = collecttest.Tick(t, s, c, 2*time.Second)
	if v := collecttest.Value(t, s, snap, "Alpha/a0/ops"); v.State != ns.Valid || v.V != 100 { // PCPD-3: 100 then 300 over 2 s
		t.Fatalf("rate %+v", v)
	}
	if v := collecttest.Value(t, s, snap, "Alpha/a0/size"); v.N != 4096 || v.State != ns.Valid { // carried, not re-read
		t.Fatalf("static carried %+v", v)
	}
	if v := collecttest.Value(t, s, snap, "Alpha/a1/size"); v.State != ns.Unavailable { // never read for a new instance yet
		t.Logf("new instance static: %+v", v)
	}
	evs := s.Events().Events()
	if len(evs) == 0 || evs[0].Kind != ns.EvInstanceAdded || evs[0].Path != "Alpha/a1" { // DCI-EVT-3
		t.Fatalf("events %+v", evs)
	}
	a.set(func(f *fakeProv) { f.insts = f.insts[:1] })
	collecttest.Tick(t, s, c, time.Second)
	if evs := s.Events().Events(); evs[0].Kind != ns.EvInstanceRemoved || evs[0].Path != "Alpha/a1" {
		t.Fatalf("removal %+v", evs[0])
	}
}

// PCPF-12: a provider's failure is encoded in its own values, never a failure of the whole
// collection; SPMI-INST-7: a provider that does not answer (busy) is read again at the next tick.
func TestSamplerIsolatesFailures(t *testing.T) {
	// House style 6, DCI-MTH-8, SPMI-HOT-19: an error, a panic or a hang fails only its own classes.
	for _, tt := range []struct {
		name   string
		break_ func(f *fakeProv)
		reason ns.Reason
		text   string
	}{
		{"error", func(f *fakeProv) { f.fail = errors.New("cannot read /proc/fake") }, ns.ReasonProviderError, "cannot read"},
		{"panic", func(f *fakeProv) { f.panics = true }, ns.ReasonProviderError, "panic: provider bug"},
		{"hang", func(f *fakeProv) { f.hang = make(chan struct{}) }, ns.ReasonTimeout, "no answer within"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			clock := &collecttest.FakeClock{T: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
			good := newFake("good", 10, clock, "g0")
			bad := newFake("bad", 11, clock, "b0")
			s, c := newTestSampler(t, collect.Options{Deadline: 50 * time.Millisecond, Liveness: 0}, good, bad)
			collecttest.Tick(t, s, c, 0)
			bad.set(tt.break_)
			good.set(func(f *fakeProv) { f.count = 10 })
			begin := time.Now()
			snap := collecttest.Tick(t, s, c, time.Second)
			if el := time.Since(begin); el > 2*time.Second {
				t.Fatalf("sample took %v: a bad provider stalled the rest", el)
			}
			if v := collecttest.Value(t, s, snap, "Good/g0/ops"); v.State != ns.Valid || v.V != 10 {
				t.Fatalf("good provider affected: %+v", v)
			}
			v := collecttest.Value(t, s, snap, "Bad/b0/ops")
			if v.State != ns.Unavailable || v.Reason != tt.reason {
				t.Fatalf("bad provider value %+v", v)
			}
			cv := snap.Class(bad.class)
			if cv.Err == nil || !strings.Contains(cv.Err.Error(), tt.text) {
				t.Fatalf("class error %v", cv.Err)
			}
			st := statusOf(t, s, "bad")
			if st.Failures != 1 || st.LastErr == nil {
				t.Fatalf("status %+v", st)
			}
			if evs := s.Events().Events(); evs[0].Kind != ns.EvProviderError {
				t.Fatalf("no provider error event: %+v", evs[0])
			}
			// The Monitor class shows it (issue 3).
			if v := collecttest.Value(t, s, snap, "Monitor/bad/failures"); v.N != 1 {
				t.Fatalf("monitor failures %+v", v)
			}
			if tt.name == "hang" {
				// Next tick: not started again while still stuck, and still no stall.
				collecttest.Tick(t, s, c, time.Second)
				if bad.calls.Load() != 2 {
					t.Fatalf("hung provider started again: %d calls", bad.calls.Load())
				}
				if st := statusOf(t, s, "bad"); st.State != "busy" {
					t.Fatalf("state %q", st.State)
				}
				bad.set(func(f *fakeProv) { close(f.hang); f.hang = nil })
				deadline := time.Now().Add(2 * time.Second)
				for statusOf(t, s, "bad").State == "busy" && time.Now().Before(deadline) {
					time.Sleep(5 * time.Millisecond)
				}
				snap = collecttest.Tick(t, s, c, time.Second)
				if v := collecttest.Value(t, s, snap, "Bad/b0/ops"); v.State == ns.Unavailable {
					t.Fatalf("recovered provider still unavailable %+v", v)
				}
				if evs := s.Events().Events(); evs[0].Kind != ns.EvSupplierAlive {
					t.Fatalf("no alive event: %+v", evs[0])
				}
			}
		})
	}
}

func TestSamplerResetChange(t *testing.T) {
	// DCI4-SUP-8, PCPF-14: 1000 → 1100 → (reset) 50 → 80 gives 100/s, —, 30/s: no rate across the
	// discontinuity; descriptions re-read.
	clock := &collecttest.FakeClock{T: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	a := newFake("alpha", 10, clock, "a0")
	s, c := newTestSampler(t, collect.Options{Liveness: 0}, a)
	var got []string
	for i, step := range []struct {
		count uint64
		reset byte
	}{{1000, 1}, {1100, 1}, {50, 2}, {80, 2}} {
		a.set(func(f *fakeProv) { f.count, f.reset = step.count, step.reset })
		snap := collecttest.Tick(t, s, c, time.Second)
		v := collecttest.Value(t, s, snap, "Alpha/a0/ops")
		switch v.State {
		case ns.Valid:
			got = append(got, fmt.Sprintf("%g/s", v.V))
		default:
			got = append(got, "— "+v.Reason.String())
		}
		if i == 2 {
			if sv := collecttest.Value(t, s, snap, "Alpha/a0/size"); sv.State != ns.Valid || sv.N != 4096 {
				t.Fatalf("static datum after reset: %+v", sv)
			}
		}
	}
	want := "[— no previous sample 100/s — supplier re-initialised 30/s]"
	if fmt.Sprint(got) != want {
		t.Fatalf("got %v, want %v", got, want)
	}
	if evs := s.Events().Events(); !hasKind(evs, ns.EvSupplierReset) {
		t.Fatal("no reset event")
	}
}

func hasKind(evs []ns.Event, k ns.EventKind) bool {
	for _, e := range evs {
		if e.Kind == k {
			return true
		}
	}
	return false
}

func TestSamplerVolatility(t *testing.T) {
	// DCI4-DESC-3: over 10 ticks of 1 s, static read once, variable once, volatile 10 times;
	// Refresh re-reads variable; a reset re-reads static.
	clock := &collecttest.FakeClock{T: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	a := newFake("alpha", 10, clock, "a0")
	s, c := newTestSampler(t, collect.Options{Liveness: 0}, a)
	for range 10 {
		collecttest.Tick(t, s, c, time.Second)
	}
	if a.reads["static"] != 1 || a.reads["variable"] != 1 || a.reads["volatile"] != 10 {
		t.Fatalf("reads %v", a.reads)
	}
	s.Refresh()
	collecttest.Tick(t, s, c, time.Second)
	if a.reads["variable"] != 2 || a.reads["static"] != 1 {
		t.Fatalf("after refresh %v", a.reads)
	}
	collecttest.Tick(t, s, c, 5*time.Minute) // SV_VARIABLE at most every five minutes
	if a.reads["variable"] != 3 {
		t.Fatalf("after 5 min %v", a.reads)
	}
}

func TestSamplerLiveness(t *testing.T) {
	// SPMI-DDS-4: a provider that stops updating is assumed dead after the timeout (30 s: not at
	// 29 s, yes at 31 s), its contexts go, SiAssumedDead; 0 disables; 10 s and 601 s are refused.
	clock := &collecttest.FakeClock{T: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	a := newFake("alpha", 10, clock, "a0")
	s, c := newTestSampler(t, collect.Options{Liveness: 30 * time.Second}, a)
	collecttest.Tick(t, s, c, 0)
	a.set(func(f *fakeProv) { f.stale = true })
	collecttest.Tick(t, s, c, 29*time.Second)
	if st := s.Status()[0]; st.State == "dead" {
		t.Fatal("dead at 29 s")
	}
	snap := collecttest.Tick(t, s, c, 2*time.Second)
	if st := s.Status()[0]; st.State != "dead" {
		t.Fatalf("not dead at 31 s: %+v", st)
	}
	if _, err := s.Registry().Lookup(nil, "Alpha/a0"); err == nil {
		t.Fatal("dead supplier's context still there")
	}
	evs := s.Events().Events()
	if !hasKind(evs, ns.EvSupplierDead) || !strings.Contains(fmt.Sprint(evs), "SiAssumedDead (183)") {
		t.Fatalf("events %v", evs)
	}
	if cv := snap.Class(a.class); cv.ErrReason != ns.ReasonAssumedDead {
		t.Fatalf("class reason %v", cv.ErrReason)
	}
	// It comes back.
	a.set(func(f *fakeProv) { f.stale = false })
	collecttest.Tick(t, s, c, time.Second)
	if _, err := s.Registry().Lookup(nil, "Alpha/a0"); err != nil {
		t.Fatalf("revived supplier's context missing: %v", err)
	}
	for _, d := range []time.Duration{10 * time.Second, 601 * time.Second} {
		if collect.ValidateLiveness(d) == nil {
			t.Errorf("liveness %v accepted", d)
		}
	}
	for _, d := range []time.Duration{0, 15 * time.Second, 600 * time.Second} {
		if err := collect.ValidateLiveness(d); err != nil {
			t.Error(err)
		}
	}
	// Disabled: never dead.
	clock2 := &collecttest.FakeClock{T: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	b := newFake("beta", 10, clock2, "b0")
	s2, c2 := newTestSampler(t, collect.Options{Liveness: 0}, b)
	collecttest.Tick(t, s2, c2, 0)
	b.set(func(f *fakeProv) { f.stale = true })
	collecttest.Tick(t, s2, c2, time.Hour)
	if s2.Status()[0].State == "dead" {
		t.Fatal("dead with liveness disabled")
	}
}

func TestSamplerSubscriptions(t *testing.T) {
	// SPMI-FEAT-2, SPMI-SET-13: one read per tick whatever the number of consumers. SPMI-DDS-6:
	// a provider nobody is subscribed to keeps being read slowly, every IdleEvery (5 s), and at
	// every tick again once someone subscribes to it.
	clock := &collecttest.FakeClock{T: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	a := newFake("alpha", 10, clock, "a0")
	b := newFake("beta", 11, clock, "b0")
	s, c := newTestSampler(t, collect.Options{Liveness: 0}, a, b)
	cancel1 := s.Subscribe(a.class)
	cancel2 := s.Subscribe(a.class)
	for range 6 {
		collecttest.Tick(t, s, c, time.Second)
	}
	// b: the first collection reads everything, then 5 s later once more.
	if a.calls.Load() != 6 || b.calls.Load() != 2 {
		t.Fatalf("after 6 ticks: calls a=%d b=%d, want 6 and 2", a.calls.Load(), b.calls.Load())
	}
	// Static datums were read once, by the first collection, which read every class.
	if got := a.reads["static"]; got != 1 {
		t.Errorf("a's static datums read %d times, want 1", got)
	}
	collecttest.Tick(t, s, c, time.Second)
	snap := collecttest.Tick(t, s, c, time.Second)
	if b.calls.Load() != 2 {
		t.Fatalf("b read at %d ticks, want still 2", b.calls.Load())
	}
	// The idle class keeps its last reading, with the time it was read.
	bv := snap.Class(b.class)
	if bv == nil || !bv.Sampled || !bv.End.Equal(time.Date(2026, 1, 1, 0, 0, 6, 0, time.UTC)) {
		t.Fatalf("b's values: %+v, want the reading of 00:00:06", bv)
	}
	// Someone opens b: it is read at the next tick, and at every tick after.
	cancelB := s.Subscribe(b.class)
	collecttest.Tick(t, s, c, time.Second)
	collecttest.Tick(t, s, c, time.Second)
	if b.calls.Load() != 4 {
		t.Fatalf("b calls %d after subscribing, want 4", b.calls.Load())
	}
	cancelB()
	cancel1()
	cancel1()
	collecttest.Tick(t, s, c, time.Second)
	if a.calls.Load() != 11 {
		t.Fatal("still subscribed once: should run")
	}
	cancel2()
	before := b.calls.Load()
	collecttest.Tick(t, s, c, time.Second) // nobody subscribed: everything runs
	// DCI-NS-11: a provider is asked once per collection for its whole classes, never once per datum.
	if b.calls.Load() != before+1 {
		t.Fatalf("b calls %d, want %d with nobody subscribed", b.calls.Load(), before+1)
	}
}

// DCI4-SUP-2: a supplier whose classes cannot be registered (here the same class ids as
// another's) does not stop the others: they are listed and read, the failing one is listed as
// not registered, with its error, and an event says so.
func TestSamplerRejectsBadClasses(t *testing.T) {
	clock := &collecttest.FakeClock{T: time.Now()}
	a := newFake("alpha", 10, clock, "a0")
	b := newFake("beta", 10, clock, "b0") // same class ids
	s, err := collect.NewSampler(ns.NewRegistry(), []collect.Provider{a, b}, collect.Options{Now: clock.Now})
	if err != nil {
		t.Fatalf("one bad supplier stops the sampler: %v", err)
	}
	if st := statusOf(t, s, "beta"); st.State != "not registered" || st.LastErr == nil || !strings.Contains(st.LastErr.Error(), "beta") {
		t.Fatalf("beta: %+v", st)
	}
	snap := collecttest.Tick(t, s, clock, 0)
	if v := collecttest.Value(t, s, snap, "Alpha/a0/size"); v.State != ns.Valid {
		t.Fatalf("alpha is read: %+v", v)
	}
	if evs := s.Events().Events(); len(evs) == 0 || !strings.Contains(evs[len(evs)-1].Text, "beta not registered") {
		t.Fatalf("no event for the supplier that could not be registered: %+v", evs)
	}
	if _, err := collect.NewSampler(ns.NewRegistry(), nil, collect.Options{Liveness: 5 * time.Second}); err == nil {
		t.Fatal("liveness 5 s accepted")
	}
}

// emptyProv is a supplier with no statistic at all.
type emptyProv struct{ *fakeProv }

func (e emptyProv) Classes() []*ns.Class {
	return []*ns.Class{{ID: ns.ClassID{e.id}, Name: "Empty", Flags: ns.ClassEnabled}}
}

// DCI4-SUP-5: a supplier reporting no statistics is refused; DCI4-SUP-9: suppliers are listed
// in one order whatever order they were found in.
func TestSamplerSupplierRules(t *testing.T) {
	clock := &collecttest.FakeClock{T: time.Now()}
	s, err := collect.NewSampler(ns.NewRegistry(), []collect.Provider{emptyProv{newFake("empty", 30, clock)}, newFake("alpha", 10, clock)}, collect.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	if st := statusOf(t, s, "empty"); st.State != "not registered" || !strings.Contains(st.LastErr.Error(), "no statistics") {
		t.Fatalf("a supplier with no statistic: %+v", st)
	}
	order := func(provs ...collect.Provider) string {
		s, err := collect.NewSampler(ns.NewRegistry(), provs, collect.Options{Now: clock.Now})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, st := range s.Status() {
			names = append(names, st.Supplier.Module)
		}
		return strings.Join(names, " ")
	}
	abc := order(newFake("a", 1, clock), newFake("b", 2, clock), newFake("c", 3, clock))
	cab := order(newFake("c", 3, clock), newFake("a", 1, clock), newFake("b", 2, clock))
	if abc != cab || abc != "a b c" {
		t.Fatalf("supplier order depends on registration order: %q vs %q", abc, cab)
	}
}

// statusOf is the status of the supplier of module name.
func statusOf(t *testing.T, s *collect.Sampler, name string) collect.ProviderStatus {
	t.Helper()
	for _, st := range s.Status() {
		if st.Supplier.Module == name {
			return st
		}
	}
	t.Fatalf("no supplier %s", name)
	return collect.ProviderStatus{}
}

// DCI-CLS-2: a class that is disabled, not implemented, not applicable or obsolete is never read;
// its values say why.
func TestSamplerSkipsUnavailableClasses(t *testing.T) {
	for flags, why := range map[ns.ClassFlags]string{0: "disabled", ns.ClassEnabled | ns.ClassNotImplemented: "not implemented",
		ns.ClassEnabled | ns.ClassNotApplicable: "n/a on this host"} {
		clock := &collecttest.FakeClock{T: time.Now()}
		f := newFake("alpha", 10, clock, "a0")
		s, err := collect.NewSampler(ns.NewRegistry(), []collect.Provider{f}, collect.Options{Now: clock.Now})
		if err != nil {
			t.Fatal(err)
		}
		f.class.Flags = flags
		snap := collecttest.Tick(t, s, clock, 0)
		if n := f.calls.Load(); n != 0 {
			t.Errorf("%s: the provider was asked %d times", why, n)
		}
		if got := f.class.Unavailable(); got != why {
			t.Errorf("flags %v say %q, want %q", flags, got, why)
		}
		_ = snap
	}
}

// morphProv is a supplier that, re-initialised, describes its one datum otherwise: a 32-bit
// size in kilobytes becomes a 64-bit size in megabytes (the example of PCPD-13).
type morphProv struct {
	clock *collecttest.FakeClock
	mb    bool // the second incarnation
	cls   *ns.Class
}

func (m *morphProv) Supplier() ns.Supplier {
	return ns.Supplier{IVersion: 101, SVersion: 100, Module: "morph", Title: "morph", Description: "changes its descriptors"}
}

func (m *morphProv) Classes() []*ns.Class {
	d := ns.Gauge(1, "cache", ns.TypeUint4, ns.UnitKBytes, "cache size", "fake")
	if m.mb {
		d = ns.Gauge(1, "cache", ns.TypeUint8, ns.UnitMBytes, "cache size", "fake")
	}
	top := &ns.Class{ID: ns.ClassID{40}, Name: "Morph", Flags: ns.ClassEnabled}
	m.cls = &ns.Class{ID: ns.ClassID{40, 1}, Name: "one", Flags: ns.ClassEnabled, Totals: true,
		Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagSingleInst, Size: 4}}, Datums: []ns.Datum{d}}
	return []*ns.Class{top, m.cls}
}

func (m *morphProv) Describe() []*ns.Class { return m.Classes() }

func (m *morphProv) Collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	n, reset := uint64(2048), [8]byte{1}
	if m.mb {
		n, reset = 2, [8]byte{2}
	}
	return collect.Batch{Time: m.clock.Now(), Reset: reset, Classes: []collect.ClassReading{{Class: m.cls,
		Specs: []ns.InstanceSpec{{Levels: []uint64{0}}}, Raw: []ns.Raw{{N: n}}}}}, nil
}

// PCPD-13, PCPF-13 (issue 20 item 9): a supplier that restarts describing a metric otherwise
// (U32 kilobytes → U64 megabytes) is followed: the class is registered anew, the next value is
// scaled by the new description (2 MiB either way, never ×1024 off), and DATACHANGED is posted.
func TestSamplerFollowsChangedDescriptors(t *testing.T) {
	clock := &collecttest.FakeClock{T: time.Now()}
	mp := &morphProv{clock: clock}
	s, err := collect.NewSampler(ns.NewRegistry(), []collect.Provider{mp}, collect.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	read := func() (ns.Value, *ns.Datum) {
		t.Helper()
		snap := collecttest.Tick(t, s, clock, time.Second)
		ref, err := s.Registry().Lookup(nil, "Morph/cache")
		if err != nil {
			t.Fatal(err)
		}
		v, _, _ := snap.Lookup(ref)
		return v, ref.Datum
	}
	v, d := read()
	if d.Units != ns.UnitKBytes || v.N != 2048 {
		t.Fatalf("first incarnation: %v %v", d.Units, v.N)
	}
	mp.mb = true // re-initialised, with other descriptors
	v, d = read()
	if d.Units != ns.UnitMBytes || d.Type != ns.TypeUint8 || v.N != 2 {
		t.Fatalf("after the change the registered description is %s %s and the value %d", d.Type, d.Units, v.N)
	}
	changed := false
	for _, e := range s.Events().Events() {
		changed = changed || e.Kind == ns.EvDataChanged
	}
	if !changed {
		t.Fatal("no DATACHANGED event")
	}
}

// warnProv is a provider that supplies and says something is wrong with it (collect.Warner).
type warnProv struct {
	*fakeProv
	warn error
}

func (w *warnProv) Warning() error { return w.warn }

// Issue 33 item 8: what is wrong with a supplier that still supplies (a user's family that
// another supplier of its vendor gives too) is its error under Monitor while it has no failure,
// and an event once each time it changes.
func TestSamplerShowsWarnings(t *testing.T) {
	clock := &collecttest.FakeClock{T: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	w := &warnProv{fakeProv: newFake("dds:a.prom", 10, clock, "a0"), warn: errors.New(`family "jobs" is also a.om's: a.om's is read`)}
	s, err := collect.NewSampler(ns.NewRegistry(), []collect.Provider{w}, collect.Options{Now: clock.Now, Liveness: -1})
	if err != nil {
		t.Fatal(err)
	}
	var snap *ns.Snapshot
	for i := range 3 {
		snap = collecttest.Tick(t, s, clock, time.Duration(i)*time.Second)
	}
	if st := s.Status()[0]; st.State != "ok" || st.Warning == nil {
		t.Fatalf("status %+v", st)
	}
	if v := collecttest.Value(t, s, snap, "Monitor/dds:a.prom/error"); !strings.Contains(v.S, "warning: family \"jobs\"") {
		t.Errorf("Monitor's error: %+v", v)
	}
	n := 0
	for _, e := range s.Events().Events() {
		if strings.Contains(e.Text, "family \"jobs\"") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d events of the warning over 3 readings, want 1", n)
	}
	w.warn = nil
	snap = collecttest.Tick(t, s, clock, 3*time.Second)
	if v := collecttest.Value(t, s, snap, "Monitor/dds:a.prom/error"); v.S != "" {
		t.Errorf("Monitor's error after the warning went: %+v", v)
	}
}
