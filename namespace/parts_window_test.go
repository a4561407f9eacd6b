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

// Issue 40 item 6: a recorded reading's timestamp is pmcd's, and pmlogger does not record how
// long its fetch took: its slack is ClassSample.Slack. pmlogger's first record of a loaded host
// stamped 76 ms after its values were read gives 2.00 s of parts in 0.9237 s on 2 processors, a
// true reading with 50 ms a reading and none without. A replay clock that moved back during a
// reading (End before Start: another archive's read moved it) is no negative slack: 1.86 s of
// parts in 1.0 s on 2 processors stays true.
func TestPartsOfRecordedReadings(t *testing.T) {
	for _, tt := range []struct {
		name    string
		slack   time.Duration
		took    time.Duration // End − Start of the first reading
		elapsed time.Duration
		busy    uint64 // ms of parts over the interval
		want    ValueState
		wantWhy Reason
	}{
		{"first record, no slack", 0, 0, 923656 * time.Microsecond, 2000, Unavailable, ReasonBeyondElapsed},
		{"first record, a recording's slack", 50 * time.Millisecond, 0, 923656 * time.Microsecond, 2000, Valid, ReasonNone},
		{"replay clock moved back", 0, -989890 * time.Microsecond, 1001241 * time.Microsecond, 1860, Valid, ReasonNone},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRegistry()
			c := &Class{ID: ClassID{5}, Name: "CPU", Desc: "Processors", Flags: ClassEnabled,
				Levels: []InstLevel{{Type: TypeUint4, Tag: TagSingleInst, Size: 4}},
				Datums: []Datum{
					Counter(1, "user", TypeUint8, UnitMillisecs, "User time", "test").WithPart().WithShare(2),
					Counter(2, "idle", TypeUint8, UnitMillisecs, "Idle time", "test").WithPart().WithShare(2),
				}}
			if err := r.RegisterClass(c); err != nil {
				t.Fatal(err)
			}
			t0 := time.Date(2026, 11, 28, 14, 17, 58, 514851000, time.UTC)
			insts, _, err := r.Sync(c, []InstanceSpec{{Levels: []uint64{0}}}, t0, nil)
			if err != nil {
				t.Fatal(err)
			}
			reading := func(at time.Time, took time.Duration, user uint64) *Sample {
				return &Sample{Start: at, End: at, Classes: []ClassSample{{Class: c, Time: at, Start: at, End: at.Add(took),
					Slack: tt.slack, Insts: insts, Raw: []Raw{RawN(user), RawN(5000)}}}}
			}
			s1 := Next(nil, reading(t0, tt.took, 1000), nil)
			s2 := Next(s1, reading(t0.Add(tt.elapsed), 0, 1000+tt.busy), nil)
			v, ok := s2.Class(c).Value(insts[0], 0)
			if !ok || v.State != tt.want || v.Reason != tt.wantWhy {
				t.Errorf("user %+v, want %v %v", v, tt.want, tt.wantWhy)
			}
		})
	}
}
