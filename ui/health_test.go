package ui

import (
	"errors"
	"testing"
	"time"

	"dcimon/namespace"
)

// Issue 14: a source of several hosts counts the hosts (suppliers pcp:<host>) that answered.
func TestHealthCountsHosts(t *testing.T) {
	reg := namespace.NewRegistry()
	t0 := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	var sample namespace.Sample
	for i, host := range []string{"web", "db", "gone"} {
		sup := namespace.Supplier{Module: "pcp:" + host}
		c := &namespace.Class{ID: namespace.ClassID{uint32(1000 + i)}, Name: host, Desc: "h", Flags: namespace.ClassEnabled, Supplier: &sup,
			Levels: []namespace.InstLevel{{Type: namespace.TypeUint4, Tag: namespace.TagSingleInst, Size: 4}},
			Datums: []namespace.Datum{namespace.Gauge(1, "x", namespace.TypeUint8, namespace.UnitCount, "x", "test")}}
		if err := reg.RegisterClass(c); err != nil {
			t.Fatal(err)
		}
		cs := namespace.ClassSample{Class: c, Time: t0, Start: t0, End: t0, Insts: reg.Instances(c), Raw: []namespace.Raw{{N: 1}}}
		if host == "gone" {
			cs.Err, cs.ErrReason = errors.New("cannot connect to PMCD"), namespace.ReasonProviderError
		}
		sample.Classes = append(sample.Classes, cs)
	}
	snap := namespace.Next(nil, &sample, nil)
	_, ok, bad, hostsOK, hosts := buildHealthHosts(reg, snap)
	if ok != 2 || bad != 1 || hostsOK != 2 || hosts != 3 {
		t.Errorf("ok %d bad %d, hosts %d of %d; want 2, 1, 2 of 3", ok, bad, hostsOK, hosts)
	}
}
