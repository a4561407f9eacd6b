package namespace

import (
	"runtime"
	"testing"
	"time"
)

// heapInUse is the heap held once the garbage is collected.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkInstanceMemory is issue 38's figure of what one more instance costs in memory: the
// heap held by a class of 20 datums (benchClass) with 11,000 instances, registered, and its
// latest snapshot (the second made: rates), less that with 1,000, over 10,000. bytes/instance is the figure; ns/op is
// nothing to go by.
func BenchmarkInstanceMemory(b *testing.B) {
	held := func(n int) (uint64, any) {
		base := heapInUse()
		r, c, insts := benchClass(b, n)
		raw := make([]Raw, len(insts)*len(c.Datums))
		now := t0
		var prev *Snapshot
		for range 2 {
			now = now.Add(time.Second)
			s := Sample{Start: now, End: now, Classes: []ClassSample{{Class: c, Time: now, Insts: insts, Raw: raw}}}
			prev = Next(prev, &s, nil)
		}
		raw = nil // a provider's reading is not kept by the name space
		return heapInUse() - base, []any{r, prev}
	}
	var per float64
	for b.Loop() {
		small, keep1 := held(1000)
		large, keep2 := held(11000)
		per = float64(int64(large)-int64(small)) / 10000
		runtime.KeepAlive(keep1)
		runtime.KeepAlive(keep2)
	}
	b.ReportMetric(per, "bytes/instance")
}
