package views

import (
	"reflect"
	"strings"
	"testing"

	ns "dcimon/namespace"
)

const (
	alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	desc80   = "Block device statistics read from the kernel for every disk the host can see now"
)

// DCI4-SUP-7: at 60 columns the title, 50 description characters and 20 name characters show.
func TestSupplierText60(t *testing.T) {
	if len(desc80) != 80 {
		t.Fatalf("fixture is %d chars", len(desc80))
	}
	sup := &ns.Supplier{Title: alphabet, Description: desc80}
	title, desc := SupplierText(sup, 60, 1)
	if !reflect.DeepEqual(title, []string{alphabet}) {
		t.Errorf("title %q", title)
	}
	if len(desc) != 1 || !strings.HasPrefix(desc[0], desc80[:50]) || !strings.HasSuffix(desc[0], "…") || Width(desc[0]) > 60 {
		t.Errorf("description %q", desc)
	}
	name := StatName("abcdefghijklmnopqrstuvwxyz", 60)
	if !reflect.DeepEqual(name, []string{"abcdefghijklmnopqrstuvwxyz"}) {
		t.Errorf("name %q", name)
	}
	// Unlimited lines: the whole description, wrapped at spaces.
	_, all := SupplierText(sup, 60, 0)
	if strings.Join(all, " ") != desc80 {
		t.Errorf("full description %q", all)
	}
}

// DCI4-SUP-7 / AMB-57: narrower than the minimum, text wraps instead of being cut short.
func TestFitTextNarrow(t *testing.T) {
	cases := []struct {
		name     string
		s        string
		width    int
		min, max int
		want     []string
	}{
		{"DCI4-SUP-7 title at 10", alphabet, 10, MinTitle, 1, []string{"ABCDEFGHIJ", "KLMNOPQRST", "…"}},
		{"DCI4-SUP-7 title at 12", alphabet, 12, MinTitle, 1, []string{"ABCDEFGHIJKL", "MNOPQRSTUVW…"}},
		{"DCI4-SUP-7 title at 25", alphabet, 25, MinTitle, 1, []string{"ABCDEFGHIJKLMNOPQRSTUVWX…"}},
		{"DCI4-SUP-7 fits", "short", 25, MinTitle, 1, []string{"short"}},
		{"AMB-57 word wrap", "disk io stats", 8, 5, 0, []string{"disk io", "stats"}},
		{"AMB-57 word wrap cut", "disk io stats here", 8, 5, 1, []string{"disk io…"}},
		{"AMB-57 width 0", "abc", 0, 2, 1, []string{"a", "b", "…"}},
		{"AMB-57 empty", "", 10, 20, 1, nil},
		{"DCI4-STR-1 escaped", "a\x07b", 10, 3, 1, []string{`a\x07b`}},
		{"AMB-57 wide characters", "漢字漢字", 5, 1, 0, []string{"漢字", "漢字"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := FitText(c.s, c.width, c.min, c.max)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("FitText(%q, %d, %d, %d) = %q, want %q", c.s, c.width, c.min, c.max, got, c.want)
			}
		})
	}
}

// DCI4-SUP-7: whatever the width and line budget, the first min characters are all shown and
// no line is wider than the width.
func TestFitTextKeepsMinimum(t *testing.T) {
	texts := []string{alphabet, desc80, "a b c d e f g h i j k l m n o p q r s t u v w x y z", "supercalifragilistic expialidocious words"}
	for _, s := range texts {
		for _, min := range []int{MinTitle, MinDescription} {
			for width := 1; width <= 70; width++ {
				for maxLines := 0; maxLines <= 3; maxLines++ {
					checkFit(t, s, width, min, maxLines)
				}
			}
		}
	}
}

func checkFit(t *testing.T, s string, width, min, maxLines int) {
	t.Helper()
	lines := FitText(s, width, min, maxLines)
	joined := strings.ReplaceAll(strings.Join(lines, ""), " ", "")
	joined = strings.TrimSuffix(joined, "…")
	want := []rune(s)
	if len(want) > min {
		want = want[:min]
	}
	prefix := strings.ReplaceAll(string(want), " ", "")
	if !strings.HasPrefix(joined, prefix) {
		t.Fatalf("FitText(%q, w=%d, min=%d, max=%d) = %q lost the first %d characters", s, width, min, maxLines, lines, min)
	}
	for _, l := range lines {
		if Width(l) > width && Width(l) > 2 {
			t.Fatalf("FitText(%q, w=%d) line %q is too wide", s, width, l)
		}
	}
}
