package dds

import (
	"slices"
	"strings"
	"testing"
	"time"

	ns "dcimon/namespace"
	"dcimon/supply"
)

// Issue 33, PCPD-2, PCPD-3: a # PCP5 line's semantics, type and units win over # TYPE and the
// name, and the datum's source says what came from where (describe shows it).
func TestDDSPCP5Wins(t *testing.T) {
	h := newDDSHarness(t, 0)
	h.write("acme.prom", `# PCP5 acme.bytes 99.0.1 u64 PM_INDOM_NULL counter byte
# HELP moved_seconds Bytes moved (the name says seconds, PCP says bytes).
# TYPE moved_seconds gauge
moved_seconds 4096
# PCP5 acme.cpus 99.0.2 u32 PM_INDOM_NULL discrete none
# TYPE cpus gauge
cpus 8
# PCP5 acme.temp 99.0.3 32 PM_INDOM_NULL instant none
# TYPE temp gauge
temp -3
# PCP5 acme.big 99.0.4 u32 PM_INDOM_NULL instant none
# TYPE big gauge
big 5000000000
# PCP5 acme.neg 99.0.5 u32 PM_INDOM_NULL instant none
# TYPE neg gauge
neg -1
# PCP5 acme.half 99.0.6 u32 PM_INDOM_NULL instant none
# TYPE half gauge
half 1.5
# PCP5 acme.ratio 99.0.7 double PM_INDOM_NULL instant none
# TYPE ratio gauge
ratio 0.125
# PCP5 acme.bogus 99.0.8 string PM_INDOM_NULL sideways none
# TYPE bogus counter
bogus 3
`, 0)
	h.tick(time.Second)
	datum := func(p string) *ns.Datum {
		t.Helper()
		ref, err := h.s.Registry().Lookup(nil, p)
		if err != nil {
			t.Fatal(err)
		}
		return ref.Datum
	}
	for _, c := range []struct {
		path string
		typ  ns.DataType
		sem  ns.PMSem
		pm   ns.PMType
		unit ns.Unit
	}{
		{"DDS/acme/moved_seconds/value", ns.TypeUint8, ns.PMSemCounter, ns.PMTypeU64, ns.UnitBytes},
		{"DDS/acme/cpus/value", ns.TypeUint4, ns.PMSemDiscrete, ns.PMTypeU32, ns.UnitNone},
		{"DDS/acme/temp/value", ns.TypeInt4, ns.PMSemInstant, ns.PMType32, ns.UnitNone},
		{"DDS/acme/ratio/value", ns.TypeInt8, ns.PMSemInstant, ns.PMTypeDouble, ns.UnitMicroUnits},
		{"DDS/acme/bogus/value", ns.TypeUint8, ns.PMSemCounter, ns.PMTypeU64, ns.UnitNone},
	} {
		d := datum(c.path)
		if d.Type != c.typ || d.PCP.Sem != c.sem || d.PCP.Type != c.pm || d.Units != c.unit {
			t.Errorf("%s: %s %s %s %s, want %s %s %s %s", c.path, d.Type, d.PCP.Sem, d.PCP.Type, d.Units, c.typ, c.sem, c.pm, c.unit)
		}
	}
	src := datum("DDS/acme/moved_seconds/value").Source
	for _, want := range []string{"acme.prom line 2", "semantics counter (# PCP5, line 1; over instant (# TYPE gauge))",
		"type u64 (# PCP5, line 1)", "units byte (# PCP5, line 1)"} {
		if !strings.Contains(src, want) {
			t.Errorf("source %q does not say %q", src, want)
		}
	}
	if src := datum("DDS/acme/bogus/value").Source; !strings.Contains(src, `# PCP5 semantics "sideways" unknown`) ||
		!strings.Contains(src, `# PCP5 type "string" not used`) {
		t.Errorf("bogus words not reported: %q", src)
	}
	if v := h.value("DDS/acme/temp/value"); v.State != ns.Valid || v.V != -3 {
		t.Errorf("a signed 32-bit -3: %+v", v)
	}
	// A value that does not fit the PCP type is not truncated, never 0.
	for _, p := range []string{"DDS/acme/big/value", "DDS/acme/neg/value", "DDS/acme/half/value"} {
		if v := h.value(p); v.State != ns.Unavailable || v.Reason != ns.ReasonOverflow {
			t.Errorf("%s = %+v, want n/a (value does not fit its type)", p, v)
		}
	}
	// A counter by # PCP5 has a rate though # TYPE says gauge.
	h.write("acme.prom", strings.Replace(h.read("acme.prom"), "moved_seconds 4096", "moved_seconds 14336", 1), 10*time.Second)
	h.tick(time.Second)
	if v := h.value("DDS/acme/moved_seconds/value"); v.State != ns.Valid || v.V != 1024 {
		t.Errorf("moved rate %+v, want 1024 B/s", v)
	}
}

// Issue 33: instances are named by instname, else by the labels that vary between the series of
// the family, never by a hash of all; PCP's context labels every series of the text shares name
// nothing. SPMI-HIER-10: the supplier gives each label set a name of its own (a duplicate instname
// falls back to all the labels), so the registry's check of duplicates never has to refuse one.
func TestDDSInstanceNames(t *testing.T) {
	fam := func(series ...[]supply.Label) *supply.Family {
		f := &supply.Family{Name: "f", Type: "gauge", Line: 1}
		for _, ls := range series {
			f.Series = append(f.Series, supply.Series{Labels: ls, Value: 1})
		}
		return f
	}
	l := func(kv ...string) []supply.Label {
		var out []supply.Label
		for i := 0; i < len(kv); i += 2 {
			out = append(out, supply.Label{Name: kv[i], Value: kv[i+1]})
		}
		return out
	}
	host := l("hostname", "web1")
	for _, c := range []struct {
		what     string
		f        *supply.Family
		constant []supply.Label
		want     []string // nil: a single value
	}{
		{"instname", fam(l("host", "a", "instname", "1 minute"), l("host", "a", "instname", "5 minute")), nil, []string{"1 minute", "5 minute"}},
		{"one varying label", fam(l("dev", "sda", "host", "a"), l("dev", "sdb", "host", "a")), nil, []string{"sda", "sdb"}},
		{"two varying labels", fam(l("dev", "sda", "op", "r"), l("dev", "sda", "op", "w"), l("dev", "sdb", "op", "r")), nil,
			[]string{"dev=sda,op=r", "dev=sda,op=w", "dev=sdb,op=r"}},
		{"a label some lack", fam(l(), l("q", "x")), nil, []string{"{}", "x"}},
		{"slash", fam(l("v", "slash/path"), l("v", "b")), nil, []string{"slash∕path", "b"}},
		{"an empty value", fam(l("v", ""), l("v", "b")), nil, []string{"v=", "b"}},
		{"one series, the host's labels", fam(host), host, nil},
		{"one series, its own label", fam(l("hostname", "web1", "queue", "mail")), host, []string{"mail"}},
		{"duplicate instnames", fam(l("i", "1", "instname", "x"), l("i", "2", "instname", "x")), nil, []string{"x", "i=2,instname=x"}},
	} {
		ids := newDDSIDs()
		fd := declare(nil, ids, "acme", ids.vendor("acme", 0), "x", c.f, c.constant)
		var before [][]supply.Label // the text's labels, which the series drop once learnt
		for _, s := range c.f.Series {
			before = append(before, slices.Clone(s.Labels))
		}
		fd.learn(c.f)
		specs, _ := fd.read(c.f)
		if c.want == nil {
			if !fd.stats.SingleInstance() || len(fd.stats.Labels) != len(c.f.Series[0].Labels) {
				t.Errorf("%s: single %v labels %v, want a single value with its labels", c.what, fd.stats.SingleInstance(), fd.stats.Labels)
			}
			continue
		}
		var got []string
		for _, sp := range specs {
			got = append(got, sp.OSName)
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: names %q, want %q", c.what, got, c.want)
		}
		for i, sp := range specs {
			if !slices.EqualFunc(sp.Labels, before[i], func(a ns.Attr, b supply.Label) bool { return a.Key == b.Name && a.Value == b.Value }) {
				t.Errorf("%s: %s has labels %v", c.what, sp.OSName, sp.Labels)
			}
		}
	}
}

// Only PCP's context labels that every series of a text shares are the host's: a file about one
// disk still names its disk.
func TestDDSConstantLabels(t *testing.T) {
	doc, err := supply.Parse("x.prom", []byte("a{hostname=\"h\",disk=\"sda\"} 1\nb{hostname=\"h\",disk=\"sda\"} 2\n"), supply.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if got := constantLabels(doc); len(got) != 1 || got[0] != (supply.Label{Name: "hostname", Value: "h"}) {
		t.Errorf("constant labels %v, want hostname only", got)
	}
	doc.Families = doc.Families[:1]
	if got := constantLabels(doc); got != nil {
		t.Errorf("a text of one family: %v, want none", got)
	}
}
