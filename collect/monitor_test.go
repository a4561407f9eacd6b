package collect_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"dcimon/collect"
	ns "dcimon/namespace"
)

// threadCPU is the calling thread's CPU time.
func threadCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		t.Skipf("getrusage(RUSAGE_THREAD): %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestMonitorCountsOwnCPUPrecisely: dcimon uses about a millisecond a second, so its own CPU must
// be counted finer than /proc/self/stat's 10 ms ticks, or its share reads 0% or 1% by chance.
func TestMonitorCountsOwnCPUPrecisely(t *testing.T) {
	s, err := collect.NewSampler(ns.NewRegistry(), nil, collect.Options{Liveness: 0})
	if err != nil {
		t.Fatal(err)
	}
	cpu := func(snap *ns.Snapshot) uint64 {
		ref, err := s.Registry().Lookup(nil, "Monitor/cpu_us")
		if err != nil {
			t.Fatal(err)
		}
		v, ok := snap.Class(ref.Ctx.Stats).Value(ref.Ctx.StatsInst, ref.Ctx.Stats.DatumByName("cpu_us"))
		if !ok || v.State == ns.Invalid || v.State == ns.Unavailable {
			t.Fatalf("cpu_us: %+v", v)
		}
		return v.N
	}
	first, err := s.Sample(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c0 := cpu(first)
	// Burn 3 ms of this thread's CPU: the process's count must grow by at least that.
	runtime.LockOSThread()
	start := threadCPU(t)
	for threadCPU(t)-start < 3*time.Millisecond {
	}
	runtime.UnlockOSThread()
	second, err := s.Sample(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if d := cpu(second) - c0; d < 3000 {
		t.Errorf("cpu_us grew by %d µs over 3 ms of CPU", d)
	}
}
