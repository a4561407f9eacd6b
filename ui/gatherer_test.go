package ui

import (
	"strings"
	"testing"

	ns "dcimon/namespace"
)

// TestMinimumWidths is DCI4-SUP-7 at 60×20: the first 20 characters of a supplier title and of
// a statistic name and the first 50 of a supplier description are on screen, wrapped if need be,
// never cut shorter (AMB-57).
func TestMinimumWidths(t *testing.T) {
	title := "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	desc := "Supplier description written to be exactly eighty characters long for the checks"
	stat := "abcdefghijklmnopqrstuvwxyz"
	if len(desc) != 80 || len(stat) != 26 {
		t.Fatalf("fixture lengths %d %d", len(desc), len(stat))
	}
	r := ns.NewRegistry()
	err := r.RegisterClass(&ns.Class{ID: ns.ClassID{7}, Name: "Wide", Flags: ns.ClassEnabled,
		Supplier: &ns.Supplier{IVersion: 101, Module: "wide", Title: title, Description: desc},
		Levels:   []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagSingleInst, Size: 4}},
		Datums:   []ns.Datum{ns.Gauge(1, stat, ns.TypeUint4, ns.UnitCount, "A long name", "nowhere")}})
	if err != nil {
		t.Fatal(err)
	}
	src := &stubSource{reg: r, log: ns.NewEventLog(10)}
	m := newModel(t, src, 60, 20, 2)
	m = keys(t, m, ":Wide/"+stat+"{enter}")
	flat := func(s string) string {
		return strings.NewReplacer(" ", "", "│", "", "\n", "").Replace(s)
	}
	if s := plainView(m); !strings.Contains(s, stat[:20]) {
		t.Errorf("the tree cuts the statistic name below 20:\n%s", s)
	}
	m = keys(t, m, "2")
	if s := plainView(m); !strings.Contains(s, stat[:20]) {
		t.Errorf("the values pane cuts the statistic name below 20:\n%s", s)
	}
	m = keys(t, m, "4")
	var all strings.Builder
	for i := 0; i < 20; i++ { // page through the inspector
		all.WriteString(plainView(m))
		m = keys(t, m, "{pgdown}")
	}
	s := flat(all.String())
	for _, want := range []string{title[:20], flat(desc[:50]), stat[:20]} {
		if !strings.Contains(s, want) {
			t.Errorf("the inspector lacks %q", want)
		}
	}
}
