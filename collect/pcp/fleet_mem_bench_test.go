package pcp

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
)

// liveHeap is the heap in use after a collection, once the garbage is gone.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkNativeFleetMemory is issue 38's figure of what one more host costs in memory: the
// heap held by a fleet of 101 hosts (8 processors, 16 disks, 4 interfaces each, read natively
// from a fake pmcd) less that of one host, over 100, after three collections (two snapshots
// kept, the registry, each host's declarations, plans and buffers). bytes/host is the figure;
// ns/op is nothing to go by (a fleet is built per op).
func BenchmarkNativeFleetMemory(b *testing.B) {
	addr := fleetProcess(b, "TestFleetPMCDServe", "DCIMON_FLEET_PMCD=8,16,4", "FLEETPMCD ")
	var per float64
	for b.Loop() {
		base := liveHeap()
		one := nativeFleetSampler(b, addr, 1, 16)
		if _, err := one.Sample(context.Background()); err != nil {
			b.Fatal(err)
		}
		h1 := liveHeap() - base
		runtime.KeepAlive(one)
		one = nil
		base = liveHeap()
		many := nativeFleetSampler(b, addr, 101, 16)
		if _, err := many.Sample(context.Background()); err != nil {
			b.Fatal(err)
		}
		h101 := liveHeap() - base
		if p := os.Getenv("DCIMON_FLEET_HEAPPROFILE"); p != "" {
			f, err := os.Create(p)
			if err != nil {
				b.Fatal(err)
			}
			_ = pprof.WriteHeapProfile(f)
			f.Close()
		}
		runtime.KeepAlive(many)
		per = float64(int64(h101)-int64(h1)) / 100
	}
	b.ReportMetric(per, "bytes/host")
}
