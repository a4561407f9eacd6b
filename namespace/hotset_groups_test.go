package namespace

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// SPMI-HOT-16: the peer set record returns the parameters with the results.
func TestHotPeerSetRecord(t *testing.T) {
	r, _, src := hsFiveDisks(t)
	h := NewHotSet(r, src, nil)
	sp := HotSpec{Stat: "busy", Grandpa: "Disk", MaxResp: 2, Threshold: 25, Frequency: 10, Feed: SiHotThreshold,
		Except: SiHotBoth, Severity: 3, TrapNo: 12}
	v := hsAdd(t, h, sp)
	hsRead(t, h, true)
	got := v.Spec()
	if !sameParams(got, sp) || got.Stat != sp.Stat || got.Grandpa != sp.Grandpa || v.Path() != "Disk" || v.Grandpa().Path() != "Disk" || v.Stat().Name != "busy" ||
		v.RefCount() != 1 || v.AvailResp != 2 || v.Count != 2 || v.Err != SiSuccess || v.ThresholdText() != "25" {
		t.Fatalf("SPMI-HOT-16: record = %+v path %s stat %s avail %d count %d err %v", got, v.Path(), v.Stat().Name, v.AvailResp, v.Count, v.Err)
	}
}

// SPMI-HOT-17: every peer set of a hotset is ranked on one reading with one timestamp.
func TestHotOneRead(t *testing.T) {
	r, f, src := hsFiveDisks(t)
	f.add(ClassID{3, 2}, "eth0", 0)
	f.set("NetIf/eth0", "ibytes", 0)
	f.set("Disk/sda", "inflight", 1)
	h := NewHotSet(r, src, nil)
	a := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", Feed: SiHotThreshold})
	b := hsAdd(t, h, HotSpec{Stat: "inflight", Grandpa: "Disk", Feed: SiHotThreshold})
	c := hsAdd(t, h, HotSpec{Stat: "ibytes", Grandpa: "NetIf", Feed: SiHotThreshold})
	before := f.reads
	hsRead(t, h, true)
	if f.reads-before != 1 {
		t.Fatalf("SPMI-HOT-17: %d provider reads for one hotset read", f.reads-before)
	}
	snap := src.Snapshot()
	if !h.Time().Equal(readingTime(snap)) || a.Count != 5 || b.Count != 1 || c.Err != SiSuccess {
		t.Fatalf("SPMI-HOT-17: time %v, counts %d %d", h.Time(), a.Count, b.Count)
	}
	for _, it := range a.Items {
		if cv := snap.Class(it.Inst.Class); !cv.Time.Equal(h.Time()) {
			t.Fatalf("SPMI-HOT-17: %s read at %v", it.Name, cv.Time)
		}
	}
}

// SPMI-HOT-18: adding the same peer set twice gives one list with ref_count 2.
func TestHotRefCount(t *testing.T) {
	r, _, src := hsFiveDisks(t)
	h := NewHotSet(r, src, nil)
	sp := HotSpec{Stat: "busy", Grandpa: "Disk", MaxResp: 2, Feed: SiHotThreshold}
	a := hsAdd(t, h, sp)
	disk, _ := r.Lookup(nil, "Disk")
	b := hsAdd(t, h, HotSpec{Stat: "busy", From: disk.Ctx, MaxResp: 2, Feed: SiHotThreshold}) // same set, other path
	if a != b || a.RefCount() != 2 || len(h.Entries()) != 1 {
		t.Fatalf("SPMI-HOT-18: two adds = %d lists, ref %d", len(h.Entries()), a.RefCount())
	}
	c := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", MaxResp: 3, Feed: SiHotThreshold})
	if c == a || len(h.Entries()) != 2 {
		t.Fatal("SPMI-HOT-18: different parameters make a peer set of their own")
	}
	if err := h.Del(a); err != nil || a.RefCount() != 1 || len(h.Entries()) != 2 {
		t.Fatalf("SPMI-HOT-18: first delete: %v ref %d", err, a.RefCount())
	}
	if err := h.Del(a); err != nil || len(h.Entries()) != 1 || h.Entries()[0] != c {
		t.Fatalf("SPMI-HOT-18: second delete: %v, %d lists", err, len(h.Entries()))
	}
}

// SPMI-HOT-19: a failing provider shows in its own peer set only.
func TestHotPeerSetError(t *testing.T) {
	r, f, src := hsFiveDisks(t)
	f.add(ClassID{3, 2}, "eth0", 0)
	f.set("NetIf/eth0", "ibytes", 0)
	f.fail["3.2"] = ReasonAssumedDead
	h := NewHotSet(r, src, nil)
	disk := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", MaxResp: 2, Feed: SiHotThreshold})
	net := hsAdd(t, h, HotSpec{Stat: "ibytes", Grandpa: "NetIf", Feed: SiHotThreshold})
	hsRead(t, h, true)
	if net.Err != SiAssumedDead || net.ErrReason != ReasonAssumedDead || net.Count != 0 {
		t.Fatalf("SPMI-HOT-19: NetIf list err %v (%v), %d items", net.Err, net.ErrReason, net.Count)
	}
	if disk.Err != SiSuccess || hsItems(disk) != "sdb 50, sdc 30" {
		t.Fatalf("SPMI-HOT-19: Disk list affected: err %v items %q", disk.Err, hsItems(disk))
	}
	// A grandparent that goes away is SiDeleted.
	r2, f2, src2 := hsPartitions(t)
	h2 := NewHotSet(r2, src2, nil)
	sda := hsAdd(t, h2, HotSpec{Stat: "part_busy", Grandpa: "Disk/sda", Feed: SiHotThreshold})
	if _, err := r2.RemoveInstance(r2.Class(ClassID{2, 2}).Context().Child("sda").Inst, f2.now); err != nil {
		t.Fatal(err)
	}
	hsRead(t, h2, true)
	if sda.Err != SiDeleted || sda.Count != 0 {
		t.Fatalf("SPMI-HOT-19: deleted grandparent = %v", sda.Err)
	}
}

// SPMI-HOT-21: walking peer sets and items: A0, A1, B0, end; multi-level entries walk as groups.
func TestHotWalk(t *testing.T) {
	r, f, src := hsFiveDisks(t)
	f.add(ClassID{3, 2}, "eth0", 0)
	f.add(ClassID{3, 2}, "eth1", 1)
	f.set("NetIf/eth0", "ibytes", 0)
	f.set("NetIf/eth1", "ibytes", 0)
	h := NewHotSet(r, src, nil)
	a := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", Threshold: 25, Feed: SiHotThreshold})
	b := hsAdd(t, h, HotSpec{Stat: "ibytes", Grandpa: "NetIf", MaxResp: 1, Feed: SiHotAlways})
	if v, _, _ := h.NextItem(nil, 0); v != nil || h.First() != nil {
		t.Fatal("SPMI-HOT-21: walking is only valid after a read")
	}
	f.tick(0) // the NetIf counters need a previous reading; the disks move on at the same rates
	for _, d := range hsFive {
		f.set("Disk/"+d.name, "busy", f.vals["Disk/"+d.name]["busy"]+d.rate)
	}
	f.set("NetIf/eth0", "ibytes", 10)
	f.set("NetIf/eth1", "ibytes", 20)
	f.now = f.now.Add(time.Second)
	hsRead(t, h, true)
	var got []string
	i := 0
	var it *HotItem
	for v := (*HotVals)(nil); ; {
		v, i, it = h.NextItem(v, i)
		if v == nil {
			break
		}
		name := map[*HotVals]string{a: "A", b: "B"}[v]
		got = append(got, fmt.Sprintf("%s%d:%s=%g", name, i-1, it.Name, it.Val.V))
	}
	if strings.Join(got, " ") != "A0:sdb=50 A1:sdc=30 B0:eth1=20" {
		t.Fatalf("SPMI-HOT-21: walk = %v", got)
	}
	// Multi-level: First/Next and NextItem yield the groups, never the header entry.
	r2, _, src2 := hsPartitions(t)
	h2 := NewHotSet(r2, src2, nil)
	e := hsAdd(t, h2, HotSpec{Stat: "part_busy", Grandpa: "Disk", MaxResp: 1, Feed: SiHotThreshold})
	hsRead(t, h2, true)
	var sets []string
	for v := h2.First(); v != nil; v = h2.Next(v) {
		sets = append(sets, v.Path())
	}
	if strings.Join(sets, ",") != "Disk/sda,Disk/sdb,Disk/sdc" || h2.Next(e) != e.Groups()[0] {
		t.Fatalf("SPMI-HOT-21: multi-level walk = %v", sets)
	}
	got = got[:0]
	i = 0
	for v := (*HotVals)(nil); ; {
		v, i, it = h2.NextItem(v, i)
		if v == nil {
			break
		}
		got = append(got, v.Path()+":"+it.Name)
	}
	if strings.Join(got, " ") != "Disk/sda:sda2 Disk/sdb:sdb3 Disk/sdc:sdc3" {
		t.Fatalf("SPMI-HOT-21: multi-level item walk = %v", got)
	}
}

// SPMI-HOT-22: an internal peer group cannot be deleted; deleting the entry removes them all.
func TestHotGroupDelete(t *testing.T) {
	r, _, src := hsPartitions(t)
	h := NewHotSet(r, src, nil)
	e := hsAdd(t, h, HotSpec{Stat: "part_busy", Grandpa: "Disk", MaxResp: 2, Feed: SiHotThreshold})
	hsRead(t, h, true)
	g := e.Groups()[1]
	if err := h.Del(g); hsSi(err) != SiBadArgument {
		t.Fatalf("SPMI-HOT-22: deleting a group = %v, want SiBadArgument", err)
	}
	if len(e.Groups()) != 3 {
		t.Fatal("SPMI-HOT-22: a refused delete removed a group")
	}
	if err := h.Del(e); err != nil || len(h.Entries()) != 0 || h.First() != nil {
		t.Fatalf("SPMI-HOT-22: deleting the entry: %v", err)
	}
	if err := h.Del(g); hsSi(err) != SiNotFound {
		t.Fatalf("SPMI-HOT-22: a deleted entry's group = %v, want SiNotFound", err)
	}
}

// SPMI-HOT-23, X-5: counters rank by rate, quantities by level; invalid, unavailable and
// rate-less values are neither ranked nor counted.
func TestHotInvalidExcluded(t *testing.T) {
	r, f, src := hsFiveDisks(t)
	f.add(ClassID{2, 2}, "sdf", 6) // busy unavailable
	f.add(ClassID{2, 2}, "sdg", 7) // busy invalid
	f.invalid["Disk/sdg/busy"] = true
	h := NewHotSet(r, src, nil)
	busy := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", Feed: SiHotThreshold})
	hsRead(t, h, true)
	if busy.AvailResp != 5 || busy.Count != 5 || strings.Contains(hsItems(busy), "sdf") || strings.Contains(hsItems(busy), "sdg") {
		t.Fatalf("SPMI-HOT-23: %q avail %d", hsItems(busy), busy.AvailResp)
	}
	// A new disk has no rate in its first reading: not ranked; it is, one reading later.
	f.add(ClassID{2, 2}, "sdh", 8)
	f.set("Disk/sdh", "busy", 0)
	f.set("Disk/sdh", "inflight", 7)
	f.set("Disk/sdb", "inflight", 2)
	level := hsAdd(t, h, HotSpec{Stat: "inflight", Grandpa: "Disk", Feed: SiHotThreshold})
	f.now = f.now.Add(time.Second)
	hsRead(t, h, true)
	if strings.Contains(hsItems(busy), "sdh") || hsItems(level) != "sdh 7, sdb 2" {
		t.Fatalf("SPMI-HOT-23: first reading of sdh: busy %q, inflight %q", hsItems(busy), hsItems(level))
	}
	f.set("Disk/sdh", "busy", 500)
	f.now = f.now.Add(time.Second)
	hsRead(t, h, true)
	if busy.Items[0].Name != "sdh" || busy.Items[0].Val.V != 500 {
		t.Fatalf("SPMI-HOT-23: second reading of sdh: %q", hsItems(busy))
	}
}

// naming the grandparent by DCI class and the statistic by datum id gives the same result as
// the SPMI path and name.
func TestHotDCIView(t *testing.T) {
	r, _, src := hsFiveDisks(t)
	h := NewHotSet(r, src, nil)
	byPath := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", MaxResp: 3, Feed: SiHotThreshold})
	c := r.Class(ClassID{2, 2})
	byID := hsAdd(t, h, HotSpec{Stat: c.Datum(3).Label.ASCII, From: c.Context(), MaxResp: 3, Feed: SiHotThreshold})
	hsRead(t, h, true)
	if byID != byPath || hsItems(byPath) != "sdb 50, sdc 30, sde 20" {
		t.Fatalf("X-9: by id %q, by path %q", hsItems(byID), hsItems(byPath))
	}
}

// The registry changes under a running hotset and statset: instances come and go while the sets
// are read (run with -race).
func TestHotConcurrentRegistry(t *testing.T) {
	r, f, src := hsPartitions(t)
	h := NewHotSet(r, src, NewEventLog(8))
	all := hsAdd(t, h, HotSpec{Stat: "part_busy", Grandpa: "Disk", MaxResp: 2, Feed: SiHotThreshold})
	hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk/sda", Feed: SiHotThreshold})
	s := NewStatSet(r, src)
	ssAdd(t, s, nil, "Disk/sda/sda1/part_busy")
	done := make(chan struct{})
	go func() {
		defer close(done)
		disk := r.Class(ClassID{2, 2})
		part := r.Class(ClassID{2, 3})
		for i := 0; i < 200; i++ {
			d, _, err := r.AddInstance(disk, InstanceSpec{Levels: []uint64{9}, OSName: "sdz"}, hsT0)
			if err != nil {
				t.Error(err)
				return
			}
			if _, _, err := r.AddInstance(part, InstanceSpec{Levels: []uint64{9, 1}, OSName: "sdz1"}, hsT0); err != nil {
				t.Error(err)
				return
			}
			if _, err := r.RemoveInstance(d, hsT0); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for i := 0; i < 200; i++ {
		f.now = f.now.Add(time.Second)
		hsRead(t, h, true)
		if err := s.Read(false); err != nil {
			t.Fatal(err)
		}
		for v, idx, _ := h.NextItem(nil, 0); v != nil; v, idx, _ = h.NextItem(v, idx) {
		}
	}
	<-done
	f.now = f.now.Add(time.Second)
	hsRead(t, h, true)
	if len(all.Groups()) != 3 {
		t.Fatalf("groups after the churn: %d", len(all.Groups()))
	}
}
