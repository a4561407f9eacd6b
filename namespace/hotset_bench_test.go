package namespace

import (
	"fmt"
	"testing"
	"time"
)

// hsScale builds a registry whose class Peer (9) holds n peer instances (9.2), or, with groups > 0,
// groups parents (9.2) each holding n/groups nested peers (9.3), and a snapshot with busy rates
// for them (a 1 s interval, pseudo-random rates). It returns the registry and the snapshot.
func hsScale(tb testing.TB, n, groups int) (*Registry, *Snapshot) {
	tb.Helper()
	r := NewRegistry()
	must := func(err error) {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
	}
	datums := func() []Datum {
		return []Datum{
			Counter(1, "busy", TypeUint8, UnitMillisecs, "Busy time", "synthetic"),
			Gauge(2, "queue", TypeUint8, UnitQLength, "Queue length", "synthetic"),
		}
	}
	must(r.RegisterClass(&Class{ID: ClassID{9}, Name: "Peer", Desc: "Synthetic peers", Flags: ClassEnabled}))
	must(r.RegisterClass(&Class{ID: ClassID{9, 2}, Name: "peer", Desc: "One peer", Flags: ClassEnabled, InstFreq: SiContInst,
		Levels: []InstLevel{{TypeUint8, TagDevice, 8}}, Datums: datums()}))
	leaf := r.Class(ClassID{9, 2})
	if groups > 0 {
		must(r.RegisterClass(&Class{ID: ClassID{9, 3}, Name: "sub", Desc: "One sub-peer", Flags: ClassEnabled, InstFreq: SiContInst,
			NestUnder: ClassID{9, 2}, Levels: []InstLevel{{TypeUint8, TagDevice, 8}, {TypeUint8, TagDevice, 8}},
			Datums: []Datum{Counter(3, "sub_busy", TypeUint8, UnitMillisecs, "Busy time", "synthetic")}}))
		specs := make([]InstanceSpec, groups)
		for g := range specs {
			specs[g] = InstanceSpec{Levels: []uint64{uint64(g)}, OSName: fmt.Sprintf("g%05d", g)}
		}
		if _, _, err := r.Sync(leaf, specs, hsT0, nil); err != nil {
			tb.Fatal(err)
		}
		leaf = r.Class(ClassID{9, 3})
	}
	specs := make([]InstanceSpec, n)
	for i := range specs {
		if groups > 0 {
			specs[i] = InstanceSpec{Levels: []uint64{uint64(i % groups), uint64(i)}, OSName: fmt.Sprintf("s%07d", i)}
		} else {
			specs[i] = InstanceSpec{Levels: []uint64{uint64(i)}, OSName: fmt.Sprintf("p%07d", i)}
		}
	}
	insts, _, err := r.Sync(leaf, specs, hsT0, nil)
	if err != nil {
		tb.Fatal(err)
	}
	var snap *Snapshot
	seed := uint64(42)
	base := make([]uint64, n)
	for step := 0; step < 2; step++ {
		t := hsT0.Add(time.Duration(step) * time.Second)
		nd := len(leaf.Datums)
		cs := ClassSample{Class: leaf, Time: t, Start: t, End: t, Insts: insts, Raw: make([]Raw, n*nd)}
		for i := range insts {
			if step == 1 {
				seed = seed*6364136223846793005 + 1442695040888963407
				base[i] += seed >> 44 // rates up to 2^20 per second
			}
			for d := 0; d < nd; d++ {
				cs.Raw[i*nd+d] = Raw{N: base[i], State: RawOK}
			}
		}
		snap = Next(snap, &Sample{Start: t, End: t, Classes: []ClassSample{cs}}, nil)
	}
	return r, snap
}

// hsScaleSet is a hotset over hsScale ranking busy (sub_busy for groups) with maxresp 10, warmed
// up so its buffers have grown.
func hsScaleSet(tb testing.TB, n, groups int) (*HotSet, *Reading, *Snapshot) {
	tb.Helper()
	r, snap := hsScale(tb, n, groups)
	src := NewReading(nil)
	h := NewHotSet(r, src, nil)
	stat := "busy"
	if groups > 0 {
		stat = "sub_busy"
	}
	if _, err := h.Add(HotSpec{Stat: stat, Grandpa: "Peer", MaxResp: 10, Feed: SiHotThreshold}); err != nil {
		tb.Fatal(err)
	}
	src.Publish(snap)
	if err := h.Read(false); err != nil {
		tb.Fatal(err)
	}
	return h, src, snap
}

// BenchmarkHotSetRead measures one hotset read (one peer set, maxresp 10, threshold 0 so every
// peer is offered to the ranking): every iteration publishes a reading, so the read ranks every
// peer again. One context holds at most 65,279 subcontexts (their ASN.1 numbers are 1..0xFEFF,
// SPMI-ASN-5), so 100,000 peers of one class are measured as a multi-level peer set: under 2
// parents (50,000 per group) and under 1,000 parents (100 per group).
func BenchmarkHotSetRead(b *testing.B) {
	for _, tc := range []struct{ n, groups int }{{10000, 0}, {65000, 0}, {100000, 2}, {100000, 1000}} {
		name := fmt.Sprintf("peers=%d", tc.n)
		if tc.groups > 0 {
			name += fmt.Sprintf("/groups=%d", tc.groups)
		}
		b.Run(name, func(b *testing.B) {
			h, src, snap := hsScaleSet(b, tc.n, tc.groups)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				src.Publish(snap)
				if err := h.Read(false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestHotReadSteadyState checks the performance contract of SPMI-HOT-6: a bounded selection, and
// no allocation per read once the buffers have grown, whatever the number of peers.
func TestHotReadSteadyState(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 10,000 peers")
	}
	h, src, snap := hsScaleSet(t, 10000, 0)
	v := h.Entries()[0]
	if v.Count != 10 || v.AvailResp != 10000 {
		t.Fatalf("count %d avail %d", v.Count, v.AvailResp)
	}
	for i := 1; i < len(v.Items); i++ {
		if v.Items[i].Val.V > v.Items[i-1].Val.V {
			t.Fatalf("items out of order at %d", i)
		}
	}
	allocs := testing.AllocsPerRun(20, func() {
		src.Publish(snap)
		if err := h.Read(false); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 0 && !hsRaceEnabled {
		t.Fatalf("SPMI-HOT-6: %v allocations per steady-state read, want 0", allocs)
	}
}
