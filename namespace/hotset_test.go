package namespace

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// hsFive are the checklist's five disks and their busy rates per second.
var hsFive = []struct {
	name string
	rate uint64
}{{"sda", 10}, {"sdb", 50}, {"sdc", 30}, {"sdd", 0}, {"sde", 20}}

// hsFiveDisks registers the five disks, takes a baseline reading at t=0 and sets the busy
// counters so the next reading, 1 s later, gives sda 10, sdb 50, sdc 30, sdd 0, sde 20 per second.
func hsFiveDisks(t *testing.T) (*Registry, *hsFeed, *Reading) {
	t.Helper()
	r := hsRegistry(t, 2)
	f := newHSFeed(t, r)
	for i, d := range hsFive {
		f.add(ClassID{2, 2}, d.name, uint64(i+1))
		f.set("Disk/"+d.name, "busy", 1000)
	}
	f.tick(0)
	for _, d := range hsFive {
		f.set("Disk/"+d.name, "busy", 1000+d.rate)
	}
	f.now = f.now.Add(time.Second)
	return r, f, NewReading(f.take)
}

func hsAdd(t *testing.T, h *HotSet, sp HotSpec) *HotVals {
	t.Helper()
	v, err := h.Add(sp)
	if err != nil {
		t.Fatalf("add %s %s: %v", sp.Grandpa, sp.Stat, err)
	}
	return v
}

func hsRead(t *testing.T, h *HotSet, force bool) {
	t.Helper()
	if err := h.Read(force); err != nil {
		t.Fatal(err)
	}
}

// hsItems renders items as "sdb 50, sdc 30".
func hsItems(v *HotVals) string {
	var parts []string
	for _, it := range v.Items {
		parts = append(parts, fmt.Sprintf("%s %s", it.Name, strconvG(it.Val.V)))
	}
	return strings.Join(parts, ", ")
}

func strconvG(x float64) string { return fmt.Sprintf("%g", x) }

// SPMI-HOT-1: the two disks with the highest busy rate, highest first.
func TestHotConcept(t *testing.T) {
	r, _, src := hsFiveDisks(t)
	h := NewHotSet(r, src, nil)
	v := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", MaxResp: 2, Feed: SiHotThreshold})
	hsRead(t, h, true)
	if got := hsItems(v); got != "sdb 50, sdc 30" {
		t.Fatalf("SPMI-HOT-1: hot Disk busy --max 2 = %s", got)
	}
}

// SPMI-HOT-2, SPMI-HOT-3: create, add peer sets, delete one, erase; header time and Δ.
func TestHotLifecycle(t *testing.T) {
	r, f, src := hsFiveDisks(t)
	f.add(ClassID{3, 2}, "eth0", 0)
	f.set("NetIf/eth0", "ibytes", 0)
	h := NewHotSet(r, src, nil)
	disk := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", Feed: SiHotThreshold})
	net := hsAdd(t, h, HotSpec{Stat: "ibytes", Grandpa: "NetIf", Feed: SiHotThreshold})
	hsRead(t, h, true)
	if len(h.Entries()) != 2 || h.First() != disk || h.Next(disk) != net || h.Next(net) != nil {
		t.Fatal("SPMI-HOT-2: two ranked lists expected")
	}
	if !h.Time().Equal(hsT0.Add(time.Second)) || h.TimeChange() != 0 {
		t.Fatalf("SPMI-HOT-3: first read %v Δ %v", h.Time(), h.TimeChange())
	}
	f.now = f.now.Add(2 * time.Second)
	hsRead(t, h, true)
	if !h.Time().Equal(hsT0.Add(3*time.Second)) || h.TimeChange() != 2*time.Second {
		t.Fatalf("SPMI-HOT-3: second read %v Δ %v", h.Time(), h.TimeChange())
	}
	if err := h.Del(net); err != nil || len(h.Entries()) != 1 || h.Next(disk) != nil {
		t.Fatalf("SPMI-HOT-2: delete one list: %v, %d left", err, len(h.Entries()))
	}
	if err := h.Del(net); hsSi(err) != SiNotFound {
		t.Fatalf("SPMI-HOT-2: deleting twice = %v, want SiNotFound", err)
	}
	h.Free()
	if len(h.Entries()) != 0 || disk.hs != nil {
		t.Fatal("SPMI-HOT-2: free must delete the peer sets first")
	}
	if _, err := h.Add(HotSpec{Stat: "busy", Grandpa: "Disk"}); hsSi(err) != SiBadArgument {
		t.Fatalf("SPMI-HOT-2: add to a freed hotset = %v", err)
	}
	if err := h.Read(true); hsSi(err) != SiBadArgument {
		t.Fatalf("SPMI-HOT-2: read of a freed hotset = %v", err)
	}
}

// SPMI-HOT-4 (AMB-44): the grandparent must be a context with peer subcontexts carrying the
// statistic; contexts whose peers come and go are checked against the class description.
func TestHotGrandpaValidity(t *testing.T) {
	r, f, src := hsFiveDisks(t)
	h := NewHotSet(r, src, nil)
	for _, tc := range []struct {
		grandpa, stat string
		want          SiErr
		names         string
	}{
		{"CPU/cpu0", "idle", SiBadArgument, "GrandParent"},
		{"Disk", "nosuchstat", SiNotFound, "nosuchstat"},
		{"Nope", "busy", SiInvalidCx, "Nope"},
		{"Disk/sda/busy", "busy", SiBadArgument, "GrandParent"},
		{"", "busy", SiBadArgument, "GrandParent"}, // Top: no peers
		{"Disk", "model", SiBadArgument, "StatName"},
	} {
		_, err := h.Add(HotSpec{Stat: tc.stat, Grandpa: tc.grandpa, Feed: SiHotThreshold})
		if hsSi(err) != tc.want || !strings.Contains(fmt.Sprint(err), tc.names) {
			t.Errorf("SPMI-HOT-4: hot %q %s = %v, want %s naming %s", tc.grandpa, tc.stat, err, tc.want, tc.names)
		}
	}
	// NetIf (SiContInst) has no interface yet: accepted, and fills in when interfaces appear.
	net := hsAdd(t, h, HotSpec{Stat: "ibytes", Grandpa: "NetIf", Feed: SiHotThreshold})
	hsRead(t, h, true)
	if net.Count != 0 || net.Err != SiSuccess {
		t.Fatalf("SPMI-HOT-4: empty NetIf = %d items, err %v", net.Count, net.Err)
	}
	f.add(ClassID{3, 2}, "eth0", 0)
	f.set("NetIf/eth0", "ibytes", 100)
	f.now = f.now.Add(time.Second)
	hsRead(t, h, true)
	f.set("NetIf/eth0", "ibytes", 600)
	f.now = f.now.Add(time.Second)
	hsRead(t, h, true)
	if got := hsItems(net); got != "eth0 500" {
		t.Fatalf("SPMI-HOT-4: NetIf after eth0 appeared = %q", got)
	}
	// A SiCfgInst context without subcontexts is refused: its peers do not appear on the fly.
	r0 := hsRegistry(t, 0)
	h0 := NewHotSet(r0, NewReading(nil), nil)
	if _, err := h0.Add(HotSpec{Stat: "idle", Grandpa: "CPU", Feed: SiHotThreshold}); hsSi(err) != SiBadArgument {
		t.Fatalf("SPMI-HOT-4: CPU with no processors = %v, want SiBadArgument", err)
	}
}

// hsPartitions registers sda, sdb, sdc with three partitions each and sets part_busy so that the
// reading after the returned one gives the rates in rates (per second, 1 s later).
var hsPartRates = map[string]uint64{
	"sda1": 5, "sda2": 15, "sda3": 10,
	"sdb1": 7, "sdb2": 3, "sdb3": 9,
	"sdc1": 1, "sdc2": 2, "sdc3": 3,
}

func hsPartitions(t *testing.T) (*Registry, *hsFeed, *Reading) {
	t.Helper()
	r := hsRegistry(t, 1)
	f := newHSFeed(t, r)
	for i, d := range []string{"sda", "sdb", "sdc"} {
		f.add(ClassID{2, 2}, d, uint64(i+1))
		f.set("Disk/"+d, "busy", 0)
		for p := 1; p <= 3; p++ {
			name := fmt.Sprintf("%s%d", d, p)
			f.add(ClassID{2, 3}, name, uint64(i+1), uint64(p))
			f.set("Disk/"+d+"/"+name, "part_busy", 0)
			f.set("Disk/"+d+"/"+name, "busy", 0)
		}
	}
	f.tick(0)
	for name, rate := range hsPartRates {
		path := "Disk/" + name[:3] + "/" + name
		f.set(path, "part_busy", rate)
		f.set(path, "busy", 100*rate)
	}
	for i, d := range []string{"sda", "sdb", "sdc"} {
		f.set("Disk/"+d, "busy", uint64(10*(i+1)))
	}
	f.now = f.now.Add(time.Second)
	return r, f, NewReading(f.take)
}

// SPMI-HOT-5 (AMB-37): multi-level peers, one group per lowest-level parent, maxresp per group,
// groups appearing with new parents; a named intermediate context is a single-level peer set;
// statistics shared by both levels are looked for at the first level that carries them.
func TestHotMultiLevel(t *testing.T) {
	r, f, src := hsPartitions(t)
	h := NewHotSet(r, src, nil)
	all := hsAdd(t, h, HotSpec{Stat: "part_busy", Grandpa: "Disk", MaxResp: 2, Feed: SiHotThreshold})
	sda := hsAdd(t, h, HotSpec{Stat: "part_busy", Grandpa: "Disk/sda", MaxResp: 2, Feed: SiHotThreshold})
	disks := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", Feed: SiHotThreshold})
	sdaBusy := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk/sda", Feed: SiHotThreshold})
	if len(all.Groups()) != 3 {
		t.Fatalf("SPMI-HOT-5: %d groups at add time, want 3 (one per disk)", len(all.Groups()))
	}
	hsRead(t, h, true)
	want := []string{"Disk/sda: sda2 15, sda3 10", "Disk/sdb: sdb3 9, sdb1 7", "Disk/sdc: sdc3 3, sdc2 2"}
	var got []string
	items := 0
	for _, g := range all.Groups() {
		if !g.IsGroup() || g.Entry() != all {
			t.Fatal("SPMI-HOT-5: groups must point back to their entry")
		}
		got = append(got, g.Path()+": "+hsItems(g))
		items += g.Count
	}
	if strings.Join(got, "; ") != strings.Join(want, "; ") || items != 6 || all.Count != 6 || all.AvailResp != 9 || len(all.Items) != 0 {
		t.Fatalf("SPMI-HOT-5: 2 × 3 groups = %v (count %d, avail %d)", got, all.Count, all.AvailResp)
	}
	if sda.IsGroup() || sda.Groups() != nil || hsItems(sda) != "sda2 15, sda3 10" {
		t.Fatalf("SPMI-HOT-5: hot Disk/sda part_busy --max 2 = %q (groups %d)", hsItems(sda), len(sda.Groups()))
	}
	if disks.Groups() != nil || hsItems(disks) != "sdc 30, sdb 20, sda 10" {
		t.Fatalf("SPMI-HOT-5: hot Disk busy ranks the disks: %q", hsItems(disks))
	}
	if hsItems(sdaBusy) != "sda2 1500, sda3 1000, sda1 500" {
		t.Fatalf("SPMI-HOT-5: hot Disk/sda busy ranks sda's partitions: %q", hsItems(sdaBusy))
	}
	// A new disk with partitions: a fourth group appears by itself.
	f.add(ClassID{2, 2}, "sdd", 4)
	f.add(ClassID{2, 3}, "sdd1", 4, 1)
	f.set("Disk/sdd/sdd1", "part_busy", 100)
	f.now = f.now.Add(time.Second)
	hsRead(t, h, true)
	f.set("Disk/sdd/sdd1", "part_busy", 104)
	f.now = f.now.Add(time.Second)
	hsRead(t, h, true)
	if gs := all.Groups(); len(gs) != 4 || gs[3].Path() != "Disk/sdd" || hsItems(gs[3]) != "sdd1 4" {
		t.Fatalf("SPMI-HOT-5: after sdd appeared: %d groups", len(gs))
	}
	// A disk that goes takes its group with it.
	sdb := r.Class(ClassID{2, 2}).Context().Child("sdb").Inst
	if _, err := r.RemoveInstance(sdb, f.now); err != nil {
		t.Fatal(err)
	}
	f.now = f.now.Add(time.Second)
	hsRead(t, h, true)
	var paths []string
	for _, g := range all.Groups() {
		paths = append(paths, g.Path())
	}
	if strings.Join(paths, ",") != "Disk/sda,Disk/sdc,Disk/sdd" {
		t.Fatalf("SPMI-HOT-5: groups after sdb went: %v", paths)
	}
}

// SPMI-HOT-6 (AMB-35): maxresp caps, 0 returns every qualifying item, and is refused with
// exceptions.
func TestHotMaxResp(t *testing.T) {
	r, _, src := hsFiveDisks(t)
	h := NewHotSet(r, src, nil)
	two := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", MaxResp: 2, Feed: SiHotThreshold})
	all := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", MaxResp: 0, Feed: SiHotThreshold})
	hsRead(t, h, true)
	if hsItems(two) != "sdb 50, sdc 30" || two.Count != 2 || two.AvailResp != 5 {
		t.Fatalf("SPMI-HOT-6: maxresp 2 = %q count %d avail %d", hsItems(two), two.Count, two.AvailResp)
	}
	if hsItems(all) != "sdb 50, sdc 30, sde 20, sda 10, sdd 0" || all.Count != 5 || all.AvailResp != 5 {
		t.Fatalf("SPMI-HOT-6: maxresp 0 = %q", hsItems(all))
	}
	_, err := h.Add(HotSpec{Stat: "busy", Grandpa: "Disk", MaxResp: 0, Threshold: 25, Frequency: 5,
		Feed: SiHotThreshold, Except: SiHotException, Severity: 1})
	if hsSi(err) != SiBadArgument || !strings.Contains(err.Error(), "maxresp") {
		t.Fatalf("SPMI-HOT-6: maxresp 0 with exceptions = %v", err)
	}
}

// SPMI-HOT-7 (AMB-36, AMB-59): thresholds, strict both ways, as rates per second for counters.
func TestHotThreshold(t *testing.T) {
	for _, tc := range []struct {
		thr   float64
		want  string
		avail int
		text  string
	}{
		{25, "sdb 50, sdc 30", 2, "25"},
		{-25, "sdd 0, sda 10, sde 20", 3, "-25"},
		{30, "sdb 50", 1, "30"},     // 30 does not exceed 30
		{-10, "sdd 0", 1, "-10"},    // 10 is not lower than 10
		{49.5, "sdb 50", 1, "49.5"}, // compared as float64, displayed as given
		{0, "sdb 50, sdc 30, sde 20, sda 10, sdd 0", 5, "0"},
	} {
		t.Run(fmt.Sprint(tc.thr), func(t *testing.T) {
			r, _, src := hsFiveDisks(t)
			h := NewHotSet(r, src, nil)
			v := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", Threshold: tc.thr, Feed: SiHotThreshold})
			hsRead(t, h, true)
			if hsItems(v) != tc.want || v.AvailResp != tc.avail || v.ThresholdText() != tc.text {
				t.Fatalf("SPMI-HOT-7: threshold %v = %q avail %d (%q)", tc.thr, hsItems(v), v.AvailResp, v.ThresholdText())
			}
		})
	}
	// Counter: delta 100 over Δ 2 s = 50/s qualifies against 40, not against 60; a rate of 50.4/s
	// exceeds 50 (AMB-59).
	r := hsRegistry(t, 1)
	f := newHSFeed(t, r)
	f.add(ClassID{2, 2}, "sda", 1)
	f.add(ClassID{2, 2}, "sdb", 2)
	f.set("Disk/sda", "busy", 1000)
	f.set("Disk/sdb", "busy", 0)
	f.tick(0)
	f.set("Disk/sda", "busy", 1100)
	f.set("Disk/sdb", "busy", 252*2)
	f.now = f.now.Add(2 * time.Second)
	h := NewHotSet(r, NewReading(f.take), nil)
	v40 := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", Threshold: 40, Feed: SiHotThreshold})
	v60 := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", Threshold: 60, Feed: SiHotThreshold})
	v50 := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", Threshold: 50, Feed: SiHotThreshold})
	hsRead(t, h, true)
	if hsItems(v40) != "sdb 252, sda 50" || v40.Items[1].Val.Change != 100 || v60.AvailResp != 1 {
		t.Fatalf("SPMI-HOT-7: counter threshold: 40 → %q, 60 → %q", hsItems(v40), hsItems(v60))
	}
	f.set("Disk/sda", "busy", 1100+252)
	f.now = f.now.Add(5 * time.Second)
	hsRead(t, h, true)
	if hsItems(v50) != "sda 50.4" {
		t.Fatalf("AMB-59: 50.4/s against 50 = %q", hsItems(v50))
	}
}

// SPMI-HOT-8 (AMB-38, AMB-39): order by value, ascending for negative thresholds even with
// SiHotAlways; ties by peer name, stable across ticks.
func TestHotOrdering(t *testing.T) {
	r, f, src := hsFiveDisks(t)
	h := NewHotSet(r, src, nil)
	low := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", Threshold: -1, MaxResp: 3, Feed: SiHotAlways})
	hsRead(t, h, true)
	if hsItems(low) != "sdd 0, sda 10, sde 20" || low.AvailResp != 5 {
		t.Fatalf("SPMI-HOT-8: SiHotAlways −1 max 3 = %q", hsItems(low))
	}
	tie := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", Feed: SiHotThreshold})
	// Give sdb the same rate as sdc (30/s) from now on; sdb is named first, so it ranks first.
	for tick := 0; tick < 3; tick++ {
		for _, d := range hsFive {
			rate := d.rate
			if d.name == "sdb" {
				rate = 30
			}
			f.set("Disk/"+d.name, "busy", f.vals["Disk/"+d.name]["busy"]+rate)
		}
		f.now = f.now.Add(time.Second)
		hsRead(t, h, true)
		if hsItems(tie) != "sdb 30, sdc 30, sde 20, sda 10, sdd 0" {
			t.Fatalf("SPMI-HOT-8: tick %d ties = %q", tick, hsItems(tie))
		}
	}
}

// SPMI-HOT-9, SPMI-HOT-10 (AMB-38): feed types; avail_resp before the cap, count after it.
func TestHotFeedType(t *testing.T) {
	for _, tc := range []struct {
		feed         HotFeed
		thr          float64
		max          int
		want         string
		avail, count int
	}{
		{SiHotNoFeed, 25, 0, "", 2, 0},
		{SiHotThreshold, 25, 0, "sdb 50, sdc 30", 2, 2},
		{SiHotThreshold, 25, 2, "sdb 50, sdc 30", 2, 2},
		{SiHotThreshold, 25, 1, "sdb 50", 2, 1},
		{SiHotAlways, 25, 3, "sdb 50, sdc 30, sde 20", 5, 3},
	} {
		t.Run(fmt.Sprintf("%s/%v/%d", tc.feed, tc.thr, tc.max), func(t *testing.T) {
			r, _, src := hsFiveDisks(t)
			h := NewHotSet(r, src, nil)
			v := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", Threshold: tc.thr, MaxResp: tc.max, Feed: tc.feed})
			hsRead(t, h, true)
			if hsItems(v) != tc.want || v.AvailResp != tc.avail || v.Count != tc.count || len(v.Items) != v.Count {
				t.Fatalf("SPMI-HOT-9/10: %q avail %d count %d", hsItems(v), v.AvailResp, v.Count)
			}
		})
	}
}

// SPMI-HOT-11: items carry the peer's name, val, val_change and the decoded value.
func TestHotItems(t *testing.T) {
	r, _, src := hsFiveDisks(t)
	h := NewHotSet(r, src, nil)
	v := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", MaxResp: 1, Feed: SiHotThreshold})
	hsRead(t, h, true)
	it := v.Items[0]
	if it.Name != "sdb" || it.Val.N != 1050 || it.Val.Change != 50 || it.Val.V != 50 || it.Inst.Path() != "Disk/sdb" {
		t.Fatalf("SPMI-HOT-11: item = %+v", it)
	}
}

// SPMI-HOT-12, SPMI-HOT-15: exceptions and traps go to the event log with severity and trap
// number, capped at maxresp, using the threshold.
func TestHotExceptions(t *testing.T) {
	for _, tc := range []struct {
		except HotExcept
		max    int
		sev    int
		trap   int
		want   []string
	}{
		{SiHotException, 1, 3, 0, []string{"EXCEPTION sev 3: Disk/sdb busy 50.0/s > 25 severity 3"}},
		{SiHotException, 5, 2, 0, []string{"EXCEPTION sev 2: Disk/sdb busy 50.0/s > 25 severity 2", "EXCEPTION sev 2: Disk/sdc busy 30.0/s > 25 severity 2"}},
		{SiHotTrap, 1, 0, 7, []string{"TRAP trap 7: trap 7: Disk/sdb busy 50.0/s > 25"}},
		{SiHotBoth, 1, 4, 9, []string{"EXCEPTION sev 4: Disk/sdb busy 50.0/s > 25 severity 4", "TRAP trap 9: trap 9: Disk/sdb busy 50.0/s > 25"}},
	} {
		t.Run(tc.except.String(), func(t *testing.T) {
			r, _, src := hsFiveDisks(t)
			log := NewEventLog(16)
			h := NewHotSet(r, src, log)
			// Feeds with SiHotAlways still leave the exceptions to the threshold.
			hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "Disk", Threshold: 25, MaxResp: tc.max, Frequency: 5,
				Feed: SiHotAlways, Except: tc.except, Severity: tc.sev, TrapNo: tc.trap})
			hsRead(t, h, true)
			evs := log.Events()
			var got []string
			for i := len(evs) - 1; i >= 0; i-- { // oldest first
				e := evs[i]
				tag := fmt.Sprintf("sev %d", e.Severity)
				if e.Kind == EvHotTrap {
					tag = fmt.Sprintf("trap %d", e.TrapNo)
				}
				got = append(got, fmt.Sprintf("%s %s: %s", e.Kind, tag, e.Text))
				if !e.Time.Equal(h.Time()) || !strings.HasSuffix(e.Path, "/busy") {
					t.Errorf("SPMI-HOT-12: event %v at %v path %s", e.Kind, e.Time, e.Path)
				}
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("SPMI-HOT-12: events\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// SPMI-HOT-13, AMB-43 and the other parameter rules: refusals name the parameter.
func TestHotValidation(t *testing.T) {
	r, _, src := hsFiveDisks(t)
	h := NewHotSet(r, src, nil)
	ok := HotSpec{Stat: "busy", Grandpa: "Disk", MaxResp: 2, Threshold: 25, Frequency: 5, Feed: SiHotThreshold,
		Except: SiHotBoth, Severity: 1, TrapNo: 1}
	for _, tc := range []struct {
		name  string
		edit  func(*HotSpec)
		param string
	}{
		{"severity 0 with exceptions", func(s *HotSpec) { s.Except, s.TrapNo, s.Severity = SiHotException, 0, 0 }, "severity"},
		{"frequency 4", func(s *HotSpec) { s.Frequency = 4 }, "frequency"},
		{"frequency 0", func(s *HotSpec) { s.Frequency = 0 }, "frequency"},
		{"trap_no 0 with traps", func(s *HotSpec) { s.Except, s.Severity, s.TrapNo = SiHotTrap, 0, 0 }, "trap_no"},
		{"severity 2 without exceptions (AMB-43)", func(s *HotSpec) { s.Except, s.TrapNo, s.Severity = SiHotNoException, 0, 2 }, "severity"},
		{"trap_no 3 without traps (AMB-43)", func(s *HotSpec) { s.Except, s.Severity, s.TrapNo = SiHotNoException, 0, 3 }, "trap_no"},
		{"severity with traps only", func(s *HotSpec) { s.Except, s.Severity = SiHotTrap, 2 }, "severity"},
		{"threshold 0 with exceptions", func(s *HotSpec) { s.Threshold = 0 }, "threshold"},
		{"maxresp 0 with exceptions", func(s *HotSpec) { s.MaxResp = 0 }, "maxresp"},
		{"maxresp negative", func(s *HotSpec) { s.MaxResp = -1 }, "maxresp"},
		{"maxresp beyond a short", func(s *HotSpec) { s.MaxResp = 40000 }, "maxresp"},
		{"feed_type 3", func(s *HotSpec) { s.Feed = 3 }, "feed_type"},
		{"except_type 4", func(s *HotSpec) { s.Except = 4 }, "except_type"},
		{"threshold NaN", func(s *HotSpec) { s.Threshold = math.NaN() }, "threshold"},
		{"negative severity", func(s *HotSpec) { s.Severity = -1 }, "severity"},
		{"empty StatName", func(s *HotSpec) { s.Stat = "" }, "StatName"},
		{"StatName path", func(s *HotSpec) { s.Stat = "sda/busy" }, "StatName"},
	} {
		sp := ok
		tc.edit(&sp)
		_, err := h.Add(sp)
		if hsSi(err) != SiBadArgument || !strings.Contains(err.Error(), tc.param) {
			t.Errorf("SPMI-HOT-13: %s = %v, want SiBadArgument naming %s", tc.name, err, tc.param)
		}
	}
	if _, err := h.Add(ok); err != nil {
		t.Fatalf("SPMI-HOT-13: valid parameters refused: %v", err)
	}
	if len(h.Entries()) != 1 {
		t.Fatalf("refused peer sets must not be added: %d", len(h.Entries()))
	}
}

// SPMI-HOT-14: at most one firing per frequency minutes; feeds continue every tick.
func TestHotFrequency(t *testing.T) {
	r := hsRegistry(t, 1)
	f := newHSFeed(t, r)
	for i, d := range hsFive {
		f.add(ClassID{2, 2}, d.name, uint64(i+1))
		f.set("Disk/"+d.name, "inflight", d.rate)
	}
	log := NewEventLog(16)
	h := NewHotSet(r, NewReading(f.take), log)
	v := hsAdd(t, h, HotSpec{Stat: "inflight", Grandpa: "Disk", Threshold: 40, MaxResp: 1, Frequency: 5,
		Feed: SiHotThreshold, Except: SiHotException, Severity: 3})
	var fired []int
	// A replay moved back to before the last exception (-10) raises it as it was raised then.
	for _, min := range []int{0, 1, 4, 6, -10, -9} {
		f.now = hsT0.Add(time.Duration(min) * time.Minute)
		before := log.Seq()
		hsRead(t, h, true)
		if log.Seq() != before {
			fired = append(fired, min)
		}
		if hsItems(v) != "sdb 50" {
			t.Fatalf("SPMI-HOT-14: feed at t=%d min = %q", min, hsItems(v))
		}
	}
	if fmt.Sprint(fired) != "[0 6 -10]" {
		t.Fatalf("SPMI-HOT-14: exceptions at %v min, want [0 6 -10]", fired)
	}
	// A read without a new reading raises nothing again.
	before := log.Seq()
	hsRead(t, h, false)
	if log.Seq() != before {
		t.Fatal("SPMI-HOT-14: re-reading the same reading raised an exception")
	}
}
