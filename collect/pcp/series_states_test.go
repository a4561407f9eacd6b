package pcp

import (
	"context"
	"testing"
	"time"

	"dcimon/internal/archivetest"
)

// Issue 40 item 7: --series and --archive give the same state and reason for every value of
// every class, not only the disks', at a time between samples.
func TestSeriesStatesEqualArchives(t *testing.T) {
	f := archivetest.Fleet{Hosts: 2, Disks: 2, Samples: 12}
	_, bases, s := seriesFleet(t, f)
	at := archivetest.Start.Add(55 * time.Second)
	aprovs, as, err := ArchiveProviders(bases, at, false)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := OpenSeries(context.Background(), SeriesOptions{URL: s.URL()})
	if err != nil {
		t.Fatal(err)
	}
	sprovs, err := SeriesProviders(s2, at, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, pattern := range []string{"node*/*/*", "node*/*/*/*"} { // the hosts' classes (Monitor says how each was read)
		want, _ := twoReadings(t, aprovs, as.Clock, pattern)
		got, _ := twoReadings(t, sprovs, s2.Clock, pattern)
		if len(want) < 20 {
			t.Fatalf("%s: %d values from the archives", pattern, len(want))
		}
		for _, p := range sortedKeys(want) {
			w, g := want[p], got[p]
			if w.State != g.State || w.Reason != g.Reason {
				t.Errorf("%s: series %v (%v), archives %v (%v)", p, g.State, g.Reason, w.State, w.Reason)
			}
		}
		for p := range got {
			if _, ok := want[p]; !ok {
				t.Errorf("%s: in the series, not in the archives", p)
			}
		}
	}
}
