package supply

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

func TestParseText(t *testing.T) {
	t.Parallel()
	in := `# DCIMON vendor=acme interval=10s
# PCP5 acme.queue.depth 245.0.1 u32 245.0 instant count
# HELP acme_queue_depth Jobs waiting, per queue.
# TYPE acme_queue_depth gauge
acme_queue_depth{queue="mail"} 12
acme_queue_depth{queue="print",site="b"} 3
# HELP acme_jobs_done Jobs finished.
# TYPE acme_jobs_done counter
# UNIT acme_jobs_done jobs
acme_jobs_done_total{queue="mail"} 1e6
acme_jobs_done_created{queue="mail"} 1.7e9
# TYPE acme_build info
acme_build_info{version="1.2"} 1
acme_temperature NaN
# TYPE acme_latency_seconds histogram
acme_latency_seconds_bucket{le="0.1"} 3
acme_latency_seconds_bucket{le="+Inf"} 5
acme_latency_seconds_sum 0.42
acme_latency_seconds_count 5
acme_untyped +Inf
# EOF
`
	doc, err := Parse("acme.om", []byte(in), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Vendor != "acme" || doc.Interval != 10*time.Second {
		t.Errorf("vendor %q interval %v", doc.Vendor, doc.Interval)
	}
	var names []string
	for _, f := range doc.Families {
		names = append(names, f.Name+":"+f.Type)
	}
	// In the order the text names them; the OpenMetrics counter as the text format names it.
	want := "acme_queue_depth:gauge acme_jobs_done_total:counter acme_build_info:untyped acme_temperature:untyped acme_latency_seconds:histogram acme_untyped:untyped"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("families\n%s\nwant\n%s", got, want)
	}
	q := doc.Families[0]
	if q.PCP == nil || q.PCP.Name != "acme.queue.depth" || q.PCP.Sem != "instant" || q.PCP.Units != "count" || q.Help != "Jobs waiting, per queue." {
		t.Errorf("queue depth: %+v %+v", q, q.PCP)
	}
	if len(q.Series) != 2 || q.Series[1].LabelKey() != `{queue="print",site="b"}` || q.Series[1].Value != 3 {
		t.Errorf("series %+v", q.Series)
	}
	done := doc.Families[1]
	if done.Unit != "jobs" || done.Help != "Jobs finished." || len(done.Series) != 1 || done.Series[0].Value != 1e6 {
		t.Errorf("jobs done: %+v", done)
	}
	if doc.Families[2].OMType != "info" {
		t.Errorf("info type kept as %q", doc.Families[2].OMType)
	}
	if v := doc.Families[3].Series[0].Value; !math.IsNaN(v) {
		t.Errorf("NaN read as %v", v)
	}
	if h := doc.Families[4].Series[0]; h.Sum != 0.42 || h.Count != 5 {
		t.Errorf("histogram %+v", h)
	}
	if v := doc.Families[5].Series[0].Value; !math.IsInf(v, 1) {
		t.Errorf("+Inf read as %v", v)
	}
}

// Bad input: a clear error with the file and line, nothing half-read.
func TestParseErrors(t *testing.T) {
	t.Parallel()
	lim := Limits{MaxBytes: 1 << 20, MaxLine: 100, MaxSeries: 3}
	for in, want := range map[string]string{
		"# DCIMON vendor=a/b\n":                     `f.prom:1: # DCIMON vendor="a/b"`,
		"# DCIMON interval=1ms\n":                   `f.prom:1: # DCIMON interval="1ms"`,
		"# DCIMON colour=red\n":                     `unknown key "colour"`,
		"# DCIMON enterprise=0\n":                   `enterprise="0": want an IANA enterprise number`,
		"# PCP5 a.b 1.2.3\n":                        "f.prom:1: # PCP5 wants name pmid type indom sem units",
		"x 1\n" + strings.Repeat("y", 200) + " 2\n": "f.prom:2: a line of 202 bytes: past the limit",
		"a 1\nb 2\nc 3\nd 4\n":                      "more than 3 series: past the limit",
		"a{x=\"1\"} 1\na{x=\"1\"} 2\n":              `f.prom:1: family a: the series {x="1"} is given twice`,
		"# TYPE a gauge\n# TYPE a counter\na 1\n":   "second TYPE line",
		"a{x=\"\xff\"} 1\n":                         "invalid label value",
		"# TYPE a thing\na 1\n":                     `unknown metric type "thing"`,
		"a one\n":                                   "line 1",
		"a{x=\"1\" 1\n":                             "line 1",
	} {
		_, err := Parse("f.prom", []byte(in), lim)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", in, err, want)
		}
	}
	if _, err := Parse("big", make([]byte, 2<<20), lim); !errors.Is(err, ErrLimit) {
		t.Errorf("a 2 MiB text: %v", err)
	}
}

func TestVendorOf(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"/x/acme.prom": "acme", "my queue.om": "my_queue", "probe.sh": "probe",
		".prom": "unnamed", strings.Repeat("a", 40) + ".prom": strings.Repeat("a", 31)} {
		if got := VendorOf(in); got != want {
			t.Errorf("VendorOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzParse: never panics; a text accepted has only families with series, at most MaxSeries of
// them, and parsing it again gives the same.
func FuzzParse(f *testing.F) {
	f.Add([]byte("# HELP a x\n# TYPE a counter\na_total{l=\"v\"} 1\n# EOF\n"))
	f.Add([]byte("# PCP5 a 1.2.3 u32 1.2 counter count\n# TYPE a gauge\na 2\n"))
	f.Add([]byte("# DCIMON vendor=v interval=1s\nb{x=\"a\\\"b\"} NaN\n"))
	f.Add([]byte("# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_sum 1\nh_count 1\n"))
	lim := Limits{MaxBytes: 1 << 16, MaxLine: 1 << 10, MaxSeries: 50}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Parse("fuzz", data, lim)
		if errors.Is(err, ErrLimit) && strings.Contains(err.Error(), "series") && len(data) <= lim.MaxBytes {
			all := lim
			all.MaxSeries = 0 // the early count refuses nothing the count of what was parsed allows
			if whole, err2 := Parse("fuzz", data, all); err2 == nil && seriesOf(whole) <= lim.MaxSeries {
				t.Fatalf("refused (%v), yet it has %d series", err, seriesOf(whole))
			}
		}
		if err != nil {
			return
		}
		n := 0
		for _, fam := range doc.Families {
			if len(fam.Series) == 0 || fam.Name == "" {
				t.Fatalf("family %+v", fam)
			}
			n += len(fam.Series)
		}
		if n > lim.MaxSeries {
			t.Fatalf("%d series", n)
		}
		again, err := Parse("fuzz", data, lim)
		if err != nil || len(again.Families) != len(doc.Families) {
			t.Fatalf("a second parse differs: %v", err)
		}
	})
}

// BenchmarkParse10000: a text of 10,000 series in 100 families, as a busy exporter writes.
func BenchmarkParse10000(b *testing.B) {
	var sb strings.Builder
	for f := range 100 {
		fmt.Fprintf(&sb, "# HELP fam%d Something measured.\n# TYPE fam%d gauge\n", f, f)
		for s := range 100 {
			fmt.Fprintf(&sb, "fam%d{host=\"h%d\",disk=\"sd%d\"} %d.5\n", f, s%10, s, s)
		}
	}
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("bench", data, DefaultLimits); err != nil {
			b.Fatal(err)
		}
	}
}

// seriesOf counts a text's series.
func seriesOf(d *Doc) int {
	n := 0
	for _, f := range d.Families {
		n += len(f.Series)
	}
	return n
}
