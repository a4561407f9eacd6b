package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"dcimon/internal/archivetest"
)

// stepSamples is how many samples each archive of steppingFleet has.
const stepSamples = 8

// steppingFleet is a fleet of two hosts' archives, one a second apart each, node000 with every
// sample and node001 without its fourth (a loaded pmlogger's miss), as the commands take them.
func steppingFleet(t *testing.T) Common {
	t.Helper()
	full, err := archivetest.WriteFleet(t.TempDir(), archivetest.Fleet{Hosts: 2, Disks: 1, Samples: stepSamples, Step: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	gap, err := archivetest.WriteFleet(t.TempDir(), archivetest.Fleet{Hosts: 2, Disks: 1, Samples: stepSamples, Step: time.Second, Gap: [2]int{3, 4}})
	if err != nil {
		t.Fatal(err)
	}
	return Common{Archives: []string{full[0], gap[1]}, Fleet: true, JSON: true}
}

// Issue 40, Truth: the hosts table of several archives shows each host's last sample at or before
// the reading's time, even when one host's pmlogger missed a sample (a loaded one does): node001
// misses its fourth sample, node000 does not, and from then on node000's figures must not be
// those of a sample before or after the reading's. Read a sample of each archive a reading, as
// before, node001 ran a sample ahead of node000 after its gap.
func TestHostsOfArchivesStepTogether(t *testing.T) {
	archives := steppingFleet(t)
	var out bytes.Buffer
	if err := Hosts(context.Background(), HostsOptions{Common: archives}, RealEnv(), &out); err != nil {
		t.Fatal(err)
	}
	// Host h's samples are at start + h×10 ms + k s; its busiest (only) disk's share over the
	// interval ending at sample k is FleetBusy(h, 0, k), and over the gap the mean of the two.
	start := archivetest.Start
	want := func(h int, at time.Time, missing int) float64 {
		k := int(at.Sub(start.Add(time.Duration(h)*10*time.Millisecond)) / time.Second)
		if k == missing {
			k-- // no sample then: the one before stays
		}
		if k == missing+1 {
			return float64(archivetest.FleetBusy(h, 0, k)+archivetest.FleetBusy(h, 0, k-1)) / 2
		}
		return float64(archivetest.FleetBusy(h, 0, k))
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for _, l := range lines {
		var r hostsReading
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		for h, hj := range r.Hosts {
			missing := -10
			if h == 1 {
				missing = 3
			}
			got := math.NaN()
			if hj.Disk != nil {
				got = *hj.Disk
			}
			if w := want(h, r.Time, missing); !(math.Abs(got-w) <= 1e-9) {
				t.Errorf("%s %s: busiest disk %v, want %v", r.Time.Format("15:04:05.000"), hj.Name, got, w)
			}
		}
	}
	if len(lines) < stepSamples-2 {
		t.Errorf("%d readings of %d samples:\n%s", len(lines), stepSamples, out.String())
	}
}

// The same for get and hot (h40c found them a sample late as the hosts table was): a reading of
// several archives shows each host's last sample at or before the reading's time.
func TestGetAndHotOfArchivesStepTogether(t *testing.T) {
	archives := steppingFleet(t)
	start := archivetest.Start
	// want is host h's busiest disk at the reading's time, as TestHostsOfArchivesStepTogether says.
	want := func(h int, at time.Time) float64 {
		k := int(at.Sub(start.Add(time.Duration(h)*10*time.Millisecond)) / time.Second)
		if h == 1 && k == 3 {
			k-- // no sample then: the one before stays
		}
		if h == 1 && k == 4 {
			return float64(archivetest.FleetBusy(h, 0, k)+archivetest.FleetBusy(h, 0, k-1)) / 2
		}
		return float64(archivetest.FleetBusy(h, 0, k))
	}
	host := func(path string) int {
		if strings.Contains(path, "node001") {
			return 1
		}
		return 0
	}

	var out bytes.Buffer
	if err := Get(context.Background(), GetOptions{Common: archives, Paths: []string{"/*/Disk/*/busy"}}, RealEnv(), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for _, l := range lines {
		var r struct {
			Time   time.Time   `json:"time"`
			Values []jsonValue `json:"values"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		for _, v := range r.Values {
			if v.Value == nil {
				continue // the gap's reading may have no rate: never a wrong one
			}
			if w := want(host(v.Path), r.Time); math.Abs(*v.Value-w) > 1e-9 {
				t.Errorf("get %s %s: %v, want %v", r.Time.Format("15:04:05.000"), v.Path, *v.Value, w)
			}
		}
	}
	if len(lines) < stepSamples-2 {
		t.Errorf("get: %d readings of %d samples:\n%s", len(lines), stepSamples, out.String())
	}

	out.Reset()
	if err := Hot(context.Background(), HotOptions{Common: archives, Grandparent: "*/Disk", Stat: "busy", Max: 5, Feed: "always"}, RealEnv(), &out); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r struct {
			Time time.Time `json:"time"`
			Sets []hotJSON `json:"sets"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || len(r.Sets) != 1 {
			t.Fatal(err, l)
		}
		for _, it := range r.Sets[0].Items {
			if it.Value == nil {
				continue
			}
			if w := want(host(it.Path), r.Time); math.Abs(*it.Value-w) > 1e-9 {
				t.Errorf("hot %s %s: %v, want %v", r.Time.Format("15:04:05.000"), it.Path, *it.Value, w)
			}
		}
	}
}
