package tomlmsg

import (
	"strings"
	"testing"
)

func TestPos(t *testing.T) {
	data := []byte("a = 1\n\nb = \"é\"\nc")
	at := NewLines(data)
	for _, tc := range []struct{ off, line, col int }{
		{0, 1, 1},  // the file's first byte
		{5, 1, 6},  // a newline belongs to the line it ends
		{6, 2, 1},  // an empty line
		{7, 3, 1},  // after it
		{13, 3, 7}, // columns count bytes: é's second byte
		{16, 4, 1}, // the last line, with no newline
	} {
		if l, c := at.Pos(tc.off); l != tc.line || c != tc.col {
			t.Errorf("Pos(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
		}
	}
	if l, c := NewLines(nil).Pos(0); l != 1 || c != 1 {
		t.Errorf("empty file: Pos(0) = %d:%d, want 1:1", l, c)
	}
}

func TestCut(t *testing.T) {
	short := strings.Repeat("k", MaxText)
	if got := Cut(short); got != short {
		t.Errorf("Cut of %d bytes changed it: %q", MaxText, got)
	}
	if got := Cut(short + "x"); got != short+"…" {
		t.Errorf("Cut of %d bytes = %q", MaxText+1, got)
	}
	// "é" is two bytes: one straddling the limit is left out whole, never split.
	s := strings.Repeat("k", MaxText-1) + "éé"
	if got := Cut(s); got != strings.Repeat("k", MaxText-1)+"…" {
		t.Errorf("Cut split a character: %q", got)
	}
}
