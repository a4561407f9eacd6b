package views

import (
	"math"
	"testing"

	ns "dcimon/namespace"
)

// benchTable is a 200-row table of mixed values: booleans, integers in every presentation,
// addresses, times, counter rates with units, derived percents, strings and marks.
type benchTable struct {
	cols  []Column
	names []string
	vals  [][]ns.Value // per column, its rows
	rows  [][2]int     // row → column, index in that column's values
	cell  []byte       // reused cell buffer
}

func newBenchTable(b *testing.B) *benchTable {
	c := testClass(b)
	kinds := []struct {
		datum string
		v     func(i int) ns.Value
	}{
		{"up", func(i int) ns.Value { return valid(uint64(i&1), 0) }},
		{"ready", func(i int) ns.Value { return valid(uint64(i&1), 0) }},
		{"flags", func(i int) ns.Value { return valid(uint64(i*37), 0) }},
		{"addr", func(i int) ns.Value { return valid(0xC0A80001+uint64(i), 0) }},
		{"neg", func(i int) ns.Value { return valid(uint64(uint32(int32(-i))), float64(-i)) }},
		{"big", func(i int) ns.Value { return valid(math.MaxUint64-uint64(i), 0) }},
		{"mac", func(i int) ns.Value { return str("\x00\x1a\x2b\x3c\x4d" + string(rune('A'+i%26))) }},
		{"boot", func(i int) ns.Value { return valid(1700000000+uint64(i), 1700000000) }},
		{"uptime", func(i int) ns.Value { return valid(uint64(i)*12345, 0) }},
		{"rbytes", func(i int) ns.Value { return valid(0, float64(i)*123456.7) }},
		{"reads", func(i int) ns.Value { return valid(0, float64(i)*8.3) }},
		{"%busy", func(i int) ns.Value { return valid(0, float64(i%100)/100) }},
		{"ticks", func(i int) ns.Value { return valid(0, float64(i)) }},
		{"model", func(i int) ns.Value { return str("Samsung SSD 980") }},
		{"reads", func(i int) ns.Value {
			if i%2 == 0 {
				return ns.Value{State: ns.NoRate, Reason: ns.ReasonFirstSample}
			}
			return ns.Value{State: ns.Invalid, Reason: ns.ReasonInvalidData}
		}},
		{"mem", func(i int) ns.Value { return valid(uint64(i)<<30, float64(uint64(i)<<30)) }},
	}
	t := &benchTable{}
	opt := Options{Class: c, Boot: boot, Humanize: true}
	for _, kind := range kinds {
		d := datumNamed(b, c, kind.datum)
		t.cols = append(t.cols, NewColumn(d, opt))
		t.names = append(t.names, d.Name)
		t.vals = append(t.vals, nil)
	}
	for i := 0; i < 200; i++ {
		k := i % len(kinds)
		t.rows = append(t.rows, [2]int{k, len(t.vals[k])})
		t.vals[k] = append(t.vals[k], kinds[k].v(i/len(kinds)))
	}
	return t
}

// render draws the table into buf: one line per row, name left, value right-aligned.
func (t *benchTable) render(buf []byte) []byte {
	for k := range t.cols {
		t.cols[k].Fit(t.vals[k])
	}
	for _, r := range t.rows {
		name := t.names[r[0]]
		buf = append(buf, name...)
		for n := len(name); n < 10; n++ {
			buf = append(buf, ' ')
		}
		t.cell = t.cols[r[0]].Append(t.cell[:0], t.vals[r[0]][r[1]])
		buf = AppendRight(buf, t.cell, 28)
		buf = append(buf, '\n')
	}
	return buf
}

func TestBenchTable(t *testing.T) {
	bt := newBenchTable(&testing.B{})
	out := string(bt.render(nil))
	checkSafe(t, "table", stringsReplaceNewlines(out))
	for _, want := range []string{"true", "yes", "0x0025", "192.168.0.", "00:1a:2b:3c:4d:", "2023-11-14 22:13:",
		"seconds", "MiB/s", "reads/s", "%", "—", "n/a", "GiB"} {
		if !contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func stringsReplaceNewlines(s string) string {
	b := []byte(s)
	for i := range b {
		if b[i] == '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// BenchmarkTable200 renders the 200-row table into a reused buffer: budget 200 µs per table.
func BenchmarkTable200(b *testing.B) {
	bt := newBenchTable(b)
	buf := make([]byte, 0, 16<<10)
	b.ReportAllocs()
	for b.Loop() {
		buf = bt.render(buf[:0])
	}
}

var sink string

// BenchmarkFormatValue is the one-off path (inspector, get): it allocates only its result.
func BenchmarkFormatValue(b *testing.B) {
	c := testClass(b)
	d := datumNamed(b, c, "rbytes")
	v := valid(0, 13002342.4)
	opt := Options{Class: c}
	b.ReportAllocs()
	for b.Loop() {
		sink = FormatValue(d, v, opt)
	}
}
