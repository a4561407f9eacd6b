package theme

import (
	"strings"
	"testing"
	"time"
)

const fullTheme = "fg = \"#000000\"\nbg = \"#ffffff\"\nmuted = \"240\"\naccent = \"#000000\"\nborder = \"none\"\nfocus_border = \"#000000\"\nsel_fg = \"#000000\"\nsel_bg = \"#000000\"\nok = \"#000000\"\nwarn = \"#000000\"\ncrit = \"#000000\"\n"

// Issue 41 items 4 and 10: a theme with a byte order mark is read; a 1 MB theme file is placed in
// time linear in its size (the bound is a hang's, not a timing), its error at the right line; an
// error repeats at most 80 bytes of a key or value.
func TestParseThemeLimits(t *testing.T) {
	if p, err := Parse("x", "x.toml", []byte("\xef\xbb\xbf"+fullTheme)); err != nil || p.Muted == nil {
		t.Errorf("a theme with a BOM: %v", err)
	}
	var b strings.Builder
	b.WriteString(fullTheme)
	for i := 0; b.Len() < 1<<20; i++ {
		b.WriteString("[t" + itoa(i+1) + "]\n") // a table per line: each one placed
	}
	done := make(chan error, 1)
	go func() {
		_, err := Parse("x", "x.toml", []byte(b.String()))
		done <- err
	}()
	select {
	case err := <-done:
		if want := "x.toml:12:2: t1: unknown key"; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("1 MB theme: %v, want %q", err, want)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("a 1 MB theme was still being read after 60 s")
	}
	for _, text := range []string{fullTheme + strings.Repeat("k", 900<<10) + " = \"#000000\"\n",
		strings.Replace(fullTheme, "fg = \"#000000\"", "fg = \""+strings.Repeat("z", 900<<10)+"\"", 1)} {
		_, err := Parse("x", "x.toml", []byte(text))
		if err == nil || len(err.Error()) > 400 {
			t.Errorf("an error of %d bytes: %.120q", len(err.Error()), err)
		}
	}
}

func itoa(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}
