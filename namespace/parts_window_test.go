package namespace

import (
	"testing"
	"time"
)

// Issue 40 item 6: a processor's parts are judged on the source's own clock with the source's
// slack. A remote reading's timestamp is pmcd's, taken at some moment of its request, so each
// reading's values may be as far from it as the request took: 8.3 s of parts in 8 s read by
// requests of 100 ms each is a true reading (the invariant's 2% and two ticks allow 8.18 s),
// while the same from readings that took no time breaks it.
func TestPartsWithinTheSourcesSlack(t *testing.T) {
	for _, tt := range []struct {
		took time.Duration
		want ValueState
	}{{0, Unavailable}, {100 * time.Millisecond, Valid}} {
		r := NewRegistry()
		c := &Class{ID: ClassID{5}, Name: "CPU", Desc: "Processors", Flags: ClassEnabled,
			Levels: []InstLevel{{Type: TypeUint4, Tag: TagSingleInst, Size: 4}},
			Datums: []Datum{
				Counter(1, "user", TypeUint8, UnitMillisecs, "User time", "test").WithPart(),
				Counter(2, "idle", TypeUint8, UnitMillisecs, "Idle time", "test").WithPart(),
			}}
		if err := r.RegisterClass(c); err != nil {
			t.Fatal(err)
		}
		t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
		insts, _, err := r.Sync(c, []InstanceSpec{{Levels: []uint64{0}}}, t0, nil)
		if err != nil {
			t.Fatal(err)
		}
		reading := func(at time.Time, user, idle uint64) *Sample {
			return &Sample{Start: at, End: at.Add(tt.took), Classes: []ClassSample{{Class: c, Time: at, Start: at, End: at.Add(tt.took),
				Insts: insts, Raw: []Raw{RawN(user), RawN(idle)}}}}
		}
		s1 := Next(nil, reading(t0, 1000, 1000), nil)
		s2 := Next(s1, reading(t0.Add(8*time.Second), 1000+800, 1000+7500), nil)
		v, ok := s2.Class(c).Value(insts[0], 0)
		if !ok || v.State != tt.want {
			t.Errorf("readings that took %v: user %+v, want %v", tt.took, v, tt.want)
		}
	}
}
