package ui

import (
	"context"
	"runtime"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/synthetic"
	ns "dcimon/namespace"
)

// TestNoGrowthUnderChurn runs the monitor over the synthetic source for 1,200 collections while
// disks and interfaces come and go at every one, drawing a frame each time, and checks the live
// heap after the second half is no larger than after the first (plus a margin): whatever the
// monitor keeps per instance (rows, rings, events, subscriptions, registry slots) must go with
// the instance.
func TestNoGrowthUnderChurn(t *testing.T) {
	if testing.Short() {
		t.Skip("a soak")
	}
	opt, err := synthetic.Parse("synthetic:disks=20,parts=2,nics=6,cpus=4,seed=3")
	if err != nil {
		t.Fatal(err)
	}
	now := fixtureNow
	clock := func() time.Time { return now }
	opt.Now = clock
	syn := synthetic.New(opt)
	const ticks = 1200
	for k := 1; k < ticks; k++ {
		// Every collection adds a disk and an interface and removes one of each.
		syn.Script(k, synthetic.SynthAction{Kind: synthetic.SynthAddDisks, N: 1})
		syn.Script(k, synthetic.SynthAction{Kind: synthetic.SynthRemoveDisk, N: k % 20})
		syn.Script(k, synthetic.SynthAction{Kind: synthetic.SynthAddNICs, N: 1})
		syn.Script(k, synthetic.SynthAction{Kind: synthetic.SynthRemoveNIC, N: k % 6})
	}
	sampler, err := collect.NewSampler(ns.NewRegistry(), syn.Providers(), collect.Options{Now: clock, Liveness: 0})
	if err != nil {
		t.Fatal(err)
	}
	src := &synthSampler{Sampler: sampler, now: now}
	m := newModel(t, src, 200, 60, 0)
	m = keys(t, m, ":Disk{enter}2") // the disk table, whose rows churn
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	var half uint64
	for i := 0; i < ticks; i++ {
		now = now.Add(time.Second)
		m = send(t, m, sampleCmd(context.Background(), m.src, func() time.Time { return now })())
		_ = m.View()
		if i == ticks/2 {
			half = heap()
		}
		disks := 0
		for _, r := range m.values.rows {
			if r.depth == 0 && !r.gone {
				disks++
			}
		}
		if got := disks; i > 0 && got != 20 {
			t.Fatalf("collection %d: %d disks in the table, want 20 (the churn keeps the count)", i, got)
		}
	}
	end := heap()
	runtime.KeepAlive(m) // measured with the monitor alive, as the first half was
	t.Logf("live heap after %d collections: %d KiB; after %d: %d KiB", ticks/2, half>>10, ticks, end>>10)
	if end > half+half/4+256<<10 {
		t.Errorf("the live heap grew from %d KiB to %d KiB over the second half", half>>10, end>>10)
	}
}
