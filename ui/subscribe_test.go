package ui

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	ns "dcimon/namespace"
)

// successes is how many collections of the named provider have succeeded.
func successes(t *testing.T, src *synthSampler, module string) uint64 {
	t.Helper()
	for _, st := range src.Status() {
		if st.Supplier.Module == module {
			return st.Successes
		}
	}
	t.Fatalf("no provider %s", module)
	return 0
}

// TestMonitorReadsWhatItShows: the monitor subscribes to the classes on screen (the selection
// and the hotsets' peers), so a provider nothing on screen needs is read only every few seconds
// (SPMI-FEAT-2, SPMI-DDS-6); opening one of its classes subscribes to it and collects at once.
func TestMonitorReadsWhatItShows(t *testing.T) {
	src := newSynthSampler(t, "synthetic:disks=3,nics=2,cpus=2,seed=1")
	m := newModel(t, src, 120, 40, 3)
	// The default screen: CPU selected; hotsets on disks, interfaces and processors.
	for _, mod := range []string{"synthetic-cpu", "synthetic-disk", "synthetic-net"} {
		if n := successes(t, src, mod); n != 3 {
			t.Errorf("%s read %d times in 3 collections, want 3", mod, n)
		}
	}
	// Memory and the host are on no pane: read by the first collection only (the next slow
	// read is due 5 s after it, and the synthetic clock has moved 3 s).
	for _, mod := range []string{"synthetic-mem", "synthetic-host"} {
		if n := successes(t, src, mod); n != 1 {
			t.Errorf("%s read %d times in 3 collections, want 1", mod, n)
		}
	}
	// Open memory moments after a collection: it is subscribed to, and the next beat reads it
	// (a collection at once would give rates over milliseconds).
	m = keys(t, m, ":Mem/Real")
	m = send(t, m, specialKey(t, "enter"))
	if m.inflight {
		t.Fatal("opening Mem/Real right after a collection started another")
	}
	if !slices.ContainsFunc(m.sub.classes, func(c *ns.Class) bool { return c.Name == "Real" }) {
		t.Fatalf("subscribed to %d classes, none of them Mem/Real", len(m.sub.classes))
	}
	// Half a second later, opening it collects at once.
	m = keys(t, m, ":CPU{enter}")
	start := m.now()
	m.now = func() time.Time { return start.Add(500 * time.Millisecond) }
	m = keys(t, m, ":Mem/Real")
	m, cmd := sendCmd(t, m, specialKey(t, "enter"))
	if !m.inflight || cmd == nil {
		t.Fatalf("opening Mem/Real started no collection (inflight %v)", m.inflight)
	}
	// A beat while that collection runs is not a slow tick.
	m = send(t, m, tickMsg{seq: m.tickSeq})
	if m.skipped != 0 {
		t.Fatalf("%d slow ticks counted for the collection of a class that came on screen", m.skipped)
	}
	m = send(t, m, sampleCmd(context.Background(), m.src, m.now)())
	if n := successes(t, src, "synthetic-mem"); n != 2 {
		t.Errorf("synthetic-mem read %d times after opening Mem/Real, want 2", n)
	}
	m = collectOnce(t, m)
	if n := successes(t, src, "synthetic-mem"); n != 3 {
		t.Errorf("synthetic-mem read %d times at the next tick, want 3", n)
	}
	// The host is still off screen.
	if n := successes(t, src, "synthetic-host"); n != 1 {
		t.Errorf("synthetic-host read %d times, want 1", n)
	}
}

// TestWideTreeSubscribesItsVisibleStatistics: at 80×24 the tree is the whole screen and shows
// values beside statistic names, so the classes of the statistics in view are read at every
// collection; those scrolled out of view are not.
func TestWideTreeSubscribesItsVisibleStatistics(t *testing.T) {
	src := newSynthSampler(t, "synthetic:disks=2,nics=1,cpus=2,seed=1")
	m := newModel(t, src, 80, 24, 2)
	if !m.tree.showsValues() {
		t.Fatalf("tree %d wide shows no values", m.tree.w)
	}
	subscribed := func(name string) bool {
		return slices.ContainsFunc(m.sub.classes, func(c *ns.Class) bool { return c.Name == name })
	}
	if subscribed("Host") {
		t.Fatal("Host subscribed while out of view")
	}
	// Pressure follows Host in the tree: going to it scrolls Host's statistics into view above it.
	m = keys(t, m, ":Pressure{enter}")
	if m.sel.Ctx == nil || m.sel.Ctx.Name != "Pressure" {
		t.Fatalf("selection %v, want Pressure", m.sel.Ctx)
	}
	if !subscribed("Host") {
		t.Fatalf("Host's statistics in view but not subscribed (%d classes)", len(m.sub.classes))
	}
	if !strings.Contains(plainView(m), "load15") {
		t.Fatalf("Host's statistics not on screen:\n%s", plainView(m))
	}
}
