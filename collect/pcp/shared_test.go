package pcp

import (
	"reflect"
	"testing"
	"time"

	ns "dcimon/namespace"
	"dcimon/pmproxy"
)

// Issue 38 item 1: the hosts of a fleet (of one scale) share their classes' declarations: each
// host's Disk is a class of its own (its id under the host, its instances), whose datums are the
// one declaration's; the metrics' names are one list.
func TestFleetHostsShareTheirDeclarations(t *testing.T) {
	hosts := []Host{{Name: "a", Spec: "127.0.0.1:1"}, {Name: "b", Spec: "127.0.0.1:1"}, {Name: "c", Spec: "127.0.0.1:1"}}
	provs, err := Fleet(Options{ProbeDeadline: 200 * time.Millisecond}, hosts)
	if err != nil {
		t.Fatal(err)
	}
	first := provs[0].(*pcpHost)
	for i, p := range provs {
		h := p.(*pcpHost)
		if len(h.decl) != len(first.decl) || len(h.classes) != len(first.classes) {
			t.Fatalf("host %d declares %d classes, host 0 %d", i, len(h.decl), len(first.decl))
		}
		for k, c := range h.decl {
			if c.ID[0] != FleetASNBase+uint32(i) {
				t.Errorf("host %d: class %s is not under its host", i, c.ID)
			}
			if i > 0 && c == first.decl[k] {
				t.Errorf("host %d: class %s is host 0's own", i, c.ID)
			}
			if i > 0 && len(c.Datums) > 0 && &c.Datums[0] != &first.decl[k].Datums[0] {
				t.Errorf("host %d: class %s has datums of its own, not the declaration's", i, c.ID)
			}
		}
		for k, pc := range h.classes {
			if !containsClass(h.decl, pc.Class) {
				t.Errorf("host %d: the mapping's class %d is not one the host declares", i, k)
			}
		}
		if &h.names[0] != &first.names[0] {
			t.Errorf("host %d: a list of metrics of its own", i)
		}
		if h.decl[0].Extensions[0].Value == "" {
			t.Errorf("host %d: no attributes of its own on its context", i)
		}
	}
	// What describes a host is its own: a host's attributes are not the others'.
	first.decl[0].Extensions[0].Value = "changed"
	if provs[1].(*pcpHost).decl[0].Extensions[0].Value == "changed" {
		t.Error("two hosts share their context's attributes")
	}
}

func containsClass(decl []*ns.Class, c *ns.Class) bool {
	for _, d := range decl {
		if d == c {
			return true
		}
	}
	return false
}

// Hosts whose contexts gave the same descriptors share one map of them; any difference, a label
// or a name given twice makes a map of the host's own.
func TestHostsShareTheirDescriptors(t *testing.T) {
	set := func(units string) []pmproxy.Desc {
		return []pmproxy.Desc{{Name: "disk.dev.read", PMID: "60.0.4", InDom: "60.1", Type: "u32", Sem: "counter", Units: "count"},
			{Name: "mem.physmem", PMID: "60.1.9", Type: "u64", Sem: "discrete", Units: units}}
	}
	same := func(a, b map[string]pmproxy.Desc) bool {
		return reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer()
	}
	a, b := sharedDescs(set("Kbyte")), sharedDescs(set("Kbyte"))
	if !same(a, b) || len(a) != 2 || a["mem.physmem"].Units != "Kbyte" {
		t.Errorf("two hosts of the same descriptors: a map each, or not theirs (%v)", a)
	}
	if c := sharedDescs(set("Mbyte")); same(a, c) || c["mem.physmem"].Units != "Mbyte" {
		t.Errorf("a host whose descriptors differ shares another's: %v", c)
	}
	labelled := set("Kbyte")
	labelled[0].Labels = map[string]any{"agent": "linux"}
	if l1, l2 := sharedDescs(labelled), sharedDescs(labelled); same(l1, l2) || same(l1, a) {
		t.Error("descriptors with labels are shared")
	}
	twice := append(set("Kbyte"), set("Kbyte")[0])
	if d := sharedDescs(twice); same(d, a) || len(d) != 2 {
		t.Errorf("a name given twice: %v", d)
	}
}
