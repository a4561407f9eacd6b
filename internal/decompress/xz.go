package decompress

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"hash/crc64"
	"io"
	"sort"

	"github.com/ulikunitz/xz/lzma"
)

// The xz container (The .xz File Format 1.0.4): streams of a 12-byte header, blocks, an index
// of the blocks' sizes and a 12-byte footer that says where the index begins. Each block is a
// header (its filters: LZMA2 and its dictionary), LZMA2 data, padding to 4 bytes and a check of
// the uncompressed bytes. The blocks are decoded here, one at a time, by the LZMA2 decoder of
// github.com/ulikunitz/xz: the container is read by this file so that a block can be started
// where the index says it is, and its dictionary checked before it is allocated.

var (
	xzMagic  = []byte{0xfd, '7', 'z', 'X', 'Z', 0}
	le       = binary.LittleEndian
	crc64Tab = crc64.MakeTable(crc64.ECMA)
)

// maxIndex bounds the index of one xz stream read at open (a block's record is a few bytes:
// pmlogger_daily's 10 MiB blocks of a day's volume make an index of under a kilobyte).
const maxIndex = 16 << 20

// block is one xz block as its stream's index records it.
type block struct {
	coff     int64 // the compressed offset of its header
	unpadded int64 // its header, data and check, without padding
	uoff     int64 // the uncompressed offset of its first byte
	usize    int64
	check    byte // its stream's check type
}

// xzBlock is the block being decoded.
type xzBlock struct {
	coff    int64 // its header's offset
	hdr     int64 // its header's size
	check   byte
	csize   int64 // its compressed data's size, -1 when neither header nor index says it
	usize   int64 // its uncompressed size, -1 when neither says it
	src     *countReader
	dec     *lzma.Reader2
	sum     hash.Hash
	got     int64 // the uncompressed bytes it has given
	dataOff int64
}

// checkSize is the size of a check of type t (xz's table: none, CRC32, CRC64, SHA-256 and the
// reserved types' sizes).
func checkSize(t byte) int64 {
	return [16]int64{0, 4, 4, 4, 8, 8, 8, 16, 16, 16, 32, 32, 32, 64, 64, 64}[t&0xf]
}

func pad4(n int64) int64 { return (n + 3) &^ 3 }

// openXZ checks the first stream's header and reads every stream's index, from the end of the
// file. An index that cannot be read leaves the file to be read forward.
func (r *Reader) openXZ() error {
	if _, err := r.streamHeader(0); err != nil {
		return err
	}
	if blocks, size, err := r.readIndexes(); err == nil {
		r.blocks, r.size = blocks, size
	}
	return nil
}

// streamHeader reads and checks the stream header at off, returning its check type.
func (r *Reader) streamHeader(off int64) (byte, error) {
	h := make([]byte, 12)
	if _, err := r.f.ReadAt(h, off); err != nil {
		return 0, r.damage(off, fmt.Errorf("no xz stream header: %w", eofCut(err)))
	}
	if !bytes.Equal(h[:6], xzMagic) {
		return 0, &Error{File: r.name, Offset: off, What: "xz: not an xz stream (its magic bytes are not there)"}
	}
	if crc32.ChecksumIEEE(h[6:8]) != le.Uint32(h[8:]) || h[6] != 0 || h[7]&0xf0 != 0 {
		return 0, &Error{File: r.name, Offset: off, What: "xz: a stream header whose flags or check do not hold"}
	}
	return h[7], nil
}

// eofCut makes an end of file met reading a structure an unexpected one.
func eofCut(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// readIndexes reads every stream's index from the end of the file: the blocks, in order, and
// the uncompressed size.
func (r *Reader) readIndexes() ([]block, int64, error) {
	var streams [][]block
	end := r.csize
	word := make([]byte, 4)
	for end > 0 {
		for end >= 4 { // stream padding: zeros, in words
			if _, err := r.f.ReadAt(word, end-4); err != nil {
				return nil, 0, err
			}
			if le.Uint32(word) != 0 {
				break
			}
			end -= 4
		}
		blocks, start, err := r.readIndex(end)
		if err != nil {
			return nil, 0, err
		}
		streams = append(streams, blocks)
		end = start
	}
	var all []block
	var uoff int64
	for i := len(streams) - 1; i >= 0; i-- {
		for _, b := range streams[i] {
			b.uoff = uoff
			uoff += b.usize
			all = append(all, b)
		}
	}
	if len(all) == 0 {
		return nil, 0, errors.New("no blocks")
	}
	return all, uoff, nil
}

// readIndex reads the stream that ends at end: its footer, index and header; its blocks and
// where it starts.
func (r *Reader) readIndex(end int64) ([]block, int64, error) {
	if end < 24 {
		return nil, 0, errors.New("too short for a stream")
	}
	ft := make([]byte, 12)
	if _, err := r.f.ReadAt(ft, end-12); err != nil {
		return nil, 0, err
	}
	if ft[10] != 'Y' || ft[11] != 'Z' || crc32.ChecksumIEEE(ft[4:10]) != le.Uint32(ft) {
		return nil, 0, errors.New("no stream footer")
	}
	isize := (int64(le.Uint32(ft[4:])) + 1) * 4
	ioff := end - 12 - isize
	if isize > maxIndex || ioff < 12 {
		return nil, 0, errors.New("an index past the file or the limit")
	}
	idx := make([]byte, isize)
	if _, err := r.f.ReadAt(idx, ioff); err != nil {
		return nil, 0, err
	}
	if idx[0] != 0 || crc32.ChecksumIEEE(idx[:isize-4]) != le.Uint32(idx[isize-4:]) {
		return nil, 0, errors.New("an index whose check does not hold")
	}
	p := idx[1 : isize-4]
	n, p, ok := uvarint(p)
	if !ok || n > uint64(len(p)/2) {
		return nil, 0, errors.New("an index count past its records")
	}
	blocks := make([]block, n)
	var csum int64
	for i := range blocks {
		var un, us uint64
		var ok1, ok2 bool
		un, p, ok1 = uvarint(p)
		us, p, ok2 = uvarint(p)
		if !ok1 || !ok2 || un < 5 || un > uint64(end) || us > 1<<50 {
			return nil, 0, errors.New("an index record out of range")
		}
		blocks[i] = block{unpadded: int64(un), usize: int64(us)}
		csum += pad4(int64(un))
	}
	start := ioff - csum - 12
	if start < 0 {
		return nil, 0, errors.New("blocks past the start of the file")
	}
	check, err := r.streamHeader(start)
	if err != nil {
		return nil, 0, err
	}
	if ft[8] != 0 || ft[9] != check {
		return nil, 0, errors.New("a footer's flags that are not its header's")
	}
	coff := start + 12
	for i := range blocks {
		blocks[i].coff, blocks[i].check = coff, check
		coff += pad4(blocks[i].unpadded)
	}
	return blocks, start, nil
}

// uvarint reads one of xz's variable-length integers (7 bits a byte, at most 9 bytes).
func uvarint(p []byte) (uint64, []byte, bool) {
	var v uint64
	for i := 0; i < 9 && i < len(p); i++ {
		v |= uint64(p[i]&0x7f) << (7 * i)
		if p[i]&0x80 == 0 {
			if i > 0 && p[i] == 0 {
				return 0, p, false // not the shortest form
			}
			return v, p[i+1:], true
		}
	}
	return 0, p, false
}

// readXZ reads uncompressed bytes, block after block: from the block kept decoded when the
// reader is within what it holds, else from the block's decoder (a block kept decoded is decoded
// into its cache and given from there: one copy, as before).
func (r *Reader) readXZ(p []byte) (int, error) {
	for {
		if r.cb >= 0 && r.cb == r.bi {
			if o := r.pos - r.blocks[r.bi].uoff; o < int64(len(r.cache)) {
				return copy(p, r.cache[o:]), nil
			}
		}
		if r.xb == nil {
			if err := r.nextBlock(); err != nil {
				return 0, err
			}
			continue
		}
		if r.cb >= 0 && r.cb == r.bi && len(r.cache) < cap(r.cache) {
			at := len(r.cache)
			n, again, err := r.decode(r.cache[at:min(cap(r.cache), at+len(p))], true)
			copy(p, r.cache[at:at+n])
			if again {
				continue
			}
			return n, err
		}
		n, again, err := r.decode(p, false)
		if again {
			continue
		}
		return n, err
	}
}

// decode decodes the block being read into p; into says p is the free end of the cache of the
// block kept decoded, which then holds them (and is checked at the block's end). again says the
// block ended with nothing given, and the next is to be started.
func (r *Reader) decode(p []byte, into bool) (n int, again bool, err error) {
	n, err = r.xb.dec.Read(p)
	r.xb.got += int64(n)
	r.Decoded += int64(n)
	if into {
		r.cache = r.cache[:len(r.cache)+n]
	} else if r.xb.sum != nil && (r.cb < 0 || r.cb != r.bi) { // a kept block's full cache: only damage comes now
		r.xb.sum.Write(p[:n])
	}
	if errors.Is(err, io.EOF) {
		if err := r.finishBlock(); err != nil {
			return n, false, err
		}
		r.xb = nil
		return n, n == 0, nil
	}
	if err != nil {
		return n, false, r.damage(r.xb.src.n, err)
	}
	if r.xb.usize >= 0 && r.xb.got > r.xb.usize {
		return n, false, &Error{File: r.name, Offset: r.xb.src.n, Pos: r.pos, What: fmt.Sprintf("xz: a block at offset %d gives more than the %d bytes it says it holds", r.xb.coff, r.xb.usize)}
	}
	return n, false, nil
}

// skipXZ moves n bytes forward: in a block kept decoded, its bytes are decoded straight into the
// cache, neither copied out nor checked on the way (the check is made over the cache at the
// block's end); anywhere else they are read and dropped.
func (r *Reader) skipXZ(n int64) error {
	for n > 0 && r.err == nil {
		if r.xb == nil || r.cb < 0 || r.cb != r.bi || r.pos-r.blocks[r.bi].uoff != int64(len(r.cache)) || len(r.cache) == cap(r.cache) {
			k := min(n, 1<<16)
			if err := r.skip(k); err != nil {
				return err
			}
			n -= k
			continue
		}
		at := len(r.cache)
		k, _, err := r.decode(r.cache[at:min(int64(cap(r.cache)), int64(at)+n)], true)
		r.pos += int64(k)
		n -= int64(k)
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				e.Pos = r.pos
			}
			r.err = err
			return err
		}
	}
	return r.err
}

// nextBlock starts the next block: the next of the index, or the one after the last read.
func (r *Reader) nextBlock() error {
	if len(r.blocks) > 0 {
		if r.bi+1 >= len(r.blocks) {
			return io.EOF
		}
		r.bi++
		b := r.blocks[r.bi]
		r.cb = -1
		if err := r.startBlock(b.coff, b.check, &b); err != nil {
			return err
		}
		if b.usize <= MaxCache { // kept decoded as it is read
			if int64(cap(r.cache)) < b.usize {
				r.cache = make([]byte, 0, b.usize)
			}
			r.cb, r.cache = r.bi, r.cache[:0]
		}
		return nil
	}
	if r.nextC == 0 {
		check, err := r.streamHeader(0)
		if err != nil {
			return err
		}
		r.nextC, r.xcheck = 12, check
	}
	return r.startBlock(r.nextC, r.xcheck, nil)
}

// startBlock reads the block header at coff and starts its decoder. known is the index's
// record of it, when the index was read. Without one, a zero byte where a header would be is
// the stream's index: the end of the data.
func (r *Reader) startBlock(coff int64, check byte, known *block) error {
	var b [1024]byte
	if _, err := r.f.ReadAt(b[:1], coff); err != nil {
		return r.damage(coff, fmt.Errorf("a block header: %w", eofCut(err)))
	}
	if b[0] == 0 {
		if known == nil {
			return io.EOF // the index: this reader reads the first stream only without it
		}
		return &Error{File: r.name, Offset: coff, Pos: r.pos, What: "xz: the index says a block is here, and there is none"}
	}
	hsize := (int64(b[0]) + 1) * 4
	h := b[:hsize]
	if _, err := r.f.ReadAt(h, coff); err != nil {
		return r.damage(coff, fmt.Errorf("a block header: %w", eofCut(err)))
	}
	bad := func(what string) error {
		return &Error{File: r.name, Offset: coff, Pos: r.pos, What: "xz: a block header " + what}
	}
	if crc32.ChecksumIEEE(h[:hsize-4]) != le.Uint32(h[hsize-4:]) {
		return bad("whose check does not hold")
	}
	flags := h[1]
	if flags&0x3c != 0 {
		return bad("with flags this format does not define")
	}
	p := h[2 : hsize-4]
	xb := &xzBlock{coff: coff, hdr: hsize, check: check, csize: -1, usize: -1}
	var ok bool
	var v uint64
	if flags&0x40 != 0 {
		if v, p, ok = uvarint(p); !ok {
			return bad("with a compressed size that cannot be read")
		}
		xb.csize = int64(min(v, 1<<62))
	}
	if flags&0x80 != 0 {
		if v, p, ok = uvarint(p); !ok {
			return bad("with an uncompressed size that cannot be read")
		}
		xb.usize = int64(min(v, 1<<62))
	}
	id, p, ok1 := uvarint(p)
	psize, p, ok2 := uvarint(p)
	if flags&3 != 0 || !ok1 || !ok2 || id != 0x21 || psize != 1 || len(p) < 1 {
		return bad(fmt.Sprintf("with filters other than LZMA2 alone (filter %#x of %d)", id, flags&3+1))
	}
	dict, err := lzma.DecodeDictCap(p[0])
	if err != nil || dict > MaxDict {
		return bad(fmt.Sprintf("asking for a dictionary past the %s this reader allows", mib(MaxDict)))
	}
	if known != nil {
		data := known.unpadded - hsize - checkSize(check)
		if data <= 0 || (xb.csize >= 0 && xb.csize != data) || (xb.usize >= 0 && xb.usize != known.usize) {
			return bad("whose sizes are not the index's")
		}
		xb.csize, xb.usize = data, known.usize
	}
	xb.dataOff = coff + hsize
	limit := r.csize
	if xb.csize >= 0 {
		limit = min(limit, xb.dataOff+xb.csize)
	}
	if limit < xb.dataOff {
		return &Error{File: r.name, Offset: coff, Pos: r.pos, What: "xz: a block past the end of the file", Cut: true}
	}
	xb.src = r.section(xb.dataOff, limit)
	switch check {
	case 1:
		xb.sum = crc32.NewIEEE()
	case 4:
		xb.sum = crc64.New(crc64Tab)
	case 0xa:
		xb.sum = sha256.New()
	}
	r.Starts++
	if xb.dec, err = (lzma.Reader2Config{DictCap: int(max(dict, lzma.MinDictCap))}).NewReader2(xb.src); err != nil {
		return bad(err.Error())
	}
	r.xb = xb
	return nil
}

// finishBlock checks a block that has ended: its sizes, its padding and its check.
func (r *Reader) finishBlock() error {
	xb := r.xb
	end := xb.src.n
	if xb.csize >= 0 && end-xb.dataOff != xb.csize {
		return &Error{File: r.name, Offset: end, Pos: r.pos, What: fmt.Sprintf("xz: a block at offset %d ends after %d compressed bytes, its header or index says %d", xb.coff, end-xb.dataOff, xb.csize)}
	}
	if xb.usize >= 0 && xb.got != xb.usize {
		return &Error{File: r.name, Offset: end, Pos: r.pos, What: fmt.Sprintf("xz: a block at offset %d gives %d bytes, its header or index says %d", xb.coff, xb.got, xb.usize)}
	}
	pad := pad4(end-xb.coff) - (end - xb.coff)
	tail := make([]byte, pad+checkSize(xb.check))
	if _, err := r.f.ReadAt(tail, end); err != nil {
		return r.damage(end, fmt.Errorf("a block's check: %w", eofCut(err)))
	}
	if !isZero(tail[:pad]) {
		return &Error{File: r.name, Offset: end, Pos: r.pos, What: "xz: a block's padding is not zeros"}
	}
	if xb.sum != nil {
		if r.cb >= 0 && r.cb == r.bi {
			xb.sum.Write(r.cache) // kept decoded from its start: checked here, once
		}
		want := tail[pad:]
		var got []byte
		switch s := xb.sum.(type) {
		case hash.Hash32:
			got = le.AppendUint32(nil, s.Sum32())
		case hash.Hash64:
			got = le.AppendUint64(nil, s.Sum64())
		default:
			got = s.Sum(nil)
		}
		if !bytes.Equal(got, want) {
			return &Error{File: r.name, Offset: end + pad, Pos: r.pos, What: fmt.Sprintf("xz: the check of a block at offset %d does not hold: its data is damaged", xb.coff)}
		}
	}
	r.nextC = end + int64(len(tail))
	return nil
}

func isZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// seekXZ places the reader at off through the block index: within the block kept decoded, at
// no cost; forward in the block being read; else from the start of off's block.
func (r *Reader) seekXZ(off int64) error {
	i := sort.Search(len(r.blocks), func(i int) bool { return r.blocks[i].uoff+r.blocks[i].usize > off })
	if i == len(r.blocks) { // at or past the end
		r.xb, r.bi, r.pos, r.err = nil, len(r.blocks)-1, r.size, nil
		return r.skip(off - r.size)
	}
	if r.err == nil && r.bi == i {
		b := r.blocks[i]
		whole := int64(len(r.cache)) == b.usize
		if r.cb == i && (r.xb != nil || whole) && off-b.uoff <= int64(len(r.cache)) {
			r.pos = off
			return nil
		}
		if r.xb != nil && r.pos <= off {
			return r.skipXZ(off - r.pos)
		}
	}
	r.xb, r.bi, r.pos, r.err, r.cb = nil, i-1, r.blocks[i].uoff, nil, -1
	return r.skipXZ(off - r.pos)
}
