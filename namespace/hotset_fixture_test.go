package namespace

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// hsT0 is the fake clock's origin for the statset and hotset tests.
var hsT0 = time.Date(2026, 5, 6, 7, 0, 0, 0, time.UTC)

// hsRegistry builds the statset and hotset test name space:
//
//	CPU (1)   totals 1.1 and per-CPU 1.2 (ncpu, SiCfgInst): user kern idle counters, busy = user+kern
//	          (derived counter), %busy = busy/(busy+idle) (derived level)
//	Disk (2)  per-disk 2.2 (SiContInst): reads writes busy counters, inflight level, temp signed
//	          level, model text, io = reads+writes (derived counter); partitions 2.3 nested under
//	          the disks: reads writes busy counters, inflight level, part_busy counter (only here)
//	NetIf (3) per-interface 3.2 (SiContInst): ibytes (64-bit) and obytes (32-bit) counters
//
// Disks and partitions share statistic names, as they do in fixture_test.go.
func hsRegistry(t testing.TB, ncpu int) *Registry {
	t.Helper()
	r := NewRegistry()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	cpu := func() []Datum {
		return []Datum{
			Counter(1, "user", TypeUint8, UnitMillisecs, "User mode time", "test"),
			Counter(2, "kern", TypeUint8, UnitMillisecs, "Kernel mode time", "test"),
			Counter(4, "idle", TypeUint8, UnitMillisecs, "Idle time", "test"),
			Derived(5, "busy", DerivedSum2, PMSemCounter, "Busy time", 1, 2),
			Derived(6, "%busy", DerivedPercent, PMSemInstant, "Busy share", 5, 4),
		}
	}
	must(r.RegisterClass(&Class{ID: ClassID{1}, Name: "CPU", Desc: "Processors", Flags: ClassEnabled}))
	must(r.RegisterClass(&Class{ID: ClassID{1, 1}, Name: "total", Desc: "All processors", Flags: ClassEnabled, Totals: true,
		Levels: []InstLevel{{TypeUint4, TagSingleInst, 4}}, Datums: cpu()}))
	must(r.RegisterClass(&Class{ID: ClassID{1, 2}, Name: "cpu", Desc: "One processor", Flags: ClassEnabled, InstFreq: SiCfgInst,
		Levels: []InstLevel{{TypeUint4, TagProcessor, 4}}, Datums: cpu()}))
	must(r.RegisterClass(&Class{ID: ClassID{2}, Name: "Disk", Desc: "Disks", Flags: ClassEnabled}))
	must(r.RegisterClass(&Class{ID: ClassID{2, 2}, Name: "disk", Desc: "One disk", Flags: ClassEnabled | ClassPossibleInvalidData,
		InstFreq: SiContInst, Levels: []InstLevel{{TypeUint8, TagDiskID, 8}}, Datums: []Datum{
			Counter(1, "reads", TypeUint8, UnitReads, "Reads completed", "test"),
			Counter(2, "writes", TypeUint8, UnitWrites, "Writes completed", "test"),
			Counter(3, "busy", TypeUint8, UnitMillisecs, "Time doing I/O", "test"),
			Gauge(4, "inflight", TypeUint8, UnitQLength, "I/O in progress", "test"),
			Gauge(5, "temp", TypeInt8, UnitNone, "Temperature offset", "test"),
			Text(6, "model", "Model name", "test"),
			Derived(7, "io", DerivedSum2, PMSemCounter, "Reads and writes", 1, 2),
			InvalidList(),
		}}))
	must(r.RegisterClass(&Class{ID: ClassID{2, 3}, Name: "part", Desc: "One partition", Flags: ClassEnabled | ClassPossibleInvalidData,
		InstFreq: SiContInst, NestUnder: ClassID{2, 2},
		Levels: []InstLevel{{TypeUint8, TagDiskID, 8}, {TypeUint8, TagDiskPartition, 8}}, Datums: []Datum{
			Counter(1, "reads", TypeUint8, UnitReads, "Reads completed", "test"),
			Counter(2, "writes", TypeUint8, UnitWrites, "Writes completed", "test"),
			Counter(3, "busy", TypeUint8, UnitMillisecs, "Time doing I/O", "test"),
			Gauge(4, "inflight", TypeUint8, UnitQLength, "I/O in progress", "test"),
			Counter(8, "part_busy", TypeUint8, UnitMillisecs, "Partition busy time", "test"),
			InvalidList(),
		}}))
	must(r.RegisterClass(&Class{ID: ClassID{3}, Name: "NetIf", Desc: "Network interfaces", Flags: ClassEnabled}))
	must(r.RegisterClass(&Class{ID: ClassID{3, 2}, Name: "netif", Desc: "One interface", Flags: ClassEnabled, InstFreq: SiContInst,
		Levels: []InstLevel{{TypeUint4, TagDevice, 4}}, Datums: []Datum{
			Counter(1, "ibytes", TypeUint8, UnitBytes, "Bytes received", "test"),
			Counter(2, "obytes", TypeUint4, UnitBytes, "Bytes sent (32-bit)", "test"),
		}}))
	for i := 0; i < ncpu; i++ {
		if _, _, err := r.AddInstance(r.Class(ClassID{1, 2}), InstanceSpec{Levels: []uint64{uint64(i)}, OSName: fmt.Sprintf("cpu%d", i), ASN: uint16(i + 1)}, hsT0); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// hsFeed is a fake provider layer over an hsRegistry with a fake clock: values are set by context
// path and statistic name, and every take reads every class once.
type hsFeed struct {
	t       testing.TB
	reg     *Registry
	now     time.Time
	snap    *Snapshot
	reads   int
	vals    map[string]map[string]uint64 // context path → statistic → raw value
	invalid map[string]bool              // "path/stat" on the invalid-data list
	fail    map[string]Reason            // class id → the reading fails with this reason
}

func newHSFeed(t testing.TB, reg *Registry) *hsFeed {
	return &hsFeed{t: t, reg: reg, now: hsT0, vals: map[string]map[string]uint64{}, invalid: map[string]bool{}, fail: map[string]Reason{}}
}

func (f *hsFeed) set(path, stat string, n uint64) {
	if f.vals[path] == nil {
		f.vals[path] = map[string]uint64{}
	}
	f.vals[path][stat] = n
}

func (f *hsFeed) add(class ClassID, name string, levels ...uint64) *Instance {
	f.t.Helper()
	in, _, err := f.reg.AddInstance(f.reg.Class(class), InstanceSpec{Levels: levels, OSName: name}, f.now)
	if err != nil {
		f.t.Fatal(err)
	}
	return in
}

// take reads every instantiated class at the fake clock's time: one provider read.
func (f *hsFeed) take() (*Snapshot, error) {
	f.reads++
	s := &Sample{Start: f.now, End: f.now}
	for _, c := range f.reg.Classes() {
		if !c.Instantiated() {
			continue
		}
		cs := ClassSample{Class: c, Time: f.now, Start: f.now, End: f.now}
		if why, ok := f.fail[c.ID.String()]; ok {
			cs.Err, cs.ErrReason = errors.New("test provider failed"), why
		}
		cs.Insts = f.reg.Instances(c)
		nd := len(c.Datums)
		cs.Raw = make([]Raw, len(cs.Insts)*nd)
		for k, in := range cs.Insts {
			path := in.Path()
			for d := range c.Datums {
				dd := &c.Datums[d]
				r := &cs.Raw[k*nd+d]
				switch n, ok := f.vals[path][dd.Name]; {
				case dd.ID == InvalidDatumID || !dd.Type.IsNumeric():
					r.State = RawOK
				case f.invalid[path+"/"+dd.Name]:
					r.State = RawInvalid
				case ok:
					r.N, r.State = n, RawOK
				default:
					r.State, r.Reason = RawUnavailable, ReasonNotPresent
				}
			}
		}
		s.Classes = append(s.Classes, cs)
	}
	f.snap = Next(f.snap, s, nil)
	return f.snap, nil
}

// tick advances the fake clock and takes a reading.
func (f *hsFeed) tick(d time.Duration) *Snapshot {
	f.t.Helper()
	f.now = f.now.Add(d)
	snap, err := f.take()
	if err != nil {
		f.t.Fatal(err)
	}
	return snap
}

// hsSi returns the SPMI code of an error from the name space, or -1.
func hsSi(err error) SiErr {
	var e *Error
	if errors.As(err, &e) {
		return e.Si
	}
	return -1
}
