package ui

import (
	"strings"
	"testing"

	ns "dcimon/namespace"
)

// TestEventsSelectionInspectAndOpen: the events pane has a cursor; the selected event is shown
// whole in the inspector (a provider error is longer than its row), enter opens its context in
// the tree, and new events arriving above keep the cursor on the event it was on.
func TestEventsSelectionInspectAndOpen(t *testing.T) {
	src := newFixture(t, 2, 2, "eth0")
	m := newModel(t, src, 200, 60, 2)
	m = keys(t, m, "5")
	e, ok := m.events.Selected()
	if !ok {
		t.Fatal("no event selected")
	}
	if !strings.Contains(plainView(m), "event "+e.Kind.String()) {
		t.Fatalf("the inspector does not show the selected event %v:\n%s", e.Kind, plainView(m))
	}
	// Down to an instance's event, and open it in the tree.
	for e.Kind != ns.EvInstanceAdded || !strings.HasPrefix(e.Path, "Disk/") {
		before := m.events.cursor
		m = keys(t, m, "j")
		if m.events.cursor == before {
			t.Fatal("no event for a disk")
		}
		e, _ = m.events.Selected()
	}
	m = keys(t, m, "{enter}")
	if got := m.sel.Ctx.Path(); got != e.Path {
		t.Fatalf("enter on %s selected %q in the tree", e.Path, got)
	}
	// Back in the events pane, further down: a new event arrives above and the cursor stays on
	// the same event.
	m = keys(t, m, "5j")
	kept, _ := m.events.Selected()
	src.NICs = []string{"eth0", "eth9"}
	src.FailNet = false
	m = collectOnce(t, m)
	if now, _ := m.events.Selected(); !sameEvent(now, kept) {
		t.Fatalf("the cursor moved from %v %s to %v %s as an event arrived", kept.Kind, kept.Path, now.Kind, now.Path)
	}
	// At the top, the pane follows the newest.
	m = keys(t, m, "g")
	src.NICs = []string{"eth0"}
	m = collectOnce(t, m)
	if top, _ := m.events.Selected(); top.Kind != ns.EvInstanceRemoved || top.Path != "NetIf/eth9" {
		t.Fatalf("at the top the selection is %v %s, want the newest (eth9 removed)", top.Kind, top.Path)
	}
}

// TestEventsInspectorShowsLongTextWhole: a provider's error, cut in its row, is whole in the
// inspector.
func TestEventsInspectorShowsLongTextWhole(t *testing.T) {
	m, _ := netFailed(t, 2)
	m = keys(t, m, "5")
	e, _ := m.events.Selected()
	if e.Kind != ns.EvProviderError {
		t.Fatalf("newest event %v, want a provider error", e.Kind)
	}
	insp := stripANSI(m.insp.View())
	if flat := strings.Join(strings.Fields(insp), " "); !strings.Contains(flat, strings.Join(strings.Fields(e.Text), " ")) {
		t.Fatalf("the inspector lacks the error's text %q:\n%s", e.Text, insp)
	}
}
