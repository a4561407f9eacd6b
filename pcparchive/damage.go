package pcparchive

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"

	"dcimon/internal/decompress"
)

// DamageError is a damaged record of one of an archive's files: the file, the byte offset of the
// record and what was wrong with it (issue 30). What was read before it is kept: Open returns
// the archive with the metadata and index before the damage, a Cursor gives every record
// before it and then this error, again at every call. It wraps ErrFormat.
type DamageError struct {
	File   string // the file's path, as the archive's base was given
	Offset int64  // the byte offset of the damaged record in the file
	What   string // what was wrong, e.g. "a descriptor record says it is 4294967040 bytes, the file has 880 left"
	// Cut says the file ends inside the record: its writer stopped while writing it (killed,
	// or out of room), and nothing after it was written.
	Cut bool
}

func (e *DamageError) Error() string {
	return fmt.Sprintf("%s: offset %d: %s", e.File, e.Offset, e.What)
}

// Unwrap makes a DamageError an ErrFormat.
func (e *DamageError) Unwrap() error { return ErrFormat }

// Limits on what a reader believes of a file: a record's own length is checked against them
// and against the bytes the file has left before it sizes an allocation, so that memory is
// bounded by them and never by a file's size (issue 30: a .meta padded with zeros, /dev/zero as
// an .index, a record claiming 4 GB).
var (
	// maxRecord bounds one record: a pmResult of a large host, or an instance domain of a
	// host with many processes, is a few megabytes; a length past this is damage.
	maxRecord int64 = 64 << 20
	// maxMetaKept bounds what the metadata and the index keep in memory in all (descriptions,
	// every observation of every instance domain, label sets, help texts, index entries),
	// counted as the bytes they hold. A delta instance domain record of a few bytes repeats
	// its whole domain, so the file's size alone would not bound it.
	maxMetaKept int64 = 512 << 20
)

// frames reads a file's length-framed records (a length, the payload, the length again) one at
// a time, each into a buffer sized by its own length once that is checked against maxRecord
// and the bytes the file has left.
type frames struct {
	name string // the file's path, for errors
	file *file  // the file, for one that may grow as it is read; nil for bytes in memory
	r    *bufio.Reader
	off  int64 // the offset of the next record
	size int64 // the file's (uncompressed) size as last seen; -1 while not known
	buf  []byte
	// kind names a record from its first payload word (the metadata's tags), or "" for a
	// file of one kind of record.
	kind func(tag uint32) string
	one  string // the name of a record of a file of one kind ("a data record")
}

// newFrames reads records from r, of a file of size bytes (-1: not known) named name, from
// offset off.
func newFrames(name string, r io.Reader, size, off int64) *frames {
	fr := &frames{name: name, off: off, size: size}
	if br, ok := r.(*bufio.Reader); ok {
		fr.r = br
	} else if size < 0 {
		fr.r = bufio.NewReaderSize(r, 64<<10)
	} else {
		fr.r = bufio.NewReaderSize(r, int(min(max(size, 16), 64<<10)))
	}
	return fr
}

// damage is a DamageError at off of this file.
func (fr *frames) damage(off int64, format string, a ...any) *DamageError {
	return &DamageError{File: fr.name, Offset: off, What: fmt.Sprintf(format, a...)}
}

// left is how many bytes the file has from off, at least n when it has them: its size as seen
// at open, or, when that is too few, again now, for a file that may have grown since (a
// recording being written). -1 when its size is not known (a compressed file's, before it is
// read to its end).
func (fr *frames) left(off, n int64) int64 {
	if fr.size >= 0 && fr.size-off < n && fr.file != nil {
		fr.size = max(fr.size, fr.file.grown())
	}
	if fr.size < 0 {
		return -1
	}
	return fr.size - off
}

// name of the record at the reader, from its first payload word when it is there.
func (fr *frames) recordName() string {
	if fr.kind == nil {
		return fr.one
	}
	if b, err := fr.r.Peek(8); err == nil {
		return fr.kind(be.Uint32(b[4:]))
	}
	return "a record"
}

// next is the next record's payload (valid until the next call) and its offset; io.EOF at the
// end of the file, a *DamageError for a record that is not whole and sound.
func (fr *frames) next() ([]byte, int64, error) {
	off := fr.off
	hdr, err := fr.r.Peek(4)
	if len(hdr) == 0 && errors.Is(err, io.EOF) {
		return nil, off, io.EOF
	}
	if err != nil && !errors.Is(err, io.EOF) {
		if zerr := fr.zerr(off, err); zerr != nil {
			return nil, off, zerr
		}
		return nil, off, fmt.Errorf("%s: offset %d: %w", fr.name, off, err)
	}
	if len(hdr) < 4 {
		d := fr.damage(off, "the file ends %d bytes into a record's length (its writer stopped while writing it)", len(hdr))
		d.Cut = true
		return nil, off, d
	}
	n := int64(be.Uint32(hdr))
	what := fr.recordName()
	left := fr.left(off, n)
	switch {
	case n < 8:
		if n == 0 && fr.zeros() {
			return nil, off, fr.damage(off, "a record of length 0, and zeros to the end: the file is padded, not written")
		}
		return nil, off, fr.damage(off, "%s says it is %d bytes, less than its two lengths", what, n)
	case n > maxRecord && left < 0:
		return nil, off, fr.damage(off, "%s says it is %d bytes, past the %d MiB a record may be", what, n, maxRecord>>20)
	case n > maxRecord:
		return nil, off, fr.damage(off, "%s says it is %d bytes, past the %d MiB a record may be (the file has %d left)", what, n, maxRecord>>20, left)
	case left >= 0 && n > left:
		d := fr.damage(off, "%s says it is %d bytes, the file has %d left", what, n, left)
		d.Cut = true
		return nil, off, d
	}
	b, k, err := fr.read(n, left >= 0)
	if err != nil {
		if zerr := fr.zerr(off, err); zerr != nil {
			return nil, off, zerr
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			d := fr.damage(off, "%s of %d bytes is cut short after %d", what, n, k)
			d.Cut = true
			return nil, off, d
		}
		return nil, off, fmt.Errorf("%s: offset %d: %w", fr.name, off, err)
	}
	if t := int64(be.Uint32(b[n-4:])); t != n {
		return nil, off, fr.damage(off, "%s of %d bytes ends with the length %d", what, n, t)
	}
	fr.off += n
	return b[4 : n-4], off, nil
}

// zerr is the DamageError for damage met in a compressed file while reading the record at off
// (its offset in the uncompressed bytes), nil for any other error: the compressed file and the
// offset in it where the damage is, and the record it was in.
func (fr *frames) zerr(off int64, err error) error {
	var z *decompress.Error
	if !errors.As(err, &z) {
		return nil
	}
	return &DamageError{File: z.File, Offset: z.Offset, Cut: z.Cut,
		What: fmt.Sprintf("%s, %d bytes into its uncompressed data (in the record at offset %d of them)", z.What, z.Pos, off)}
}

// read reads a record of n bytes into the frames' buffer. When the bytes are known to be there
// (sized) the buffer is sized at once; else (a compressed file) it grows as they arrive, so a
// length the file does not back allocates no more than the bytes there are.
func (fr *frames) read(n int64, sized bool) ([]byte, int, error) {
	if sized || n <= 64<<10 {
		if int64(cap(fr.buf)) < n {
			fr.buf = make([]byte, n)
		}
		b := fr.buf[:n]
		k, err := io.ReadFull(fr.r, b)
		return b, k, err
	}
	b := fr.buf[:0]
	for int64(len(b)) < n {
		chunk := min(n-int64(len(b)), max(int64(len(b)), 64<<10))
		b = slices.Grow(b, int(chunk))
		k, err := io.ReadFull(fr.r, b[len(b):len(b)+int(chunk)])
		b = b[:len(b)+k]
		if err != nil {
			fr.buf = b
			return b, len(b), err
		}
	}
	fr.buf = b
	return b, len(b), nil
}

// zeros says the reader has only zeros ahead, in its buffer (a few kilobytes are enough to say
// a file is padded).
func (fr *frames) zeros() bool {
	b, _ := fr.r.Peek(4096)
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return len(b) > 0
}

// metaKind names a metadata record by its tag.
func metaKind(tag uint32) string {
	switch tag {
	case tagDesc:
		return "a descriptor record"
	case tagInDomV2, tagInDom:
		return "an instance domain record"
	case tagInDomDelta:
		return "an instance domain delta record"
	case tagLabelV2, tagLabel:
		return "a label set record"
	case tagText:
		return "a help text record"
	}
	return fmt.Sprintf("a record of type %d", tag)
}
