package headless

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"dcimon/collect"
	"dcimon/collect/dds"
	ns "dcimon/namespace"
	"dcimon/supply"
)

// userSeries is one series of a user's text as the round trip generates it.
type userSeries struct {
	labels [][2]string // sorted by name, names distinct
	value  string      // a decimal of at most six places: what DCI keeps exactly (AMB-30)
}

// genSeries makes up to three series of one gauge family from fuzz input: label names made
// valid, values any UTF-8 (quotes, backslashes, newlines, slashes), numbers n/10^k.
func genSeries(names, values []string, nums []int64, places uint8) []userSeries {
	var out []userSeries
	seen := map[string]bool{}
	for i := 0; i < len(nums) && i < 3; i++ {
		var s userSeries
		used := map[string]bool{}
		for j := range names {
			n := []byte(strings.ToLower(names[j]))
			for k, c := range n {
				if !(c >= 'a' && c <= 'z' || c == '_' || c >= '0' && c <= '9' && k > 0) {
					n[k] = '_'
				}
			}
			name := string(n)
			if name == "" || strings.HasPrefix(name, "__") || used[name] {
				name = fmt.Sprintf("l%d", j)
			}
			used[name] = true
			v := strings.ToValidUTF8(values[(i+j)%len(values)], "?")
			if i > 0 && j == 0 {
				v += strconv.Itoa(i) // every series its own label set
			}
			s.labels = append(s.labels, [2]string{name, v})
		}
		sortLabels(s.labels)
		k := int(places % 7)
		x := nums[i] % 1e15
		s.value = strconv.FormatInt(x, 10)
		if k > 0 {
			neg := x < 0
			d := strconv.FormatInt(int64(math.Abs(float64(x))), 10)
			for len(d) <= k {
				d = "0" + d
			}
			s.value = d[:len(d)-k] + "." + d[len(d)-k:]
			if neg {
				s.value = "-" + s.value
			}
		}
		key := fmt.Sprint(s.labels)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, s)
	}
	return out
}

func sortLabels(ls [][2]string) {
	for i := 1; i < len(ls); i++ {
		for j := i; j > 0 && ls[j][0] < ls[j-1][0]; j-- {
			ls[j], ls[j-1] = ls[j-1], ls[j]
		}
	}
}

// escapeValue writes a label value as the text format does.
func escapeValue(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`).Replace(s)
}

// roundTrip writes the series as a user's file, reads it through DDS into a sampler, writes the
// name space back with `dcimon metrics`' writer, and parses that with expfmt (node_exporter's
// parser): the label sets and values it finds under the family's exported name.
func roundTrip(t *testing.T, series []userSeries, om bool) (map[string]float64, string) {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("# HELP fam A user's family.\n# TYPE fam gauge\n")
	for _, s := range series {
		b.WriteString("fam{")
		for i, l := range s.labels {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(l[0] + `="` + escapeValue(l[1]) + `"`)
		}
		b.WriteString("} " + s.value + "\n")
	}
	if _, err := supply.Parse("acme.prom", []byte(b.String()), supply.DefaultLimits); err != nil {
		t.Skipf("not a text the parser takes: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "acme.prom"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	s, err := collect.NewSampler(ns.NewRegistry(), nil, collect.Options{Now: func() time.Time { return now },
		Discover: dds.New(dds.Options{Dirs: []string{dir}}), Deadline: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := s.Sample(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	refs, err := metricRefs(s.Registry(), []string{"DDS"}, false)
	if err != nil {
		t.Fatal(err)
	}
	text := string(writeMetrics(s.Registry(), snap, refs, Env{Loc: time.UTC}, om))
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		t.Fatalf("the export does not parse: %v\n%s", err, text)
	}
	got := map[string]float64{}
	for _, m := range fams["dcimon_dds_acme_fam"].GetMetric() {
		var key [][2]string
		for _, l := range m.GetLabel() {
			key = append(key, [2]string{l.GetName(), l.GetValue()})
		}
		got[fmt.Sprint(key)] = m.GetGauge().GetValue()
	}
	return got, text
}

// Issue 33 item 5: a user's series is exported with its own label names and values, exactly (a
// label `v` stays `v`, "slash/path" stays "slash/path", quotes, backslashes, newlines and any
// UTF-8 stay what they are), and its value is the same number, for any label sets and any value
// of at most six decimals (finer decimals are rounded to millionths: DCI keeps no floating
// point, AMB-30). Both formats.
func FuzzMetricsRoundTrip(f *testing.F) {
	f.Add("v", "q", "slash/path", `a"b\c`+"\nd", int64(12), int64(-7), uint8(0))
	f.Add("instname", "hostname", "1 minute", "ünï ∕ 🙂", int64(25), int64(1234567), uint8(6))
	f.Add("le", "quantile", "", "{}=,", int64(9007199254740993), int64(0), uint8(3))
	f.Add("'", "8u0nt9le", "", "", int64(9007199254740993), int64(0), uint8(3)) // an empty label value names an instance too
	f.Fuzz(func(t *testing.T, n1, n2, v1, v2 string, x1, x2 int64, places uint8) {
		if !utf8.ValidString(v1+v2) || len(v1)+len(v2) > 512 {
			return
		}
		series := genSeries([]string{n1, n2}, []string{v1, v2}, []int64{x1, x2}, places)
		for _, om := range []bool{false, true} {
			got, text := roundTrip(t, series, om)
			if len(got) != len(series) {
				t.Fatalf("%d series back of %d:\n%s", len(got), len(series), text)
			}
			for _, s := range series {
				want, _ := strconv.ParseFloat(s.value, 64)
				v, ok := got[fmt.Sprint(s.labels)]
				if !ok || v != want {
					t.Fatalf("series %q = %v (there %v), want %v exactly:\n%s", s.labels, v, ok, want, text)
				}
			}
		}
	})
}
