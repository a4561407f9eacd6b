package dds

import (
	"runtime/debug"
	"sync/atomic"
	"time"

	"dcimon/supply"
)

// Memory given back (issue 33, item 7). The series of a large text that went (the file removed,
// or rewritten with fewer series) are freed by the collector once the name space has dropped
// their instances, but the Go runtime returns the pages to the system only slowly, so dcimon's
// resident memory would stay near its peak for minutes. When at least releaseSeries series have
// gone, the next discovery (2 s later, when the sampler has dropped them) asks the runtime to
// return what is free at once: one forced collection, at most every releaseEvery. The runtime's
// own limit (GOMEMLIMIT) is left as the user set it.
const (
	releaseSeries = 10_000
	releaseEvery  = 10 * time.Second
)

// release counts the series gone and gives memory back when enough have.
type release struct {
	gone atomic.Int64
	last atomic.Int64 // unix nanoseconds of the last release
	free func()       // debug.FreeOSMemory; tests count the calls
}

// went counts n series gone.
func (r *release) went(n int) {
	if n > 0 {
		r.gone.Add(int64(n))
	}
}

// maybe gives memory back when enough series went, not more often than releaseEvery; it
// reports whether it did.
func (r *release) maybe(now time.Time) bool {
	if r.gone.Load() < releaseSeries || now.UnixNano()-r.last.Load() < int64(releaseEvery) {
		return false
	}
	r.gone.Store(0)
	r.last.Store(now.UnixNano())
	free := r.free
	if free == nil {
		free = debug.FreeOSMemory
	}
	go free() // a full collection: not on the sampler's time
	return true
}

// seriesOf is how many series a text has; 0 for none.
func seriesOf(doc *supply.Doc) int {
	if doc == nil {
		return 0
	}
	n := 0
	for i := range doc.Families {
		n += len(doc.Families[i].Series)
	}
	return n
}

// freeOS is debug.FreeOSMemory, for tests that count the calls.
func freeOS() { debug.FreeOSMemory() }
