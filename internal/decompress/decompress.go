// Package decompress reads a compressed file's bytes as they were before compression, as
// Performance Co-Pilot's tools read the volumes and metadata pmlogger_daily compresses (issue 39
// item 2): xz (and its older .lzma), bzip2 and gzip, chosen by the file's suffix as libpcp's
// io.c chooses (.xz .lzma .bz2 .bz .gz .z). Its Reader is placed at any offset of the
// uncompressed bytes (Seek): an xz file is read a block at a time through the block index at its
// end (pmlogger_daily writes blocks of 10 MiB), so a seek decompresses at most one block; the
// others are decompressed forward from where the reader is, or from the start for an offset
// behind it.
//
// A compressed file is outside data: memory is bounded by the format's own window (an xz
// block's dictionary, checked against MaxDict before it is allocated; 32 KiB for gzip, about
// 4 MiB for bzip2) and a buffer, never by a length the file claims; a damaged or cut stream is
// an *Error naming the file and the offset in it where the damage was found.
package decompress

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Kind is a compression format.
type Kind int

// The formats read.
const (
	None Kind = iota
	XZ
	LZMA // the .lzma format (xz --format=lzma), read forward only
	BZip2
	GZip
)

func (k Kind) String() string {
	switch k {
	case XZ:
		return "xz"
	case LZMA:
		return "lzma"
	case BZip2:
		return "bzip2"
	case GZip:
		return "gzip"
	}
	return "none"
}

// Suffixes are the suffixes of compressed files, in the order libpcp tries them when a file
// is not there uncompressed (io.c's compress_ctl; .Z, compress(1)'s, and .zst are not read).
var Suffixes = []string{".xz", ".lzma", ".bz2", ".bz", ".gz", ".z"}

// Unread are suffixes of compressed files PCP may read that this package does not: a file
// with one is named in an error rather than taken for a missing one.
var Unread = []string{".Z", ".zst"}

// KindOf is the format a file's name says, None for a name with no compressed suffix.
func KindOf(name string) Kind {
	switch {
	case strings.HasSuffix(name, ".xz"):
		return XZ
	case strings.HasSuffix(name, ".lzma"):
		return LZMA
	case strings.HasSuffix(name, ".bz2"), strings.HasSuffix(name, ".bz"):
		return BZip2
	case strings.HasSuffix(name, ".gz"), strings.HasSuffix(name, ".z"):
		return GZip
	}
	return None
}

// MaxCache bounds the xz block a Reader keeps decoded, from its start as far as it was read, so
// that a seek back within it (a replay's minute back) decodes nothing: pmlogger_daily's blocks
// are 10 MiB. A larger block is not kept: a seek back in it decodes it again from its start.
var MaxCache int64 = 16 << 20

// MaxDict bounds an xz or lzma dictionary (the decoder's window, allocated whole): 64 MiB,
// xz's largest preset (-9); pmlogger_daily's xz -0 uses 256 KiB.
var MaxDict int64 = 64 << 20

// Error is damage in a compressed file: the file, the byte offset in it where the reader found
// it (for bzip2 and gzip, how far their decoder had read), how far into the uncompressed bytes
// that was, and what was wrong.
type Error struct {
	File   string
	Offset int64 // in the compressed file
	Pos    int64 // in the uncompressed bytes: what was read before the damage
	What   string
	Cut    bool // the file ends inside its compressed data
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: offset %d: %s (%d bytes into its data)", e.File, e.Offset, e.What, e.Pos)
}

// ErrDamaged is wrapped by every *Error.
var ErrDamaged = errors.New("damaged compressed file")

// Unwrap makes an Error an ErrDamaged.
func (e *Error) Unwrap() error { return ErrDamaged }

// File is what a Reader reads from: an open file (an *os.File) and its size.
type File interface {
	io.ReaderAt
	io.Closer
}

// Reader reads a compressed file's uncompressed bytes from any offset.
type Reader struct {
	name  string
	kind  Kind
	f     File
	csize int64 // the compressed file's size
	size  int64 // the uncompressed size, -1 while not known (bzip2, gzip, an xz without its index)

	blocks []block // xz: every block, in order, from the streams' indexes; nil when unread
	bi     int     // xz: the block being read (index in blocks), or -1 before the first
	nextC  int64   // xz without an index: the compressed offset of the next block's header
	xcheck byte    // xz without an index: the stream's check type
	cache  []byte  // xz: the bytes of block cb decoded so far, from its start (MaxCache)
	cb     int     // xz: the block the cache holds, -1 for none
	xb     *xzBlock

	dec io.Reader     // bzip2, gzip, lzma: the decoder, from the start of the file
	src *countReader  // the compressed bytes the decoder reads, counted
	buf *bufio.Reader // kept from decoder to decoder

	pos int64 // the uncompressed offset of the next byte Read gives
	err error // damage met: every later Read returns it

	// Starts counts the decoders started (a block's or the file's): a seek that only moves
	// forward within what is being read starts none.
	Starts int
	// Decoded counts the uncompressed bytes decoded in all, those a seek skipped included (not
	// those given again from the block kept decoded).
	Decoded int64
}

// Open reads f, a file of csize bytes named name (its suffix says its format: KindOf), as it
// was before compression. An xz file's block index is read at once; a damaged one is no error
// (the file is then read forward from its start, as bzip2 and gzip files always are).
func Open(f File, name string, csize int64) (*Reader, error) {
	r := &Reader{name: name, kind: KindOf(name), f: f, csize: csize, size: -1, bi: -1, cb: -1}
	switch r.kind {
	case None:
		return nil, fmt.Errorf("%s: not a compressed file's name", name)
	case XZ:
		if err := r.openXZ(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Kind is the file's format.
func (r *Reader) Kind() Kind { return r.kind }

// Size is the size of the uncompressed bytes, -1 when it is not known before they are read.
func (r *Reader) Size() int64 { return r.size }

// Pos is the uncompressed offset of the next byte Read gives.
func (r *Reader) Pos() int64 { return r.pos }

// Blocks is how many independently decompressed pieces the file has (xz blocks found in its
// index), and the largest's uncompressed size: what a seek decompresses at most. One block
// of the whole file (or 0 blocks: not indexed) means a seek backwards decompresses from the
// start.
func (r *Reader) Blocks() (n int, largest int64) {
	for _, b := range r.blocks {
		largest = max(largest, b.usize)
	}
	return len(r.blocks), largest
}

// Cost says what a seek costs in this file, for people: "a seek decompresses at most 10.0 MiB
// (one of 43 xz blocks), none within the block last read", or "a seek backwards decompresses from the start (gzip has no
// index)".
func (r *Reader) Cost() string {
	n, largest := r.Blocks()
	if n > 1 {
		return fmt.Sprintf("a seek decompresses at most %s (one of %d xz blocks), none within the block last read", mib(largest), n)
	}
	why := r.kind.String() + " has no index"
	if r.kind == XZ {
		why = "the xz file is one block"
		if n == 0 {
			why = "the xz file's index could not be read"
		}
	}
	return "a seek backwards decompresses from the start (" + why + ")"
}

// mib is a size as people read it: 256 KiB, 10.0 MiB.
func mib(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// Read reads uncompressed bytes.
func (r *Reader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var err error
	if r.kind == XZ {
		n, err = r.readXZ(p)
	} else {
		if r.dec == nil {
			if err := r.startStream(); err != nil {
				r.err = err
				return 0, err
			}
		}
		n, err = r.dec.Read(p)
		r.Decoded += int64(n)
		if err != nil && !errors.Is(err, io.EOF) {
			err = r.damage(r.src.n, err)
		}
	}
	r.pos += int64(n)
	var e *Error
	if errors.As(err, &e) {
		e.Pos = r.pos // the bytes given before the damage, these included
	}
	if err != nil && !errors.Is(err, io.EOF) {
		r.err = err
	}
	if errors.Is(err, io.EOF) && r.size < 0 {
		r.size = r.pos
	}
	return n, err
}

// Seek places the reader at an uncompressed offset (io.Seeker; io.SeekEnd only when Size is
// known): forward from where it is when it can, else from the start of the offset's xz block,
// else from the start of the file.
func (r *Reader) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		offset += r.pos
	case io.SeekEnd:
		if r.size < 0 {
			return r.pos, fmt.Errorf("%s: its uncompressed size is not known before it is read", r.name)
		}
		offset += r.size
	}
	if offset < 0 {
		return r.pos, fmt.Errorf("%s: seek to offset %d", r.name, offset)
	}
	err := r.seek(offset)
	return r.pos, err
}

func (r *Reader) seek(off int64) error {
	if off == r.pos && r.err == nil {
		return nil
	}
	if r.kind == XZ && len(r.blocks) > 0 {
		return r.seekXZ(off)
	}
	if off < r.pos || r.err != nil {
		r.restart()
	}
	return r.skip(off - r.pos)
}

// skip reads n bytes and drops them.
func (r *Reader) skip(n int64) error {
	if n <= 0 {
		return nil
	}
	k, err := io.CopyN(io.Discard, r, n)
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: offset %d is past the end of its %d uncompressed bytes", r.name, r.pos+n-k, r.pos)
	}
	return err
}

// restart puts the reader back at the start of the file, its decoders dropped.
func (r *Reader) restart() {
	r.dec, r.xb, r.bi, r.pos, r.err, r.cb = nil, nil, -1, 0, nil, -1
	r.nextC, r.xcheck = 0, 0
}

// Close closes the file.
func (r *Reader) Close() error {
	r.dec, r.xb = nil, nil
	return r.f.Close()
}

// damage is the Error for a decoder's err at compressed offset off.
func (r *Reader) damage(off int64, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	cut := errors.Is(err, io.ErrUnexpectedEOF)
	what := err.Error()
	if cut {
		what = "the file ends inside its compressed data"
	}
	return &Error{File: r.name, Offset: off, Pos: r.pos, What: r.kind.String() + ": " + what, Cut: cut}
}

// countReader reads a section of the compressed file through a buffer, counting the bytes
// given: a decoder reading it a byte at a time (io.ByteReader) reads nothing past what it
// uses, so the count is where its data ends.
type countReader struct {
	br *bufio.Reader
	n  int64 // the compressed offset of the next byte
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.br.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countReader) ReadByte() (byte, error) {
	b, err := c.br.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

// section is a counted reader of the compressed file from off to limit.
func (r *Reader) section(off, limit int64) *countReader {
	sr := io.NewSectionReader(r.f, off, limit-off)
	if r.buf == nil {
		r.buf = bufio.NewReaderSize(sr, 64<<10)
	} else {
		r.buf.Reset(sr)
	}
	return &countReader{br: r.buf, n: off}
}
