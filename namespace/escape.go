package namespace

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// EscapeName is dcimon's one escaping rule for names from outside (device, interface, host and
// dm names, serials), in paths and descriptions alike (issue 21, DCI4-STR-1): printable
// characters, spaces included, stay as they are; a backslash becomes `\\`; C0 controls, DEL and
// bytes that are not UTF-8 become `\xNN`; other characters that are not graphic (C1 controls such
// as the 8-bit CSI U+009B, bidi overrides such as U+202E, zero-width and line separators, private
// use, unassigned) become `\uNNNN` or `\UNNNNNNNN`. The result is readable, unambiguous and safe
// on a terminal; parsers keep the exact bytes and only names and display text pass through here.
func EscapeName(s string) string {
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\\' {
		i++
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	b = append(b, s[:i]...)
	return string(appendEscaped(b, s[i:], ""))
}

// appendEscaped appends s to b under EscapeName's rule; the ASCII characters in also are written
// as `\xNN` too (a path element escapes `/`).
func appendEscaped(b []byte, s, also string) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			switch {
			case c == '\\':
				b = append(b, '\\', '\\')
			case strings.IndexByte(also, c) >= 0:
				b = append(b, '\\', 'x', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1, r < utf8.RuneSelf:
			b = append(b, '\\', 'x', hex[c>>4], hex[c&0xf])
		case unicode.IsGraphic(r):
			b = append(b, s[i:i+size]...)
		case r <= 0xffff:
			b = append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		default:
			b = append(b, '\\', 'U')
			for shift := 28; shift >= 0; shift -= 4 {
				b = append(b, hex[r>>shift&0xf])
			}
		}
		i += size
	}
	return b
}

// Clip shortens s to at most n bytes without splitting a UTF-8 sequence (SPMI descriptions are
// at most 63 bytes, DCI4 strings are bounded by their size).
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
