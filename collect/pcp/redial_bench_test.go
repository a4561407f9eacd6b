package pcp

import (
	"context"
	"fmt"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/internal/pcptest"
	ns "dcimon/namespace"
)

// BenchmarkNativeFleetHung is issue 40's budget: a fleet of 1,000 hosts (8 processors, 16 disks
// and 4 interfaces each, on the fake pmcd of the fleet benchmarks) of which 100 accept and never
// answer keeps its cadence at 1 s: a collection under the deadline of a 1 s interval
// (CollectDeadline: 900 ms) never waits for the hung hosts. max-ms is the longest collection
// seen, which the cadence needs under 1,000 ms; hung-ok counts readings where a hung host was
// taken for one that answers (0).
func BenchmarkNativeFleetHung(b *testing.B) {
	addr := fleetProcess(b, "TestFleetPMCDServe", "DCIMON_FLEET_PMCD=8,16,4", "FLEETPMCD ")
	hung := pcptest.Hung(b)
	for _, every := range []int{0, 10} {
		b.Run(fmt.Sprintf("hung=%d", map[int]int{0: 0, 10: 100}[every]), func(b *testing.B) { fleetHung(b, addr, hung, every) })
	}
}

// fleetHung reads 1,000 hosts of which one in every (none for 0) is hung.
func fleetHung(b *testing.B, addr, hung string, every int) {
	hs := make([]Host, 1000)
	for i := range hs {
		spec := addr
		if every > 0 && i%every == every-1 {
			spec = hung
		}
		hs[i] = Host{Name: fmt.Sprintf("web%04d", i), Spec: spec}
	}
	request := NativeDeadline(len(hs))
	provs, err := Fleet(Options{Interval: time.Second, Deadline: request}, hs)
	s := samplerOf(b, provs, err, collect.Options{Deadline: CollectDeadline(time.Second, request)})
	ctx := context.Background()
	for range 2 { // every answering host connected, with its rates
		if _, err := s.Sample(ctx); err != nil {
			b.Fatal(err)
		}
	}
	var longest time.Duration
	bad := 0
	for b.Loop() {
		t0 := time.Now()
		snap, err := s.Sample(ctx)
		if err != nil {
			b.Fatal(err)
		}
		longest = max(longest, time.Since(t0))
		if ref, err := s.Registry().Lookup(nil, "web0009/CPU/busy"); err == nil && every > 0 {
			if v, _, _ := snap.Lookup(ref); v.State == ns.Valid {
				bad++
			}
		}
	}
	b.ReportMetric(float64(longest)/float64(time.Millisecond), "max-ms")
	b.ReportMetric(float64(bad), "hung-ok")
}
