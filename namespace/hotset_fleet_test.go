package namespace

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// hsFleet is two hosts' disks, each host a context of its own as a PCP source of several hosts
// makes them (issue 14): web (sda 50/s, sdb 10/s) and db (sda 30/s, sdc 70/s).
func hsFleet(t *testing.T) (*Registry, *Reading) {
	t.Helper()
	r := NewRegistry()
	disk := func() []Datum {
		return []Datum{Counter(1, "busy", TypeUint8, UnitMillisecs, "Time doing I/O", "test")}
	}
	for i, host := range []string{"web", "db"} {
		h := uint32(1001 + i)
		for _, c := range []*Class{
			{ID: ClassID{h}, Name: host, Desc: "A host", Flags: ClassEnabled},
			{ID: ClassID{h, 2}, Name: "Disk", Desc: "Disks", Flags: ClassEnabled},
			{ID: ClassID{h, 2, 2}, Name: "disk", Desc: "One disk", Flags: ClassEnabled, InstFreq: SiContInst,
				Levels: []InstLevel{{TypeUint8, TagDiskID, 8}}, Datums: disk()},
		} {
			if err := r.RegisterClass(c); err != nil {
				t.Fatal(err)
			}
		}
	}
	f := newHSFeed(t, r)
	rates := map[string]uint64{"web/Disk/sda": 50, "web/Disk/sdb": 10, "db/Disk/sda": 30, "db/Disk/sdc": 70}
	for path := range rates {
		host, _, _ := strings.Cut(path, "/")
		id := ClassID{1001, 2, 2}
		if host == "db" {
			id = ClassID{1002, 2, 2}
		}
		name := path[strings.LastIndexByte(path, '/')+1:]
		f.add(id, name, uint64(name[2]))
		f.set(path, "busy", 1000)
	}
	f.tick(0)
	for path, n := range rates {
		f.set(path, "busy", 1000+n)
	}
	f.now = f.now.Add(time.Second)
	return r, NewReading(f.take)
}

// A grandparent with a wildcard ranks the peers of every context it matches in one peer set,
// with the SPMI rules across them: threshold (SPMI-HOT-7), ascending order for a negative one
// and maxresp (SPMI-HOT-6, SPMI-HOT-8), exceptions (SPMI-HOT-12). Items are named by path.
func TestHotFleet(t *testing.T) {
	r, src := hsFleet(t)
	log := NewEventLog(16)
	h := NewHotSet(r, src, log)
	top := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "*/Disk", Threshold: 20, MaxResp: 3, Feed: SiHotThreshold,
		Except: SiHotException, Severity: 2, Frequency: 5})
	low := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "*/Disk", Threshold: -20, MaxResp: 5, Feed: SiHotThreshold})
	web := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "w*/Disk", MaxResp: 5, Feed: SiHotThreshold}) // one host, by its own pattern
	hsRead(t, h, true)
	if got := hsItems(top); got != "db/Disk/sdc 70, web/Disk/sda 50, db/Disk/sda 30" || top.AvailResp != 3 {
		t.Errorf("SPMI-HOT-7: across hosts above 20: %q (avail %d)", got, top.AvailResp)
	}
	if got := hsItems(low); got != "web/Disk/sdb 10" {
		t.Errorf("SPMI-HOT-8: below 20 across hosts: %q", got)
	}
	var exc []string
	for _, e := range log.Events() {
		exc = append(exc, e.Text)
	}
	if len(exc) != 3 || !strings.Contains(strings.Join(exc, "|"), "db/Disk/sdc busy 70.0/s > 20 severity 2") {
		t.Errorf("SPMI-HOT-12: exceptions across hosts: %q", exc)
	}
	if !top.Fleet() || len(top.PeerClasses()) != 2 {
		t.Errorf("fleet %v, peer classes %d", top.Fleet(), len(top.PeerClasses()))
	}
	if _, d, err := h.Statistic(nil, "web*/Disk", "busy"); err != nil || d.Name != "busy" {
		t.Errorf("Statistic over a pattern: %v", err)
	}
	if _, err := h.Add(HotSpec{Stat: "busy", Grandpa: "*/Nope", MaxResp: 1}); hsSi(err) != SiInvalidCx {
		t.Errorf("a pattern that matches nothing: %v", err)
	}
	if got := hsItems(web); got != "web/Disk/sda 50, web/Disk/sdb 10" {
		t.Errorf("w*/Disk: %q", got)
	}
}

// Issue 40 (budgets): a fleet hotset's plan reads the registry's classes once, not once a host.
// A monitor of 1,000 hosts, all down, at 100 ms kept a processor 70% busy planning its pending
// fleet hotsets: each plan copied the registry's classes for every host (24 MB a plan here,
// 3,000 classes a thousand times). The bytes one plan allocates are bounded by the classes
// once and the plan.
func TestFleetPlanCopiesTheClassesOnce(t *testing.T) {
	r := NewRegistry()
	for i := range 1000 {
		h := uint32(1000 + i)
		for _, c := range []*Class{
			{ID: ClassID{h}, Name: fmt.Sprintf("h%d", i), Desc: "A host", Flags: ClassEnabled},
			{ID: ClassID{h, 2}, Name: "Disk", Desc: "Disks", Flags: ClassEnabled},
			{ID: ClassID{h, 2, 2}, Name: "disk", Desc: "One disk", Flags: ClassEnabled, InstFreq: SiContInst,
				Levels: []InstLevel{{TypeUint8, TagDiskID, 8}}, Datums: []Datum{Counter(1, "busy", TypeUint8, UnitMillisecs, "Time doing I/O", "test")}},
		} {
			if err := r.RegisterClass(c); err != nil {
				t.Fatal(err)
			}
		}
	}
	_, _ = planFleet(r, "*/Disk", "busy") // warm: the glob's caches
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	p, perr := planFleet(r, "*/Disk", "busy")
	runtime.ReadMemStats(&m1)
	if len(p.peers) != 1000 {
		t.Errorf("%d peers, want a disk class of each of 1,000 hosts", len(p.peers))
	}
	if perr != nil {
		t.Fatal(perr)
	}
	if b := m1.TotalAlloc - m0.TotalAlloc; b > 4<<20 {
		t.Errorf("one plan of 1,000 hosts allocated %d bytes (the registry's classes are %d)", b, len(r.Classes()))
	}
}
