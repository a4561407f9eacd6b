// Package archivetest writes small PCP archives whose every value is known, for the tests of
// what reads them (the replay, the monitor's time cursor, the commands).
package archivetest

import (
	"path/filepath"
	"testing"
	"time"

	ns "dcimon/namespace"
	"dcimon/pcparchive"
)

// Start is the first sample's time in Write's archives.
var Start = time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC)

// Write writes an archive of host with n samples a second apart (from Start
// plus offset), with a temporal index entry every 60 records, as dcimon record does: hinv.ncpu
// and mem.physmem in the first sample only (as pmlogger's "once"), and kernel.all.pswitch rising
// by (2i-1)×100 between samples i-1 and i, so that each sample's rate says which it is.
func Write(t testing.TB, dir, host string, n int, offset time.Duration) string {
	t.Helper()
	base := filepath.Join(dir, host)
	w, err := pcparchive.Create(base, 3, pcparchive.Label{Host: host, TZ: "UTC", Start: Start.Add(offset)})
	if err != nil {
		t.Fatal(err)
	}
	units := func(u ns.PMUnits) uint32 {
		p, err := u.Pack()
		if err != nil {
			t.Fatal(err)
		}
		return p << 8
	}
	pswitch, ncpu, physmem := pcparchive.PMID(60, 0, 13), pcparchive.PMID(60, 0, 32), pcparchive.PMID(60, 1, 9)
	for _, d := range []pcparchive.Desc{
		{PMID: pswitch, Type: pcparchive.TypeU64, InDom: pcparchive.InDomNull, Sem: 1, Units: units(ns.PMUnits{DimCount: 1}), Names: []string{"kernel.all.pswitch"}},
		{PMID: ncpu, Type: pcparchive.TypeU32, InDom: pcparchive.InDomNull, Sem: 4, Names: []string{"hinv.ncpu"}},
		{PMID: physmem, Type: pcparchive.TypeU64, InDom: pcparchive.InDomNull, Sem: 4, Units: units(ns.PMUnits{DimSpace: 1, ScaleSpace: ns.PMSpaceKByte}), Names: []string{"mem.physmem"}},
	} {
		if err := w.PutDesc(d); err != nil {
			t.Fatal(err)
		}
	}
	var at time.Time
	for i := range n {
		at = Start.Add(offset + time.Duration(i)*time.Second)
		sets := []pcparchive.OutSet{{PMID: pswitch, Values: []pcparchive.OutValue{{Inst: -1, N: uint64(i * i * 100)}}}}
		if i == 0 {
			sets = append(sets, pcparchive.OutSet{PMID: ncpu, Values: []pcparchive.OutValue{{Inst: -1, N: 2}}},
				pcparchive.OutSet{PMID: physmem, Values: []pcparchive.OutValue{{Inst: -1, N: 4 << 20}}})
		}
		if err := w.PutResult(at, sets); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.CloseAt(at); err != nil {
		t.Fatal(err)
	}
	return base
}
