package ui

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

// Issue 42 item 2: RES as htop's Row_printBytes prints it (htop 3's Row.c, read through the
// search tool): KiB below 100000, then MiB below 10000, G with one decimal below 100, truncated.
func TestHtopBytes(t *testing.T) {
	const K, M, G, T = 1024.0, 1024.0 * 1024, 1024.0 * 1024 * 1024, 1024.0 * 1024 * 1024 * 1024
	for _, tc := range []struct {
		b    float64
		want string
	}{
		{0, "0"},
		{852 * K, "852"},
		{98304 * K, "98304"},
		{99999 * K, "99999"},
		{100000 * K, "97M"},
		{512 * M, "512M"},
		{1037 * M, "1037M"}, // dcimon said 1.1G
		{1037*M + 900*K, "1037M"},
		{9999 * M, "9999M"},
		{10000 * M, "9.7G"},
		{12.39 * G, "12.3G"},
		{512 * G, "512G"},
		{9999 * G, "9999G"},
		{12.5 * T, "12.5T"},
		{-1, "n/a"},
	} {
		if got := string(htopBytes(nil, tc.b)); got != tc.want {
			t.Errorf("htopBytes(%v) = %q, want %q", tc.b, got, tc.want)
		}
	}
}

// Issue 42 item 2: control characters in a command line as htop shows them: a newline a space,
// the others `?` (dcimon showed `\x0a`); an escape sequence reaches the terminal as text.
func TestHtopCommand(t *testing.T) {
	for in, want := range map[string]string{
		"sh -c echo hi":         "sh -c echo hi",
		"sh -c echo a\necho b":  "sh -c echo a echo b",
		"evil\x1b[2Jname":       "evil?[2Jname",
		"tab\there":             "tab?here",
		"del\x7f":               "del?",
		"c1\u009bX":             "c1?X",
		"bad\xffutf8":           "bad?utf8",
		"/usr/bin/python3 -m é": "/usr/bin/python3 -m é",
	} {
		if got := htopCommand(in); got != want {
			t.Errorf("htopCommand(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzHtopCommand: whatever a process puts in its command line, what reaches the terminal is
// valid UTF-8 without a control character (issue 42 item 2).
func FuzzHtopCommand(f *testing.F) {
	for _, s := range []string{"sh -c 'a\nb'", "\x1b]0;title\x07", "\xff\xfe", "\u202eevil", "tab\there"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := htopCommand(s)
		if !utf8.ValidString(out) {
			t.Fatalf("htopCommand(%q) = %q: not UTF-8", s, out)
		}
		for _, r := range out {
			if unicode.IsControl(r) {
				t.Fatalf("htopCommand(%q) = %q: a control character %U", s, out, r)
			}
		}
	})
}
