package headless

import (
	"testing"

	"dcimon/views"
)

// Issue 42 item 4: performance-data labels are always quoted, a quote doubled (the guidelines'
// escape), `=` (which no label may hold) made `_`, control characters made visible; thresholds
// are the guidelines' ranges.
func TestPerfLabelAndRange(t *testing.T) {
	for in, want := range map[string]string{
		"sda busy":    "'sda busy'",
		"it's":        "'it''s'",
		"a=b":         "'a_b'",
		"x\ny":        "'" + views.Safe("x\ny") + "'",
		"''":          "''''''",
		"/home %used": "'/home %used'",
	} {
		if got := perfLabel(in); got != want {
			t.Errorf("perfLabel(%q) = %s, want %s", in, got, want)
		}
	}
	pct := views.Measure{Kind: views.KindPercent}
	for _, tc := range []struct {
		t    float64
		want string
	}{{0.8, "80"}, {-0.05, "5:"}, {0, ""}} {
		if got := perfRange(pct, tc.t); got != tc.want {
			t.Errorf("perfRange(%v) = %q, want %q", tc.t, got, tc.want)
		}
	}
	for x, want := range map[float64]string{79.94041708: "79.9404", 1048576.4: "1048580", 0: "0", -2.5: "-2.5"} {
		if got := perfNumber(x); got != want {
			t.Errorf("perfNumber(%v) = %q, want %q", x, got, want)
		}
	}
}
