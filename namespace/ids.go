package namespace

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// All is DCI_ALL: in a class level it means every class at that level, as a datum id every datum
// of the instantiated class (DCI-WC-1).
const All uint32 = 0xFFFFFFFF

// ClassID is a DCI class identifier: a sequence of 4-byte unsigned levels of any depth (DCI-NS-2).
type ClassID []uint32

// ErrBadID is wrapped by every identifier parsing error.
var ErrBadID = errors.New("malformed identifier")

// ParseClassID parses dotted decimal levels ("1.2.3"); "*" in a level is DCI_ALL.
func ParseClassID(s string) (ClassID, error) {
	if s == "" {
		return nil, fmt.Errorf("%w: empty class id", ErrBadID)
	}
	parts := strings.Split(s, ".")
	id := make(ClassID, len(parts))
	for i, p := range parts {
		if p == "*" {
			id[i] = All
			continue
		}
		v, err := strconv.ParseUint(p, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%w: class id %q level %d: %v", ErrBadID, s, i+1, numErr(err))
		}
		id[i] = uint32(v)
	}
	return id, nil
}

func numErr(err error) string {
	var ne *strconv.NumError
	if errors.As(err, &ne) {
		return ne.Err.Error()
	}
	return err.Error()
}

// String formats the id in dotted form, DCI_ALL levels as "*".
func (c ClassID) String() string {
	var b strings.Builder
	for i, l := range c {
		if i > 0 {
			b.WriteByte('.')
		}
		if l == All {
			b.WriteByte('*')
		} else {
			b.WriteString(strconv.FormatUint(uint64(l), 10))
		}
	}
	return b.String()
}

// IsQuery reports whether any level is DCI_ALL.
func (c ClassID) IsQuery() bool {
	for _, l := range c {
		if l == All {
			return true
		}
	}
	return false
}

// Equal reports whether two ids have the same levels.
func (c ClassID) Equal(o ClassID) bool {
	if len(c) != len(o) {
		return false
	}
	for i := range c {
		if c[i] != o[i] {
			return false
		}
	}
	return true
}

// Matches reports whether the concrete id c is selected by the query q: same depth, and every
// level equal or DCI_ALL in q.
func (c ClassID) Matches(q ClassID) bool {
	if len(c) != len(q) {
		return false
	}
	for i := range c {
		if q[i] != All && q[i] != c[i] {
			return false
		}
	}
	return true
}

// Parent is the id without its last level (nil for a top-level class).
func (c ClassID) Parent() ClassID {
	if len(c) <= 1 {
		return nil
	}
	return c[: len(c)-1 : len(c)-1]
}

// Child returns a new id with one more level.
func (c ClassID) Child(level uint32) ClassID {
	out := make(ClassID, len(c)+1)
	copy(out, c)
	out[len(c)] = level
	return out
}

// MaxInstLevels is the most instance levels a class may have: the masks are 4 bytes (DCI-NS-5).
const MaxInstLevels = 32

// AllInstances is DCI_ALL_INSTANCES: an input mask of 0 wildcards every level (DCI-WC-3, AMB-21).
const AllInstances uint32 = 0

// InstanceID is a DCI instance identifier, or a query for several (DCI-WC-2). Bit n of Mask is set
// when level n has a value in Values; wildcarded levels have no value, so Values is shorter than
// the class's level count. A concrete id has every level's bit set.
type InstanceID struct {
	Mask   uint32
	Values []uint64
}

// Inst builds a concrete instance id from the value of every level.
func Inst(values ...uint64) InstanceID {
	return InstanceID{Mask: uint32(1)<<uint(len(values)) - 1, Values: values}
}

// String formats a concrete id as dotted values ("0", "8.0"); wildcarded levels show "*".
func (id InstanceID) String() string {
	var b strings.Builder
	vi := 0
	n := bitLen(id.Mask)
	if n < len(id.Values) {
		n = len(id.Values)
	}
	if id.Mask == AllInstances {
		return "*"
	}
	for lvl := 0; lvl < n; lvl++ {
		if lvl > 0 {
			b.WriteByte('.')
		}
		if id.Mask&(1<<uint(lvl)) == 0 || vi >= len(id.Values) {
			b.WriteByte('*')
			continue
		}
		b.WriteString(strconv.FormatUint(id.Values[vi], 10))
		vi++
	}
	return b.String()
}

func bitLen(m uint32) int {
	n := 0
	for m != 0 {
		n++
		m >>= 1
	}
	return n
}

// Matches reports whether the concrete instance values (one per level) are selected by the query.
func (id InstanceID) Matches(levels []uint64) bool {
	vi := 0
	for lvl := range levels {
		if id.Mask&(1<<uint(lvl)) == 0 {
			continue
		}
		if vi >= len(id.Values) || id.Values[vi] != levels[lvl] {
			return false
		}
		vi++
	}
	return vi == len(id.Values)
}

// OutputLevels applies an output mask to concrete level values: only the selected levels are kept
// (DCI-WC-4). A mask of 0 is DCI_INVALIDARG; 2^32-1 keeps every level.
func OutputLevels(levels []uint64, outputMask uint32) (InstanceID, error) {
	if outputMask == 0 {
		return InstanceID{}, &Error{Status: StatusInvalidArg, Msg: "output mask must select at least one level"}
	}
	out := InstanceID{}
	for lvl, v := range levels {
		if outputMask&(1<<uint(lvl)) != 0 {
			out.Mask |= 1 << uint(lvl)
			out.Values = append(out.Values, v)
		}
	}
	return out, nil
}

// DatumID is a DCI datum identifier (DCI-NS-6). Its low 8 bits are unique in the class; a
// derived datum carries its arguments' low bytes in the upper three bytes (DCI-DER-1, AMB-18).
type DatumID uint32

// Reserved datum ids (DCI-NS-7); as low bytes they are reserved for every datum (AMB-19).
const (
	InvalidDatumID     DatumID = 0x000000ff // DCI_INVALIDDATUMID: the invalid-data list
	FinalDataEvent     DatumID = 0x000000f8 // DCI_FINALDATA_EVENT
	InstanceAddedEvt   DatumID = 0x000000f7 // DCI_INSTANCEADDED
	InstanceRemovedEvt DatumID = 0x000000f6 // DCI_INSTANCEREMOVED
	DataChangedEvt     DatumID = 0x000000f5 // DCI_DATACHANGED
	VendorFirst        DatumID = 0x000000e8 // first low byte of the vendor range
	VendorLast         DatumID = 0x000000ef // last low byte of the vendor range
	AllData            DatumID = DatumID(All)
	MaxOrdinaryLow             = 0xe7 // ordinary metrics use low bytes 0x01..0xe7
)

// Derive builds a derived datum id: arg1 in bits 31-24, arg2 in 23-16, arg3 in 15-8, own id in
// 7-0 (DCI-DER-1).
func Derive(arg1, arg2, arg3, id uint8) DatumID {
	return DatumID(uint32(arg1)<<24 | uint32(arg2)<<16 | uint32(arg3)<<8 | uint32(id))
}

// Low is the unique low byte of the id.
func (d DatumID) Low() uint8 { return uint8(d) }

// Args returns the three argument low bytes of a derived id (0 = unused).
func (d DatumID) Args() (arg1, arg2, arg3 uint8) {
	return uint8(d >> 24), uint8(d >> 16), uint8(d >> 8)
}

// ReservedName is the symbolic name of a reserved low byte, or "".
func (d DatumID) ReservedName() string {
	if d == AllData {
		return "DCI_ALL"
	}
	switch DatumID(d.Low()) {
	case InvalidDatumID:
		return "DCI_INVALIDDATUMID"
	case FinalDataEvent:
		return "DCI_FINALDATA_EVENT"
	case InstanceAddedEvt:
		return "DCI_INSTANCEADDED"
	case InstanceRemovedEvt:
		return "DCI_INSTANCEREMOVED"
	case DataChangedEvt:
		return "DCI_DATACHANGED"
	}
	if l := DatumID(d.Low()); l >= VendorFirst && l <= VendorLast {
		return "vendor"
	}
	return ""
}

// String shows the id in hex, with its symbolic name when reserved ("0xff DCI_INVALIDDATUMID").
func (d DatumID) String() string {
	if d == AllData {
		return "*"
	}
	if n := d.ReservedName(); n != "" {
		return fmt.Sprintf("0x%02x %s", uint32(d), n)
	}
	if d > 0xff {
		return fmt.Sprintf("0x%08x", uint32(d))
	}
	return strconv.FormatUint(uint64(d), 10)
}

// ParseDatumID accepts decimal, 0x-hex, or "*" for DCI_ALL.
func ParseDatumID(s string) (DatumID, error) {
	if s == "*" {
		return AllData, nil
	}
	v, err := strconv.ParseUint(s, 0, 32)
	if err != nil {
		return 0, fmt.Errorf("%w: datum id %q: %v", ErrBadID, s, numErr(err))
	}
	return DatumID(v), nil
}

// EventOpenID decodes a datum id given when opening an event: 12 bits of user flags, 12 bits of
// user event id and the 8-bit datum id (DCI-EVT-1).
func EventOpenID(v uint32) (flags, event uint16, datum DatumID) {
	return uint16(v >> 20), uint16(v>>8) & 0xfff, DatumID(v & 0xff)
}

// MetricID is a DCIMetricId: class, instance and datum (DCI-NS-1). Any part may be a query.
type MetricID struct {
	Class ClassID
	Inst  InstanceID
	Datum DatumID
}

func (m MetricID) String() string {
	return fmt.Sprintf("%s[%s]#%s", m.Class, m.Inst, m.Datum)
}
