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
	h, _ := liveMemory()
	return h
}

// liveMemory is the heap and the goroutines' stacks in use after a collection, once the
// garbage is gone (a provider's goroutine outlives its collection: collect/worker.go).
func liveMemory() (heap, stacks uint64) {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc, ms.StackInuse
}

// BenchmarkNativeFleetMemory is issue 38's figure of what one more host costs in memory: the
// heap held by a fleet of 101 hosts (8 processors, 16 disks, 4 interfaces each, read natively
// from a fake pmcd) less that of one host, over 100, after three collections (two snapshots
// kept, the registry, each host's declarations, plans and buffers). bytes/host is the figure;
// stack-bytes/host is what the hosts' goroutines hold beside it (each provider keeps one between
// collections); ns/op is nothing to go by (a fleet is built per op).
func BenchmarkNativeFleetMemory(b *testing.B) {
	addr := fleetProcess(b, "TestFleetPMCDServe", "DCIMON_FLEET_PMCD=8,16,4", "FLEETPMCD ")
	var per, stack float64
	for b.Loop() {
		base, _ := liveMemory()
		one := nativeFleetSampler(b, addr, 1, 16)
		if _, err := one.Sample(context.Background()); err != nil {
			b.Fatal(err)
		}
		h1 := liveHeap() - base
		runtime.KeepAlive(one)
		one = nil
		base, s1 := liveMemory()
		many := nativeFleetSampler(b, addr, 101, 16)
		if _, err := many.Sample(context.Background()); err != nil {
			b.Fatal(err)
		}
		h, s101 := liveMemory()
		h101 := h - base
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
		stack = float64(int64(s101)-int64(s1)) / 101
	}
	b.ReportMetric(per, "bytes/host")
	b.ReportMetric(stack, "stack-bytes/host")
}
