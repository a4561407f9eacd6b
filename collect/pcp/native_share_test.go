package pcp

import (
	"testing"

	"dcimon/pcpwire"
	"dcimon/pmcd"
)

// Hosts whose pmcds said the same names and descriptors share one pair of maps; a host that
// learns one more name copies them first, so the others' stay as they were; one that said
// something else has its own (issue 38 item 1).
func TestNativeNamesShared(t *testing.T) {
	ctx := func(units pcpwire.Units) *nativeContext {
		x := newNativeContext(pmcd.Hostspec{})
		x.renew()
		x.ids["kernel.all.load"] = 7
		x.descs[7] = pcpwire.Desc{PMID: 7, Type: pcpwire.TypeFloat, InDom: 3, Units: units}
		x.share()
		return x
	}
	a, b, c := ctx(0), ctx(0), ctx(1<<8)
	if !a.shared || !b.shared || !sameMap(a.ids, b.ids) || !sameDescMap(a.descs, b.descs) {
		t.Fatal("two hosts that said the same do not share their maps")
	}
	if sameDescMap(a.descs, c.descs) {
		t.Fatal("a host whose descriptor differs shares another's maps")
	}
	b.own()
	b.ids["mem.physmem"] = 9
	b.share()
	if _, ok := a.ids["mem.physmem"]; ok || len(a.ids) != 1 {
		t.Fatalf("a name one host learnt is in another's map: %v", a.ids)
	}
	if len(b.ids) != 2 || sameMap(a.ids, b.ids) {
		t.Fatalf("the host that learnt a name: %v", b.ids)
	}
}

// sameMap and sameDescMap say two maps are one (the same map, not equal ones).
func sameMap(a, b map[string]uint32) bool {
	a["\x00probe"] = 1
	_, ok := b["\x00probe"]
	delete(a, "\x00probe")
	return ok
}

func sameDescMap(a, b map[uint32]pcpwire.Desc) bool {
	a[1<<31] = pcpwire.Desc{}
	_, ok := b[1<<31]
	delete(a, 1<<31)
	return ok
}

// Contexts that fetch the same names share one map of their positions, a name given twice at its
// first; other names have their own.
func TestSharedPositions(t *testing.T) {
	a := sharedPositions([]string{"x.one", "x.two", "x.one"})
	b := sharedPositions([]string{"x.one", "x.two", "x.one"})
	c := sharedPositions([]string{"x.two", "x.one"})
	if a["x.one"] != 0 || a["x.two"] != 1 || len(a) != 2 || c["x.one"] != 1 {
		t.Fatalf("positions %v, %v", a, c)
	}
	a["\x00probe"] = 9
	_, shared := b["\x00probe"]
	_, other := c["\x00probe"]
	delete(a, "\x00probe")
	if !shared || other {
		t.Errorf("the same names share one map: %v; other names do not: %v", shared, !other)
	}
}
