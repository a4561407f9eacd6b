package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"dcimon/internal/golden"
	"dcimon/ui/internal/fixture"
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
	benchWholeFrame(b, collectOnce(b, m))
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

var cpuLineRE = regexp.MustCompile(`CPU +[^ ]+ +(\d+\.\d)%  (.*)$`)

// issue 32 item 2: the CPU line's parts (usr, nice, sys, irq, soft, steal, other for guest time
// and what does not fit) add up to the busy total it shows, to the tenth, at every width and
// for many hosts; iowait, idle time, comes after the dot and is not in the sum.
func TestOverviewCPUPartsSumToTotal(t *testing.T) {
	for seed := 1; seed <= 12; seed++ {
		for _, w := range []int{80, 100, 120, 200} {
			m := overviewModel(t, newSynthSampler(t, fmt.Sprintf("synthetic:cpus=4,seed=%d", seed)), w, 40, 3)
			var line string
			for _, l := range strings.Split(strip(m.View()), "\n") {
				if strings.Contains(l, "  CPU  ") {
					line = strings.TrimRight(l, " │")
				}
			}
			g := cpuLineRE.FindStringSubmatch(line)
			if g == nil {
				t.Fatalf("seed %d, %d wide: no CPU line with parts: %q", seed, w, line)
			}
			parts, wait, _ := strings.Cut(g[2], " · ")
			f := strings.Fields(parts)
			if len(f) < 4 || len(f)%2 != 0 || f[0] != "usr" {
				t.Fatalf("seed %d, %d wide: parts %q", seed, w, parts)
			}
			var sum int64
			for i := 1; i < len(f); i += 2 {
				var x float64
				if _, err := fmt.Sscan(f[i], &x); err != nil {
					t.Fatalf("%q: %v", parts, err)
				}
				sum += int64(x*10 + 0.5)
			}
			var total float64
			fmt.Sscan(g[1], &total)
			if sum != int64(total*10+0.5) {
				t.Errorf("seed %d, %d wide: parts %q add up to %.1f, the line shows %.1f", seed, w, parts, float64(sum)/10, total)
			}
			if w >= 120 && (!strings.Contains(parts, "sys ") || !strings.HasPrefix(wait, "iowait ")) {
				t.Errorf("seed %d, %d wide: sys or iowait left out with room to spare: %q", seed, w, g[2])
			}
		}
	}
}

// apportion rounds parts to tenths that add up to their total rounded, by the largest remainder.
func TestApportion(t *testing.T) {
	for _, c := range []struct {
		total float64
		vals  []float64
		want  []int64
	}{
		{27.5, []float64{13.84, 13.66}, []int64{138, 137}},
		{10, []float64{3.33, 3.33, 3.34}, []int64{33, 33, 34}},
		{1.0, []float64{0.35, 0.35, 0.35}, []int64{4, 3, 3}},
		{0.9, []float64{0.35, 0.35, 0.35}, []int64{3, 3, 3}},
		{5, []float64{5.2, -0.2}, []int64{50, 0}},
		{0, []float64{0, 0}, []int64{0, 0}},
	} {
		got := apportion(c.total, c.vals)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("apportion(%v, %v) = %v, want %v", c.total, c.vals, got, c.want)
		}
	}
}

// issue 32 item 3: at 80×24 the memory line never cuts a figure: what does not fit is left out
// whole (the cache first), and the memory still available is always there in full.
func TestOverviewMemoryLineWhole(t *testing.T) {
	for _, w := range []int{80, 90, 100, 120} {
		m := overviewModel(t, newSynthSampler(t, "synthetic:disks=6,nics=3,cpus=12,seed=7"), w, 24, 3)
		avail := m.statText("Mem/Real/avail")
		var line string
		for _, l := range strings.Split(strip(m.View()), "\n") {
			if strings.Contains(l, "  Mem  ") {
				line = l
			}
		}
		if !strings.Contains(line, "avail "+avail) || strings.Contains(line, "…") {
			t.Errorf("%d wide: the memory line cuts its figures (avail %s): %q", w, avail, line)
		}
	}
}

// newHostFixture is the fixture with memory and a process table whose busiest process runs a
// processor flat out (stress-ng, PID 4242).
func newHostFixture(t testing.TB, ncpu int) *fixture.Sampler {
	t.Helper()
	f := newFixture(t, ncpu, 3, "eth0", "eth1")
	if err := f.AddHost(); err != nil {
		t.Fatal(err)
	}
	return f
}

// issue 32 item 1: with one processor flat out, the first screen names the process, as htop's
// first rows do: PID, user, %CPU and the command, and by memory and I/O where there is room;
// the instances found at start-up and dcimon's own classes do not fill the events.
func TestOverviewNamesTheBusyProcess(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := overviewModel(t, newHostFixture(t, 4), sz[0], sz[1], 3)
			body := strip(strings.Join(m.overviewView(sz[0], m.lay.Status.Y-1), "\n"))
			busy := regexp.MustCompile(`(?m)^ +4242 alice +99\.5 .* stress-ng --cpu 1`)
			if !busy.MatchString(body) {
				t.Errorf("the busy process is not named with its PID, user, %%CPU and command:\n%s", body)
			}
			if i, j := strings.Index(body, "4242 alice"), strings.Index(body, "812 postgres"); i < 0 || j >= 0 && j < i {
				t.Errorf("the busiest process is not first:\n%s", body)
			}
			wants := map[int][]string{80: {"Processes by CPU"}, 120: {"Processes by CPU", "Processes by memory", "812 postgres"},
				200: {"Processes by CPU", "Processes by memory", "Processes by I/O", "5150 bob", "TIME+", "%MEM"}}[sz[0]]
			for _, want := range wants {
				if !strings.Contains(body, want) {
					t.Errorf("no %q:\n%s", want, body)
				}
			}
			if strings.Contains(body, "added") {
				t.Errorf("start-up events fill the overview:\n%s", body)
			}
			golden.Check(t, fmt.Sprintf("overview_%dx%d", sz[0], sz[1]), body)
		})
	}
}

// The events the overview shows leave out dcimon's own classes and the start-up inventory, and
// keep an instance that comes later.
func TestOverviewEventsLeaveOutStartup(t *testing.T) {
	f := newHostFixture(t, 2)
	m := overviewModel(t, f, 120, 40, 2)
	f.NICs = append(f.NICs, "wlan0")
	m = collectOnce(t, m)
	m.touch()
	evs := m.overviewEvents(10)
	if len(evs) != 1 || evs[0].Path != "NetIf/wlan0" {
		t.Fatalf("overview events: %+v, want the one interface added after start-up", evs)
	}
	if !strings.Contains(strip(m.View()), "NetIf/wlan0") {
		t.Errorf("the new interface is not in the events:\n%s", strip(m.View()))
	}
}
