package collect

import (
	"testing"
	"unicode/utf8"
)

func TestSanitizeName(t *testing.T) {
	t.Parallel()
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
	}
	for _, tt := range tests {
		got := sanitizeName(tt.in)
		if got != tt.want {
			t.Errorf("sanitizeName(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("sanitizeName(%q) = %q is not valid UTF-8", tt.in, got)
		}
		for _, c := range []byte(got) {
			if c < 0x20 || c == 0x7f {
				t.Errorf("sanitizeName(%q) = %q keeps control byte %#x", tt.in, got, c)
			}
		}
	}
}

func TestSanitizeNameCleanDoesNotAllocate(t *testing.T) { // not parallel: AllocsPerRun
	if n := testing.AllocsPerRun(100, func() { _ = sanitizeName("eth0.100") }); n != 0 {
		t.Errorf("sanitizeName of a clean name allocated %v times", n)
	}
}

func FuzzSanitizeName(f *testing.F) {
	for _, s := range []string{"eth0", "\x1b[31m", "caf\xe9", "\u202e", `a\b`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := sanitizeName(s)
		if !utf8.ValidString(got) {
			t.Fatalf("not valid UTF-8: %q", got)
		}
		for _, r := range got {
			if r < 0x20 || (r >= 0x7f && r < 0xa0) || r == 0x202e {
				t.Fatalf("sanitizeName(%q) = %q keeps %U", s, got, r)
			}
		}
		if sanitizeName(s) != got {
			t.Fatalf("not deterministic")
		}
	})
}
