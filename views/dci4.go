package views

import (
	"encoding/binary"
	"strconv"
	"strings"
	"time"

	"dcimon/namespace"
)

// Options are the display choices every renderer takes. The zero value is deterministic: UTC,
// no boot time, no humanised durations, scaled units.
type Options struct {
	// Location is the zone absolute times are shown in; nil means UTC. The TUI passes time.Local
	// (AMB-7); tests pin UTC.
	Location *time.Location
	// Boot is when the system started, the base of STF_MONOTONIC absolute times; zero when
	// unknown (the time is then shown relative to boot).
	Boot time.Time
	// Humanize appends a rounded form after exact relative times of a minute or more:
	// `3723 seconds (1h 2m)` (AMB-15).
	Humanize bool
	// Interface is the supplier's i_version ×100; types newer than it are shown raw with a
	// marker (DCI4-SUP-11). 0 skips the check.
	Interface uint32
	// Raw shows counters as their cumulative reading instead of a rate, and every value exactly
	// in its declared unit with the unit's description (`2048 kilobytes`, X-2, DCI-UNIT-2).
	Raw bool
	// Class is the class the datum belongs to, used to infer the unit of a derived datum from
	// its arguments (DCI-UNIT-7); nil shows such values without a unit.
	Class *namespace.Class
	// NetBits shows a network interface's byte rates in bits per second (MeasureWith).
	NetBits bool
}

// Issue is a set of ways a DCI4 description or value departs from the document, found while
// rendering it. The value is still shown (best effort, AMB-13); the non-conforming ones put a
// visible marker in the text.
type Issue uint16

// Issues.
const (
	IssueUnknownType         Issue = 1 << iota // type beyond ST_TIME: raw hex shown (AMB-13)
	IssueUnknownFormat                         // format not defined for the type
	IssueUnknownPresentation                   // presentation not defined for the type
	IssueReservedBits                          // integer format bits 2-31 set (DCI4-INT-1)
	IssueTruncated                             // string did not end within size-1 bytes (DCI4-TYPE-2)
	IssueSizeTooSmall                          // size cannot hold the value (DCI4-DESC-2)
	IssueShortRead                             // fewer bytes read than the value needs
	IssueSizeNotAligned                        // size not a multiple of 4 (DCI4-DESC-2)
	IssueInterface                             // type newer than the supplier's interface (DCI4-SUP-11)
	IssueOutOfRange                            // a time outside years 1..9999
	IssueEscaped                               // control characters or invalid UTF-8 were escaped (informational)
	IssueBootUnknown                           // monotonic time shown relative to boot (informational)
)

var issueNames = [...]string{"unknown type", "unknown format", "unknown presentation", "reserved bits",
	"truncated", "size too small", "short read", "size not aligned", "interface", "out of range", "escaped",
	"boot unknown"}

// String lists the issues by name, "|"-separated; "none" for no issue.
func (i Issue) String() string {
	if i == 0 {
		return "none"
	}
	var b []byte
	for n, name := range issueNames {
		if i&(1<<n) != 0 {
			if len(b) > 0 {
				b = append(b, '|')
			}
			b = append(b, name...)
		}
	}
	if rest := i &^ (1<<len(issueNames) - 1); rest != 0 {
		if len(b) > 0 {
			b = append(b, '|')
		}
		b = append(b, "0x"...)
		b = strconv.AppendUint(b, uint64(rest), 16)
	}
	return string(b)
}

// Conformance is the set of issues that mark a value as non-conforming.
const Conformance = IssueUnknownType | IssueUnknownFormat | IssueUnknownPresentation | IssueReservedBits |
	IssueTruncated | IssueSizeTooSmall | IssueShortRead | IssueSizeNotAligned | IssueInterface | IssueOutOfRange

// Rendered is one DCI4 value as text, with what was found wrong with it.
type Rendered struct {
	Text   string   // never contains a control character
	Issues Issue    // what was found
	Notes  []string // one sentence per issue, for the describe pane
	Skip   bool     // ST_UNUSED: not listed at all (DCI4-TYPE-0)
}

// NonConforming reports whether the text carries a non-conformance marker.
func (r Rendered) NonConforming() bool { return r.Issues&Conformance != 0 }

// Skipped reports whether a statistic is left out wherever statistics are listed: ST_UNUSED
// only reserves its number (DCI4-TYPE-0).
func Skipped(d namespace.DCI4Desc) bool { return d.Type == namespace.STUnused }

// RenderDCI4 renders one statistic value from its description and the bytes of its SA_READ slot
// (DCI4-RD-4), exactly per the document's formats and presentations (checklist 2.4, 2.5).
func RenderDCI4(d namespace.DCI4Desc, raw []byte, opt Options) Rendered {
	if Skipped(d) {
		return Rendered{Skip: true}
	}
	var notes []string
	b, is := renderDCI4(make([]byte, 0, 32), d, raw, &opt, &notes)
	return Rendered{Text: string(b), Issues: is, Notes: notes}
}

// AppendDCI4 is RenderDCI4 appending to dst without building notes, for tables. ST_UNUSED
// appends nothing.
func AppendDCI4(dst []byte, d namespace.DCI4Desc, raw []byte, opt *Options) ([]byte, Issue) {
	if Skipped(d) {
		return dst, 0
	}
	return renderDCI4(dst, d, raw, opt, nil)
}

// note records an issue's sentence when notes are wanted.
func note(notes *[]string, parts ...string) {
	if notes != nil {
		*notes = append(*notes, strings.Join(parts, ""))
	}
}

func utoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }

func renderDCI4(dst []byte, d namespace.DCI4Desc, raw []byte, opt *Options, notes *[]string) ([]byte, Issue) {
	var is Issue
	if d.Size%4 != 0 {
		is |= IssueSizeNotAligned
		note(notes, "size ", utoa(d.Size), " is not a multiple of 4 (DCI4-DESC-2)")
	}
	slot := raw
	if uint64(len(slot)) > uint64(d.Size) {
		slot = slot[:d.Size]
	}
	switch {
	case !d.Type.Known():
		is |= IssueUnknownType
		dst = appendHexDump(dst, slot)
		if len(slot) > 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, "(unknown type "...)
		dst = strconv.AppendUint(dst, uint64(d.Type), 10)
		dst = append(dst, "?)"...)
		note(notes, "unknown type ", utoa(uint32(d.Type)), ": shown as raw bytes (AMB-13)")
	case opt.Interface != 0 && opt.Interface < d.Type.MinInterface():
		is |= IssueInterface
		dst = appendHexDump(dst, slot)
		if len(slot) > 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, "(type not supported by interface "...)
		dst = append(dst, namespace.VersionText(opt.Interface)...)
		dst = append(dst, "?)"...)
		note(notes, d.Type.String(), " needs DCI statistics format 1.01; the supplier implements ",
			namespace.VersionText(opt.Interface), " (DCI4-SUP-11)")
	default:
		var e Issue
		switch d.Type {
		case namespace.STBoolean:
			dst, e = renderBool(dst, d, slot, notes)
		case namespace.STString:
			dst, e = renderString(dst, d, slot, notes)
		case namespace.STInteger8, namespace.STInteger16, namespace.STInteger32, namespace.STInteger64:
			dst, e = renderInt(dst, d, slot, notes)
		case namespace.STAddress:
			dst, e = renderAddress(dst, d, slot, notes)
		case namespace.STTime:
			dst, e = renderTime(dst, d, slot, opt, notes)
		}
		is |= e
	}
	if is&IssueSizeNotAligned != 0 {
		dst = append(dst, " (size "...)
		dst = strconv.AppendUint(dst, uint64(d.Size), 10)
		dst = append(dst, "?)"...)
	}
	return dst, is
}

// maxDump bounds a raw hex dump so one odd statistic cannot flood a table cell.
const maxDump = 64

// appendHexDump appends bytes as lowercase hex pairs separated by spaces (`00 01 41`,
// DCI-TYPE-3), at most maxDump of them followed by "…".
func appendHexDump(dst []byte, b []byte) []byte {
	for i, c := range b {
		if i == maxDump {
			return append(dst, " …"...)
		}
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, hexDigits[c>>4], hexDigits[c&0xf])
	}
	return dst
}

// need checks that the description's size and the bytes read hold n bytes, and appends the
// visible error when they do not (DCI4-DESC-2: never a panic, never a guess).
func need(dst []byte, d namespace.DCI4Desc, slot []byte, n int, notes *[]string) ([]byte, Issue, bool) {
	if uint64(d.Size) < uint64(n) {
		dst = append(dst, "(size "...)
		dst = strconv.AppendUint(dst, uint64(d.Size), 10)
		dst = append(dst, " too small?)"...)
		note(notes, "size ", utoa(d.Size), " cannot hold the ", strconv.Itoa(n), "-byte value of ",
			d.Type.String(), " (DCI4-DESC-2)")
		return dst, IssueSizeTooSmall, false
	}
	if len(slot) < n {
		dst = append(dst, "(short read "...)
		dst = strconv.AppendInt(dst, int64(len(slot)), 10)
		dst = append(dst, " of "...)
		dst = strconv.AppendInt(dst, int64(n), 10)
		dst = append(dst, " bytes?)"...)
		note(notes, "only ", strconv.Itoa(len(slot)), " of the ", strconv.Itoa(n), " bytes of the value were read")
		return dst, IssueShortRead, false
	}
	return dst, 0, true
}

func appendMarker(dst []byte, what string, v uint32, hex bool) []byte {
	dst = append(dst, " ("...)
	dst = append(dst, what...)
	dst = append(dst, ' ')
	if hex {
		dst = append(dst, "0x"...)
		dst = strconv.AppendUint(dst, uint64(v), 16)
	} else {
		dst = strconv.AppendUint(dst, uint64(v), 10)
	}
	return append(dst, "?)"...)
}

func unknownFormat(dst []byte, d namespace.DCI4Desc, notes *[]string) []byte {
	note(notes, "format ", utoa(d.Format), " is not defined for ", d.Type.String(), " (AMB-13)")
	return appendMarker(dst, "format", d.Format, false)
}

func unknownPresentation(dst []byte, d namespace.DCI4Desc, notes *[]string) []byte {
	note(notes, "presentation ", utoa(d.Presentation), " is not defined for ", d.Type.String(), " (AMB-13)")
	return appendMarker(dst, "pres", d.Presentation, false)
}

var boolWords = [...][2]string{
	namespace.SBPOnOff:       {"off", "on"},
	namespace.SBPYesNo:       {"no", "yes"},
	namespace.SBPTrueFalse:   {"false", "true"},
	namespace.SBPAlwaysNever: {"never", "always"},
	namespace.SBPOneZero:     {"0", "1"},
}

// renderBool evaluates bit 0 only (AMB-6): 2 is false under SBF_NORMAL (DCI4-BOOL-1).
func renderBool(dst []byte, d namespace.DCI4Desc, slot []byte, notes *[]string) ([]byte, Issue) {
	dst, is, ok := need(dst, d, slot, 1, notes)
	if !ok {
		return dst, is
	}
	truth := slot[0]&1 == 1
	if d.Format == namespace.SBFInverted {
		truth = !truth
	}
	k := 0
	if truth {
		k = 1
	}
	if int(d.Presentation) < len(boolWords) {
		dst = append(dst, boolWords[d.Presentation][k]...)
	} else {
		dst = append(dst, boolWords[namespace.SBPTrueFalse][k]...)
		dst = unknownPresentation(dst, d, notes)
		is |= IssueUnknownPresentation
	}
	if d.Format > namespace.SBFInverted {
		dst = unknownFormat(dst, d, notes)
		is |= IssueUnknownFormat
	}
	return dst, is
}

// renderString shows the bytes before the first NUL literally, escaped where a terminal would
// act on them; a string that does not end within size-1 bytes is cut there (DCI4-TYPE-2).
func renderString(dst []byte, d namespace.DCI4Desc, slot []byte, notes *[]string) ([]byte, Issue) {
	dst, is, ok := need(dst, d, slot, 1, notes)
	if !ok {
		return dst, is
	}
	n := len(slot)
	for i, c := range slot {
		if c == 0 {
			n = i
			break
		}
	}
	trunc := false
	if n == len(slot) { // no terminator in the slot
		if uint64(n) >= uint64(d.Size) {
			n = int(d.Size) - 1
			trunc = true
		} else {
			is |= IssueShortRead
			note(notes, "the string's terminator was not read")
		}
	}
	var esc bool
	dst, esc = appendSafeBytes(dst, slot[:n])
	return finishString(dst, d, is, esc, trunc, notes)
}

func finishString(dst []byte, d namespace.DCI4Desc, is Issue, esc, trunc bool, notes *[]string) ([]byte, Issue) {
	if esc {
		is |= IssueEscaped
		note(notes, "control characters or invalid UTF-8 are shown escaped")
	}
	if trunc {
		is |= IssueTruncated
		dst = append(dst, " (truncated?)"...)
		note(notes, "the string is longer than size-1 = ", strconv.FormatInt(int64(d.Size)-1, 10),
			" bytes and was cut (DCI4-TYPE-2)")
	}
	if d.Presentation != namespace.SSPLiteral {
		dst = unknownPresentation(dst, d, notes)
		is |= IssueUnknownPresentation
	}
	if d.Format != namespace.SSFZeroTerm {
		dst = unknownFormat(dst, d, notes)
		is |= IssueUnknownFormat
	}
	return dst, is
}

// renderStringValue is renderString for a value held as a Go string (namespace.Value.S): the
// same rules without copying it into a slot.
func renderStringValue(dst []byte, d namespace.DCI4Desc, s string) ([]byte, Issue) {
	if d.Size < 1 {
		dst, is, _ := need(dst, d, nil, 1, nil)
		return dst, is
	}
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	trunc := false
	if uint64(len(s)) > uint64(d.Size)-1 {
		s, trunc = s[:d.Size-1], true
	}
	dst, esc := AppendSafe(dst, s)
	return finishString(dst, d, 0, esc, trunc, nil)
}

// decodeInt reads an integer of w bytes from the start of its slot (DCI4-DESC-2), in the byte
// order the format asks for (DCI4-INT-1); signed values are sign-extended.
func decodeInt(slot []byte, w int, format uint32) (u uint64, neg bool) {
	if format&namespace.SIFBigEndian != 0 {
		for _, c := range slot[:w] {
			u = u<<8 | uint64(c)
		}
	} else {
		for i := w - 1; i >= 0; i-- {
			u = u<<8 | uint64(slot[i])
		}
	}
	if format&namespace.SIFUnsigned == 0 && w < 8 && u>>(uint(w)*8-1)&1 == 1 {
		u |= ^uint64(0) << (uint(w) * 8)
	}
	neg = format&namespace.SIFUnsigned == 0 && int64(u) < 0
	return u, neg
}

func renderInt(dst []byte, d namespace.DCI4Desc, slot []byte, notes *[]string) ([]byte, Issue) {
	w := d.Type.IntWidth()
	dst, is, ok := need(dst, d, slot, w, notes)
	if !ok {
		return dst, is
	}
	u, neg := decodeInt(slot, w, d.Format)
	switch d.Presentation {
	case namespace.SIPHexadecimal:
		dst = appendHexWidth(dst, u, w)
	case namespace.SIPDotted:
		dst = appendDotted(dst, u, w)
	default:
		if neg {
			dst = strconv.AppendInt(dst, int64(u), 10)
		} else {
			dst = strconv.AppendUint(dst, u, 10)
		}
		if d.Presentation != namespace.SIPDecimal {
			dst = unknownPresentation(dst, d, notes)
			is |= IssueUnknownPresentation
		}
	}
	if r := d.Format & namespace.SIFReserved; r != 0 {
		note(notes, "format 0x", strconv.FormatUint(uint64(d.Format), 16),
			" sets reserved bits; decoded with bits 0-1 only (DCI4-INT-1)")
		dst = appendMarker(dst, "format", d.Format, true)
		is |= IssueReservedBits
	}
	return dst, is
}

// appendHexWidth appends `0x` and 2 lowercase digits per byte of the type's width; negative
// values show their two's complement (AMB-8).
func appendHexWidth(dst []byte, u uint64, w int) []byte {
	dst = append(dst, '0', 'x')
	for i := w*2 - 1; i >= 0; i-- {
		dst = append(dst, hexDigits[u>>(uint(i)*4)&0xf])
	}
	return dst
}

// appendDotted appends the octets of the type's width from most to least significant, in
// decimal, separated by dots (AMB-9).
func appendDotted(dst []byte, u uint64, w int) []byte {
	for i := w - 1; i >= 0; i-- {
		dst = strconv.AppendUint(dst, u>>(uint(i)*8)&0xff, 10)
		if i > 0 {
			dst = append(dst, '.')
		}
	}
	return dst
}

// renderAddress shows SAP_NORMAL forms (AMB-5): `00:1a:2b:3c:4d:5e`, `192.168.0.1` in stored
// order, Econet `net.station` with byte 0 the net.
func renderAddress(dst []byte, d namespace.DCI4Desc, slot []byte, notes *[]string) ([]byte, Issue) {
	var n int
	switch d.Format {
	case namespace.SAFEthernet:
		n = 6
	case namespace.SAFIP:
		n = 4
	case namespace.SAFEconet:
		n = 2
	default:
		dst = appendHexDump(dst, slot)
		return unknownFormat(dst, d, notes), IssueUnknownFormat
	}
	dst, is, ok := need(dst, d, slot, n, notes)
	if !ok {
		return dst, is
	}
	for i, c := range slot[:n] {
		if d.Format == namespace.SAFEthernet {
			if i > 0 {
				dst = append(dst, ':')
			}
			dst = append(dst, hexDigits[c>>4], hexDigits[c&0xf])
			continue
		}
		if i > 0 {
			dst = append(dst, '.')
		}
		dst = strconv.AppendUint(dst, uint64(c), 10)
	}
	if d.Presentation != namespace.SAPNormal {
		dst = unknownPresentation(dst, d, notes)
		is |= IssueUnknownPresentation
	}
	return dst, is
}

// Seconds from 1900-01-01 to 1970-01-01, the STF_5BYTE epoch shift, and the Unix seconds of
// years 1 and 9999 with a day to spare for any zone offset.
const (
	epoch1900 = 2208988800
	minUnix   = -62135596800 - 86400
	maxUnix   = 253402300799 + 86400
)

// Absolute time layouts (AMB-7): local time with the zone, centiseconds for the centisecond
// formats.
const (
	LayoutSeconds      = "2006-01-02 15:04:05 MST"
	LayoutCentiseconds = "2006-01-02 15:04:05.00 MST"
)

// putSlot writes n into the first bytes of a value slot the way a DCI4 supplier would for the
// description, so FormatValue and RenderDCI4 share one decoder.
func putSlot(slot []byte, d namespace.DCI4Desc, n uint64) {
	switch w := d.Type.IntWidth(); {
	case w > 0 && d.Format&namespace.SIFBigEndian != 0:
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], n)
		copy(slot, b[8-w:])
	default:
		binary.LittleEndian.PutUint64(slot, n)
	}
}
