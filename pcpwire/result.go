package pcpwire

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// Stamp says how a pmResult begins: where its timestamp is and how fine, which differs between
// the two result PDUs and the two archive versions; the value sets after it are the same.
type Stamp int

const (
	// StampPDU is PDU_RESULT's: 32-bit seconds and microseconds, then the count of metrics.
	StampPDU Stamp = iota
	// StampHighRes is PDU_HIGHRES_RESULT's: the count of metrics, then 64-bit seconds and
	// 64-bit nanoseconds.
	StampHighRes
	// StampArchiveV2 is a Version 2 archive's data record: as StampPDU.
	StampArchiveV2
	// StampArchiveV3 is a Version 3 archive's data record: 64-bit seconds (as two 32-bit words,
	// the low one first, as pmlogger 6.0.3 writes them), 32-bit nanoseconds, then the count.
	StampArchiveV3
)

// where is how far a body's byte 0 is from where an error's byte count starts: the PDU header
// for a PDU, the record's leading length for an archive record.
func (s Stamp) where() (Type, int) {
	switch s {
	case StampPDU:
		return TypeResult, HeaderLen
	case StampHighRes:
		return TypeHighResResult, HeaderLen
	}
	return 0, 4
}

// Value formats of a value set (pmapi.h, PM_VAL_*).
const (
	ValInsitu = 0 // the 32-bit value is in the set itself
	ValDPtr   = 1 // the value is in a value block after the sets
	ValSPtr   = 2 // the same, "static" on the sender's side; identical on the wire
)

// Result is one pmResult: the time pmcd (or pmlogger) took it and a value set per metric
// asked for, in the order asked (PCPF-2, PCPF-11). DecodeResult reuses a Result's slices: the
// sets, values and value blocks are valid until the next DecodeResult into it, and the blocks
// point into the bytes decoded.
type Result struct {
	Time time.Time
	Sets []ValueSet
	vals []Value // every set's values, one after another
}

// ValueSet is one metric's values (pmValueSet). Err is the metric's status when it has no value:
// 0 when there is none (numval 0, PCPF-8), or the PCP error code pmcd sent instead (PCPF-9).
type ValueSet struct {
	PMID   uint32
	Err    Code
	ValFmt uint32 // ValInsitu, ValDPtr or ValSPtr, when there are values
	Values []Value
}

// Value is one instance's value as sent: a 32-bit word kept in the set (Insitu), or a value
// block's type and bytes (its 4-byte header removed). Only the descriptor's type says what
// either means (PCPF-6).
type Value struct {
	Inst      int32
	Insitu    bool
	Word      uint32
	BlockType uint8
	Block     []byte
}

// InNull is PM_IN_NULL, the instance of a metric with no instance domain.
const InNull = -1

// DecodeResult decodes the pmResult in body, a PDU's bytes after its header or an archive
// record's payload, into dst, reusing dst's slices. Every count is checked against the bytes
// there are before it sizes anything; a value block's place (in 32-bit words, counted from 12
// bytes before body, where a PDU header begins) must lie inside body. An error is a
// *ProtocolError.
func DecodeResult(body []byte, st Stamp, dst *Result) error {
	r := reader{p: body}
	n, err := decodeStamp(&r, st, dst)
	if err != nil {
		return err
	}
	if r.bad {
		return st.malformed(0, "%d bytes, too few for a result's timestamp and count", len(body))
	}
	// A value set takes at least 8 bytes (a pmid and a count).
	if n < 0 || int(n) > r.left()/8 {
		return st.malformed(r.i-4, "%d metrics, and room for %d", n, r.left()/8)
	}
	if cap(dst.Sets) < int(n) {
		dst.Sets = make([]ValueSet, 0, n)
	}
	dst.Sets = dst.Sets[:0]
	dst.vals = dst.vals[:0]
	for range n {
		if err := dst.decodeSet(&r, body, st, n); err != nil {
			return err
		}
	}
	return nil
}

// malformed is a *ProtocolError at byte off of a body in this layout.
func (s Stamp) malformed(off int, format string, a ...any) error {
	pdu, hdr := s.where()
	return &ProtocolError{PDU: pdu, Offset: hdr + off, Msg: fmt.Sprintf(format, a...)}
}

// decodeStamp reads a result's timestamp, in the layout st, into dst.Time and returns the count
// of metrics that comes before it (high resolution PDUs) or after it (the others).
func decodeStamp(r *reader, st Stamp, dst *Result) (int32, error) {
	var n int32
	switch st {
	case StampPDU, StampArchiveV2:
		sec, usec := r.u32(), r.u32()
		if usec >= 1e6 {
			return 0, st.malformed(4, "a timestamp of %d microseconds past the second", usec)
		}
		dst.Time = time.Unix(int64(sec), int64(usec)*1000)
		n = r.i32()
	case StampHighRes:
		n = r.i32()
		sec, nsec := int64(r.u64()), int64(r.u64())
		if nsec < 0 || nsec >= 1e9 || sec > math.MaxInt64/2 || sec < math.MinInt64/2 {
			return 0, st.malformed(4, "a timestamp of %d s and %d ns", sec, nsec)
		}
		dst.Time = time.Unix(sec, nsec)
	case StampArchiveV3:
		lo, hi, nsec := r.u32(), r.u32(), r.u32()
		sec := uint64(hi)<<32 | uint64(lo)
		if nsec >= 1e9 || sec > math.MaxInt64/2 {
			return 0, st.malformed(0, "a timestamp of %d s and %d ns", sec, nsec)
		}
		dst.Time = time.Unix(int64(sec), int64(nsec))
		n = r.i32()
	default:
		return 0, fmt.Errorf("pcpwire: unknown result layout %d", st)
	}
	return n, nil
}

// decodeSet reads the next of the result's n value sets and appends it to dst: a metric with an
// error code instead of values, or with its values, each in the set or in a value block of body.
func (dst *Result) decodeSet(r *reader, body []byte, st Stamp, n int32) error {
	at := r.i
	vs := ValueSet{PMID: r.u32()}
	nv := r.i32()
	if r.bad {
		return st.malformed(at, "metric %d of %d cut short", len(dst.Sets), n)
	}
	if nv <= 0 {
		vs.Err = Code(nv)
		dst.Sets = append(dst.Sets, vs)
		return nil
	}
	vs.ValFmt = r.u32()
	if r.bad || int(nv) > r.left()/8 { // an instance and a value each
		return st.malformed(at, "metric %s says it has %d values, and there is room for %d", PMIDString(vs.PMID), nv, max(r.left(), 0)/8)
	}
	if vs.ValFmt > ValSPtr {
		return st.malformed(at+8, "metric %s's values are in format %d (0, 1 and 2 are PCP's)", PMIDString(vs.PMID), vs.ValFmt)
	}
	start := len(dst.vals)
	for range nv {
		v := Value{Inst: r.i32(), Word: r.u32()}
		if vs.ValFmt == ValInsitu {
			v.Insitu = true
		} else if err := v.pointBlock(body, st, r.i-4, vs.PMID); err != nil {
			return err
		}
		dst.vals = append(dst.vals, v)
	}
	vs.Values = dst.vals[start:len(dst.vals):len(dst.vals)]
	dst.Sets = append(dst.Sets, vs)
	return nil
}

// pointBlock points v at the value block its word places in body (in 32-bit words from the PDU
// header's start), checked to lie inside body; at is where the word was read, for the error.
func (v *Value) pointBlock(body []byte, st Stamp, at int, pmid uint32) error {
	off := int(v.Word)*4 - HeaderLen
	if v.Word > math.MaxInt32/4 || off < 0 || off > len(body)-4 {
		return st.malformed(at, "metric %s's value block at word %d, outside the %d bytes", PMIDString(pmid), v.Word, len(body)+HeaderLen)
	}
	h := be.Uint32(body[off:])
	blen := int(h & 0xffffff)
	if blen < 4 || blen > len(body)-off {
		return st.malformed(off, "metric %s's value block says it is %d bytes, and %d are left", PMIDString(pmid), blen, len(body)-off)
	}
	v.BlockType, v.Block = uint8(h>>24), body[off+4:off+blen]
	return nil
}

// AppendResult appends res as a PDU_RESULT (or PDU_HIGHRES_RESULT when highres) from from: the
// encoding pmcd sends, for tests and for anything that serves results. A value set with values
// and ValFmt ValInsitu sends each Word; otherwise each value's BlockType and Block go in a value
// block after the sets.
func AppendResult(b []byte, from int32, highres bool, res *Result) []byte {
	t := TypeResult
	if highres {
		t = TypeHighResResult
	}
	b, start := begin(b, t, from)
	if highres {
		b = i32(b, int32(len(res.Sets)))
		b = be.AppendUint64(b, uint64(res.Time.Unix()))
		b = be.AppendUint64(b, uint64(res.Time.Nanosecond()))
	} else {
		b = u32(b, uint32(res.Time.Unix()))
		b = u32(b, uint32(res.Time.Nanosecond()/1000))
		b = i32(b, int32(len(res.Sets)))
	}
	// The value blocks go after every set: their places are known once the sets' size is.
	sets := 0
	for _, s := range res.Sets {
		sets += 8
		if len(s.Values) > 0 {
			sets += 4 + 8*len(s.Values)
		}
	}
	word := (len(b) - start + sets) / 4
	var blocks []byte
	for _, s := range res.Sets {
		b = u32(b, s.PMID)
		if len(s.Values) == 0 {
			b = i32(b, int32(s.Err))
			continue
		}
		b = i32(b, int32(len(s.Values)))
		b = u32(b, s.ValFmt)
		for _, v := range s.Values {
			b = i32(b, v.Inst)
			if s.ValFmt == ValInsitu {
				b = u32(b, v.Word)
				continue
			}
			b = u32(b, uint32(word+len(blocks)/4))
			blocks = u32(blocks, uint32(v.BlockType)<<24|uint32(4+len(v.Block)))
			blocks = padded(blocks, string(v.Block))
		}
	}
	b = append(b, blocks...)
	return finish(b, start)
}

// PM_TYPE_* (pmapi.h): a metric's type in its descriptor and a value block's.
const (
	TypeNoSupport = -1
	Type32        = 0
	TypeU32       = 1
	Type64        = 2
	TypeU64       = 3
	TypeFloat     = 4
	TypeDouble    = 5
	TypeString    = 6
	TypeAggregate = 7
	TypeAggrStat  = 8
	TypeEvent     = 9
	TypeHREvent   = 10
	TypeUnknown   = 255 // only in a value block, never in a descriptor
)

// ErrValueType is wrapped by the error of a value read as a type it was not sent as.
var ErrValueType = errors.New("a value not of its metric's type")

// Uint64 is an integer value of type typ (PM_TYPE_*) as an unsigned number, the bits of a
// signed one (a 32-bit signed value sign-extended).
func (v Value) Uint64(typ int32) (uint64, error) {
	switch {
	case v.Insitu && typ == Type32:
		return uint64(int64(int32(v.Word))), nil
	case v.Insitu && typ == TypeU32:
		return uint64(v.Word), nil
	case !v.Insitu && (typ == Type64 || typ == TypeU64) && len(v.Block) == 8:
		return be.Uint64(v.Block), nil
	case !v.Insitu && typ == Type32 && len(v.Block) == 4:
		return uint64(int64(int32(be.Uint32(v.Block)))), nil
	case !v.Insitu && typ == TypeU32 && len(v.Block) == 4:
		return uint64(be.Uint32(v.Block)), nil
	}
	return 0, fmt.Errorf("%w: type %d is not an integer as sent (%s)", ErrValueType, typ, v.shape())
}

// Float64 is a value of any numeric type typ as a float.
func (v Value) Float64(typ int32) (float64, error) {
	switch {
	case typ == TypeFloat && v.Insitu:
		return float64(math.Float32frombits(v.Word)), nil
	case typ == TypeFloat && !v.Insitu && len(v.Block) == 4:
		return float64(math.Float32frombits(be.Uint32(v.Block))), nil
	case typ == TypeDouble && !v.Insitu && len(v.Block) == 8:
		return math.Float64frombits(be.Uint64(v.Block)), nil
	case typ == Type32 || typ == Type64:
		n, err := v.Uint64(typ)
		return float64(int64(n)), err
	case typ == TypeU32 || typ == TypeU64:
		n, err := v.Uint64(typ)
		return float64(n), err
	}
	return 0, fmt.Errorf("%w: type %d is not a number as sent (%s)", ErrValueType, typ, v.shape())
}

// StringValue is a string value's text, up to its NUL. (Not String: fmt would print every
// Value as its text.)
func (v Value) StringValue() string {
	b := v.Block
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

func (v Value) shape() string {
	if v.Insitu {
		return "a 32-bit word in the set"
	}
	return fmt.Sprintf("a block of %d bytes of type %d", len(v.Block), v.BlockType)
}

// PMIDString is a pmid as PCP prints it: domain.cluster.item.
func PMIDString(pmid uint32) string {
	if pmid == PMIDNull {
		return "PM_ID_NULL"
	}
	return fmt.Sprintf("%d.%d.%d", pmid>>22&0x1ff, pmid>>10&0xfff, pmid&0x3ff)
}

// InDomString is an instance domain as PCP prints it: domain.serial.
func InDomString(indom uint32) string {
	if indom == InDomNull {
		return "PM_INDOM_NULL"
	}
	return fmt.Sprintf("%d.%d", indom>>22&0x1ff, indom&0x3fffff)
}

// PMIDNull and InDomNull are PM_ID_NULL and PM_INDOM_NULL: no metric, and the instance domain
// of a metric with a single value.
const (
	PMIDNull  = 0xffffffff
	InDomNull = 0xffffffff
)
