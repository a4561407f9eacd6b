package pcp

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	"dcimon/internal/archivetest"
	"dcimon/internal/pcptest"
	ns "dcimon/namespace"
	"dcimon/pmproxy"
)

// seriesFleet writes a fleet's archives, loads them into a real pmproxy's series, and opens them.
func seriesFleet(t *testing.T, f archivetest.Fleet) (*pcptest.Series, []string, *Series) {
	t.Helper()
	p := pcptest.StartSeries(t)
	bases, err := archivetest.WriteFleet(t.TempDir(), f)
	if err != nil {
		t.Fatal(err)
	}
	p.Load(t, bases...)
	s, err := OpenSeries(context.Background(), SeriesOptions{URL: p.URL()})
	if err != nil {
		t.Fatal(err)
	}
	return p, bases, s
}

// twoReadings samples the providers twice (the second has the rates) and returns every value
// the pattern names at the second, by path, and its time.
func twoReadings(t *testing.T, provs []collect.Provider, clock func() time.Time, pattern string) (map[string]ns.Value, time.Time) {
	t.Helper()
	vals, ts := readings(t, provs, clock, pattern, 2)
	return vals[1], ts[1]
}

// Issue 34's truth: for every host, the values read from pmproxy's series are those dcimon reads
// from the same archive directly (--archive), by the same reading and namespace code, at several
// times including the first and the last sample: the counters' rates (busy, reads per second),
// the quantities, every disk's name.
func TestSeriesEqualsArchives(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	f := archivetest.Fleet{Hosts: 3, Disks: 4, Samples: 31}
	_, bases, s := seriesFleet(t, f)
	if got := strings.Join(s.Hosts(), ","); got != "node000,node001,node002" {
		t.Fatalf("hosts %s", got)
	}
	if first, last := s.Span(); !first.Equal(archivetest.Start) || !last.Equal(archivetest.Start.Add(300*time.Second+20*time.Millisecond)) {
		t.Fatalf("span %v – %v", first, last)
	}
	for _, at := range []time.Time{
		archivetest.Start.Add(-5 * time.Second),                      // within an interval before the first sample: that sample (issue 39 item 6)
		archivetest.Start,                                            // the first sample: the reading is it, without rates, never the one after
		archivetest.Start.Add(123 * time.Second),                     // between samples
		archivetest.Start.Add(150*time.Second + 10*time.Millisecond), // host 1's own sample, the others' a little before
		archivetest.Start.Add(300 * time.Second),                     // host 0's last sample, the others' last but one
		archivetest.Start.Add(300*time.Second + 20*time.Millisecond), // the last sample of all
	} {
		t.Run(at.Format("15:04:05.000"), func(t *testing.T) {
			aprovs, as, err := ArchiveProviders(bases, at, false)
			if err != nil {
				t.Fatal(err)
			}
			want, wantEnd := twoReadings(t, aprovs, as.Clock, "*/Disk/*/*")
			atFirst := !at.After(archivetest.Start)
			if atFirst && (wantEnd.Before(archivetest.Start) || wantEnd.Sub(archivetest.Start) > 20*time.Millisecond) { // the hosts sample .00, .01, .02 s apart
				// Issue 39 item 6: at the archive's first sample, the reading is that sample,
				// without rates (PCP has none yet), never the sample after it; the series' the same.
				t.Errorf("archives' reading at their first sample %s is at %s", at, wantEnd)
			}
			// A series source is opened anew for each time, as a command does.
			s, err := OpenSeries(context.Background(), SeriesOptions{URL: s.URL()})
			if err != nil {
				t.Fatal(err)
			}
			sprovs, err := SeriesProviders(s, at, false)
			if err != nil {
				t.Fatal(err)
			}
			got, gotEnd := twoReadings(t, sprovs, s.Clock, "*/Disk/*/*")
			if !gotEnd.Equal(wantEnd) {
				t.Errorf("reading's time %s, archives' %s", gotEnd, wantEnd)
			}
			if len(want) < 3*4*10 {
				t.Fatalf("the archives' reading has %d values", len(want))
			}
			valid := 0
			for _, p := range sortedKeys(want) {
				w, g := want[p], got[p]
				if w != g {
					t.Errorf("%s: series %+v, archives %+v", p, g, w)
				}
				if w.State == ns.Valid {
					valid++
				}
			}
			for p := range got {
				if _, ok := want[p]; !ok {
					t.Errorf("%s: in the series, not in the archives", p)
				}
			}
			if atFirst {
				// The first sample's reading: no rate yet, said so (the sample after it would
				// have given every rate).
				if b := busyOf(t, got, "node001", "sdb"); b.State != ns.NoRate || b.Reason != ns.ReasonFirstSample {
					t.Errorf("node001/Disk/sdb/busy at the first sample: %+v, want no rate (no previous sample)", b)
				}
			} else if valid == 0 {
				t.Error("no valid value compared")
			}
			// And both are what was written: host 1's sdb, busy FleetBusy per cent over the
			// interval that ends at its sample at or before the time (sample k, from 0).
			k := int(at.Sub(archivetest.Start.Add(10*time.Millisecond)) / (10 * time.Second))
			if k >= 1 && k <= 30 {
				if b := busyOf(t, got, "node001", "sdb"); b.State != ns.Valid || !collecttest.Near(b.V, float64(archivetest.FleetBusy(1, 1, k))/100) { // a share: 0.57 is 57 %
					t.Errorf("node001/Disk/sdb/busy at sample %d: %+v, want %d%%", k, b, archivetest.FleetBusy(1, 1, k))
				}
			}
		})
	}
}

func sortedKeys(m map[string]ns.Value) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// busyOf is a disk's busy share in a reading.
func busyOf(t *testing.T, vals map[string]ns.Value, host, disk string) ns.Value {
	t.Helper()
	v, ok := vals[fmt.Sprintf("%s/Disk/%s/busy", host, disk)]
	if !ok {
		t.Fatalf("no %s/Disk/%s/busy in %d values", host, disk, len(vals))
	}
	return v
}

// readings samples the providers n times and returns, for each reading, every value the pattern
// names by path.
func readings(t *testing.T, provs []collect.Provider, clock func() time.Time, pattern string, n int) ([]map[string]ns.Value, []time.Time) {
	t.Helper()
	s := samplerOf(t, provs, nil, collect.Options{Now: clock, Deadline: 30 * time.Second})
	var out []map[string]ns.Value
	var ts []time.Time
	for range n {
		snap, err := s.Sample(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		refs, err := s.Registry().Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		vals := map[string]ns.Value{}
		for _, r := range refs {
			if v, _, ok := snap.Lookup(r); ok && r.IsStat() {
				vals[r.Path()] = v
			}
		}
		out, ts = append(out, vals), append(ts, snap.End)
	}
	return out, ts
}

// PCPF-14: no rate across a gap in a host's series (samples 8 to 10 missing: its pmlogger was
// down) nor across a restart (at sample 15 every counter starts again from nothing): the readings
// that follow them have none, with a reason, and the next ones have their rates again.
func TestSeriesGapAndRestart(t *testing.T) {
	f := archivetest.Fleet{Hosts: 2, Disks: 2, Samples: 20, Gap: [2]int{8, 11}, Restart: 15}
	_, _, s := seriesFleet(t, f)
	at := archivetest.Start.Add(6 * 10 * time.Second)
	provs, err := SeriesProviders(s, at, true)
	if err != nil {
		t.Fatal(err)
	}
	// Readings from sample 5 (the first of the two that end at 6) on, one sample each.
	got, ts := readings(t, provs, s.Clock, "*/Disk/*/*", 9)
	samples := []int{5, 6, 7, 11, 12, 13, 14, 15, 16}
	for i, k := range samples {
		want := archivetest.Start.Add(time.Duration(k) * 10 * time.Second)
		if !ts[i].Equal(want) {
			t.Errorf("reading %d at %s, want sample %d (%s)", i, ts[i], k, want)
		}
		for _, path := range []string{"node000/Disk/sdb/busy", "node000/Disk/sdb/reads"} {
			v := got[i][path]
			switch k {
			case 5: // the first reading: no rate yet
				if v.State == ns.Valid {
					t.Errorf("%s at the first reading: %+v", path, v)
				}
			case 11, 15:
				if v.State == ns.Valid || v.Reason != ns.ReasonReset {
					t.Errorf("%s at sample %d, after a gap or a restart: %+v, want no rate, the supplier reset", path, k, v)
				}
			default:
				if v.State != ns.Valid {
					t.Errorf("%s at sample %d: %+v, want a rate", path, k, v)
				}
			}
		}
		if k != 5 && k != 11 && k != 15 {
			if b := got[i]["node000/Disk/sdb/busy"]; !collecttest.Near(b.V, float64(archivetest.FleetBusy(0, 1, k))/100) {
				t.Errorf("busy at sample %d: %v, want %d%%", k, b.V, archivetest.FleetBusy(0, 1, k))
			}
		}
	}
}

// --series with --hosts: globs on the host names choose the hosts; none named is an error that
// says how many there are.
func TestSeriesHostGlobs(t *testing.T) {
	p, _, _ := seriesFleet(t, archivetest.Fleet{Hosts: 3, Disks: 1, Samples: 3})
	s, err := OpenSeries(context.Background(), SeriesOptions{URL: p.URL(), Hosts: []string{"node00[02]"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Hosts(), ","); got != "node000,node002" {
		t.Errorf("hosts %s", got)
	}
	_, err = OpenSeries(context.Background(), SeriesOptions{URL: p.URL(), Hosts: []string{"web*"}})
	if err == nil || !strings.Contains(err.Error(), "no host of its 3 time series sources is named web*") {
		t.Errorf("no host named: %v", err)
	}
}

// When the key-value server behind pmproxy is down (stopped for real), or pmproxy itself, the
// error says which, within the deadline.
func TestSeriesDown(t *testing.T) {
	p, _, _ := seriesFleet(t, archivetest.Fleet{Hosts: 1, Disks: 1, Samples: 3})
	p.StopKV()
	start := time.Now()
	_, err := OpenSeries(context.Background(), SeriesOptions{URL: p.URL(), Deadline: 2 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "key-value server (Redis or Valkey)") {
		t.Errorf("key-value server down: %v", err)
	}
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("the error took %s", d)
	}
	_, err = OpenSeries(context.Background(), SeriesOptions{URL: fmt.Sprintf("pcp://127.0.0.1:%d", pcptest.FreePort(t))})
	if err == nil || !strings.Contains(err.Error(), "does not answer (is it running?)") {
		t.Errorf("pmproxy down: %v", err)
	}
}

// The monitor's time cursor moves through the series as through the archives: after each move
// (forward, back, a jump, past the end) every host's disks read the same.
func TestSeriesReplayEqualsArchives(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	_, bases, s := seriesFleet(t, archivetest.Fleet{Hosts: 3, Disks: 2, Samples: 31})
	aprovs, as, err := ArchiveProviders(bases, time.Time{}, false)
	if err != nil {
		t.Fatal(err)
	}
	sprovs, err := SeriesProviders(s, time.Time{}, false)
	if err != nil {
		t.Fatal(err)
	}
	replay := func(provs []collect.Provider, h collect.History) *collect.Replay {
		smp, err := collect.NewSampler(ns.NewRegistry(), provs, collect.Options{Now: h.Clock, Deadline: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		return collect.NewReplay(smp, h, time.Time{})
	}
	ra, rs := replay(aprovs, as), replay(sprovs, s)
	for i, move := range []func(r *collect.Replay){nil,
		func(r *collect.Replay) { r.Step(1) }, func(r *collect.Replay) { r.Step(1) }, func(r *collect.Replay) { r.Step(-1) },
		func(r *collect.Replay) { r.Move(archivetest.Start.Add(150*time.Second + 15*time.Millisecond)) },
		func(r *collect.Replay) { r.Move(r.NextStep(r.Now()).Add(5 * time.Millisecond)) },
		func(r *collect.Replay) { r.Step(3) }, func(r *collect.Replay) { r.Move(r.Now().Add(-time.Minute)) },
		func(r *collect.Replay) { r.Move(r.Now().Add(time.Hour)) }, func(r *collect.Replay) { r.Step(-2) },
	} {
		var snaps [2]map[string]ns.Value
		for j, r := range []*collect.Replay{ra, rs} {
			if move != nil {
				move(r)
			}
			snap, err := r.Sample(context.Background())
			if err != nil {
				t.Fatalf("move %d: %v", i, err)
			}
			refs, _ := r.Registry().Glob("*/Disk/*/*")
			snaps[j] = map[string]ns.Value{}
			for _, ref := range refs {
				if v, _, ok := snap.Lookup(ref); ok && ref.IsStat() {
					snaps[j][ref.Path()] = v
				}
			}
		}
		if !ra.Now().Equal(rs.Now()) {
			t.Errorf("move %d: series at %s, archives at %s", i, rs.Now(), ra.Now())
		}
		if len(snaps[0]) == 0 {
			t.Fatalf("move %d: nothing read", i)
		}
		for p, w := range snaps[0] {
			if g := snaps[1][p]; g != w {
				t.Errorf("move %d: %s: series %+v, archives %+v", i, p, g, w)
			}
		}
	}
}

// Bounded memory: a window of values larger than the bound is an error that names the metric
// and says what was too big, never a reading of part of it; a time no host covers is an error
// that says what the series cover.
func TestSeriesBounds(t *testing.T) {
	p, _, _ := seriesFleet(t, archivetest.Fleet{Hosts: 2, Disks: 4, Samples: 5})
	s, err := OpenSeries(context.Background(), SeriesOptions{URL: p.URL(), MaxValues: 10})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.xs[0].Fetch(context.Background(), "disk.dev.read")
	if !errors.Is(err, pmproxy.ErrTooBig) || !strings.Contains(err.Error(), "disk.dev.read") || !strings.Contains(err.Error(), "more than 10") {
		t.Errorf("a window over the bound: %v", err)
	}
	_, err = SeriesProviders(s, archivetest.Start.Add(-time.Hour), false)
	if err == nil || !strings.Contains(err.Error(), "is outside them: their samples are from 2026-11-25 03:00:00.000 to 2026-11-25 03:00:40.010") {
		t.Errorf("a time before the series: %v", err)
	}
}
