package linux

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseUint(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    uint64
		wantErr error
	}{
		{"0", 0, nil},
		{"42", 42, nil},
		{"18446744073709551615", 1<<64 - 1, nil},
		{"18446744073709551616", 0, errOverflow},
		{"99999999999999999999", 0, errOverflow},
		{"", 0, errNotNumber},
		{"-1", 0, errNotNumber},
		{"+1", 0, errNotNumber},
		{"1x", 0, errNotNumber},
		{"0x10", 0, errNotNumber},
		{" 1", 0, errNotNumber},
	}
	for _, tt := range tests {
		got, err := parseUint([]byte(tt.in))
		if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
			t.Errorf("parseUint(%q) error = %v, want %v", tt.in, err, tt.wantErr)
		}
		if got != tt.want {
			t.Errorf("parseUint(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestParseCenti(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    uint64
		wantErr bool
	}{
		{"216.47", 21647, false},
		{"0.39", 39, false},
		{"0.5", 50, false},
		{"3", 300, false},
		{"3.", 300, false},
		{"0.00", 0, false},
		{"1.234", 0, true},
		{".5", 0, true},
		{"1.-5", 0, true},
		{"abc", 0, true},
		{"", 0, true},
		{"184467440737095516.15", 1<<64 - 1, false},
		{"184467440737095516.16", 0, true},
	}
	for _, tt := range tests {
		got, err := parseCenti([]byte(tt.in))
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("parseCenti(%q) = %d, %v; want %d, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestFieldsAndLines(t *testing.T) {
	t.Parallel()
	f, rest := nextField([]byte("  \tcpu0 1  2\n"))
	if string(f) != "cpu0" || string(rest) != " 1  2\n" {
		t.Errorf("nextField = %q, %q", f, rest)
	}
	f, rest = nextField([]byte(" \t "))
	if len(f) != 0 || len(rest) != 0 {
		t.Errorf("nextField(blank) = %q, %q", f, rest)
	}
	line, rest := cutLine([]byte("a b\nc"))
	if string(line) != "a b" || string(rest) != "c" {
		t.Errorf("cutLine = %q, %q", line, rest)
	}
	line, rest = cutLine([]byte("last"))
	if string(line) != "last" || rest != nil {
		t.Errorf("cutLine(no newline) = %q, %q", line, rest)
	}
	if got := string(trimSpace([]byte(" \t x y \r\n"))); got != "x y" {
		t.Errorf("trimSpace = %q", got)
	}
	if got := string(trimNewline([]byte("host \n"))); got != "host " {
		t.Errorf("trimNewline = %q", got)
	}

	var v [3]uint64
	n, _, err := parseUints([]byte(" 1 2"), v[:])
	if n != 2 || err != nil || v != [3]uint64{1, 2, 0} {
		t.Errorf("parseUints short = %d, %v, %v", n, v, err)
	}
	n, rest, err = parseUints([]byte("1 2 3 4"), v[:])
	if n != 3 || err != nil || string(rest) != " 4" {
		t.Errorf("parseUints long = %d, %q, %v", n, rest, err)
	}
	if _, _, err = parseUints([]byte("1 x"), v[:]); !errors.Is(err, errNotNumber) || !strings.Contains(err.Error(), "field 2") {
		t.Errorf("parseUints bad = %v", err)
	}
}

func TestSetStringReuses(t *testing.T) { // not parallel: AllocsPerRun
	s := "sda"
	b := []byte("sda")
	if n := testing.AllocsPerRun(100, func() { setString(&s, b) }); n != 0 {
		t.Errorf("setString with an unchanged name allocated %v times", n)
	}
	setString(&s, []byte("sdb"))
	if s != "sdb" {
		t.Errorf("setString = %q", s)
	}
}

func TestFileReader(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := strings.Repeat("0123456789abcdef", 5000) // larger than the first buffer
	if err := os.WriteFile(filepath.Join(dir, "big"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "small"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "empty"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var fr fileReader
	for _, c := range []struct{ name, want string }{{"small", "x\n"}, {"big", big}, {"small", "x\n"}, {"empty", ""}} {
		got, err := fr.read(filepath.Join(dir, c.name))
		if err != nil || string(got) != c.want {
			t.Errorf("read(%s) = %d bytes, %v; want %d bytes", c.name, len(got), err, len(c.want))
		}
	}
	if _, err := fr.read(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("read(missing) error = %v, want ErrNotExist", err)
	}
	if _, err := fr.read(dir); err == nil {
		t.Errorf("read(directory) succeeded")
	}
}

func TestLineErrsCapped(t *testing.T) {
	t.Parallel()
	var le lineErrs
	for i := 1; i <= maxLineErrors+5; i++ {
		le.add("disk", "/proc/diskstats", i, []byte(strings.Repeat("x", 200)), errTooFewFields)
	}
	err := le.err()
	msg := err.Error()
	if got := strings.Count(msg, "disk: parse /proc/diskstats line"); got != maxLineErrors {
		t.Errorf("%d line errors reported, want %d", got, maxLineErrors)
	}
	if !strings.Contains(msg, "and 5 more bad lines") {
		t.Errorf("missing the count of dropped errors: %s", msg)
	}
	if strings.Contains(msg, strings.Repeat("x", 81)) {
		t.Errorf("bad line not shortened")
	}
	if !errors.Is(err, errTooFewFields) {
		t.Errorf("errors.Is(errTooFewFields) = false")
	}
	var none lineErrs
	if none.err() != nil {
		t.Errorf("empty lineErrs reported %v", none.err())
	}
}
