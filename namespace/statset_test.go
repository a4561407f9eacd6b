package namespace

import (
	"math"
	"strings"
	"testing"
	"time"
)

// ssSetup is a registry with two CPUs and disk sda, a fake provider and a source fed by it.
func ssSetup(t *testing.T) (*Registry, *hsFeed, *Reading) {
	t.Helper()
	r := hsRegistry(t, 2)
	f := newHSFeed(t, r)
	f.add(ClassID{2, 2}, "sda", 1)
	return r, f, NewReading(f.take)
}

func ssAdd(t *testing.T, s *StatSet, parent *Context, path string) *StatVal {
	t.Helper()
	v, err := s.Add(parent, path)
	if err != nil {
		t.Fatalf("add %s: %v", path, err)
	}
	return v
}

func ssPaths(s *StatSet) []string {
	var out []string
	for v := s.First(); v != nil; v = s.Next(v) {
		out = append(out, v.Path())
	}
	return out
}

func ssValue(t *testing.T, s *StatSet, v *StatVal) float64 {
	t.Helper()
	x, err := s.Value(v)
	if err != nil {
		t.Fatalf("%s: %v", v.Path(), err)
	}
	return x
}

// SPMI-SET-1: create, add, delete single statistics, clear, free.
func TestStatSetLifecycle(t *testing.T) {
	r, _, src := ssSetup(t)
	s := NewStatSet(r, src) // the anchor exists before anything is added, by construction
	a := ssAdd(t, s, nil, "CPU/cpu0/user")
	ssAdd(t, s, nil, "CPU/cpu0/kern")
	ssAdd(t, s, nil, "CPU/cpu0/idle")
	if err := s.Del(a); err != nil {
		t.Fatal(err)
	}
	if got := ssPaths(s); strings.Join(got, ",") != "CPU/cpu0/idle,CPU/cpu0/kern" {
		t.Fatalf("SPMI-SET-1: after one delete = %v", got)
	}
	if err := s.Del(a); hsSi(err) != SiNotFound {
		t.Fatalf("SPMI-SET-1: deleting a deleted statistic = %v, want SiNotFound", err)
	}
	s.Clear()
	if s.Len() != 0 || s.First() != nil {
		t.Fatal("SPMI-SET-1: clear left rows")
	}
	ssAdd(t, s, nil, "CPU/cpu0/idle")
	s.Free()
	if s.Len() != 0 {
		t.Fatal("SPMI-SET-1: free must delete the values first")
	}
	if _, err := s.Add(nil, "CPU/cpu0/idle"); hsSi(err) != SiBadArgument {
		t.Fatalf("SPMI-SET-1: add to a freed set = %v, want SiBadArgument", err)
	}
	if err := s.Read(true); hsSi(err) != SiBadArgument {
		t.Fatalf("SPMI-SET-1: read of a freed set = %v, want SiBadArgument", err)
	}
}

// SPMI-SET-1 with SPMI-HIER-8 and AMB-44: full paths, paths relative to a parent, refusals.
func TestStatSetAddPaths(t *testing.T) {
	r, _, src := ssSetup(t)
	cpu0, err := r.Lookup(nil, "CPU/cpu0")
	if err != nil {
		t.Fatal(err)
	}
	s := NewStatSet(r, src)
	full := ssAdd(t, s, nil, "CPU/cpu0/idle")
	rel := ssAdd(t, s, cpu0.Ctx, "idle")
	if full != rel || full.RefCount() != 2 {
		t.Fatalf("SPMI-HIER-8: relative and full paths must name the same row (ref %d)", full.RefCount())
	}
	if full.Path() != "CPU/cpu0/idle" || full.Ref().Ctx != cpu0.Ctx || full.Ref().Datum.Name != "idle" {
		t.Fatalf("SPMI-SET-4: record = %q %v", full.Path(), full.Ref())
	}
	for _, tc := range []struct {
		path string
		want SiErr
	}{
		{"Nope/idle", SiInvalidCx},
		{"CPU/cpu9/idle", SiInvalidCx},
		{"CPU/cpu0/nosuch", SiNotFound},
		{"CPU/cpu0", SiNotFound},          // a context, not a statistic
		{"Disk/sda/model", SiBadArgument}, // text: not SiLong or SiFloat (SPMI-VAL-2)
	} {
		if _, err := s.Add(nil, tc.path); hsSi(err) != tc.want {
			t.Errorf("AMB-44: add %s = %v, want %s", tc.path, err, tc.want)
		}
	}
}

// SPMI-SET-2, SPMI-SET-3: one read stamps every value with the same time; the header carries the
// time of the read and the time since the previous one (fake clock, 2 s steps).
func TestStatSetHeader(t *testing.T) {
	r, f, src := ssSetup(t)
	for _, p := range []string{"CPU", "CPU/cpu0", "CPU/cpu1"} {
		f.set(p, "user", 100)
		f.set(p, "kern", 100)
		f.set(p, "idle", 100)
	}
	f.set("Disk/sda", "inflight", 3)
	s := NewStatSet(r, src)
	for _, p := range []string{"CPU/user", "CPU/cpu0/idle", "CPU/cpu1/%busy", "Disk/sda/inflight"} {
		ssAdd(t, s, nil, p)
	}
	if err := s.Read(true); err != nil {
		t.Fatal(err)
	}
	if !s.Time().Equal(hsT0) || s.TimeChange() != 0 {
		t.Fatalf("SPMI-SET-3: first read time %v Δ %v", s.Time(), s.TimeChange())
	}
	for i := 1; i <= 3; i++ {
		f.now = f.now.Add(2 * time.Second)
		if err := s.Read(true); err != nil {
			t.Fatal(err)
		}
		want := hsT0.Add(time.Duration(2*i) * time.Second)
		if !s.Time().Equal(want) || s.TimeChange() != 2*time.Second {
			t.Fatalf("SPMI-SET-3: read %d time %v Δ %v, want %v Δ 2s", i, s.Time(), s.TimeChange(), want)
		}
		for v := s.First(); v != nil; v = s.Next(v) {
			if !v.Time.Equal(s.Time()) {
				t.Errorf("SPMI-SET-2: %s read at %v, the set at %v", v.Path(), v.Time, s.Time())
			}
		}
	}
}

// SPMI-SET-4, SPMI-SET-5 (AMB-42): the record, and ref_count instead of duplicate rows.
func TestStatSetRefCount(t *testing.T) {
	r, f, src := ssSetup(t)
	f.set("CPU/cpu0", "idle", 1000)
	s := NewStatSet(r, src)
	a := ssAdd(t, s, nil, "CPU/cpu0/idle")
	b := ssAdd(t, s, nil, "CPU/cpu0/idle")
	if a != b || s.Len() != 1 || a.RefCount() != 2 {
		t.Fatalf("SPMI-SET-5: two adds = %d rows, ref %d", s.Len(), a.RefCount())
	}
	if err := s.Read(true); err != nil {
		t.Fatal(err)
	}
	f.set("CPU/cpu0", "idle", 1600)
	f.now = f.now.Add(3 * time.Second)
	if err := s.Read(true); err != nil {
		t.Fatal(err)
	}
	// SPMI-SET-4: statistic path, context, ref_count, val, val_change, error.
	if a.Path() != "CPU/cpu0/idle" || a.Ref().Ctx.Path() != "CPU/cpu0" || a.RefCount() != 2 ||
		a.Val.N != 1600 || a.Val.Change != 600 || a.Err != SiSuccess {
		t.Fatalf("SPMI-SET-4: record = %s %s ref %d val %d change %v err %v", a.Path(), a.Ref().Ctx.Path(), a.RefCount(), a.Val.N, a.Val.Change, a.Err)
	}
	if err := s.Del(a); err != nil || s.Len() != 1 || a.RefCount() != 1 {
		t.Fatalf("SPMI-SET-5: first delete: err %v, %d rows, ref %d", err, s.Len(), a.RefCount())
	}
	if err := s.Del(a); err != nil || s.Len() != 0 {
		t.Fatalf("SPMI-SET-5: second delete: err %v, %d rows", err, s.Len())
	}
}

// SPMI-SET-6, SPMI-SET-7, SPMI-SET-9: val as the supplier keeps it, val_change, decoding.
func TestStatSetValues(t *testing.T) {
	r, f, src := ssSetup(t)
	f.add(ClassID{3, 2}, "eth0", 0)
	f.set("NetIf/eth0", "ibytes", 5000000000)
	f.set("CPU/cpu0", "idle", 1000)
	f.set("Disk/sda", "inflight", 7)
	s := NewStatSet(r, src)
	big := ssAdd(t, s, nil, "NetIf/eth0/ibytes")
	idle := ssAdd(t, s, nil, "CPU/cpu0/idle")
	level := ssAdd(t, s, nil, "Disk/sda/inflight")
	if err := s.Read(true); err != nil {
		t.Fatal(err)
	}
	if big.Val.N != 5000000000 {
		t.Fatalf("SPMI-SET-6: val = %d, want 5000000000 (no 32-bit truncation)", big.Val.N)
	}
	f.set("CPU/cpu0", "idle", 1600)
	f.set("Disk/sda", "inflight", 9)
	f.now = f.now.Add(3 * time.Second)
	if err := s.Read(true); err != nil {
		t.Fatal(err)
	}
	if idle.Val.Change != 600 || ssValue(t, s, idle) != 200 {
		t.Fatalf("SPMI-SET-7: val_change %v rate %v, want 600 and 200/s", idle.Val.Change, idle.Val.V)
	}
	if got := ssValue(t, s, level); got != 9 || level.Val.N != 9 {
		t.Fatalf("SPMI-SET-9: a quantity decodes to val: %v (val %d)", got, level.Val.N)
	}
	other := NewStatSet(r, src)
	if _, err := other.Value(idle); hsSi(err) != SiNotFound {
		t.Fatalf("SPMI-SET-9: decoding a value of another set = %v, want SiNotFound", err)
	}
}

// SPMI-SET-8, X-5: the per-value error, in that row only; invalid, unavailable, failing and zero
// values stay four different states.
func TestStatSetPerValueError(t *testing.T) {
	r, f, src := ssSetup(t)
	f.add(ClassID{3, 2}, "eth0", 0)
	f.add(ClassID{2, 2}, "sdb", 2)
	f.set("NetIf/eth0", "ibytes", 1)
	f.set("Disk/sda", "inflight", 0)
	f.invalid["Disk/sdb/inflight"] = true
	s := NewStatSet(r, src)
	net := ssAdd(t, s, nil, "NetIf/eth0/ibytes")
	zero := ssAdd(t, s, nil, "Disk/sda/inflight")
	inv := ssAdd(t, s, nil, "Disk/sdb/inflight")
	unav := ssAdd(t, s, nil, "Disk/sdb/temp")
	f.fail["3.2"] = ReasonAssumedDead
	if err := s.Read(true); err != nil {
		t.Fatal(err)
	}
	if net.Err != SiAssumedDead {
		t.Fatalf("SPMI-SET-8: failing provider's row = %v, want SiAssumedDead (183)", net.Err)
	}
	if _, err := s.Value(net); hsSi(err) != SiAssumedDead {
		t.Fatalf("SPMI-SET-8: decoding the failing row = %v", err)
	}
	if zero.Err != SiSuccess || zero.Val.State != Valid || zero.Val.V != 0 {
		t.Fatalf("SPMI-SET-8: other rows unaffected: %v %v", zero.Err, zero.Val.State)
	}
	if inv.Val.State != Invalid || unav.Val.State != Unavailable || net.Val.State != Unavailable ||
		inv.Err == SiSuccess || unav.Err == SiSuccess || net.Val.Reason == unav.Val.Reason {
		t.Fatalf("X-5: invalid %v/%v, unavailable %v/%v (%v), error %v/%v (%v)", inv.Val.State, inv.Err,
			unav.Val.State, unav.Err, unav.Val.Reason, net.Val.State, net.Err, net.Val.Reason)
	}
}

// SPMI-SET-10 (AMB-50): a negative level is a value; a failure is an error, never a sentinel.
func TestStatSetNoSentinel(t *testing.T) {
	r, f, src := ssSetup(t)
	neg := int64(-5)
	f.set("Disk/sda", "temp", uint64(neg))
	s := NewStatSet(r, src)
	temp := ssAdd(t, s, nil, "Disk/sda/temp")
	missing := ssAdd(t, s, nil, "Disk/sda/inflight")
	if err := s.Read(true); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Value(temp); got != -5 || err != nil {
		t.Fatalf("SPMI-SET-10: quantity -5 decodes as %v, %v", got, err)
	}
	got, err := s.Value(missing)
	if err == nil || got != 0 || hsSi(err) != SiNoValue {
		t.Fatalf("SPMI-SET-10: failing decode = %v, %v; want 0 and an SiNoValue error", got, err)
	}
}

// SPMI-SET-11: values are visited in reverse order of addition.
func TestStatSetReverseOrder(t *testing.T) {
	r, _, src := ssSetup(t)
	s := NewStatSet(r, src)
	for _, p := range []string{"CPU/cpu0/user", "CPU/cpu0/kern", "CPU/cpu0/idle"} {
		ssAdd(t, s, nil, p)
	}
	if got := strings.Join(ssPaths(s), ","); got != "CPU/cpu0/idle,CPU/cpu0/kern,CPU/cpu0/user" {
		t.Fatalf("SPMI-SET-11: order = %s", got)
	}
}

// SPMI-SET-12: no value before the set's first read, nor for a statistic added since.
func TestStatSetValuesAfterRead(t *testing.T) {
	r, f, src := ssSetup(t)
	f.set("Disk/sda", "inflight", 4)
	f.set("Disk/sda", "reads", 10)
	s := NewStatSet(r, src)
	v := ssAdd(t, s, nil, "Disk/sda/inflight")
	// SPMI-ERR-4: decoding a statistic before any read is SiNoValue (189).
	if _, err := s.Value(v); hsSi(err) != SiNoValue || v.WasRead() || v.Err != SiNoValue {
		t.Fatalf("SPMI-SET-12: before the first read = %v (err %v)", v.Err, err)
	}
	if err := s.Read(false); hsSi(err) != SiNoValue {
		t.Fatalf("SPMI-SET-12: reading a source with no reading = %v, want SiNoValue", err)
	}
	if err := s.Read(true); err != nil {
		t.Fatal(err)
	}
	if got := ssValue(t, s, v); got != 4 {
		t.Fatalf("SPMI-SET-12: after the read = %v", got)
	}
	w := ssAdd(t, s, nil, "Disk/sda/writes")
	if _, err := s.Value(w); hsSi(err) != SiNoValue {
		t.Fatalf("SPMI-SET-12: a statistic added after the read = %v, want SiNoValue", err)
	}
}

// SPMI-SET-13, SPMI-HOT-20, X-4: one provider read per tick whatever the number of sets, the
// first read forcing and the others reusing it; no force ever = frozen numbers.
func TestStatSetForce(t *testing.T) {
	r, f, src := ssSetup(t)
	f.add(ClassID{2, 2}, "sdb", 2)
	a := NewStatSet(r, src)
	b := NewStatSet(r, src)
	h := NewHotSet(r, src, nil)
	va := ssAdd(t, a, nil, "Disk/sda/reads")
	vb := ssAdd(t, b, nil, "Disk/sda/reads")
	pv, err := h.Add(HotSpec{Stat: "reads", Grandpa: "Disk", Feed: SiHotThreshold})
	if err != nil {
		t.Fatal(err)
	}
	for tick := 1; tick <= 4; tick++ {
		f.now = f.now.Add(time.Second)
		f.set("Disk/sda", "reads", uint64(100*tick*tick))
		f.set("Disk/sdb", "reads", uint64(10*tick))
		before := f.reads
		if err := a.Read(true); err != nil {
			t.Fatal(err)
		}
		if err := b.Read(false); err != nil {
			t.Fatal(err)
		}
		if err := h.Read(false); err != nil {
			t.Fatal(err)
		}
		if f.reads-before != 1 || src.Reads() != uint64(tick) {
			t.Fatalf("SPMI-SET-13: tick %d took %d provider reads", tick, f.reads-before)
		}
		if tick == 1 {
			continue
		}
		want := float64(100 * (2*tick - 1))
		if va.Val.V != want || vb.Val.V != want || pv.Count != 2 || pv.Items[0].Val.V != want {
			t.Fatalf("SPMI-HOT-20/X-4: tick %d: sets show %v %v, hotset %v; want %v everywhere", tick, va.Val.V, vb.Val.V, pv.Items, want)
		}
	}
	// Freeze: no force, so the values previously retrieved come back.
	frozen := va.Val
	for i := 0; i < 3; i++ {
		f.now = f.now.Add(time.Second)
		f.set("Disk/sda", "reads", 1e9)
		if err := a.Read(false); err != nil {
			t.Fatal(err)
		}
		if va.Val != frozen || a.TimeChange() != time.Second {
			t.Fatalf("SPMI-SET-13: freeze changed %v to %v", frozen, va.Val)
		}
	}
	// A published reading makes every statistic obsolete, as Force does.
	snap, _ := f.take()
	src.Publish(snap)
	if err := a.Read(false); err != nil {
		t.Fatal(err)
	}
	if va.Val == frozen {
		t.Fatal("SPMI-SET-13: a published reading must refresh a read without force")
	}
}

// SPMI-SET-14: next-and-decode yields what First/Next with Value yield.
func TestStatSetNextValue(t *testing.T) {
	r, f, src := ssSetup(t)
	f.set("CPU/cpu0", "idle", 100)
	f.set("Disk/sda", "inflight", 5)
	s := NewStatSet(r, src)
	for _, p := range []string{"CPU/cpu0/idle", "Disk/sda/inflight", "Disk/sda/reads"} {
		ssAdd(t, s, nil, p)
	}
	type rec struct {
		v   *StatVal
		x   float64
		err SiErr
	}
	for tick := 0; tick < 2; tick++ {
		if err := s.Read(true); err != nil {
			t.Fatal(err)
		}
		var walk, combined []rec
		for v := s.First(); v != nil; v = s.Next(v) {
			x, err := s.Value(v)
			walk = append(walk, rec{v, x, hsSi(err)})
		}
		for v, x, err := s.NextValue(nil); v != nil; v, x, err = s.NextValue(v) {
			combined = append(combined, rec{v, x, hsSi(err)})
		}
		if len(walk) != 3 || len(walk) != len(combined) {
			t.Fatalf("SPMI-SET-14: %d vs %d records", len(walk), len(combined))
		}
		for i := range walk {
			if walk[i] != combined[i] {
				t.Fatalf("SPMI-SET-14: record %d: %+v vs %+v", i, walk[i], combined[i])
			}
		}
		f.set("CPU/cpu0", "idle", 300)
		f.now = f.now.Add(time.Second)
	}
}

// SPMI-SET-15: a statistic is primed when it is added, so the first read after the next reading
// gives a real rate, not 0 and not the total divided by the uptime.
func TestStatSetPrime(t *testing.T) {
	r, f, src := ssSetup(t)
	f.set("CPU/cpu0", "idle", 987654321)
	if _, _, err := src.acquire(true); err != nil { // a reading exists at t=0
		t.Fatal(err)
	}
	s := NewStatSet(r, src)
	v := ssAdd(t, s, nil, "CPU/cpu0/idle")
	if err := s.Read(false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Value(v); hsSi(err) != SiNoValue || v.Val.State != NoRate {
		t.Fatalf("SPMI-SET-15: t=0 shows %v (%v), want no value", v.Val.V, err)
	}
	f.set("CPU/cpu0", "idle", 987654321+750)
	f.now = f.now.Add(time.Second)
	if err := s.Read(true); err != nil {
		t.Fatal(err)
	}
	if got := ssValue(t, s, v); got != 750 {
		t.Fatalf("SPMI-SET-15: t=1 rate = %v, want 750/s", got)
	}
}

// SPMI-SET-9 with X-4: rates divide by the real collector interval; a set that skipped readings
// gets val_change and rates over its own interval, derived values included.
func TestStatSetInterval(t *testing.T) {
	r, f, src := ssSetup(t)
	setCPU := func(user, kern, idle uint64) {
		f.set("CPU/cpu0", "user", user)
		f.set("CPU/cpu0", "kern", kern)
		f.set("CPU/cpu0", "idle", idle)
	}
	setCPU(0, 0, 0)
	s := NewStatSet(r, src)
	idle := ssAdd(t, s, nil, "CPU/cpu0/idle")
	busy := ssAdd(t, s, nil, "CPU/cpu0/busy")
	pct := ssAdd(t, s, nil, "CPU/cpu0/%busy")
	if err := s.Read(true); err != nil {
		t.Fatal(err)
	}
	// Jittered ticks: 1.0 s then 1.5 s.
	setCPU(100, 50, 850)
	f.now = f.now.Add(time.Second)
	if err := s.Read(true); err != nil {
		t.Fatal(err)
	}
	if idle.Val.V != 850 || busy.Val.V != 150 || math.Abs(pct.Val.V-0.15) > 1e-12 {
		t.Fatalf("X-4: 1.0 s: idle %v busy %v %%busy %v", idle.Val.V, busy.Val.V, pct.Val.V)
	}
	setCPU(400, 50, 1000)
	f.now = f.now.Add(1500 * time.Millisecond)
	if err := s.Read(true); err != nil {
		t.Fatal(err)
	}
	if idle.Val.V != 100 || busy.Val.V != 200 || s.TimeChange() != 1500*time.Millisecond {
		t.Fatalf("X-4: 1.5 s: idle %v busy %v Δ %v", idle.Val.V, busy.Val.V, s.TimeChange())
	}
	// Another set reads the next reading; this one skips it and reads the one after (2 s later).
	other := NewStatSet(r, src)
	ssAdd(t, other, nil, "CPU/cpu0/idle")
	setCPU(500, 100, 1100)
	f.now = f.now.Add(time.Second)
	if err := other.Read(true); err != nil {
		t.Fatal(err)
	}
	setCPU(800, 100, 1200)
	f.now = f.now.Add(time.Second)
	if err := s.Read(true); err != nil {
		t.Fatal(err)
	}
	// Over the set's 2 s: idle +200, busy +450 (user 400, kern 50).
	if s.TimeChange() != 2*time.Second || idle.Val.Change != 200 || idle.Val.V != 100 ||
		busy.Val.Change != 450 || busy.Val.V != 225 || math.Abs(pct.Val.V-450.0/650) > 1e-12 {
		t.Fatalf("SPMI-SET-9: skipped reading: Δ %v idle %v/%v busy %v/%v %%busy %v", s.TimeChange(),
			idle.Val.Change, idle.Val.V, busy.Val.Change, busy.Val.V, pct.Val.V)
	}
	// Each keeps of its previous reading only what its value is computed from (issue 38: a set
	// of 10,000 disks' busy is not 10,000 copies of their whole rows).
	nd := len(idle.ref.Ctx.Stats.Datums)
	if len(idle.prev) != 1 || len(busy.prev) >= nd || len(pct.prev) > nd || len(pct.prev) <= len(busy.prev) {
		t.Errorf("previous readings kept: idle %d, busy %d, %%busy %d of %d datums", len(idle.prev), len(busy.prev), len(pct.prev), nd)
	}
}

// A statistic whose datum is not one of its class as the reading has it (the class declared
// again with fewer datums) reads as no value, never a panic on what it kept of its row.
func TestStatSetDatumBeyondClass(t *testing.T) {
	r, f, src := ssSetup(t)
	f.set("CPU/cpu0", "idle", 10)
	s := NewStatSet(r, src)
	idle := ssAdd(t, s, nil, "CPU/cpu0/idle")
	if err := s.Read(true); err != nil {
		t.Fatal(err)
	}
	idle.di, idle.need = 99, []int{99, 98}
	f.now = f.now.Add(time.Second)
	if err := s.Read(true); err != nil {
		t.Fatal(err)
	}
	if idle.Val.State == Valid || idle.Err == SiSuccess {
		t.Errorf("a datum beyond its class: %+v %v", idle.Val, idle.Err)
	}
}
