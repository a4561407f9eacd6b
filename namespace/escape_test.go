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

// TestEscapeName: the one escaping rule (issue 21, DCI4-STR-1) in a table, the same for an
// instance's path element (InstanceName, which also escapes a slash).
func TestEscapeName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"eth0", "eth0"},
		{"my if", "my if"}, // spaces stay
		{"", ""},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},                 // CSI colour
		{"sd\x1b[2Ja", `sd\x1b[2Ja`},                                 // clear screen
		{"my volume \x1b]0;pwned\x07", `my volume \x1b]0;pwned\x07`}, // OSC title + BEL
		{"a\tb\nc\rd", `a\x09b\x0ac\x0dd`},
		{"del\x7f", `del\x7f`},
		{"nul\x00", `nul\x00`},
		{"caf\xe9", `caf\xe9`}, // Latin-1 byte, not UTF-8
		{"nvme\xff0n1", `nvme\xff0n1`},
		{"\xc3", `\xc3`}, // truncated UTF-8 sequence
		{"café", "café"}, // valid UTF-8 stays
		{"диск", "диск"},
		{"日本", "日本"},
		{"\u00a0nbsp", "\u00a0nbsp"},           // Zs is graphic
		{"\u009b31m", `\u009b31m`},             // C1 CSI, which some terminals obey
		{"\u202eevil", `\u202eevil`},           // right-to-left override
		{"zero\u200bwidth", `zero\u200bwidth`}, // zero-width space (Cf)
		{"line\u2028sep", `line\u2028sep`},
		{"\U000f0000", `\U000f0000`},  // private use
		{`back\slash`, `back\\slash`}, // so that a literal `\x1b` is distinguishable
		{"\ufffd", "\ufffd"},          // a real replacement character is printable
		{"ab\u202edc", `ab\u202edc`},
		{"\U000e0001x", `\U000e0001x`},
		{"a/b", "a/b"}, // only a path element escapes the slash (InstanceName)
	}
	for _, tt := range tests {
		got := EscapeName(tt.in)
		if got != tt.want {
			t.Errorf("EscapeName(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("EscapeName(%q) = %q is not valid UTF-8", tt.in, got)
		}
		for _, c := range []byte(got) {
			if c < 0x20 || c == 0x7f {
				t.Errorf("EscapeName(%q) = %q keeps control byte %#x", tt.in, got, c)
			}
		}
		if tt.in == "" {
			continue // an empty instance name is \x00 (TestInstanceName)
		}
		if got, want := InstanceName(tt.in), strings.ReplaceAll(tt.want, "/", `\x2f`); got != want {
			t.Errorf("InstanceName(%q) = %q, want %q: one rule for paths and descriptions", tt.in, got, want)
		}
	}
}

func TestEscapeNameCleanDoesNotAllocate(t *testing.T) { // not parallel: AllocsPerRun
	if n := testing.AllocsPerRun(100, func() { _ = EscapeName("eth0.100") }); n != 0 {
		t.Errorf("EscapeName of a clean name allocated %v times", n)
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
