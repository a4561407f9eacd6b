package namespace

import (
	"sync"
	"testing"
	"time"
)

// DCI4-RD-2, DCI4-RD-5, DCI-MTH-11: values read together are mutually consistent. A supplier
// updates three levels together (a = b = c always); a reader takes the published reading over and
// over while new ones are published: every reading it gets has a = b = c, never a half-built one
// (a snapshot is immutable and handed over whole). Run with -race.
func TestReadingsAreConsistent(t *testing.T) {
	r := NewRegistry()
	if err := r.RegisterClass(&Class{ID: ClassID{9}, Name: "Three", Flags: ClassEnabled,
		Levels: []InstLevel{{Type: TypeUint4, Tag: TagSingleInst, Size: 4}},
		Datums: []Datum{Gauge(1, "a", TypeUint8, UnitCount, "a", "t"), Gauge(2, "b", TypeUint8, UnitCount, "b", "t"),
			Gauge(3, "c", TypeUint8, UnitCount, "c", "t")}}); err != nil {
		t.Fatal(err)
	}
	c := r.Class(ClassID{9})
	insts, _, err := r.Sync(c, []InstanceSpec{{Levels: []uint64{0}}}, time.Unix(0, 0), nil)
	if err != nil {
		t.Fatal(err)
	}
	src := NewReading(nil)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			snap := src.Snapshot()
			if snap == nil {
				continue
			}
			cv := snap.Class(c)
			a, _ := cv.Value(insts[0], 0)
			b, _ := cv.Value(insts[0], 1)
			cc, _ := cv.Value(insts[0], 2)
			if a.N != b.N || b.N != cc.N {
				t.Errorf("a reading mixes updates: a=%d b=%d c=%d", a.N, b.N, cc.N)
				return
			}
		}
	}()
	var prev *Snapshot
	for i := uint64(1); i <= 2000; i++ {
		now := time.Unix(int64(i), 0)
		cs := ClassSample{Class: c, Time: now, Start: now, End: now, Insts: insts, Raw: []Raw{{N: i}, {N: i}, {N: i}}}
		prev = Next(prev, &Sample{Start: now, End: now, Classes: []ClassSample{cs}}, nil)
		src.Publish(prev)
	}
	close(stop)
	wg.Wait()
}
