package namespace

import (
	"fmt"
	"strings"
)

// DCI4Type is a RISC OS DCI4 statistic type (DCI4-TYPE-*), with the document's numbers
// (ST_ADDRESS = 7, ST_TIME = 8 per the normative type table, AMB-2).
type DCI4Type uint32

// DCI4 statistic types.
const (
	STUnused    DCI4Type = 0
	STBoolean   DCI4Type = 1
	STString    DCI4Type = 2
	STInteger8  DCI4Type = 3
	STInteger16 DCI4Type = 4
	STInteger32 DCI4Type = 5
	STInteger64 DCI4Type = 6
	STAddress   DCI4Type = 7
	STTime      DCI4Type = 8
)

var dci4TypeNames = [...]string{"ST_UNUSED", "ST_BOOLEAN", "ST_STRING", "ST_INTEGER8", "ST_INTEGER16",
	"ST_INTEGER32", "ST_INTEGER64", "ST_ADDRESS", "ST_TIME"}

func (t DCI4Type) String() string {
	if int(t) < len(dci4TypeNames) {
		return dci4TypeNames[t]
	}
	return fmt.Sprintf("%d (unknown type)", uint32(t))
}

// Known reports whether the type is one the document defines.
func (t DCI4Type) Known() bool { return int(t) < len(dci4TypeNames) }

// IntWidth is the width in bytes of an integer type, or 0 for other types.
func (t DCI4Type) IntWidth() int {
	switch t {
	case STInteger8:
		return 1
	case STInteger16:
		return 2
	case STInteger32:
		return 4
	case STInteger64:
		return 8
	}
	return 0
}

// MinInterface is the lowest interface version that defines the type: ST_ADDRESS and ST_TIME
// arrived with format 1.01 (DCI4-SUP-11, AMB-12).
func (t DCI4Type) MinInterface() uint32 {
	if t == STAddress || t == STTime {
		return 101
	}
	return 100
}

// DCI4 boolean formats and presentations (DCI4-BOOL-1, DCI4-BOOL-2).
const (
	SBFNormal   = 0
	SBFInverted = 1

	SBPOnOff       = 0
	SBPYesNo       = 1
	SBPTrueFalse   = 2
	SBPAlwaysNever = 3
	SBPOneZero     = 4
)

// DCI4 string format and presentation (DCI4-STR-1).
const (
	SSFZeroTerm = 0
	SSPLiteral  = 0
)

// DCI4 integer format bits and presentations (DCI4-INT-1, DCI4-INT-2).
const (
	SIFUnsigned  = 1 << 0
	SIFBigEndian = 1 << 1
	SIFReserved  = ^uint32(SIFUnsigned | SIFBigEndian)

	SIPHexadecimal = 0
	SIPDecimal     = 1
	SIPDotted      = 2
)

// DCI4 address formats and presentation (DCI4-ADDR-1).
const (
	SAFEthernet = 0
	SAFIP       = 1
	SAFEconet   = 2

	SAPNormal = 0
)

// DCI4 time formats and presentations (DCI4-TIME-1, DCI4-TIME-2).
const (
	STF5Byte     = 0
	STFCTime     = 1
	STFMonotonic = 2

	STPAbsolute = 0
	STPRelative = 1
)

// Volatility says how often a DCI4 statistic can change (DCI4-DESC-3).
type Volatility uint32

// Volatilities.
const (
	SVStatic   Volatility = 0 // constant for one supplier initialisation
	SVVariable Volatility = 1 // unlikely to have changed in five minutes
	SVVolatile Volatility = 2 // can change very rapidly
)

func (v Volatility) String() string {
	switch v {
	case SVStatic:
		return "SV_STATIC"
	case SVVariable:
		return "SV_VARIABLE"
	case SVVolatile:
		return "SV_VOLATILE"
	}
	return fmt.Sprintf("%d (unknown volatility)", uint32(v))
}

// SupplierType is a DCI4 supplier type (DCI4-SUP-6).
type SupplierType uint32

// Supplier types.
const (
	SPTGeneralSupplier SupplierType = 0
	SPTNetworkProtocol SupplierType = 1
	SPTNetworkDriver   SupplierType = 2
	SPTMbufManager     SupplierType = 3
)

func (t SupplierType) String() string {
	switch t {
	case SPTGeneralSupplier:
		return "SPT_GENERAL_SUPPLIER"
	case SPTNetworkProtocol:
		return "SPT_NETWORK_PROTOCOL"
	case SPTNetworkDriver:
		return "SPT_NETWORK_DRIVER"
	case SPTMbufManager:
		return "SPT_MBUF_MANAGER"
	}
	return fmt.Sprintf("%d (unknown)", uint32(t))
}

// DCI4Desc is a DCI4 statistic description (DCI4-DESC-1): eight words.
type DCI4Desc struct {
	Type         DCI4Type
	Format       uint32
	Presentation uint32
	Size         uint32 // bytes reserved for the value in an SA_READ; a multiple of 4
	Volatility   Volatility
	Name         string
	NameTag      uint32 // must be 0 (DCI4-DESC-4)
	Spare        uint32 // must be 0 (DCI4-DESC-4)
}

// FormatName is the symbolic name of the description's format ("SIF_UNSIGNED|SIF_BIGENDIAN",
// "STF_MONOTONIC"), with a `?` marker for values the document does not define (AMB-13).
func (d DCI4Desc) FormatName() string {
	switch d.Type {
	case STUnused:
		return "-"
	case STBoolean:
		return pick(d.Format, "SBF_NORMAL", "SBF_INVERTED")
	case STString:
		return pick(d.Format, "SSF_ZEROTERM")
	case STInteger8, STInteger16, STInteger32, STInteger64:
		var parts []string
		if d.Format&SIFUnsigned != 0 {
			parts = append(parts, "SIF_UNSIGNED")
		} else {
			parts = append(parts, "signed")
		}
		if d.Format&SIFBigEndian != 0 {
			parts = append(parts, "SIF_BIGENDIAN")
		} else {
			parts = append(parts, "little-endian")
		}
		if r := d.Format & SIFReserved; r != 0 {
			parts = append(parts, fmt.Sprintf("reserved bits 0x%x?", r))
		}
		return strings.Join(parts, "|")
	case STAddress:
		return pick(d.Format, "SAF_ETHERNET", "SAF_IP", "SAF_ECONET")
	case STTime:
		return pick(d.Format, "STF_5BYTE", "STF_CTIME", "STF_MONOTONIC")
	}
	return fmt.Sprintf("%d?", d.Format)
}

// PresentationName is the symbolic name of the description's presentation.
func (d DCI4Desc) PresentationName() string {
	switch d.Type {
	case STUnused:
		return "-"
	case STBoolean:
		return pick(d.Presentation, "SBP_ON_OFF", "SBP_YES_NO", "SBP_TRUE_FALSE", "SBP_ALWAYS_NEVER", "SBP_ONE_ZERO")
	case STString:
		return pick(d.Presentation, "SSP_LITERAL")
	case STInteger8, STInteger16, STInteger32, STInteger64:
		return pick(d.Presentation, "SIP_HEXADECIMAL", "SIP_DECIMAL", "SIP_DOTTED")
	case STAddress:
		return pick(d.Presentation, "SAP_NORMAL")
	case STTime:
		return pick(d.Presentation, "STP_ABSOLUTE", "STP_RELATIVE")
	}
	return fmt.Sprintf("%d?", d.Presentation)
}

func pick(v uint32, names ...string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%d?", v)
}

// Supplier is a DCI4 supplier record (DCI4-SUP-3): one per provider, or per effective supplier.
type Supplier struct {
	IVersion    uint32 // interface version × 100 (101 = DCI statistics format 1.01, AMB-12)
	Features    uint32 // must be 0 (DCI4-SUP-4)
	Handle      uint32 // swinumber: the handle used for describe and read
	MaxStat     uint32 // highest statistic number, inclusive (DCI4-SUP-5)
	Type        SupplierType
	SVersion    uint32 // the supplier's own version × 100, for the user
	Module      string // short module name
	Title       string // short title
	Description string // long description
	Reset       [8]byte
}

// VersionText formats a version stored as ×100: 101 → "1.01".
func VersionText(v uint32) string { return fmt.Sprintf("%d.%02d", v/100, v%100) }

// ResetHex is the reset value as 16 hex digits (DCI4-SUP-3).
func (s Supplier) ResetHex() string { return fmt.Sprintf("%x", s.Reset[:]) }

// Conformance lists ways the record departs from the document, for the inspector (warnings,
// the supplier is still shown).
func (s Supplier) Conformance() []string {
	var w []string
	if s.Features != 0 {
		w = append(w, fmt.Sprintf("features is 0x%x, must be 0 (DCI4-SUP-4)", s.Features))
	}
	if s.Type > SPTMbufManager {
		w = append(w, fmt.Sprintf("unknown supplier type %d (DCI4-SUP-6)", s.Type))
	}
	return w
}
