package namespace

import (
	"testing"
)

// Issue 38 item 1: a class declared once is shared by every place that has it (a fleet's hosts):
// the clones' datums and compiled tables are the declaration's, not copies; what is a clone's
// own (its id, extensions, instances) stays its own.
func TestCloneDeclSharesTheDeclaration(t *testing.T) {
	_, tmpl, _ := benchClass(t, 0) // registered: compiled
	decl := &Class{ID: ClassID{2, 2}, Name: "disk", Flags: ClassEnabled, InstFreq: SiContInst,
		Levels: tmpl.Levels, Datums: append([]Datum(nil), tmpl.Datums...)}
	if err := decl.Compile(); err != nil {
		t.Fatal(err)
	}
	r := NewRegistry()
	var clones []*Class
	for h := range 3 {
		host := &Class{ID: ClassID{uint32(1000 + h)}, Name: "web" + string(rune('0'+h)), Flags: ClassEnabled}
		top := &Class{ID: ClassID{uint32(1000 + h), 2}, Name: "Disk", Flags: ClassEnabled}
		c := decl.CloneDecl()
		c.ID = ClassID{uint32(1000 + h), 2, 2}
		c.Extensions = append(c.Extensions, Attr{Key: "host", Value: host.Name})
		for _, k := range []*Class{host, top, c} {
			if err := r.RegisterClass(k); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := r.Sync(c, []InstanceSpec{{Levels: []uint64{7}, OSName: "sda"}}, t0, nil); err != nil {
			t.Fatal(err)
		}
		clones = append(clones, c)
	}
	for i, c := range clones {
		if &c.Datums[0] != &decl.Datums[0] || c.tables != decl.tables {
			t.Errorf("host %d: its class has datums or tables of its own, not the declaration's", i)
		}
		if c.DatumByName("c3") != 2 || c.DatumIndex(DatumID(20)) != len(c.Datums)-1 || c.Datum(17).Name != "g1" {
			t.Errorf("host %d: lookups by name and low byte do not find the shared datums", i)
		}
		if len(c.Extensions) != 1 || c.Extensions[0].Value != "web"+string(rune('0'+i)) {
			t.Errorf("host %d: extensions %v, want its own", i, c.Extensions)
		}
		if refs, err := r.Glob("web" + string(rune('0'+i)) + "/Disk/sda/c3"); err != nil || len(refs) != 1 {
			t.Errorf("host %d: its instance's statistic is not found: %v %v", i, refs, err)
		}
	}
	// A clone whose datums are not the declaration's any more is compiled for its own.
	own := decl.CloneDecl()
	own.ID = ClassID{1000, 2, 3}
	own.Name = "other"
	own.Datums = append(own.Datums[:len(own.Datums):len(own.Datums)], Gauge(21, "g3", TypeUint8, UnitCount, "", ""))
	if err := r.RegisterClass(own); err != nil {
		t.Fatal(err)
	}
	if own.tables == decl.tables || own.DatumByName("g3") != len(own.Datums)-1 || decl.DatumByName("g3") != -1 {
		t.Error("a clone with datums of its own shares the declaration's tables")
	}
}

// A declaration not compiled is not shared: its clone compiles its own tables when registered.
func TestCloneDeclOfAnUncompiledClass(t *testing.T) {
	_, tmpl, _ := benchClass(t, 0)
	decl := &Class{ID: ClassID{2, 2}, Name: "disk", Flags: ClassEnabled, InstFreq: SiContInst,
		Levels: tmpl.Levels, Datums: append([]Datum(nil), tmpl.Datums...)}
	c := decl.CloneDecl()
	r := NewRegistry()
	if err := r.RegisterClass(&Class{ID: ClassID{2}, Name: "Disk", Flags: ClassEnabled}); err != nil {
		t.Fatal(err)
	}
	if err := r.RegisterClass(c); err != nil {
		t.Fatal(err)
	}
	if c.sharesTables || c.tables == nil || c.DatumByName("pct") != len(c.Datums)-1 {
		t.Errorf("the clone of an uncompiled declaration: shares %v, pct at %d", c.sharesTables, c.DatumByName("pct"))
	}
}
