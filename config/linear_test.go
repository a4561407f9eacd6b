package config

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// bigConfig is a configuration file of about n bytes: hotsets, each a table of a few keys, the
// shape issue 41 found quadratic (10,000 [[a.b.c]] tables took 25 s).
func bigConfig(n int) []byte {
	var b bytes.Buffer
	b.WriteString("interval = \"1s\"\n")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "[[hotset]]\nname = \"h%d\"\npath = \"Disk\"\nstat = \"busy\"\nmaxresp = 5\n\n", i)
	}
	return b.Bytes()
}

// Issue 41 item 4: a configuration of 1 MB is parsed in time linear in its size (it took more
// than 10 minutes: each key's position was counted from the file's start). Not a timed test:
// the bound is a hang's, 60 times what it takes here under -race.
func TestParseLinear(t *testing.T) {
	data := bigConfig(1 << 20)
	done := make(chan error, 1)
	go func() {
		_, err := Parse("big.toml", data)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("a 1 MB configuration was still parsing after 60 s")
	}
	// Positions are kept exact: the last hotset's maxresp is where the file has it.
	f, err := Parse("big.toml", data)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	n := len(f.Hotset) - 1
	key := fmt.Sprintf("hotset[%d].maxresp", n)
	want := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "maxresp") {
			want = i + 1
		}
	}
	if p := f.Set[key]; p.Line != want || p.Col != 1 {
		t.Errorf("%s at %d:%d, want %d:1", key, p.Line, p.Col, want)
	}
}

func BenchmarkParse1MB(b *testing.B) { benchParse(b, 1<<20) }

func BenchmarkParse100KB(b *testing.B) { benchParse(b, 100<<10) }

// benchParse parses a configuration of about size bytes (bigConfig's).
func benchParse(b *testing.B, size int) {
	data := bigConfig(size)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse("big.toml", data); err != nil {
			b.Fatal(err)
		}
	}
}

// Issue 41 item 10: a UTF-8 byte order mark is accepted, and an error repeats at most the first
// 80 bytes of a key, however long the key.
func TestParseBOMAndLongKeys(t *testing.T) {
	t.Parallel()
	f, err := Parse("bom.toml", []byte("\xef\xbb\xbftheme = \"light\"\ninterval = \"2s\"\n"))
	if err != nil || f.Theme != "light" || f.Set["interval"] != (Pos{2, 1}) || f.Set["theme"] != (Pos{1, 1}) {
		t.Errorf("a file with a BOM: %+v, %v", f, err)
	}
	for _, text := range []string{
		strings.Repeat("k", 900<<10) + " = 1\n",
		"[tables]\n" + strings.Repeat("é", 300<<10) + " = 1\n",
		"[[hotset]]\n\"" + strings.Repeat("q", 900<<10) + "\" = 1\n",
	} {
		_, err := Parse("long.toml", []byte(text))
		if err == nil {
			t.Errorf("a 900 KB key was accepted: %.40q", text)
			continue
		}
		if len(err.Error()) > 400 || !utf8.ValidString(err.Error()) {
			t.Errorf("an error of %d bytes (valid UTF-8 %v): %.200q", len(err.Error()), utf8.ValidString(err.Error()), err.Error())
		}
	}
}
