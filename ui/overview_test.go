package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"dcimon/internal/golden"
)

// overviewModel is the monitor as the dcimon command opens it: on the overview.
func overviewModel(t testing.TB, src Sampler, w, h, n int) Model {
	t.Helper()
	m := newModel(t, src, w, h, 0)
	m.ov.on = true
	for i := 0; i < n; i++ {
		m = collectOnce(t, m)
	}
	m.touch()
	return m
}

// issue 12 (item 6): the first screen answers "is this host all right, and what is busiest?" at
// every size: processors, memory and swap, load, uptime, tasks and the hotsets with bars.
func TestOverviewGolden(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := overviewModel(t, newSynthSampler(t, "synthetic:disks=6,nics=3,cpus=12,seed=7"), sz[0], sz[1], 3)
			s := strip(m.View())
			// The body only: the status line carries dcimon's own memory, which varies.
			body := strings.Join(m.overviewView(sz[0], m.lay.Status.Y-1), "\n")
			for _, want := range []string{"Overview", "CPU ", "Mem ", "Swap", "load ", "running", "Disk busy — top", "NetIf bytes — top", "█"} {
				if !strings.Contains(s, want) {
					t.Errorf("the overview lacks %q:\n%s", want, s)
				}
			}
			for _, line := range strings.Split(s, "\n") {
				if w := width(line); w > sz[0] {
					t.Fatalf("a line is %d cells wide on a %d-cell terminal: %q", w, sz[0], line)
				}
			}
			golden.Check(t, fmt.Sprintf("overview_%dx%d", sz[0], sz[1]), strip(body))
		})
	}
}

// The first frame with data shows levels at once and says it is measuring rates, never a
// dash or `top 0 of 0` (issue 12).
func TestOverviewAtStart(t *testing.T) {
	m := overviewModel(t, newSynthSampler(t, "synthetic:disks=3,nics=2,cpus=2,seed=1"), 80, 24, 1)
	s := strip(m.View())
	if strings.Contains(s, "—") && !strings.Contains(s, "measuring") || strings.Contains(s, "top 0 of 0") {
		t.Fatalf("the first overview shows a dash or an empty hotset:\n%s", s)
	}
	for _, want := range []string{"Mem ", "load ", "measuring"} {
		if !strings.Contains(s, want) {
			t.Errorf("the first overview lacks %q:\n%s", want, s)
		}
	}
}

// Every number on the overview can be inspected: j/k choose one, Enter opens it in the tree; o
// goes back and forth; a digit opens a pane.
func TestOverviewKeys(t *testing.T) {
	m := overviewModel(t, newSynthSampler(t, "synthetic:disks=3,nics=2,cpus=2,seed=1"), 120, 40, 2)
	m = keys(t, m, "j")
	if !m.ov.on || len(m.ov.paths) < 5 || m.ov.paths[m.ov.cursor] != "CPU/busy" {
		t.Fatalf("j moves to the CPU line: %v %d", m.ov.paths, m.ov.cursor)
	}
	m = keys(t, m, "{enter}")
	if m.ov.on || m.focus != paneTree || m.tree.SelectedPath() != "CPU/busy" {
		t.Fatalf("enter opens CPU/busy in the tree: overview %v focus %s path %s", m.ov.on, m.focus, m.tree.SelectedPath())
	}
	m = keys(t, m, "o")
	if !m.ov.on || !strings.Contains(strip(m.View()), "Overview") {
		t.Fatal("o goes back to the overview")
	}
	m = keys(t, m, "3")
	if m.ov.on || m.focus != paneHot {
		t.Fatal("3 opens the hotsets pane")
	}
	m = keys(t, m, "o")
	m = keys(t, m, "s") // a pane's key does nothing on the overview
	if !m.ov.on {
		t.Fatal("a pane key leaves the overview")
	}
}

// BenchmarkOverviewFrame draws the overview of a large host (64 processors, 200 disks) at
// 200×60, every cache emptied first: the first screen's cost per frame.
func BenchmarkOverviewFrame(b *testing.B) {
	m := newModel(b, newSynthSampler(b, "synthetic:disks=200,nics=16,cpus=64,seed=1"), 200, 60, 0)
	m.ov.on = true
	m = collectOnce(b, m)
	m = collectOnce(b, m)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		forget(&m)
		_ = m.View()
	}
}

// Load averages read as uptime prints them: two decimals each, `0.40` never `0.4`.
func TestOverviewLoadDecimals(t *testing.T) {
	for seed := 1; seed <= 20; seed++ {
		m := overviewModel(t, newSynthSampler(t, fmt.Sprintf("synthetic:cpus=2,seed=%d", seed)), 120, 40, 2)
		s := strip(m.View())
		if !loadRE.MatchString(s) {
			t.Fatalf("seed %d: no load with two decimals each:\n%s", seed, s)
		}
	}
}

var loadRE = regexp.MustCompile(`load \d+\.\d\d \d+\.\d\d \d+\.\d\d `)
