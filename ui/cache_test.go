package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// uncached is the copy of m with every render cache empty, so its View draws everything from
// the model's state; m's own caches are left as they are.
func uncached(m Model) Model {
	m.fc = &frameCache{}
	m.ver = m.fc.next()
	// The panes are shared by every copy of the model: copy them before emptying their caches,
	// so m itself keeps its own.
	tree, values, hot, insp, events := *m.tree, *m.values, *m.hot, *m.insp, *m.events
	tree.cache = newRenderCache[treeKey]()
	values.cache = newRenderCache[valuesKey]()
	hot.cache = newRenderCache[listViewKey]()
	insp.cache = newRenderCache[inspectorKey]()
	events.cache = newRenderCache[listViewKey]()
	m.tree, m.values, m.hot, m.insp, m.events = &tree, &values, &hot, &insp, &events
	return m
}

// forget empties m's render caches in place, so its next View draws everything: the benchmarks
// of a whole frame use it.
func forget(m *Model) {
	m.fc.ver = 0
	m.fc.panes = [numPanes]framedPane{}
	m.tree.cache.forget()
	m.values.cache.forget()
	m.hot.cache.forget()
	m.insp.cache.forget()
	m.events.cache.forget()
}

// fresh is the frame m's state draws when nothing is cached.
func fresh(m Model) string { return uncached(m).View() }

// TestTickReusesTheFrame: a beat that only starts a collection draws nothing; the same string
// comes back.
func TestTickReusesTheFrame(t *testing.T) {
	m := newModel(t, newFixture(t, 2, 2, "eth0"), 200, 50, 2)
	before := m.View()
	n := m.fc.renders
	m, cmd := sendCmd(t, m, tickMsg{seq: m.tickSeq})
	if cmd == nil || !m.inflight {
		t.Fatal("the beat must start a collection")
	}
	if got := m.View(); got != before {
		t.Fatal("a beat that changes nothing visible must give the same frame")
	}
	if m.fc.renders != n {
		t.Fatalf("a beat that changes nothing visible drew %d frames", m.fc.renders-n)
	}
	// A beat while the collection is still running counts a slow tick: that is shown.
	m = send(t, m, tickMsg{seq: m.tickSeq})
	if got := m.View(); got == before || !strings.Contains(stripANSI(got), "1 slow ticks") {
		t.Fatalf("a slow tick must be shown:\n%s", stripANSI(got))
	}
}

// TestTickClearsTheFlash: the beat that ends a message's time draws the frame without it.
func TestTickClearsTheFlash(t *testing.T) {
	now := fixtureNow
	o := testOptions()
	o.Now = func() time.Time { return now }
	m := New(newFixture(t, 1, 1), o)
	m.after = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m = collectOnce(t, m)
	m = keys(t, m, "+")
	if !strings.Contains(plainView(m), "refresh every 2s") {
		t.Fatal("no flash")
	}
	m = collectOnce(t, m)
	now = now.Add(time.Minute)
	m = send(t, m, tickMsg{seq: m.tickSeq})
	if s := plainView(m); strings.Contains(s, "refresh every 2s") {
		t.Fatal("a stale flash after the beat that ended it")
	}
}

// TestEveryChangeDrawsANewFrame sends each kind of message that changes the screen and checks
// the frame changed and is exactly what an uncached model draws: a cache never shows a stale
// frame.
func TestEveryChangeDrawsANewFrame(t *testing.T) {
	// In colour, so that focus, which only changes colours, shows in the frame.
	lipgloss.SetColorProfile(termenv.TrueColor)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	src := newFixture(t, 4, 4, "eth0", "lo")
	m := newModel(t, src, 200, 50, 2)
	m = keys(t, m, "jj") // a statistic: its value changes at every sample
	steps := []struct {
		name string
		do   func(Model) Model
	}{
		{"sample", func(m Model) Model { return collectOnce(t, m) }},
		{"key down", func(m Model) Model { return keys(t, m, "j") }},
		{"key up", func(m Model) Model { return keys(t, m, "k") }},
		{"resize", func(m Model) Model { return send(t, m, tea.WindowSizeMsg{Width: 160, Height: 45}) }},
		{"resize back", func(m Model) Model { return send(t, m, tea.WindowSizeMsg{Width: 200, Height: 50}) }},
		{"focus values", func(m Model) Model { return keys(t, m, "2") }},
		{"values row", func(m Model) Model { return keys(t, m, "j") }},
		{"focus next", func(m Model) Model { return keys(t, m, "{tab}") }},
		{"focus inspector", func(m Model) Model { return keys(t, m, "4") }},
		{"scroll inspector", func(m Model) Model { return keys(t, m, "j") }},
		{"focus events", func(m Model) Model { return keys(t, m, "5") }},
		{"focus tree", func(m Model) Model { return keys(t, m, "1") }},
		{"collapse", func(m Model) Model { return keys(t, m, "g{enter}") }},
		{"expand", func(m Model) Model { return keys(t, m, "{enter}") }},
		{"filter open", func(m Model) Model { return keys(t, m, "/") }},
		{"filter text", func(m Model) Model { return keys(t, m, "sd") }},
		{"filter sample", func(m Model) Model { return collectOnce(t, m) }},
		{"filter accept", func(m Model) Model { return keys(t, m, "{enter}") }},
		{"filter clear", func(m Model) Model { return keys(t, m, "/{ctrl+u}{esc}") }},
		{"go to", func(m Model) Model { return keys(t, m, ":Disk{enter}") }},
		{"sort", func(m Model) Model { return keys(t, m, "2s") }},
		{"reverse", func(m Model) Model { return keys(t, m, "S") }},
		{"columns", func(m Model) Model { return keys(t, m, "l") }},
		{"table sample", func(m Model) Model { return collectOnce(t, m) }},
		{"pause", func(m Model) Model { return keys(t, m, "p") }},
		{"unpause", func(m Model) Model { return keys(t, m, "p") }},
		{"help", func(m Model) Model { return keys(t, m, "?") }},
		{"help close", func(m Model) Model { return keys(t, m, "{esc}") }},
		{"hot focus", func(m Model) Model { return keys(t, m, "3j") }},
		{"mouse click", func(m Model) Model {
			in := m.lay.Panes[paneTree].Inner
			return send(t, m, tea.MouseMsg{X: in.X + 1, Y: in.Y + 2, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
		}},
		{"mouse wheel", func(m Model) Model {
			in := m.lay.Panes[paneTree].Inner
			return send(t, m, tea.MouseMsg{X: in.X + 1, Y: in.Y + 1, Action: tea.MouseActionPress, Button: tea.MouseButtonWheelDown})
		}},
		{"instances come", func(m Model) Model {
			src.NICs = []string{"eth0", "lo", "eth9"}
			src.Disks = 6
			return collectOnce(t, m)
		}},
		{"instances go", func(m Model) Model {
			src.NICs = []string{"eth0"}
			src.Disks = 2
			return collectOnce(t, m)
		}},
		{"provider fails", func(m Model) Model {
			src.FailNet = true
			return collectOnce(t, m)
		}},
		{"provider back", func(m Model) Model {
			src.FailNet = false
			return collectOnce(t, m)
		}},
		{"statistics", func(m Model) Model { return keys(t, m, ":/Disk/sda{enter}") }},
		{"statistics sample", func(m Model) Model { return collectOnce(t, m) }},
		{"autoscale", func(m Model) Model { return keys(t, m, "2a") }},
		{"hotset delete", func(m Model) Model { return keys(t, m, "3gdd") }},
		{"hotset sample", func(m Model) Model { return collectOnce(t, m) }},
		{"compact", func(m Model) Model { return send(t, m, tea.WindowSizeMsg{Width: 80, Height: 24}) }},
		{"compact tab", func(m Model) Model { return keys(t, m, "{tab}") }},
		{"compact sample", func(m Model) Model { return collectOnce(t, m) }},
		{"too small", func(m Model) Model { return send(t, m, tea.WindowSizeMsg{Width: 30, Height: 8}) }},
		{"full again", func(m Model) Model { return send(t, m, tea.WindowSizeMsg{Width: 200, Height: 50}) }},
		{"form", func(m Model) Model { return keys(t, m, "1:/CPU/cpu0/idle{enter}3n") }},
		{"form cancel", func(m Model) Model { return keys(t, m, "{esc}") }},
	}
	for _, st := range steps {
		before := m.View()
		m = st.do(m)
		got := m.View()
		if want := fresh(m); got != want {
			t.Fatalf("%s: a stale frame\n got:\n%s\nwant:\n%s", st.name, stripANSI(got), stripANSI(want))
		}
		if got == before {
			t.Errorf("%s: the frame did not change:\n%s", st.name, stripANSI(got))
		}
		if again := m.View(); again != got {
			t.Fatalf("%s: a second View differs", st.name)
		}
		lines := strings.Split(got, "\n")
		if len(lines) != m.h {
			t.Fatalf("%s: %d lines on a screen %d high", st.name, len(lines), m.h)
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w != m.w {
				t.Fatalf("%s: line %d is %d cells on a screen %d wide: %q", st.name, i, w, m.w, stripANSI(l))
			}
		}
	}
	if err := m.crash.get(); err != nil {
		t.Fatal(err)
	}
}

// TestInspectorLaysOutOnlyWhatChanged: a snapshot that changes nothing the inspector shows
// leaves its lines (and version) alone; one that does gives the lines a layout from scratch
// gives.
func TestInspectorLaysOutOnlyWhatChanged(t *testing.T) {
	m := newModel(t, newFixture(t, 2, 2, "eth0"), 120, 40, 2)
	for _, path := range []string{":/CPU/cpu0/idle{enter}", ":/Disk{enter}", ":/Monitor/%cpu{enter}"} {
		m = keys(t, m, path)
		p := m.insp
		ver := p.ver
		p.SetSnapshot(p.snap)
		if p.ver != ver {
			t.Errorf("%s: the same snapshot laid the inspector out again", path)
		}
		m = collectOnce(t, m)
		q := m.insp
		q.head, q.firstLines, q.rest, q.lines = nil, nil, nil, nil
		q.layout()
		if got, want := strings.Join(m.insp.lines, "\n"), strings.Join(q.lines, "\n"); got != want {
			t.Errorf("%s: after a sample\n%s\nfrom scratch\n%s", path, stripANSI(got), stripANSI(want))
		}
	}
}

// TestSampleRedrawsOnlyWhatChanged: on the default screen a sample draws the values, the
// hotsets and the inspector again, but not the tree (no supplier's health changed) nor the
// events (the log did not move); a beat draws nothing at all.
func TestSampleRedrawsOnlyWhatChanged(t *testing.T) {
	m := newModel(t, newFixture(t, 2, 2, "eth0"), 200, 50, 3)
	_ = m.View()
	renders := func() [numPanes]int {
		return [numPanes]int{m.tree.cache.renders, m.values.cache.renders, m.hot.cache.renders, m.insp.cache.renders, m.events.cache.renders}
	}
	before, frames := renders(), m.fc.renders
	m = send(t, m, tickMsg{seq: m.tickSeq})
	_ = m.View()
	if renders() != before || m.fc.renders != frames {
		t.Fatalf("a beat drew: panes %v -> %v, frames %d -> %d", before, renders(), frames, m.fc.renders)
	}
	m = collectOnce(t, m)
	got := m.View()
	after := renders()
	for p, want := range [numPanes]int{0, 1, 1, 1, 0} {
		if after[p]-before[p] != want {
			t.Errorf("%s drew %d times after a sample, want %d", paneID(p), after[p]-before[p], want)
		}
	}
	if want := fresh(m); got != want {
		t.Fatalf("stale frame after a sample\n got:\n%s\nwant:\n%s", stripANSI(got), stripANSI(want))
	}
}
