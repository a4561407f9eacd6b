package linux

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"dcimon/internal/regular"
)

// Errors a parser wraps into its per-line errors, so tests and providers can tell them apart with
// errors.Is.
var (
	errTooFewFields = errors.New("too few fields")
	errNotNumber    = errors.New("not a decimal number")
	errOverflow     = errors.New("number out of range")
	errNoData       = errors.New("no data")
	errBadName      = errors.New("name cannot be used as a path element")
	errCutShort     = errors.New("cut short")
)

// maxFileSize bounds one procfs or sysfs read; the largest file we read (/proc/stat on a machine with
// thousands of interrupts and CPUs) is well below it.
const maxFileSize = 16 << 20

// fileReader reads whole files into one reused buffer, so that reading the same files every tick does not
// allocate once the buffer has grown to fit. The slice read returns is only valid until the next read.
// A fileReader is not safe for concurrent use: each provider owns one.
//
// On a live procfs the files are kept open and read again with one pread each (issue 38 item 5:
// an open, a regular-file check and a close a file and a tick were most of what a collection cost
// above the raw reads): procfs writes a file afresh at each read from offset 0. A tree of regular
// files (the tests' fixtures, rewritten between readings) is opened at every read.
type fileReader struct {
	buf  []byte
	kept map[string]keptFile // by path; a nil file: known not to be on a live procfs
}

// keptFile is a file kept open and its descriptor (os.File.Fd would set it blocking each time).
type keptFile struct {
	f  *os.File
	fd int
}

// read returns the whole content of path. It reads until EOF rather than trusting the file size, which
// procfs reports as 0. Only regular files are read (every procfs and sysfs file is one): the file
// is opened without blocking and anything else, such as a named pipe put in place of /proc/stat,
// is refused at once instead of hanging the reader until a writer appears (issue 21).
func (fr *fileReader) read(path string) ([]byte, error) {
	if k := fr.kept[path]; k.f != nil {
		if b, ok := fr.reread(k.fd); ok {
			return b, nil
		}
		k.f.Close() // read as the first time, below
		delete(fr.kept, path)
	}
	f, err := regular.Open(path)
	if err != nil {
		return nil, err
	}
	keep := false
	if _, known := fr.kept[path]; !known {
		keep = isProcfs(filepath.Dir(path))
		if fr.kept == nil {
			fr.kept = map[string]keptFile{}
		}
		if !keep {
			fr.kept[path] = keptFile{}
		}
	}
	if !keep {
		defer f.Close()
	}
	if cap(fr.buf) == 0 {
		fr.buf = make([]byte, 0, 16<<10)
	}
	b := fr.buf[:0]
	for {
		if len(b) == cap(b) {
			if cap(b) >= maxFileSize {
				if keep {
					f.Close()
				}
				return nil, fmt.Errorf("read %s: larger than %d bytes", path, maxFileSize)
			}
			b = append(b, 0)[:len(b)]
		}
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			fr.buf = b[:0]
			if keep {
				f.Close()
			}
			return nil, err
		}
	}
	fr.buf = b
	if keep {
		fr.kept[path] = keptFile{f, int(f.Fd())}
	}
	return b, nil
}

// readProc reads <proc>/rel, the procfs of ctx's roots, with fr for the provider named what
// ("mem"): the path, for the parser's messages, and the content (valid until fr's next read). A
// read error begins with what; a context done already is returned as it is.
func readProc(ctx context.Context, fr *fileReader, what, rel string) (path string, data []byte, err error) {
	if err := ctx.Err(); err != nil {
		return "", nil, err
	}
	path = filepath.Join(rootsFrom(ctx).proc, rel)
	if data, err = fr.read(path); err != nil {
		return path, nil, fmt.Errorf("%s: %w", what, err)
	}
	return path, data, nil
}

// reread reads a kept file again from its start with one pread into the buffer; ok is false when
// it failed or the file may not fit (then it is read as the first time).
func (fr *fileReader) reread(fd int) ([]byte, bool) {
	b := fr.buf[:cap(fr.buf)]
	for {
		n, err := unix.Pread(fd, b, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n >= len(b) {
			return nil, false
		}
		return b[:n], true
	}
}

// cutLine splits data at the first newline (found by bytes.IndexByte, which compares many bytes
// at a time: a byte at a time was a tenth of reading the network stack's tables).
func cutLine(data []byte) (line, rest []byte) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return data[:i], data[i+1:]
	}
	return data, nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// nextField skips leading white space and returns the next white-space-delimited field and the rest.
// field is empty when b holds only white space.
func nextField(b []byte) (field, rest []byte) {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	j := i
	for j < len(b) && !isSpace(b[j]) {
		j++
	}
	return b[i:j], b[j:]
}

// trimSpace removes leading and trailing white space.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// parseUint parses an unsigned decimal without allocating (strconv.ParseUint needs a string).
func parseUint(b []byte) (uint64, error) {
	if len(b) == 0 {
		return 0, fmt.Errorf("%w: empty", errNotNumber)
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%w: %q", errNotNumber, b)
		}
		d := uint64(c - '0')
		if v > (1<<64-1-d)/10 {
			return 0, fmt.Errorf("%w: %q does not fit in 64 bits", errOverflow, b)
		}
		v = v*10 + d
	}
	return v, nil
}

// parseUints fills dst from the next fields of b and returns how many it filled and the rest of b. It
// stops at the end of b or when dst is full; a field that is not a number is an error.
func parseUints(b []byte, dst []uint64) (int, []byte, error) {
	for i := range dst {
		var f []byte
		f, b = nextField(b)
		if len(f) == 0 {
			return i, b, nil
		}
		v, err := parseUint(f)
		if err != nil {
			return i, b, fmt.Errorf("field %d: %w", i+1, err)
		}
		dst[i] = v
	}
	return len(dst), b, nil
}

// parseCenti parses a fixed-point decimal with at most two fractional digits ("216.47", "0.5", "3") into
// hundredths, the exact precision the kernel prints /proc/uptime and /proc/loadavg with.
func parseCenti(b []byte) (uint64, error) {
	intPart, frac := b, []byte(nil)
	for i, c := range b {
		if c == '.' {
			intPart, frac = b[:i], b[i+1:]
			break
		}
	}
	v, err := parseUint(intPart)
	if err != nil {
		return 0, err
	}
	if len(frac) > 2 {
		return 0, fmt.Errorf("%w: %q has more than two decimals", errNotNumber, b)
	}
	var f uint64
	if len(frac) > 0 {
		if f, err = parseUint(frac); err != nil {
			return 0, err
		}
		if len(frac) == 1 {
			f *= 10
		}
	}
	if v > (1<<64-1-f)/100 {
		return 0, fmt.Errorf("%w: %q", errOverflow, b)
	}
	return v*100 + f, nil
}

// setString stores b in *s, reusing the existing string when the bytes are unchanged so that re-parsing a
// file whose names did not change does not allocate (the comparison does not allocate).
func setString(s *string, b []byte) {
	if *s != string(b) {
		*s = string(b)
	}
}

// maxLineErrors bounds how many bad lines one parse reports individually; a file of pure garbage should
// not produce a megabyte of error text.
const maxLineErrors = 8

// lineErrs collects the bad lines of one parse. Parsers keep going after a bad line, so the good lines
// are still returned: one corrupt line makes its own instance unavailable, not the whole class.
type lineErrs struct {
	errs []error
	more int
}

// add records that line n (1-based) of src could not be parsed.
func (le *lineErrs) add(provider, src string, n int, line []byte, err error) {
	if len(le.errs) >= maxLineErrors {
		le.more++
		return
	}
	const maxShown = 80
	shown := line
	if len(shown) > maxShown {
		shown = shown[:maxShown]
	}
	le.errs = append(le.errs, fmt.Errorf("%s: parse %s line %d: %w (line %q)", provider, src, n, err, shown))
}

// err returns the collected errors joined, or nil.
func (le *lineErrs) err() error {
	if le.more > 0 {
		le.errs = append(le.errs, fmt.Errorf("and %d more bad lines", le.more))
	}
	return errors.Join(le.errs...)
}

// parseRows parses one record per non-blank line of data into dst[:0], reusing dst's storage and
// each record's own buffers, so the steady state allocates nothing; parse is given each line
// with its number. A bad line is reported in errs with its number (as what: parse src line n)
// and dropped; the good lines are kept. skip, when not nil, passes over lines that are not
// records, such as headers.
func parseRows[T any](what, src string, data []byte, dst []T, skip func(n int, line []byte) bool,
	parse func(n int, line []byte, rec *T) error, errs *lineErrs) []T {
	dst = dst[:0]
	// The kernel ends every line with a newline: a last line without one is where the file was
	// cut, and its last number may have lost digits (issue 29).
	cut := len(data) > 0 && data[len(data)-1] != '\n'
	for n := 1; len(data) > 0; n++ {
		var line []byte
		line, data = cutLine(data)
		if len(trimSpace(line)) == 0 || (skip != nil && skip(n, line)) {
			continue
		}
		i := len(dst)
		if i < cap(dst) {
			dst = dst[:i+1]
		} else {
			var zero T
			dst = append(dst, zero)
		}
		err := parse(n, line, &dst[i])
		if err == nil && cut && len(data) == 0 {
			err = fmt.Errorf("%w: the file ends inside this line", errCutShort)
		}
		if err != nil {
			errs.add(what, src, n, line, err)
			dst = dst[:i]
		}
	}
	return dst
}
