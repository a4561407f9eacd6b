package pmcd

import (
	"context"
	"syscall"
	"testing"
	"time"

	"dcimon/internal/pcptest"
	"dcimon/pcpwire"
)

// cpuTime is this process's CPU time so far (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// hostMetricNames are up to n metrics of the local pmcd's Linux PMDA of the kinds dcimon's
// classes read (processors, disks, interfaces, memory, the kernel's totals).
func hostMetricNames(b *testing.B, c *Conn, n int) []uint32 {
	ctx := context.Background()
	var names []string
	for _, node := range []string{"kernel.percpu.cpu", "kernel.all", "disk.dev", "network.interface", "mem.util", "swap", "network.tcp"} {
		got, err := c.Traverse(ctx, node)
		if err != nil {
			b.Fatal(err)
		}
		names = append(names, got...)
	}
	ids, descs := described(b, ctx, c, names)
	var out []uint32
	for i, d := range descs {
		if d.PMID != pcpwire.PMIDNull && d.Type != pcpwire.TypeEvent && d.Type != pcpwire.TypeHREvent && len(out) < n {
			out = append(out, ids[i])
		}
	}
	return out
}

// BenchmarkFetchRoundTrip is one fetch of 136 metrics from the real local pmcd, request sent,
// answer read and decoded into a reused result: wall time and allocations per fetch, and this
// process's own CPU (cpu-ns/op: pmcd's is not counted) and the answer's size.
func BenchmarkFetchRoundTrip(b *testing.B) {
	p := pcptest.Start(b)
	c := dial(b, p.Hostspec())
	ids := hostMetricNames(b, c, 136)
	var r pcpwire.Result
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	if _, err := c.Fetch(ctx, ids, &r); err != nil {
		b.Fatal(err)
	}
	values := 0
	for _, s := range r.Sets {
		values += len(s.Values)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		if _, err := c.Fetch(ctx, ids, &r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(ids)), "metrics")
	b.ReportMetric(float64(values), "values")
}
