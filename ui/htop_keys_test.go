package ui

import (
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// procModel is the process table of the synthetic host, focused, at w×h.
func procModel(t *testing.T, w, h int) Model {
	t.Helper()
	m := newModel(t, newSynthSampler(t, "synthetic:procs=40,seed=3"), w, h, 2)
	m = keys(t, m, ":Proc{enter}")
	m = collectOnce(t, collectOnce(t, m))
	return keys(t, m, "2")
}

// headerTitles are the column titles the process table shows.
func headerTitles(m Model) []string {
	lines := strings.Split(strip(m.values.View()), "\n")
	return strings.Fields(strings.NewReplacer("▼", "", "▲", "").Replace(lines[len(m.values.degradedLines())]))
}

// Issue 42 item 2: after T (and every sort) USER and S are still on screen: the process table's
// sort column stays in sight without scrolling the first columns away. At 120×40 the values
// pane is narrow and T scrolled them off for good.
func TestProcSortKeepsUserAndState(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		m := procModel(t, sz[0], sz[1])
		for _, k := range []string{"T", "M", "P", ">", ">", ">", "<", "T"} {
			m = keys(t, m, k)
			h := headerTitles(m)
			if len(h) < 3 || h[0] != "PID" || h[1] != "USER" || h[2] != "S" {
				t.Errorf("%dx%d after %s: header %v", sz[0], sz[1], k, h)
			}
			if sc := m.values.sortTitle(); sc != "PID" && !strings.Contains(strings.Join(h, " "), sc) {
				t.Errorf("%dx%d after %s: sorted by %s, which is not on screen: %v", sz[0], sz[1], k, sc, h)
			}
		}
	}
}

// Issue 42 item 2: a click on a column's header sorts by it, a second click reverses the order.
func TestProcHeaderClickSorts(t *testing.T) {
	m := procModel(t, 200, 60)
	in := m.lay.Panes[paneValues].Inner
	y := in.Y + len(m.values.degradedLines())
	line := strings.Split(strip(m.values.View()), "\n")[len(m.values.degradedLines())]
	x := strings.Index(line, "RES")
	if x < 0 {
		t.Fatalf("no RES in %q", line)
	}
	click := func(m Model) Model {
		return send(t, m, tea.MouseMsg{X: in.X + x, Y: y, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	}
	m = click(m)
	if m.values.sortTitle() != "RES" || !m.values.sortDesc || !strings.Contains(plainView(m), "sorted by RES, highest first") {
		t.Fatalf("after a click on RES: sorted by %s (desc %v)\n%s", m.values.sortTitle(), m.values.sortDesc, plainView(m))
	}
	m = click(m)
	if m.values.sortTitle() != "RES" || m.values.sortDesc || !strings.Contains(plainView(m), "lowest first") {
		t.Fatalf("a second click: sorted by %s (desc %v)", m.values.sortTitle(), m.values.sortDesc)
	}
	// A click on a row still selects it.
	m = send(t, m, tea.MouseMsg{X: in.X + 2, Y: y + 4, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if m.values.cursor != 2 {
		t.Errorf("a click on the third row: cursor %d", m.values.cursor)
	}
}

// Issue 42 item 2: htop's F1 (help), F10 (quit) and F9 (which dcimon answers in words: it only
// watches).
func TestHtopFunctionKeys(t *testing.T) {
	m := procModel(t, 120, 40)
	m = keys(t, m, "{f1}")
	if m.modal != modalHelp {
		t.Fatal("F1 did not open the help")
	}
	m = keys(t, m, "{esc}")
	m = keys(t, m, "{f9}")
	if s := plainView(m); !strings.Contains(s, "dcimon only watches: it sends no signal") || !strings.Contains(s, "kill ") {
		t.Errorf("F9 says nothing plain:\n%s", s)
	}
	_, cmd := m.Update(specialKey(t, "f10"))
	if cmd == nil || !reflect.DeepEqual(cmd(), tea.Quit()) {
		t.Error("F10 does not quit")
	}
}
