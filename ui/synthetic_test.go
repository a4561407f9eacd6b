package ui

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"dcimon/collect"
	"dcimon/collect/synthetic"
	"dcimon/internal/golden"
	ns "dcimon/namespace"
)

// The monitor on collect's synthetic source: the real classes (the iostat columns of the disk
// table, the default hotsets on the real statistic names) with a fake clock, so the text is
// reproducible. The fixture source drives the behaviour tests; these keep what people see.

// synthSampler is collect's sampler over the synthetic providers, its clock advancing one second
// per collection.
type synthSampler struct {
	*collect.Sampler
	now time.Time
}

func (s *synthSampler) Sample(ctx context.Context) (*ns.Snapshot, error) {
	s.now = s.now.Add(time.Second)
	return s.Sampler.Sample(ctx)
}

func newSynthSampler(t testing.TB, spec string) *synthSampler {
	t.Helper()
	opt, err := synthetic.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	s := &synthSampler{now: fixtureNow}
	clock := func() time.Time { return s.now }
	opt.Now = clock
	s.Sampler, err = collect.NewSampler(ns.NewRegistry(), synthetic.Providers(opt), collect.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var _ Sampler = (*collect.Sampler)(nil) // the program's sampler satisfies the monitor's interface

func TestGoldenSynthetic(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := newModel(t, newSynthSampler(t, "synthetic:disks=6,nics=3,cpus=4,seed=7"), sz[0], sz[1], 3)
			name := func(pane string) string { return fmt.Sprintf("synthetic_%s_%dx%d", pane, sz[0], sz[1]) }
			golden.Check(t, name("hot"), strip(m.hot.View()))
			m = keys(t, m, ":Disk{enter}")
			golden.Check(t, name("disk_table"), strip(m.values.View()))
			m = keys(t, m, ":NetIf{enter}")
			golden.Check(t, name("netif_table"), strip(m.values.View()))
			m = keys(t, m, ":/Disk/sdb{enter}")
			golden.Check(t, name("disk_stats"), strip(m.values.View()))
		})
	}
}

// TestIostatColumns checks the per-disk table opens with iostat -x's columns, in its order.
func TestIostatColumns(t *testing.T) {
	m := newModel(t, newSynthSampler(t, "synthetic:disks=2"), 200, 60, 2)
	m = keys(t, m, ":Disk{enter}")
	// issue 12: iostat's names in a fixed unit, never drifting with scale.
	if got, want := columnTitles(m, 8), "r/s w/s rkB/s wkB/s r_await w_await aqu-sz %util"; got != want {
		t.Fatalf("disk columns %s, want %s", got, want)
	}
	s := strip(m.values.View())
	wantAll(t, "the disk table", s, "rareq-sz", "kB/s", "ms")
}

// issue 12: the per-processor table reads like mpstat -P ALL, and its (all) row is a share of
// all processors (never above 100%), %idle on screen at 80 columns.
func TestMpstatColumns(t *testing.T) {
	m := newModel(t, newSynthSampler(t, "synthetic:cpus=8,seed=3"), 80, 24, 2)
	m = keys(t, m, ":CPU{enter}2")
	if g := columnTitles(m, 11); g != "%usr %nice %sys %iowait %irq %soft %steal %guest %gnice %idle %busy" {
		t.Fatalf("cpu columns %s", g)
	}
	s := strip(m.values.View())
	if !strings.Contains(s, "%idle") {
		t.Fatalf("%%idle is pinned on screen at 80 columns:\n%s", s)
	}
	for _, line := range strings.Split(s, "\n") {
		if !strings.HasPrefix(line, "(all)") {
			continue
		}
		for _, f := range strings.Fields(line)[1:] {
			if x, err := strconv.ParseFloat(f, 64); err == nil && x > 100 {
				t.Fatalf("the (all) row has %s%%: it is a share of all processors\n%s", f, s)
			}
		}
		return
	}
	t.Fatalf("no (all) row:\n%s", s)
}

// BenchmarkViewSynthetic10kDisks is the frame budget on the synthetic source: 10,000 disks
// (15,000 instances with their partitions), the disk table on screen; the whole frame is drawn.
func BenchmarkViewSynthetic10kDisks(b *testing.B) {
	m := newModel(b, newSynthSampler(b, "synthetic:disks=10000,nics=16,cpus=64"), 200, 60, 2)
	benchWholeFrame(b, keys(b, m, ":Disk{enter}"))
}

func BenchmarkKeyToFrameSynthetic10kDisks(b *testing.B) {
	m := newModel(b, newSynthSampler(b, "synthetic:disks=10000,nics=16,cpus=64"), 200, 60, 2)
	benchKeyToFrame(b, keys(b, m, ":Disk{enter}2"), tea.KeyMsg{Type: tea.KeyDown}, tea.KeyMsg{Type: tea.KeyUp})
}

// BenchmarkFilterKeySynthetic10kDisks is one key typed into the filter over 10,000 disks.
func BenchmarkFilterKeySynthetic10kDisks(b *testing.B) {
	m := newModel(b, newSynthSampler(b, "synthetic:disks=10000,nics=16,cpus=64"), 200, 60, 2)
	benchKeyToFrame(b, keys(b, m, "/sd"), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'a'}}, tea.KeyMsg{Type: tea.KeyBackspace})
}

// issue 12: bars only where they mean something: a capacity that does not move has none, and the
// selected hotset row keeps its bar.
func TestBarsWhereTheyMeanSomething(t *testing.T) {
	m := newModel(t, newSynthSampler(t, "synthetic:disks=3,nics=1,cpus=2,seed=7"), 120, 40, 2)
	m = keys(t, m, ":/Disk/sda{enter}")
	for _, line := range strings.Split(strip(m.values.View()), "\n") {
		if strings.HasPrefix(line, "size ") && strings.ContainsAny(line, "█░▁▂▃▄▅▆▇") {
			t.Fatalf("a capacity has a bar or a sparkline: %q", line)
		}
	}
	m = keys(t, m, "3g{down}")
	if m.hot.OnHeader() {
		t.Fatal("the cursor is on the first item")
	}
	lines := strings.Split(strip(m.hot.View()), "\n")
	sel := lines[2] // the first peer set's header is two lines
	if !strings.HasPrefix(strings.TrimSpace(sel), "1 ") || (!strings.Contains(sel, "█") && !strings.Contains(sel, "░")) {
		t.Fatalf("the selected hotset row lost its bar: %q\n%s", sel, strip(m.hot.View()))
	}
}

// issue 12: ? explains the focused table's columns and the event words, not only the keys.
func TestHelpExplainsColumns(t *testing.T) {
	m := newModel(t, newSynthSampler(t, "synthetic:disks=2,seed=1"), 120, 40, 2)
	m = keys(t, m, ":Disk{enter}2?")
	s := strip(m.View())
	wantAll(t, "the help", s, "Columns of Disk", "r_await    average time of a read", "%util      share of the interval")
	m = keys(t, m, "{esc}5?")
	if s := strip(m.View()); !strings.Contains(s, "added     INSTANCEADDED: an instance appeared") {
		t.Errorf("the help of the events pane lacks the legend:\n%s", s)
	}
}

// issue 19: the FS table reads like df -h with a Use% bar, at 80×24 too, and its colour comes
// from the fullest-file-systems hotset's threshold: a lower threshold colours more rows.
func TestFSTableLikeDf(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := newModel(t, newSynthSampler(t, "synthetic:disks=1,seed=4"), sz[0], sz[1], 2)
			m = keys(t, m, ":FS{enter}2")
			s := strip(m.values.View())
			wantAll(t, "the FS table", s, "Size", "Used", "Avail", "Use%", "█", "∕home")
			golden.Check(t, fmt.Sprintf("fs_table_%dx%d", sz[0], sz[1]), s)
		})
	}
	m := newModel(t, newSynthSampler(t, "synthetic:disks=1,seed=4"), 120, 40, 2)
	m = keys(t, m, ":FS{enter}2")
	p := m.values
	use := -1
	for i := range p.cols {
		if p.cols[i].header == "Use%" {
			use = i
		}
	}
	if use < 0 || p.cols[use].bar == 0 {
		t.Fatalf("no Use%% column with a bar: %+v", p.cols)
	}
	lim, ok := m.hot.limitOf(p.class, p.cols[use].datum)
	if !ok || lim != fsFullAt/100.0 {
		t.Fatalf("the default hotset's threshold is %v %v, want %v", lim, ok, fsFullAt/100.0)
	}
	levels := func() (n [3]int) {
		for i := range p.rows {
			r := &p.rows[i]
			v, ok := p.cell(r, &p.cols[use])
			lv := p.pastLimit(r, &p.cols[use], v, ok)
			want := 0
			if v.V >= lim {
				want = 2
			} else if v.V >= 0.9*lim {
				want = 1
			}
			if lv != want {
				t.Errorf("%s at %.3f: level %d, want %d against %v", r.name, v.V, lv, want, lim)
			}
			n[lv]++
		}
		return n
	}
	levels()
	// A threshold below every file system: every row is past it.
	if _, err := m.hot.hs.Add(ns.HotSpec{Stat: "%used", Grandpa: "FS", MaxResp: 3, Threshold: 0.01, Feed: ns.SiHotAlways}); err != nil {
		t.Fatal(err)
	}
	if lim, _ = m.hot.limitOf(p.class, p.cols[use].datum); lim != 0.01 {
		t.Fatalf("the lowest threshold wins: %v", lim)
	}
	if n := levels(); n[2] != len(p.rows) {
		t.Fatalf("a 1%% threshold leaves rows uncoloured: %v of %d", n, len(p.rows))
	}
}

// issue 19: sizes read as df -h prints them, rounded up.
func TestHumanText(t *testing.T) {
	for _, c := range []struct {
		x, base float64
		want    string
	}{
		{0, 1024, "0"},
		{1000, 1024, "1000"},
		{1024, 1024, "1.0K"},
		{100 << 30, 1024, "100G"},
		{2 << 40, 1024, "2.0T"},
		{4.21 * (1 << 30), 1024, "4.3G"},   // rounded up, as df
		{9.96 * (1 << 30), 1024, "10G"},    // 9.96 rounds up to 10.0: no decimal
		{1023.5 * (1 << 20), 1024, "1.0G"}, // 1023.5M rounds up to 1024M: the next unit
		{262144, 1000, "263k"},
		{6553600, 1000, "6.6M"},
	} {
		if got := string(humanText(nil, c.x, c.base)); got != c.want {
			t.Errorf("humanText(%g, %g) = %q, want %q", c.x, c.base, got, c.want)
		}
	}
}
