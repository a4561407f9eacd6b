package namespace

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func siOf(err error) SiErr {
	var e *Error
	if errors.As(err, &e) {
		return e.Si
	}
	return -1
}

func statusOf(err error) Status {
	var e *Error
	if errors.As(err, &e) {
		return e.Status
	}
	return 999
}

func simpleClass(id ClassID, datums ...Datum) *Class {
	if len(datums) == 0 {
		datums = []Datum{Counter(1, "x", TypeUint8, UnitCount, "x", "test")}
	}
	return &Class{ID: id, Name: fmt.Sprintf("c%s", strings.ReplaceAll(id.String(), ".", "_")), Flags: ClassEnabled,
		Levels: []InstLevel{{TypeUint4, TagDevice, 4}}, Datums: datums}
}

func TestRegisterClassRules(t *testing.T) {
	levels33 := make([]InstLevel, 33)
	for i := range levels33 {
		levels33[i] = InstLevel{TypeUint4, TagDevice, 4}
	}
	tests := []struct {
		name  string
		class func() *Class
		want  string // substring of the error; "" = accepted
	}{
		{"DCI-NS-2 five levels accepted", func() *Class { return &Class{ID: ClassID{9, 2, 3, 4, 5}, Name: "deep"} }, ""},
		{"DCI-NS-2 DCI_ALL rejected in a concrete id", func() *Class { return &Class{ID: ClassID{9, All}, Name: "q"} }, "DCI_ALL"},
		{"DCI-NS-3 subclass under instantiated", func() *Class { return simpleClass(ClassID{9, 2, 3, 4, 5, 1, 1}) }, "not registered"},
		{"DCI-NS-3 data on uninstantiated", func() *Class {
			return &Class{ID: ClassID{9, 7}, Name: "bad", Datums: []Datum{Counter(1, "x", TypeUint8, UnitCount, "", "")}}
		}, "positions only"},
		{"DCI-NS-5 33 levels", func() *Class { c := simpleClass(ClassID{9, 8}); c.Levels = levels33; return c }, "at most 32"},
		{"DCI-NS-5 level size 6", func() *Class {
			c := simpleClass(ClassID{9, 8})
			c.Levels = []InstLevel{{TypeUint4, TagDevice, 6}}
			return c
		}, "multiple of 4"},
		{"DCI-NS-6 datum 0", func() *Class { return simpleClass(ClassID{9, 8}, Counter(0, "z", TypeUint8, UnitCount, "", "")) }, "reserved delimiter"},
		{"DCI-NS-6 datum DCI_ALL", func() *Class {
			d := Counter(1, "z", TypeUint8, UnitCount, "", "")
			d.ID = AllData
			return simpleClass(ClassID{9, 8}, d)
		}, "wildcard"},
		{"DCI-NS-6 polled and event share id 7", func() *Class {
			c := simpleClass(ClassID{9, 8}, Counter(7, "z", TypeUint8, UnitCount, "", ""))
			c.Events = []EventAttr{{ID: 7}}
			return c
		}, "shares its id"},
		{"DCI-NS-7 reserved low byte 0xf6", func() *Class { return simpleClass(ClassID{9, 8}, Counter(0xf6, "z", TypeUint8, UnitCount, "", "")) }, "reserved low byte"},
		{"DCI-NS-7 reserved low byte 0x010203f7", func() *Class {
			d := Counter(1, "z", TypeUint8, UnitCount, "", "")
			d.ID = 0x010203f7
			return simpleClass(ClassID{9, 8}, d)
		}, "reserved low byte"},
		{"DCI-NS-6 duplicate low byte", func() *Class {
			return simpleClass(ClassID{9, 8}, Counter(1, "a", TypeUint8, UnitCount, "", ""), Gauge(1, "b", TypeUint8, UnitCount, "", ""))
		}, "repeats low byte"},
		{"DCI-CLS-3 provider instance without method", func() *Class {
			c := simpleClass(ClassID{9, 8})
			c.Flags |= ClassProviderInstance
			return c
		}, "needs a class method"},
		{"DCI-CLS-4 possible invalid without 0xff", func() *Class {
			c := simpleClass(ClassID{9, 8})
			c.Flags |= ClassPossibleInvalidData
			return c
		}, "DCI_INVALIDDATUMID"},
		{"DCI-MTH-1 unknown method", func() *Class { c := simpleClass(ClassID{9, 8}); c.Method = Method{Type: 9}; return c }, "unknown method"},
		{"DCI-MTH-3 STORE cannot list instances", func() *Class {
			c := simpleClass(ClassID{9, 8})
			c.Method = Method{Type: MethodStore, Ops: OpGetData | OpListInstances}
			return c
		}, "DCI_OP_LISTINSTANCES"},
		{"DCI-TYPE-1 counter must be an integer", func() *Class {
			return simpleClass(ClassID{9, 8}, Counter(1, "s", TypeTextString, UnitNone, "", ""))
		}, "must be an integer"},
		{"DCI-UNIT-7 derived needs a derived unit", func() *Class {
			d := Derived(2, "d", DerivedSum2, PMSemCounter, "", 1, 1)
			d.Units = UnitBytes
			return simpleClass(ClassID{9, 8}, Counter(1, "a", TypeUint8, UnitCount, "", ""), d)
		}, "UMA_DERIVED_"},
		{"DCI-DER-5 unresolvable argument", func() *Class {
			return simpleClass(ClassID{9, 8}, Counter(1, "a", TypeUint8, UnitCount, "", ""), Derived(2, "d", DerivedSum2, PMSemCounter, "", 1, 0x33))
		}, "invalid derivation"},
		{"DCI-DER-5 derived cycle", func() *Class {
			return simpleClass(ClassID{9, 8}, Derived(2, "d", DerivedSum2, PMSemCounter, "", 3, 3), Derived(3, "e", DerivedSum2, PMSemCounter, "", 2, 2))
		}, "depends on itself"},
		{"PCPD-2 PM_TYPE_UNKNOWN in a descriptor", func() *Class {
			d := Gauge(1, "u", TypeUint8, UnitCount, "", "")
			d.PCP.Type = PMTypeUnknown
			return simpleClass(ClassID{9, 8}, d)
		}, "PM_TYPE_UNKNOWN"},
		{"SPMI-VAL-2 SiDouble is not presented", func() *Class {
			d := Gauge(1, "u", TypeUint8, UnitCount, "", "")
			d.SiType = SiDouble
			return simpleClass(ClassID{9, 8}, d)
		}, "SiLong or SiFloat"},
		{"SPMI-HIER-3 40-char statistic name", func() *Class {
			return simpleClass(ClassID{9, 8}, Gauge(1, strings.Repeat("n", 40), TypeUint8, UnitCount, "", ""))
		}, "SI_MAXNAME"},
		{"SPMI-HIER-3 64-char description", func() *Class {
			return simpleClass(ClassID{9, 8}, Gauge(1, "n", TypeUint8, UnitCount, strings.Repeat("d", 64), ""))
		}, "SI_MAXLNAME"},
		{"SPMI-HIER-3 63-char description accepted", func() *Class {
			return simpleClass(ClassID{9, 9}, Gauge(1, "n", TypeUint8, UnitCount, strings.Repeat("d", 63), ""))
		}, ""},
		{"SPMI-HIER-10 duplicate statistic name", func() *Class {
			return simpleClass(ClassID{9, 8}, Gauge(1, "reads", TypeUint8, UnitCount, "", ""), Gauge(2, "reads", TypeUint8, UnitCount, "", ""))
		}, "two statistics named"},
		{"DCI4-DESC-2 size 6", func() *Class {
			d := Gauge(1, "n", TypeUint8, UnitCount, "", "")
			d.DCI4.Size = 6
			return simpleClass(ClassID{9, 8}, d)
		}, "multiple of 4"},
		{"DCI-UNIT-3 ticks need a rate", func() *Class {
			return simpleClass(ClassID{9, 8}, Counter(1, "t", TypeUint8, UnitTicks, "", ""))
		}, "tick rate"},
		{"SPMI-VAL-3 min above max", func() *Class {
			return simpleClass(ClassID{9, 8}, Gauge(1, "t", TypeUint8, UnitCount, "", "").WithScale(5, 1))
		}, "above max"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRegistry()
			if err := r.RegisterClass(&Class{ID: ClassID{9}, Name: "Test", Flags: ClassEnabled}); err != nil {
				t.Fatal(err)
			}
			if err := r.RegisterClass(&Class{ID: ClassID{9, 2}, Name: "T2", Flags: ClassEnabled}); err != nil {
				t.Fatal(err)
			}
			for _, id := range []ClassID{{9, 2, 3}, {9, 2, 3, 4}} {
				if err := r.RegisterClass(&Class{ID: id, Name: fmt.Sprintf("n%d", len(id))}); err != nil {
					t.Fatal(err)
				}
			}
			c := tt.class()
			err := r.RegisterClass(c)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("rejected: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			if r.Class(c.ID) != nil {
				t.Fatal("rejected class is registered") // DCI-NS-3: absent from the tree
			}
		})
	}
}

func TestSubclassUnderInstantiated(t *testing.T) {
	// DCI-NS-3: an instantiated class cannot have subclasses.
	r := testRegistry(t, 1)
	err := r.RegisterClass(simpleClass(ClassID{1, 2, 1}))
	if err == nil || !strings.Contains(err.Error(), "cannot have subclasses") {
		t.Fatalf("got %v", err)
	}
	if r.Class(ClassID{1, 2, 1}) != nil {
		t.Fatal("subclass registered")
	}
}

func TestSingleInstance(t *testing.T) {
	// DCI-NS-4: the totals class has exactly one instance, value 0, itype UMA_SINGLEINST.
	r := testRegistry(t, 4)
	c := r.Class(ClassID{1, 1})
	insts := r.Instances(c)
	if len(insts) != 1 || insts[0].Levels[0] != 0 || c.Levels[0].Tag != TagSingleInst {
		t.Fatalf("instances %v, tag %v", insts, c.Levels[0].Tag)
	}
	if c.Levels[0].Tag.String() != "UMA_SINGLEINST" {
		t.Fatal(c.Levels[0].Tag)
	}
	if _, _, err := r.AddInstance(c, InstanceSpec{Levels: []uint64{1}}, t0); err == nil {
		t.Fatal("second instance of a single-instance class accepted")
	}
}

func TestInstanceSize(t *testing.T) {
	// DCI-NS-5: processor UINT4 4 + device UINT8 8 = 12.
	c := &Class{Levels: []InstLevel{{TypeUint4, TagProcessor, 4}, {TypeUint8, TagDevice, 8}}}
	if c.InstanceSize() != 12 {
		t.Fatal(c.InstanceSize())
	}
}

func TestInstTagNames(t *testing.T) {
	// DCI-NS-10: all 32 names and comments resolve.
	seen := map[string]bool{}
	for tag := TagSingleInst; tag <= TagMemObjectID; tag++ {
		n := tag.String()
		if !strings.HasPrefix(n, "UMA_") || seen[n] || tag.Comment() == "unknown" {
			t.Errorf("tag %d: %q %q", tag, n, tag.Comment())
		}
		seen[n] = true
	}
	if len(seen) != 32 {
		t.Fatalf("%d tags", len(seen))
	}
	if TagDiskID.String() != "UMA_DISKID" || TagDiskID.Comment() != "disk device number" {
		t.Fatal(TagDiskID.String(), TagDiskID.Comment())
	}
}

func TestListClasses(t *testing.T) {
	// DCI-WC-1: 1.* lists every class under 1.
	r := testRegistry(t, 1)
	q, _ := ParseClassID("1.*")
	got := r.ListClasses(q)
	if len(got) != 2 || got[0].String() != "1.1" || got[1].String() != "1.2" {
		t.Fatalf("1.* → %v", got)
	}
	q, _ = ParseClassID("*.2")
	if got := r.ListClasses(q); len(got) != 3 {
		t.Fatalf("*.2 → %v", got)
	}
}

func TestListInstances(t *testing.T) {
	r := NewRegistry()
	if err := r.RegisterClass(&Class{ID: ClassID{5}, Name: "M", Flags: ClassEnabled}); err != nil {
		t.Fatal(err)
	}
	c := &Class{ID: ClassID{5, 1}, Name: "two", Flags: ClassEnabled,
		Levels: []InstLevel{{TypeUint4, TagProcessor, 4}, {TypeUint4, TagDiskID, 4}},
		Datums: []Datum{Gauge(1, "g", TypeUint8, UnitCount, "", "")}}
	if err := r.RegisterClass(c); err != nil {
		t.Fatal(err)
	}
	for _, l := range [][]uint64{{0, 1}, {1, 1}, {1, 2}} {
		if _, _, err := r.AddInstance(c, InstanceSpec{Levels: l, OSName: fmt.Sprintf("i%d_%d", l[0], l[1])}, t0); err != nil {
			t.Fatal(err)
		}
	}
	got, err := r.ListInstances(c, InstanceID{Mask: 0b01, Values: []uint64{1}}) // DCI-WC-2
	if err != nil || len(got) != 2 || got[0].Name != "i1_1" || got[1].Name != "i1_2" {
		t.Fatalf("got %v %v", got, err)
	}
	got, err = r.ListInstances(c, InstanceID{Mask: AllInstances}) // DCI-WC-3
	if err != nil || len(got) != 3 {
		t.Fatalf("all: %v %v", got, err)
	}
	_, err = r.ListInstances(c, InstanceID{Mask: 0b11, Values: []uint64{7, 7}}) // DCI-WC-5
	if statusOf(err) != StatusNoInstances {
		t.Fatalf("no match: %v", err)
	}
	if _, _, err := r.AddInstance(c, InstanceSpec{Levels: []uint64{0, 1}}, t0); statusOf(err) != StatusDuplicate {
		t.Fatalf("duplicate instance: %v", err)
	}
	if _, _, err := r.AddInstance(c, InstanceSpec{Levels: []uint64{0}}, t0); err == nil {
		t.Fatal("wrong level count accepted")
	}
}

func TestLookupPaths(t *testing.T) {
	r := testRegistry(t, 2)
	cpu, _ := r.Lookup(nil, "CPU")
	tests := []struct {
		name, path string
		from       *Context
		want       string
		si         SiErr
	}{
		{"SPMI-HIER-7 full path", "CPU/cpu0", nil, "CPU/cpu0", 0},
		{"SPMI-HIER-7 relative", "cpu0", cpu.Ctx, "CPU/cpu0", 0},
		{"SPMI-HIER-7 empty is Top", "", nil, "", 0},
		{"SPMI-HIER-7 absolute from elsewhere", "/CPU/cpu1", cpu.Ctx, "CPU/cpu1", 0},
		{"SPMI-HIER-7 unknown context", "Nope", nil, "", SiInvalidCx},
		{"SPMI-HIER-8 statistic", "CPU/cpu1/idle", nil, "CPU/cpu1/idle", 0},
		{"SPMI-HIER-8 relative statistic", "cpu1/idle", cpu.Ctx, "CPU/cpu1/idle", 0},
		{"AMB-51 totals statistic", "CPU/user", nil, "CPU/user", 0},
		{"AMB-44 unknown statistic", "CPU/cpu0/nosuch", nil, "", SiNotFound},
		{"AMB-44 unknown context mid-path", "CPU/cpu9/idle", nil, "", SiInvalidCx},
		{"X-7 percent name", "CPU/cpu0/%busy", nil, "CPU/cpu0/%busy", 0},
		{"X-7 sanitised label", "CPU/cpu0/pct_busy", nil, "CPU/cpu0/%busy", 0},
		{"trailing slash", "CPU/", nil, "CPU", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ref, err := r.Lookup(tt.from, tt.path)
			if tt.si != 0 {
				if siOf(err) != tt.si {
					t.Fatalf("error %v, want %v", err, tt.si)
				}
				if !strings.Contains(err.Error(), tt.si.String()) || !strings.Contains(err.Error(), "180") && tt.si == SiInvalidCx {
					t.Fatalf("message %q does not name the code", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := ref.Path(); got != tt.want {
				t.Fatalf("path %q, want %q", got, tt.want)
			}
		})
	}
}

func TestASN(t *testing.T) {
	r := testRegistry(t, 2)
	tests := []struct{ path, asn string }{
		{"CPU", "1"},        // SPMI-ASN-1
		{"CPU/cpu0", "1.1"}, // SPMI-ASN-5: OS index + 1
		{"CPU/cpu1", "1.2"}, // SPMI-ASN-5
		{"CPU/cpu0/idle", "1.1.4"},
		{"CPU/user", "1.65281"}, // totals statistics are offset (SPMI-ASN-2)
		{"Disk", "2"},
		{"NetIf", "3"},
	}
	for _, tt := range tests {
		ref, err := r.Lookup(nil, tt.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := ref.ASN(); got != tt.asn {
			t.Errorf("%s: ASN %s, want %s", tt.path, got, tt.asn)
		}
		back, err := r.LookupASN(tt.asn)
		if err != nil || back.Path() != tt.path {
			t.Errorf("LookupASN(%s) = %s, %v; want %s", tt.asn, back.Path(), err, tt.path)
		}
	}
	// SPMI-ASN-3: a configured prefix gives the full OID.
	r.ASNPrefix = "1.3.6.1.4.1.2.3.1.2.2"
	ref, _ := r.Lookup(nil, "CPU/cpu0/idle")
	if got := r.FullASN(ref); got != "1.3.6.1.4.1.2.3.1.2.2.1.1.4" {
		t.Errorf("full OID %s", got)
	}
	if back, err := r.LookupASN("1.3.6.1.4.1.2.3.1.2.2.1.1.4"); err != nil || back.Path() != "CPU/cpu0/idle" {
		t.Errorf("full OID lookup: %v %v", back.Path(), err)
	}
	for _, bad := range []string{"1.9", "9", "1.x", "1.0"} {
		if _, err := r.LookupASN(bad); err == nil {
			t.Errorf("LookupASN(%q) accepted", bad)
		}
	}
}

// DCI-LBL-5 (issue 29 item 21): a path that is a dotted ASN.1 id names what the id names, from
// Top (as every command's path and the monitor's `:` resolve), with or without a leading "/",
// and a missing id says which part is missing; a relative lookup below Top does not take ids.
func TestLookupTakesASNIDs(t *testing.T) {
	r := testRegistry(t, 2)
	cpu, _ := r.Lookup(nil, "CPU")
	for path, want := range map[string]string{"1.1.4": "CPU/cpu0/idle", "/1.2": "CPU/cpu1", "1": "CPU", "2": "Disk", "1.65281": "CPU/user"} {
		for _, from := range []*Context{nil, r.Top()} {
			ref, err := r.Lookup(from, path)
			if err != nil || ref.Path() != want {
				t.Errorf("Lookup(%v, %q) = %q, %v; want %s", from != nil, path, ref.Path(), err, want)
			}
		}
	}
	if _, err := r.Lookup(nil, "1.1.99"); err == nil || siOf(err) != SiNotFound || !strings.Contains(err.Error(), "ASN.1 id 1.1.99: CPU/cpu0 has no statistic 99") {
		t.Errorf("a missing statistic id: %v", err)
	}
	if _, err := r.Lookup(cpu.Ctx, "1.1"); err == nil {
		t.Errorf("an id taken relative to CPU")
	}
	for _, notID := range []string{"1..2", ".1", "1.", "1.x"} {
		if _, err := r.Lookup(nil, notID); err == nil || strings.Contains(err.Error(), "ASN.1") {
			t.Errorf("%q: %v, want the name's error", notID, err)
		}
	}
	// The full id with the registry's prefix too (SPMI-ASN-3).
	r.ASNPrefix = "1.3.6.1.4.1.2.3.1.2.2"
	if ref, err := r.Lookup(nil, "1.3.6.1.4.1.2.3.1.2.2.1.1.4"); err != nil || ref.Path() != "CPU/cpu0/idle" {
		t.Errorf("full id: %q %v", ref.Path(), err)
	}
}

func TestASNUniqueness(t *testing.T) {
	// SPMI-ASN-2: two siblings with one number → duplicate error.
	r := NewRegistry()
	if err := r.RegisterClass(&Class{ID: ClassID{1}, Name: "A"}); err != nil {
		t.Fatal(err)
	}
	err := r.RegisterClass(&Class{ID: ClassID{1}, Name: "B"})
	if siOf(err) != SiDuplicate {
		t.Fatalf("duplicate id: %v", err)
	}
	// SPMI-HIER-10: two contexts named alike under one parent.
	if err := r.RegisterClass(&Class{ID: ClassID{2}, Name: "A"}); siOf(err) != SiDuplicate {
		t.Fatalf("duplicate name: %v", err)
	}
	// Instances: a preferred number that is taken falls back to the lowest free one (AMB-45).
	r2 := testRegistry(t, 0)
	cpu := r2.Class(ClassID{1, 2})
	a, _, _ := r2.AddInstance(cpu, InstanceSpec{Levels: []uint64{0}, OSName: "a", ASN: 1}, t0)
	b, _, _ := r2.AddInstance(cpu, InstanceSpec{Levels: []uint64{1}, OSName: "b", ASN: 1}, t0)
	if a.Context().ASN != 1 || b.Context().ASN != 2 {
		t.Fatalf("ASNs %d %d", a.Context().ASN, b.Context().ASN)
	}
	// A removed number is reused predictably (SPMI-ASN-5).
	if _, err := r2.RemoveInstance(a, t0); err != nil {
		t.Fatal(err)
	}
	c, _, _ := r2.AddInstance(cpu, InstanceSpec{Levels: []uint64{2}, OSName: "c"}, t0)
	if c.Context().ASN != 1 {
		t.Fatalf("reused ASN %d", c.Context().ASN)
	}
}

func TestContextRecord(t *testing.T) {
	// SPMI-HIER-4, SPMI-INST-2, SPMI-INST-3.
	r := testRegistry(t, 2)
	ref, _ := r.Lookup(nil, "CPU")
	c := ref.Ctx
	if c.Name != "CPU" || c.Desc != "Processor statistics" || c.Parent().Kind != CtxTop || c.ASN != 1 || c.Deleted() {
		t.Fatalf("CPU record %+v", c)
	}
	if c.InstFreq() != SiCfgInst || !c.Instantiable() {
		t.Fatalf("CPU inst_freq %v", c.InstFreq())
	}
	disk, _ := r.Lookup(nil, "Disk")
	if disk.Ctx.InstFreq() != SiContInst {
		t.Fatalf("Disk inst_freq %v", disk.Ctx.InstFreq())
	}
	cpu0, _ := r.Lookup(nil, "CPU/cpu0")
	if r.Top().Instantiable() || cpu0.Ctx.Instantiable() || cpu0.Ctx.InstFreq() != SiNoInst {
		t.Fatal("Top or cpu0 instantiable")
	}
	if c.NumStats() != 6 || cpu0.Ctx.NumStats() != 6 {
		t.Fatalf("stats %d %d", c.NumStats(), cpu0.Ctx.NumStats())
	}
}

func TestWalkVisitsEveryNodeOnce(t *testing.T) {
	// SPMI-HIER-6 and X-6: depth first, parents first, deterministic order.
	r := testRegistry(t, 3)
	var paths []string
	seen := map[*Context]bool{}
	r.Walk(func(c *Context, d int) bool {
		if seen[c] {
			t.Fatalf("%s visited twice", c.Path())
		}
		seen[c] = true
		paths = append(paths, c.Path())
		return true
	})
	want := []string{"", "CPU", "CPU/cpu0", "CPU/cpu1", "CPU/cpu2", "Disk", "NetIf"}
	if fmt.Sprint(paths) != fmt.Sprint(want) {
		t.Fatalf("walk %v, want %v", paths, want)
	}
}

func TestPathLevels(t *testing.T) {
	// SPMI-HIER-9, AMB-40.
	r := testRegistry(t, 1)
	ref, _ := r.Lookup(nil, "CPU/cpu0")
	for _, tt := range []struct {
		max  int
		want string
	}{{0, "CPU/cpu0"}, {10, "CPU/cpu0"}, {1, "cpu0"}} {
		if got := ref.Ctx.PathLevels(tt.max); got != tt.want {
			t.Errorf("MaxLevels %d: %q", tt.max, got)
		}
	}
}

func TestSyncEventsAndNesting(t *testing.T) {
	// DCI-EVT-3, DCI-NS-12, SPMI-INST-4, SPMI-HIER-11, SPMI-HOT-5's real case.
	r := testRegistry(t, 0)
	disk, part := r.Class(ClassID{2, 2}), r.Class(ClassID{2, 3})
	t1 := t0.Add(time.Second)
	_, evs, err := r.Sync(disk, []InstanceSpec{{Levels: []uint64{8 << 20}, OSName: "sda"}, {Levels: []uint64{8<<20 | 16}, OSName: "sdb"}}, t1, nil)
	if err != nil || len(evs) != 2 || evs[0].Kind != EvInstanceAdded || evs[0].Path != "Disk/sda" || !evs[0].Time.Equal(t1) {
		t.Fatalf("add: %v %v", evs, err)
	}
	_, evs, err = r.Sync(part, []InstanceSpec{{Levels: []uint64{8 << 20, 8<<20 | 1}, OSName: "sda1"}, {Levels: []uint64{8<<20 | 16, 8<<20 | 17}, OSName: "sdb1"}}, t1, nil)
	if err != nil || len(evs) != 2 || evs[0].Path != "Disk/sda/sda1" {
		t.Fatalf("partitions: %v %v", evs, err)
	}
	sda, _ := r.Lookup(nil, "Disk/sda")
	if !sda.Ctx.Instantiable() || sda.Ctx.InstFreq() != SiContInst {
		t.Fatal("sda should be instantiable (it holds partitions)")
	}
	// Steady state: nothing changes, no events.
	out, evs, _ := r.Sync(disk, []InstanceSpec{{Levels: []uint64{8 << 20}, OSName: "sda"}, {Levels: []uint64{8<<20 | 16}, OSName: "sdb"}}, t1, nil)
	if len(evs) != 0 || len(out) != 2 || out[0].Name != "sda" {
		t.Fatalf("steady: %v %v", out, evs)
	}
	// sdb vanishes: its partition goes with it, handles see SiDeleted.
	sdb1, _ := r.Lookup(nil, "Disk/sdb/sdb1")
	t2 := t1.Add(time.Second)
	_, evs, _ = r.Sync(disk, []InstanceSpec{{Levels: []uint64{8 << 20}, OSName: "sda"}}, t2, nil)
	// DCI-EVT-3: one event per removed context, the nested partition first.
	if len(evs) != 2 || evs[0].Path != "Disk/sdb/sdb1" || evs[1].Kind != EvInstanceRemoved || evs[1].Path != "Disk/sdb" {
		t.Fatalf("remove: %v", evs)
	}
	if !sdb1.Ctx.Deleted() {
		t.Fatal("nested partition context not deleted")
	}
	if _, err := r.Lookup(sdb1.Ctx, "busy_ms"); siOf(err) != SiDeleted {
		t.Fatalf("lookup from deleted: %v", err)
	}
	if _, err := r.Lookup(nil, "Disk/sdb"); siOf(err) != SiInvalidCx {
		t.Fatalf("lookup removed: %v", err)
	}
	// A partition whose disk is unknown is refused with a clear error.
	if _, _, err := r.Sync(part, []InstanceSpec{{Levels: []uint64{99, 100}, OSName: "sdz1"}}, t2, nil); err == nil {
		t.Fatal("orphan partition accepted")
	}
}

func TestUnregisterClass(t *testing.T) {
	// DCI-CLS-5: after unregister + register the class is new; DCI-NS-12.
	r := testRegistry(t, 2)
	if _, err := r.UnregisterClass(ClassID{1}, t0); err == nil {
		t.Fatal("class with subclasses unregistered")
	}
	evs, err := r.UnregisterClass(ClassID{1, 2}, t0)
	if err != nil || len(evs) != 2 {
		t.Fatalf("unregister: %v %v", evs, err)
	}
	// CPU still holds the totals statistics, so an unknown last component is SiNotFound (AMB-44).
	if _, err := r.Lookup(nil, "CPU/cpu0"); siOf(err) != SiNotFound {
		t.Fatalf("cpu0 still there: %v", err)
	}
	if _, err := r.Lookup(nil, "CPU/user"); err != nil {
		t.Fatalf("totals gone: %v", err)
	}
	if _, err := r.UnregisterClass(ClassID{1, 1}, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Lookup(nil, "CPU/user"); err == nil {
		t.Fatal("totals still there")
	}
	if _, err := r.UnregisterClass(ClassID{1}, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := r.UnregisterClass(ClassID{1}, t0); siOf(err) != SiInvalidCx {
		t.Fatalf("second unregister: %v", err)
	}
}

func TestClassFlagsUnavailable(t *testing.T) {
	// DCI-CLS-2.
	for _, tt := range []struct {
		f    ClassFlags
		want string
	}{
		{0, "disabled"},
		{ClassEnabled | ClassNotImplemented, "not implemented"},
		{ClassEnabled | ClassNotApplicable, "n/a on this host"},
		{ClassEnabled | ClassObsolete, "obsolete"},
		{ClassEnabled | ClassPossibleInvalidData, ""},
	} {
		if got := tt.f.Unavailable(); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.f, got, tt.want)
		}
	}
	if s := (ClassEnabled | ClassPossibleInvalidData).String(); s != "DCI_ENABLED|DCI_POSSIBLEINVALIDDATA" {
		t.Error(s)
	}
}

func TestDatumViews(t *testing.T) {
	// disk reads is UMA_UINT8 / ST_INTEGER64 unsigned decimal volatile / PM_TYPE_U64 COUNTER / SiCounter SiLong.
	r := testRegistry(t, 1)
	ref, err := r.Lookup(nil, "Disk")
	if err != nil {
		t.Fatal(err)
	}
	_ = ref
	d := r.Class(ClassID{2, 2}).Datum(1)
	if d.Type != TypeUint8 || d.DCI4.Type != STInteger64 || d.DCI4.Format != SIFUnsigned || d.DCI4.Presentation != SIPDecimal ||
		d.DCI4.Volatility != SVVolatile || d.DCI4.Size != 8 || d.PCP.Type != PMTypeU64 || d.PCP.Sem != PMSemCounter ||
		d.ValType != SiCounter || d.SiType != SiLong || d.Flags != DatumQueryable || d.Label.ASCII != "reads" {
		t.Fatalf("views: %+v", d)
	}
	if d.PCP.Units != (PMUnits{DimCount: 1}) {
		t.Fatalf("PCP units %+v", d.PCP.Units)
	}
	// DATA-1: offsets follow declaration order in 4-byte multiples (DCI-DATA-3).
	c := r.Class(ClassID{2, 2})
	if c.Datum(2).Offset != 8 || c.Datum(3).Offset != 16 {
		t.Fatalf("offsets %d %d", c.Datum(2).Offset, c.Datum(3).Offset)
	}
	// DCI-LBL-2: an empty label falls back to the name, then to #id.
	e := Datum{ID: 7}
	if e.DisplayLabel() != "#7" {
		t.Fatal(e.DisplayLabel())
	}
	// Derived datums hold a place: marked derived, flags 0 (never fetched) (DCI-DER-3).
	b := r.Class(ClassID{1, 2}).Datum(6)
	if !b.IsDerived() || b.Flags != 0 || b.SiType != SiFloat || b.PCP.Type != PMTypeDouble || b.ArgIndex(0) != 4 || b.ArgIndex(1) != 3 {
		t.Fatalf("derived: %+v", b)
	}
}

func TestTypeAndUnitTables(t *testing.T) {
	// DCI-TYPE-1 sizes.
	for _, tt := range []struct {
		ty   DataType
		text string
	}{{TypeInt4, "4 bytes"}, {TypeUint8, "8 bytes"}, {TypeBoolean, "4 bytes"}, {TypeTextString, "variable"},
		{TypeTimeval, "8 bytes"}, {TypeTimespec, "8 bytes"}, {TypeDerived, "0 bytes"}, {TypeClassData, "variable"}} {
		if got := tt.ty.SizeText(); got != tt.text {
			t.Errorf("%v: %q, want %q", tt.ty, got, tt.text)
		}
	}
	// DCI-UNIT-4/5: descriptions from the document; DCI-UNIT-6: extension units.
	for _, tt := range []struct {
		u    Unit
		want string
	}{{UnitMarks, "tape marks"}, {UnitStreamsMsgs, "message blocks"}, {UnitChannels, "I/O channels"},
		{UnitFilesystems, "file systems"}, {UnitQLength, "queue length"}, {70000, "unit 70000 (extension)"}} {
		if got := tt.u.Description(); got != tt.want {
			t.Errorf("%d: %q, want %q", tt.u, got, tt.want)
		}
	}
	// DCI-UNIT-1: every predefined unit has exactly one kind.
	count := map[UnitKind]int{}
	for u := UnitNone; u <= DerivedVariance; u++ {
		count[u.Kind()]++
	}
	if count[KindSize] != 5 || count[KindTime] != 6 || count[KindCount] != 21 || count[KindHardware] != 17 || count[KindDerived] != 7 || count[KindNone] != 1 {
		t.Fatalf("unit kinds %v", count)
	}
	if Unit(70000).Kind() != KindExtension {
		t.Fatal("extension kind")
	}
}

func TestStatusAndSiErrTables(t *testing.T) {
	// SPMI-ERR-1: every code has a name and the guide's text; the status-line format.
	want := map[SiErr]string{SiInvalidCx: "SiInvalidCx (180): The referenced context doesn't exist.",
		SiAssumedDead: "SiAssumedDead (183): A data-supplier program appears to have terminated.",
		SiDeleted:     "SiDeleted (196): The requested context has been deleted."}
	for code, line := range want {
		if got := code.Line(); got != line {
			t.Errorf("%q, want %q", got, line)
		}
	}
	for code := SiInvalidCx; code <= SiOtherErr; code++ {
		if strings.HasPrefix(code.String(), "SiErr(") || code.Text() == "Unknown SPMI error." {
			t.Errorf("code %d has no name or text", code)
		}
	}
	if !SiLocked.Retryable() || !SiInstBusy.Retryable() || SiNotFound.Retryable() { // SPMI-ERR-3
		t.Error("retryable codes")
	}
	// DCI-MTH-10: every DCI status has a name and an English explanation.
	for s := StatusSuccess; s <= StatusDuplicate; s++ {
		if !strings.HasPrefix(s.String(), "DCI_") || s.Text() == "" {
			t.Errorf("status %d", s)
		}
	}
}

func TestASNExhausted(t *testing.T) {
	// SPMI-ASN-1: numbers are unsigned shorts. Past the last free number an instance still
	// registers and resolves by path, but has no ASN.1 id.
	_, c, insts := benchClass(t, TotalsASNBase+10)
	last := insts[len(insts)-1]
	if last.Context().ASN != 0 || last.Context().ASNPath() != "" {
		t.Fatalf("last instance ASN %d %q", last.Context().ASN, last.Context().ASNPath())
	}
	ref, err := c.reg.Lookup(nil, last.Path()+"/c1")
	if err != nil || ref.ASN() != "" {
		t.Fatalf("lookup %v %q", err, ref.ASN())
	}
	if got := insts[0].Context().ASNPath(); got != "2.1" {
		t.Fatalf("first instance %q", got)
	}
}

func TestSyncRecreatedName(t *testing.T) {
	// An interface deleted and re-created under the same name gets a new ifindex: the old
	// context goes before the new one comes, in the same Sync, with both events.
	r := testRegistry(t, 0)
	nic := r.Class(ClassID{3, 2})
	if _, _, err := r.Sync(nic, []InstanceSpec{{Levels: []uint64{5}, OSName: "wg0"}}, t0, nil); err != nil {
		t.Fatal(err)
	}
	out, evs, err := r.Sync(nic, []InstanceSpec{{Levels: []uint64{9}, OSName: "wg0"}}, t0, nil)
	if err != nil || len(out) != 1 || out[0].Levels[0] != 9 || len(evs) != 2 ||
		evs[0].Kind != EvInstanceRemoved || evs[1].Kind != EvInstanceAdded {
		t.Fatalf("re-created: %v %v %v", out, evs, err)
	}
}

func TestSubcontextNumbersAvoidStatistics(t *testing.T) {
	// SPMI-ASN-2: a disk context's partitions and statistics share one numbering.
	r := testRegistry(t, 0)
	disk, part := r.Class(ClassID{2, 2}), r.Class(ClassID{2, 3})
	if _, _, err := r.Sync(disk, []InstanceSpec{{Levels: []uint64{1}, OSName: "sda"}}, t0, nil); err != nil {
		t.Fatal(err)
	}
	ps, _, err := r.Sync(part, []InstanceSpec{{Levels: []uint64{1, 2}, OSName: "sda1", ASN: 1}, {Levels: []uint64{1, 3}, OSName: "sda2"}}, t0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if n := p.Context().ASN; disk.Datum(uint8(n)) != nil {
			t.Fatalf("%s took ASN %d, the number of a statistic", p.Name, n)
		}
	}
}
