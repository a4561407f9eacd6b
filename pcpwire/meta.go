package pcpwire

import (
	"fmt"
	"strings"
)

// Semantics of a metric (pmapi.h, PM_SEM_*; PCPD-3): there is no 2.
const (
	SemCounter  = 1
	SemInstant  = 3
	SemDiscrete = 4
)

// Desc is a metric's descriptor (pmDesc, PCPD-1), in the order it travels.
type Desc struct {
	PMID  uint32
	Type  int32
	InDom uint32
	Sem   int32
	Units Units
}

// Units is a pmUnits as it travels: a 32-bit word of bit fields, from the top: dimSpace,
// dimTime, dimCount (4-bit signed), scaleSpace, scaleTime (4-bit unsigned), scaleCount (4-bit
// signed), an extra unit (5 bits) and its scale (3 bits) (PCPD-7).
type Units uint32

func sext4(v uint32) int { return int(int32(v<<28) >> 28) }

// DimSpace is the power of Space (bytes).
func (u Units) DimSpace() int { return sext4(uint32(u) >> 28) }

// DimTime is the power of Time.
func (u Units) DimTime() int { return sext4(uint32(u) >> 24) }

// DimCount is the power of Count (events).
func (u Units) DimCount() int { return sext4(uint32(u) >> 20) }

// ScaleSpace is a PM_SPACE_* constant: 0 bytes, 1 KiB, 2 MiB, … (PCPD-8).
func (u Units) ScaleSpace() int { return int(uint32(u) >> 16 & 0xf) }

// ScaleTime is a PM_TIME_* constant: 0 ns, 1 µs, 2 ms, 3 s, 4 min, 5 h (PCPD-9).
func (u Units) ScaleTime() int { return int(uint32(u) >> 12 & 0xf) }

// ScaleCount is a power of ten (PCPD-10).
func (u Units) ScaleCount() int { return sext4(uint32(u) >> 8) }

// MakeUnits packs a pmUnits, refusing a field that does not fit its bits or names no scale
// PCP has (PCPD-7).
func MakeUnits(dimSpace, dimTime, dimCount, scaleSpace, scaleTime, scaleCount int) (Units, error) {
	for _, d := range []int{dimSpace, dimTime, dimCount, scaleCount} {
		if d < -8 || d > 7 {
			return 0, fmt.Errorf("%w: %d does not fit a 4-bit signed field", ErrUnit, d)
		}
	}
	if scaleSpace < 0 || scaleSpace > 8 || scaleTime < 0 || scaleTime > 5 {
		return 0, fmt.Errorf("%w: space scale %d, time scale %d", ErrUnit, scaleSpace, scaleTime)
	}
	f := func(v int) uint32 { return uint32(v) & 0xf }
	return Units(f(dimSpace)<<28 | f(dimTime)<<24 | f(dimCount)<<20 | f(scaleSpace)<<16 | f(scaleTime)<<12 | f(scaleCount)<<8), nil
}

var (
	spaceNames = [...]string{"byte", "Kbyte", "Mbyte", "Gbyte", "Tbyte", "Pbyte", "Ebyte", "Zbyte", "Ybyte"}
	timeNames  = [...]string{"nanosec", "microsec", "millisec", "sec", "min", "hour"}
)

// String writes the units as pminfo -d prints them ("Kbyte", "millisec", "Mbyte / sec",
// "count x 10^6", "none" for none); a scale counts only where its dimension is not zero
// (PCPD-11).
func (u Units) String() string {
	var num, den []string
	add := func(dim int, name string) {
		switch {
		case dim > 0:
			num = append(num, power(name, dim))
		case dim < 0:
			den = append(den, power(name, -dim))
		}
	}
	if s := u.ScaleSpace(); s < len(spaceNames) {
		add(u.DimSpace(), spaceNames[s])
	} else {
		add(u.DimSpace(), fmt.Sprintf("space-scale-%d", s))
	}
	if s := u.ScaleTime(); s < len(timeNames) {
		add(u.DimTime(), timeNames[s])
	} else {
		add(u.DimTime(), fmt.Sprintf("time-scale-%d", s))
	}
	count := "count"
	if s := u.ScaleCount(); s != 0 {
		count = fmt.Sprintf("count x 10^%d", s)
	}
	add(u.DimCount(), count)
	switch {
	case len(num) == 0 && len(den) == 0:
		return "none"
	case len(den) == 0:
		return strings.Join(num, " ")
	case len(num) == 0:
		return "/ " + strings.Join(den, " ")
	}
	return strings.Join(num, " ") + " / " + strings.Join(den, " ")
}

func power(name string, n int) string {
	if n == 1 {
		return name
	}
	return fmt.Sprintf("%s^%d", name, n)
}

// AppendDesc appends a PDU_DESC answering for d.
func AppendDesc(b []byte, from int32, d Desc) []byte {
	b, start := begin(b, TypeDesc, from)
	return finish(putDesc(b, d), start)
}

func putDesc(b []byte, d Desc) []byte {
	b = u32(b, d.PMID)
	b = i32(b, d.Type)
	b = u32(b, d.InDom)
	b = i32(b, d.Sem)
	return u32(b, uint32(d.Units))
}

func getDesc(r *reader) Desc {
	return Desc{PMID: r.u32(), Type: r.i32(), InDom: r.u32(), Sem: r.i32(), Units: Units(r.u32())}
}

// DecodeDesc decodes a PDU_DESC's body.
func DecodeDesc(body []byte) (Desc, error) {
	if len(body) != 20 {
		return Desc{}, protoErr(TypeDesc, 0, "%d bytes long, not %d", len(body)+HeaderLen, 20+HeaderLen)
	}
	r := reader{p: body}
	return getDesc(&r), nil
}

// AppendDescs appends a PDU_DESCS answering a PDU_DESC_IDS: a descriptor per pmid asked for,
// PMIDNull in those pmcd does not know.
func AppendDescs(b []byte, from int32, ds []Desc) []byte {
	b, start := begin(b, TypeDescs, from)
	b = i32(b, int32(len(ds)))
	for _, d := range ds {
		b = putDesc(b, d)
	}
	return finish(b, start)
}

// DecodeDescs decodes a PDU_DESCS's body into dst (reused), which must then hold want
// descriptors: one per pmid asked for.
func DecodeDescs(body []byte, want int, dst []Desc) ([]Desc, error) {
	r := reader{p: body}
	n := r.i32()
	if r.bad || n <= 0 || int(n) != want {
		return dst, protoErr(TypeDescs, HeaderLen, "%d descriptors for %d metrics asked for", n, want)
	}
	if need := 4 + 20*int(n); len(body) != need {
		return dst, protoErr(TypeDescs, 0, "%d bytes long for %d descriptors, not %d", len(body)+HeaderLen, n, need+HeaderLen)
	}
	dst = dst[:0]
	for range n {
		dst = append(dst, getDesc(&r))
	}
	return dst, nil
}

// AppendDescReq appends a PDU_DESC_REQ for one metric's descriptor.
func AppendDescReq(b []byte, from int32, pmid uint32) []byte {
	b, start := begin(b, TypeDescReq, from)
	return finish(u32(b, pmid), start)
}

// AppendIDList appends a list of pmids: PDU_DESC_IDS (asking for their descriptors, sts -1) or
// PDU_PMNS_IDS (pmcd's answer to a list of names, sts the count it found).
func AppendIDList(b []byte, t Type, from int32, sts int32, ids []uint32) []byte {
	b, start := begin(b, t, from)
	b = i32(b, sts)
	b = i32(b, int32(len(ids)))
	for _, id := range ids {
		b = u32(b, id)
	}
	return finish(b, start)
}

// DecodeIDList decodes a PDU_PMNS_IDS's body into dst (reused), which must then hold want
// pmids; sts is pmcd's count of the names it found.
func DecodeIDList(body []byte, want int, dst []uint32) (sts int32, ids []uint32, err error) {
	r := reader{p: body}
	sts, n := r.i32(), r.i32()
	if r.bad || n <= 0 || int(n) != want {
		return 0, dst, protoErr(TypePMNSIDs, HeaderLen+4, "%d metric identifiers for %d names asked for", n, want)
	}
	if need := 8 + 4*int(n); len(body) != need {
		return 0, dst, protoErr(TypePMNSIDs, 0, "%d bytes long for %d identifiers, not %d", len(body)+HeaderLen, n, need+HeaderLen)
	}
	dst = dst[:0]
	for range n {
		dst = append(dst, r.u32())
	}
	return sts, dst, nil
}

// Status of a child in the name space (pmapi.h, PMNS_*_STATUS).
const (
	PMNSLeaf    = 0
	PMNSNonLeaf = 1
)

// AppendNameList appends a PDU_PMNS_NAMES: names (to look up, from a client), or the children
// of a node with their status (from pmcd; status nil for none).
func AppendNameList(b []byte, from int32, names []string, status []int32) []byte {
	b, start := begin(b, TypePMNSNames, from)
	nstr := 0
	for _, s := range names {
		nstr += len(s) + 1
	}
	b = i32(b, int32(nstr))
	if status != nil {
		b = i32(b, int32(len(names)))
	} else {
		b = i32(b, 0)
	}
	b = i32(b, int32(len(names)))
	for i, s := range names {
		if status != nil {
			b = i32(b, status[i])
		}
		b = i32(b, int32(len(s)))
		b = padded(b, s)
	}
	return finish(b, start)
}

// NameListLen is the size of the PDU_PMNS_NAMES AppendNameList makes of names (without status).
func NameListLen(names []string) int {
	n := HeaderLen + 12
	for _, s := range names {
		n += 4 + pad4(len(s))
	}
	return n
}

// DecodeNameList decodes a PDU_PMNS_NAMES's body: names, and their status when pmcd sent them
// (nil otherwise). A negative count is pmcd's error code, returned as the error.
func DecodeNameList(body []byte) (names []string, status []int32, err error) {
	r := reader{p: body}
	nstr, nstatus, n := r.i32(), r.i32(), r.i32()
	if r.bad {
		return nil, nil, protoErr(TypePMNSNames, 0, "%d bytes long, less than its counts", len(body)+HeaderLen)
	}
	if n < 0 {
		return nil, nil, Code(n)
	}
	// Each name takes a length and at least no bytes; with status, a status too.
	per := 4
	if nstatus > 0 {
		per = 8
	}
	if nstr < 0 || int(nstr) > len(body) || int(n) > r.left()/per || (nstatus != 0 && nstatus != n) {
		return nil, nil, protoErr(TypePMNSNames, HeaderLen, "%d names (%d bytes of names, %d status) in %d bytes", n, nstr, nstatus, len(body)+HeaderLen)
	}
	names = make([]string, 0, n)
	if nstatus > 0 {
		status = make([]int32, 0, n)
	}
	for i := range n {
		at := r.i
		if nstatus > 0 {
			status = append(status, r.i32())
		}
		s, ok := r.str(int(r.i32()))
		if r.bad || !ok {
			return nil, nil, protoErr(TypePMNSNames, HeaderLen+at, "name %d of %d cut short", i, n)
		}
		names = append(names, string(s))
	}
	return names, status, nil
}

// AppendNameReq appends a request about one node of the name space: PDU_PMNS_CHILD (its
// children; subtype 1 asks for their status too) or PDU_PMNS_TRAVERSE (every metric below).
func AppendNameReq(b []byte, t Type, from int32, name string, subtype int32) []byte {
	b, start := begin(b, t, from)
	b = i32(b, subtype)
	b = i32(b, int32(len(name)))
	return finish(padded(b, name), start)
}

// Instance is one instance of an instance domain: its number and its name.
type Instance struct {
	ID   int32
	Name string
}

// AppendInstanceReq appends a PDU_INSTANCE_REQ: every instance of indom (inst InNull and no
// name), or the name of inst, or the number of name.
func AppendInstanceReq(b []byte, from int32, indom uint32, inst int32, name string) []byte {
	b, start := begin(b, TypeInstanceReq, from)
	b = u32(b, indom)
	b = u32(b, 0) // a timestamp no longer used
	b = u32(b, 0)
	b = i32(b, inst)
	b = i32(b, int32(len(name)))
	return finish(padded(b, name), start)
}

// AppendInstance appends a PDU_INSTANCE: pmcd's answer with the instances of indom.
func AppendInstance(b []byte, from int32, indom uint32, insts []Instance) []byte {
	b, start := begin(b, TypeInstance, from)
	b = u32(b, indom)
	b = i32(b, int32(len(insts)))
	for _, in := range insts {
		b = i32(b, in.ID)
		b = i32(b, int32(len(in.Name)))
		b = padded(b, in.Name)
	}
	return finish(b, start)
}

// DecodeInstance decodes a PDU_INSTANCE's body.
func DecodeInstance(body []byte) (indom uint32, insts []Instance, err error) {
	r := reader{p: body}
	indom, n := r.u32(), r.i32()
	if r.bad || n < 0 || int(n) > r.left()/8 { // a number and a name's length each
		return 0, nil, protoErr(TypeInstance, HeaderLen+4, "%d instances in %d bytes", n, len(body)+HeaderLen)
	}
	insts = make([]Instance, 0, n)
	for i := range n {
		at := r.i
		in := Instance{ID: r.i32()}
		s, ok := r.str(int(r.i32()))
		if r.bad || !ok {
			return 0, nil, protoErr(TypeInstance, HeaderLen+at, "instance %d of %d cut short", i, n)
		}
		in.Name = string(s)
		insts = append(insts, in)
	}
	if r.left() > 0 {
		return 0, nil, protoErr(TypeInstance, HeaderLen+r.i, "%d bytes after the last instance", r.left())
	}
	return indom, insts, nil
}

// Kinds of help text (pmapi.h, PM_TEXT_*): one line or the whole help, of a metric or an
// instance domain.
const (
	TextOneLine = 1
	TextHelp    = 2
	TextPMID    = 4
	TextInDom   = 8
)

// AppendTextReq appends a PDU_TEXT_REQ for the help text of kind (TextOneLine or TextHelp,
// with TextPMID or TextInDom) of ident.
func AppendTextReq(b []byte, from int32, ident uint32, kind int32) []byte {
	b, start := begin(b, TypeTextReq, from)
	b = u32(b, ident)
	return finish(i32(b, kind), start)
}

// AppendText appends a PDU_TEXT, pmcd's answer.
func AppendText(b []byte, from int32, ident uint32, text string) []byte {
	b, start := begin(b, TypeText, from)
	b = u32(b, ident)
	b = i32(b, int32(len(text)))
	return finish(padded(b, text), start)
}

// DecodeText decodes a PDU_TEXT's body.
func DecodeText(body []byte) (ident uint32, text string, err error) {
	r := reader{p: body}
	ident = r.u32()
	s, ok := r.str(int(r.i32()))
	if r.bad || !ok {
		return 0, "", protoErr(TypeText, HeaderLen+4, "a text longer than the %d bytes of the PDU", len(body)+HeaderLen)
	}
	return ident, string(s), nil
}

// Kinds of label set (pmapi.h, PM_LABEL_*).
const (
	LabelContext   = 1 << 0
	LabelDomain    = 1 << 1
	LabelInDom     = 1 << 2
	LabelCluster   = 1 << 3
	LabelItem      = 1 << 4
	LabelInstances = 1 << 5
	LabelCompound  = 1 << 6 // a label's flag: its name has several parts
	LabelOptional  = 1 << 7 // a label's flag: extrinsic, not part of the value's identity
)

// LabelSet is the labels of one instance (Inst, or InNull for none) as a JSON object, with
// each label's name and value cut out of it.
type LabelSet struct {
	Inst   int32
	Err    Code // the set's status when pmcd sent an error for it instead of labels
	JSON   string
	Labels []Label
}

// Label is one label of a set: its name, its value as JSON text, and its flags.
type Label struct {
	Name, Value string
	Flags       uint8
}

// AppendLabelReq appends a PDU_LABEL_REQ for the labels of kind (one of LabelContext …
// LabelInstances) of ident: a domain number, a pmid, or an instance domain; nothing for the
// context.
func AppendLabelReq(b []byte, from int32, ident uint32, kind int32) []byte {
	if kind&LabelContext != 0 {
		ident = PMIDNull
	}
	b, start := begin(b, TypeLabelReq, from)
	b = u32(b, ident)
	return finish(i32(b, kind), start)
}

// AppendLabels appends a PDU_LABEL, pmcd's answer: each set's labels given as name and value
// within its JSON (json offsets are found by searching it, so each name must occur once).
func AppendLabels(b []byte, from int32, ident uint32, kind int32, sets []LabelSet) []byte {
	b, start := begin(b, TypeLabel, from)
	b = u32(b, ident)
	b = i32(b, kind)
	b = i32(b, 0) // padding
	b = i32(b, int32(len(sets)))
	// The JSON texts go after every set and label index.
	jsonAt := len(b) - start
	for _, s := range sets {
		jsonAt += 16 + 8*len(s.Labels)
	}
	for _, s := range sets {
		b = i32(b, s.Inst)
		if s.Err != 0 {
			b = i32(b, int32(s.Err))
		} else {
			b = i32(b, int32(len(s.Labels)))
		}
		b = i32(b, int32(jsonAt))
		b = i32(b, int32(len(s.JSON)))
		for _, l := range s.Labels {
			n := strings.Index(s.JSON, `"`+l.Name+`"`) + 1
			v := strings.Index(s.JSON[n:], l.Value) + n
			b = append(b, byte(n>>8), byte(n), byte(len(l.Name)), l.Flags, byte(v>>8), byte(v), byte(len(l.Value)>>8), byte(len(l.Value)))
		}
		jsonAt += len(s.JSON)
	}
	for _, s := range sets {
		b = append(b, s.JSON...)
	}
	for (len(b)-start)%4 != 0 {
		b = append(b, 0)
	}
	return finish(b, start)
}

// Limits of a label set (pmapi.h): labels per set and bytes of JSON.
const (
	maxLabels   = 1<<8 - 1
	maxLabelLen = 1<<16 - 1
)

// DecodeLabels decodes a PDU_LABEL's body: the kind and identifier it answers for, and its
// sets. Every offset is checked against the PDU's bytes.
func DecodeLabels(body []byte) (ident uint32, kind int32, sets []LabelSet, err error) {
	r := reader{p: body}
	ident, kind = r.u32(), r.i32()
	r.u32() // padding
	n := r.i32()
	if r.bad || n < 0 || int(n) > r.left()/16 {
		return 0, 0, nil, protoErr(TypeLabel, HeaderLen+12, "%d label sets in %d bytes", n, len(body)+HeaderLen)
	}
	sets = make([]LabelSet, 0, n)
	for i := range n {
		at := r.i
		s := LabelSet{Inst: r.i32()}
		nl, jsonAt, jsonLen := r.i32(), r.i32()-HeaderLen, r.i32()
		if r.bad {
			return 0, 0, nil, protoErr(TypeLabel, HeaderLen+at, "label set %d of %d cut short", i, n)
		}
		if nl >= maxLabels || jsonLen >= maxLabelLen || jsonLen < 0 || jsonAt < 0 || int(jsonAt) > len(body)-int(jsonLen) {
			return 0, 0, nil, protoErr(TypeLabel, HeaderLen+at, "label set %d: %d labels, %d bytes of JSON at byte %d of %d", i, nl, jsonLen, jsonAt+HeaderLen, len(body)+HeaderLen)
		}
		if nl < 0 {
			s.Err = Code(nl)
			sets = append(sets, s)
			continue
		}
		if int(nl) > r.left()/8 {
			return 0, 0, nil, protoErr(TypeLabel, HeaderLen+at, "label set %d: %d labels, and room for %d", i, nl, r.left()/8)
		}
		json := body[jsonAt : jsonAt+jsonLen]
		if nl > 0 {
			s.JSON = string(json)
			s.Labels = make([]Label, 0, nl)
		}
		for j := range nl {
			p := r.p[r.i : r.i+8]
			r.i += 8
			name, nameLen, flags := int(be.Uint16(p)), int(p[2]), p[3]
			val, valLen := int(be.Uint16(p[4:])), int(be.Uint16(p[6:]))
			if name+nameLen > len(s.JSON) || val+valLen > len(s.JSON) {
				return 0, 0, nil, protoErr(TypeLabel, HeaderLen+r.i-8, "label %d of set %d outside its %d bytes of JSON", j, i, len(s.JSON))
			}
			s.Labels = append(s.Labels, Label{Name: s.JSON[name : name+nameLen], Value: s.JSON[val : val+valLen], Flags: flags})
		}
		sets = append(sets, s)
	}
	return ident, kind, sets, nil
}
