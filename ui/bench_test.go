package ui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"dcimon/ui/internal/screen"
)

// The frame budgets of the issue: one View at 200×60 with 10,000 instances in the tree under
// 5 ms, and a key press to the next frame (Update and View) under 16 ms.
//
//	go test ./ui/ -run '^$' -bench . -benchmem

func bigModel(b *testing.B) Model {
	b.Helper()
	src := newFixture(b, 8, 10000, "eth0", "lo")
	m := newModel(b, src, 200, 60, 2)
	m = keys(b, m, ":Disk{enter}")
	if m.tree.Len() < 10000 || len(m.values.rows) < 10000 { // the disks, and their partitions after them
		b.Fatalf("tree %d rows, table %d rows", m.tree.Len(), len(m.values.rows))
	}
	return m
}

// BenchmarkView200x60With10kInstances draws the whole frame: every cache is emptied first.
func BenchmarkView200x60With10kInstances(b *testing.B) {
	benchWholeFrame(b, bigModel(b))
}

// benchWholeFrame times m's View with every cache emptied before each frame.
func benchWholeFrame(b *testing.B, m Model) {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		forget(&m)
		_ = m.View()
	}
}

// BenchmarkViewUnchanged is a View when nothing changed since the last one: a beat that only
// starts a collection, or the renderer asking again.
func BenchmarkViewUnchanged(b *testing.B) {
	m := bigModel(b)
	m = send(b, m, tickMsg{seq: m.tickSeq})
	_ = m.View()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = m.View()
	}
}

func BenchmarkKeyToFrame10k(b *testing.B) {
	benchKeyToFrame(b, bigModel(b), tea.KeyMsg{Type: tea.KeyDown}, tea.KeyMsg{Type: tea.KeyUp})
}

// benchKeyToFrame times a key and the frame after it, there and back (there on even rounds,
// back on odd ones) so that the model stays where it started.
func benchKeyToFrame(b *testing.B, m Model, there, back tea.KeyMsg) {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := there
		if i%2 == 1 {
			k = back
		}
		out, _ := m.Update(k)
		m = out.(Model)
		_ = m.View()
	}
}

// BenchmarkApplySample10k is the work one collection causes on the UI goroutine: the tree's
// health, the table's order and units, the hotsets' ranking, the inspector.
func BenchmarkApplySample10k(b *testing.B) {
	m := bigModel(b)
	src := m.src
	var ahead samplesAhead
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		msg := ahead.next(b, src, m, i)
		out, _ := m.Update(msg)
		m = out.(Model)
	}
}

// samplesAhead hands a benchmark the samples of src in order, collecting the next 64 with the
// timer stopped so that only what the UI does with them is timed.
type samplesAhead struct{ msgs []tea.Msg }

func (a *samplesAhead) next(b *testing.B, src Sampler, m Model, i int) tea.Msg {
	if i%64 == 0 {
		b.StopTimer()
		a.msgs = a.msgs[:0]
		for j := 0; j < 64; j++ {
			snap, err := src.Sample(m.ctx)
			a.msgs = append(a.msgs, sampleMsg{snap: snap, err: err})
		}
		b.StartTimer()
	}
	return a.msgs[i%64]
}

// BenchmarkSampleToFrame is what one interval costs the UI goroutine on the default screen at
// the size scripts/overhead.sh measures: the beat (which draws nothing), the sample and the
// frame after it.
func BenchmarkSampleToFrame(b *testing.B) {
	src := newFixture(b, 2, 1, "lo", "eth0", "ifb0", "ifb1")
	m := newModel(b, src, 200, 50, 2)
	_ = m.View()
	var ahead samplesAhead
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		msg := ahead.next(b, src, m, i)
		out, _ := m.Update(tickMsg{seq: m.tickSeq})
		m = out.(Model)
		_ = m.View()
		out, _ = m.Update(msg)
		m = out.(Model)
		_ = m.View()
	}
}

// BenchmarkPaintSample is the screen's share of one interval on the default screen: the bytes
// that bring the terminal from one frame to the next, for the frames the monitor actually draws
// at 200×50 on the fixture source.
func BenchmarkPaintSample(b *testing.B) {
	src := newFixture(b, 2, 1, "lo", "eth0", "ifb0", "ifb1")
	m := newModel(b, src, 200, 50, 2)
	frames := make([]string, 16)
	for i := range frames {
		m = collectOnce(b, m)
		frames[i] = m.View()
	}
	var p screen.Painter
	p.Invalidate()
	p.Paint(frames[0], 200, 200, 50)
	var bytes int
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bytes += len(p.Paint(frames[1+i%15], 200, 200, 50))
	}
	b.ReportMetric(float64(bytes)/float64(b.N), "bytes/frame")
}
