package namespace

import (
	"fmt"
	"testing"
)

// collidingNames are two family names whose classes' paths under DDS/acme hash to the same
// PCP cluster, the first before the second in name order (looked for, not written down).
func collidingNames(t *testing.T) (string, string) {
	t.Helper()
	seen := map[PMID]string{}
	for i := 0; i < 100000; i++ {
		n := fmt.Sprintf("f%d", i)
		p := hashCluster("DDS/acme/"+n, nil)
		if o, ok := seen[p]; ok {
			if o > n {
				return n, o
			}
			return o, n
		}
		seen[p] = n
	}
	t.Fatal("no two paths in one cluster")
	return "", ""
}

func registerFamily(t *testing.T, r *Registry, id uint32, name string) *Class {
	t.Helper()
	c := &Class{ID: ClassID{DDSASN, 1, id}, Name: name, Desc: "Family " + name, Flags: ClassEnabled,
		Levels: []InstLevel{{TypeUint4, TagSingleInst, 4}},
		Datums: []Datum{Gauge(1, "value", TypeUint8, UnitQLength, "Family "+name, "a test")}}
	if err := r.RegisterClass(c); err != nil {
		t.Fatal(err)
	}
	return c
}

func ddsRegistry(t *testing.T) *Registry {
	t.Helper()
	r := NewRegistry()
	for _, c := range []*Class{
		{ID: ClassID{DDSASN}, Name: "DDS", Desc: "Statistics of extension suppliers", Flags: ClassEnabled},
		{ID: ClassID{DDSASN, 1}, Name: "acme", Desc: "Statistics of acme", Flags: ClassEnabled},
	} {
		if err := r.RegisterClass(c); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// Issue 39 item 8 (and issue 33): a class that is not dcimon's own is numbered by its path's
// hash among all the registry's classes, a collision moving the later path on, whatever order
// the classes came in and whichever of them a command exports; describe says PCPID's numbers.
func TestPCPIDCollisionsAndDescribe(t *testing.T) {
	a, b := collidingNames(t)
	home := hashCluster("DDS/acme/"+a, nil)
	next := hashCluster("DDS/acme/"+a, map[[2]uint32]bool{{home.Domain, home.Cluster}: true})

	r := ddsRegistry(t)
	cb := registerFamily(t, r, 1, b)
	if p, _ := r.PCPID(cb, 1); p.Domain != home.Domain || p.Cluster != home.Cluster {
		t.Errorf("%s alone: %s, want its hash's place %d.%d", b, p, home.Domain, home.Cluster)
	}
	ca := registerFamily(t, r, 2, a) // registered later, named first: it keeps the place
	pa, ia := r.PCPID(ca, 1)
	pb, ib := r.PCPID(cb, 1)
	if pa != (PMID{home.Domain, home.Cluster, 1}) || pb != (PMID{next.Domain, next.Cluster, 1}) {
		t.Errorf("%s %s, %s %s: want %d.%d.1 and %d.%d.1", a, pa, b, pb, home.Domain, home.Cluster, next.Domain, next.Cluster)
	}
	if !pa.Valid() || !pb.Valid() || ia != InDomNull || ib != InDomNull {
		t.Errorf("identifiers %s %s %s %s", pa, ia, pb, ib)
	}
	// The other order of registration: the same numbers.
	r2 := ddsRegistry(t)
	ca2 := registerFamily(t, r2, 2, a)
	cb2 := registerFamily(t, r2, 1, b)
	if p, _ := r2.PCPID(ca2, 1); p != pa {
		t.Errorf("%s registered first: %s, before %s", a, p, pa)
	}
	if p, _ := r2.PCPID(cb2, 1); p != pb {
		t.Errorf("%s registered second: %s, before %s", b, p, pb)
	}
	// Describe's PCP descriptor says the same.
	for name, p := range map[string]PMID{a: pa, b: pb} {
		ref, err := r.Lookup(nil, "DDS/acme/"+name+"/value")
		if err != nil {
			t.Fatal(err)
		}
		m := fieldsOf(r.Describe(ref))
		if m["PCP descriptor/pmid"] != p.String() || m["PCP descriptor/instance domain"] != "PM_INDOM_NULL" {
			t.Errorf("describe %s: pmid %q indom %q, want %s", name, m["PCP descriptor/pmid"], m["PCP descriptor/instance domain"], p)
		}
	}
}
