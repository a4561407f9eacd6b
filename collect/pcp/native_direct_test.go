package pcp

import (
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/internal/pcptest"
	ns "dcimon/namespace"
	"dcimon/pcpwire"
	"dcimon/pmproxy"
)

// Issue 38 item 1: a native host whose answers keep their shape has them decoded straight into
// its rows by position. The same answers, decoded that way and then the ordinary way (values by
// name, read class by class), give the same readings: every class, instance and value, with
// the same errors. Without a plan (none recorded, or a decoding that fell back) it fails too.
func TestNativeByPositionAsOrdinary(t *testing.T) {
	addr := fleetProcess(t, "TestFleetPMCDServe", "DCIMON_FLEET_PMCD=8,16,4", "FLEETPMCD ")
	h := nativeHost(t, addr)
	direct := byPositionAsOrdinary(t, h, 5)
	if direct != 5 {
		t.Fatalf("%d of 5 answers decoded by position", direct)
	}
}

// The same against a real pmcd (its PMDAs' values, processes among them): the answers decoded by
// position, where the plan could be made, read as the ordinary way reads them.
func TestNativeByPositionAsOrdinaryReal(t *testing.T) {
	t.Parallel() // it waits on daemons (issue 37)
	p := pcptest.Start(t)
	h := nativeHost(t, p.Hostspec())
	t.Logf("%d of 3 answers decoded by position", byPositionAsOrdinary(t, h, 3))
}

func nativeHost(t *testing.T, spec string) *pcpHost {
	t.Helper()
	provs, err := Fleet(Options{}, []Host{{Name: "a", Spec: spec}})
	if err != nil {
		t.Fatal(err)
	}
	h := provs[0].(*pcpHost)
	t.Cleanup(func() {
		if x, ok := h.x.(*nativeContext); ok {
			x.Close()
		}
	})
	return h
}

// byPositionAsOrdinary collects h until its plan is made, then decodes rounds answers by
// position and the ordinary way and compares the readings; it says how many were decoded by
// position.
func byPositionAsOrdinary(t *testing.T, h *pcpHost, rounds int) int {
	t.Helper()
	ctx := context.Background()
	for range 3 {
		if _, err := h.Collect(ctx, collect.Request{}); err != nil {
			t.Fatal(err)
		}
	}
	if h.direct == nil || !h.directOK(h.direct.mask) {
		return 0
	}
	x := h.x.(*nativeContext)
	direct := 0
	for range rounds {
		var got []collect.ClassReading
		var slow *pmproxy.Fetched
		if _, err := x.fetchInto(ctx, h.names, func(res *pcpwire.Result) bool {
			if h.decodeDirect(res) {
				direct++
				got = copyReadings(h.directBatch().Classes)
			}
			slow = x.decode(res)
			return false
		}); err != nil {
			t.Fatal(err)
		}
		if got == nil {
			continue
		}
		sameReadings(t, "", got, copyReadings(h.readWanted(ctx, collect.Request{}, slow, nil, nil)))
	}
	return direct
}

// sameReadings fails t where the readings by position (got) are not the ordinary way's (want).
func sameReadings(t *testing.T, what string, got, want []collect.ClassReading) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s%d classes by position, %d the ordinary way", what, len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Class != w.Class || !reflect.DeepEqual(g.Specs, w.Specs) || fmt.Sprint(g.Err) != fmt.Sprint(w.Err) {
			t.Errorf("%s%s: by position %d instances (%v), the ordinary way %d (%v)", what, w.Class.Name, len(g.Specs), g.Err, len(w.Specs), w.Err)
			continue
		}
		for k := range w.Raw {
			if g.Raw[k] != w.Raw[k] {
				t.Errorf("%s%s instance %d datum %s: by position %+v, the ordinary way %+v", what, w.Class.Name, k/len(w.Class.Datums),
					w.Class.Datums[k%len(w.Class.Datums)].Name, g.Raw[k], w.Raw[k])
			}
		}
	}
}

// copyReadings copies the readings' specs and rows (the host fills its buffers again).
func copyReadings(crs []collect.ClassReading) []collect.ClassReading {
	out := slices.Clone(crs)
	for i := range out {
		out[i].Specs, out[i].Raw = slices.Clone(out[i].Specs), slices.Clone(out[i].Raw)
		if out[i].Specs == nil {
			out[i].Specs = []ns.InstanceSpec{}
		}
	}
	return out
}

// A fleet's hosts alike read by position from their third collection (the first names the
// instances, the second records the plan), share one plan and one list of the names and pmids
// they fetch, and keep no fetch's values between collections (issue 38 items 1 and 6: 20 KB
// and 6 KB a host).
func TestNativeFleetReadsByPosition(t *testing.T) {
	addr := fleetProcess(t, "TestFleetPMCDServe", "DCIMON_FLEET_PMCD=8,16,4", "FLEETPMCD ")
	var hs []Host
	for i := range 20 {
		hs = append(hs, Host{Name: fmt.Sprintf("web%02d", i), Spec: addr})
	}
	provs, err := Fleet(Options{}, hs)
	s := samplerOf(t, provs, err, collect.Options{Deadline: 30 * time.Second})
	for range 3 {
		if _, err := s.Sample(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	var plan *directPlan
	first := provs[0].(*pcpHost).x.(*nativeContext)
	for _, p := range provs {
		h := p.(*pcpHost)
		x := h.x.(*nativeContext)
		switch {
		case &x.lastNames[0] != &first.lastNames[0] || &x.pmids[0] != &first.pmids[0] || &x.of[0] != &first.of[0]:
			t.Errorf("%s: a list of names or pmids of its own", h.host.Name)
		case len(h.namesFor) == 0 && len(h.classes) < 64:
			t.Errorf("%s: asked for every class (the test wants the names of some)", h.host.Name)
		case slices.ContainsFunc(slices.Collect(maps.Values(h.namesFor)), func(n []string) bool { return &n[0] != &first.lastNames[0] }):
			t.Errorf("%s: a list of the names of some classes of its own", h.host.Name)
		case h.direct == nil || !h.directOK(h.direct.mask):
			t.Fatalf("%s: no plan to read by", h.opt.Hostspec)
		case plan != nil && h.direct.plan != plan:
			t.Errorf("%s: a plan of its own", h.host.Name)
		case x.vals != nil || slices.ContainsFunc(h.colVals, func(v []pmproxy.Value) bool { return v != nil }):
			t.Errorf("%s: keeps %d values of its fetch", h.host.Name, len(x.vals))
		}
		plan = h.direct.plan
	}
}

// A monitor asks for its screen's classes, and for every class now and then: each set of
// classes keeps its plan, so that the screen's is read by position again right after a read of
// every class, not recorded anew (a recording's garbage each time, 100 hosts at once).
func TestNativeByPositionPlanPerClasses(t *testing.T) {
	addr := fleetProcess(t, "TestFleetPMCDServe", "DCIMON_FLEET_PMCD=8,16,4", "FLEETPMCD ")
	h := nativeHost(t, addr)
	ctx := context.Background()
	if _, err := h.Collect(ctx, collect.Request{}); err != nil { // declared as the host's scale says
		t.Fatal(err)
	}
	screen := collect.Request{Classes: map[*ns.Class]bool{}}
	for _, pc := range h.classes[:4] {
		screen.Classes[pc.Class] = true
	}
	collectAs := func(req collect.Request) *directPlan {
		t.Helper()
		if _, err := h.Collect(ctx, req); err != nil {
			t.Fatal(err)
		}
		if h.direct == nil {
			return nil
		}
		return h.direct.plan
	}
	for range 3 {
		collectAs(screen)
	}
	collectAs(collect.Request{})
	collectAs(collect.Request{})
	p := collectAs(screen)
	if p == nil || h.x.(*nativeContext).vals != nil {
		t.Fatal("the screen's classes are not read by position after a read of every class")
	}
	if len(h.directs) != 2 || len(p.classes) != 4 {
		t.Fatalf("%d plans, the screen's of %d classes", len(h.directs), len(p.classes))
	}
}

// The edges of reading by position: an answer of another shape (an instance gone, a pmid
// answered in another's place, an error instead of values), a value not sent as its type, and
// a naming metric's text changed are not read by position, and the ordinary reading of the
// same answer still works; a counter that moved is read by position as the ordinary way reads
// it. The answers are one pmcd gave, changed.
func TestNativeByPositionEdges(t *testing.T) {
	addr := fleetProcess(t, "TestFleetPMCDServe", "DCIMON_FLEET_PMCD=8,16,4", "FLEETPMCD ")
	h := nativeHost(t, addr)
	if byPositionAsOrdinary(t, h, 1) != 1 {
		t.Fatal("no plan to read by")
	}
	x := h.x.(*nativeContext)
	var kept pcpwire.Result
	if _, err := x.fetchInto(context.Background(), h.names, func(res *pcpwire.Result) bool {
		kept = copyResult(res)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	p := h.direct.plan
	many, u64 := -1, -1 // a set with several values; one of unsigned 64-bit values
	for i, s := range kept.Sets {
		if len(s.Values) > 1 && many < 0 {
			many = i
		}
		if p.types[i] == pcpwire.TypeU64 && len(s.Values) > 0 && u64 < 0 {
			u64 = i
		}
	}
	if many < 0 || u64 < 0 {
		t.Fatal("the fake pmcd's answer has no set of several values or of u64 values")
	}
	cases := []struct {
		name   string
		change func(r *pcpwire.Result)
		byPos  bool
	}{
		{"a counter moved", func(r *pcpwire.Result) { binary.BigEndian.PutUint64(r.Sets[u64].Values[0].Block, 1<<40+7) }, true},
		{"an instance gone", func(r *pcpwire.Result) { r.Sets[many].Values = r.Sets[many].Values[1:] }, false},
		{"another instance in its place", func(r *pcpwire.Result) { r.Sets[many].Values[0].Inst += 1000 }, false},
		{"another pmid answered", func(r *pcpwire.Result) { r.Sets[many].PMID++ }, false},
		{"an error instead of values", func(r *pcpwire.Result) {
			r.Sets[many].Err, r.Sets[many].Values = pcpwire.Code(-12357), nil
		}, false},
		{"a set left out", func(r *pcpwire.Result) { r.Sets = r.Sets[:len(r.Sets)-1] }, false},
		{"a value not sent as its type", func(r *pcpwire.Result) { r.Sets[u64].Values[0].Block = []byte{1, 2, 3} }, false},
	}
	if len(p.nameSets) > 0 {
		cases = append(cases, struct {
			name   string
			change func(r *pcpwire.Result)
			byPos  bool
		}{"a file system mounted elsewhere", func(r *pcpwire.Result) {
			r.Sets[p.nameSets[0]].Values[0].Block = []byte("/elsewhere\x00")
		}, false})
	}
	t.Logf("%d changes (a naming metric among them: %v)", len(cases), len(p.nameSets) > 0)
	for _, c := range cases {
		r := copyResult(&kept)
		c.change(&r)
		if got := h.decodeDirect(&r); got != c.byPos {
			t.Errorf("%s: read by position %v, want %v", c.name, got, c.byPos)
			continue
		}
		var direct []collect.ClassReading
		if c.byPos {
			direct = copyReadings(h.directBatch().Classes)
		}
		ordinary := copyReadings(h.readWanted(context.Background(), collect.Request{}, x.decode(&r), nil, nil))
		if c.byPos {
			sameReadings(t, c.name+": ", direct, ordinary)
		}
		if len(ordinary) != len(p.classes) {
			t.Errorf("%s: the ordinary way read %d classes of %d", c.name, len(ordinary), len(p.classes))
		}
		// The host's buffers are as the ordinary reading left them: the next answer as it was is
		// read by position again, as the ordinary way reads it.
		r = copyResult(&kept)
		if h.directOK(h.direct.mask) && !h.decodeDirect(&r) {
			t.Errorf("after %s: the answer as it was is not read by position", c.name)
		}
	}
}

// copyResult is a copy of res that outlives the connection's (its values and their bytes).
func copyResult(res *pcpwire.Result) pcpwire.Result {
	out := pcpwire.Result{Time: res.Time, Sets: slices.Clone(res.Sets)}
	for i := range out.Sets {
		out.Sets[i].Values = slices.Clone(out.Sets[i].Values)
		for j := range out.Sets[i].Values {
			out.Sets[i].Values[j].Block = slices.Clone(out.Sets[i].Values[j].Block)
		}
	}
	return out
}
