package views

import (
	"encoding/binary"
	"reflect"
	"strings"
	"testing"
	"time"

	ns "dcimon/namespace"
)

// le lays v out little-endian in a slot of n bytes.
func le(v uint64, n int) []byte {
	b := make([]byte, 8)
	binary.LittleEndian.PutUint64(b, v)
	if n > 8 {
		b = append(b, make([]byte, n-8)...)
	}
	return b[:n]
}

func desc(t ns.DCI4Type, format, pres, size uint32) ns.DCI4Desc {
	return ns.DCI4Desc{Type: t, Format: format, Presentation: pres, Size: size}
}

var boot = time.Date(2023, 11, 14, 22, 13, 20, 0, time.UTC)

// DCI4-DESC-5: formats and presentations are honoured per type: DCI4-TYPE-1 booleans (bit 0 only),
// DCI4-TYPE-4 addresses, and every other type below.
func TestRenderDCI4(t *testing.T) {
	ff8 := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	cases := []struct {
		name   string
		d      ns.DCI4Desc
		raw    []byte
		opt    Options
		want   string
		issues Issue
	}{
		// DCI4-BOOL-1: bit 0 only (AMB-6).
		{"DCI4-BOOL-1 normal raw 2 is false", desc(ns.STBoolean, ns.SBFNormal, ns.SBPTrueFalse, 4), le(2, 4), Options{}, "false", 0},
		{"DCI4-BOOL-1 inverted raw 3 is false", desc(ns.STBoolean, ns.SBFInverted, ns.SBPTrueFalse, 4), le(3, 4), Options{}, "false", 0},
		// DCI4-BOOL-2: the checklist's table.
		{"DCI4-BOOL-2 normal 1 on_off", desc(ns.STBoolean, ns.SBFNormal, ns.SBPOnOff, 4), le(1, 4), Options{}, "on", 0},
		{"DCI4-BOOL-2 normal 0 on_off", desc(ns.STBoolean, ns.SBFNormal, ns.SBPOnOff, 4), le(0, 4), Options{}, "off", 0},
		{"DCI4-BOOL-2 inverted 0 yes_no", desc(ns.STBoolean, ns.SBFInverted, ns.SBPYesNo, 4), le(0, 4), Options{}, "yes", 0},
		{"DCI4-BOOL-2 inverted 1 true_false", desc(ns.STBoolean, ns.SBFInverted, ns.SBPTrueFalse, 4), le(1, 4), Options{}, "false", 0},
		{"DCI4-BOOL-2 normal 0 always_never", desc(ns.STBoolean, ns.SBFNormal, ns.SBPAlwaysNever, 4), le(0, 4), Options{}, "never", 0},
		{"DCI4-BOOL-2 normal 1 always_never", desc(ns.STBoolean, ns.SBFNormal, ns.SBPAlwaysNever, 4), le(1, 4), Options{}, "always", 0},
		{"DCI4-BOOL-2 normal 1 one_zero", desc(ns.STBoolean, ns.SBFNormal, ns.SBPOneZero, 4), le(1, 4), Options{}, "1", 0},
		{"DCI4-BOOL-2 inverted 1 one_zero", desc(ns.STBoolean, ns.SBFInverted, ns.SBPOneZero, 4), le(1, 4), Options{}, "0", 0},
		{"DCI4-BOOL-2 pres 7 fallback", desc(ns.STBoolean, ns.SBFNormal, 7, 4), le(1, 4), Options{}, "true (pres 7?)", IssueUnknownPresentation},
		{"AMB-13 boolean format 2", desc(ns.STBoolean, 2, ns.SBPYesNo, 4), le(1, 4), Options{}, "yes (format 2?)", IssueUnknownFormat},
		{"DCI4-DESC-2 boolean size 0", desc(ns.STBoolean, 0, 0, 0), nil, Options{}, "(size 0 too small?)", IssueSizeTooSmall},

		// DCI4-TYPE-2 / DCI4-STR-1: strings.
		{"DCI4-TYPE-2 stops at NUL", desc(ns.STString, 0, 0, 16), []byte("abc\x00garbage\x00\x00\x00\x00\x00"), Options{}, "abc", 0},
		{"DCI4-TYPE-2 longer than size-1 truncated", desc(ns.STString, 0, 0, 8), []byte("abcdefghij"), Options{}, "abcdefg (truncated?)", IssueTruncated},
		{"DCI4-TYPE-2 exactly size-1", desc(ns.STString, 0, 0, 8), []byte("abcdefg\x00"), Options{}, "abcdefg", 0},
		{"DCI4-STR-1 literal", desc(ns.STString, 0, 0, 16), []byte("eth0 link up\x00\x00\x00\x00"), Options{}, "eth0 link up", 0},
		{"DCI4-STR-1 BEL escaped", desc(ns.STString, 0, 0, 8), []byte("ding\x07\x00\x00\x00"), Options{}, `ding\x07`, IssueEscaped},
		{"DCI4-STR-1 escape sequence harmless", desc(ns.STString, 0, 0, 16), []byte("\x1b[2J\x1b]0;pwn\x07\x00"), Options{}, `\x1b[2J\x1b]0;pwn\x07`, IssueEscaped},
		{"DCI4-STR-1 invalid UTF-8 and C1", desc(ns.STString, 0, 0, 8), []byte("a\xff\xc2\x9bb\x00\x00\x00"), Options{}, `a\xff\u009bb`, IssueEscaped},
		{"DCI4-STR-1 UTF-8 kept", desc(ns.STString, 0, 0, 8), []byte("µs→\x00"), Options{}, "µs→", 0},
		{"AMB-13 string presentation 1", desc(ns.STString, 0, 1, 4), []byte("ab\x00\x00"), Options{}, "ab (pres 1?)", IssueUnknownPresentation},
		{"DCI4-DESC-2 string size 0", desc(ns.STString, 0, 0, 0), nil, Options{}, "(size 0 too small?)", IssueSizeTooSmall},

		// DCI4-INT-1: format bits. DCI4-TYPE-3: ST_INTEGER8/16/32/64 are 1, 2, 4 and 8 bytes,
		// decoded from a 4, 4, 4 and 8-byte slot (0xff alone is -1 as an int8, 1 2 is 258 or
		// 513 as an int16, ff ff ff fb is -5 as an int32, eight 0xff are -1 as an int64).
		{"DCI4-INT-1 int8 ff signed", desc(ns.STInteger8, 0, ns.SIPDecimal, 4), []byte{0xff, 0, 0, 0}, Options{}, "-1", 0},
		{"DCI4-INT-1 int8 ff unsigned", desc(ns.STInteger8, ns.SIFUnsigned, ns.SIPDecimal, 4), []byte{0xff, 0, 0, 0}, Options{}, "255", 0},
		{"DCI4-INT-1 int16 01 02 unsigned BE", desc(ns.STInteger16, 3, ns.SIPDecimal, 4), []byte{1, 2, 0, 0}, Options{}, "258", 0},
		{"DCI4-INT-1 int16 01 02 unsigned LE", desc(ns.STInteger16, 1, ns.SIPDecimal, 4), []byte{1, 2, 0, 0}, Options{}, "513", 0},
		{"DCI4-INT-1 int64 all ff unsigned", desc(ns.STInteger64, 1, ns.SIPDecimal, 8), ff8, Options{}, "18446744073709551615", 0},
		{"DCI4-INT-1 int64 all ff signed", desc(ns.STInteger64, 0, ns.SIPDecimal, 8), ff8, Options{}, "-1", 0},
		{"DCI4-INT-1 reserved bit 2", desc(ns.STInteger8, 4, ns.SIPDecimal, 4), []byte{0xff, 0, 0, 0}, Options{}, "-1 (format 0x4?)", IssueReservedBits},
		{"DCI4-INT-1 reserved bits keep 0-1", desc(ns.STInteger16, 0x80000003, ns.SIPDecimal, 4), []byte{1, 2, 0, 0}, Options{}, "258 (format 0x80000003?)", IssueReservedBits},
		{"DCI4-INT-1 int32 signed BE", desc(ns.STInteger32, ns.SIFBigEndian, ns.SIPDecimal, 4), []byte{0xff, 0xff, 0xff, 0xfb}, Options{}, "-5", 0},

		// DCI4-INT-2: presentations (AMB-8, AMB-9).
		{"DCI4-INT-2 int16 255 hex", desc(ns.STInteger16, 0, ns.SIPHexadecimal, 4), le(255, 4), Options{}, "0x00ff", 0},
		{"DCI4-INT-2 int8 -1 hex", desc(ns.STInteger8, 0, ns.SIPHexadecimal, 4), []byte{0xff, 0, 0, 0}, Options{}, "0xff", 0},
		{"DCI4-INT-2 int16 -2 hex two's complement", desc(ns.STInteger16, 0, ns.SIPHexadecimal, 4), []byte{0xfe, 0xff, 0, 0}, Options{}, "0xfffe", 0},
		{"DCI4-INT-2 int64 hex", desc(ns.STInteger64, 1, ns.SIPHexadecimal, 8), le(0xdeadbeef, 8), Options{}, "0x00000000deadbeef", 0},
		{"DCI4-INT-2 int32 dotted BE", desc(ns.STInteger32, 3, ns.SIPDotted, 4), []byte{0xc0, 0xa8, 0, 1}, Options{}, "192.168.0.1", 0},
		{"DCI4-INT-2 int32 dotted LE", desc(ns.STInteger32, 1, ns.SIPDotted, 4), []byte{1, 0, 0xa8, 0xc0}, Options{}, "192.168.0.1", 0},
		{"DCI4-INT-2 int16 0x0102 dotted", desc(ns.STInteger16, 1, ns.SIPDotted, 4), le(0x0102, 4), Options{}, "1.2", 0},
		{"DCI4-INT-2 int32 12345 decimal", desc(ns.STInteger32, 0, ns.SIPDecimal, 4), le(12345, 4), Options{}, "12345", 0},
		{"DCI4-UNK-1 int32 pres 5", desc(ns.STInteger32, 0, 5, 4), le(12345, 4), Options{}, "12345 (pres 5?)", IssueUnknownPresentation},
		{"DCI4-DESC-2 int8 in a 4-byte slot", desc(ns.STInteger8, 1, ns.SIPDecimal, 4), []byte{5, 0xff, 0xff, 0xff}, Options{}, "5", 0},
		{"DCI4-DESC-2 size 6 non-conforming", desc(ns.STInteger32, 0, ns.SIPDecimal, 6), le(7, 6), Options{}, "7 (size 6?)", IssueSizeNotAligned},
		{"DCI4-DESC-2 int64 size 4 too small", desc(ns.STInteger64, 0, ns.SIPDecimal, 4), le(7, 4), Options{}, "(size 4 too small?)", IssueSizeTooSmall},
		{"DCI4-RD-4 short read", desc(ns.STInteger64, 0, ns.SIPDecimal, 8), []byte{1, 2, 3}, Options{}, "(short read 3 of 8 bytes?)", IssueShortRead},

		// DCI4-ADDR-1 (AMB-5).
		{"DCI4-ADDR-1 ethernet", desc(ns.STAddress, ns.SAFEthernet, ns.SAPNormal, 8), []byte{0x00, 0x1a, 0x2b, 0x3c, 0x4d, 0x5e, 0, 0}, Options{}, "00:1a:2b:3c:4d:5e", 0},
		{"DCI4-ADDR-1 ip", desc(ns.STAddress, ns.SAFIP, ns.SAPNormal, 4), []byte{0xc0, 0xa8, 0x00, 0x01}, Options{}, "192.168.0.1", 0},
		{"DCI4-ADDR-1 econet", desc(ns.STAddress, ns.SAFEconet, ns.SAPNormal, 4), []byte{0x01, 0xfe, 0, 0}, Options{}, "1.254", 0},
		{"AMB-13 address format 3", desc(ns.STAddress, 3, ns.SAPNormal, 4), []byte{1, 2, 3, 4}, Options{}, "01 02 03 04 (format 3?)", IssueUnknownFormat},
		{"AMB-13 address pres 1", desc(ns.STAddress, ns.SAFIP, 1, 4), []byte{10, 0, 0, 1}, Options{}, "10.0.0.1 (pres 1?)", IssueUnknownPresentation},
		{"DCI4-DESC-2 ethernet size 4", desc(ns.STAddress, ns.SAFEthernet, ns.SAPNormal, 4), []byte{1, 2, 3, 4}, Options{}, "(size 4 too small?)", IssueSizeTooSmall},

		// DCI4-TIME-1 / DCI4-TIME-2 (AMB-3, AMB-4, AMB-7; absolute times carry the zone).
		{"DCI4-TIME-2 5byte 0 absolute", desc(ns.STTime, ns.STF5Byte, ns.STPAbsolute, 8), le(0, 8), Options{}, "1900-01-01 00:00:00.00 UTC", 0},
		{"DCI4-TIME-2 5byte top 3 bytes ignored", desc(ns.STTime, ns.STF5Byte, ns.STPAbsolute, 8), []byte{0, 0, 0, 0, 0, 0xff, 0xff, 0xff}, Options{}, "1900-01-01 00:00:00.00 UTC", 0},
		{"DCI4-TIME-1 5byte 1970", desc(ns.STTime, ns.STF5Byte, ns.STPAbsolute, 8), le(2208988800*100+25, 8), Options{}, "1970-01-01 00:00:00.25 UTC", 0},
		{"DCI4-TIME-1 5byte relative", desc(ns.STTime, ns.STF5Byte, ns.STPRelative, 8), le(12345, 8), Options{}, "123.45 seconds", 0},
		{"DCI4-TIME-2 ctime 0 absolute", desc(ns.STTime, ns.STFCTime, ns.STPAbsolute, 8), le(0, 8), Options{}, "1970-01-01 00:00:00 UTC", 0},
		{"DCI-TYPE-4 ctime 1700000000", desc(ns.STTime, ns.STFCTime, ns.STPAbsolute, 8), le(1700000000, 8), Options{}, "2023-11-14 22:13:20 UTC", 0},
		{"AMB-7 ctime in another zone", desc(ns.STTime, ns.STFCTime, ns.STPAbsolute, 8), le(1700000000, 8), Options{Location: time.FixedZone("CET", 3600)}, "2023-11-14 23:13:20 CET", 0},
		{"DCI4-TIME-1 ctime 32-bit negative", desc(ns.STTime, ns.STFCTime, ns.STPAbsolute, 4), le(0xffffffff, 4), Options{}, "1969-12-31 23:59:59 UTC", 0},
		{"DCI4-TIME-2 ctime 90 relative", desc(ns.STTime, ns.STFCTime, ns.STPRelative, 8), le(90, 8), Options{}, "90 seconds", 0},
		{"AMB-15 ctime 1 relative", desc(ns.STTime, ns.STFCTime, ns.STPRelative, 8), le(1, 8), Options{}, "1 second", 0},
		{"DCI4-TIME-2 monotonic 250 relative", desc(ns.STTime, ns.STFMonotonic, ns.STPRelative, 8), le(250, 8), Options{}, "2.50 seconds", 0},
		{"DCI4-TIME-2 monotonic 250 absolute", desc(ns.STTime, ns.STFMonotonic, ns.STPAbsolute, 8), le(250, 8), Options{Boot: boot}, "2023-11-14 22:13:22.50 UTC", 0},
		{"DCI4-TIME-2 monotonic absolute, boot unknown", desc(ns.STTime, ns.STFMonotonic, ns.STPAbsolute, 8), le(250, 8), Options{}, "2.50 seconds after boot", IssueBootUnknown},
		{"DCI4-TIME-1 monotonic 32-bit", desc(ns.STTime, ns.STFMonotonic, ns.STPRelative, 4), le(0xffffffff, 4), Options{}, "42949672.95 seconds", 0},
		{"AMB-15 humanised ctime", desc(ns.STTime, ns.STFCTime, ns.STPRelative, 8), le(3723, 8), Options{Humanize: true}, "3723 seconds (1h 2m)", 0},
		{"AMB-15 humanised 90 s", desc(ns.STTime, ns.STFCTime, ns.STPRelative, 8), le(90, 8), Options{Humanize: true}, "90 seconds (1m 30s)", 0},
		{"AMB-15 humanised days", desc(ns.STTime, ns.STFMonotonic, ns.STPRelative, 8), le(90061*100, 8), Options{Humanize: true}, "90061.00 seconds (1d 1h)", 0},
		{"AMB-15 humanised hour exactly", desc(ns.STTime, ns.STFCTime, ns.STPRelative, 8), le(3600, 8), Options{Humanize: true}, "3600 seconds (1h)", 0},
		{"AMB-15 humanised negative", desc(ns.STTime, ns.STFCTime, ns.STPRelative, 8), le(uint64(1<<64-90), 8), Options{Humanize: true}, "-90 seconds (-1m 30s)", 0},
		{"AMB-15 not humanised under a minute", desc(ns.STTime, ns.STFMonotonic, ns.STPRelative, 8), le(250, 8), Options{Humanize: true}, "2.50 seconds", 0},
		{"AMB-13 time format 3", desc(ns.STTime, 3, 0, 4), le(1, 4), Options{}, "01 00 00 00 (format 3?)", IssueUnknownFormat},
		{"AMB-13 time pres 2", desc(ns.STTime, ns.STFCTime, 2, 8), le(0, 8), Options{}, "1970-01-01 00:00:00 UTC (pres 2?)", IssueUnknownPresentation},
		{"AMB-13 ctime beyond 9999", desc(ns.STTime, ns.STFCTime, ns.STPAbsolute, 8), le(1<<62, 8), Options{}, "4611686018427387904 (out of range?)", IssueOutOfRange},
		{"DCI4-DESC-2 5byte size 4", desc(ns.STTime, ns.STF5Byte, ns.STPAbsolute, 4), le(0, 4), Options{}, "(size 4 too small?)", IssueSizeTooSmall},

		// DCI4-TYPE-5 / AMB-13: unknown types; DCI4-SUP-11: interface gating.
		{"DCI4-TYPE-5 unknown type 9", desc(9, 0, 0, 4), []byte{0xde, 0xad, 0xbe, 0xef}, Options{}, "de ad be ef (unknown type 9?)", IssueUnknownType},
		{"DCI4-TYPE-5 unknown type size 0", desc(9, 0, 0, 0), nil, Options{}, "(unknown type 9?)", IssueUnknownType},
		{"DCI4-SUP-11 address on interface 1.00", desc(ns.STAddress, ns.SAFIP, 0, 4), []byte{192, 168, 0, 1}, Options{Interface: 100},
			"c0 a8 00 01 (type not supported by interface 1.00?)", IssueInterface},
		{"DCI4-SUP-11 address on interface 1.01", desc(ns.STAddress, ns.SAFIP, 0, 4), []byte{192, 168, 0, 1}, Options{Interface: 101}, "192.168.0.1", 0},
		{"DCI4-SUP-11 integer on interface 1.00", desc(ns.STInteger32, 0, ns.SIPDecimal, 4), le(7, 4), Options{Interface: 100}, "7", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := RenderDCI4(c.d, c.raw, c.opt)
			if r.Text != c.want || r.Issues != c.issues {
				t.Fatalf("RenderDCI4(%+v, % x) = %q issues %b, want %q issues %b", c.d, c.raw, r.Text, r.Issues, c.want, c.issues)
			}
			if (r.Issues != 0) != (len(r.Notes) > 0) {
				t.Errorf("issues %b but notes %q", r.Issues, r.Notes)
			}
			if r.NonConforming() != (c.issues&Conformance != 0) {
				t.Errorf("NonConforming = %v", r.NonConforming())
			}
			opt := c.opt
			b, is := AppendDCI4([]byte("x"), c.d, c.raw, &opt)
			if string(b) != "x"+c.want || is != c.issues {
				t.Errorf("AppendDCI4 = %q %b", b, is)
			}
		})
	}
}

// DCI4-TYPE-0: an ST_UNUSED statistic renders to nothing (AMB-14).
func TestUnusedRendersNothing(t *testing.T) {
	r := RenderDCI4(ns.DCI4Desc{Type: ns.STUnused, Format: 99, Presentation: 99}, []byte{1, 2}, Options{})
	if !r.Skip || r.Text != "" || r.Issues != 0 {
		t.Fatalf("DCI4-TYPE-0: unused rendered as %+v", r)
	}
	if b, _ := AppendDCI4(nil, ns.DCI4Desc{}, nil, &Options{}); len(b) != 0 {
		t.Fatalf("DCI4-TYPE-0: AppendDCI4 of unused appended %q", b)
	}
}

func TestRenderNotes(t *testing.T) {
	r := RenderDCI4(desc(ns.STInteger16, 4, 9, 6), le(1, 6), Options{})
	want := []string{
		"size 6 is not a multiple of 4 (DCI4-DESC-2)",
		"presentation 9 is not defined for ST_INTEGER16 (AMB-13)",
		"format 0x4 sets reserved bits; decoded with bits 0-1 only (DCI4-INT-1)",
	}
	if !reflect.DeepEqual(r.Notes, want) {
		t.Fatalf("notes = %q, want %q", r.Notes, want)
	}
	if r.Text != "1 (pres 9?) (format 0x4?) (size 6?)" {
		t.Fatalf("text = %q", r.Text)
	}
}

func TestCheckDCI4(t *testing.T) {
	cases := []struct {
		name string
		d    ns.DCI4Desc
		iv   uint32
		want []string
	}{
		{"DCI4-DESC-1 conforming", desc(ns.STInteger64, 1, 1, 8), 101, nil},
		{"DCI4-DESC-4 name_tag and spare", ns.DCI4Desc{Type: ns.STBoolean, Size: 4, NameTag: 3, Spare: 1}, 0,
			[]string{"name_tag is 3, must be 0 (DCI4-DESC-4)", "spare is 1, must be 0 (DCI4-DESC-4)"}},
		{"DCI4-DESC-2 size 6", desc(ns.STInteger32, 0, 1, 6), 0, []string{"size 6 is not a multiple of 4 (DCI4-DESC-2)"}},
		{"DCI4-DESC-2 too small", desc(ns.STInteger64, 0, 1, 4), 0, []string{"size 4 cannot hold a 8-byte value (DCI4-DESC-2)"}},
		{"DCI4-SUP-11 time on 1.00", desc(ns.STTime, 0, 0, 8), 100, []string{"ST_TIME is not supported by interface 1.00 (DCI4-SUP-11)"}},
		{"AMB-13 unknown type", desc(12, 0, 0, 4), 0, []string{"unknown type 12 (AMB-13)"}},
		{"AMB-13 unknown format and presentation", desc(ns.STAddress, 5, 2, 8), 0,
			[]string{"format 5 is not defined for ST_ADDRESS (AMB-13)", "presentation 2 is not defined for ST_ADDRESS (AMB-13)"}},
		{"DCI4-INT-1 reserved bits", desc(ns.STInteger8, 5, 1, 4), 0, []string{"format 0x5 sets reserved bits (DCI4-INT-1)"}},
		{"AMB-14 unused with a size", ns.DCI4Desc{Type: ns.STUnused, Size: 4}, 0, []string{"ST_UNUSED occupies no bytes but size is 4 (AMB-14)"}},
		{"DCI4-DESC-3 unknown volatility", ns.DCI4Desc{Type: ns.STString, Size: 4, Volatility: 7}, 0, []string{"unknown volatility 7 (AMB-13)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := CheckDCI4(c.d, c.iv); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("CheckDCI4 = %q, want %q", got, c.want)
			}
		})
	}
}

func TestSafe(t *testing.T) {
	cases := []struct{ in, want string }{
		{"sda", "sda"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"tab\there\nnl\x7f", `tab\x09here\x0anl\x7f`},
		{"bidi\u202eevil", `bidi\u202eevil`},
		{"line\u2028sep", `line\u2028sep`},
		{"bad\xc3", `bad\xc3`},
		{"ok µ — ✓", "ok µ — ✓"},
	}
	for _, c := range cases {
		if got := Safe(c.in); got != c.want {
			t.Errorf("DCI4-STR-1: Safe(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// AMB-7: the local zone is shown by name.
func TestAbsoluteTimeZone(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	r := RenderDCI4(desc(ns.STTime, ns.STFCTime, ns.STPAbsolute, 8), le(1700000000, 8), Options{Location: ny})
	if r.Text != "2023-11-14 17:13:20 EST" {
		t.Fatalf("AMB-7: %q", r.Text)
	}
	if !strings.HasSuffix(LayoutSeconds, "MST") {
		t.Fatal("layout must show the zone")
	}
}

func TestIssueString(t *testing.T) {
	if got := (IssueUnknownType | IssueEscaped | 1<<15).String(); got != "unknown type|escaped|0x8000" {
		t.Fatalf("Issue.String = %q", got)
	}
	if Issue(0).String() != "none" {
		t.Fatal("zero issue")
	}
}
