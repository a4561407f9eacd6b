package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"dcimon/namespace"
)

// Issue 42 item 3: two saved hotsets on one statistic are told apart by their names and
// thresholds; item 1: a block's title counts only the rows the height lets it show.
func TestOverviewHotsetTitles(t *testing.T) {
	opts := testOptions()
	opts.Hotsets = []HotsetConfig{
		{Name: "disks-all", Grandpa: "Disk", Stats: []string{"%util"}, MaxResp: 5, Feed: namespace.SiHotAlways},
		{Name: "disks-hot", Grandpa: "Disk", Stats: []string{"%util"}, MaxResp: 5, Threshold: 50, Feed: namespace.SiHotThreshold},
	}
	m := New(newFixture(t, 1, 3), opts)
	m.after = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m = collectOnce(t, collectOnce(t, m))
	lines := m.overviewHotsets(120, 40)
	var text strings.Builder
	for _, l := range lines {
		text.WriteString(stripANSI(l.text) + "\n")
	}
	s := text.String()
	for _, want := range []string{"disks-all: Disk %util — top 3 of 3", "disks-hot: Disk %util > 50 — top 2 of 2"} {
		if !strings.Contains(s, want) {
			t.Errorf("no block titled %q:\n%s", want, s)
		}
	}
	// Two lines of height: the title and one row, and the title says one.
	lines = m.overviewHotsets(120, 2)
	if len(lines) != 2 || !strings.Contains(stripANSI(lines[0].text), "disks-all: Disk %util — top 1 of 3") {
		t.Errorf("at two lines: %q", lines)
	}
}

// Issue 42 item 1: the key line keeps `? help` and `q quit` at every width and focus (at 80×24,
// and at 120×40 with the tree focused, it lost `q quit`), dropping the other hints from its end.
func TestKeyLineKeepsHelpAndQuit(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {60, 20}, {200, 60}} {
		m := newModel(t, newFixture(t, 2, 3), sz[0], sz[1], 2)
		for _, k := range []string{"o", "1", "2", "3", "4", "5"} {
			m = keys(t, m, k)
			lines := strings.Split(plainView(m), "\n")
			last := lines[len(lines)-1]
			if !strings.HasSuffix(strings.TrimRight(last, " "), "? help • q quit") {
				t.Errorf("%dx%d after %s: key line %q", sz[0], sz[1], k, last)
			}
		}
	}
}

// Issue 42 item 1: the blocks share the height: at 200×60 the processes take what the hotsets
// and events leave (27 rows stayed empty under process blocks stopped at 15), and at every size
// no process block promises more rows than it shows.
func TestOverviewUsesTheHeight(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		m := overviewModel(t, newSynthSampler(t, "synthetic:disks=6,nics=3,cpus=12,seed=7"), sz[0], sz[1], 3)
		h := m.lay.Status.Y - 1
		body := m.overviewView(sz[0], h)
		blank := 0
		for i := len(body) - 1; i >= 0 && strings.TrimSpace(stripANSI(body[i])) == ""; i-- {
			blank++
		}
		if blank > 2 {
			t.Errorf("%dx%d: %d empty rows at the bottom of the overview", sz[0], sz[1], blank)
		}
		// "Processes by CPU — top N of M" over N rows.
		for i, l := range body {
			l = stripANSI(l)
			k := strings.Index(l, "Processes by CPU — top ")
			if k < 0 {
				continue
			}
			var n, of int
			if _, err := fmt.Sscanf(l[k+len("Processes by CPU — top "):], "%d of %d", &n, &of); err != nil {
				t.Fatal(err)
			}
			rows := 0
			for _, r := range body[i+2:] {
				if strings.TrimSpace(stripANSI(r)) == "" {
					break
				}
				rows++
			}
			if rows < n {
				t.Errorf("%dx%d: %q over %d rows", sz[0], sz[1], strings.TrimSpace(l), rows)
			}
		}
	}
}

// Issue 42 item 4: a saved hotset's critical threshold (hot --check's) is kept by the monitor
// when it saves the hotsets, also after an edit.
func TestHotsetCriticalKept(t *testing.T) {
	opts := testOptions()
	opts.Hotsets = []HotsetConfig{{Name: "disks", Grandpa: "Disk", Stats: []string{"%util"}, MaxResp: 5, Threshold: 50, Critical: 90, Feed: namespace.SiHotThreshold}}
	m := New(newFixture(t, 1, 3), opts)
	m.after = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	m = send(t, m, tea.WindowSizeMsg{Width: 200, Height: 60})
	m = collectOnce(t, collectOnce(t, m))
	if c := m.hot.Configs(); len(c) != 1 || c[0].Critical != 90 {
		t.Fatalf("configs %+v", c)
	}
	m = keys(t, m, "3e{ctrl+u}2{enter}") // max responses 2
	if c := m.hot.Configs(); len(c) != 1 || c[0].Critical != 90 || c[0].MaxResp != 2 || c[0].Name != "disks" {
		t.Fatalf("after an edit: %+v", c)
	}
}

// Issue 38 item 5: the process block's height is worked out without drawing it (the block is
// drawn once a frame), and it is the drawn block's, at every width and height, before the
// second snapshot (nothing to rank) and after.
func TestOverviewProcsHeightIsTheBlocks(t *testing.T) {
	ranked := 0
	for _, steps := range []int{1, 3} {
		for _, w := range []int{60, 80, 116, 150, 180, 200} {
			m := overviewModel(t, newSynthSampler(t, "synthetic:disks=2,nics=1,cpus=2,seed=3"), w, 40, steps)
			for h := 0; h < 45; h++ {
				if got, want := m.overviewProcsHeight(w, h), len(m.overviewProcs(w, h)); got != want {
					t.Errorf("%d steps, %dx%d: height %d, the block has %d lines", steps, w, h, got, want)
				} else if want > 2 {
					ranked++
				}
			}
		}
	}
	if ranked == 0 {
		t.Fatal("no block ranked a process: the test compares empty blocks only")
	}
}
