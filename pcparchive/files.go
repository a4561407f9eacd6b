package pcparchive

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"dcimon/internal/decompress"
	"dcimon/internal/regular"
)

// The files of an archive as PCP finds them (libpcp's io.c and logutil.c): BASE.meta, BASE.index
// and the volumes BASE.0, BASE.1, ..., each either as written or compressed (BASE.0.xz,
// BASE.meta.bz2, ...; issue 39 item 2), the uncompressed file first when both are there, then
// the compressed suffixes in libpcp's order. pmlogger_daily compresses the volumes and the
// metadata of older archives and may leave the index as it was.

// file is one of an archive's files, read as its bytes were written: a regular file, or a
// compressed one decompressed as it is read.
type file struct {
	name string   // its path, as found (BASE.0.xz)
	f    *os.File // the file itself
	z    *decompress.Reader
	size int64 // its uncompressed size; -1 while not known (bzip2, gzip)
	// counted is how much of z.Decoded the archive has counted (Archive.Decompressed).
	counted int64
}

// openFile opens path, an archive's file, a regular one only (internal/regular: a named pipe
// or a device is refused at once, never read), decompressing it as it is read when its name
// says it is compressed.
func openFile(path string) (*file, error) {
	f, err := regular.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	fl := &file{name: path, f: f, size: st.Size()}
	if decompress.KindOf(path) != decompress.None {
		if fl.z, err = decompress.Open(f, path, st.Size()); err != nil {
			f.Close()
			return nil, err
		}
		fl.size = fl.z.Size()
	}
	return fl, nil
}

func (fl *file) Read(p []byte) (int, error) {
	if fl.z != nil {
		return fl.z.Read(p)
	}
	return fl.f.Read(p)
}

// seek places the file at uncompressed offset off.
func (fl *file) seek(off int64) error {
	var err error
	if fl.z != nil {
		_, err = fl.z.Seek(off, io.SeekStart)
	} else {
		_, err = fl.f.Seek(off, io.SeekStart)
	}
	return err
}

// grown is the file's size now, for a file being written (a recording read as it grows); a
// compressed file does not grow.
func (fl *file) grown() int64 {
	if fl.z == nil {
		if st, err := fl.f.Stat(); err == nil {
			fl.size = st.Size()
		}
	}
	return fl.size
}

// Close closes the file.
func (fl *file) Close() error {
	if fl.z != nil {
		return fl.z.Close()
	}
	return fl.f.Close()
}

// findFile is the path of an archive's file base+suffix (".meta", ".index", ".0") as it is
// there: as written, or compressed. fs.ErrNotExist when none is; a file compressed in a format
// this reader does not read is named in the error.
func findFile(base, suffix string) (string, error) {
	name := base + suffix
	if _, err := os.Lstat(name); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return name, err
	}
	for _, z := range decompress.Suffixes {
		if _, err := os.Lstat(name + z); err == nil {
			return name + z, nil
		}
	}
	for _, z := range decompress.Unread {
		if _, err := os.Lstat(name + z); err == nil {
			return "", fmt.Errorf("%s%s: compressed in a format this reader does not read; decompress it first", name, z)
		}
	}
	return "", &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// splitName strips an archive file's name to its base as libpcp's __pmLogBaseName does: a
// compression suffix, then .meta, .index or a volume's number. ok is false for a name that is
// not an archive file's; suffix is what was stripped before the compression suffix ("meta",
// "index", "0").
func splitName(name string) (base, suffix string, ok bool) {
	for _, z := range append(decompress.Suffixes, decompress.Unread...) {
		if s, cut := strings.CutSuffix(name, z); cut && strings.Contains(filepath.Base(s), ".") {
			name = s
			break
		}
	}
	i := strings.LastIndexByte(name, '.')
	if i < 0 || strings.ContainsRune(name[i:], filepath.Separator) {
		return "", "", false
	}
	suffix = name[i+1:]
	if suffix == "meta" || suffix == "index" {
		return name[:i], suffix, true
	}
	if _, err := strconv.ParseUint(suffix, 10, 31); err == nil {
		return name[:i], suffix, true
	}
	return "", "", false
}

// Resolve is what an archive's name means, as PCP's tools take it (issue 39 item 3): a folder
// (pmlogger_daily's HOST/ of YYYYMMDD.HH.MM archives) is every archive in it, those whose
// metadata file is there, sorted by name; a name that is a file of an archive (x.meta, x.0,
// x.index, x.meta.xz) is that archive's base; an archive folio (pmlogger_check's Latest) is the
// archives it names; any other name is a base itself, dots and all (20261127.09.54: a trailing
// number is a volume only when that file exists).
func Resolve(name string) (bases []string, folder bool, err error) {
	st, err := os.Stat(name)
	if err == nil && st.IsDir() {
		ents, err := os.ReadDir(name)
		if err != nil {
			return nil, true, fmt.Errorf("archive %s: %w", name, err)
		}
		seen := map[string]bool{}
		for _, e := range ents {
			if b, suf, ok := splitName(e.Name()); ok && suf == "meta" && !seen[b] {
				seen[b] = true
				bases = append(bases, filepath.Join(name, b))
			}
		}
		sort.Strings(bases)
		if len(bases) == 0 {
			return nil, true, fmt.Errorf("archive %s: a folder with no archive in it (no .meta file)", name)
		}
		return bases, true, nil
	}
	if exists(name) {
		if b, _, ok := splitName(name); ok {
			return []string{b}, false, nil
		}
		if bases, ok, err := folio(name); ok || err != nil {
			return bases, len(bases) > 1, err
		}
	}
	return []string{name}, false, nil
}

// folio reads an archive folio (pmlogger_check's Latest, pmafm's folios; libpcp's
// __pmAddOptArchiveFolio): "PCPFolio", "Version: 1", then an "Archive: HOST PATH" line an
// archive, a relative PATH from the folio's folder. ok is false for a file that is not a folio.
func folio(name string) (bases []string, ok bool, err error) {
	b, err := regular.ReadFile(context.Background(), name, 1<<20)
	if err != nil || !bytes.HasPrefix(b, []byte("PCPFolio\n")) {
		return nil, false, nil // not a folio: the name is taken as a base, and opening it says why not
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[1], "Version: 1") {
		return nil, true, fmt.Errorf("archive folio %s: not of Version 1", name)
	}
	for i, l := range lines[2:] {
		f := strings.Fields(l)
		if len(f) == 0 || f[0] != "Archive:" {
			continue
		}
		if len(f) < 3 {
			return nil, true, fmt.Errorf("archive folio %s: line %d: an archive line without its host and path", name, i+3)
		}
		p := f[2]
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(name), p)
		}
		if exists(p) { // a file of the archive named, not its base
			if b, _, ok := splitName(p); ok {
				p = b
			}
		}
		bases = append(bases, p)
	}
	if len(bases) == 0 {
		return nil, true, fmt.Errorf("archive folio %s: names no archive", name)
	}
	return bases, true, nil
}

// exists says a file of that name is there, as named or compressed.
func exists(name string) bool {
	if _, err := os.Lstat(name); err == nil {
		return true
	}
	for _, z := range decompress.Suffixes {
		if _, err := os.Lstat(name + z); err == nil {
			return true
		}
	}
	return false
}

// volumeFiles are an archive's volumes: their numbers, in order, and paths (a volume there
// both as written and compressed is read as written).
func volumeFiles(base string) ([]int, map[int]string, error) {
	matches, _ := filepath.Glob(globEscape(base) + ".[0-9]*")
	paths := map[int]string{}
	for _, m := range matches {
		b, suf, ok := splitName(m)
		if !ok || b != base || suf == "meta" || suf == "index" {
			continue
		}
		n, _ := strconv.Atoi(suf)
		if paths[n] == "" || !compressedName(m) {
			paths[n] = m // as written, before any compressed copy
		}
	}
	vols := make([]int, 0, len(paths))
	for n, p := range paths {
		for _, z := range decompress.Unread {
			if strings.HasSuffix(p, z) {
				return nil, nil, fmt.Errorf("%s: compressed in a format this reader does not read; decompress it first", p)
			}
		}
		vols = append(vols, n)
	}
	sort.Ints(vols)
	return vols, paths, nil
}

// globEscape quotes a path's glob characters.
func globEscape(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`*?[\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// compressedName says a name has a compression suffix, read or not.
func compressedName(name string) bool {
	for _, z := range append(decompress.Suffixes, decompress.Unread...) {
		if strings.HasSuffix(name, z) {
			return true
		}
	}
	return false
}
