package supply

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// fill writes lines made by line(i) until the text is nearly limit bytes.
func fill(limit int, line func(i int) string) []byte {
	var b bytes.Buffer
	for i := 0; ; i++ {
		l := line(i)
		if b.Len()+len(l) > limit {
			return b.Bytes()
		}
		b.WriteString(l)
	}
}

// Issue 38 item 3: a text past the series limit is refused as it is read, before memory grows:
// a 16 MB text of a million series, or of two million one-line families, costs at most 64 MiB
// to refuse (it cost 492 MB and 966 MB, parsed whole before it was counted).
func TestParseRefusesLargeTextsEarly(t *testing.T) {
	lim := DefaultLimits
	for name, line := range map[string]func(i int) string{
		"labelled series": func(i int) string {
			return fmt.Sprintf("requests{host=\"h%d\",disk=\"sd%d\"} %d\n", i%1000, i, i)
		},
		"one-line families": func(i int) string { return fmt.Sprintf("m%d %d\n", i, i%10) },
		"families declared without samples": func(i int) string {
			return fmt.Sprintf("# TYPE m%d gauge\n", i)
		},
		"histograms": func(i int) string {
			return fmt.Sprintf("h_bucket{s=\"%d\",le=\"+Inf\"} 1\nh_sum{s=\"%d\"} 1\nh_count{s=\"%d\"} 1\n", i, i, i)
		},
	} {
		data := fill(lim.MaxBytes, line)
		if name == "histograms" {
			data = append([]byte("# TYPE h histogram\n"), data...)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Parse("big.prom", data, lim)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ErrLimit) {
			t.Errorf("%s (%d bytes): %v, want the limit's error", name, len(data), err)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
			t.Errorf("%s (%d bytes): %d MiB allocated to refuse it, want at most 64", name, len(data), got>>20)
		}
	}
}

// The early count never refuses a text the limit allows: a histogram's and a summary's lines
// are one series each, so a text of exactly MaxSeries series of many lines is read whole.
func TestParseAtTheLimit(t *testing.T) {
	t.Parallel()
	lim := Limits{MaxBytes: 1 << 20, MaxLine: 1 << 10, MaxSeries: 4}
	text := "# TYPE h histogram\n" +
		"h_bucket{s=\"a\",le=\"1\"} 1\nh_bucket{s=\"a\",le=\"+Inf\"} 2\nh_sum{s=\"a\"} 3\nh_count{s=\"a\"} 2\n" +
		"h_bucket{s=\"b\",le=\"1\"} 1\nh_bucket{s=\"b\",le=\"+Inf\"} 2\nh_sum{s=\"b\"} 3\nh_count{s=\"b\"} 2\n" +
		"# TYPE q summary\nq{quantile=\"0.5\"} 1\nq{quantile=\"0.9\"} 2\nq_sum 3\nq_count 2\n" +
		"# TYPE c counter\nc_total 5\nc_created 1700000000\n# EOF\n"
	doc, err := Parse("limit.om", []byte(text), lim)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range doc.Families {
		n += len(f.Series)
	}
	if n != 4 {
		t.Errorf("%d series, want 4", n)
	}
	if _, err := Parse("limit.om", []byte(strings.Replace(text, "# EOF\n", "g 1\n", 1)), lim); !errors.Is(err, ErrLimit) {
		t.Errorf("a fifth series: %v, want the limit's error", err)
	}
}

// BenchmarkParseRefused: a 16 MB text of a million labelled series past the limit, refused
// (issue 38's budget: within 1 s of reading, at most 64 MiB).
func BenchmarkParseRefused(b *testing.B) {
	data := fill(DefaultLimits.MaxBytes, func(i int) string {
		return fmt.Sprintf("requests{host=\"h%d\",disk=\"sd%d\"} %d\n", i%1000, i, i)
	})
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("big.prom", data, DefaultLimits); !errors.Is(err, ErrLimit) {
			b.Fatal(err)
		}
	}
}
