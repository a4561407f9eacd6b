package decompress

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sample is n bytes that compress as an archive's volume does: records of counters that rise.
func sample(n int) []byte {
	var b bytes.Buffer
	for k := 0; b.Len() < n; k++ {
		fmt.Fprintf(&b, "record %08d: %d %d %d|", k, k*k, 1<<40+k*7, k%100)
	}
	return b.Bytes()[:n]
}

// compress writes data compressed by the real tool: name's suffix says which, args its flags.
func compress(t testing.TB, dir, name string, data []byte, tool string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Skipf("%s is not installed (Debian: xz-utils, bzip2, gzip)", tool)
	}
	cmd := exec.Command(tool, append(args, "-c")...)
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func open(t testing.TB, path string) *Reader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := f.Stat()
	r, err := Open(f, path, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// Issue 39 item 2: each format pmlogger_daily may leave (xz as its PCP_COMPRESS default makes it,
// in blocks of a given size; one xz block; several xz streams; .lzma; bzip2; gzip of several
// members) reads back byte for byte, from its start and after seeks anywhere, backwards too.
func TestFormatsReadAndSeek(t *testing.T) {
	data := sample(3 << 19)
	dir := t.TempDir()
	half := len(data) / 2
	files := map[string]string{
		"xz blocks":  compress(t, dir, "a.xz", data, "xz", "-0", "--block-size=256KiB"),
		"xz one":     compress(t, dir, "b.xz", data, "xz", "-0"),
		"xz crc32":   compress(t, dir, "c.xz", data, "xz", "-0", "--check=crc32", "--block-size=1MiB"),
		"xz sha256":  compress(t, dir, "d.xz", data, "xz", "-0", "--check=sha256", "--block-size=1MiB"),
		"xz none":    compress(t, dir, "e.xz", data, "xz", "-0", "--check=none", "--block-size=1MiB"),
		"lzma":       compress(t, dir, "f.lzma", data, "xz", "--format=lzma", "-0"),
		"bzip2":      compress(t, dir, "g.bz2", data, "bzip2"),
		"gzip":       compress(t, dir, "h.gz", data, "gzip"),
		"xz streams": filepath.Join(dir, "i.xz"),
		"gz members": filepath.Join(dir, "j.gz"),
	}
	cat := func(out string, parts ...string) {
		var b []byte
		for _, p := range parts {
			c, _ := os.ReadFile(p)
			b = append(b, c...)
		}
		os.WriteFile(out, b, 0o644)
	}
	cat(files["xz streams"], compress(t, dir, "i1.xz", data[:half], "xz", "-0", "--block-size=300KiB"), compress(t, dir, "i2.xz", data[half:], "xz", "-0", "--block-size=300KiB"))
	cat(files["gz members"], compress(t, dir, "j1.gz", data[:half], "gzip"), compress(t, dir, "j2.gz", data[half:], "gzip"))
	for name, path := range files {
		t.Run(name, func(t *testing.T) {
			r := open(t, path)
			got, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("read %d bytes (%v), want the %d written", len(got), err, len(data))
			}
			if r.Size() != int64(len(data)) {
				t.Errorf("size %d after reading, want %d", r.Size(), len(data))
			}
			rng := rand.New(rand.NewPCG(39, 2))
			buf := make([]byte, 1000)
			for _, off := range []int64{int64(len(data)) - 1000, 0, 12345, 1 << 19, int64(rng.IntN(len(data) - 1000)), int64(rng.IntN(len(data) - 1000)), 5} {
				if _, err := r.Seek(off, io.SeekStart); err != nil {
					t.Fatalf("seek to %d: %v", off, err)
				}
				if _, err := io.ReadFull(r, buf); err != nil || !bytes.Equal(buf, data[off:off+1000]) {
					t.Fatalf("at %d: %v, not the bytes written", off, err)
				}
			}
		})
	}
}

// Issue 39 item 2: a seek in an xz file of several blocks decompresses at most the block it
// lands in (what pmlogger_daily's --block-size=10MiB is for); in a file without an index a seek
// forward goes on from where the reader is, and only a seek back starts again.
func TestSeekCost(t *testing.T) {
	data := sample(4 << 20)
	dir := t.TempDir()
	r := open(t, compress(t, dir, "a.xz", data, "xz", "-0", "--block-size=512KiB"))
	if n, largest := r.Blocks(); n != 8 || largest != 512<<10 {
		t.Fatalf("%d blocks, the largest %d bytes; want 8 of 512 KiB", n, largest)
	}
	if c := r.Cost(); c != "a seek decompresses at most 512 KiB (one of 8 xz blocks), none within the block last read" {
		t.Errorf("cost %q", c)
	}
	for _, off := range []int64{3<<20 + 1000, 100, 4<<20 - 10, 1<<20 + 7} {
		before := r.Decoded
		if _, err := r.Seek(off, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		if d := r.Decoded - before; d > 512<<10 {
			t.Errorf("a seek to %d decompressed %d bytes, more than its block", off, d)
		}
	}
	before := r.Starts
	r.Seek(1<<20+5000, io.SeekStart) // forward in the same block: no new start
	if r.Starts != before {
		t.Errorf("a seek forward within the block started %d decoders", r.Starts-before)
	}
	// Back within the block read (a replay's minute back): from the block kept decoded, nothing
	// decoded again; then on past what was decoded, and into the next block.
	buf := make([]byte, 300<<10)
	for _, off := range []int64{1<<20 + 10, 1 << 20, 1<<20 + 4000, 1<<20 + 100<<10} {
		starts, decoded := r.Starts, r.Decoded
		if _, err := r.Seek(off, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(r, buf[:1000]); err != nil || !bytes.Equal(buf[:1000], data[off:off+1000]) {
			t.Fatalf("at %d: %v, not the bytes written", off, err)
		}
		if off < 1<<20+5000 && (r.Starts != starts || r.Decoded != decoded) {
			t.Errorf("a seek back to %d within the block kept: %d decoders started, %d bytes decoded", off, r.Starts-starts, r.Decoded-decoded)
		}
	}
	if _, err := io.ReadFull(r, buf); err != nil || !bytes.Equal(buf, data[1<<20+100<<10+1000:][:len(buf)]) {
		t.Fatalf("reading on past the block: %v", err)
	}

	g := open(t, compress(t, dir, "a.gz", data, "gzip"))
	if c := g.Cost(); c != "a seek backwards decompresses from the start (gzip has no index)" {
		t.Errorf("cost %q", c)
	}
	g.Seek(1<<20, io.SeekStart)
	g.Seek(2<<20, io.SeekStart)
	if g.Starts != 1 || g.Decoded != 2<<20 {
		t.Errorf("two seeks forward: %d decoders started, %d bytes decoded; want 1 and 2 MiB", g.Starts, g.Decoded)
	}
	g.Seek(1<<20, io.SeekStart)
	if g.Starts != 2 || g.Decoded != 3<<20 {
		t.Errorf("a seek back: %d decoders started, %d bytes decoded; want 2 and 3 MiB", g.Starts, g.Decoded)
	}
}

// Issue 39 item 2: damage inside a compressed file (cut short; a byte changed in its data; a
// dictionary past the limit) is an *Error naming the file and the offset where it was found,
// after the bytes before it were given (of a file cut short, those written).
func TestDamage(t *testing.T) {
	data := sample(2 << 20)
	dir := t.TempDir()
	xzPath := compress(t, dir, "a.xz", data, "xz", "-0", "--block-size=256KiB")
	clean, _ := os.ReadFile(xzPath)
	gzPath := compress(t, dir, "a.gz", data, "gzip")
	gzClean, _ := os.ReadFile(gzPath)
	bzPath := compress(t, dir, "a.bz2", data, "bzip2")
	bzClean, _ := os.ReadFile(bzPath)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	flip := func(b []byte, at int) []byte {
		b = bytes.Clone(b)
		b[at] ^= 0x55
		return b
	}
	for _, c := range []struct {
		name, path string
		want       string
		cut        bool
	}{
		{"xz cut", write("cut.xz", clean[:len(clean)/2]), "xz: the file ends inside its compressed data", true},
		{"xz data", write("flip.xz", flip(clean, len(clean)/3)), "xz: ", false},
		{"gzip cut", write("cut.gz", gzClean[:len(gzClean)/2]), "gzip: the file ends inside its compressed data", true},
		{"gzip data", write("flip.gz", flip(gzClean, len(gzClean)/3)), "gzip: ", false},
		{"bzip2 data", write("flip.bz2", flip(bzClean, len(bzClean)/3)), "bzip2: ", false},
		{"not xz", write("no.xz", []byte("hello, not an xz file at all")), "xz: not an xz stream", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, _ := os.Open(c.path)
			st, _ := f.Stat()
			r, err := Open(f, c.path, st.Size())
			var got []byte
			if err == nil {
				got, err = io.ReadAll(r)
				r.Close()
			}
			var e *Error
			if !errors.As(err, &e) || e.File != c.path || !strings.HasPrefix(e.What, c.want) || e.Cut != c.cut || e.Offset < 0 || e.Offset > st.Size() {
				t.Fatalf("error %v (%+v), want one naming %s and saying %q (cut %v)", err, e, c.path, c.want, c.cut)
			}
			// A check is at the end of what it covers (an xz block, a gzip member): the bytes of
			// a changed block are given before it fails, as liblzma and gzip -d give them.
			if (c.cut && !bytes.Equal(got, data[:len(got)])) || e.Pos != int64(len(got)) {
				t.Errorf("%d bytes given before the damage, %d said; they must be the bytes written", len(got), e.Pos)
			}
		})
	}
	t.Run("xz dictionary", func(t *testing.T) {
		defer func(m int64) { MaxDict = m }(MaxDict)
		MaxDict = 64 << 10 // xz -0 asks for 256 KiB
		r := open(t, xzPath)
		_, err := io.ReadAll(r)
		var e *Error
		if !errors.As(err, &e) || e.Offset != 12 || !strings.Contains(e.What, "asking for a dictionary past the 64 KiB this reader allows") {
			t.Errorf("error %v", err)
		}
	})
}

// Issue 39 item 2: a seek decodes a kept block's bytes straight into its cache, checking none on
// the way; the check is made over the cache at the block's end, so a changed check is found
// whether the block was read from its start or reached by a seek into its middle, and the bytes
// given are the bytes written.
func TestCheckAfterSeek(t *testing.T) {
	data := sample(1 << 20)
	dir := t.TempDir()
	path := compress(t, dir, "a.xz", data, "xz", "-0", "--block-size=256KiB")
	clean, _ := os.ReadFile(path)
	b0 := open(t, path).blocks[0]
	bad := bytes.Clone(clean)
	bad[b0.coff+pad4(b0.unpadded)-1] ^= 0x55 // the last byte of block 0's check (CRC64)
	badPath := filepath.Join(dir, "b.xz")
	if err := os.WriteFile(badPath, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, start := range []int64{0, 100_000} {
		r := open(t, badPath)
		if _, err := r.Seek(start, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.What, "the check of a block at offset 12 does not hold") {
			t.Errorf("from %d: error %v, want block 0's check found wrong", start, err)
		}
		if !bytes.Equal(got, data[start:start+int64(len(got))]) {
			t.Errorf("from %d: the bytes given are not those written", start)
		}
		good := open(t, path)
		for _, off := range []int64{300_000, 100_000, 700_000, 5} { // forward, back into the cache, on, back to the first block
			if _, err := good.Seek(off, io.SeekStart); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 4096)
			if _, err := io.ReadFull(good, buf); err != nil || !bytes.Equal(buf, data[off:off+4096]) {
				t.Fatalf("at %d: %v, or not the bytes written", off, err)
			}
		}
	}
}
