package ui

import (
	"context"
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"dcimon/collect"
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
	opt, err := collect.ParseSynthetic(spec)
	if err != nil {
		t.Fatal(err)
	}
	s := &synthSampler{now: fixtureNow}
	clock := func() time.Time { return s.now }
	opt.Now = clock
	s.Sampler, err = collect.NewSampler(ns.NewRegistry(), collect.SyntheticProviders(opt), collect.Options{Now: clock})
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
			golden(t, name("hot"), strip(m.hot.View()))
			m = keys(t, m, ":Disk{enter}")
			golden(t, name("disk_table"), strip(m.values.View()))
			m = keys(t, m, ":NetIf{enter}")
			golden(t, name("netif_table"), strip(m.values.View()))
			m = keys(t, m, ":/Disk/sdb{enter}")
			golden(t, name("disk_stats"), strip(m.values.View()))
		})
	}
}

// TestIostatColumns checks the per-disk table opens with iostat -x's columns, in its order.
func TestIostatColumns(t *testing.T) {
	m := newModel(t, newSynthSampler(t, "synthetic:disks=2"), 200, 60, 2)
	m = keys(t, m, ":Disk{enter}")
	var got []string
	for _, c := range m.values.cols[:8] {
		got = append(got, c.title())
	}
	want := "r/s w/s rkB/s wkB/s r_await w_await aqu-sz %util"
	if g := fmt.Sprint(got); g != "["+want+"]" && g != "[r/s w/s rMB/s wMB/s r_await w_await aqu-sz %util]" {
		t.Fatalf("disk columns %v, want %s", got, want)
	}
}

// BenchmarkViewSynthetic10kDisks is the frame budget on the synthetic source: 10,000 disks
// (15,000 instances with their partitions), the disk table on screen; the whole frame is drawn.
func BenchmarkViewSynthetic10kDisks(b *testing.B) {
	m := newModel(b, newSynthSampler(b, "synthetic:disks=10000,nics=16,cpus=64"), 200, 60, 2)
	m = keys(b, m, ":Disk{enter}")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		forget(&m)
		_ = m.View()
	}
}

func BenchmarkKeyToFrameSynthetic10kDisks(b *testing.B) {
	m := newModel(b, newSynthSampler(b, "synthetic:disks=10000,nics=16,cpus=64"), 200, 60, 2)
	m = keys(b, m, ":Disk{enter}2")
	down, up := tea.KeyMsg{Type: tea.KeyDown}, tea.KeyMsg{Type: tea.KeyUp}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := down
		if i%2 == 1 {
			k = up
		}
		out, _ := m.Update(k)
		m = out.(Model)
		_ = m.View()
	}
}

// BenchmarkFilterKeySynthetic10kDisks is one key typed into the filter over 10,000 disks.
func BenchmarkFilterKeySynthetic10kDisks(b *testing.B) {
	m := newModel(b, newSynthSampler(b, "synthetic:disks=10000,nics=16,cpus=64"), 200, 60, 2)
	m = keys(b, m, "/sd")
	a, bs := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'a'}}, tea.KeyMsg{Type: tea.KeyBackspace}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := a
		if i%2 == 1 {
			k = bs
		}
		out, _ := m.Update(k)
		m = out.(Model)
		_ = m.View()
	}
}
