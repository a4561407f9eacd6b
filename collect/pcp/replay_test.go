package pcp

import (
	"context"
	"runtime"
	"strconv"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	"dcimon/internal/archivetest"
	ns "dcimon/namespace"
)

// openReplay is a replay of the archives at bases from at (where the first rates are when zero),
// as dcimon --archive opens one.
func openReplay(tb testing.TB, at time.Time, bases ...string) *collect.Replay {
	tb.Helper()
	s, as := archiveSampler(tb, time.Time{}, false, bases...)
	return collect.NewReplay(s, as, at)
}

// archiveSampler is a sampler of the archives at bases (at and clamp as ArchiveProviders takes
// them) on the archives' clock, under a deadline a loaded machine cannot miss: the tests are
// about what is read.
func archiveSampler(tb testing.TB, at time.Time, clamp bool, bases ...string) (*collect.Sampler, *Archives) {
	tb.Helper()
	provs, as, err := ArchiveProviders(bases, at, clamp)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := collect.NewSampler(ns.NewRegistry(), provs, collect.Options{Now: as.Clock, Deadline: 10 * time.Second})
	if err != nil {
		tb.Fatal(err)
	}
	return s, as
}

// replaySample is the sample Replay's latest reading is of: its time, and the rate that says
// which sample it is ((2i-1)×100/s), or -1 when it has none.
type replayReading struct {
	at   time.Time
	rate float64
}

func readReplay(t *testing.T, r *collect.Replay) replayReading {
	t.Helper()
	snap, err := r.Sample(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	h := &collecttest.Harness{T: t, Reg: r.Registry(), Snap: snap}
	v := h.Value("Host/ctxsw")
	if mem := h.Value("Mem/Real/total"); mem.State != ns.Valid || mem.N != 4<<30 {
		t.Errorf("Mem/Real/total = %+v, want 4 GiB (logged once, at the start: known wherever the cursor is)", mem)
	}
	got := replayReading{at: r.Now(), rate: -1}
	if v.State == ns.Valid {
		got.rate = v.V
	}
	return got
}

// Issue 15: the monitor's time cursor. Each reading is the last sample at or before the time
// moved to, with its rate over the interval that ends there: a step forward reads on, a step
// back, a jump and a time typed seek through the index, and nothing is taken across a move.
func TestReplayMoves(t *testing.T) {
	r := openReplay(t, time.Time{}, archivetest.Write(t, t.TempDir(), "db1", 600, 0))
	if first, last := r.Span(); !first.Equal(archivetest.Start) || !last.Equal(archivetest.Start.Add(599*time.Second)) {
		t.Fatalf("span %v – %v", first, last)
	}
	sample := func(i int) replayReading {
		return replayReading{at: archivetest.Start.Add(time.Duration(i) * time.Second), rate: float64(2*i-1) * 100}
	}
	step := func(what string, move func(), want replayReading) {
		t.Helper()
		if move != nil {
			move()
		}
		if got := readReplay(t, r); !got.at.Equal(want.at) || got.rate != want.rate {
			t.Errorf("%s: at %s rate %v, want at %s rate %v", what, got.at.Format("15:04:05.000"), got.rate, want.at.Format("15:04:05.000"), want.rate)
		}
	}
	step("the start: the first rate", nil, sample(1))
	next := func() { r.Step(1) }
	step("one forward", next, sample(2))
	step("one forward again", next, sample(3))
	step("one back", func() { r.Step(-1) }, sample(2))
	step("one forward by its time", func() { r.Move(r.NextStep(r.Now())) }, sample(3))
	step("one back by its time", func() { r.Move(r.Now().Add(-time.Nanosecond)) }, sample(2))
	step("a time typed, between two samples", func() { r.Move(archivetest.Start.Add(300*time.Second + 500*time.Millisecond)) }, sample(300))
	step("read again where it is", nil, sample(300))
	step("a play short of the next sample: nothing new", func() { r.Move(archivetest.Start.Add(300*time.Second + 900*time.Millisecond)) }, sample(300))
	step("a play past it", func() { r.Move(archivetest.Start.Add(301*time.Second + 100*time.Millisecond)) }, sample(301))
	step("a minute forward", func() { r.Move(r.Now().Add(time.Minute)) }, sample(361))
	step("an hour back: the start", func() { r.Move(r.Now().Add(-time.Hour)) }, replayReading{at: archivetest.Start, rate: -1})
	step("forward from the start", next, sample(1))
	step("three steps asked for at once", func() { r.Step(1); r.Step(1); r.Step(1) }, sample(4))
	step("two back at once, across an index entry", func() { r.Move(archivetest.Start.Add(61 * time.Second)); r.Step(-1); r.Step(-1) }, sample(59))
	step("an index entry's own sample", func() { r.Move(archivetest.Start.Add(120 * time.Second)) }, sample(120))
	step("one past it", next, sample(121))
	step("steps that cancel before a reading: it stays", func() { r.Step(1); r.Step(-1) }, sample(121))
	step("past the end: the last sample", func() { r.Move(r.Now().Add(time.Hour)) }, sample(599))
	if n := r.NextStep(r.Now()); !n.IsZero() {
		t.Errorf("a next sample after the last: %v", n)
	}
	r.Step(1)
	if snap, err := r.Sample(context.Background()); err == nil || snap == nil {
		t.Errorf("a step past the last sample: %v, %v; want the end said, and what is shown kept", snap, err)
	}
}

// Several hosts' archives replay together: a move reads every one at the same time, each at
// its own last sample at or before it.
func TestReplaySeveralArchives(t *testing.T) {
	dir := t.TempDir()
	a := archivetest.Write(t, dir, "db1", 120, 0)
	b := archivetest.Write(t, dir, "web1", 120, 300*time.Millisecond)
	r := openReplay(t, archivetest.Start.Add(60*time.Second+500*time.Millisecond), a, b)
	reg := r.Registry()
	// A step forward moves both hosts on, 0.3 s apart as they are; a move between their
	// samples moves one, and the other keeps its values (never n/a for having nothing new).
	for step, move := range []func(){nil, func() { r.Move(r.NextStep(r.Now()).Add(400 * time.Millisecond)) },
		func() { r.Step(1) }, func() { r.Step(1) }, func() { r.Move(r.Now().Add(800 * time.Millisecond)) },
		func() { r.Step(-1) }, func() { r.Step(1) }} {
		if move != nil {
			move()
		}
		snap, err := r.Sample(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		h := &collecttest.Harness{T: t, Reg: reg, Snap: snap}
		for k, p := range []string{"db1/Host/ctxsw", "web1/Host/ctxsw"} {
			// Each host's last sample at or before the cursor: web1's are 0.3 s after db1's.
			i := int(r.Now().Add(-time.Duration(k)*300*time.Millisecond).Sub(archivetest.Start) / time.Second)
			if v := h.Value(p); v.State != ns.Valid || v.V != float64(2*i-1)*100 {
				t.Errorf("move %d: %s at %s = %+v, want %v", step, p, r.Now().Format("15:04:05.000"), v, float64(2*i-1)*100)
			}
		}
	}
}

// Issue 15: memory while replaying does not grow with the archive's length. A replay of a day
// of samples holds what a replay of an hour holds, but for the temporal index (an entry every
// 60 records); a move allocates as much in either.
func TestReplayMemoryIndependentOfLength(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a day of samples")
	}
	dir := t.TempDir()
	measure := func(n int) (heap uint64, perMove float64) {
		base := archivetest.Write(t, dir, "h"+strconv.Itoa(n), n, 0)
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		r := openReplay(t, time.Time{}, base)
		k := 0
		perMove = testing.AllocsPerRun(20, func() {
			k++
			r.Move(archivetest.Start.Add(time.Duration(k*(n/21)) * time.Second))
			if _, err := r.Sample(context.Background()); err != nil {
				t.Fatal(err)
			}
		})
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(r)
		return after.HeapInuse - min(after.HeapInuse, before.HeapInuse), perMove
	}
	hourHeap, hourAllocs := measure(3600)
	dayHeap, dayAllocs := measure(86400)
	index := uint64(86400/60) * 64 // the day's index entries, generously
	if dayHeap > hourHeap+index+256<<10 {
		t.Errorf("a day's replay holds %d KiB, an hour's %d KiB: more than the index's %d KiB apart", dayHeap>>10, hourHeap>>10, index>>10)
	}
	if dayAllocs > hourAllocs*1.2+10 {
		t.Errorf("a move allocates %.0f times in a day's archive, %.0f in an hour's", dayAllocs, hourAllocs)
	}
	t.Logf("heap: hour %d KiB, day %d KiB; allocations a move: %.0f, %.0f", hourHeap>>10, dayHeap>>10, hourAllocs, dayAllocs)
}

// An instance domain an archive never described (dcimon recorded a class with no instances,
// partitions on a host without any) has no instances: not an error that would degrade the host.
func TestArchiveUndescribedInDom(t *testing.T) {
	x, err := openArchive(archivetest.Write(t, t.TempDir(), "db1", 3, 0))
	if err != nil {
		t.Fatal(err)
	}
	if insts, err := x.InDom(context.Background(), "510.3"); err != nil || len(insts) != 0 {
		t.Errorf("InDom of an undescribed domain = %v, %v; want none, no error", insts, err)
	}
}

// The classes' scales come from what an archive records at its start (archivetest logs
// hinv.ncpu 2 and mem.physmem 4 GiB in its first sample only).
func TestArchiveScales(t *testing.T) {
	x, err := openArchive(archivetest.Write(t, t.TempDir(), "db1", 3, 0))
	if err != nil {
		t.Fatal(err)
	}
	if ncpu, mem := x.scales(); ncpu != 2 || mem != 4<<30 {
		t.Errorf("scales = %d processors, %d bytes; want 2, 4 GiB", ncpu, mem)
	}
}

// Issue 30 item 7: archives that do not overlap in time replay together: at a time one host's
// archive covers, a host whose archive begins later is "not in the archive" there (never its
// later values), and one whose archive has ended keeps its last values, timed as they were
// recorded; neither is a failing supplier.
func TestReplayArchivesApart(t *testing.T) {
	t.Parallel() // it waits on pmlogger or pmproxy's clock: beside the other tests that do (issue 37)
	early := pmlogArchive(t, 3)
	time.Sleep(2 * time.Second) // apart by more than an interval
	late := pmlogArchive(t, 3)
	s, as := archiveSampler(t, time.Time{}, false, early, late)
	r := collect.NewReplay(s, as, time.Time{})
	e, l := dataTimes(t, early), dataTimes(t, late)
	if !e[len(e)-1].Before(l[0]) {
		t.Fatalf("the archives overlap: %v and %v", e, l)
	}
	hosts := as.Hosts()
	value := func(snap *ns.Snapshot, host, path string) (ns.Value, *ns.ClassValues) {
		ref, err := s.Registry().Lookup(nil, host+"/"+path)
		if err != nil {
			t.Fatalf("%s/%s: %v", host, path, err)
		}
		v, cv, _ := snap.Lookup(ref)
		return v, cv
	}
	r.Move(e[len(e)-1])
	snap, err := r.Sample(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := value(snap, hosts[0], "Host/ctxsw"); v.State != ns.Valid {
		t.Errorf("the early host in its span: %+v", v)
	}
	if v, _ := value(snap, hosts[1], "Host/ctxsw"); v.State == ns.Valid || v.Reason != ns.ReasonNotRecorded {
		t.Errorf("the late host before its archive began: %+v, want not in the archive", v)
	}
	r.Move(l[len(l)-1])
	if snap, err = r.Sample(context.Background()); err != nil {
		t.Fatal(err)
	}
	if v, cv := value(snap, hosts[0], "Host/ctxsw"); v.State != ns.Valid || cv == nil || !cv.Time.Equal(e[len(e)-1]) {
		t.Errorf("the early host after its archive ended: %+v at %v, want its last value, timed %v", v, cv, e[len(e)-1])
	}
	if v, _ := value(snap, hosts[1], "Host/ctxsw"); v.State != ns.Valid {
		t.Errorf("the late host in its span: %+v", v)
	}
	for _, st := range s.Status() {
		if st.State != "ok" {
			t.Errorf("%s: %s (%v), want ok", st.Supplier.Module, st.State, st.LastErr)
		}
	}
}
