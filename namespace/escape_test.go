package namespace

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// unescape inverts EscapeName's rule, so tests can check the rule is unambiguous.
func unescape(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 >= len(s) {
			return "", false
		}
		n := map[byte]int{'\\': 0, 'x': 2, 'u': 4, 'U': 8}
		k, ok := n[s[i+1]]
		if !ok || i+2+k > len(s) {
			return "", false
		}
		if k == 0 {
			b.WriteByte('\\')
			i++
			continue
		}
		v, err := strconv.ParseUint(s[i+2:i+2+k], 16, 32)
		if err != nil {
			return "", false
		}
		if k == 2 {
			b.WriteByte(byte(v))
		} else {
			b.WriteRune(rune(v))
		}
		i += 1 + k
	}
	return b.String(), true
}

// TestEscapeName: the one escaping rule (issue 21, DCI4-STR-1) in a table.
func TestEscapeName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"eth0", "eth0"},
		{"my disk", "my disk"},
		{"\x1b[31m", `\x1b[31m`},
		{`a\b`, `a\\b`},
		{"caf\xe9", `caf\xe9`},
		{"café", "café"},
		{"ab\u202edc", `ab\u202edc`},
		{"\u009b2J", `\u009b2J`},
		{"\U000e0001x", `\U000e0001x`},
		{"a/b", "a/b"}, // only a path element escapes the slash (InstanceName)
	}
	for _, tt := range tests {
		if got := EscapeName(tt.in); got != tt.want {
			t.Errorf("EscapeName(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got, want := InstanceName(tt.in), strings.ReplaceAll(tt.want, "/", `\x2f`); got != want {
			t.Errorf("InstanceName(%q) = %q, want %q: one rule for paths and descriptions", tt.in, got, want)
		}
	}
}

// FuzzEscapeName: the escaped name is printable UTF-8 with no control, format or bidi
// character, and it is unambiguous: unescaping gives back the exact bytes.
func FuzzEscapeName(f *testing.F) {
	for _, s := range []string{"eth0", "\x1b[31m", "caf\xe9", "\u202e", `a\b`, "\u009b", "\U000e0001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := EscapeName(s)
		if !utf8.ValidString(got) {
			t.Fatalf("not valid UTF-8: %q", got)
		}
		for _, r := range got {
			if r < 0x20 || (r >= 0x7f && r < 0xa0) || r == 0x202e || r == 0x200b {
				t.Fatalf("EscapeName(%q) = %q keeps %U", s, got, r)
			}
		}
		back, ok := unescape(got)
		if !ok || back != s {
			t.Fatalf("EscapeName(%q) = %q unescapes to %q (%v)", s, got, back, ok)
		}
	})
}
