package linux

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// Issue 38 item 5: asked for the datums of a process but its I/O (the overview's process block
// at 80 columns), the scan reads no /proc/PID/io and says the I/O is not sampled, never 0; asked
// again for the I/O, it reads it and its rates start afresh (no rate over the skipped
// readings, never a spike).
func TestProcIONotReadWhenNotAsked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h, p, now := procHarness(t, dir)
	opened := countOpens(p, filepath.Base)
	noIO := allDatumsBut(p, schema.ProcIOBytesID)
	for id := schema.ProcRcharID; id <= schema.ProcWriteBytesID; id++ {
		noIO[id-1] = false
	}
	without := collect.Request{Datums: map[*ns.Class][]bool{p.cls: noIO}}
	procs := []fakeProc{{pid: 50, comm: "db", start: 4, utime: 100, rss: 10}}
	for i := range 3 {
		procs[0].utime += 50
		writeProcTree(t, dir, procs)
		req := without
		if i == 0 {
			req.Static, req.Variable = true, true
		}
		h.Step(req)
		*now = now.Add(time.Second)
	}
	if opened["io"] != 0 {
		t.Fatalf("io opened %d times while no datum of it was asked for", opened["io"])
	}
	for _, path := range []string{"Proc/50/read_bytes", "Proc/50/io_bytes", "Proc/50/rchar"} {
		if v := h.Value(path); v.State != ns.Unavailable || v.Reason != ns.ReasonNotSampled {
			t.Errorf("%s = %+v, want n/a (not sampled)", path, v)
		}
	}
	if v := h.Value("Proc/50/cpu"); v.State != ns.Valid || v.V != 500 {
		t.Errorf("cpu = %+v, want 500 ms/s: the rest is read as ever", v)
	}
	// The I/O asked for again: read at once, its rate from the next reading.
	procs[0].utime += 50
	writeProcTree(t, dir, procs)
	h.Step(collect.Request{})
	if opened["io"] != 1 {
		t.Fatalf("io opened %d times once asked for, want 1", opened["io"])
	}
	if v := h.Value("Proc/50/read_bytes"); v.State != ns.NoRate {
		t.Errorf("read_bytes after the skipped readings = %+v, want no rate yet (never a rate across them)", v)
	}
	*now = now.Add(time.Second)
	procs[0].utime += 50
	writeProcTree(t, dir, procs)
	h.Step(collect.Request{})
	if v := h.Value("Proc/50/read_bytes"); v.State != ns.Valid || v.V != 50*4096 {
		t.Errorf("read_bytes = %+v, want 50 pages a second", v)
	}
}

// The sampler asks for some datums only while every subscriber to the class wants some only:
// the overview's block alone leaves /proc/PID/io unread; the process table beside it (a whole
// subscription) has it read; each cancelled, the class is read as the others ask.
func TestSamplerSubscribeDatums(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeProcTree(t, dir, []fakeProc{{pid: 5, comm: "a", start: 3}})
	p := newProcProvider(treeRoots(dir), &bootClock{}, 2, 8<<30)
	reads := map[string]int{}
	p.openHook = func(path string) error { reads[filepath.Base(path)]++; return nil }
	s, err := collect.NewSampler(ns.NewRegistry(), []collect.Provider{p}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sample := func(what string) map[string]int {
		clear(reads)
		if _, err := s.Sample(t.Context()); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %v", what, reads)
		return reads
	}
	want := make([]bool, len(p.cls.Datums))
	want[schema.ProcCPUID-1], want[schema.ProcUtimeID-1], want[schema.ProcStimeID-1] = true, true, true
	partial := s.SubscribeDatums(p.cls, want)
	if r := sample("the block alone"); r["stat"] == 0 || r["io"] != 0 {
		t.Fatalf("the block alone: %v, want stat read and io not", r)
	}
	whole := s.Subscribe(p.cls)
	if r := sample("the block and the table"); r["io"] == 0 {
		t.Fatalf("with a whole subscription beside: %v, want io read", r)
	}
	whole()
	if r := sample("the table gone"); r["io"] != 0 || r["stat"] == 0 {
		t.Fatalf("the whole subscription cancelled: %v, want io no longer read", r)
	}
	partial()
	if r := sample("nobody"); r["stat"] != 0 {
		t.Fatalf("nobody subscribed: %v, want the processes not read", r)
	}
}

// Issue 38 item 5: the control group (which the overview does not show) is not read while it is
// not asked for, and says so; asked for again, it is read at once for processes already known.
func TestProcCgroupReadWhenAsked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h, p, now := procHarness(t, dir)
	opened := countOpens(p, filepath.Base)
	all := allDatumsBut(p, schema.ProcCgroupID)
	writeProcTree(t, dir, []fakeProc{{pid: 60, comm: "web", start: 4, cmdline: "web\x00"}})
	h.Step(collect.Request{Static: true, Variable: true, Datums: map[*ns.Class][]bool{p.cls: all}})
	if opened["cgroup"] != 0 || opened["cmdline"] != 1 {
		t.Fatalf("opened %v: want the command line and no control group", opened)
	}
	if v := h.Value("Proc/60/cgroup"); v.State != ns.Unavailable || v.Reason != ns.ReasonNotSampled {
		t.Errorf("cgroup not asked for = %+v, want n/a (not sampled)", v)
	}
	*now = now.Add(time.Second)
	h.Step(collect.Request{})
	if opened["cgroup"] != 1 || opened["cmdline"] != 1 {
		t.Fatalf("opened %v: want the control group read once asked for, the command line kept", opened)
	}
	if v := h.Value("Proc/60/cgroup"); v.S != "/system.slice/x.service" {
		t.Errorf("cgroup = %+v", v)
	}
	*now = now.Add(time.Second)
	h.Step(collect.Request{})
	if opened["cgroup"] != 1 {
		t.Errorf("cgroup read again without a reason: %v", opened)
	}
}

// Issue 38 item 5: while the context switches are not asked for, a kernel thread's schedstat and
// status are not read again after its first scan (its user is root for its life) and its
// switches say not sampled; a process's are read as ever; asked for again, the kernel thread's
// are read at once.
func TestProcKernelThreadStatusWhenAsked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h, p, now := procHarness(t, dir)
	opened := countOpens(p, func(path string) string { return filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path) })
	noCtx := allDatumsBut(p, schema.ProcVCtxID, schema.ProcNVCtxID)
	without := collect.Request{Datums: map[*ns.Class][]bool{p.cls: noCtx}}
	procs := []fakeProc{{pid: 3, comm: "kworker/0:0", start: 1, kthread: true}, {pid: 70, comm: "app", start: 9, uid: 1000}}
	run := uint64(100)
	step := func(req collect.Request) {
		writeProcTree(t, dir, procs)
		for _, pid := range []string{"3", "70"} {
			if err := os.WriteFile(filepath.Join(dir, "proc", pid, "schedstat"), fmt.Appendf(nil, "%d 1 1\n", run), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		run += 100 // both ran
		h.Step(req)
		*now = now.Add(time.Second)
	}
	step(without)
	step(without)
	step(without)
	if opened["3/status"] != 1 || opened["3/schedstat"] != 1 || opened["70/status"] != 3 || opened["70/schedstat"] != 3 {
		t.Fatalf("opened %v: want the kernel thread's status and schedstat once, the process's at each scan", opened)
	}
	if v := h.Value("Proc/3/vctxsw"); v.State != ns.Unavailable || v.Reason != ns.ReasonNotSampled {
		t.Errorf("kernel thread's switches = %+v, want n/a (not sampled)", v)
	}
	if v := h.Value("Proc/3/user"); v.S != "root" {
		t.Errorf("kernel thread's user = %+v, want root", v)
	}
	if v := h.Value("Proc/70/vctxsw"); v.State != ns.Valid {
		t.Errorf("process's switches = %+v, want valid", v)
	}
	step(collect.Request{})
	if opened["3/status"] != 2 || opened["3/schedstat"] != 2 {
		t.Fatalf("opened %v: want the kernel thread's status read again once asked for", opened)
	}
	if v := h.Value("Proc/3/vctxsw"); v.State == ns.Unavailable {
		t.Errorf("kernel thread's switches asked for = %+v, want read", v)
	}
}

// countOpens counts the files p opens, each under the name key gives its path.
func countOpens(p *procProvider, key func(path string) string) map[string]int {
	opened := map[string]int{}
	p.openHook = func(path string) error {
		opened[key(path)]++
		return nil
	}
	return opened
}

// allDatumsBut is a request for every datum of p's class but the ones named by their ids.
func allDatumsBut(p *procProvider, ids ...int) []bool {
	want := make([]bool, len(p.cls.Datums))
	for i := range want {
		want[i] = true
	}
	for _, id := range ids {
		want[id-1] = false
	}
	return want
}
