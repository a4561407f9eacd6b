package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"dcimon/views"
)

// Cell-width helpers for plain (unstyled) text. Panes lay out plain text first and style it
// last, so measuring never has to skip escape sequences on the hot path.

// width is the number of terminal cells plain text s occupies.
func width(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// cut shortens plain text s to at most w cells, ending with "…" when it had to cut.
func cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(s) <= w {
		return s
	}
	if w == 1 {
		return "…"
	}
	return ansi.Truncate(s, w, "…")
}

// pad cuts plain text s to w cells and fills it with spaces to exactly w.
func pad(s string, w int) string {
	s = cut(s, w)
	if n := w - width(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// padLeft right-aligns plain text s in w cells (cutting it when it is longer).
func padLeft(s string, w int) string {
	s = cut(s, w)
	if n := w - width(s); n > 0 {
		return strings.Repeat(" ", n) + s
	}
	return s
}

// fitLine makes a possibly styled line exactly w cells wide.
func fitLine(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// block makes a possibly styled text exactly w cells wide and h lines high.
func block(s string, w, h int) []string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i := range lines {
		lines[i] = fitLine(lines[i], w)
	}
	blank := strings.Repeat(" ", max(w, 0))
	for len(lines) < h {
		lines = append(lines, blank)
	}
	return lines
}

// wrapText breaks text into lines of at most w cells, at spaces where it can and inside words
// where it must, made safe for the terminal; it never drops a character (DCI4-SUP-7, AMB-57:
// wrap, never cut).
func wrapText(s string, w int) []string {
	out := views.FitText(s, w, 0, 0)
	if len(out) == 0 {
		return []string{""}
	}
	return out
}
