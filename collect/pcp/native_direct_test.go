package pcp

import (
	"context"
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
		want := copyReadings(h.readWanted(ctx, collect.Request{}, slow, nil, nil))
		if len(got) != len(want) {
			t.Fatalf("%d classes by position, %d the ordinary way", len(got), len(want))
		}
		for i := range want {
			g, w := got[i], want[i]
			if g.Class != w.Class || !reflect.DeepEqual(g.Specs, w.Specs) || fmt.Sprint(g.Err) != fmt.Sprint(w.Err) {
				t.Errorf("%s: by position %d instances (%v), the ordinary way %d (%v)", w.Class.Name, len(g.Specs), g.Err, len(w.Specs), w.Err)
				continue
			}
			for k := range w.Raw {
				if g.Raw[k] != w.Raw[k] {
					t.Errorf("%s instance %d datum %s: by position %+v, the ordinary way %+v", w.Class.Name, k/len(w.Class.Datums),
						w.Class.Datums[k%len(w.Class.Datums)].Name, g.Raw[k], w.Raw[k])
				}
			}
		}
	}
	return direct
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
	if err != nil {
		t.Fatal(err)
	}
	s, err := collect.NewSampler(ns.NewRegistry(), provs, collect.Options{Deadline: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
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
