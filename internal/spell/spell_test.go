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

// Closest offers a name a typo or two away, the first in byte order of two as near, and nothing
// for a name too short to tell or too far from every candidate (issue 42 item 3's did-you-mean).
func TestClosest(t *testing.T) {
	for _, c := range []struct {
		name       string
		candidates []string
		want       string
	}{
		{"lsit", []string{"list", "get", "hot"}, "list"},
		{"intervl", []string{"interval", "json"}, "interval"},
		{"buzy", []string{"busy", "bury"}, "bury"}, // both one away: the first in byte order
		{"buzy", []string{"bury", "busy"}, "bury"}, // whatever the candidates' order
		{"x", []string{"y"}, ""},                   // one edit is the whole name
		{"nope", []string{"list", "describe"}, ""},
		{"get", nil, ""},
	} {
		if got := Closest(c.name, c.candidates); got != c.want {
			t.Errorf("Closest(%q, %q) = %q, want %q", c.name, c.candidates, got, c.want)
		}
	}
}
