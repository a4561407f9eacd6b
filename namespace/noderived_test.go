package namespace

import (
	"testing"
	"time"
)

// A sample with NoDerived leaves the derived datums unavailable, not worked out, and every
// datum read exactly as without it: its raw number, rate and state (issue 38 item 4: the
// recorder writes the datums read only).
func TestNoDerivedLeavesOnlyDerivedUncomputed(t *testing.T) {
	both := [2]*sampler{{r: testRegistry(t, 1), now: t0}, {r: testRegistry(t, 1), now: t0}}
	rows := [][]Raw{cpuRow(60, 40, 0, 900), cpuRow(90, 60, 0, 950), cpuRow(95, 61, 0, 1200)}
	var got [2][]Value
	for k, s := range both {
		c := s.r.Class(ClassID{1, 2})
		insts := s.r.Instances(c)
		for i, row := range rows {
			s.now = s.now.Add(time.Duration(min(i, 1)) * time.Second)
			cs := ClassSample{Class: c, Time: s.now, Start: s.now, End: s.now, Insts: insts, Raw: row}
			s.snap = Next(s.snap, &Sample{Start: s.now, End: s.now, Classes: []ClassSample{cs}, NoDerived: k == 1}, nil)
			got[k] = append(got[k], s.snap.Class(c).Row(insts[0])...)
		}
	}
	c := both[0].r.Class(ClassID{1, 2})
	derived := 0
	for i := range got[0] {
		d := &c.Datums[i%len(c.Datums)]
		if !d.IsDerived() {
			if got[0][i] != got[1][i] {
				t.Errorf("%s at reading %d: %+v, want %+v as without NoDerived", d.Name, i/len(c.Datums), got[1][i], got[0][i])
			}
			continue
		}
		derived++
		if v := got[1][i]; v.State != Unavailable || v.Reason != ReasonNotSampled {
			t.Errorf("derived %s at reading %d: %+v, want unavailable, not sampled", d.Name, i/len(c.Datums), v)
		}
	}
	if derived == 0 {
		t.Fatal("the class has no derived datum to leave out")
	}
}
