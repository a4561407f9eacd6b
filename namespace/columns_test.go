package namespace

import (
	"fmt"
	"testing"
	"time"
)

// textClass is a class of a text datum, a level a provider may give a text too (a level whose
// text is outside the text column), a counter and a derived datum, with n instances.
func textClass(t *testing.T, n int) (*Class, []*Instance) {
	t.Helper()
	r := NewRegistry()
	if err := r.RegisterClass(&Class{ID: ClassID{2}, Name: "Disk", Flags: ClassEnabled}); err != nil {
		t.Fatal(err)
	}
	ds := []Datum{Text(1, "name", "", ""), Gauge(2, "queue", TypeUint8, UnitQLength, "", ""),
		Counter(3, "ops", TypeUint8, UnitCount, "", ""), Derived(4, "twice", DerivedSum2, PMSemCounter, "", 3, 3)}
	c := &Class{ID: ClassID{2, 2}, Name: "disk", Flags: ClassEnabled, InstFreq: SiContInst,
		Levels: []InstLevel{{TypeUint8, TagDiskID, 8}}, Datums: ds}
	if err := r.RegisterClass(c); err != nil {
		t.Fatal(err)
	}
	specs := make([]InstanceSpec, n)
	for i := range specs {
		specs[i] = InstanceSpec{Levels: []uint64{uint64(i)}, OSName: fmt.Sprintf("sd%d", i)}
	}
	insts, _, err := r.Sync(c, specs, t0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c, insts
}

// The values kept in columns read back as they were made: a text datum's text, a level's text
// outside the text column, numbers, states and reasons; in a class built row by row and in one
// built on every CPU (more than parallelValues values), through snapshots that recycle the
// columns of a retired one, and with an instance gone (its slot free, read as nothing).
func TestColumnsKeepValues(t *testing.T) {
	for _, n := range []int{3, parallelValues/4 + 10} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			c, insts := textClass(t, n)
			var prev, retired *Snapshot
			now := t0
			for step := range 4 {
				now = now.Add(time.Second)
				in := insts
				if step == 3 {
					in = insts[1:] // the first instance not read: its slot free
				}
				raw := make([]Raw, 0, len(in)*4)
				for _, inst := range in {
					k := uint64(inst.slot)
					raw = append(raw, RawS(fmt.Sprintf("disk %d at %d", k, step)), Raw{N: k, S: fmt.Sprintf("q%d", k)},
						RawN(k*10+uint64(step)*k), Raw{})
				}
				s := Sample{Start: now, End: now, Classes: []ClassSample{{Class: c, Time: now, Insts: in, Raw: raw}}}
				next := Next(prev, &s, retired)
				retired, prev = prev, next
				cv := next.Class(c)
				for _, inst := range in {
					k := uint64(inst.slot)
					row := cv.Row(inst)
					if got, want := row[0].S, fmt.Sprintf("disk %d at %d", k, step); got != want {
						t.Fatalf("step %d %s: text %q, want %q", step, inst.Name, got, want)
					}
					if v := row[1]; v.S != fmt.Sprintf("q%d", k) || v.N != k || v.V != float64(k) || v.State != Valid {
						t.Fatalf("step %d %s: level %+v", step, inst.Name, v)
					}
					ops, _ := cv.Value(inst, 2)
					switch {
					case step == 0 && (ops.State != NoRate || ops.Reason != ReasonFirstSample):
						t.Fatalf("step 0 %s: ops %+v", inst.Name, ops)
					case step > 0 && (ops.State != Valid || ops.V != float64(k) || ops.N != k*10+uint64(step)*k):
						t.Fatalf("step %d %s: ops %+v, want %d/s", step, inst.Name, ops, k)
					}
					if x, ok := cv.ValidAt(inst.slot, 3); step > 0 && (!ok || x != 2*float64(k) || cv.At(inst.slot, 3) != row[3]) {
						t.Fatalf("step %d %s: twice %v %v, row %+v", step, inst.Name, x, ok, row[3])
					}
				}
				if step == 3 {
					if _, ok := cv.Value(insts[0], 0); ok || cv.Row(insts[0]) != nil || cv.cols.texts[0] != "" || cv.cols.nums[0] != (numCell{}) {
						t.Fatalf("a free slot holds values: %q %+v", cv.cols.texts[0], cv.cols.nums[0])
					}
				}
			}
		})
	}
}
