package views

import (
	"math"
	"testing"
)

// issue 12: thresholds are typed and shown in the units the statistic is shown in.
func TestParseThreshold(t *testing.T) {
	c := testClass(t)
	cases := []struct {
		datum, in string
		want      float64 // in the datum's own unit
		err       bool
	}{
		{"%busy", "50", 0.5, false},
		{"%busy", "50%", 0.5, false},
		{"%busy", "-5", -0.05, false},
		{"%busy", "0.5", 0.005, false},
		{"%busy", "5x", 0, true},
		{"%busy", "fifty", 0, true},
		{"%busy", "NaN", 0, true},
		{"busy", "25", 250, false},     // ms/s of one processor: 25% is 250 ms/s
		{"alluser", "25", 1000, false}, // of 4 processors: 25% is 1000 ms/s
		{"wbytes", "10MiB", 10 << 20, false},
		{"wbytes", "10 MiB/s", 10 << 20, false},
		{"wbytes", "10M", 10 << 20, false},
		{"wbytes", "10MB", 10 << 20, false}, // the scale's letter and B, in either case
		{"wbytes", "10mib", 10 << 20, false},
		{"wbytes", "3k", 3 << 10, false},
		{"wbytes", "3 TiB", 3 << 40, false},
		{"wbytes", "1024", 1024, false},
		{"wbytes", "2 ms", 0, true},
		{"reads", "1.5k", 1500, false},
		{"reads", "1.5k reads/s", 1500, false},
		{"reads", "1.5K", 1500, false},
		{"reads", "2 M", 2e6, false},
		{"reads", "2 MiB", 0, true}, // a size's unit on a count
		{"reads", "200", 200, false},
		{"svctime", "2ms", 2, false}, // ms per read, in ms
		{"svctime", "250us", 0.25, false},
		{"svctime", "0.002", 2, false}, // a bare number is in seconds, the base of the unit
	}
	for _, tc := range cases {
		m := MeasureFor(c, datumNamed(t, c, tc.datum))
		got, err := ParseThreshold(m, tc.in)
		if (err != nil) != tc.err {
			t.Errorf("ParseThreshold(%s, %q) error %v, want error %v", tc.datum, tc.in, err, tc.err)
			continue
		}
		if err == nil && math.Abs(got-tc.want) > 1e-9*math.Max(1, math.Abs(tc.want)) {
			t.Errorf("ParseThreshold(%s, %q) = %g, want %g", tc.datum, tc.in, got, tc.want)
		}
	}
}

func TestThresholdText(t *testing.T) {
	c := testClass(t)
	pct := MeasureFor(c, datumNamed(t, c, "%busy"))
	for _, tc := range []struct {
		m    Measure
		t    float64
		want string
	}{
		{pct, 0.5, "> 50.0%"},
		{pct, -0.05, "< 5.0%"},
		{pct, 0, "0 (every value)"},
		{MeasureFor(c, datumNamed(t, c, "wbytes")), 10 << 20, "> 10 MiB/s"},
	} {
		if got := ThresholdText(tc.m, tc.t); got != tc.want {
			t.Errorf("ThresholdText(%g) = %q, want %q", tc.t, got, tc.want)
		}
	}
	if got := ThresholdInput(pct, 0.5); got != "50" {
		t.Errorf("ThresholdInput(50%%) = %q, want 50", got)
	}
}

// issue 12: a value's Base in BaseLabel says the same quantity as its text.
func TestBaseAgreesWithText(t *testing.T) {
	c := testClass(t)
	for _, tc := range []struct {
		datum string
		v     float64
		base  float64
		label string
	}{
		{"%busy", 0.75, 75, "%"},
		{"busy", 890, 89, "%"},
		{"wbytes", 2048, 2048, "B/s"},
		{"reads", 830, 830, "reads/s"},
		{"svctime", 2.5, 0.0025, "s/op"},
		{"cache", 2048, 2 << 20, "B"},
	} {
		m := MeasureFor(c, datumNamed(t, c, tc.datum))
		if got := m.Base(tc.v); math.Abs(got-tc.base) > 1e-9*math.Max(1, tc.base) || m.BaseLabel() != tc.label {
			t.Errorf("%s: Base(%g) = %g %s, want %g %s", tc.datum, tc.v, got, m.BaseLabel(), tc.base, tc.label)
		}
	}
}
