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
	src := &stubSampler{reg: r, log: ns.NewEventLog(10)}
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

// TestTreeKeepsTwentyCharactersDeepDown: in the narrowest full layout (120×40, a 22-cell tree)
// a statistic three levels down still shows the first 20 characters of its name in the tree:
// its indent gives way first (DCI4-SUP-7).
func TestTreeKeepsTwentyCharactersDeepDown(t *testing.T) {
	stat := "abcdefghijklmnopqrstuvwxyz"
	r := ns.NewRegistry()
	top := &ns.Class{ID: ns.ClassID{7}, Name: "Deep", Flags: ns.ClassEnabled}
	dev := &ns.Class{ID: ns.ClassID{7, 2}, Name: "dev", Flags: ns.ClassEnabled, InstFreq: ns.SiContInst,
		Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagDevice, Size: 4}},
		Datums: []ns.Datum{ns.Gauge(1, "x", ns.TypeUint4, ns.UnitCount, "x", "nowhere")}}
	part := &ns.Class{ID: ns.ClassID{7, 3}, Name: "part", Flags: ns.ClassEnabled, InstFreq: ns.SiContInst, NestUnder: ns.ClassID{7, 2},
		Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagDevice, Size: 4}, {Type: ns.TypeUint4, Tag: ns.TagDevice, Size: 4}},
		Datums: []ns.Datum{ns.Gauge(1, stat, ns.TypeUint4, ns.UnitCount, "A long name", "nowhere")}}
	for _, c := range []*ns.Class{top, dev, part} {
		if err := r.RegisterClass(c); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := r.Sync(dev, []ns.InstanceSpec{{Levels: []uint64{1}, OSName: "sda"}}, fixtureNow, nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.Sync(part, []ns.InstanceSpec{{Levels: []uint64{1, 2}, OSName: "sda1"}}, fixtureNow, nil); err != nil {
		t.Fatal(err)
	}
	m := newModel(t, &stubSampler{reg: r, log: ns.NewEventLog(10)}, 120, 40, 1)
	m = keys(t, m, ":Deep/sda/sda1/"+stat+"{enter}1")
	if m.tree.w != 22 {
		t.Fatalf("tree %d wide, want the narrowest full layout's 22", m.tree.w)
	}
	if s := stripANSI(m.tree.View()); !strings.Contains(s, stat[:20]) {
		t.Errorf("the tree cuts the statistic name below 20:\n%s", s)
	}
}
