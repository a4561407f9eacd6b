package namespace

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"
)

// sampler feeds scripted raw values into Next, the way the collect package does.
type sampler struct {
	r    *Registry
	snap *Snapshot
	now  time.Time
}

// tick reads one class: vals[i] are the raw values of instance insts[i], one per datum.
func (s *sampler) tick(t testing.TB, dt time.Duration, reset byte, c *Class, insts []*Instance, vals [][]Raw) *ClassValues {
	t.Helper()
	s.now = s.now.Add(dt)
	cs := ClassSample{Class: c, Time: s.now, Start: s.now, End: s.now, Insts: insts}
	cs.Reset[0] = reset
	for _, row := range vals {
		if len(row) != len(c.Datums) {
			t.Fatalf("row has %d values, class %d datums", len(row), len(c.Datums))
		}
		cs.Raw = append(cs.Raw, row...)
	}
	s.snap = Next(s.snap, &Sample{Start: s.now, End: s.now, Classes: []ClassSample{cs}}, nil)
	return s.snap.Class(c)
}

func n(v uint64) Raw { return Raw{N: v} }

func netif(t testing.TB) (*sampler, *Class, []*Instance) {
	r := testRegistry(t, 0)
	c := r.Class(ClassID{3, 2})
	insts, _, err := r.Sync(c, []InstanceSpec{{Levels: []uint64{2}, OSName: "eth0"}}, t0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &sampler{r: r, now: t0}, c, insts
}

func TestCounterRates(t *testing.T) {
	type step struct {
		dt     time.Duration
		reset  byte
		ibytes uint64 // UINT8 counter
		obytes uint64 // UINT4 counter
		wantI  string
		wantO  string
	}
	show := func(v Value) string {
		switch v.State {
		case Valid:
			return fmt.Sprintf("%g/s", v.V)
		case NoRate:
			return "— " + v.Reason.String()
		}
		return v.State.String()
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"SPMI-SET-7 rate over real elapsed time", []step{
			{0, 0, 1000, 0, "— no previous sample", "— no previous sample"},
			{3 * time.Second, 0, 1600, 0, "200/s", "0/s"},
		}},
		{"X-3 32-bit wrap is one wrap", []step{
			{0, 0, 0, 4294967000, "— no previous sample", "— no previous sample"},
			{time.Second, 0, 0, 200, "0/s", "496/s"},
		}},
		{"X-3 64-bit decrease is a discontinuity, then normal", []step{
			{0, 0, 5000, 0, "— no previous sample", "— no previous sample"},
			{time.Second, 0, 100, 0, "— counter went backwards", "0/s"},
			{time.Second, 0, 150, 0, "50/s", "0/s"},
		}},
		{"DCI4-SUP-8 reset change: 100/s, —, 30/s", []step{
			{0, 1, 1000, 0, "— no previous sample", "— no previous sample"},
			{time.Second, 1, 1100, 0, "100/s", "0/s"},
			{time.Second, 2, 50, 0, "— supplier re-initialised", "— supplier re-initialised"},
			{time.Second, 2, 80, 0, "30/s", "0/s"},
		}},
		{"X-4 jittered ticks use the real elapsed time", []step{
			{0, 0, 0, 0, "— no previous sample", "— no previous sample"},
			{time.Second, 0, 100, 0, "100/s", "0/s"},
			{1500 * time.Millisecond, 0, 250, 0, "100/s", "0/s"},
		}},
		{"PCPF-3 nanosecond timestamps: delta 3 over 1.5 s is 2/s", []step{
			{0, 0, 10, 0, "— no previous sample", "— no previous sample"},
			{1500 * time.Millisecond, 0, 13, 0, "2/s", "0/s"},
		}},
		{"X-3 issue 21: a rise of 2^63 or more is a discontinuity, never 18.4E/s", []step{
			{0, 0, 500, 0, "— no previous sample", "— no previous sample"},
			{time.Second, 0, 18446744073709551000, 0, "— counter jumped further than the hardware can", "0/s"},
			{time.Second, 0, 18446744073709551100, 0, "100/s", "0/s"},
		}},
		{"no time elapsed gives no rate", []step{
			{0, 0, 10, 0, "— no previous sample", "— no previous sample"},
			{0, 0, 20, 0, "— no time elapsed", "— no time elapsed"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, c, insts := netif(t)
			for i, st := range tt.steps {
				cv := s.tick(t, st.dt, st.reset, c, insts, [][]Raw{{n(st.ibytes), n(st.obytes)}})
				row := cv.Row(insts[0])
				if got := show(row[0]); got != st.wantI {
					t.Errorf("step %d ibytes: %s, want %s", i, got, st.wantI)
				}
				if got := show(row[1]); got != st.wantO {
					t.Errorf("step %d obytes: %s, want %s", i, got, st.wantO)
				}
				if row[0].State == Valid && row[0].V < 0 {
					t.Errorf("negative rate")
				}
			}
		})
	}
}

func TestImpossibleValues(t *testing.T) {
	// X-3, X-5 (issue 21): a counter bounded by its hardware (MaxRate) that rises further in the
	// interval is a discontinuity with an event count, not a rate; a reading that does not fit
	// the datum's type is invalid with the reason, never truncated.
	s, c, insts := netif(t)
	c.Datums[0].MaxRate = 1000 // ibytes: at most 1000/s
	show := func(v Value) string {
		if v.State == Valid {
			return fmt.Sprintf("%g/s", v.V)
		}
		return v.State.String() + ": " + v.Reason.String()
	}
	steps := []struct {
		dt             time.Duration
		ibytes, obytes uint64
		wantI, wantO   string
		jumps          int
	}{
		{0, 0, 0, "no rate: no previous sample", "no rate: no previous sample", 0},
		{time.Second, 1000, 10, "1000/s", "10/s", 0},
		{time.Second, 2100, 20, "1100/s", "10/s", 0},                                                // within tolerance of the bound
		{time.Second, 3800, 30, "no rate: counter jumped further than the hardware can", "10/s", 1}, // 1700 in 1 s
		{time.Second, 4300, 40, "500/s", "10/s", 0},                                                 // the new base
		{500 * time.Millisecond, 5100, 50, "no rate: counter jumped further than the hardware can", "20/s", 1},
		{time.Second, 5200, 1 << 32, "100/s", "invalid: value does not fit its type", 0},
		{time.Second, 5300, 70, "100/s", "no rate: no previous sample", 0},
	}
	for i, st := range steps {
		cv := s.tick(t, st.dt, 0, c, insts, [][]Raw{{n(st.ibytes), n(st.obytes)}})
		row := cv.Row(insts[0])
		if got := show(row[0]); got != st.wantI {
			t.Errorf("step %d ibytes: %s, want %s", i, got, st.wantI)
		}
		if got := show(row[1]); got != st.wantO {
			t.Errorf("step %d obytes: %s, want %s", i, got, st.wantO)
		}
		if cv.Jumps != st.jumps || len(cv.JumpRefs()) != st.jumps {
			t.Errorf("step %d: %d jumps (%d refs), want %d", i, cv.Jumps, len(cv.JumpRefs()), st.jumps)
		}
	}
}

func TestFits(t *testing.T) {
	// a 4-byte type holds 32 bits; UMA_INT4 may arrive sign-extended.
	tests := []struct {
		t    DataType
		n    uint64
		want bool
	}{
		{TypeUint4, math.MaxUint32, true},
		{TypeUint4, math.MaxUint32 + 1, false},
		{TypeUint4, math.MaxUint64, false},
		{TypeBoolean, 1 << 40, false},
		{TypeInt4, uint64(math.MaxUint32), true},
		{TypeInt4, uint64(1<<64 - 5), true}, // -5 sign-extended
		{TypeInt4, 1 << 40, false},
		{TypeUint8, math.MaxUint64, true},
		{TypeInt8, math.MaxUint64, true},
	}
	for _, tt := range tests {
		if got := Fits(tt.t, tt.n); got != tt.want {
			t.Errorf("Fits(%v, %#x) = %v, want %v", tt.t, tt.n, got, tt.want)
		}
	}
}

func TestCounterValChange(t *testing.T) {
	// SPMI-SET-6/7: val keeps the full 64-bit reading, val_change is the delta.
	s, c, insts := netif(t)
	s.tick(t, 0, 0, c, insts, [][]Raw{{n(5000000000), n(0)}})
	cv := s.tick(t, 2*time.Second, 0, c, insts, [][]Raw{{n(5000000600), n(0)}})
	v, _ := cv.Value(insts[0], 0)
	if v.N != 5000000600 || v.Change != 600 || v.V != 300 || cv.Elapsed != 2*time.Second {
		t.Fatalf("%+v elapsed %v", v, cv.Elapsed)
	}
}

func TestNewInstanceHasNoRate(t *testing.T) {
	// DCI-MTH-7, SPMI-SET-15: a new interface shows quantities at once and a rate only from its
	// second reading ("new instance"); an instance removed and re-added starts again.
	s, c, insts := netif(t)
	s.tick(t, 0, 0, c, insts, [][]Raw{{n(10), n(10)}})
	eth1, _, _ := s.r.AddInstance(c, InstanceSpec{Levels: []uint64{3}, OSName: "eth1"}, s.now)
	both := []*Instance{insts[0], eth1}
	cv := s.tick(t, time.Second, 0, c, both, [][]Raw{{n(20), n(20)}, {n(500), n(500)}})
	if v, _ := cv.Value(eth1, 0); v.State != NoRate || v.Reason != ReasonNewInstance {
		t.Fatalf("new instance: %+v", v)
	}
	if v, _ := cv.Value(insts[0], 0); v.State != Valid || v.V != 10 {
		t.Fatalf("old instance: %+v", v)
	}
	cv = s.tick(t, time.Second, 0, c, both, [][]Raw{{n(30), n(30)}, {n(600), n(600)}})
	if v, _ := cv.Value(eth1, 0); v.State != Valid || v.V != 100 {
		t.Fatalf("second reading: %+v", v)
	}
	// Remove eth1 and add a new instance in its slot: no rate across identities.
	if _, err := s.r.RemoveInstance(eth1, s.now); err != nil {
		t.Fatal(err)
	}
	eth2, _, _ := s.r.AddInstance(c, InstanceSpec{Levels: []uint64{4}, OSName: "eth2"}, s.now)
	if eth2.Slot() != eth1.Slot() {
		t.Fatalf("slot not reused: %d %d", eth2.Slot(), eth1.Slot())
	}
	cv = s.tick(t, time.Second, 0, c, []*Instance{insts[0], eth2}, [][]Raw{{n(40), n(40)}, {n(1000), n(1000)}})
	if v, _ := cv.Value(eth2, 0); v.State != NoRate {
		t.Fatalf("re-used slot gave a rate: %+v", v)
	}
	if v, ok := cv.Value(eth1, 0); ok || v.State != Unavailable || v.Reason != ReasonRemoved {
		t.Fatalf("removed instance still has a value: %+v", v)
	}
}

func cpuRow(user, kern, wait, idle uint64) []Raw {
	return []Raw{n(user), n(kern), n(wait), n(idle), {}, {}}
}

func TestDerivedOnDeltas(t *testing.T) {
	// DCI-DER-4: busy 100→150 and idle 900→950 → PERCENT 50.0%, not 13.6% from the totals.
	s := &sampler{r: testRegistry(t, 1), now: t0}
	c := s.r.Class(ClassID{1, 2})
	insts := s.r.Instances(c)
	s.tick(t, 0, 0, c, insts, [][]Raw{cpuRow(60, 40, 0, 900)})
	cv := s.tick(t, time.Second, 0, c, insts, [][]Raw{cpuRow(90, 60, 0, 950)})
	busy, _ := cv.Value(insts[0], 4)
	pct, _ := cv.Value(insts[0], 5)
	if busy.State != Valid || busy.Change != 50 || busy.V != 50 {
		t.Fatalf("busy (SUM2 of counters is a counter): %+v", busy)
	}
	if pct.State != Valid || pct.V != 0.5 {
		t.Fatalf("%%busy: %+v", pct)
	}
	// First reading: counter arguments have no delta, so derived values have no rate either.
	s2 := &sampler{r: testRegistry(t, 1), now: t0}
	c2 := s2.r.Class(ClassID{1, 2})
	cv = s2.tick(t, 0, 0, c2, s2.r.Instances(c2), [][]Raw{cpuRow(60, 40, 0, 900)})
	if v, _ := cv.Value(s2.r.Instances(c2)[0], 5); v.State != NoRate {
		t.Fatalf("first reading derived: %+v", v)
	}
}

func TestDerivedZeroDenominator(t *testing.T) {
	// DCI-DER-5: PERCENT with no change in either argument → unavailable, never NaN, Inf or 0.
	s := &sampler{r: testRegistry(t, 1), now: t0}
	c := s.r.Class(ClassID{1, 2})
	insts := s.r.Instances(c)
	s.tick(t, 0, 0, c, insts, [][]Raw{cpuRow(1, 1, 0, 1)})
	cv := s.tick(t, time.Second, 0, c, insts, [][]Raw{cpuRow(1, 1, 0, 1)})
	v, _ := cv.Value(insts[0], 5)
	if v.State != Unavailable || v.Reason != ReasonZeroDenominator || math.IsNaN(v.V) {
		t.Fatalf("%+v", v)
	}
}

func TestEvaluateFormulas(t *testing.T) {
	// DCI-DER-2 with a=30, b=10, c=5; VARIANCE with count 4, sum 10, sumsq 30 (AMB-16).
	tests := []struct {
		rel     Unit
		a, b, c float64
		want    float64
		ok      bool
	}{
		{DerivedSum2, 30, 10, 5, 40, true},
		{DerivedSum3, 30, 10, 5, 45, true},
		{DerivedDifference, 30, 10, 5, 20, true},
		{DerivedAverage, 30, 10, 5, 3, true},
		{DerivedPercent, 30, 10, 5, 0.75, true},
		{DerivedProduct, 30, 10, 5, 300, true},
		{DerivedVariance, 4, 10, 30, 1.25, true},
		{DerivedAverage, 30, 0, 0, 0, false},   // DCI-DER-5
		{DerivedPercent, 0, 0, 0, 0, false},    // DCI-DER-5
		{DerivedVariance, 0, 10, 30, 0, false}, // DCI-DER-5
		{DerivedProduct, math.MaxFloat64, 10, 0, 0, false},
		{UnitBytes, 1, 2, 3, 0, false},
	}
	for _, tt := range tests {
		got, ok := Evaluate(tt.rel, tt.a, tt.b, tt.c)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("%v(%g,%g,%g) = %g %v, want %g %v", tt.rel, tt.a, tt.b, tt.c, got, ok, tt.want, tt.ok)
		}
	}
}

// diskSampler has disk sda (all valid) and sr0 (read-only: the write datum invalid).
func diskSampler(t *testing.T) (*sampler, *Class, []*Instance) {
	r := testRegistry(t, 0)
	c := r.Class(ClassID{2, 2})
	insts, _, err := r.Sync(c, []InstanceSpec{{Levels: []uint64{1}, OSName: "sda"}, {Levels: []uint64{2}, OSName: "sr0"}}, t0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &sampler{r: r, now: t0}, c, insts
}

func diskRows(reads uint64, readOnly bool) [][]Raw {
	w := n(reads)
	if readOnly {
		w = Raw{State: RawInvalid}
	}
	return [][]Raw{{n(reads), n(reads), n(reads), n(3), {}}, {n(reads), w, n(reads), n(1), {}}}
}

func TestInvalidData(t *testing.T) {
	s, c, insts := diskSampler(t)
	s.tick(t, 0, 0, c, insts, diskRows(10, true))
	cv := s.tick(t, time.Second, 0, c, insts, diskRows(20, true))
	// DCI-INV-1: the read-only device's invalid list holds the write datum.
	if l := cv.InvalidList(insts[1]); len(l) != 1 || l[0] != 2 {
		t.Fatalf("invalid list %v", l)
	}
	if l := cv.InvalidList(insts[0]); len(l) != 0 {
		t.Fatalf("sda invalid list %v", l)
	}
	// DCI-INV-4: shown as invalid, never a number.
	if v, _ := cv.Value(insts[1], 1); v.State != Invalid || v.V != 0 && v.State == Valid {
		t.Fatalf("%+v", v)
	}
	// DCI-INV-3: an explicit request for it is DCI_INVALIDDATA.
	res := s.r.Fetch(s.snap, []MetricID{{Class: ClassID{2, 2}, Inst: Inst(2), Datum: 2}})
	if len(res.Sets) != 1 || res.Sets[0].Status != StatusInvalidData || res.Summary != StatusInvalidData {
		t.Fatalf("explicit: %+v", res)
	}
	// DCI-INV-2: a whole-class fetch reports DCI_INVALIDDATAPRESENT, with every valid value.
	res = s.r.Fetch(s.snap, []MetricID{{Class: ClassID{2, 2}, Inst: InstanceID{}, Datum: AllData}})
	if res.Summary != StatusInvalidDataPresent {
		t.Fatalf("wildcard summary %v", res.Summary)
	}
	// With every datum valid the summary is DCI_SUCCESS.
	s2, c2, insts2 := diskSampler(t)
	s2.tick(t, 0, 0, c2, insts2, diskRows(10, false))
	res = s2.r.Fetch(s2.snap, []MetricID{{Class: ClassID{2, 2}, Inst: InstanceID{}, Datum: AllData}})
	if res.Summary != StatusSuccess {
		t.Fatalf("all valid summary %v", res.Summary)
	}
}

func TestFetchOrderAndStatus(t *testing.T) {
	s, c, insts := diskSampler(t)
	s.tick(t, 0, 0, c, insts, diskRows(10, false))
	s.tick(t, time.Second, 0, c, insts, diskRows(30, false))
	reqs := []MetricID{
		{Class: ClassID{2, 2}, Inst: InstanceID{}, Datum: 4}, // a: inflight of every disk
		{Class: ClassID{7, 7}, Inst: InstanceID{}, Datum: 1}, // bogus class
		{Class: ClassID{2, 2}, Inst: Inst(1), Datum: 1},      // c: reads of sda
		{Class: ClassID{1, 2}, Inst: InstanceID{}, Datum: 6}, // derived requested alone
		{Class: ClassID{2, 2}, Inst: Inst(99), Datum: 1},     // no such instance
		{Class: ClassID{2, 2}, Inst: Inst(1), Datum: 0x42},   // no such datum
	}
	res := s.r.Fetch(s.snap, reqs)
	// PCPF-11, PCPF-2: one timestamp and one set per request, in request order; PCPF-4: a set
	// carries (instance, value) pairs of the metric's instance domain; DCI-TYPE-5: the derived
	// datum requested alone is refused (DCI_INVALIDARG); DCI-RET-5: the class list a query
	// expands to feeds the instance listing within the same call.
	if len(res.Sets) != 6 {
		t.Fatalf("%d sets", len(res.Sets))
	}
	for i, set := range res.Sets {
		if set.Request != i {
			t.Fatalf("set %d answers request %d", i, set.Request)
		}
	}
	want := []Status{StatusSuccess, StatusUnknownClass, StatusSuccess, StatusInvalidArg, StatusNoInstances, StatusUnknownDatum}
	for i, w := range want {
		if res.Sets[i].Status != w {
			t.Errorf("set %d: %v (%v), want %v", i, res.Sets[i].Status, res.Sets[i].Err, w)
		}
	}
	if len(res.Sets[0].Values) != 2 || res.Sets[0].Values[0].Inst.Name != "sda" || res.Sets[0].Values[0].Value.V != 3 {
		t.Fatalf("a: %+v", res.Sets[0].Values)
	}
	if v := res.Sets[2].Values[0].Value; v.V != 20 || v.Change != 20 {
		t.Fatalf("c: %+v", v)
	}
	var e *Error
	if !errors.As(res.Sets[1].Err, &e) || e.Si != SiInvalidCx {
		t.Fatalf("bogus: %v", res.Sets[1].Err)
	}
	// DCI-RET-1: the summary is an error although a and c succeeded.
	if res.Summary == StatusSuccess {
		t.Fatal("summary success")
	}
	if !res.Time.Equal(s.now) {
		t.Fatal("timestamp")
	}
}

func TestProviderErrorAndSkipped(t *testing.T) {
	// PCPF-7/9, SPMI-SET-8: a failing reading makes every value unavailable with the reason;
	// DCI4-DESC-3: a datum not read this time (RawSkipped) keeps its previous value.
	s, c, insts := netif(t)
	s.tick(t, 0, 0, c, insts, [][]Raw{{n(100), n(7)}})
	cv := s.tick(t, time.Second, 0, c, insts, [][]Raw{{n(200), {State: RawSkipped}}})
	if v, _ := cv.Value(insts[0], 1); v.N != 7 {
		t.Fatalf("skipped: %+v", v)
	}
	s.now = s.now.Add(time.Second)
	next := Next(s.snap, &Sample{Classes: []ClassSample{{Class: c, Time: s.now, Insts: insts, Err: errors.New("boom")}}}, nil)
	v, _ := next.Class(c).Value(insts[0], 0)
	if v.State != Unavailable || v.Reason != ReasonProviderError || v.Reason.SiErr() != SiOtherErr {
		t.Fatalf("error: %+v", v)
	}
	if v.V != 0 && v.State == Valid {
		t.Fatal("error shown as a number")
	}
	// Unavailable with a reason (PCPF-10).
	cv = s.tick(t, time.Second, 0, c, insts, [][]Raw{{{State: RawUnavailable, Reason: ReasonNotPresent}, n(9)}})
	if v, _ := cv.Value(insts[0], 0); v.State != Unavailable || v.Reason != ReasonNotPresent {
		t.Fatalf("%+v", v)
	}
}

func TestCarryAndRecycle(t *testing.T) {
	// Classes not read keep their values; recycled buffers never corrupt a live snapshot.
	r := testRegistry(t, 2)
	cpu := r.Class(ClassID{1, 2})
	nic := r.Class(ClassID{3, 2})
	nics, _, _ := r.Sync(nic, []InstanceSpec{{Levels: []uint64{1}, OSName: "lo"}}, t0, nil)
	cpus := r.Instances(cpu)
	now := t0
	mk := func(withCPU bool, v uint64) *Sample {
		now = now.Add(time.Second)
		s := &Sample{Classes: []ClassSample{{Class: nic, Time: now, Insts: nics, Raw: []Raw{n(v), n(v)}}}}
		if withCPU {
			s.Classes = append(s.Classes, ClassSample{Class: cpu, Time: now, Insts: cpus,
				Raw: append(cpuRow(v, v, v, v), cpuRow(v, v, v, v)...)})
		}
		return s
	}
	s1 := Next(nil, mk(true, 1), nil)
	s2 := Next(s1, mk(false, 2), nil)
	s3 := Next(s2, mk(false, 3), s1) // recycles s1 while s2 still shares s1's cpu values
	if v, _ := s3.Class(cpu).Value(cpus[1], 0); v.N != 1 {
		t.Fatalf("carried cpu value %+v", v)
	}
	if v, _ := s2.Class(cpu).Value(cpus[1], 0); v.N != 1 {
		t.Fatalf("s2 corrupted %+v", v)
	}
	s4 := Next(s3, mk(true, 4), s2)
	if v, _ := s4.Class(cpu).Value(cpus[1], 0); v.N != 4 || v.V != 1 {
		t.Fatalf("s4 %+v", v)
	}
	if v, _ := s3.Class(cpu).Value(cpus[1], 0); v.N != 1 {
		t.Fatalf("s3 corrupted by recycling %+v", v)
	}
	if s4.Seq != 3 {
		t.Fatalf("seq %d", s4.Seq)
	}
}

func TestSnapshotLookup(t *testing.T) {
	s := &sampler{r: testRegistry(t, 1), now: t0}
	c := s.r.Class(ClassID{1, 2})
	s.tick(t, 0, 0, c, s.r.Instances(c), [][]Raw{cpuRow(1, 2, 3, 4)})
	ref, _ := s.r.Lookup(nil, "CPU/cpu0/idle")
	v, cv, ok := s.snap.Lookup(ref)
	if !ok || cv == nil || v.N != 4 || v.State != NoRate {
		t.Fatalf("%+v %v", v, ok)
	}
	tot, _ := s.r.Lookup(nil, "CPU/idle")
	if v, _, _ := s.snap.Lookup(tot); v.State != Unavailable || v.Reason != ReasonNotSampled {
		t.Fatalf("unsampled totals: %+v", v)
	}
	// Issue 21: a removed instance is n/a "instance removed", never a valid 0.
	if _, _, err := s.r.Sync(c, nil, t0, s.r.Instances(c)); err != nil {
		t.Fatal(err)
	}
	s.tick(t, time.Second, 0, c, nil, nil)
	if v, _, ok := s.snap.Lookup(ref); ok || v.State != Unavailable || v.Reason != ReasonRemoved {
		t.Fatalf("removed instance: %+v %v", v, ok)
	}
}

func TestPMUnits(t *testing.T) {
	// PCPD-7: round trip; out-of-range rejected.
	for _, u := range []PMUnits{{1, -1, 0, 2, 3, 0}, {0, 1, -1, 0, 5, 6}, {-8, 7, -1, 4, 0, -8}} {
		v, err := u.Pack()
		if err != nil || UnpackPMUnits(v) != u {
			t.Errorf("%+v → %#x → %+v (%v)", u, v, UnpackPMUnits(v), err)
		}
	}
	if _, err := (PMUnits{DimSpace: 8}).Pack(); err == nil {
		t.Error("dim 8 accepted")
	}
	// PCPD-11: worked examples and ignored scales of zero dimensions.
	for _, tt := range []struct {
		u    PMUnits
		want string
	}{
		{PMUnits{1, -1, 0, PMSpaceMByte, PMTimeSec, 0}, "Mbyte/sec"},
		{PMUnits{0, 1, -1, 0, PMTimeHour, 6}, "hour/(10^6 count)"},
		{PMUnits{0, 1, 0, 3, PMTimeMSec, 0}, "millisec"},
		{PMUnits{}, "none"},
		{PMUnits{0, 0, 1, 0, 0, 0}, "count"},
	} {
		if got := tt.u.String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.u, got, tt.want)
		}
	}
	if d := (PMUnits{DimSpace: 1, DimTime: -1}).Dimension(); d != "Space·Time^-1" {
		t.Error(d)
	}
}

func TestConvScale(t *testing.T) {
	sp := func(s int8) PMUnits { return PMUnits{DimSpace: 1, ScaleSpace: s} }
	tm := func(s int8) PMUnits { return PMUnits{DimTime: 1, ScaleTime: s} }
	ct := func(s int8) PMUnits { return PMUnits{DimCount: 1, ScaleCount: s} }
	tests := []struct {
		name     string
		v        float64
		from, to PMUnits
		want     float64
	}{
		{"PCPD-8 GBYTE 2 → bytes", 2, sp(PMSpaceGByte), sp(PMSpaceByte), 2147483648},
		{"PCPD-12 2048 KBYTE → 2 MBYTE", 2048, sp(PMSpaceKByte), sp(PMSpaceMByte), 2},
		{"PCPD-9 2 MIN → 120 s", 2, tm(PMTimeMin), tm(PMTimeSec), 120},
		{"PCPD-9 1500 USEC → 1.5 ms", 1500, tm(PMTimeUSec), tm(PMTimeMSec), 1.5},
		{"PCPD-12 90 SEC → 1.5 MIN", 90, tm(PMTimeSec), tm(PMTimeMin), 1.5},
		{"PCPD-12 1 HOUR → ns", 1, tm(PMTimeHour), tm(PMTimeNSec), 3600000000000},
		{"PCPD-10 3 ×10^6 → 3000000", 3, ct(6), ct(0), 3000000},
		{"PCPD-10 5000 ×10^-3 → 5", 5000, ct(-3), ct(0), 5},
		{"PCPD-12 5 ×10^3 → 5000", 5, ct(3), ct(0), 5000},
		{"rates: KB/s → B/s", 2, PMUnits{DimSpace: 1, DimTime: -1, ScaleSpace: 1, ScaleTime: 3}, PMUnits{DimSpace: 1, DimTime: -1, ScaleTime: 3}, 2048},
	}
	for _, tt := range tests {
		got, err := ConvScale(tt.v, tt.from, tt.to)
		if err != nil || math.Abs(got-tt.want) > 1e-9*math.Abs(tt.want) {
			t.Errorf("%s: %g, %v", tt.name, got, err)
		}
	}
	if _, err := ConvScale(1, sp(0), tm(0)); !errors.Is(err, ErrDimension) { // PCPD-12
		t.Errorf("different dimensions: %v", err)
	}
}

func TestUnitsBridge(t *testing.T) {
	// size and time units map to dimension and scale; picoseconds to nanoseconds; counts to
	// dimCount 1; no units to nothing; a counter's rate adds Time^-1.
	for _, tt := range []struct {
		u    Unit
		want PMUnits
	}{
		{UnitKBytes, PMUnits{DimSpace: 1, ScaleSpace: PMSpaceKByte}},
		{UnitMillisecs, PMUnits{DimTime: 1, ScaleTime: PMTimeMSec}},
		{UnitPicosecs, PMUnits{DimTime: 1, ScaleTime: PMTimeNSec}},
		{UnitReads, PMUnits{DimCount: 1}},
		{UnitPackets, PMUnits{DimCount: 1}},
		{UnitNone, PMUnits{}},
	} {
		if got := PCPUnitsFor(tt.u); got != tt.want {
			t.Errorf("%v: %+v, want %+v", tt.u, got, tt.want)
		}
	}
	if got := PCPUnitsFor(UnitKBytes).Rate(); got != (PMUnits{1, -1, 0, PMSpaceKByte, PMTimeSec, 0}) {
		t.Errorf("KBYTES rate: %+v", got)
	}
}

func TestEventLog(t *testing.T) {
	l := NewEventLog(3)
	for i := 0; i < 5; i++ {
		l.Add(Event{Text: fmt.Sprint(i)})
	}
	evs := l.Events()
	if len(evs) != 3 || evs[0].Text != "4" || evs[2].Text != "2" || l.Seq() != 5 {
		t.Fatalf("%v", evs)
	}
}

func TestSupplierRecord(t *testing.T) {
	// DCI4-SUP-3, DCI4-SUP-4, DCI4-SUP-6, AMB-12.
	s := Supplier{IVersion: 101, Features: 1, Type: 9, Reset: [8]byte{0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3}}
	if VersionText(s.IVersion) != "1.01" || s.ResetHex() != "deadbeef00010203" || s.Type.String() != "9 (unknown)" {
		t.Fatal(VersionText(s.IVersion), s.ResetHex(), s.Type)
	}
	if len(s.Conformance()) != 2 {
		t.Fatal(s.Conformance())
	}
}

func TestPartialReading(t *testing.T) {
	// A provider error that still carries values (one bad line among good ones) keeps the good
	// rows; a timed-out or dead reading is never used.
	s, c, insts := diskSampler(t)
	s.now = s.now.Add(time.Second)
	rows := diskRows(10, false)
	raw := append(append([]Raw{}, rows[0]...), rows[1]...)
	snap := Next(nil, &Sample{Classes: []ClassSample{{Class: c, Time: s.now, Insts: insts[:1], Raw: raw[:len(c.Datums)],
		Err: errors.New("line 3: garbage"), ErrReason: ReasonProviderError}}}, nil)
	if v, _ := snap.Class(c).Value(insts[0], 3); v.State != Valid || v.N != 3 {
		t.Fatalf("good row of a partial reading: %+v", v)
	}
	snap = Next(nil, &Sample{Classes: []ClassSample{{Class: c, Time: s.now, Insts: insts[:1], Raw: raw[:len(c.Datums)],
		Err: errors.New("late"), ErrReason: ReasonTimeout}}}, nil)
	if v, _ := snap.Class(c).Value(insts[0], 3); v.State != Unavailable || v.Reason != ReasonTimeout {
		t.Fatalf("timed-out reading used: %+v", v)
	}
}

func TestParallelBuildMatchesSerial(t *testing.T) {
	// Large classes are built on several goroutines; the result must not depend on it.
	_, c, insts := benchClass(t, 5000) // 5000 × 20 > parallelValues
	nd := len(c.Datums)
	raw := make([]Raw, len(insts)*nd)
	for i := range raw {
		raw[i].N = uint64(i * 7 % 1013)
	}
	a := Next(nil, &Sample{Classes: []ClassSample{{Class: c, Time: t0, Insts: insts, Raw: raw}}}, nil)
	raw2 := make([]Raw, len(raw))
	for i := range raw2 {
		raw2[i].N = raw[i].N + uint64(i%5)
	}
	b := Next(a, &Sample{Classes: []ClassSample{{Class: c, Time: t0.Add(time.Second), Insts: insts, Raw: raw2}}}, nil)
	cv := b.Class(c)
	for k, in := range insts {
		row := cv.Row(in)
		if row[0].N != raw2[k*nd].N || (row[0].State == Valid && row[0].Change != float64(k*nd%5)) {
			t.Fatalf("instance %d: %+v", k, row[0])
		}
	}
}

func TestStateChangeFlags(t *testing.T) {
	// PCPF-13: an interface added → NAMES_CHANGE in that fetch, values still there; a supplier
	// restart → AGENT_CHANGE; nothing changed → 0.
	s, c, insts := netif(t)
	s.tick(t, 0, 1, c, insts, [][]Raw{{n(1), n(1)}})
	s.tick(t, time.Second, 1, c, insts, [][]Raw{{n(2), n(2)}})
	if s.snap.Changes != 0 {
		t.Fatalf("steady: %#x", s.snap.Changes)
	}
	eth1, _, _ := s.r.AddInstance(c, InstanceSpec{Levels: []uint64{3}, OSName: "eth1"}, s.now)
	s.tick(t, time.Second, 1, c, []*Instance{insts[0], eth1}, [][]Raw{{n(3), n(3)}, {n(9), n(9)}})
	res := s.r.Fetch(s.snap, []MetricID{{Class: ClassID{3, 2}, Inst: InstanceID{}, Datum: 1}})
	if res.Changes&PMCDNamesChange == 0 || len(res.Sets[0].Values) != 2 {
		t.Fatalf("names change: %#x %+v", res.Changes, res.Sets)
	}
	s.tick(t, time.Second, 2, c, []*Instance{insts[0], eth1}, [][]Raw{{n(4), n(4)}, {n(10), n(10)}})
	if s.snap.Changes&PMCDAgentChange == 0 || s.snap.Changes&PMCDNamesChange != 0 {
		t.Fatalf("agent change: %#x", s.snap.Changes)
	}
}

// Issue 39 item 1: values read with times of their own (an archive whose metrics pmlogger logs in
// groups of different intervals) have rates over their own previous value's time, and a datum
// not logged since its previous reading keeps that reading's value, never a rate of 0 over
// another metric's interval.
func TestOwnTimesRates(t *testing.T) {
	s, c, insts := netif(t)
	tick := func(at time.Time, ti, to time.Time, ib, ob uint64) []Value {
		cs := ClassSample{Class: c, Time: at, Start: at, End: at, Insts: insts,
			Raw: append([]Raw{n(ib), n(ob)}, make([]Raw, len(c.Datums)-2)...)}
		cs.Times = make([]time.Time, len(c.Datums))
		cs.Times[0], cs.Times[1] = ti, to
		s.snap = Next(s.snap, &Sample{Start: at, End: at, Classes: []ClassSample{cs}}, nil)
		return s.snap.Class(c).Row(insts[0])
	}
	sec := func(k float64) time.Time { return t0.Add(time.Duration(k * float64(time.Second))) }
	tick(sec(0), sec(0), sec(0), 1000, 50)
	// ibytes every second, obytes every three: at 1 s obytes was not logged.
	row := tick(sec(1), sec(1), sec(0), 1600, 50)
	if row[0].State != Valid || row[0].V != 600 {
		t.Errorf("ibytes at 1 s = %+v, want 600/s", row[0])
	}
	if row[1].State != NoRate || row[1].Reason != ReasonFirstSample {
		t.Errorf("obytes at 1 s, not logged since its first value = %+v, want its first reading's no rate", row[1])
	}
	row = tick(sec(2), sec(2), sec(0), 1800, 50)
	if row[0].V != 200 {
		t.Errorf("ibytes at 2 s = %+v, want 200/s", row[0])
	}
	// obytes logged again, 3 s after its previous value: its rate is over 3 s, not over the 1 s
	// since the class's previous reading.
	row = tick(sec(3.001), sec(3), sec(3.001), 1900, 350)
	if row[1].State != Valid || math.Abs(row[1].V-300/3.001) > 1e-9 {
		t.Errorf("obytes at 3 s = %+v, want %v/s", row[1], 300/3.001)
	}
	if row[0].V != 100 {
		t.Errorf("ibytes at 3 s = %+v, want 100/s", row[0])
	}
	// At the next, ibytes logged and obytes not: obytes keeps its rate.
	row = tick(sec(4), sec(4), sec(3.001), 2000, 350)
	if row[1].State != Valid || math.Abs(row[1].V-300/3.001) > 1e-9 || row[0].V != 100 {
		t.Errorf("at 4 s = %+v %+v, want ibytes 100/s and obytes as at 3 s", row[0], row[1])
	}
}
