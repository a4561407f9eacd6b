package views

import (
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/charmbracelet/x/ansi"
)

// Text that comes from a supplier (DCI4 strings, names, titles, descriptions) is shown literally
// but made harmless first: a terminal must never receive a control character or an escape
// sequence from data (DCI4-STR-1). Every such character is replaced by a visible escape:
//
//   - C0 controls, DEL and bytes that are not valid UTF-8 become `\xNN` (`\x1b`, `\x07`, `\xff`);
//   - C1 controls (U+0080..U+009F) and the invisible characters that reorder or break lines
//     (U+061C, U+200E, U+200F, U+2028..U+202E, U+2066..U+2069, U+FEFF, U+FFF9..U+FFFB) become
//     `\uNNNN`.
//
// Backslashes are left alone, so a literal `\x07` in the data and an escaped BEL look the same;
// the describe pane says when a value was escaped.

const hexDigits = "0123456789abcdef"

// unsafeRune reports whether r must not reach a terminal as it is.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r < 0x61c:
		return false
	case r == 0x61c, r == 0x200e, r == 0x200f, r >= 0x2028 && r <= 0x202e, r >= 0x2066 && r <= 0x2069,
		r == 0xfeff, r >= 0xfff9 && r <= 0xfffb:
		return true
	}
	return false
}

func appendEscByte(dst []byte, c byte) []byte {
	return append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
}

func appendEscRune(dst []byte, r rune) []byte {
	if r < 0x80 {
		return appendEscByte(dst, byte(r))
	}
	return append(dst, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

// AppendSafe appends s to dst with control characters, escape sequences and invalid UTF-8 made
// visible and harmless. It reports whether anything had to be escaped.
func AppendSafe(dst []byte, s string) ([]byte, bool) {
	esc := false
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			dst, esc = appendEscByte(dst, c), true
		case unsafeRune(r):
			dst, esc = appendEscRune(dst, r), true
		default:
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return dst, esc
}

// appendSafeBytes is AppendSafe for a byte slice (a DCI4 read buffer), read in place: the
// string view of the bytes is only read while the call runs.
func appendSafeBytes(dst []byte, s []byte) ([]byte, bool) {
	return AppendSafe(dst, unsafe.String(unsafe.SliceData(s), len(s)))
}

// Safe returns s made harmless for a terminal (see AppendSafe); s itself when nothing changes.
func Safe(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			b, _ := AppendSafe(make([]byte, 0, len(s)+8), s)
			return string(b)
		}
	}
	return s
}

// Width is the number of terminal cells s occupies, measured the way lipgloss measures it.
func Width(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// widthBytes is Width for text this package made (no escape sequences), without copying it.
func widthBytes(b []byte) int {
	w := 0
	for len(b) > 0 {
		if b[0] < 0x80 {
			w++
			b = b[1:]
			continue
		}
		cl, cw := ansi.FirstGraphemeCluster(b, ansi.GraphemeWidth)
		if len(cl) == 0 {
			cl = b[:1]
		}
		w += cw
		b = b[len(cl):]
	}
	return w
}

// AppendRight appends cell to dst right-aligned in width cells: padded on the left with spaces,
// never cut (a value is never shortened to fit; the caller chose the width from its cells).
func AppendRight(dst []byte, cell []byte, width int) []byte {
	for n := width - widthBytes(cell); n > 0; n-- {
		dst = append(dst, ' ')
	}
	return append(dst, cell...)
}

// SplitUnit cuts a scaled value's text into its number and its unit, so a column of values can
// line up on the numbers (issue 12): `12.4 MiB/s` → `12.4`, `MiB/s`; `75.0%` → `75.0`, `%`;
// `1.22k ops/s` → `1.22k`, `ops/s`. Text that is not a number followed by a unit (a name, a
// date, a mark, a bare number) comes back whole with an empty unit.
func SplitUnit(text string) (num, unit string) {
	i := 0
	for i < len(text) && (text[i] == '-' || text[i] == '.' || text[i] >= '0' && text[i] <= '9') {
		i++
	}
	if i == 0 || i == len(text) {
		return text, ""
	}
	if _, err := strconv.ParseFloat(text[:i], 64); err != nil {
		return text, ""
	}
	rest := text[i:]
	if strings.IndexByte("kMGTPE", rest[0]) >= 0 && len(rest) > 1 && rest[1] == ' ' {
		i++ // a count's prefix stays with its number
		rest = text[i:]
	}
	switch {
	case rest == "%":
		return text[:i], "%"
	case rest[0] == ' ' && len(rest) > 1:
		return text[:i], rest[1:]
	}
	return text, ""
}

// AlignValue lays a value's text out in numW+1+unitW cells so that numbers line up on their
// last digit and units on their first letter; a mark (`n/a`, `—`) ends where the numbers do;
// anything else is right-aligned in the whole width.
func AlignValue(text string, numW, unitW int) string {
	num, unit := SplitUnit(text)
	switch {
	case unit != "" && Width(num) <= numW && Width(unit) <= unitW:
		return PadLeft(num, numW) + " " + Pad(unit, unitW)
	case Width(text) <= numW && (text == MarkNA || text == MarkNoRate || text == MarkError || isNumber(text)):
		return PadLeft(text, numW) + strings.Repeat(" ", unitW+1)
	}
	return PadLeft(text, numW+1+unitW)
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// Pad pads s on the right with spaces to width cells.
func Pad(s string, width int) string {
	n := width - Width(s)
	if n <= 0 {
		return s
	}
	return s + strings.Repeat(" ", n)
}

// PadLeft pads s on the left with spaces to width cells.
func PadLeft(s string, width int) string {
	n := width - Width(s)
	if n <= 0 {
		return s
	}
	return strings.Repeat(" ", n) + s
}

// FitText lays s (made safe first) out in lines of at most width cells, breaking at spaces where
// it can and inside words where it must. When maxLines > 0 and the text needs more lines, it is
// cut and the last line ends with "…" — but never within its first min characters: if those
// need more than maxLines lines at this width, more lines are used (DCI4-SUP-7, AMB-57). A width
// below 1 is taken as 1. Characters are counted as the supplier wrote them (runes), so an escaped
// control character still counts as one.
func FitText(s string, width, min, maxLines int) []string {
	if width < 1 {
		width = 1
	}
	t, keepEnd := safePrefix(s, min)
	lines := wrap(t, width)
	if len(lines) == 0 {
		return nil
	}
	if maxLines <= 0 || len(lines) <= maxLines {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = t[l.start:l.end]
		}
		return out
	}
	// Keep enough lines to show the minimum prefix (which ends at byte keepEnd of t).
	keep := maxLines
	for keep < len(lines) && lines[keep-1].end < keepEnd {
		keep++
	}
	out := make([]string, keep)
	for i := range out {
		out[i] = t[lines[i].start:lines[i].end]
	}
	if keep == len(lines) {
		return out
	}
	last := lines[keep-1]
	// Make room for the ellipsis by dropping whole characters beyond the minimum.
	end := last.end
	for end > last.start && Width(t[last.start:end])+1 > width {
		_, n := utf8.DecodeLastRuneInString(t[last.start:end])
		if end-n < keepEnd {
			break
		}
		end -= n
	}
	if Width(t[last.start:end])+1 <= width {
		out[keep-1] = strings.TrimRight(t[last.start:end], " ") + "…"
	} else {
		out = append(out, "…")
	}
	return out
}

// safePrefix makes s safe and returns, with it, the byte offset in the safe text where the first
// min runes of s end.
func safePrefix(s string, min int) (string, int) {
	if min <= 0 {
		return Safe(s), 0
	}
	cut := len(s)
	for i := range s {
		if min == 0 {
			cut = i
			break
		}
		min--
	}
	head, _ := AppendSafe(nil, s[:cut])
	all, _ := AppendSafe(head, s[cut:])
	return string(all), len(head)
}

type span struct{ start, end int }

// wrap breaks t into lines of at most width cells, at spaces when possible, measuring grapheme
// clusters the way the terminal draws them.
func wrap(t string, width int) []span {
	var lines []span
	i := 0
	for i < len(t) {
		for i < len(t) && t[i] == ' ' { // a line never starts with the space it broke at
			i++
		}
		if i >= len(t) {
			break
		}
		start, w, lastSpace := i, 0, -1
		j := i
		for j < len(t) {
			cl, cw := ansi.FirstGraphemeCluster(t[j:], ansi.GraphemeWidth)
			if len(cl) == 0 {
				break
			}
			if w+cw > width && j > start {
				break
			}
			if t[j] == ' ' {
				lastSpace = j
			}
			w += cw
			j += len(cl)
		}
		end := j
		if j < len(t) && t[j] != ' ' && lastSpace > start {
			end = lastSpace // break at the last space rather than inside a word
		}
		for end > start && t[end-1] == ' ' {
			end--
		}
		if end == start { // only spaces fitted
			end = j
		}
		lines = append(lines, span{start, end})
		i = end
	}
	return lines
}
