package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// cut's short way for printable ASCII gives what ansi.Truncate gives, and text that is not
// printable ASCII (wide characters, escapes, controls) still goes the long way (issue 38 item 5).
func TestCutAgreesWithTruncate(t *testing.T) {
	for _, s := range []string{
		"/usr/bin/python3 -m http.server 8000", "a", "ab", strings.Repeat("x", 300),
		"日本語のコマンド --flag", "\x1b[1mbold\x1b[0m and more", "tab\there", "é accent ok", "x\x7fdel",
	} {
		for w := 2; w <= len(s)+2; w++ {
			want := s
			if width(s) > w {
				want = ansi.Truncate(s, w, "…")
			}
			if got := cut(s, w); got != want {
				t.Errorf("cut(%q, %d) = %q, want %q", s, w, got, want)
			}
		}
	}
}
