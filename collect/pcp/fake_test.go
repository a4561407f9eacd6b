package pcp

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// fakePMProxy is a pmproxy whose host is a table: descriptors, instance domains and values, so a
// test can give a remote host what no real one here has (partitions, hostile names, an older
// PMDA without some metrics).
type fakePMProxy struct {
	mu     sync.Mutex
	descs  map[string]map[string]any // name → descriptor fields
	indoms map[string][]map[string]any
	values map[string]map[int64]any // name → instance (-1: none) → value
	sec    int64
}

func (f *fakePMProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	q := r.URL.Query()
	enc := json.NewEncoder(w)
	switch {
	case strings.HasSuffix(r.URL.Path, "/context"):
		_ = enc.Encode(map[string]any{"context": 1, "hostspec": q.Get("hostspec")})
	case strings.HasSuffix(r.URL.Path, "/metric"):
		var out []map[string]any
		for _, n := range strings.Split(q.Get("names"), ",") {
			if d, ok := f.descs[n]; ok {
				m := map[string]any{"name": n}
				for k, v := range d {
					m[k] = v
				}
				out = append(out, m)
			}
		}
		if len(out) == 0 {
			w.WriteHeader(http.StatusBadRequest)
			_ = enc.Encode(map[string]any{"message": "traversal failed - Unknown metric name", "success": false})
			return
		}
		_ = enc.Encode(map[string]any{"metrics": out})
	case strings.HasSuffix(r.URL.Path, "/children"):
		// The name space is the descriptors' names.
		prefix := q.Get("prefix")
		leaf, inner := childrenOf(maps.Keys(f.descs), prefix)
		if leaf == nil {
			leaf = []string{}
		}
		if inner == nil {
			inner = []string{}
		}
		_ = enc.Encode(map[string]any{"name": prefix, "leaf": leaf, "nonleaf": inner})
	case strings.HasSuffix(r.URL.Path, "/indom"):
		_ = enc.Encode(map[string]any{"instances": f.indoms[q.Get("indom")]})
	case strings.HasSuffix(r.URL.Path, "/fetch"):
		f.sec++
		var vals []map[string]any
		for _, n := range strings.Split(q.Get("names"), ",") {
			vs, ok := f.values[n]
			if !ok {
				continue
			}
			var insts []map[string]any
			for id, v := range vs {
				var inst any = id
				if id < 0 {
					inst = nil
				}
				insts = append(insts, map[string]any{"instance": inst, "value": v})
			}
			vals = append(vals, map[string]any{"name": n, "instances": insts})
		}
		// pmproxy's own form: the nanoseconds without leading zeros (5 ms is ".5000000").
		_ = enc.Encode(map[string]any{"timestamp": json.Number(fmt.Sprintf("%d.%d", 1795600000+f.sec, 5000000)), "values": vals})
	}
}

// bump adds n to every integer value of metric.
// providers serves the fake over HTTP for the test's life and returns the providers of a
// pcp:// source on it with opt (its URL set here).
func (f *fakePMProxy) providers(t testing.TB, opt Options) []collect.Provider {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	opt.URL = strings.Replace(srv.URL, "http://", "pcp://", 1)
	provs, err := Providers(opt)
	if err != nil {
		t.Fatal(err)
	}
	return provs
}

func (f *fakePMProxy) bump(metric string, n uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for id, v := range f.values[metric] {
		f.values[metric][id] = v.(uint64) + n
	}
}

// A remote host with what this machine lacks: partitions under their disks (nvme's p1 too), a
// hidden loop device and its partition, a disk name with an escape sequence, and an older PMDA
// without most disk metrics, which are on each disk's invalid-data list, never 0.
func TestPCPSourcePartitionsAndHostileNames(t *testing.T) {
	disk := func(name string) map[string]any {
		return map[string]any{"pmid": "60.0.4", "indom": "60.1", "type": "u64", "sem": "counter", "units": "count"}
	}
	part := map[string]any{"pmid": "60.10.0", "indom": "60.10", "type": "u64", "sem": "counter", "units": "count"}
	f := &fakePMProxy{
		descs: map[string]map[string]any{
			"disk.dev.read":        disk("read"),
			"disk.dev.write":       disk("write"),
			"disk.dev.capacity":    {"pmid": "60.0.87", "indom": "60.1", "type": "u64", "sem": "discrete", "units": "Kbyte"},
			"disk.partitions.read": part,
		},
		indoms: map[string][]map[string]any{
			"60.1": {{"instance": 0, "name": "sda"}, {"instance": 1, "name": "nvme0n1"}, {"instance": 2, "name": "loop0"},
				{"instance": 3, "name": "evil\x1b[31m"}},
			"60.10": {{"instance": 10, "name": "sda1"}, {"instance": 11, "name": "sda2"}, {"instance": 12, "name": "nvme0n1p1"},
				{"instance": 13, "name": "loop0p1"}},
		},
		values: map[string]map[int64]any{
			"disk.dev.read":        {0: uint64(100), 1: uint64(200), 2: uint64(5), 3: uint64(7)},
			"disk.dev.write":       {0: uint64(1), 1: uint64(2), 2: uint64(3), 3: uint64(4)},
			"disk.dev.capacity":    {0: uint64(1 << 20), 1: uint64(2 << 20), 2: uint64(1), 3: uint64(1)},
			"disk.partitions.read": {10: uint64(50), 11: uint64(40), 12: uint64(150), 13: uint64(1)},
		},
	}
	provs := f.providers(t, Options{Hostspec: "old-host"})
	h := collecttest.NewHarness(t, provs)
	h.Step(collect.Request{Static: true})
	f.bump("disk.dev.read", 10) // over pmcd's 1 s between the two fetches
	h.Step(collect.Request{})
	for _, path := range []string{"Disk/sda/sda1", "Disk/sda/sda2", "Disk/nvme0n1/nvme0n1p1"} {
		if _, err := h.Reg.Lookup(nil, path); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
	for _, path := range []string{"Disk/loop0", "Disk/loop0/loop0p1"} {
		if _, err := h.Reg.Lookup(nil, path); err == nil {
			t.Errorf("%s: a hidden device is shown", path)
		}
	}
	if v := h.Value("Disk/sda/reads"); v.State != ns.Valid || v.V != 10 {
		t.Errorf("Disk/sda/reads = %+v, want 10/s over pmcd's own second", v)
	}
	if v := h.Value("Disk/sda/size"); v.N != 1<<30 {
		t.Errorf("Disk/sda/size = %d, want 1 GiB from 1,048,576 Kbyte", v.N)
	}
	if v := h.Value("Disk/sda/discards"); v.State != ns.Invalid {
		t.Errorf("a metric the older PMDA lacks: %+v, want invalid (on the invalid-data list)", v)
	}
	if v := h.Value("Disk/sda/busy"); v.State == ns.Valid {
		t.Errorf("busy from a missing avactive: %+v", v)
	}
	found := false
	h.Reg.Walk(func(c *ns.Context, depth int) bool {
		if strings.ContainsAny(c.Name+c.Desc, "\x1b") {
			t.Errorf("a raw escape in %q / %q", c.Name, c.Desc)
		}
		found = found || strings.HasPrefix(c.Name, "evil")
		return true
	})
	if !found {
		t.Error("the hostile disk is not in the name space at all")
	}
	if got := h.Datum("Disk/sda/reads").PCP.Name; got != "disk.dev.read" {
		t.Errorf("Disk/sda/reads names PCP metric %q", got)
	}
	if got := h.Datum("Disk/sda/sda1/reads").PCP.Name; got != "disk.partitions.read" {
		t.Errorf("a partition's reads name PCP metric %q", got)
	}
}

func TestPartitionParent(t *testing.T) {
	disks := map[string]int64{"sda": 0, "sd": 9, "nvme0n1": 1, "mmcblk0": 2, "md1": 3}
	for name, want := range map[string]int64{"sda1": 0, "sda12": 0, "nvme0n1p3": 1, "mmcblk0p2": 2, "md1p1": 3, "nvme0n11": -1, "sdb1": -1, "sda": -1} {
		got, _, ok := schema.PartitionParent(name, disks)
		if !ok {
			got = ^uint64(0)
		}
		if int64(got) != want {
			t.Errorf("%s: parent %d, want %d", name, int64(got), want)
		}
	}
}

// Issue 31: a value that does not fit (400 digits) is that value's error, said with the metric
// it came from, never every value's "provider error" without a word; a malformed instance
// domain keeps the disks, in error, rather than having them vanish; and describe names a mapped
// datum by pmcd's own pmid.
func TestPCPSourceBadValuesAndInstances(t *testing.T) {
	disk := map[string]any{"pmid": "60.0.4", "indom": "60.1", "type": "u64", "sem": "counter", "units": "count"}
	f := &fakePMProxy{
		descs: map[string]map[string]any{"disk.dev.read": disk, "disk.dev.write": disk},
		indoms: map[string][]map[string]any{
			"60.1": {{"instance": 0, "name": "sda"}, {"instance": 1, "name": "sdb"}},
		},
		values: map[string]map[int64]any{
			"disk.dev.read":  {0: uint64(100), 1: json.Number(strings.Repeat("9", 400))},
			"disk.dev.write": {0: uint64(1), 1: uint64(2)},
		},
	}
	provs := f.providers(t, Options{Hostspec: "h"})
	h := collecttest.NewHarness(t, provs)
	h.Step(collect.Request{Static: true})
	if v := h.Value("Disk/sdb/reads"); v.State == ns.Valid || v.Reason != ns.ReasonOverflow {
		t.Errorf("a 400-digit value: %+v, want it said not to fit", v)
	}
	if v := h.Value("Disk/sda/reads"); v.State != ns.Valid && v.State != ns.NoRate {
		t.Errorf("sda's reads beside sdb's bad one: %+v", v)
	}
	if cr := h.Reading("2.2"); cr.Err == nil || !strings.Contains(cr.Err.Error(), "disk.dev.read") || !strings.Contains(cr.Err.Error(), "instance 1") {
		t.Errorf("the class's error %v, want the metric and instance named", cr.Err)
	}
	if got := h.Datum("Disk/sda/reads").PCP.PMID; got != "60.0.4" {
		t.Errorf("Disk/sda/reads is described as pmid %q, want pmcd's 60.0.4", got)
	}
	// A new disk comes, and the instance domain pmproxy gives for it is malformed: the disks
	// known stay, in error, said why.
	f.mu.Lock()
	f.indoms["60.1"] = []map[string]any{{"instance": "zero", "name": "sda"}}
	f.values["disk.dev.read"][1] = uint64(5)
	f.values["disk.dev.read"][2] = uint64(7)
	f.mu.Unlock()
	h.Step(collect.Request{})
	for _, p := range []string{"Disk/sda", "Disk/sdb"} {
		if _, err := h.Reg.Lookup(nil, p); err != nil {
			t.Errorf("a malformed instance domain made %s vanish: %v", p, err)
		}
	}
	if cr := h.Reading("2.2"); cr.Err == nil || !strings.Contains(cr.Err.Error(), "indom") {
		t.Errorf("the class's error %v, want the malformed instance domain named", cr.Err)
	}
	// Then a domain that does not name an instance the fetch has.
	f.mu.Lock()
	f.indoms["60.1"] = []map[string]any{{"instance": 0, "name": "sda"}, {"instance": 1, "name": "sdb"}}
	f.mu.Unlock()
	h.Step(collect.Request{})
	if cr := h.Reading("2.2"); cr.Err == nil || !strings.Contains(cr.Err.Error(), "instance 2 of disk.dev.read is not in its instance domain") {
		t.Errorf("the class's error %v, want the instance the domain does not name", cr.Err)
	}
}
