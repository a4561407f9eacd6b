package pcp

import (
	"context"
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
// the pattern names, by path, and the reading's time.
func twoReadings(t *testing.T, provs []collect.Provider, clock func() time.Time, pattern string) (map[string]ns.Value, time.Time) {
	t.Helper()
	s, err := collect.NewSampler(ns.NewRegistry(), provs, collect.Options{Now: clock, Deadline: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Sample(context.Background()); err != nil {
		t.Fatal(err)
	}
	snap, err := s.Sample(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	refs, err := s.Registry().Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]ns.Value{}
	for _, r := range refs {
		if !r.IsStat() {
			continue
		}
		if v, _, ok := snap.Lookup(r); ok {
			out[r.Path()] = v
		}
	}
	return out, snap.End
}

// Issue 34's truth: for every host, the values read from pmproxy's series are those dcimon reads
// from the same archive directly (--archive), by the same reading and namespace code, at several
// times including the first and the last sample: the counters' rates (busy, reads per second),
// the quantities, every disk's name.
func TestSeriesEqualsArchives(t *testing.T) {
	f := archivetest.Fleet{Hosts: 3, Disks: 4, Samples: 31}
	_, bases, s := seriesFleet(t, f)
	if got := strings.Join(s.Hosts(), ","); got != "node000,node001,node002" {
		t.Fatalf("hosts %s", got)
	}
	if first, last := s.Span(); !first.Equal(archivetest.Start) || !last.Equal(archivetest.Start.Add(300*time.Second+20*time.Millisecond)) {
		t.Fatalf("span %v – %v", first, last)
	}
	for _, at := range []time.Time{
		archivetest.Start,                                            // the first sample: the first reading has no rate, the second its first
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
			if valid == 0 {
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
