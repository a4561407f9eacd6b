package ui

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	ns "dcimon/namespace"
	"dcimon/theme"
	"dcimon/views"
)

// Table tests of the pure helpers (house style rule 13).

func TestBarScale(t *testing.T) {
	tests := []struct {
		name      string
		v, lo, hi float64
		frac      float64
		over, ok  bool
	}{
		{"SPMI-VAL-3 level 50 of 0..100", 50, 0, 100, 0.5, false, true},
		{"counter 100 over 2 s is 50/s: half, not full", 100.0 / 2, 0, 100, 0.5, false, true},
		{"AMB-41 150 clamps and says so", 150, 0, 100, 1, true, true},
		{"below the scale", -5, 0, 100, 0, false, true},
		{"offset scale", 15, 10, 20, 0.5, false, true},
		{"no scale", 5, 0, 0, 0, false, false},
		{"reversed scale", 5, 10, 0, 0, false, false},
		{"NaN", math.NaN(), 0, 1, 0, false, false},
	}
	for _, tt := range tests {
		f, over, ok := barScale(tt.v, tt.lo, tt.hi)
		if math.Abs(f-tt.frac) > 1e-9 || over != tt.over || ok != tt.ok {
			t.Errorf("%s: barScale(%g, %g, %g) = %g %v %v, want %g %v %v", tt.name, tt.v, tt.lo, tt.hi, f, over, ok, tt.frac, tt.over, tt.ok)
		}
	}
}

func TestDatumBar(t *testing.T) {
	d := &ns.Datum{Min: 0, Max: 100}
	tests := []struct {
		v        ns.Value
		frac     float64
		over, ok bool
	}{
		{ns.Value{V: 50}, 0.5, false, true},
		{ns.Value{V: 150}, 1, true, true},
		{ns.Value{V: -1}, 0, false, true}, // clamped at the bottom, not "over"
		{ns.Value{State: ns.Invalid}, 0, false, false},
		{ns.Value{State: ns.NoRate}, 0, false, false},
	}
	for _, tt := range tests {
		f, over, ok := datumBar(d, tt.v)
		if f != tt.frac || over != tt.over || ok != tt.ok {
			t.Errorf("datumBar(%+v) = %g %v %v, want %g %v %v", tt.v, f, over, ok, tt.frac, tt.over, tt.ok)
		}
	}
}

func TestBarCells(t *testing.T) {
	tests := []struct {
		frac  float64
		w     int
		fill  string
		empty int
	}{
		{0, 4, "", 4},
		{1, 4, "████", 0},
		{0.5, 4, "██", 2},
		{0.5, 3, "█▌", 1},
		{1.0 / 32, 4, "▏", 3},
		{2, 3, "███", 0}, // clamped
		{0.5, 0, "", 0},
	}
	for _, tt := range tests {
		fill, empty := barCells(tt.frac, tt.w)
		if fill != tt.fill || empty != tt.empty {
			t.Errorf("barCells(%g, %d) = %q %d, want %q %d", tt.frac, tt.w, fill, empty, tt.fill, tt.empty)
		}
	}
}

func TestSparkline(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		vals   []float64
		w      int
		lo, hi float64
		want   string
	}{
		{[]float64{0, 1, 2, 3, 4, 5, 6, 7}, 8, 0, 0, "▁▂▃▄▅▆▇█"},
		{[]float64{1, 2}, 4, 0, 0, "  ▅█"},      // right-aligned: the newest at the right
		{[]float64{5, nan, 5}, 3, 0, 10, "▅ ▅"}, // no reading is a blank, never a zero
		{[]float64{20, -5}, 2, 0, 10, "█▁"},     // clamped to the scale
		{[]float64{1, 2, 3, 4}, 2, 0, 0, "▆█"},  // only the last w values
		{[]float64{3, 3, 3}, 3, 0, 0, "███"},    // a constant from zero
		{nil, 3, 0, 0, "   "},
		{[]float64{1}, 0, 0, 0, ""},
	}
	for _, tt := range tests {
		if got := sparkline(tt.vals, tt.w, tt.lo, tt.hi); got != tt.want {
			t.Errorf("sparkline(%v, %d, %g, %g) = %q, want %q", tt.vals, tt.w, tt.lo, tt.hi, got, tt.want)
		}
	}
}

func TestRing(t *testing.T) {
	var r ring
	for i := 0; i < ringLen+3; i++ {
		r.push(float64(i), i != 5)
	}
	got := r.values(nil)
	if len(got) != ringLen || got[0] != 3 || got[len(got)-1] != ringLen+2 {
		t.Fatalf("ring keeps the last %d in order: %v", ringLen, got[:3])
	}
	if m := r.max(); m != ringLen+2 {
		t.Errorf("max %g", m)
	}
}

func TestLessName(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"cpu2", "cpu10", true}, {"cpu10", "cpu2", false}, {"sda", "sdb", true}, {"sdz", "sdaa", true}, {"sdaa", "sdb", false}, // issue 12: sda … sdz, then sdaa
		{"eth0", "lo", true}, {"enp3s0", "eth0", true}, {"sda", "sda1", true},
		{"eth0", "eth0.100", true}, {"a", "a", false}, {"nvme0n1", "nvme0n10", true}, {"", "a", true},
	}
	for _, tt := range tests {
		if got := lessName(tt.a, tt.b); got != tt.want {
			t.Errorf("lessName(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}

func TestTextHelpers(t *testing.T) {
	tests := []struct{ got, want string }{
		{cut("abcdef", 4), "abc…"}, {cut("abc", 4), "abc"}, {cut("abc", 1), "…"}, {cut("abc", 0), ""},
		{pad("ab", 4), "ab  "}, {pad("abcdef", 4), "abc…"}, {padLeft("ab", 4), "  ab"},
		{fitLine("\x1b[1mab\x1b[0m", 4), "\x1b[1mab\x1b[0m  "},
		{strings.Join(wrapText("the quick brown fox", 9), "|"), "the quick|brown fox"},
		{strings.Join(wrapText("abcdefghij", 4), "|"), "abcd|efgh|ij"}, // never cut: wrapped
		{strings.Join(block("a\nb\nc", 2, 2), "|"), "a |b "},
		{plural(1, "match", "matches"), "1 match"}, {plural(3, "match", "matches"), "3 matches"},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("case %d: %q, want %q", i, tt.got, tt.want)
		}
	}
}

func TestLineInput(t *testing.T) {
	in := newLineInput(ptr(newInputKeys()), "", 5)
	typeIn := func(k tea.KeyMsg) { in.Update(k) }
	for _, r := range "abcdefg" {
		typeIn(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	if in.Value() != "abcde" {
		t.Fatalf("limit: %q", in.Value())
	}
	typeIn(tea.KeyMsg{Type: tea.KeyLeft})
	typeIn(tea.KeyMsg{Type: tea.KeyBackspace})
	if in.Value() != "abce" {
		t.Fatalf("backspace inside: %q", in.Value())
	}
	typeIn(tea.KeyMsg{Type: tea.KeyHome})
	typeIn(tea.KeyMsg{Type: tea.KeyDelete})
	if in.Value() != "bce" {
		t.Fatalf("delete at home: %q", in.Value())
	}
	in.SetValue("CPU/cpu0")
	typeIn(tea.KeyMsg{Type: tea.KeyCtrlW})
	if in.Value() != "CPU/" {
		t.Fatalf("ctrl+w deletes the last path word: %q", in.Value())
	}
	typeIn(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'\x07'}}) // not printable
	typeIn(tea.KeyMsg{Type: tea.KeyCtrlU})
	if in.Value() != "" {
		t.Fatalf("ctrl+u clears: %q", in.Value())
	}
}

// TestKeyMapsHaveHelp checks every binding shown in help has a key and a description, and that
// bindings of one pane do not shadow each other.
func TestKeyMapsHaveHelp(t *testing.T) {
	maps := map[string][][]key.Binding{
		"global": newGlobalKeys().FullHelp(), "tree": newTree(testStyles(), newTreeKeys()).FullHelp(),
		"values": newValues(testStyles(), newValuesKeys(), newProcKeys(), valueFormat{}).FullHelp(),
		"hot":    newHot(testStyles(), newHotKeys(), valueFormat{}).FullHelp(),
	}
	for name, groups := range maps {
		seen := map[string]string{}
		for _, g := range groups {
			for _, b := range g {
				if b.Help().Key == "" || b.Help().Desc == "" {
					t.Errorf("%s: a binding without help: %v", name, b.Keys())
				}
				for _, k := range b.Keys() {
					if other, dup := seen[k]; dup {
						t.Errorf("%s: key %q is both %q and %q", name, k, other, b.Help().Desc)
					}
					seen[k] = b.Help().Desc
				}
			}
		}
	}
}

// TestValueFormatHumanisesDurations: the monitor shows a relative time of a minute or more
// with its rounded form, as the headless commands do (AMB-15).
func TestValueFormatHumanisesDurations(t *testing.T) {
	d := ns.Gauge(1, "uptime", ns.TypeUint8, ns.UnitNone, "Uptime", "test").WithDCI4(ns.STTime, ns.STFMonotonic, ns.STPRelative)
	d.DCI4.Size = 8 // registration completes it from the type; this datum is not registered
	got := valueFormat{loc: time.UTC}.text(nil, &d, ns.Value{N: 969440})
	if want := "9694.40 seconds (2h 41m)"; got != want {
		t.Errorf("uptime shown as %q, want %q", got, want)
	}
}

func TestFitSegments(t *testing.T) {
	bar := []segment{
		{text: "myhost", rank: rankHost},
		{text: "sample 12:00:00", rank: rankState},
		{text: "every 1s", rank: rankRoutine},
		{text: "▶ live", rank: rankState},
		{text: "providers 5 ok", rank: rankRoutine},
		{text: "1 degraded", rank: rankWarning},
		{text: "dcimon cpu 0.1% mem 12 MiB", rank: rankSelf},
		{text: "3 slow ticks", rank: rankWarning},
	}
	texts := func(segs []segment) string {
		var out []string
		for _, s := range segs {
			out = append(out, s.text)
		}
		return strings.Join(out, " │ ")
	}
	cases := []struct {
		w    int
		want string
	}{
		{200, "myhost │ sample 12:00:00 │ every 1s │ ▶ live │ providers 5 ok │ 1 degraded │ dcimon cpu 0.1% mem 12 MiB │ 3 slow ticks"},
		// dcimon's own cost goes first, then the routine parts, the later first.
		{90, "myhost │ sample 12:00:00 │ every 1s │ ▶ live │ providers 5 ok │ 1 degraded │ 3 slow ticks"},
		{79, "myhost │ sample 12:00:00 │ every 1s │ ▶ live │ 1 degraded │ 3 slow ticks"},
		{61, "myhost │ sample 12:00:00 │ ▶ live │ 1 degraded │ 3 slow ticks"},
		{52, "sample 12:00:00 │ ▶ live │ 1 degraded │ 3 slow ticks"},
		{50, "sample 12:00:00 │ 1 degraded │ 3 slow ticks"},
		// The warnings are the last to go, the later first.
		{12, "1 degraded"},
		{5, "1 degraded"},
	}
	for _, c := range cases {
		got := texts(fitSegments(slices.Clone(bar), c.w))
		if got != c.want {
			t.Errorf("width %d:\n got %s\nwant %s", c.w, got, c.want)
		}
		if c.w >= 12 && width(got) > c.w {
			t.Errorf("width %d: %d cells", c.w, width(got))
		}
	}
}

// TestValueStatesLookDifferent is X-5's test: a table with an invalid, an unavailable, an
// erroring and a zero-valued cell shows four different states, in every theme (mono by
// attribute alone), and none of the three without a value reads as 0.
func TestValueStatesLookDifferent(t *testing.T) {
	cells := []ns.Value{
		{State: ns.Invalid, Reason: ns.ReasonInvalidData},
		{State: ns.Unavailable, Reason: ns.ReasonNoValues},
		{State: ns.Unavailable, Reason: ns.ReasonProviderError},
		{State: ns.Valid, N: 0, V: 0},
	}
	// As on a 256-colour terminal; TestMain pins no colour for everything else.
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	for _, name := range theme.Names() {
		th, err := theme.Resolve(name, false)
		if err != nil {
			t.Fatal(err)
		}
		st := newStyles(th)
		seen := map[string]int{}
		for i, v := range cells {
			text := views.Mark(v)
			if v.State == ns.Valid {
				text = "0"
			} else if text == "0" {
				t.Errorf("%s: cell %d without a value reads 0", name, i)
			}
			painted := valueInk(st, v).Render(text)
			if j, dup := seen[painted]; dup {
				t.Errorf("%s: cells %d and %d look the same: %q", name, j, i, painted)
			}
			seen[painted] = i
		}
	}
}

func TestKeepInView(t *testing.T) {
	cases := []struct{ cursor, offset, h, n, want int }{
		{0, 0, 10, 100, 0},
		{5, 0, 10, 100, 0},   // in view: no move
		{10, 0, 10, 100, 1},  // one below: one row
		{50, 0, 10, 100, 41}, // far below: the cursor on the last row
		{3, 20, 10, 100, 3},  // above: the cursor on the first row
		{99, 95, 10, 100, 90},
		{5, 40, 10, 8, 0}, // fewer rows than the view
	}
	for _, c := range cases {
		if got := keepInView(c.cursor, c.offset, c.h, c.n); got != c.want {
			t.Errorf("keepInView(%d, %d, %d, %d) = %d, want %d", c.cursor, c.offset, c.h, c.n, got, c.want)
		}
	}
}

// TestLineInputMeasuresCells: a field of w cells shows exactly w cells, wide characters counting
// two, with the cursor kept in view (the hand-written input drew 名前名前名前 14 cells wide in an
// 8-cell field).
func TestLineInputMeasuresCells(t *testing.T) {
	st := testStyles()
	for _, w := range []int{1, 2, 5, 8, 13} {
		in := newLineInput(ptr(newInputKeys()), "名前名前名前", 0)
		for _, focused := range []bool{true, false} {
			if got := cellWidth(in.View(st, w, focused)); got != w {
				t.Errorf("w=%d focused=%v: %d cells", w, focused, got)
			}
		}
		in.Update(tea.KeyMsg{Type: tea.KeyHome})
		if got := cellWidth(in.View(st, w, true)); got != w {
			t.Errorf("w=%d cursor at start: %d cells", w, got)
		}
	}
	in := newLineInput(ptr(newInputKeys()), "名前名前名前", 0)
	if v := stripANSI(in.View(st, 8, true)); !strings.Contains(v, "名前") || !strings.HasSuffix(strings.TrimRight(v, " "), "前") {
		t.Errorf("the end of the text is not in view with the cursor there: %q", v)
	}
}

// TestLineInputViewChangesNothing: drawing an input unfocused does not blur it: typing after a
// View still edits the text (the input is shared by every copy of the model).
func TestLineInputViewChangesNothing(t *testing.T) {
	in := newLineInput(ptr(newInputKeys()), "2", 12)
	_ = in.View(testStyles(), 10, false)
	in.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'5'}})
	if in.Value() != "25" {
		t.Errorf("after an unfocused View, typing gives %q", in.Value())
	}
}

// Issue 31: a fleet's ranked item keeps its host and its peer in the room there is: the class
// goes first, then the middle of the host, never the end that tells two hosts apart.
func TestFitItemName(t *testing.T) {
	for _, tt := range []struct {
		name  string
		fleet bool
		w     int
		want  string
	}{
		{"web01/Disk/sda", true, 24, "web01/Disk/sda"},
		{"127.0.0.1:34567/Disk/sda", true, 24, "127.0.0.1:34567/Disk/sda"},
		{"127.0.0.1:34567/Disk/sda", true, 19, "127.0.0.1:34567 sda"},
		{"127.0.0.1:34567/Disk/sda", true, 14, "127.0…4567 sda"},
		{"127.0.0.1:34567/Disk/sda", true, 6, "sda"},
		{"db.example.com/NetIf/eth0", true, 16, "db.ex…e.com eth0"},
		{"web/Disk/sda", false, 8, "web/Disk/sda"}, // not a fleet: pad cuts it as before
	} {
		got := fitItemName(ns.HotItem{Name: tt.name}, tt.fleet, tt.w)
		if got != tt.want || (tt.fleet && width(got) > tt.w) {
			t.Errorf("%s in %d: %q, want %q", tt.name, tt.w, got, tt.want)
		}
	}
}

// A fleet ranking whose one item does not fit shows every item without its class, so that its
// rows read alike ("db cpu" beside "web cpu", not "db/Pressure/cpu").
func TestFitItemNamesAlike(t *testing.T) {
	items := []ns.HotItem{{Name: "db/Pressure/cpu"}, {Name: "web/Pressure/cpu"}}
	compact := compactItems(items, true, 15)
	if !compact {
		t.Fatal("web/Pressure/cpu fits in 15 cells?")
	}
	for i, want := range []string{"db cpu", "web cpu"} {
		if got := fitItemNameIn(items[i], true, 15, compact); got != want {
			t.Errorf("%s: %q, want %q", items[i].Name, got, want)
		}
	}
	if compactItems(items, true, 16) || compactItems(items, false, 3) {
		t.Error("compact when every item fits, or outside a fleet")
	}
}
