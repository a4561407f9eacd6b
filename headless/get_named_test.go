package headless

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"dcimon/collect"
	ns "dcimon/namespace"
)

// readCounter is a provider that counts, for each class, the collections that read it.
type readCounter struct {
	collect.Provider
	mu    *sync.Mutex
	reads map[string]int // class name → collections that read it
}

func (r readCounter) Collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	b, err := r.Provider.Collect(ctx, req)
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range b.Classes {
		r.reads[c.Class.Name]++
	}
	return b, err
}

// counting is a Common.watch that counts every provider's reads into reads.
func counting(reads map[string]int) func([]collect.Provider) []collect.Provider {
	var mu sync.Mutex
	return func(provs []collect.Provider) []collect.Provider {
		out := make([]collect.Provider, len(provs))
		for i, p := range provs {
			out[i] = readCounter{Provider: p, mu: &mu, reads: reads}
		}
		return out
	}
}

// issue 38 item 1: `get` reads only the classes its paths name, its first reading included:
// `Disk/*/busy` reads the disks and no partition (5,000 of them beside 10,000 disks were read
// for nothing), nor any other class; a partition's path reads the partitions and the disks
// they hang under. What is printed is what it was.
func TestGetReadsOnlyTheClassesNamed(t *testing.T) {
	for _, tc := range []struct {
		paths        []string
		read, unread []string
		want         string
	}{
		{[]string{"Disk/*/busy"}, []string{"disk"}, []string{"part", "total", "cpu", "netif", "fs", "Host", "Real", "proc"}, "Disk/sdb/busy"},
		{[]string{"/synthetic-1/Disk/sda/reads"}, []string{"disk"}, []string{"part", "total"}, "Disk/sda/reads"},
		{[]string{"Disk/*/*/busy"}, []string{"disk", "part"}, []string{"total", "netif"}, "Disk/sda/sda1/busy"},
		{[]string{"CPU/busy", "NetIf/*/ibytes"}, []string{"total", "netif"}, []string{"cpu", "disk", "part", "fs"}, "NetIf/eth0/ibytes"},
		// Beside a path that names nothing, the other is read alone.
		{[]string{"Nope/x", "CPU/busy"}, []string{"total"}, []string{"disk", "part"}, "CPU/busy"},
		// The Monitor class says how every provider's collections go: all are read.
		{[]string{"Monitor/synthetic-cpu/error"}, []string{"total", "disk", "part"}, nil, "Monitor/synthetic-cpu/error"},
		// Paths that name no class confine nothing: why they name nothing is found as before.
		{[]string{"Nope/x"}, []string{"total", "disk", "part"}, nil, ""},
	} {
		reads := map[string]int{}
		env := Env{Now: time.Now, Loc: time.UTC, Getenv: func(string) string { return "" },
			Sleep: func(context.Context, time.Duration) error { return nil }}
		var out bytes.Buffer
		err := Get(context.Background(), GetOptions{Common: Common{Source: "synthetic:cpus=2,disks=2,nics=1,seed=3", watch: counting(reads)},
			Paths: tc.paths, Interval: time.Second, Count: 2}, env, &out)
		if (err != nil) != (tc.paths[0] == "Nope/x") {
			t.Fatalf("get %v: %v", tc.paths, err)
		}
		for _, c := range tc.read {
			if reads[c] == 0 {
				t.Errorf("get %v: %s never read", tc.paths, c)
			}
		}
		for _, c := range tc.unread {
			if reads[c] != 0 {
				t.Errorf("get %v: %s read %d times, want none (the paths do not name it)", tc.paths, c, reads[c])
			}
		}
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("get %v printed no %s:\n%s", tc.paths, tc.want, out.String())
		}
	}
}

// issue 38 item 1: `hot Disk busy` reads its peers' class, the disks, and no partition; the
// ranking is the same.
func TestHotReadsOnlyItsPeers(t *testing.T) {
	reads := map[string]int{}
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	env := Env{Now: func() time.Time { return now }, Loc: time.UTC, Getenv: func(string) string { return "" },
		Sleep: func(_ context.Context, d time.Duration) error { now = now.Add(d); return nil }}
	var out bytes.Buffer
	err := Hot(context.Background(), HotOptions{Common: Common{Source: "synthetic:cpus=2,disks=3,seed=3", watch: counting(reads)},
		Grandparent: "Disk", Stat: "busy", Max: 5, Feed: "always", Interval: time.Second, Count: 2}, env, &out)
	if err != nil {
		t.Fatal(err)
	}
	if reads["disk"] == 0 || reads["part"] != 0 || reads["total"] != 0 {
		t.Errorf("hot Disk busy read disks %d, partitions %d and processors %d times, want the disks only", reads["disk"], reads["part"], reads["total"])
	}
	if strings.Count(out.String(), "top 3 of 3") != 2 || strings.Contains(out.String(), " 0.0%") {
		t.Errorf("hot Disk busy did not rank the 3 disks:\n%s", out.String())
	}
}

// issue 38 item 1: the classes a path names, before any instance is known and after.
func TestClassesNamedBeforeAndAfterTheFirstReading(t *testing.T) {
	s, err := OpenSampler(Common{Source: "synthetic:cpus=2,disks=2,nics=1,seed=3"}, Env{Now: time.Now, Loc: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	names := func(cs []*ns.Class) string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return strings.Join(out, ",")
	}
	cases := map[string]string{
		"Disk/*/busy":      "disk",
		"Disk/sda/busy":    "disk",
		"Disk/*/*/busy":    "disk,part", // partitions bring the disks they hang under
		"Disk/*/sda1/busy": "disk,part",
		"Disk/*":           "", // contexts: no statistic
		"CPU/busy":         "total",
		"CPU/cpu[01]/kern": "cpu",
		"CPU/*":            "total",
		"Mem/Real/*":       "Real",
		"*/*/busy":         "cpu,disk",
		"Nope/x":           "",
	}
	for _, when := range []string{"before", "after"} {
		for p, want := range cases {
			if got := names(s.Registry().ClassesNamed(p)); got != want {
				t.Errorf("%s the first reading: ClassesNamed(%s) = %q, want %q", when, p, got, want)
			}
		}
		if _, err := s.Sample(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}
