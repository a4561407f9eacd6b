package namespace

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// benchClass registers a class of ninst instances with 20 datums: 16 counters (some 32-bit),
// 2 gauges and 2 derived.
func benchClass(tb testing.TB, ninst int) (*Registry, *Class, []*Instance) {
	r := NewRegistry()
	if err := r.RegisterClass(&Class{ID: ClassID{2}, Name: "Disk", Flags: ClassEnabled}); err != nil {
		tb.Fatal(err)
	}
	var ds []Datum
	for i := 1; i <= 16; i++ {
		ty := TypeUint8
		if i%4 == 0 {
			ty = TypeUint4
		}
		ds = append(ds, Counter(uint8(i), fmt.Sprintf("c%d", i), ty, UnitCount, "", ""))
	}
	ds = append(ds, Gauge(17, "g1", TypeUint8, UnitQLength, "", ""), Gauge(18, "g2", TypeInt8, UnitCount, "", ""),
		Derived(19, "sum", DerivedSum2, PMSemCounter, "", 1, 2), Derived(20, "pct", DerivedPercent, PMSemInstant, "", 3, 5))
	c := &Class{ID: ClassID{2, 2}, Name: "disk", Flags: ClassEnabled, InstFreq: SiContInst,
		Levels: []InstLevel{{TypeUint8, TagDiskID, 8}}, Datums: ds}
	if err := r.RegisterClass(c); err != nil {
		tb.Fatal(err)
	}
	specs := make([]InstanceSpec, ninst)
	for i := range specs {
		specs[i] = InstanceSpec{Levels: []uint64{uint64(i)}, OSName: fmt.Sprintf("sd%d", i)}
	}
	insts, _, err := r.Sync(c, specs, t0, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return r, c, insts
}

// BenchmarkNext measures building the next snapshot of 10,000 instances × 20 datums in the steady
// state (recycling the snapshot before the previous one). Budget: under 5 ms, no allocation per datum.
func BenchmarkNext(b *testing.B) {
	_, c, insts := benchClass(b, benchN)
	nd := len(c.Datums)
	raws := [2][]Raw{make([]Raw, len(insts)*nd), make([]Raw, len(insts)*nd)}
	for k := range raws {
		for i := range raws[k] {
			raws[k][i].N = uint64(1000*k + i%977)
		}
	}
	now := t0
	var prev, older *Snapshot
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now = now.Add(time.Second)
		s := Sample{Start: now, End: now, Classes: []ClassSample{{Class: c, Time: now, Insts: insts, Raw: raws[i%2]}}}
		next := Next(prev, &s, older)
		older, prev = prev, next
	}
	b.ReportMetric(float64(len(insts)*nd), "datums/op")
}

// BenchmarkLookup shows path lookup costs depend on depth, not on the size of the tree.
func BenchmarkLookup(b *testing.B) {
	for _, n := range []int{100, 10000} {
		r, _, _ := benchClass(b, n)
		path := fmt.Sprintf("Disk/sd%d/c7", n/2)
		b.Run(fmt.Sprintf("instances=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := r.Lookup(nil, path); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestNextSteadyStateAllocations(t *testing.T) {
	// The budget: no heap allocation per datum in the steady state.
	_, c, insts := benchClass(t, 1000)
	nd := len(c.Datums)
	raw := make([]Raw, len(insts)*nd)
	now := t0
	var prev, older *Snapshot
	step := func() {
		now = now.Add(time.Second)
		s := Sample{Start: now, End: now, Classes: []ClassSample{{Class: c, Time: now, Insts: insts, Raw: raw}}}
		next := Next(prev, &s, older)
		older, prev = prev, next
	}
	step()
	step()
	step()
	if a := testing.AllocsPerRun(20, step); a > 4 {
		t.Fatalf("%v allocations per snapshot of %d datums", a, len(insts)*nd)
	}
}

func FuzzLookupPath(f *testing.F) {
	for _, s := range []string{"CPU/cpu0/idle", "/", "", "CPU//cpu0", "Disk/../CPU", "\x00", "CPU/cpu0/idle/x", "%busy"} {
		f.Add(s)
	}
	r := testRegistry(f, 2)
	f.Fuzz(func(t *testing.T, p string) {
		ref, err := r.Lookup(nil, p)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T is not a namespace error", err)
			}
			return
		}
		// Whatever resolves, resolves again from its own path.
		back, err := r.Lookup(nil, ref.Path())
		if err != nil || back.Path() != ref.Path() {
			t.Fatalf("%q → %q → %q %v", p, ref.Path(), back.Path(), err)
		}
		if strings.Contains(ref.Path(), "//") {
			t.Fatalf("path %q", ref.Path())
		}
	})
}

var benchN = 10000

// BenchmarkSyncChurn measures one Sync of a class of 100,000 instances in which 1,000 went and
// 1,000 came (a host's processes): what the tree pays per change must not grow with the number
// of siblings (issue 38: the cost of one more instance).
func BenchmarkSyncChurn(b *testing.B) {
	const n, churn = 100000, 1000
	r, c, insts := benchClass(b, n)
	specs := make([]InstanceSpec, n)
	for i := range specs {
		specs[i] = InstanceSpec{Levels: []uint64{uint64(i)}, OSName: fmt.Sprintf("sd%d", i)}
	}
	next := n
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := 0; j < churn; j++ {
			k := (i*churn*7 + j*97) % n
			specs[k] = InstanceSpec{Levels: []uint64{uint64(next)}, OSName: fmt.Sprintf("sd%d", next)}
			next++
		}
		var err error
		if insts, _, err = r.Sync(c, specs, t0, insts); err != nil {
			b.Fatal(err)
		}
	}
}
