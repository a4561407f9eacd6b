package synthetic

import (
	"context"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	ns "dcimon/namespace"
)

// BenchmarkSyntheticCollect10k is one collection of the synthetic disk provider with 10,000
// disks (and 5,000 partitions: every fourth disk has two).
func BenchmarkSyntheticCollect10k(b *testing.B) {
	clk := time.Unix(1_800_000_000, 0)
	s := New(Options{Disks: 10000, Parts: 2, NICs: 64, CPUs: 128, Seed: 7, Now: func() time.Time { return clk }})
	p := s.provs[SynthDisk]
	ctx := context.Background()
	if _, err := p.Collect(ctx, collect.Request{Static: true, Variable: true}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		clk = clk.Add(time.Second)
		if _, err := p.Collect(ctx, collect.Request{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSyntheticSample10k is collection, instance sync and snapshot for the whole synthetic
// source with 10,000 disks, without the sampler's goroutines (the sampler's own benchmark
// measures those).
func BenchmarkSyntheticSample10k(b *testing.B) {
	clk := time.Unix(1_800_000_000, 0)
	h := collecttest.NewHarness(b, Providers(Options{Disks: 10000, Parts: 2, NICs: 64, CPUs: 128, Seed: 7,
		Now: func() time.Time { return clk }}))
	h.Step(collect.Request{Static: true, Variable: true})
	var older *ns.Snapshot
	b.ReportAllocs()
	for b.Loop() {
		clk = clk.Add(time.Second)
		prev := h.Snap
		h.StepReuse(collect.Request{}, older)
		older = prev
	}
}
