package namespace

import (
	"fmt"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// cpuDatums follows checklist §0.1: user(1) kern(2) wait(3) idle(4), ms counters.
func cpuDatums() []Datum {
	return []Datum{
		Counter(1, "user", TypeUint8, UnitMillisecs, "User mode time", "/proc/stat").WithScale(0, 1000),
		Counter(2, "kern", TypeUint8, UnitMillisecs, "Kernel mode time", "/proc/stat").WithScale(0, 1000),
		Counter(3, "wait", TypeUint8, UnitMillisecs, "I/O wait time", "/proc/stat").WithScale(0, 1000),
		Counter(4, "idle", TypeUint8, UnitMillisecs, "Idle time", "/proc/stat").WithScale(0, 1000),
		Derived(5, "busy", DerivedSum2, PMSemCounter, "Busy time", 1, 2),
		Derived(6, "%busy", DerivedPercent, PMSemInstant, "Busy share", 5, 4).WithScale(0, 1),
	}
}

// testRegistry builds CPU (1) with totals 1.1 and per-CPU 1.2 (n CPUs), Disk (2) with per-disk
// 2.2 and partitions 2.3 nested under disks, NetIf (3) with per-interface 3.2.
func testRegistry(t testing.TB, ncpu int) *Registry {
	t.Helper()
	r := NewRegistry()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(r.RegisterClass(&Class{ID: ClassID{1}, Name: "CPU", Desc: "Processor statistics", Flags: ClassEnabled}))
	must(r.RegisterClass(&Class{ID: ClassID{1, 1}, Name: "total", Desc: "All processors", Flags: ClassEnabled, Totals: true,
		Levels: []InstLevel{{TypeUint4, TagSingleInst, 4}}, Datums: cpuDatums()}))
	must(r.RegisterClass(&Class{ID: ClassID{1, 2}, Name: "cpu", Desc: "One processor", Flags: ClassEnabled, InstFreq: SiCfgInst,
		Levels: []InstLevel{{TypeUint4, TagProcessor, 4}}, Datums: cpuDatums()}))
	must(r.RegisterClass(&Class{ID: ClassID{2}, Name: "Disk", Desc: "Disk statistics", Flags: ClassEnabled}))
	diskDatums := func() []Datum {
		return []Datum{
			Counter(1, "reads", TypeUint8, UnitReads, "Reads completed", "/proc/diskstats field 4"),
			Counter(2, "writes", TypeUint8, UnitWrites, "Writes completed", "/proc/diskstats field 8"),
			Counter(3, "busy_ms", TypeUint8, UnitMillisecs, "Time doing I/O", "/proc/diskstats field 13"),
			Gauge(4, "inflight", TypeUint8, UnitQLength, "I/O in progress", "/proc/diskstats field 12"),
			InvalidList(),
		}
	}
	must(r.RegisterClass(&Class{ID: ClassID{2, 2}, Name: "disk", Desc: "One disk", Flags: ClassEnabled | ClassPossibleInvalidData,
		InstFreq: SiContInst, Levels: []InstLevel{{TypeUint8, TagDiskID, 8}}, Datums: diskDatums()}))
	must(r.RegisterClass(&Class{ID: ClassID{2, 3}, Name: "part", Desc: "One partition", Flags: ClassEnabled | ClassPossibleInvalidData,
		InstFreq: SiContInst, NestUnder: ClassID{2, 2},
		Levels: []InstLevel{{TypeUint8, TagDiskID, 8}, {TypeUint8, TagDiskPartition, 8}}, Datums: diskDatums()}))
	must(r.RegisterClass(&Class{ID: ClassID{3}, Name: "NetIf", Desc: "Network interfaces", Flags: ClassEnabled}))
	must(r.RegisterClass(&Class{ID: ClassID{3, 2}, Name: "netif", Desc: "One interface", Flags: ClassEnabled, InstFreq: SiContInst,
		Levels: []InstLevel{{TypeUint4, TagDevice, 4}}, Datums: []Datum{
			Counter(1, "ibytes", TypeUint8, UnitBytes, "Bytes received", "/proc/net/dev"),
			Counter(2, "obytes", TypeUint4, UnitBytes, "Bytes sent (32-bit)", "/proc/net/dev"),
		}}))
	cpu := r.Class(ClassID{1, 2})
	specs := make([]InstanceSpec, ncpu)
	for i := range specs {
		specs[i] = InstanceSpec{Levels: []uint64{uint64(i)}, OSName: fmt.Sprintf("cpu%d", i), ASN: uint16(i + 1)}
	}
	if _, _, err := r.Sync(cpu, specs, t0, nil); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSmokeASN(t *testing.T) {
	r := testRegistry(t, 2)
	ref, err := r.Lookup(nil, "CPU/cpu0/idle")
	if err != nil {
		t.Fatal(err)
	}
	if got := ref.ASN(); got != "1.1.4" {
		t.Fatalf("SPMI-ASN-1: CPU/cpu0/idle = %s, want 1.1.4", got)
	}
}
