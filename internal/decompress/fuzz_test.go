package decompress

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// memFile is bytes as a File.
type memFile struct{ *bytes.Reader }

func (memFile) Close() error { return nil }

// fuzzRead opens b as a file of kind name, reads it whole, and seeks back and forth in it: no
// panic, no hang, and any error but the end an *Error at an offset in the file.
func fuzzRead(t *testing.T, name string, b []byte) {
	defer func(m int64) { MaxDict = m }(MaxDict)
	MaxDict = 1 << 20
	r, err := Open(memFile{bytes.NewReader(b)}, name, int64(len(b)))
	check := func(err error) {
		t.Helper()
		var e *Error
		if err != nil && !errors.Is(err, io.EOF) && (!errors.As(err, &e) || e.Offset < 0 || e.Offset > int64(len(b))) {
			// A seek past the end says so plainly.
			if !bytes.Contains([]byte(err.Error()), []byte("past the end")) {
				t.Fatalf("an error that does not say where: %v", err)
			}
		}
	}
	if err != nil {
		check(err)
		return
	}
	n, err := io.Copy(io.Discard, io.LimitReader(r, 4<<20))
	check(err)
	for _, off := range []int64{n / 2, 0, n, n / 3} {
		_, err := r.Seek(off, io.SeekStart)
		check(err)
	}
}

func fuzzSeeds(f *testing.F, name, tool string, args ...string) {
	if tool != "" {
		dir := f.TempDir()
		data := sample(16 << 10)
		p := compress(f, dir, filepath.Base(name), data, tool, args...)
		b, _ := os.ReadFile(p)
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Add([]byte{})
}

// Issue 39 item 2: the xz container (stream headers, block headers, the index, checks) read
// from hostile bytes.
func FuzzXZ(f *testing.F) {
	fuzzSeeds(f, "a.xz", "xz", "-0", "--block-size=4KiB")
	f.Fuzz(func(t *testing.T, b []byte) { fuzzRead(t, "f.xz", b) })
}

// The same for gzip, bzip2 and lzma files, read forward.
func FuzzStreams(f *testing.F) {
	fuzzSeeds(f, "a.gz", "gzip")
	fuzzSeeds(f, "a.bz2", "bzip2")
	fuzzSeeds(f, "a.lzma", "xz", "--format=lzma", "-0")
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, name := range []string{"f.gz", "f.bz2", "f.lzma"} {
			fuzzRead(t, name, b)
		}
	})
}
