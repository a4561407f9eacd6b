package linux

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	ns "dcimon/namespace"
)

const nodeMeminfo = "Node 0 MemTotal:        5204172 kB\nNode 0 MemFree:         4193940 kB\nNode 0 MemUsed:         1010232 kB\n"
const nodeNumastat = "numa_hit 64120692\nnuma_miss 0\nnuma_foreign 7\ninterleave_hit 1126\nlocal_node 64120043\nother_node 3\n"

func TestParseNUMA(t *testing.T) {
	var n numaNode
	if err := parseNodeMeminfo("m", []byte(nodeMeminfo), &n); err != nil || n.total != 5204172<<10 || n.free != 4193940<<10 {
		t.Fatalf("meminfo %+v %v", n, err)
	}
	if err := parseNumastat("s", []byte(nodeNumastat), &n); err != nil || n.hit != 64120692 || n.foreign != 7 || n.other != 3 || n.interleave != 1126 {
		t.Fatalf("numastat %+v %v", n, err)
	}
	for _, bad := range []string{"", "Node 0 MemTotal: x kB\n", "MemTotal: 5 kB\n", "Node 0 MemFree: 5 kB\n"} {
		var m numaNode
		if err := parseNodeMeminfo("m", []byte(bad), &m); err == nil {
			t.Errorf("meminfo %q parsed", bad)
		}
	}
	for _, bad := range []string{"", "numa_hit x\n", "other 5\n"} {
		var m numaNode
		if err := parseNumastat("s", []byte(bad), &m); err == nil {
			t.Errorf("numastat %q parsed", bad)
		}
	}
}

func FuzzParseNodeMeminfo(f *testing.F) {
	f.Add([]byte(nodeMeminfo))
	f.Fuzz(func(t *testing.T, data []byte) {
		var n numaNode
		if err := parseNodeMeminfo("fuzz", data, &n); err == nil && (n.total == 0 || n.total%1024 != 0) {
			t.Fatalf("%q gave total %d", data, n.total)
		}
	})
}

func FuzzParseNumastat(f *testing.F) {
	f.Add([]byte(nodeNumastat))
	f.Fuzz(func(t *testing.T, data []byte) {
		var n numaNode
		_ = parseNumastat("fuzz", data, &n)
	})
}

// issue 19: one instance per node, memory and allocation counters as rates; a tree without the
// node directory has no nodes, not an error.
func TestNUMAProvider(t *testing.T) {
	t.Parallel()
	rt := newRewriteTree(t, "basic", "sys/devices/system/node")
	dir := filepath.Join(rt.dir, "sys", "devices", "system", "node", "node1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("meminfo", "Node 1 MemTotal: 1000 kB\nNode 1 MemFree: 250 kB\n")
	write("numastat", "numa_hit 100\nnuma_miss 0\nnuma_foreign 0\ninterleave_hit 0\nlocal_node 100\nother_node 0\n")
	rt.step(0)
	write("numastat", "numa_hit 600\nnuma_miss 10\nnuma_foreign 0\ninterleave_hit 0\nlocal_node 590\nother_node 20\n")
	rt.step(time.Second)
	for _, c := range []struct {
		path string
		want float64
	}{{"NUMA/node1/total", 1000 << 10}, {"NUMA/node1/used", 750 << 10}, {"NUMA/node1/hit", 500}, {"NUMA/node1/miss", 10}, {"NUMA/node1/other", 20}} {
		if v := rt.h.Value(c.path); v.State != ns.Valid || v.V != c.want {
			t.Errorf("%s = %+v, want %g", c.path, v, c.want)
		}
	}
}
