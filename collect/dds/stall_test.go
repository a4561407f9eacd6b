package dds

import (
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Issue 41 item 2: a supplier's file whose read never answers (a stalled network file system; a
// link to /proc/kmsg) fails its own supplier within the file's wait, with the reason, and
// nothing else waits on it: the other supplier is read, the supplier's classes are asked for
// without waiting, and later collections do not pile reads up.
func TestDDSStalledFileBlocksNothing(t *testing.T) {
	h := newDDSHarness(t, 0)
	release := make(chan struct{})
	defer close(release)
	var reads atomic.Int32
	h.dds.readText = func(path string, max int) ([]byte, error) {
		if filepath.Base(path) == "stalled.prom" {
			reads.Add(1)
			<-release
		}
		return readBounded(path, max)
	}
	h.write("good.prom", "up 1\n", time.Second)
	h.write("stalled.prom", "up 2\n", time.Second)
	for i := range 3 {
		start := time.Now()
		h.tick(time.Second)
		if d := time.Since(start); d > 3*fileWait {
			t.Errorf("collection %d took %v", i, d)
		}
	}
	if v := h.value("DDS/good/up/value"); v.V != 1 {
		t.Errorf("the other supplier: %+v", v)
	}
	st, err := monitorRow(h, "dds:stalled.prom")
	if st != "failing" || err == nil || !strings.Contains(err.Error(), "does not answer") {
		t.Errorf("the stalled supplier: %s %v, want failing because the file does not answer", st, err)
	}
	done := make(chan struct{})
	go func() {
		h.dds.mu.Lock()
		var sups []*ddsSupplier
		for _, p := range h.dds.sups {
			sups = append(sups, p)
		}
		h.dds.mu.Unlock()
		for _, p := range sups {
			p.Classes()
			p.Warning()
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("asking the stalled supplier for its classes waited on its file")
	}
	if n := reads.Load(); n != 1 {
		t.Errorf("%d reads of the stalled file started, want 1 at a time", n)
	}
}
