package ui

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"dcimon/views"
)

// Cell-width helpers for plain (unstyled) text. Panes lay out plain text first and style it
// last, so measuring never has to skip escape sequences on the hot path.

// spaceRun is blank cells to slice from, so padding a line does not make a string of spaces.
var spaceRun = strings.Repeat(" ", 512)

// blanks is n spaces.
func blanks(n int) string {
	if n <= 0 {
		return ""
	}
	if n <= len(spaceRun) {
		return spaceRun[:n]
	}
	return strings.Repeat(" ", n)
}

// width is the number of terminal cells plain text s occupies.
func width(s string) int { return cellWidth(s) }

// cellWidth is ansi.StringWidth(s) without its cost in the common case: printable ASCII, the
// one-cell characters the monitor draws with (box drawing, blocks, arrows, punctuation, Latin-1)
// and SGR sequences. Anything else (wide or combining characters, other escapes, controls) is
// measured by ansi.StringWidth.
func cellWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			n++
			i++
		case c == 0x1b:
			// CSI: ESC '[', parameter and intermediate bytes 0x20-0x3f, a final byte 0x40-0x7e.
			j := i + 2
			if j > len(s) || s[i+1] != '[' {
				return ansi.StringWidth(s)
			}
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
				j++
			}
			if j >= len(s) || s[j] < 0x40 || s[j] > 0x7e {
				return ansi.StringWidth(s)
			}
			i = j + 1
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !oneCell(r) {
				return ansi.StringWidth(s)
			}
			n++
			i += size
		default:
			return ansi.StringWidth(s)
		}
	}
	return n
}

// oneCell reports whether r is one of the characters cellWidth measures itself: each takes one
// cell and none joins a neighbour into one grapheme (TestCellWidth checks every one of them
// against ansi.StringWidth).
func oneCell(r rune) bool {
	switch {
	case r >= 0xa1 && r <= 0xff && r != 0xad: // Latin-1, without the soft hyphen
		return true
	case r >= 0x2010 && r <= 0x2027: // dashes, quotes, bullets, the ellipsis
		return true
	case r >= 0x2030 && r <= 0x205e: // per mille, primes, angle quotes
		return true
	case r >= 0x2190 && r <= 0x21ff: // arrows
		return true
	case r >= 0x2500 && r <= 0x25ff: // box drawing, blocks, geometric shapes
		return !wideShape(r)
	}
	return false
}

// wideShape are the geometric shapes that terminals draw two cells wide (emoji presentation).
func wideShape(r rune) bool { return r == 0x25fd || r == 0x25fe }

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
	if printableASCII(s) {
		// A cell a byte: what ansi.Truncate gives, without its grapheme walk (the process
		// block cuts most of its command lines at every frame).
		return s[:w-1] + "…"
	}
	return ansi.Truncate(s, w, "…")
}

// printableASCII reports whether s is printable ASCII only: one cell a byte, no escapes.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// fitTo cuts plain text s to w cells when it is wider, and says how many cells it takes.
func fitTo(s string, w int) (string, int) {
	sw := width(s)
	if sw > w {
		s = cut(s, w)
		sw = width(s)
	}
	return s, sw
}

// pad cuts plain text s to w cells and fills it with spaces to exactly w.
func pad(s string, w int) string {
	if w <= 0 {
		return ""
	}
	s, sw := fitTo(s, w)
	if n := w - sw; n > 0 {
		return s + blanks(n)
	}
	return s
}

// writePad writes pad(s, w) onto sb without making a string of it first.
func writePad(sb *strings.Builder, s string, w int) {
	if w <= 0 {
		return
	}
	s, sw := fitTo(s, w)
	sb.WriteString(s)
	sb.WriteString(blanks(w - sw))
}

// writePadLeft writes padLeft(s, w) onto sb without making a string of it first.
func writePadLeft(sb *strings.Builder, s string, w int) {
	if w <= 0 {
		return
	}
	s, sw := fitTo(s, w)
	sb.WriteString(blanks(w - sw))
	sb.WriteString(s)
}

// padLeft right-aligns plain text s in w cells (cutting it when it is longer).
func padLeft(s string, w int) string {
	if w <= 0 {
		return ""
	}
	s, sw := fitTo(s, w)
	if n := w - sw; n > 0 {
		return blanks(n) + s
	}
	return s
}

// keepInView is the first row to show so that row cursor is among the h rows shown from it,
// moving the view as little as possible from offset, within n rows in all.
func keepInView(cursor, offset, h, n int) int {
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+h {
		offset = cursor - h + 1
	}
	return clamp(offset, 0, max(n-h, 0))
}

// fitLine makes a possibly styled line exactly w cells wide.
func fitLine(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := cellWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = cellWidth(s)
	}
	if sw < w {
		s += blanks(w - sw)
	}
	return s
}

// block makes a possibly styled text exactly w cells wide and h lines high.
func block(s string, w, h int) []string { return fitLines(strings.Split(s, "\n"), w, h) }

// fitBlock makes possibly styled lines exactly w cells wide and h lines high, as block does
// with them joined; it changes lines in place.
func fitBlock(lines []string, w, h int) []string {
	for _, l := range lines {
		if strings.IndexByte(l, '\n') >= 0 {
			return block(strings.Join(lines, "\n"), w, h)
		}
	}
	return fitLines(lines, w, h)
}

// mutedBlock is a pane with nothing to show: msg in muted text, as a block w×h.
func mutedBlock(st *styles, msg string, w, h int) []string {
	return fitBlock([]string{st.Text.Muted.Render(msg)}, w, h)
}

// fitLines cuts or pads lines, none holding a newline, to exactly w cells wide and h lines high,
// in place.
func fitLines(lines []string, w, h int) []string {
	if len(lines) > h {
		lines = lines[:max(h, 0)]
	}
	for i := range lines {
		lines[i] = fitLine(lines[i], w)
	}
	blank := blanks(w)
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

// plural is "1 match", "2 matches".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
