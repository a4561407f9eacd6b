package synthetic

import (
	"context"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

func TestParseSynthetic(t *testing.T) {
	t.Parallel()
	def := Options{Disks: 8, Parts: 2, NICs: 4, CPUs: 4, Procs: 60, Seed: 1}
	ok := map[string]Options{
		"synthetic":  def,
		"synthetic:": def,
		"":           def,
		"synthetic:disks=10000,nics=64,cpus=128,seed=7":   {Disks: 10000, Parts: 2, NICs: 64, CPUs: 128, Procs: 60, Seed: 7},
		"disks=0,parts=0,nics=0":                          {Disks: 0, Parts: 0, NICs: 0, CPUs: 4, Procs: 60, Seed: 1},
		"synthetic: cpus = 2 , seed=18446744073709551615": {Disks: 8, Parts: 2, NICs: 4, CPUs: 2, Procs: 60, Seed: 1<<64 - 1},
		"procs=100000,pidstart=4194000":                   {Disks: 8, Parts: 2, NICs: 4, CPUs: 4, Procs: 100000, PIDStart: 4194000, Seed: 1},
	}
	for in, want := range ok {
		got, err := Parse(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	bad := map[string]string{
		"synthetic:disks=x":         `disks="x" is not a non-negative integer`,
		"synthetic:disks=-1":        `disks="-1"`,
		"synthetic:foo=1":           `unknown key "foo"`,
		"synthetic:cpus=0":          "cpus=0 is out of range 1..65000",
		"synthetic:parts=16":        "parts=16 is out of range 0..15",
		"synthetic:disks=2000000":   "disks=2000000 is out of range",
		"synthetic:disks=1,disks=2": "disks given twice",
		"synthetic:procs=2000000":   "procs=2000000 is out of range",
		"synthetic:pidstart=0":      "pidstart=0 is out of range",
		"synthetic:disks":           `"disks" is not key=value`,
		"synthetic:disks=1,,nics=2": `"" is not key=value`,
		"syntheticdisks=1":          "want synthetic or synthetic:key=value",
	}
	for in, want := range bad {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", in, err, want)
		}
	}
}

// synthClock is a clock tests move by hand.
type synthClock struct{ t time.Time }

func (c *synthClock) now() time.Time          { return c.t }
func (c *synthClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newSynthClock() *synthClock { return &synthClock{t: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)} }

// collectAll collects every provider once.
func collectAll(t *testing.T, provs []collect.Provider, req collect.Request) []collect.Batch {
	t.Helper()
	var out []collect.Batch
	for _, p := range provs {
		b, err := p.Collect(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", p.Supplier().Module, err)
		}
		out = append(out, b)
	}
	return out
}

// TestSyntheticDeterminism: the same seed and the same clock give the same instances and values,
// collection after collection; another seed gives other values.
func TestSyntheticDeterminism(t *testing.T) {
	t.Parallel()
	run := func(seed uint64) [][]collect.Batch {
		clk := newSynthClock()
		provs := Providers(Options{Disks: 9, Parts: 3, NICs: 5, CPUs: 3, Seed: seed, Now: clk.now})
		var out [][]collect.Batch
		for i := range 4 {
			out = append(out, collectAll(t, provs, collect.Request{Static: i == 0, Variable: i == 0}))
			clk.advance(time.Second + time.Duration(i)*100*time.Millisecond)
		}
		return out
	}
	a, b, c := run(7), run(7), run(8)
	for i := range a {
		for j := range a[i] {
			for k := range a[i][j].Classes {
				ra, rb, rc := a[i][j].Classes[k], b[i][j].Classes[k], c[i][j].Classes[k]
				if !reflect.DeepEqual(ra.Raw, rb.Raw) || !reflect.DeepEqual(ra.Specs, rb.Specs) {
					t.Fatalf("collection %d, class %s: same seed, different readings", i, ra.Class.ID)
				}
				if i > 0 && ra.Class.ID.String() == "2.2" && reflect.DeepEqual(ra.Raw, rc.Raw) {
					t.Errorf("collection %d: seeds 7 and 8 read the same disks", i)
				}
			}
		}
	}
	// The layout the options ask for: 9 disks, every fourth with 3 partitions (sda, sde, sdi).
	disk := a[0][SynthDisk].Classes
	if n := len(disk[0].Specs); n != 9 {
		t.Errorf("%d disks", n)
	}
	var parts []string
	for _, s := range disk[1].Specs {
		parts = append(parts, s.OSName)
	}
	if strings.Join(parts, " ") != "sda1 sda2 sda3 sde1 sde2 sde3 sdi1 sdi2 sdi3" {
		t.Errorf("partitions %q", parts)
	}
	if n := len(a[0][SynthNet].Classes[0].Specs); n != 5 {
		t.Errorf("%d interfaces", n)
	}
	if got := []string{sdName(0), sdName(25), sdName(26), sdName(701), sdName(702)}; strings.Join(got, " ") != "sda sdz sdaa sdzz sdaaa" {
		t.Errorf("sd names %q", got)
	}
}

// TestSyntheticRates: counters advance by rate × the clock's elapsed seconds: every processor
// accounts exactly 1000 ms per second, the disks' collector clock too, and a read-only disk's
// writes are invalid as on the host.
func TestSyntheticRates(t *testing.T) {
	t.Parallel()
	clk := newSynthClock()
	s := New(Options{Disks: 16, Parts: 1, NICs: 8, CPUs: 2, Seed: 3, Now: clk.now})
	h := collecttest.NewHarness(t, s.Providers())
	h.Step(collect.Request{Static: true, Variable: true})
	for _, dt := range []time.Duration{time.Second, 2500 * time.Millisecond} {
		clk.advance(dt)
		h.Step(collect.Request{})
		for _, cpu := range []string{"CPU/cpu0", "CPU/cpu1"} {
			b, i := h.Value(cpu+"/busy_ms"), h.Value(cpu+"/idle_ms")
			if sum := b.V + i.V; sum < 998 || sum > 1000.5 {
				t.Errorf("%s: busy %v + idle %v ms/s = %v, want 1000", cpu, b.V, i.V, sum)
			}
		}
		if v := h.Value("Disk/sda/clock_ms"); !collecttest.Near(v.V, 1000) {
			t.Errorf("clock_ms = %v/s", v.V)
		}
		if v := h.Value("Disk/sda/busy"); v.State != ns.Valid || v.V < 0 || v.V > 1 {
			t.Errorf("busy %+v", v)
		}
	}
	if v := h.Value("Disk/sdp/writes"); v.State != ns.Invalid { // disk 15 is read-only
		t.Errorf("read-only disk writes = %+v", v)
	}
	if v := h.Value("NetIf/eth7/speed"); v.State != ns.Invalid {
		t.Errorf("eth7 speed = %+v, want invalid (unknown)", v)
	}
	if v := h.Value("NetIf/eth0/ipv4"); v.State != ns.Valid || v.S != "\x0a\x00\x00\x00" {
		t.Errorf("eth0 ipv4 = %+v", v)
	}
	if v := h.Value("Host/load1"); v.State != ns.Valid {
		t.Errorf("load1 = %+v", v)
	}
}

// TestSyntheticScript: instances come and go, the provider fails, hangs, stops updating and
// re-initialises, each on its cue.
func TestSyntheticScript(t *testing.T) {
	t.Parallel()
	clk := newSynthClock()
	s := New(Options{Disks: 2, Parts: 1, NICs: 2, CPUs: 1, Seed: 1, Now: clk.now})
	boom := errors.New("boom")
	s.Script(1, SynthAction{Kind: SynthAddDisks, N: 3})
	s.Script(1, SynthAction{Kind: SynthRemoveNIC, N: 0})
	s.Script(2, SynthAction{Kind: SynthRemoveDisk, N: 0})
	s.Script(2, SynthAction{Kind: SynthAddNICs, N: 1})
	s.Script(3, SynthAction{Kind: SynthFail, Target: SynthCPU, Err: boom})
	s.Script(4, SynthAction{Kind: SynthRecover, Target: SynthCPU})
	s.Script(5, SynthAction{Kind: SynthStop, Target: SynthNet})
	s.Script(7, SynthAction{Kind: SynthRecover, Target: SynthNet})
	s.Script(8, SynthAction{Kind: SynthReset, Target: SynthAll})
	s.Script(9, SynthAction{Kind: SynthHang, Target: SynthMem})
	h := collecttest.NewHarness(t, s.Providers())
	names := func(class ns.ClassID) string {
		var out []string
		for _, in := range h.Reg.Instances(h.Reg.Class(class)) {
			out = append(out, in.OSName)
		}
		slices.Sort(out) // the registry reuses free slots
		return strings.Join(out, " ")
	}
	disks, parts, nics := ns.ClassID{schema.DiskASN, 2}, ns.ClassID{schema.DiskASN, 3}, ns.ClassID{schema.NetASN, 2}
	type instances struct {
		class ns.ClassID
		names string
	}
	wantNames := map[int][]instances{
		0: {{disks, "sda sdb"}},
		1: {{disks, "sda sdb sdc sdd sde"}, {parts, "sda1 sde1"}, {nics, "eth1"}},
		2: {{disks, "sdb sdc sdd sde"}, {nics, "eth1 eth2"}},
	}
	var netTimes []time.Time
	for tick := 0; tick <= 8; tick++ {
		h.Step(collect.Request{Static: tick == 0, Variable: tick == 0})
		netTimes = append(netTimes, h.Last[SynthNet].Time)
		for _, w := range wantNames[tick] {
			if got := names(w.class); got != w.names {
				t.Errorf("tick %d: instances of %v %q, want %q", tick, w.class, got, w.names)
			}
		}
		switch tick {
		case 1:
			if v := h.Value("Disk/sdc/reads"); v.State != ns.NoRate {
				t.Errorf("new disk reads = %+v, want no rate", v)
			}
			if v := h.Value("Disk/sdc/size"); v.State != ns.Valid {
				t.Errorf("new disk size = %+v, want read at once", v)
			}
		case 3:
			if len(h.Errs) != 1 || !errors.Is(h.Errs[0], boom) {
				t.Errorf("tick 3 errors %v, want the CPU's scripted failure", h.Errs)
			}
		case 4:
			if len(h.Errs) != 0 {
				t.Errorf("tick 4 errors %v", h.Errs)
			}
		case 5, 6:
			if !netTimes[tick].Equal(netTimes[4]) {
				t.Errorf("tick %d: a stopped provider's time moved: %v", tick, netTimes[tick])
			}
		case 7:
			if !netTimes[7].After(netTimes[4]) {
				t.Errorf("tick 7: recovered provider's time %v did not move", netTimes[7])
			}
		case 8:
			cv := h.Snap.Class(h.Reg.Class(ns.ClassID{schema.DiskASN, 2}))
			if !cv.ResetSeen {
				t.Errorf("tick 8: reset not seen")
			}
			if v := h.Value("Disk/sdb/reads"); v.State != ns.NoRate || v.Reason != ns.ReasonReset {
				t.Errorf("tick 8: reads = %+v, want no rate (supplier re-initialised)", v)
			}
			if v := h.Value("Disk/sdb/reads"); v.N > 10000 {
				t.Errorf("tick 8: counters did not start again: %d", v.N)
			}
		}
		clk.advance(time.Second)
	}
	// Tick 9: the memory provider hangs until its context ends.
	start := time.Now() // before the deadline is set: a loaded machine may pause between the two
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := s.provs[SynthMem].Collect(ctx, collect.Request{})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) < 40*time.Millisecond {
		t.Errorf("hang: %v after %v", err, time.Since(start))
	}
	if s.Ticks(SynthMem) != 10 || s.Ticks(SynthDisk) != 9 {
		t.Errorf("ticks: mem %d, disk %d", s.Ticks(SynthMem), s.Ticks(SynthDisk))
	}
	for k, n := range map[SynthKind]string{SynthFail: "fail", SynthRemoveNIC: "remove-nic", SynthKind(99): "SynthKind(99)"} {
		if k.String() != n {
			t.Errorf("%d: %q", k, k.String())
		}
	}
	if SynthAll.String() != "all" || SynthTarget(99).String() != "SynthTarget(99)" {
		t.Errorf("target names")
	}
}

// TestSyntheticWithSampler runs the synthetic source under the real sampler: every class is
// sampled and a scripted failure degrades only its own provider.
func TestSyntheticWithSampler(t *testing.T) {
	t.Parallel()
	clk := newSynthClock()
	s := New(Options{Disks: 4, Parts: 1, NICs: 2, CPUs: 2, Seed: 5, Now: clk.now})
	s.Script(2, SynthAction{Kind: SynthFail, Target: SynthDisk})
	smp, err := collect.NewSampler(ns.NewRegistry(), s.Providers(), collect.Options{Now: clk.now})
	if err != nil {
		t.Fatal(err)
	}
	reg := smp.Registry()
	for range 3 {
		if _, err := smp.Sample(context.Background()); err != nil {
			t.Fatal(err)
		}
		clk.advance(time.Second)
	}
	snap := smp.Snapshot()
	look := func(p string) ns.Value {
		ref, err := reg.Lookup(nil, p)
		if err != nil {
			t.Fatal(err)
		}
		v, _, _ := snap.Lookup(ref)
		return v
	}
	if v := look("CPU/busy"); v.State != ns.Valid {
		t.Errorf("CPU/busy = %+v", v)
	}
	if v := look("Disk/sda/reads"); v.State != ns.Unavailable || v.Reason != ns.ReasonProviderError {
		t.Errorf("failed disk provider: reads = %+v", v)
	}
	if v := look("NetIf/eth0/bytes"); v.State != ns.Valid {
		t.Errorf("NetIf/eth0/bytes = %+v", v)
	}
}

// issue 12 (item 11): the synthetic disks' counters agree with each other as a real disk's do:
// %util at most 100% and spread out (no ties at 100.0%), aqu-sz from the weighted time, and
// read_ms + write_ms equal to weighted_ms (Little's law), partitions never busier than their disk.
func TestSyntheticDisksArePhysical(t *testing.T) {
	t.Parallel()
	clk := newSynthClock()
	s := New(Options{Disks: 64, Parts: 2, CPUs: 1, Seed: 11, Now: clk.now})
	h := collecttest.NewHarness(t, s.Providers())
	h.Step(collect.Request{Static: true, Variable: true})
	for range 5 {
		clk.advance(time.Second)
		h.Step(collect.Request{})
		full := 0
		for i := range 64 {
			d := "Disk/" + sdName(i)
			busy, aqu := h.Value(d+"/busy"), h.Value(d+"/aqu_sz")
			rms, wms, wt := h.Value(d+"/read_ms"), h.Value(d+"/write_ms"), h.Value(d+"/weighted_ms")
			if busy.State != ns.Valid || busy.V < 0 || busy.V > 1 {
				t.Fatalf("%s busy %+v: %%util is 0..100%%", d, busy)
			}
			if busy.V >= 0.9995 {
				full++
			}
			if !collecttest.Near(aqu.V*1000, wt.V) {
				t.Errorf("%s: aqu-sz %v but weighted_ms %v ms/s", d, aqu.V, wt.V)
			}
			if wms.State == ns.Valid && math.Abs(rms.V+wms.V-wt.V) > 0.01*wt.V+1 {
				t.Errorf("%s: read_ms %v + write_ms %v ≠ weighted_ms %v", d, rms.V, wms.V, wt.V)
			}
			if i%synthPartEvery == 0 {
				if p := h.Value(d + "/" + sdName(i) + "1/busy"); p.State == ns.Valid && p.V > busy.V+0.002 { // counters are whole milliseconds
					t.Errorf("%s1 busier (%v) than its disk (%v)", d, p.V, busy.V)
				}
			}
		}
		if full > 0 {
			t.Errorf("%d disks at 100.0%%: the load should spread", full)
		}
	}
}
