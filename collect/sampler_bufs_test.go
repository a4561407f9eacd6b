package collect_test

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"testing"
	"unsafe"

	"dcimon/collect"
	ns "dcimon/namespace"
)

// manyClasses is a provider of n single-instance classes of one gauge whose reading allocates
// nothing: its rows, specs and batch are made once.
type manyClasses struct {
	classes []*ns.Class
	batch   collect.Batch
}

func newManyClasses(n int) *manyClasses {
	p := &manyClasses{}
	top := &ns.Class{ID: ns.ClassID{1}, Name: "Many", Desc: "many classes", Flags: ns.ClassEnabled}
	p.classes = append(p.classes, top)
	for i := range n {
		c := &ns.Class{ID: ns.ClassID{1, uint32(i + 2)}, Name: fmt.Sprintf("c%d", i), Desc: "one class", Flags: ns.ClassEnabled,
			Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagSingleInst, Size: 4}},
			Datums: []ns.Datum{ns.Gauge(1, "x", ns.TypeUint8, ns.UnitCount, "x", "test")}}
		p.classes = append(p.classes, c)
		p.batch.Classes = append(p.batch.Classes, collect.ClassReading{Class: c,
			Specs: []ns.InstanceSpec{{Levels: []uint64{0}}}, Raw: []ns.Raw{{N: uint64(i)}}})
	}
	return p
}

func (p *manyClasses) Supplier() ns.Supplier {
	return ns.Supplier{IVersion: 101, SVersion: 100, Module: "many", Title: "many classes", Description: "a test supplier"}
}
func (p *manyClasses) Classes() []*ns.Class { return p.classes }
func (p *manyClasses) Collect(context.Context, collect.Request) (collect.Batch, error) {
	return p.batch, nil
}

// Issue 38: a collection's class samples are one array used again, not one made a collection (a
// fleet of 10,000 hosts reads 300,000 classes a second: 57 MB of samples). The bytes a
// collection of 2,000 classes allocates stay under a tenth of its samples' size.
func TestSampleKeepsItsSamplesArray(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	const n = 2000
	s, err := collect.NewSampler(ns.NewRegistry(), []collect.Provider{newManyClasses(n)}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for range 3 { // past the first collections' buffers
		if _, err := s.Sample(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// TotalAlloc counts the whole process's: the least of three rounds, so that another
	// goroutine's allocations (a timer of an earlier test's) are not counted as the sampler's.
	per := uint64(math.MaxUint64)
	for range 3 {
		var m0, m1 runtime.MemStats
		const runs = 5
		runtime.ReadMemStats(&m0)
		for range runs {
			if _, err := s.Sample(ctx); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&m1)
		per = min(per, (m1.TotalAlloc-m0.TotalAlloc)/runs)
	}
	samples := uint64(n * unsafe.Sizeof(ns.ClassSample{}))
	if per > samples/10 {
		t.Errorf("a collection of %d classes allocates %d bytes; its samples are %d: they are made anew", n, per, samples)
	}
	// The values read are those of the provider, collection after collection.
	snap := s.Snapshot()
	for _, i := range []int{0, 999, n - 1} {
		c := s.Registry().Class(ns.ClassID{1, uint32(i + 2)})
		if v, ok := snap.Class(c).Value(s.Registry().Instances(c)[0], 0); !ok || v.N != uint64(i) {
			t.Errorf("class %d: %+v", i, v)
		}
	}
}
