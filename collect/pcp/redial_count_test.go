package pcp

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"dcimon/internal/pcptest"
)

// Issue 40 (budgets): a host that is down is dialled on its backoff, not at every collection.
// A refused host read every 100 ms for a minute of a fake clock (600 collections) is dialled
// once at the start and then after pauses that double from 1 s to 30 s, each from half to one
// and a half of it: at most 9 dials, never one a collection (a busy redial loop was suspected
// of the 75% CPU of a fleet of hosts all down at 100 ms; it was not the cause: hotset plans
// were, TestFleetPlanCopiesTheClassesOnce).
func TestDownHostDialsOnItsBackoff(t *testing.T) {
	provs, err := Fleet(Options{Interval: 100 * time.Millisecond}, []Host{{Name: "down", Spec: fmt.Sprintf("127.0.0.1:%d", pcptest.FreePort(t))}})
	if err != nil {
		t.Fatal(err)
	}
	h := provs[0].(*pcpHost)
	now := time.Now()
	dials := 0
	for range 600 {
		now = now.Add(100 * time.Millisecond)
		was := h.dl.running
		_ = h.ensureLink(now)
		if h.dl.running && !was {
			dials++
		}
		if h.dl.running { // let the refused dial finish before the next collection, as it would in 100 ms
			l := <-h.dl.done
			h.dl.done <- l
		}
	}
	if dials < 4 || dials > 9 {
		t.Errorf("%d dials in 600 collections (a minute), want 4 to 9", dials)
	}
}

// Issue 40 (budgets): a host that is down says why at every collection without making its
// error again while what it says is the same (a thousand hosts down at 100 ms spent a tenth of
// a processor formatting them).
func TestNotConnectedSaidOnce(t *testing.T) {
	provs, err := Fleet(Options{Interval: 100 * time.Millisecond}, []Host{{Name: "down", Spec: fmt.Sprintf("127.0.0.1:%d", pcptest.FreePort(t))}})
	if err != nil {
		t.Fatal(err)
	}
	h := provs[0].(*pcpHost)
	first := h.notConnected()
	if n := testing.AllocsPerRun(10, func() { _ = h.notConnected() }); n != 0 {
		t.Errorf("%v allocations a reading for the same words", n)
	}
	h.dl.lastErr, h.dl.backoff = errNotConnected, 2*time.Second
	if again := h.notConnected(); again == first || !strings.Contains(again.Error(), "every 2s") {
		t.Errorf("a new failure said as the old one: %v", again)
	}
}
