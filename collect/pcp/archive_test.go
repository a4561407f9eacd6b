package pcp

import (
	"context"
	"errors"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	"dcimon/collect/schema"
	"dcimon/internal/pcptest"
	ns "dcimon/namespace"
	"dcimon/pcparchive"
)

// pmlogArchive has a real pmlogger record what the mapping reads from a pmcd the test starts,
// samples a second apart, and returns the archive's base.
func pmlogArchive(t *testing.T, samples int) string {
	t.Helper()
	return pcptest.Start(t).Log(t, `hinv.ncpu mem.physmem mem.util kernel.all.cpu kernel.percpu.cpu kernel.all.load kernel.all.pswitch
	kernel.all.intr kernel.uname disk.dev network.interface filesys`, samples)
}

// Issue 15: an archive a real pmlogger wrote replays through the same mapping as a live host:
// the CPU, disk, memory and host classes fill from the Linux PMDA's metrics, each collection is
// the archive's next sample, and a counter's rate is the one PCP's own pmdumplog values give
// over the archive's own timestamps.
func TestArchiveReplaysThroughTheMapping(t *testing.T) {
	t.Parallel() // it waits on pmlogger or pmproxy's clock: beside the other tests that do (issue 37)
	base := pmlogArchive(t, 7)
	s, _ := archiveSampler(t, time.Time{}, false, base)
	reg := s.Registry()
	// Every sample to the archive's end: a machine under load may leave some without a value.
	var snaps []*ns.Snapshot
	for range 6 {
		snap, err := s.Sample(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, snap)
	}
	h := &collecttest.Harness{T: t, Reg: reg, Snap: snaps[len(snaps)-1]}
	if v := h.Value("Mem/Real/total"); v.State != ns.Valid || v.N == 0 {
		t.Errorf("Mem/Real/total = %+v", v)
	}
	if v := h.Value("Host/release"); v.State != ns.Valid || v.S == "" {
		t.Errorf("Host/release = %+v", v)
	}
	if refs, err := reg.Glob("Disk/*/reads"); err != nil || len(refs) == 0 {
		t.Errorf("no disk: %v", err)
	}
	// Each context-switch rate dcimon gives is the one pmdumplog's values and times give for
	// the same two samples. (A machine under load may leave a sample without a value: pmlogger
	// records the PMDA's error, and dcimon has no rate over it, never a made-up one.)
	out := pcptest.Run(t, "pmdumplog", "-a", base, "kernel.all.pswitch", "kernel.all.cpu.user")
	re := regexp.MustCompile(`(?m)^(\d\d:\d\d:\d\d\.\d+) \d+ metrics?\n(?:\s+\S+ \([^)]*\): value \d+\n)*?\s+60\.0\.13 \(kernel\.all\.pswitch\): value (\d+)`)
	m := re.FindAllStringSubmatch(string(out), -1)
	byTime := map[string]float64{}
	var order []string
	for _, x := range m {
		v, _ := strconv.ParseFloat(x[2], 64)
		byTime[x[1]] = v
		order = append(order, x[1])
	}
	checked := 0
	for i, snap := range snaps {
		if i == 0 {
			continue
		}
		hs := &collecttest.Harness{T: t, Reg: reg, Snap: snap}
		v := hs.Value("Host/ctxsw")
		if v.State != ns.Valid {
			continue
		}
		now := snap.Class(reg.Class(ns.ClassID{schema.HostASN})).Time.UTC().Format("15:04:05.000000")
		k := slices.Index(order, now)
		if k < 1 {
			t.Errorf("dcimon's sample at %s is not among pmdumplog's %v", now, order)
			continue
		}
		t1, _ := time.Parse("15:04:05.000000", order[k-1])
		t2, _ := time.Parse("15:04:05.000000", order[k])
		want := (byTime[order[k]] - byTime[order[k-1]]) / t2.Sub(t1).Seconds()
		if math.Abs(v.V-want) > 1e-6*math.Max(1, want) {
			t.Errorf("Host/ctxsw at %s = %v/s, pmdumplog's values give %v/s", now, v.V, want)
		}
		checked++
	}
	if checked == 0 {
		t.Errorf("no sample had a context-switch rate to compare (pmdumplog:\n%s)", out)
	}
	// Past the last sample: the end, said so, never a made-up value.
	for range 4 {
		_, _ = s.Sample(context.Background())
	}
	st := s.Status()
	found := false
	for _, p := range st {
		if p.LastErr != nil && errors.Is(p.LastErr, collect.ErrArchiveEnd) {
			found = true
		}
	}
	if !found {
		t.Errorf("past the archive's end, no provider says so: %+v", st)
	}
}

// An archive's bit-packed units, as the replay writes them for the mapping, read back as the
// same units (the factor from a metric to its datum is worked out from them).
func TestArchiveUnitsRoundTrip(t *testing.T) {
	for _, u := range []ns.PMUnits{
		{},
		{DimCount: 1},
		{DimSpace: 1, ScaleSpace: ns.PMSpaceKByte},
		{DimTime: 1, ScaleTime: ns.PMTimeMSec},
		{DimSpace: 1, DimTime: -1, ScaleSpace: ns.PMSpaceMByte, ScaleTime: ns.PMTimeSec},
		{DimTime: -1, ScaleTime: ns.PMTimeSec},
		{DimSpace: 2, ScaleSpace: ns.PMSpaceByte},
	} {
		packed, err := u.Pack()
		if err != nil {
			t.Fatal(err)
		}
		text := archiveUnits(packed << 8)
		got, ok := ns.ParsePMUnits(text)
		if text == "none" {
			got, ok = ns.PMUnits{}, true
		}
		if !ok || got != u {
			t.Errorf("%+v → %q → %+v (%v)", u, text, got, ok)
		}
	}
}

// dataTimes are the times of a pmlogger archive's records that hold a sample (pmdumplog's records
// of more than pmcd's own metrics), in order.
func dataTimes(t *testing.T, base string) []time.Time {
	t.Helper()
	a, err := pcparchive.Open(base)
	if err != nil {
		t.Fatal(err)
	}
	c, err := a.Cursor(time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var out []time.Time
	for {
		r, err := c.Next()
		if err != nil {
			return out
		}
		if isData(r) {
			out = append(out, r.Time)
		}
	}
}

// Issue 30 items 2 to 4: a pmlogger archive's span is its samples', not its prologue's and
// epilogue's (pmlogger's own records, with no sample): the first rates are at its second sample,
// the last rates are over the interval between its last two samples, and a play ends there.
func TestPMLoggerArchiveEdges(t *testing.T) {
	t.Parallel() // it waits on pmlogger or pmproxy's clock: beside the other tests that do (issue 37)
	base := pmlogArchive(t, 5)
	times := dataTimes(t, base)
	if len(times) < 4 {
		t.Fatalf("%d samples in the archive", len(times))
	}
	s, as := archiveSampler(t, time.Time{}, false, base)
	if first, last := as.Span(); !first.Equal(times[0]) || !last.Equal(times[len(times)-1]) {
		t.Errorf("span %s to %s, want the samples' %s to %s", first.Format(time.StampMicro), last.Format(time.StampMicro),
			times[0].Format(time.StampMicro), times[len(times)-1].Format(time.StampMicro))
	}
	r := collect.NewReplay(s, as, time.Time{})
	_, err := r.Sample(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The default time: the second sample, where the first rates are; a disk is there.
	if now := r.Now(); !now.Equal(times[1]) {
		t.Errorf("a replay opens at %s, want the second sample's %s", now.Format(time.StampMicro), times[1].Format(time.StampMicro))
	}
	if refs, err := s.Registry().Glob("Disk/*/writes"); err != nil || len(refs) == 0 {
		t.Errorf("no disk at the default time: %v", err)
	}
	// The end: rates over the last two samples' interval, not up to the epilogue.
	_, last := as.Span()
	r.Move(last)
	snap, err := r.Sample(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := times[len(times)-1].Sub(times[len(times)-2])
	ref, err := s.Registry().Lookup(nil, "CPU/user")
	if err != nil {
		t.Fatal(err)
	}
	cv := snap.Class(ref.Ctx.Stats)
	if cv == nil || !cv.Time.Equal(last) || cv.Elapsed != want {
		t.Errorf("at the end: %+v, want %s over %v", cv, last.Format(time.StampMicro), want)
	}
	// A step past the end says so, and reads nothing.
	r.Step(1)
	if _, err := r.Sample(context.Background()); !errors.Is(err, collect.ErrArchiveEnd) {
		t.Errorf("a step past the last sample: %v, want the end of the archive", err)
	}
	// Item 6: a time read off the archive to the second, before its first sample by less than
	// an interval, is that sample; one further off is refused, saying the span precisely.
	if _, _, err := ArchiveProviders([]string{base}, times[0].Truncate(time.Second), false); err != nil {
		t.Errorf("--at %s, the first sample's second: %v", times[0].Truncate(time.Second).Format(time.TimeOnly), err)
	}
	_, _, err = ArchiveProviders([]string{base}, times[0].Add(-3*time.Second), false)
	if want := times[0].Format("15:04:05.000"); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a time 3 s before the archive: %v, want its start as %s", err, want)
	}
}

// Issue 30 item 5: a partial pmlogger configuration loses no class: any logged metric of a class
// brings its instances (disks from disk.dev.write alone, file systems from filesys.capacity
// without filesys.mountdir, named by their device), and the rest is n/a, "not in the archive".
func TestPMLoggerPartialConfiguration(t *testing.T) {
	t.Parallel() // it waits on pmlogger or pmproxy's clock: beside the other tests that do (issue 37)
	base := pcptest.Start(t).Log(t, "disk.dev.write disk.dev.write_bytes filesys.capacity", 3)
	s, as := archiveSampler(t, time.Time{}, false, base)
	snap, err := collect.NewReplay(s, as, time.Time{}).Sample(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ glob, want string }{{"Disk/*/writes", "valid"}, {"Disk/*/reads", "not in the archive"},
		{"FS/*/size", "valid"}, {"FS/*/used", "not in the archive"}} {
		refs, err := s.Registry().Glob(c.glob)
		if err != nil || len(refs) == 0 {
			t.Errorf("%s: no instance (%v)", c.glob, err)
			continue
		}
		for _, ref := range refs {
			v, _, _ := snap.Lookup(ref)
			got := "valid"
			if v.State != ns.Valid && v.State != ns.NoRate {
				got = v.Reason.String()
			}
			if got != c.want {
				t.Errorf("%s: %s, want %s", ref.Path(), got, c.want)
			}
		}
	}
	// The file systems are named by their device, the only name the archive has.
	if refs, _ := s.Registry().Glob("FS/*/size"); len(refs) > 0 && !strings.HasPrefix(refs[0].Ctx.Name, "∕") {
		t.Errorf("a file system named %q, want its device as a name", refs[0].Ctx.Name)
	}
}
