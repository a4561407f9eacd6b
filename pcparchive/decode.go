package pcparchive

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"dcimon/pcpwire"
)

var be = binary.BigEndian

// Record tags of the metadata file (LOGARCHIVE(5), METADATA FILE RECORDS).
const (
	tagDesc       = 1
	tagInDomV2    = 2
	tagLabelV2    = 3
	tagText       = 4
	tagInDom      = 5
	tagInDomDelta = 6
	tagLabel      = 7
)

// logMagic is PM_LOG_MAGIC; the low byte of the label's tag is the version.
const logMagic = 0x50052600

// errCut is wrapped by the error of a file that ends inside a record: its writer was killed or
// ran out of room while writing it.
var errCut = errors.New("cut short")

func errf(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, a...))
}

// record is the payload of the framed record at off of b and the offset after it: a length,
// the payload, the length again.
func record(b []byte, off int) (payload []byte, next int, err error) {
	if len(b)-off < 8 {
		return nil, 0, fmt.Errorf("%w: %w", errCut, errf("a record cut short at byte %d", off))
	}
	n := int(be.Uint32(b[off:]))
	if n > len(b)-off {
		return nil, 0, fmt.Errorf("%w: %w", errCut, errf("a record at byte %d says it is %d bytes, and %d are left", off, n, len(b)-off))
	}
	if n < 8 {
		return nil, 0, errf("a record at byte %d says it is %d bytes", off, n)
	}
	if t := int(be.Uint32(b[off+n-4:])); t != n {
		return nil, 0, errf("the record at byte %d ends with length %d, not %d", off, t, n)
	}
	return b[off+4 : off+n-4], off + n, nil
}

// cstr is the text of a fixed-size, NUL-padded field.
func cstr(b []byte) string {
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// parseLabel reads the archive label that begins every file, and returns the offset after it.
func parseLabel(b []byte) (Label, int, error) {
	p, next, err := record(b, 0)
	if err != nil {
		return Label{}, 0, fmt.Errorf("the archive label: %w", err)
	}
	if len(p) < 4 || be.Uint32(p)&^0xff != logMagic {
		return Label{}, 0, errf("no archive label (magic 0x500526xx)")
	}
	l := Label{Version: int(be.Uint32(p) & 0xff)}
	switch l.Version {
	case 2:
		if len(p) < 124 {
			return Label{}, 0, errf("a Version 2 label of %d bytes, not 124", len(p))
		}
		l.PID = int32(be.Uint32(p[4:]))
		l.Start = time.Unix(int64(be.Uint32(p[8:])), int64(be.Uint32(p[12:]))*1000)
		l.Vol = int32(be.Uint32(p[16:]))
		l.Host, l.TZ = cstr(p[20:84]), cstr(p[84:124])
	case 3:
		if len(p) < 800 {
			return Label{}, 0, errf("a Version 3 label of %d bytes, not 800", len(p))
		}
		l.PID = int32(be.Uint32(p[4:]))
		sec, ns := sec64(be.Uint32(p[8:]), be.Uint32(p[12:])), be.Uint32(p[16:])
		if sec > math.MaxInt64/2 || ns >= 1e9 {
			return Label{}, 0, errf("a label's start time of %d s and %d ns", sec, ns)
		}
		l.Start = time.Unix(int64(sec), int64(ns))
		l.Vol = int32(be.Uint32(p[20:]))
		l.Features = be.Uint32(p[24:])
		l.Host, l.TZ, l.Zoneinfo = cstr(p[32:288]), cstr(p[288:544]), cstr(p[544:800])
	default:
		return Label{}, 0, errf("archive version %d (2 and 3 are read)", l.Version)
	}
	return l, next, nil
}

// reader reads fields of one record's payload; a read past its end sets bad.
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

func (r *reader) u64() uint64 {
	if len(r.p)-r.i < 8 {
		r.bad = true
		return 0
	}
	v := be.Uint64(r.p[r.i:])
	r.i += 8
	return v
}

func (r *reader) bytes(n int) []byte {
	if n < 0 || len(r.p)-r.i < n {
		r.bad = true
		return nil
	}
	v := r.p[r.i : r.i+n]
	r.i += n
	return v
}

// count reads a count of items each at least size bytes long, refusing one the record cannot
// hold: nothing is ever allocated by a count the bytes do not back.
func (r *reader) count(size int) int {
	n := int(int32(r.u32()))
	if n < 0 || n > (len(r.p)-r.i)/size {
		r.bad = true
		return 0
	}
	return n
}

// sec64 is Version 3's 64-bit seconds from its two 32-bit words as PCP writes them: the low word
// first, then the high one (seen in every Version 3 file pmlogger 6.0.3 writes; LOGARCHIVE(5)
// says only "8 bytes").
func sec64(lo, hi uint32) uint64 { return uint64(hi)<<32 | uint64(lo) }

// stamp reads a timestamp: seconds and microseconds (Version 2), or 64-bit seconds and
// nanoseconds (Version 3).
func (r *reader) stamp(version int) time.Time {
	if version == 2 {
		s, us := r.u32(), r.u32()
		return time.Unix(int64(s), int64(us)*1000)
	}
	s, ns := sec64(r.u32(), r.u32()), r.u32()
	if ns >= 1e9 || s > math.MaxInt64/2 {
		r.bad = true
	}
	return time.Unix(int64(s), int64(ns))
}

// parseMeta reads the metadata file: its label, then descriptions, instance domains, label sets
// and help texts.
func (a *Archive) parseMeta(b []byte) error {
	l, off, err := parseLabel(b)
	if err != nil {
		return err
	}
	if l.Vol != -1 {
		return errf("the metadata file's label says volume %d, not -1", l.Vol)
	}
	a.Label = l
	last := map[uint32][]int{} // an instance domain's latest observation, by instance → position
	for off < len(b) {
		p, next, err := record(b, off)
		if errors.Is(err, errCut) {
			// The writer stopped inside this record (killed, or out of room): the metadata
			// ends before it, and what it would have described has no description.
			a.MetaCut = true
			return nil
		}
		if err != nil {
			return err
		}
		r := &reader{p: p}
		switch tag := r.u32(); tag {
		case tagDesc:
			d := Desc{PMID: r.u32(), Type: int32(r.u32()), InDom: r.u32(), Sem: int32(r.u32()), Units: r.u32()}
			n := r.count(4)
			for range n {
				d.Names = append(d.Names, string(r.bytes(int(r.u32()))))
			}
			if r.bad {
				return errf("a metric description at byte %d is cut short", off)
			}
			if a.descAt == nil {
				a.descAt = map[uint32]int{}
			}
			if _, dup := a.descAt[d.PMID]; !dup { // the first description of a pmid holds
				a.descAt[d.PMID] = len(a.Descs)
			}
			a.Descs = append(a.Descs, d)
		case tagInDomV2, tagInDom, tagInDomDelta:
			if (tag == tagInDomV2) != (l.Version == 2) {
				return errf("an instance domain record of tag %d in a Version %d archive", tag, l.Version)
			}
			in, err := parseInDom(r, l.Version, tag == tagInDomDelta, a.InDoms, last)
			if err != nil {
				return fmt.Errorf("the instance domain at byte %d: %w", off, err)
			}
			a.InDoms = append(a.InDoms, in)
		case tagLabelV2, tagLabel:
			if (tag == tagLabelV2) != (l.Version == 2) {
				return errf("a label record of tag %d in a Version %d archive", tag, l.Version)
			}
			ls, err := parseLabelSet(r, l.Version)
			if err != nil {
				return fmt.Errorf("the label record at byte %d: %w", off, err)
			}
			a.Labels = append(a.Labels, ls)
		case tagText:
			t := Text{Type: r.u32(), Ident: r.u32()}
			t.Text = cstr(r.p[min(r.i, len(r.p)):])
			if r.bad {
				return errf("a help text at byte %d is cut short", off)
			}
			a.Texts = append(a.Texts, t)
		default:
			return errf("a metadata record of unknown type %d at byte %d", tag, off)
		}
		off = next
	}
	return nil
}

// parseInDom reads a full or delta instance domain record; a delta one is applied to the
// domain's latest observation (last: its position in prev).
func parseInDom(r *reader, version int, delta bool, prev []InDom, last map[uint32][]int) (InDom, error) {
	in := InDom{Time: r.stamp(version), InDom: r.u32()}
	n := r.count(8) // an instance number and a name offset each
	insts := make([]int32, n)
	offs := make([]int32, n)
	for i := range insts {
		insts[i] = int32(r.u32())
	}
	for i := range offs {
		offs[i] = int32(r.u32())
	}
	if r.bad {
		return InDom{}, errf("cut short")
	}
	strtab := r.p[r.i:]
	name := func(o int32) (string, bool) {
		if o < 0 || int(o) >= len(strtab) {
			return "", false
		}
		s := strtab[o:]
		end := strings.IndexByte(string(s), 0)
		if end < 0 {
			return "", false
		}
		return string(s[:end]), true
	}
	if !delta {
		in.Instances, in.Names = insts, make([]string, n)
		for i, o := range offs {
			var ok bool
			if in.Names[i], ok = name(o); !ok {
				return InDom{}, errf("instance %d's name is not in the string table", insts[i])
			}
		}
	} else {
		pos, ok := last[in.InDom]
		if !ok {
			return InDom{}, errf("a delta of instance domain %s before any full observation of it", InDomString(in.InDom))
		}
		base := prev[pos[0]]
		names := map[int32]string{}
		order := append([]int32(nil), base.Instances...)
		for i, id := range base.Instances {
			names[id] = base.Names[i]
		}
		for i, id := range insts {
			if offs[i] == -1 { // deleted
				delete(names, id)
				continue
			}
			s, ok := name(offs[i])
			if !ok {
				return InDom{}, errf("instance %d's name is not in the string table", id)
			}
			if _, had := names[id]; !had {
				order = append(order, id)
			}
			names[id] = s
		}
		for _, id := range order {
			if s, ok := names[id]; ok {
				in.Instances, in.Names = append(in.Instances, id), append(in.Names, s)
				delete(names, id) // an instance listed twice in order counts once
			}
		}
	}
	last[in.InDom] = []int{len(prev)}
	return in, nil
}

// parseLabelSet reads a label record: each set's instance and its JSON text. The layout is the
// one PCP writes (libpcp's __pmLogPutLabels, seen in pmlogger 6.0.3's archives), which differs
// from LOGARCHIVE(5)'s table: after the count of sets, each set in turn is its instance, the
// length of its JSON text, the text, its count of labels and 8 bytes for each label (where its
// name and value are in the text).
func parseLabelSet(r *reader, version int) (LabelSet, error) {
	ls := LabelSet{Time: r.stamp(version), Type: r.u32(), Ident: r.u32()}
	n := r.count(12) // an instance, a length and a count at least
	for range n {
		e := LabelJSON{Inst: int32(r.u32())}
		e.JSON = cstr(r.bytes(int(int32(r.u32()))))
		nl := r.count(8)
		r.bytes(8 * nl)
		if r.bad {
			return LabelSet{}, errf("cut short")
		}
		ls.Sets = append(ls.Sets, e)
	}
	if r.bad {
		return LabelSet{}, errf("cut short")
	}
	return ls, nil
}

// parseIndex reads the temporal index.
func parseIndex(b []byte, version int) ([]IndexEntry, error) {
	l, off, err := parseLabel(b)
	if err != nil {
		return nil, err
	}
	if l.Version != version {
		return nil, errf("the index is Version %d, the metadata Version %d", l.Version, version)
	}
	size := 20
	if version == 3 {
		size = 32
	}
	rest := b[off:]
	rest = rest[:len(rest)-len(rest)%size] // an entry cut short at the end: its writer stopped
	out := make([]IndexEntry, 0, len(rest)/size)
	for len(rest) > 0 {
		r := &reader{p: rest[:size]}
		e := IndexEntry{Time: r.stamp(version), Vol: int32(r.u32())}
		if version == 2 {
			e.MetaOff, e.VolumOff = int64(r.u32()), int64(r.u32())
		} else {
			e.MetaOff, e.VolumOff = int64(r.u64()), int64(r.u64())
		}
		if r.bad || e.MetaOff < 0 || e.VolumOff < 0 {
			return nil, errf("an index entry is not valid")
		}
		out = append(out, e)
		rest = rest[size:]
	}
	return out, nil
}

// parseVolume reads a data volume's pmResult records. Records before a cut are returned with
// the error.
func parseVolume(b []byte, version int) ([]Result, error) {
	l, off, err := parseLabel(b)
	if err != nil {
		return nil, err
	}
	if l.Version != version {
		return nil, errf("the volume is Version %d, the metadata Version %d", l.Version, version)
	}
	var out []Result
	for off < len(b) {
		p, next, err := record(b, off)
		if err != nil {
			return out, err
		}
		res, err := parseResult(p, version)
		if err != nil {
			return out, fmt.Errorf("the record at byte %d: %w", off, err)
		}
		out = append(out, res)
		off = next
	}
	return out, nil
}

// parseResult reads one pmResult, with the decoder of pmcd's PDU_RESULT (pcpwire): the two are
// one encoding. A value block's place is given in 32-bit words from 12 bytes before the
// record's payload (where PCP's PDU header would begin).
func parseResult(p []byte, version int) (Result, error) {
	st := pcpwire.StampArchiveV2
	if version == 3 {
		st = pcpwire.StampArchiveV3
	}
	var wr pcpwire.Result
	if err := pcpwire.DecodeResult(p, st, &wr); err != nil {
		return Result{}, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	res := Result{Time: wr.Time}
	if len(wr.Sets) > 0 {
		res.Sets = make([]ValueSet, len(wr.Sets))
	}
	for i, s := range wr.Sets {
		vs := ValueSet{PMID: s.PMID, Err: int32(s.Err)}
		if len(s.Values) > 0 {
			vs.Values = make([]Value, len(s.Values))
			for j, v := range s.Values {
				vs.Values[j] = Value(v)
			}
		}
		res.Sets[i] = vs
	}
	return res, nil
}

// Uint64 is an integer value of type typ (PM_TYPE_*) as an unsigned number, the bits of a
// signed one.
func (v Value) Uint64(typ int32) (uint64, error) {
	n, err := pcpwire.Value(v).Uint64(typ)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return n, nil
}

// Float64 is a value of any numeric type typ as a float.
func (v Value) Float64(typ int32) (float64, error) {
	x, err := pcpwire.Value(v).Float64(typ)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return x, nil
}

// String is a string value's text (without its NUL).
func (v Value) String() string { return pcpwire.Value(v).StringValue() }
