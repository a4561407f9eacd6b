package ui

import (
	"testing"

	"dcimon/theme"
)

func TestLayout(t *testing.T) {
	st, _ := theme.Resolve("dark", false)
	tests := []struct {
		w, h int
		mode layoutMode
		// expected inner sizes of the tree and the values pane
		tree, values [2]int
	}{
		{0, 0, modeTooSmall, [2]int{}, [2]int{}},
		{1, 1, modeTooSmall, [2]int{}, [2]int{}},
		{10, 3, modeTooSmall, [2]int{}, [2]int{}},
		{39, 24, modeTooSmall, [2]int{}, [2]int{}},
		{80, 9, modeTooSmall, [2]int{}, [2]int{}},
		{40, 10, modeCompact, [2]int{38, 4}, [2]int{38, 4}},
		{60, 20, modeCompact, [2]int{58, 14}, [2]int{58, 14}},
		{80, 24, modeCompact, [2]int{78, 18}, [2]int{78, 18}},
		{109, 40, modeCompact, [2]int{107, 34}, [2]int{107, 34}},
		{120, 27, modeCompact, [2]int{118, 21}, [2]int{118, 21}},
		{120, 40, modeFull, [2]int{22, 35}, [2]int{58, 20}},
		{200, 60, modeFull, [2]int{38, 55}, [2]int{98, 32}},
		{1000, 300, modeFull, [2]int{42, 295}, [2]int{890, 176}},
	}
	for _, tt := range tests {
		l := computeLayout(tt.w, tt.h, st)
		if l.Mode != tt.mode {
			t.Errorf("%d×%d: mode %s, want %s", tt.w, tt.h, l.Mode, tt.mode)
			continue
		}
		if l.Mode == modeTooSmall {
			if l.NeedW != minW || l.NeedH != minH {
				t.Errorf("%d×%d: need %d×%d", tt.w, tt.h, l.NeedW, l.NeedH)
			}
			continue
		}
		in := func(p paneID) [2]int { return [2]int{l.Panes[p].Inner.W, l.Panes[p].Inner.H} }
		if got := in(paneTree); got != tt.tree {
			t.Errorf("%d×%d: tree inner %v, want %v", tt.w, tt.h, got, tt.tree)
		}
		if got := in(paneValues); got != tt.values {
			t.Errorf("%d×%d: values inner %v, want %v", tt.w, tt.h, got, tt.values)
		}
		checkRects(t, l)
	}
}

// checkRects verifies the invariants every layout keeps: everything on screen, frames one cell
// wide, and in full mode panes that tile the body without overlapping.
func checkRects(t *testing.T, l layout) {
	t.Helper()
	on := func(name string, r rect) {
		if r.X < 0 || r.Y < 0 || r.X+r.W > l.W || r.Y+r.H > l.H || r.W < 0 || r.H < 0 {
			t.Errorf("%d×%d: %s %+v is off screen", l.W, l.H, name, r)
		}
	}
	on("header", l.Header)
	on("status", l.Status)
	on("help", l.Help)
	area := 0
	for p := paneTree; p < numPanes; p++ {
		b := l.Panes[p]
		on(p.String(), b.Outer)
		if b.Inner.W != b.Outer.W-2 || b.Inner.H != b.Outer.H-2 || b.Inner.X != b.Outer.X+1 || b.Inner.Y != b.Outer.Y+1 {
			t.Errorf("%d×%d: %s inner %+v is not outer %+v less the frame", l.W, l.H, p, b.Inner, b.Outer)
		}
		area += b.Outer.W * b.Outer.H
		if l.Mode != modeFull {
			continue
		}
		for q := p + 1; q < numPanes; q++ {
			if overlap(b.Outer, l.Panes[q].Outer) {
				t.Errorf("%d×%d: %s and %s overlap", l.W, l.H, p, q)
			}
		}
	}
	if l.Mode == modeFull && area != l.W*(l.H-3) {
		t.Errorf("%d×%d: panes cover %d cells, the body has %d", l.W, l.H, area, l.W*(l.H-3))
	}
}

func overlap(a, b rect) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
}

func TestStepInterval(t *testing.T) {
	tests := []struct {
		from string
		dir  int
		want string
	}{
		{"1s", 1, "2s"}, {"1s", -1, "500ms"}, {"250ms", -1, "250ms"}, {"1m0s", 1, "1m0s"},
		{"1.5s", 1, "2s"}, {"1.5s", -1, "1s"}, {"100ms", -1, "100ms"}, {"2m0s", 1, "2m0s"},
	}
	for _, tt := range tests {
		d := mustDur(t, tt.from)
		if got := stepInterval(d, tt.dir).String(); got != tt.want {
			t.Errorf("stepInterval(%s, %d) = %s, want %s", tt.from, tt.dir, got, tt.want)
		}
	}
}

// TestEveryPaneIDHasItsPane: m.pane turns every pane id into its own pane, the one the layout
// draws in that id's box, so the root's plumbing (focus, keys, scroll, clicks, help) reaches it.
func TestEveryPaneIDHasItsPane(t *testing.T) {
	m := newModel(t, newFixture(t, 2, 1, "lo", "eth0"), 200, 60, 1)
	seen := map[pane]paneID{}
	for p := range numPanes {
		pn := m.pane(p)
		if q, dup := seen[pn]; dup {
			t.Errorf("panes %v and %v are the same pane", p, q)
		}
		seen[pn] = p
		if got, want := pn.width(), m.lay.Panes[p].Inner.W; got != want {
			t.Errorf("%v: width %d, its box %d", p, got, want)
		}
		m.setFocus(p)
		if m.pane(p) != pn {
			t.Errorf("%v: not the same pane twice", p)
		}
	}
}
