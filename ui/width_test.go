package ui

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestCellWidth: cellWidth measures what ansi.StringWidth measures, every one-cell character it
// handles itself alone and next to each other, and falls back for the rest.
func TestCellWidth(t *testing.T) {
	var own []rune
	for r := rune(0); r < 0x30000; r++ {
		if oneCell(r) {
			own = append(own, r)
			if w := ansi.StringWidth(string(r)); w != 1 {
				t.Errorf("%U %q: ansi.StringWidth %d, cellWidth counts 1", r, r, w)
			}
		}
	}
	for _, a := range own {
		for _, b := range own {
			if s := string([]rune{a, b}); ansi.StringWidth(s) != 2 {
				t.Fatalf("%q: ansi.StringWidth %d, cellWidth counts 2", s, ansi.StringWidth(s))
			}
		}
	}
	tests := []string{
		"", "plain", "  12.5 MiB/s", "▾ CPU (4)", "│█░▶—…·›‹×é",
		"\x1b[38;2;1;2;3mred\x1b[0m", "\x1b[1;4mb\x1b[0m u", "\x1b[m", "\x1b[0", "\x1b", "a\x1b]8;;http://x\x07link\x1b]8;;\x07",
		"名前", "e\u0301", "👍🏽", "⏸ paused", "\t", "a\nb", "\x7f", "◽◾", "\u200b", "soft\u00adhyphen",
	}
	for _, s := range tests {
		if got, want := cellWidth(s), ansi.StringWidth(s); got != want {
			t.Errorf("cellWidth(%q) = %d, ansi.StringWidth %d", s, got, want)
		}
	}
}

func TestPadAndFit(t *testing.T) {
	tests := []struct {
		s    string
		w    int
		pad  string
		left string
		fit  string
	}{
		{"abc", 5, "abc  ", "  abc", "abc  "},
		{"abcdef", 4, "abc…", "abc…", "abc…"},
		{"", 3, "   ", "   ", "   "},
		{"abc", 0, "", "", ""},
		{"—│", 3, "—│ ", " —│", "—│ "},
		{"名前x", 4, "名… ", " 名…", "名… "},
	}
	for _, tt := range tests {
		if got := pad(tt.s, tt.w); got != tt.pad {
			t.Errorf("pad(%q, %d) = %q, want %q", tt.s, tt.w, got, tt.pad)
		}
		if got := padLeft(tt.s, tt.w); got != tt.left {
			t.Errorf("padLeft(%q, %d) = %q, want %q", tt.s, tt.w, got, tt.left)
		}
		if got := fitLine(tt.s, tt.w); got != tt.fit {
			t.Errorf("fitLine(%q, %d) = %q, want %q", tt.s, tt.w, got, tt.fit)
		}
	}
	if b := blanks(600); len(b) != 600 || blanks(-1) != "" || blanks(3) != "   " {
		t.Error("blanks")
	}
}
