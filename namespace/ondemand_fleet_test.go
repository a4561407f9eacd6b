package namespace

import (
	"fmt"
	"testing"
)

// onDemandFleet is a registry of n hosts, each a top-level context (1000+i) with a Proc class
// read on demand below it, and a top-level on-demand class of the monitor's own (9, 1).
func onDemandFleet(tb testing.TB, n int) *Registry {
	tb.Helper()
	r := NewRegistry()
	add := func(c *Class) {
		if err := r.RegisterClass(c); err != nil {
			tb.Fatal(err)
		}
	}
	add(&Class{ID: ClassID{9}, Name: "Proc", Desc: "Processes", Flags: ClassEnabled})
	add(&Class{ID: ClassID{9, 1}, Name: "proc", Desc: "A process", Flags: ClassEnabled, OnDemand: true,
		Levels: []InstLevel{{TypeUint8, TagDiskID, 8}}, Datums: []Datum{Counter(1, "cpu", TypeUint8, UnitMillisecs, "CPU", "test")}})
	for i := range n {
		h := uint32(1000 + i)
		add(&Class{ID: ClassID{h}, Name: fmt.Sprintf("web%05d", i), Desc: "A host", Flags: ClassEnabled})
		add(&Class{ID: ClassID{h, 7}, Name: "Proc", Desc: "Processes", Flags: ClassEnabled})
		add(&Class{ID: ClassID{h, 7, 1}, Name: "proc", Desc: "A process", Flags: ClassEnabled, OnDemand: true,
			Levels: []InstLevel{{TypeUint8, TagDiskID, 8}}, Datums: []Datum{Counter(1, "cpu", TypeUint8, UnitMillisecs, "CPU", "test")}})
	}
	return r
}

// OnDemand reaches the on-demand classes below the top-level contexts a path's first component
// matches, and those only: every host's with a wildcard, one host's by its name, none below a
// name that is no context; a top-level class itself is never reached by its own name.
func TestOnDemandFleet(t *testing.T) {
	r := onDemandFleet(t, 300)
	ids := func(cs []*Class) string {
		if len(cs) == 0 {
			return "none"
		}
		return fmt.Sprintf("%d: %s .. %s", len(cs), cs[0].ID, cs[len(cs)-1].ID)
	}
	for pat, want := range map[string]string{
		"*":               "301: 9.1 .. 1299.7.1",
		"web*/Proc/*/cpu": "300: 1000.7.1 .. 1299.7.1",
		"web00042":        "1: 1042.7.1 .. 1042.7.1",
		"Proc/*/cpu":      "1: 9.1 .. 9.1",
		"nosuchhost":      "none",
	} {
		if got := ids(r.OnDemand(pat)); got != want {
			t.Errorf("OnDemand(%q) = %s, want %s", pat, got, want)
		}
	}
}

// BenchmarkOnDemandFleet is OnDemand("*") over a fleet, which the fleet overview's process block
// asks whenever the registry changes: linear in the classes, where it walked every matched host
// for every class (10,000 hosts: 300,000 classes × 10,000 hosts, seconds of a processor).
func BenchmarkOnDemandFleet(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("hosts=%d", n), func(b *testing.B) {
			r := onDemandFleet(b, n)
			for b.Loop() {
				if got := len(r.OnDemand("*")); got != n+1 {
					b.Fatalf("%d classes, want %d", got, n+1)
				}
			}
		})
	}
}
