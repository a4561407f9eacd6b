package namespace

import (
	"errors"
	"strings"
	"testing"
)

func TestClassIDParseFormat(t *testing.T) {
	tests := []struct {
		name, in, want string
		query, bad     bool
	}{
		{"DCI-NS-2 five levels", "1.2.3.4.5", "1.2.3.4.5", false, false},
		{"DCI-NS-2 one level", "7", "7", false, false},
		{"DCI-WC-1 star is DCI_ALL", "1.*", "1.*", true, false},
		{"DCI-WC-1 numeric DCI_ALL", "1.4294967295", "1.*", true, false},
		{"empty", "", "", false, true},
		{"empty level", "1..2", "", false, true},
		{"negative", "1.-2", "", false, true},
		{"too big", "4294967296", "", false, true},
		{"not a number", "cpu", "", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := ParseClassID(tt.in)
			if tt.bad {
				if err == nil || !errors.Is(err, ErrBadID) {
					t.Fatalf("ParseClassID(%q) = %v, %v; want ErrBadID", tt.in, id, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := id.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			if id.IsQuery() != tt.query {
				t.Errorf("IsQuery() = %v, want %v", id.IsQuery(), tt.query)
			}
		})
	}
}

func TestClassIDMatches(t *testing.T) {
	q, _ := ParseClassID("1.*")
	for _, tt := range []struct {
		id   ClassID
		want bool
	}{{ClassID{1, 1}, true}, {ClassID{1, 2}, true}, {ClassID{2, 1}, false}, {ClassID{1}, false}, {ClassID{1, 2, 3}, false}} {
		if got := tt.id.Matches(q); got != tt.want { // DCI-WC-1
			t.Errorf("%s matches 1.*: %v, want %v", tt.id, got, tt.want)
		}
	}
}

func TestDatumIDDerivedLayout(t *testing.T) {
	// DCI-DER-1: 0x01020305 → arg1 0x01, arg2 0x02, arg3 0x03, id 0x05.
	d := DatumID(0x01020305)
	a1, a2, a3 := d.Args()
	if a1 != 1 || a2 != 2 || a3 != 3 || d.Low() != 5 {
		t.Fatalf("decode 0x01020305 = %d %d %d %d", a1, a2, a3, d.Low())
	}
	if Derive(1, 2, 3, 5) != d {
		t.Fatalf("Derive(1,2,3,5) = %#x", uint32(Derive(1, 2, 3, 5)))
	}
}

func TestDatumIDNames(t *testing.T) {
	tests := []struct {
		id   DatumID
		want string
	}{
		{InvalidDatumID, "0xff DCI_INVALIDDATUMID"}, // DCI-NS-7: symbolic, not a bare number
		{FinalDataEvent, "0xf8 DCI_FINALDATA_EVENT"},
		{InstanceAddedEvt, "0xf7 DCI_INSTANCEADDED"},
		{InstanceRemovedEvt, "0xf6 DCI_INSTANCEREMOVED"},
		{DataChangedEvt, "0xf5 DCI_DATACHANGED"},
		{0xe9, "0xe9 vendor"},
		{AllData, "*"},
		{4, "4"},
		{Derive(1, 2, 0, 6), "0x01020006"},
	}
	for _, tt := range tests {
		if got := tt.id.String(); got != tt.want {
			t.Errorf("%#x: %q, want %q", uint32(tt.id), got, tt.want)
		}
	}
	if id, err := ParseDatumID("0xff"); err != nil || id != InvalidDatumID {
		t.Errorf("ParseDatumID(0xff) = %v, %v", id, err)
	}
	if id, err := ParseDatumID("*"); err != nil || id != AllData {
		t.Errorf("ParseDatumID(*) = %v, %v", id, err)
	}
	if _, err := ParseDatumID("x"); err == nil {
		t.Error("ParseDatumID(x) accepted")
	}
}

func TestEventOpenID(t *testing.T) {
	// DCI-EVT-1: 0x801005F7 → flags 0x801, event 0x005, datum 0xf7.
	f, e, d := EventOpenID(0x801005F7)
	if f != 0x801 || e != 0x005 || d != InstanceAddedEvt {
		t.Fatalf("got flags %#x event %#x datum %v", f, e, d)
	}
}

func TestInstanceMasks(t *testing.T) {
	// DCI-WC-2: a 2-level class with instances (0,1), (1,1), (1,2).
	insts := [][]uint64{{0, 1}, {1, 1}, {1, 2}}
	tests := []struct {
		name string
		q    InstanceID
		want []int
	}{
		{"DCI-WC-2 mask 0b01 data [1]", InstanceID{Mask: 0b01, Values: []uint64{1}}, []int{1, 2}},
		{"DCI-WC-2 mask 0b10 data [1]", InstanceID{Mask: 0b10, Values: []uint64{1}}, []int{0, 1}},
		{"DCI-WC-2 mask 0b11 data [1,2]", InstanceID{Mask: 0b11, Values: []uint64{1, 2}}, []int{2}},
		{"DCI-WC-3 all instances", InstanceID{Mask: AllInstances}, []int{0, 1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []int
			for i, l := range insts {
				if tt.q.Matches(l) {
					got = append(got, i)
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("got %v, want %v", got, tt.want)
				}
			}
		})
	}
	if s := (InstanceID{Mask: 0b10, Values: []uint64{1}}).String(); s != "*.1" {
		t.Errorf("String = %q", s)
	}
	if s := Inst(8, 0).String(); s != "8.0" {
		t.Errorf("String = %q", s)
	}
}

func TestOutputMask(t *testing.T) {
	// DCI-WC-4: mask 0 → DCI_INVALIDARG; 0b01 keeps level 0 only.
	if _, err := OutputLevels([]uint64{3, 4}, 0); err == nil || err.(*Error).Status != StatusInvalidArg {
		t.Fatalf("mask 0: %v", err)
	}
	id, err := OutputLevels([]uint64{3, 4}, 0b01)
	if err != nil || id.Mask != 1 || len(id.Values) != 1 || id.Values[0] != 3 {
		t.Fatalf("mask 0b01: %+v %v", id, err)
	}
	id, _ = OutputLevels([]uint64{3, 4}, All)
	if len(id.Values) != 2 {
		t.Fatalf("mask all: %+v", id)
	}
}

func TestLabels(t *testing.T) {
	tests := []struct {
		name, in, sanitized string
		valid               bool
	}{
		{"DCI-LBL-4 VLAN", "eth0.100", "eth0_100", false},
		{"DCI-LBL-4 alias", "eth0:1", "eth0_1", false},
		{"DCI-LBL-4 dm", "dm-0", "dm-0", true},
		{"DCI-LBL-4 space allowed", "Fake counter value", "Fake counter value", true},
		{"DCI-LBL-4 tab", "a\tb", "a_b", false},
		{"DCI-LBL-4 percent AMB-25", "%free", "pct_free", false},
		{"DCI-LBL-4 backtick AMB-24", "a`b", "a_b", false},
		{"DCI-LBL-4 quote", "a'b", "a_b", false},
		{"DCI-LBL-4 comma", "a,b", "a_b", false},
		{"DCI-LBL-4 brackets", "a[b]{c}(d)", "a_b__c__d_", false},
		{"DCI-LBL-2 empty is valid", "", "", true},
		{"escape sequence", "\x1b[31mred", "__31mred", false},
		{"invalid utf8", "a\xffb", "a_b", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := ValidateLabel(tt.in); (err == nil) != tt.valid {
				t.Errorf("ValidateLabel(%q) = %v, want valid=%v", tt.in, err, tt.valid)
			}
			got := SanitizeLabel(tt.in)
			if got != tt.sanitized {
				t.Errorf("SanitizeLabel(%q) = %q, want %q", tt.in, got, tt.sanitized)
			}
			if err := ValidateLabel(got); err != nil {
				t.Errorf("sanitised label invalid: %v", err)
			}
		})
	}
}

func TestNames(t *testing.T) {
	// SPMI-HIER-3: 31 visible characters for names, 63 for descriptions.
	if err := ValidateName(strings.Repeat("a", 31)); err != nil {
		t.Error(err)
	}
	if err := ValidateName(strings.Repeat("a", 40)); err == nil {
		t.Error("40-char name accepted")
	}
	if err := ValidateDescription(strings.Repeat("d", 63)); err != nil {
		t.Error(err)
	}
	if err := ValidateDescription(strings.Repeat("d", 64)); err == nil {
		t.Error("64-char description accepted")
	}
	for _, bad := range []string{"", "a/b", "a\x1bb", "\xff", ".", ".."} {
		if err := ValidateName(bad); err == nil {
			t.Errorf("ValidateName(%q) accepted", bad)
		}
	}
	if err := ValidateName("%free"); err != nil { // AMB-25: SPMI names keep %
		t.Error(err)
	}
}

func TestInstanceName(t *testing.T) {
	long1 := "luks-0123456789abcdef0123456789abcdef-a"
	long2 := "luks-0123456789abcdef0123456789abcdef-b"
	tests := []struct{ in, want string }{
		{"sda", "sda"},
		{"eth0.100", "eth0.100"}, // AMB-25: SPMI names keep the real name
		{"eth0:1", "eth0:1"},
		{"my disk", "my disk"},
		{"\x1b[31mevil", `\x1b[31mevil`},
		{"a/b", `a\x2fb`},
		{"a\xffb", `a\xffb`},
		{"tab\there", `tab\x09here`},
		{"", `\x00`},
		{"..", `\x2e\x2e`},
		{"ab\u202edc", `ab\u202edc`}, // issue 21: one rule in paths and descriptions
		{`a\b`, `a\\b`},              // a backslash is doubled, as EscapeName does
		{"\u009b2J", `\u009b2J`},     // the 8-bit CSI
	}
	for _, tt := range tests {
		if got := InstanceName(tt.in); got != tt.want {
			t.Errorf("InstanceName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// SPMI-HIER-3: long names shortened deterministically, unique, ≤ 31 bytes.
	a, b := InstanceName(long1), InstanceName(long2)
	if len(a) > 31 || len(b) > 31 || a == b || a != InstanceName(long1) {
		t.Errorf("long names: %q %q", a, b)
	}
	for _, n := range []string{a, b} {
		if err := ValidateName(n); err != nil {
			t.Error(err)
		}
	}
}

func FuzzParseClassID(f *testing.F) {
	for _, s := range []string{"1", "1.2.3", "1.*", "4294967295", "", "..", "1.-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ParseClassID(s)
		if err != nil {
			return
		}
		back, err := ParseClassID(id.String())
		if err != nil || !back.Equal(id) {
			t.Fatalf("round trip %q → %q → %v %v", s, id.String(), back, err)
		}
	})
}

func FuzzLabel(f *testing.F) {
	for _, s := range []string{"eth0.100", "%free", "a\tb", "\x1b[1m", "\xff\xfe", "ok"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if err := ValidateLabel(SanitizeLabel(s)); err != nil {
			t.Fatalf("SanitizeLabel(%q) = %q is invalid: %v", s, SanitizeLabel(s), err)
		}
		n := InstanceName(s)
		if err := ValidateName(n); err != nil {
			t.Fatalf("InstanceName(%q) = %q is invalid: %v", s, n, err)
		}
	})
}

func FuzzDerivedID(f *testing.F) {
	f.Add(uint32(0x01020305))
	f.Add(uint32(0xffffffff))
	f.Fuzz(func(t *testing.T, v uint32) {
		d := DatumID(v)
		a1, a2, a3 := d.Args()
		if Derive(a1, a2, a3, d.Low()) != d {
			t.Fatalf("%#x does not round-trip", v)
		}
		_ = d.String()
	})
}

func TestCheckTime(t *testing.T) {
	// DCI-TYPE-4: TimeSpec{1700000000, 0} valid; {5, 1000000000} malformed; TimeVal{-1, 0}
	// malformed; TimeVal{0, 999999} valid.
	for _, tt := range []struct {
		ty        DataType
		sec, frac int64
		ok        bool
	}{
		{TypeTimespec, 1700000000, 0, true},
		{TypeTimespec, 5, 1000000000, false},
		{TypeTimeval, -1, 0, false},
		{TypeTimeval, 0, 999999, true},
		{TypeTimeval, 0, 1000000, false},
		{TypeTimeval, 0, -1, false},
		{TypeUint8, 0, 0, false},
	} {
		if err := CheckTime(tt.ty, tt.sec, tt.frac); (err == nil) != tt.ok {
			t.Errorf("%v{%d,%d}: %v", tt.ty, tt.sec, tt.frac, err)
		}
	}
}
