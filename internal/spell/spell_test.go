package spell

import "testing"

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"interval", "interval", 0},
		{"intervl", "interval", 1},   // a deletion
		{"intervall", "interval", 1}, // an insertion
		{"interwal", "interval", 1},  // a substitution
		{"kitten", "sitting", 3},
		{"tehme", "theme", 2}, // a transposition is two edits
		{"é", "e", 2},         // bytes, not runes
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (not symmetric)", c.b, c.a, got, c.want)
		}
	}
}
