package namespace

import (
	"strings"
	"testing"
	"time"
)

func fieldsOf(secs []Section) map[string]string {
	m := map[string]string{}
	for _, s := range secs {
		for _, f := range s.Fields {
			m[s.Title+"/"+f.Key] = f.Value
		}
	}
	return m
}

func TestDescribeDatum(t *testing.T) {
	// DCI-NS-1, DCI-DATA-1, SPMI-HIER-5, SPMI-ASN-1, DCI4-DESC-1, PCPD-1, X-1.
	r := testRegistry(t, 2)
	ref, err := r.Lookup(nil, "CPU/cpu0/idle")
	if err != nil {
		t.Fatal(err)
	}
	m := fieldsOf(r.Describe(ref))
	want := map[string]string{
		"SPMI statistic/path":            "CPU/cpu0/idle",
		"SPMI statistic/asn":             "1.1.4",
		"SPMI statistic/value type":      "SiCounter",
		"DCI datum/class id":             "1.2",
		"DCI datum/instance id":          "0 (cpu0)",
		"DCI datum/datum id":             "4",
		"DCI datum/type":                 "UMA_UINT8 (8 bytes)",
		"DCI datum/units":                "UMA_MILLISECS (milliseconds)",
		"DCI datum/flags":                "DCI_QUERYABLE",
		"DCI datum/label":                "idle",
		"DCI4 description/type":          "ST_INTEGER64",
		"DCI4 description/format":        "SIF_UNSIGNED|little-endian",
		"DCI4 description/volatility":    "SV_VOLATILE",
		"PCP descriptor/type":            "PM_TYPE_U64",
		"PCP descriptor/semantics":       "PM_SEM_COUNTER",
		"PCP descriptor/pmid":            "510.34.4", // as `dcimon metrics` exports it (issue 39 item 8)
		"PCP descriptor/instance domain": "510.34",
	}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %q, want %q", k, m[k], v)
		}
	}
	if !strings.HasPrefix(m["PCP descriptor/units"], "millisec (Time)") {
		t.Errorf("units %q", m["PCP descriptor/units"])
	}
	// DCI-DER-3: derived rows show their relationship by argument names.
	ref, _ = r.Lookup(nil, "CPU/cpu0/%busy")
	m = fieldsOf(r.Describe(ref))
	if m["DCI datum/derived"] != "PERCENT(busy, idle) = arg1 / (arg1 + arg2)" {
		t.Errorf("derived %q", m["DCI datum/derived"])
	}
}

func TestDescribeContext(t *testing.T) {
	// SPMI-HIER-4, DCI-CLS-1, DCI-NS-10, PCPD-16.
	r := testRegistry(t, 2)
	ref, _ := r.Lookup(nil, "CPU")
	m := fieldsOf(r.Describe(ref))
	for k, v := range map[string]string{
		"SPMI context/name":                                "CPU",
		"SPMI context/parent":                              "Top",
		"SPMI context/inst_freq":                           "SiCfgInst",
		"SPMI context/asn":                                 "1",
		"SPMI context/deleted":                             "no",
		"DCI class/class id":                               "1",
		"DCI class of the statistics/PCP instance domain":  "PM_INDOM_NULL (single instance)",
		"DCI class of the subcontexts/instance level 0":    "UMA_UINT4, itype UMA_PROCESSOR (processor number), 4 bytes",
		"DCI class of the subcontexts/PCP instance domain": "1.2",
	} {
		if m[k] != v {
			t.Errorf("%s = %q, want %q", k, m[k], v)
		}
	}
	ref, _ = r.Lookup(nil, "CPU/cpu1")
	m = fieldsOf(r.Describe(ref))
	if m["DCI instance/instance id"] != "1" || m["DCI instance/label"] != "cpu1" || m["SPMI context/asn"] != "1.2" {
		t.Errorf("cpu1: %v", m)
	}
}

// DCI-LBL-1: a label's i18n part is opaque: describe gives the ascii text and the i18n size only.
// DCI-DATA-2: a datum without DCI_QUERYABLE is never given a value: it reads "not queryable".
func TestDescribeLabelAndQueryable(t *testing.T) {
	r := NewRegistry()
	hidden := Gauge(2, "secret", TypeUint4, UnitCount, "Not for reading", "t")
	hidden.Flags = DatumSettable
	c := &Class{ID: ClassID{8}, Name: "Lab", Flags: ClassEnabled, Label: Label{ASCII: "lab", I18N: make([]byte, 12)},
		Levels: []InstLevel{{Type: TypeUint4, Tag: TagSingleInst, Size: 4}},
		Datums: []Datum{Gauge(1, "level", TypeUint4, UnitCount, "A level", "t"), hidden}}
	if err := r.RegisterClass(c); err != nil {
		t.Fatal(err)
	}
	ref, err := r.Lookup(nil, "Lab")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range r.Describe(ref) {
		for _, f := range s.Fields {
			found = found || (f.Key == "label" && strings.Contains(f.Value, "lab") && strings.Contains(f.Value, "i18n: 12 bytes"))
		}
	}
	if !found {
		t.Fatalf("the label's i18n part is not shown as opaque: %+v", r.Describe(ref))
	}
	insts, _, err := r.Sync(c, []InstanceSpec{{Levels: []uint64{0}}}, time.Unix(0, 0), nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1, 0)
	snap := Next(nil, &Sample{Start: now, End: now, Classes: []ClassSample{{Class: c, Time: now, Insts: insts, Raw: []Raw{{N: 5}, {N: 7}}}}}, nil)
	if v, _ := snap.Class(c).Value(insts[0], 1); v.State != Unavailable || v.Reason != ReasonNotQueryable {
		t.Fatalf("a datum without DCI_QUERYABLE has a value: %+v", v)
	}
	if v, _ := snap.Class(c).Value(insts[0], 0); v.State != Valid || v.N != 5 {
		t.Fatalf("the queryable datum: %+v", v)
	}
}

// DCI-MTH-2: describe of a datum lists the operations it supports: GETDATA for a queryable one.
// PCPD-4: narrow integers are promoted: a 4-byte signed datum is PM_TYPE_32, a boolean PM_TYPE_U32.
func TestDescribeOperationsAndPCPTypes(t *testing.T) {
	r := NewRegistry()
	c := &Class{ID: ClassID{8}, Name: "Ops", Flags: ClassEnabled,
		Levels: []InstLevel{{Type: TypeUint4, Tag: TagSingleInst, Size: 4}},
		Datums: []Datum{Gauge(1, "level", TypeInt4, UnitCount, "A level", "t"), Gauge(2, "on", TypeBoolean, UnitNone, "A flag", "t")}}
	if err := r.RegisterClass(c); err != nil {
		t.Fatal(err)
	}
	if c.Datums[0].PCP.Type != PMType32 || c.Datums[1].PCP.Type != PMTypeU32 {
		t.Fatalf("PCP types %v %v", c.Datums[0].PCP.Type, c.Datums[1].PCP.Type)
	}
	ref, err := r.Lookup(nil, "Ops/level")
	if err != nil {
		t.Fatal(err)
	}
	ops := ""
	for _, s := range r.Describe(ref) {
		for _, f := range s.Fields {
			if f.Key == "operations" {
				ops = f.Value
			}
		}
	}
	if ops != "DCI_OP_GETDATA (read-only monitor)" {
		t.Fatalf("operations %q", ops)
	}
}
