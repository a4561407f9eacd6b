package pcp

import (
	"context"
	"slices"
	"testing"
	"time"

	"dcimon/pmproxy"
)

// positionHost is a host read from fetches a test makes: the Linux PMDA's disk metrics
// described, and its disks named by names.
func positionHost(t *testing.T, names map[int64]string) (*pcpHost, pcpClass) {
	t.Helper()
	h := &pcpHost{opt: Options{Hostspec: "position"}, now: time.Now}
	h.start(1, 0)
	h.descs = map[string]pmproxy.Desc{}
	for _, m := range []string{"disk.dev.read", "disk.dev.write", "disk.dev.read_bytes"} {
		h.descs[m] = pmproxy.Desc{Name: m, InDom: "60.1", Type: "u64", Sem: "counter", Units: "count"}
	}
	h.descs["disk.dev.read_bytes"] = pmproxy.Desc{Name: "disk.dev.read_bytes", InDom: "60.1", Type: "u64", Sem: "counter", Units: "Kbyte"}
	h.descsGen++ // as fetch counts them
	h.factors = map[string]float64{}
	h.instNm = map[string]map[int64]string{}
	setNames(h, names)
	for _, pc := range h.classes {
		if pc.InstOf != nil && pc.Parent == nil && pc.NameMetric == "" && slices.ContainsFunc(pc.Datums, func(b pcpDatum) bool { return b.Metric == "disk.dev.read" }) {
			return h, pc
		}
	}
	t.Fatal("no disk class in the mapping")
	return nil, pcpClass{}
}

// setNames gives the host's disks names, as an instance domain read again would.
func setNames(h *pcpHost, names map[int64]string) {
	for _, m := range []string{"disk.dev.read", "disk.dev.write", "disk.dev.read_bytes"} {
		h.instNm[m] = names
	}
	h.namesGen++
}

// fetched is a fetch of the disk metrics: each metric's instances in the order given, its value
// the instance number times k.
func fetched(order map[string][]int64, k uint64) *pmproxy.Fetched {
	f := &pmproxy.Fetched{Time: time.Unix(1795600000+int64(k), 0), Values: map[string][]pmproxy.Value{}}
	for m, ids := range order {
		for _, id := range ids {
			f.Values[m] = append(f.Values[m], pmproxy.Uint(id, uint64(id+1)*k))
		}
	}
	return f
}

// Issue 38 item 2: a class whose instances stayed is read by the places kept from the last
// fetch, and reads as a host reading that fetch for the first time would, whatever changed
// between: values, the places of the instances, the instances themselves, their names.
func TestReadByPositionReadsAsAFirstReading(t *testing.T) {
	names := map[int64]string{0: "sda", 1: "sdb", 2: "sdc"}
	h, pc := positionHost(t, names)
	all := []string{"disk.dev.read", "disk.dev.write", "disk.dev.read_bytes"}
	same := func(ids ...int64) map[string][]int64 {
		o := map[string][]int64{}
		for _, m := range all {
			o[m] = ids
		}
		return o
	}
	steps := []struct {
		what     string
		order    map[string][]int64
		names    map[int64]string // when set, the instance domain read again
		position bool             // read by position
	}{
		{"the first fetch", same(0, 1), nil, false},
		{"the same disks, new values", same(0, 1), nil, true},
		{"the same disks in other places", same(1, 0), nil, false},
		{"the same again", same(1, 0), nil, true},
		{"one metric lists them otherwise", map[string][]int64{"disk.dev.read": {1, 0}, "disk.dev.write": {0, 1}, "disk.dev.read_bytes": {1, 0}}, nil, false},
		{"a disk gone", same(1), nil, false},
		{"a disk come", same(1, 2), nil, false},
		{"a metric without the new disk", map[string][]int64{"disk.dev.read": {1, 2}, "disk.dev.write": {1}, "disk.dev.read_bytes": {1, 2}}, nil, false},
		{"renamed, in the same places", map[string][]int64{"disk.dev.read": {1, 2}, "disk.dev.write": {1}, "disk.dev.read_bytes": {1, 2}},
			map[int64]string{0: "sda", 1: "vdb", 2: "vdc"}, false},
		{"as it was", map[string][]int64{"disk.dev.read": {1, 2}, "disk.dev.write": {1}, "disk.dev.read_bytes": {1, 2}}, nil, true},
	}
	ctx := context.Background()
	for k, st := range steps {
		if st.names != nil {
			names = st.names
			setNames(h, names)
		}
		f := fetched(st.order, uint64(k+1))
		present := h.bufsOf(pc.Class).present
		if got := k > 0 && h.bufsOf(pc.Class).sameInstances(h, present, f); got != st.position {
			t.Errorf("%s: read by position %v, want %v", st.what, got, st.position)
		}
		got := h.read(ctx, pc, f)
		fresh, fpc := positionHost(t, names)
		want := fresh.read(ctx, fpc, f)
		if got.Err != nil || want.Err != nil {
			t.Fatalf("%s: %v, %v", st.what, got.Err, want.Err)
		}
		if len(got.Specs) != len(want.Specs) || len(got.Raw) != len(want.Raw) || len(want.Specs) == 0 {
			t.Fatalf("%s: %d instances and %d values, a first reading %d and %d", st.what, len(got.Specs), len(got.Raw), len(want.Specs), len(want.Raw))
		}
		for i := range want.Specs {
			g, w := got.Specs[i], want.Specs[i]
			if g.OSName != w.OSName || !slices.Equal(g.Levels, w.Levels) || g.ASN != w.ASN || g.Desc != w.Desc {
				t.Errorf("%s: instance %d is %+v, a first reading's %+v", st.what, i, g, w)
			}
		}
		for i := range want.Raw {
			if got.Raw[i] != want.Raw[i] {
				t.Errorf("%s: value %d (%s of %s) is %+v, a first reading's %+v", st.what, i, pc.Class.Datums[i%len(pc.Class.Datums)].Name,
					got.Specs[i/len(pc.Class.Datums)].OSName, got.Raw[i], want.Raw[i])
			}
		}
	}
}
