package pcp

import (
	"context"
	"strings"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	ns "dcimon/namespace"
)

// browseFake is a remote host with a small PCP name space: single values and a float of another
// instance domain under kernel.all, a node of instances (disk.dev) with a string metric, an
// aggregate, and hostile help text, labels and instance names.
func browseFake() *fakePMProxy {
	disk := func(pmid string) map[string]any {
		return map[string]any{"pmid": pmid, "indom": "60.1", "type": "u64", "sem": "counter", "units": "count", "text-oneline": "I/O operations"}
	}
	return &fakePMProxy{
		descs: map[string]map[string]any{
			"kernel.all.nprocs":   {"pmid": "60.2.3", "type": "u32", "sem": "instant", "units": "none", "text-oneline": "total number of processes"},
			"kernel.all.boottime": {"pmid": "60.0.44", "type": "u64", "sem": "discrete", "units": "sec"},
			"kernel.all.pswitch": {"pmid": "60.0.13", "type": "u64", "sem": "counter", "units": "count", "text-oneline": "context switches",
				"text-help": "switches\x1b[2J cleared", "labels": map[string]any{"hostname": "h\x1b]0;owned\a"}},
			"kernel.all.load": {"pmid": "60.2.0", "indom": "60.2", "type": "float", "sem": "instant", "units": "none",
				"text-oneline": "1, 5 and 15 minute load average"},
			"disk.dev.read":  disk("60.0.4"),
			"disk.dev.write": disk("60.0.5"),
			"disk.dev.model": {"pmid": "60.0.99", "indom": "60.1", "type": "string", "sem": "discrete", "units": "none"},
			"event.records":  {"pmid": "2.0.1", "type": "aggregate", "sem": "instant", "units": "none"},
		},
		indoms: map[string][]map[string]any{
			"60.2": {{"instance": 1, "name": "1 minute"}, {"instance": 5, "name": "5 minute"}},
			"60.1": {{"instance": 0, "name": "sda"}, {"instance": 1, "name": "ev\x1b[31mil"}},
		},
		values: map[string]map[int64]any{
			"kernel.all.nprocs":   {-1: uint64(97)},
			"kernel.all.boottime": {-1: uint64(1795600000)},
			"kernel.all.pswitch":  {-1: uint64(1 << 60)},
			"kernel.all.load":     {1: 0.46, 5: 1.5},
			"disk.dev.read":       {0: uint64(100), 1: uint64(7)},
			"disk.dev.write":      {0: uint64(1)}, // none for the second disk now
			"disk.dev.model":      {0: "QEMU\x1b[31m", 1: "x"},
		},
	}
}

// Issue 14: a remote host's whole PCP name space under PCP, read a level at a time: nothing
// below PCP is read until a path reaches it; single values are statistics of their node, a
// node's instances its subcontexts, a metric of another instance domain a context of its own
// (PCPD-16: one class, one instance domain); counters are rates (PCPD-3), floats keep their
// decimals, a metric with no value for an instance is n/a, never 0 (PCPF-7), an aggregate is not
// supported and never fetched (PCPD-2), and hostile strings are escaped.
func TestPCPNameSpaceBrowse(t *testing.T) {
	f := browseFake()
	provs := f.providers(t, Options{Hostspec: "remote"})
	reg := ns.NewRegistry()
	s, err := collect.NewSampler(reg, provs, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	snap, err := s.Sample(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Lookup(nil, "PCP"); err != nil {
		t.Fatalf("no PCP context: %v", err)
	}
	if _, err := reg.Lookup(nil, "PCP/kernel"); err == nil {
		t.Error("PCP/kernel is there before anything reached it: the name space was read unasked")
	}
	if _, err = s.Reach(ctx, snap, "PCP/kernel/all/load/*/value", "PCP/kernel/all/pswitch", "PCP/disk/dev/*/read", "PCP/event/records"); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Lookup(nil, "PCP/disk/dev/sda/model"); err != nil {
		t.Fatalf("PCP/disk/dev/sda not reached: %v", err)
	}
	f.bump("kernel.all.pswitch", 500)
	f.bump("disk.dev.read", 30)
	if snap, err = s.Sample(ctx); err != nil {
		t.Fatal(err)
	}
	h := &collecttest.Harness{T: t, Reg: reg, Snap: snap}
	if v := h.Value("PCP/kernel/all/pswitch"); v.State != ns.Valid || v.V != 500 {
		t.Errorf("pswitch = %+v, want 500/s over pmcd's own second (a counter of 2^60 kept exactly)", v)
	}
	if v := h.Value("PCP/kernel/all/nprocs"); v.State != ns.Valid || v.N != 97 {
		t.Errorf("nprocs = %+v, want 97", v)
	}
	if v := h.Value("PCP/kernel/all/load/1 minute/value"); v.State != ns.Valid || int64(v.N) != 460000 {
		t.Errorf("load 1 minute = %+v, want 0.46 kept as 460000 millionths", v)
	}
	if d := h.Datum("PCP/kernel/all/load/1 minute/value"); d.Units != ns.UnitMicroUnits || d.PCP.Name != "kernel.all.load" || d.PCP.InDom != "60.2" {
		t.Errorf("load datum: units %v, PCP %+v", d.Units, d.PCP)
	}
	if v := h.Value("PCP/disk/dev/sda/read"); v.State != ns.Valid || v.V != 30 {
		t.Errorf("sda read = %+v, want 30/s", v)
	}
	evil := ""
	reg.Walk(func(c *ns.Context, _ int) bool {
		if strings.HasPrefix(c.Name, "ev") && strings.HasSuffix(c.Name, "il") {
			evil = c.Path()
		}
		if strings.ContainsAny(c.Name+c.Desc, "\x1b\a") {
			t.Errorf("a raw escape in %q / %q", c.Name, c.Desc)
		}
		return true
	})
	if evil == "" {
		t.Fatal("the hostile disk is not in the name space")
	}
	if v := h.Value(evil + "/write"); v.State != ns.Unavailable || v.Reason != ns.ReasonNoValues {
		t.Errorf("a metric with no value for the instance: %+v, want n/a with %v", v, ns.ReasonNoValues)
	}
	if v := h.Value("PCP/disk/dev/sda/model"); v.State != ns.Valid || !strings.HasPrefix(v.S, "QEMU") {
		t.Errorf("model = %+v", v) // the text as sent; the views escape it (views.Safe)
	}
	if v := h.Value("PCP/event/records"); v.State != ns.Unavailable || v.Reason != ns.ReasonNotSupported {
		t.Errorf("an aggregate = %+v, want not supported", v)
	}
	if d := h.Datum("PCP/kernel/all/boottime"); d.DCI4.Type != ns.STTime {
		t.Errorf("a boot time in seconds is shown as %v, want a date (ST_TIME)", d.DCI4.Type)
	}
	// PCPD-16: every datum of a class has the same instance domain.
	for _, p := range []string{"PCP/disk/dev/sda/read", "PCP/disk/dev/sda/write", "PCP/disk/dev/sda/model"} {
		if d := h.Datum(p); d.PCP.InDom != "60.1" {
			t.Errorf("%s: instance domain %q, want 60.1 as its class's", p, d.PCP.InDom)
		}
	}
	// PCPD-1: the descriptor as pmcd gives it, pmid included.
	d := h.Datum("PCP/kernel/all/pswitch")
	if strings.ContainsAny(d.Help, "\x1b\a") || !strings.Contains(d.Help, "60.0.13") || !strings.Contains(d.Help, "hostname=") {
		t.Errorf("help of pswitch: %q", d.Help)
	}
	if d.PCP.PMID != "60.0.13" || !d.IsCounter() {
		t.Errorf("pswitch's PCP view: %+v", d.PCP)
	}
	if _, err := reg.Lookup(nil, "PCP/kernel/all/cpu"); err == nil {
		t.Error("a node that does not exist on the host")
	}
}

// Issue 14: the name space is listed only while something wants it: a request for every class
// (the sampler's slow read of the rest) never explores it.
func TestPCPNameSpaceNotReadUnasked(t *testing.T) {
	f := browseFake()
	provs := f.providers(t, Options{Hostspec: "remote"})
	for range 3 {
		if _, err := provs[0].Collect(context.Background(), collect.Request{}); err != nil {
			t.Fatal(err)
		}
	}
	if g := provs[0].(collect.Grower).Grown(); len(g) != 0 {
		t.Errorf("a request for every class listed %d classes of the PCP name space", len(g))
	}
}

// Issue 14: a host whose probe did not answer at start (many hosts through one pmproxy, one
// request at a time) is declared with one processor; its own processor count and memory size,
// read at its first fetch, declare its classes again, so that its CPU totals are shares of its
// four processors, not of one (a busy host would read 400%).
func TestPCPScalesFromFirstFetch(t *testing.T) {
	f := &fakePMProxy{
		descs: map[string]map[string]any{
			"hinv.ncpu":           {"pmid": "60.0.32", "type": "u32", "sem": "discrete", "units": "none"},
			"mem.physmem":         {"pmid": "60.1.9", "type": "u64", "sem": "discrete", "units": "Kbyte"},
			"kernel.all.cpu.idle": {"pmid": "60.0.23", "type": "u64", "sem": "counter", "units": "millisec"},
		},
		values: map[string]map[int64]any{
			"hinv.ncpu":           {-1: uint64(4)},
			"mem.physmem":         {-1: uint64(8 << 20)},
			"kernel.all.cpu.idle": {-1: uint64(1000)},
		},
	}
	// A probe that cannot answer in time.
	provs := f.providers(t, Options{Hostspec: "late", ProbeDeadline: time.Nanosecond})
	reg := ns.NewRegistry()
	s, err := collect.NewSampler(reg, provs, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	share := func() float64 {
		ref, err := reg.Lookup(nil, "CPU/idle")
		if err != nil {
			t.Fatal(err)
		}
		return ref.Datum.Share
	}
	if got := share(); got != 1 {
		t.Fatalf("before the first fetch: share %v, want 1 (the probe's default)", got)
	}
	// The host is connected in the background (issue 40): its first reading, when it comes,
	// is of classes declared with its own scales.
	for i := 0; i < 100; i++ {
		if _, err := s.Sample(context.Background()); err != nil {
			t.Fatal(err)
		}
		if s.Status()[0].State == "ok" {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := share(); got != 4 {
		t.Errorf("after the first fetch: CPU/idle is a share of %v processors, want 4", got)
	}
	ref, err := reg.Lookup(nil, "Mem/Real/total")
	if err != nil || ref.Datum.Max != 8<<30 {
		t.Errorf("Mem/Real/total's scale %v, want the host's 8 GiB (%v)", ref.Datum.Max, err)
	}
}
