package pcpwire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
)

var be = binary.BigEndian

// Type is a PDU's type (libpcp.h, PDU_*).
type Type int32

// The PDU types of a client's conversation with pmcd.
const (
	TypeError         Type = 0x7000
	TypeResult        Type = 0x7001
	TypeProfile       Type = 0x7002
	TypeFetch         Type = 0x7003
	TypeDescReq       Type = 0x7004
	TypeDesc          Type = 0x7005
	TypeInstanceReq   Type = 0x7006
	TypeInstance      Type = 0x7007
	TypeTextReq       Type = 0x7008
	TypeText          Type = 0x7009
	TypeControlReq    Type = 0x700a
	TypeCreds         Type = 0x700c
	TypePMNSIDs       Type = 0x700d
	TypePMNSNames     Type = 0x700e
	TypePMNSChild     Type = 0x700f
	TypePMNSTraverse  Type = 0x7010
	TypeAttr          Type = 0x7011
	TypeLabelReq      Type = 0x7012
	TypeLabel         Type = 0x7013
	TypeHighResFetch  Type = 0x7014
	TypeHighResResult Type = 0x7015
	TypeDescIDs       Type = 0x7016
	TypeDescs         Type = 0x7017
)

var typeNames = map[Type]string{
	TypeError: "ERROR", TypeResult: "RESULT", TypeProfile: "PROFILE", TypeFetch: "FETCH",
	TypeDescReq: "DESC_REQ", TypeDesc: "DESC", TypeInstanceReq: "INSTANCE_REQ", TypeInstance: "INSTANCE",
	TypeTextReq: "TEXT_REQ", TypeText: "TEXT", TypeControlReq: "CONTROL_REQ", TypeCreds: "CREDS",
	TypePMNSIDs: "PMNS_IDS", TypePMNSNames: "PMNS_NAMES", TypePMNSChild: "PMNS_CHILD",
	TypePMNSTraverse: "PMNS_TRAVERSE", TypeAttr: "ATTR", TypeLabelReq: "LABEL_REQ", TypeLabel: "LABEL",
	TypeHighResFetch: "HIGHRES_FETCH", TypeHighResResult: "HIGHRES_RESULT", TypeDescIDs: "DESC_IDS",
	TypeDescs: "DESCS",
}

// String is the type's name without its PDU_ prefix, as pmcd's traces print it.
func (t Type) String() string {
	if s, ok := typeNames[t]; ok {
		return s
	}
	return fmt.Sprintf("TYPE-0x%x", int32(t))
}

// HeaderLen is the size of a PDU header: length, type and sender, 32 bits each.
const HeaderLen = 12

// MaxPDU is the largest PDU a reader takes by default: 64 MiB, libpcp's own ceiling for what a
// pmcd may send (PDU_CHUNK × 64 Ki). A client's PDUs to pmcd must stay within MaxRequest.
const MaxPDU = 64 << 20

// MaxRequest is the largest PDU pmcd accepts from a client (pdu.c's ceiling, PDU_CHUNK × 64).
const MaxRequest = 64 << 10

// Header is a PDU's header.
type Header struct {
	Len  int   // the whole PDU's length in bytes, header included
	Type Type  // what it is
	From int32 // the sender: a pid, a context number, or 0
}

// Reader reads PDUs from a stream (a connection to pmcd) into one buffer it keeps, so that a
// steady conversation allocates nothing; or, after Release, into one of a pool the readers
// share, taken once a PDU's header is in. It is used by one goroutine at a time.
type Reader struct {
	r   io.Reader
	buf []byte
	box *[]byte // what buf goes back to the pool in (a pointer, so that Put allocates nothing)
	hdr [HeaderLen]byte
	max int
}

// Release gives the reader's buffer to the readers' pool: the body of the PDU read last must no
// longer be used. A fleet's connections then wait for their next answers without a buffer each
// (issue 38: 12 KB a host of 8 processors and 16 disks).
func (r *Reader) Release() {
	if cap(r.buf) == 0 || cap(r.buf) > maxPooled {
		r.buf = nil
		return
	}
	if r.box == nil {
		r.box = new([]byte)
	}
	*r.box = r.buf[:0]
	buffers.Put(r.box)
	r.buf, r.box = nil, nil
}

// maxPooled is the largest buffer the pool keeps: a PDU larger than that (a big instance
// domain) is read into one of its own.
const maxPooled = 256 << 10

// buffers are the readers' shared buffers (Release).
var buffers sync.Pool

// take makes sure the reader has a buffer: its own, one of the pool, or a new one.
func (r *Reader) take() {
	if cap(r.buf) >= HeaderLen {
		return
	}
	if b, ok := buffers.Get().(*[]byte); ok {
		r.buf, r.box = (*b)[:0], b
		*b = nil
		return
	}
	r.buf = make([]byte, 0, 4096)
}

// NewReader reads PDUs from r, none longer than max bytes (MaxPDU when max ≤ 0).
func NewReader(r io.Reader, max int) *Reader {
	if max <= 0 {
		max = MaxPDU
	}
	return &Reader{r: r, max: max}
}

// growStep bounds what a length field alone makes a reader allocate: the buffer grows with the
// bytes that arrive, never at once to a length a peer only claims.
const growStep = 64 << 10

// Next reads the next PDU and returns its header and body (the bytes after the header). The
// body is the reader's until the next call. A stream that ends between two PDUs gives io.EOF;
// one that ends inside a PDU gives an error saying how far it got, wrapping
// io.ErrUnexpectedEOF (or the read's own error). A length below the header's or above the
// limit is a *ProtocolError, found before anything is allocated for it.
func (r *Reader) Next() (Header, []byte, error) {
	b := r.hdr[:]
	if n, err := io.ReadFull(r.r, b); err != nil {
		if n == 0 {
			return Header{}, nil, err // io.EOF: the stream ended between PDUs
		}
		return Header{}, nil, fmt.Errorf("a PDU header cut short after %d of %d bytes: %w", n, HeaderLen, err)
	}
	h := Header{Len: int(int32(be.Uint32(b))), Type: Type(be.Uint32(b[4:])), From: int32(be.Uint32(b[8:]))}
	if h.Len < HeaderLen {
		return h, nil, &ProtocolError{PDU: h.Type, Offset: 0, Msg: fmt.Sprintf("a length of %d bytes, less than its own header", h.Len)}
	}
	if h.Len > r.max {
		return h, nil, &ProtocolError{PDU: h.Type, Offset: 0, Code: ErrTooBig,
			Msg: fmt.Sprintf("a length of %d bytes, more than the %d a PDU may have here", h.Len, r.max)}
	}
	r.take()
	r.buf = append(r.buf[:0], b...)
	have := HeaderLen
	for have < h.Len {
		if have == cap(r.buf) {
			n := min(h.Len, max(2*cap(r.buf), cap(r.buf)+growStep))
			nb := make([]byte, have, n)
			copy(nb, r.buf[:have])
			r.buf = nb
		}
		end := min(h.Len, cap(r.buf))
		n, err := io.ReadFull(r.r, r.buf[have:end])
		have += n
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return h, nil, fmt.Errorf("a %s PDU cut short after %d of %d bytes: %w", h.Type, have, h.Len, err)
		}
	}
	return h, r.buf[HeaderLen:h.Len], nil
}

// begin appends a PDU header whose length finish fills in.
func begin(b []byte, t Type, from int32) ([]byte, int) {
	start := len(b)
	b = be.AppendUint32(b, 0)
	b = be.AppendUint32(b, uint32(t))
	b = be.AppendUint32(b, uint32(from))
	return b, start
}

// finish writes the length of the PDU begun at start.
func finish(b []byte, start int) []byte {
	be.PutUint32(b[start:], uint32(len(b)-start))
	return b
}

func u32(b []byte, v uint32) []byte { return be.AppendUint32(b, v) }
func i32(b []byte, v int32) []byte  { return be.AppendUint32(b, uint32(v)) }

// padded appends s and zero bytes up to the next 32-bit boundary, as every string in a PDU is.
func padded(b []byte, s string) []byte {
	b = append(b, s...)
	for n := len(s); n%4 != 0; n++ {
		b = append(b, 0)
	}
	return b
}

// pad4 is n rounded up to a multiple of 4 (PM_PDU_SIZE_BYTES).
func pad4(n int) int { return (n + 3) &^ 3 }

// reader reads the fields of a PDU body; a read past its end sets bad and yields zeros.
type reader struct {
	p   []byte
	i   int
	bad bool
}

func (r *reader) u32() uint32 {
	if len(r.p)-r.i < 4 {
		r.bad = true
		return 0
	}
	v := be.Uint32(r.p[r.i:])
	r.i += 4
	return v
}

func (r *reader) i32() int32 { return int32(r.u32()) }

func (r *reader) u64() uint64 {
	if len(r.p)-r.i < 8 {
		r.bad = true
		return 0
	}
	v := be.Uint64(r.p[r.i:])
	r.i += 8
	return v
}

func (r *reader) left() int { return len(r.p) - r.i }

// str reads n bytes and the padding after them (which the last string of a PDU may lack: libpcp
// takes that too).
func (r *reader) str(n int) ([]byte, bool) {
	if n < 0 || n > r.left() {
		r.bad = true
		return nil, false
	}
	s := r.p[r.i : r.i+n]
	r.i += min(pad4(n), r.left())
	return s, true
}
