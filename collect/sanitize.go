package collect

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// sanitizeName makes a name from the kernel (device, interface, host, dm name, serial) safe to print on a
// terminal, keeping it readable and unambiguous: printable characters, spaces included, stay as they are;
// a backslash becomes `\\`; C0 controls, DEL and bytes that are not UTF-8 become `\xNN`; other characters
// that are not graphic (C1 controls such as the 8-bit CSI U+009B, bidi overrides, zero-width and line
// separators, private use, unassigned) become `\uNNNN` or `\UNNNNNNNN`. Parsers keep the exact bytes;
// only display code calls this (checklist DCI4-STR-1: non-printable bytes are escaped).
func sanitizeName(s string) string {
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\\' {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\':
			b.WriteString(`\\`)
		case r < utf8.RuneSelf && (r < 0x20 || r == 0x7f):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unicode.IsGraphic(r):
			b.WriteString(s[i : i+size])
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
		i += size
	}
	return b.String()
}
