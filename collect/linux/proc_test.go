package linux

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	"dcimon/collect/schema"
	"dcimon/collect/synthetic"
	ns "dcimon/namespace"
	"dcimon/views"
)

func TestParsePIDStat(t *testing.T) {
	t.Parallel()
	ok := []struct {
		name, line string
		want       pidStat
	}{
		{"plain", "42 (bash) S 1 42 42 34816 42 4194304 1500 0 3 0 120 30 0 0 20 0 1 0 5000 10000000 900 18446744073709551615",
			pidStat{comm: []byte("bash"), state: 'S', ppid: 1, flags: 4194304, minflt: 1500, majflt: 3, utime: 120, stime: 30, priority: 20,
				threads: 1, start: 5000, vsize: 10000000, rssPages: 900, haveVsize: true, haveRSSPgs: true}},
		// A command name may hold spaces and parentheses: fields count after the last ')'.
		{"parens", "7 (a) b (c)) R 2 0 0 0 -1 2129984 0 0 0 0 5 6 0 0 -51 -20 3 0 77 0 0",
			pidStat{comm: []byte("a) b (c)"), state: 'R', ppid: 2, flags: 2129984, utime: 5, stime: 6, priority: -51, nice: -20,
				threads: 3, start: 77, haveVsize: true, haveRSSPgs: true}},
		// A zombie keeps its stat line, with nothing resident.
		{"zombie", "9 (defunct) Z 8 9 9 0 -1 4227084 0 0 0 0 1 1 0 0 20 0 1 0 99 0 0",
			pidStat{comm: []byte("defunct"), state: 'Z', ppid: 8, flags: 4227084, utime: 1, stime: 1, priority: 20, threads: 1, start: 99,
				haveVsize: true, haveRSSPgs: true}},
	}
	for _, c := range ok {
		var got pidStat
		if err := parsePIDStat("t", []byte(c.line+"\n"), &got); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: got %+v\nwant %+v", c.name, got, c.want)
		}
	}
	for _, bad := range []string{"", "42 bash S 1", "42 (bash) S 1 2 3", "42 (bash) S x 42 42 0 0 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0",
		"42 (bash) S 1 42 42 0 0 0 0 0 0 0 0 0 0 0 20 0 1 0 99999999999999999999 0 0"} {
		var got pidStat
		if err := parsePIDStat("t", []byte(bad), &got); err == nil {
			t.Errorf("parsePIDStat(%q) = nil error", bad)
		}
	}
}

func TestParseProcStatusAndIO(t *testing.T) {
	t.Parallel()
	var st procStatus
	if err := parseProcStatus("t", []byte("Name:\tx\nUid:\t1000\t1001\t1001\t1001\nvoluntary_ctxt_switches:\t12\nnonvoluntary_ctxt_switches:\t3\n"), &st); err != nil {
		t.Fatal(err)
	}
	if st != (procStatus{uid: 1001, vctx: 12, nvctx: 3, haveUID: true, haveCtx: true}) {
		t.Errorf("status: %+v", st)
	}
	if err := parseProcStatus("t", []byte("voluntary_ctxt_switches:\tx\n"), &st); err == nil {
		t.Error("a bad number was accepted")
	}
	var io procIO
	if err := parseProcIO("t", []byte("rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\nread_bytes: 5\nwrite_bytes: 6\ncancelled_write_bytes: 7\n"), &io); err != nil {
		t.Fatal(err)
	}
	if io != (procIO{1, 2, 3, 4, 5, 6, 63}) {
		t.Errorf("io: %+v", io)
	}
	if err := parseProcIO("t", []byte("garbage\n"), &io); err == nil {
		t.Error("garbage was accepted")
	}
}

func TestCgroupOf(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"0::/user.slice/user-1000.slice/session-2.scope\n": "/user.slice/user-1000.slice/session-2.scope",
		// This development host: hybrid, v2 at the root, the process's group in memory.
		"9:name=systemd:/\n4:memory:/process_api/1bd8\n3:cpuset:/\n0::/\n": "/process_api/1bd8",
		"5:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n0::/\n":          "/docker/abc",
		"0::/\n": "/",
		"":       "/",
	} {
		if got := cgroupOf([]byte(in)); got != want {
			t.Errorf("cgroupOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// procTree writes a /proc tree with the given processes under dir/proc, and the passwd file.
type fakeProc struct {
	pid, ppid, start, utime, stime, rss uint64
	comm, state, cmdline                string
	uid                                 int
	noIO                                bool // io absent (as a kernel may hide it)
	kthread                             bool // a kernel thread: PF_KTHREAD in stat's flags
}

func writeProcTree(t testing.TB, dir string, procs []fakeProc) {
	t.Helper()
	p := filepath.Join(dir, "proc")
	ents, _ := os.ReadDir(p)
	for _, e := range ents {
		if _, ok := pidOf([]byte(e.Name())); ok {
			os.RemoveAll(filepath.Join(p, e.Name()))
		}
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "etc"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "etc", "passwd"), []byte("root:x:0:0:root:/root:/bin/sh\nalice:x:1000:1000::/home/alice:/bin/sh\n"), 0o644))
	must(os.MkdirAll(p, 0o755))
	must(os.WriteFile(filepath.Join(p, "stat"), []byte("cpu 1 2 3 4 5 6 7 8 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nbtime 1700000000\n"), 0o644))
	for _, f := range procs {
		d := filepath.Join(p, fmt.Sprint(f.pid))
		must(os.MkdirAll(d, 0o755))
		st := f.state
		if st == "" {
			st = "S"
		}
		flags := 4194304
		if f.kthread {
			flags = 2129984 // PF_KTHREAD, PF_NOFREEZE, PF_FORKNOEXEC: a kworker's
		}
		must(os.WriteFile(filepath.Join(d, "stat"), fmt.Appendf(nil, "%d (%s) %s %d %d %d 0 -1 %d 100 0 2 0 %d %d 0 0 20 0 1 0 %d 1000000 %d 0\n",
			f.pid, f.comm, st, f.ppid, f.pid, f.pid, flags, f.utime, f.stime, f.start, f.rss), 0o644))
		// VmRSS is 172 kB more than stat's field 24 says, as on recent kernels where that field
		// is an approximate per-CPU counter (issue 29 item 7).
		must(os.WriteFile(filepath.Join(d, "status"), fmt.Appendf(nil, "Name:\t%s\nUid:\t%d\t%d\t%d\t%d\nVmRSS:\t    %d kB\nvoluntary_ctxt_switches:\t%d\nnonvoluntary_ctxt_switches:\t1\n",
			f.comm, f.uid, f.uid, f.uid, f.uid, f.rss*uint64(os.Getpagesize())/1024+172, f.utime), 0o644))
		if !f.noIO {
			must(os.WriteFile(filepath.Join(d, "io"), fmt.Appendf(nil, "rchar: %d\nwchar: 0\nsyscr: 1\nsyscw: 0\nread_bytes: %d\nwrite_bytes: 0\ncancelled_write_bytes: 0\n",
				f.utime*4096, f.utime*4096), 0o644))
		}
		must(os.WriteFile(filepath.Join(d, "cmdline"), []byte(f.cmdline), 0o644))
		must(os.WriteFile(filepath.Join(d, "cgroup"), []byte("0::/system.slice/x.service\n"), 0o644))
	}
}

// procHarness is a Proc provider over a tree with a clock the test moves.
func procHarness(t *testing.T, dir string) (*collecttest.Harness, *procProvider, *time.Time) {
	t.Helper()
	now := time.Unix(1700001000, 0)
	r := treeRoots(dir)
	p := newProcProvider(r, &bootClock{}, 2, 8<<30)
	p.now = func() time.Time { return now }
	return collecttest.NewHarness(t, []collect.Provider{p}), p, &now
}

// Issue 17: processes appear, exit and have their PIDs reused; a reused PID is a new instance
// whose rates start again (never a rate across two processes); nothing is stale after the next
// sample; the race of a process exiting between listing and reading is no error.
func TestProcLifecycle(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h, _, now := procHarness(t, dir)
	req := collect.Request{Static: true, Variable: true}
	writeProcTree(t, dir, []fakeProc{
		{pid: 1, comm: "init", start: 1, utime: 100, cmdline: "/sbin/init\x00splash\x00"},
		{pid: 200, comm: "worker", start: 5000, utime: 1000, stime: 10, rss: 256, uid: 1000, cmdline: "worker\x00--fast\x00"},
		{pid: 300, comm: "kworker/0:1", start: 10, state: "I"},
	})
	h.Step(req)
	if len(h.Errs) > 0 {
		t.Fatal(h.Errs)
	}
	if v := h.Value("Proc/200/cpu"); v.State != ns.NoRate {
		t.Errorf("first reading's cpu = %+v, want no rate yet", v)
	}
	// One second later worker used 500 ms of user and 10 ms of system time: 51% of a processor.
	*now = now.Add(time.Second)
	writeProcTree(t, dir, []fakeProc{
		{pid: 1, comm: "init", start: 1, utime: 100, cmdline: "/sbin/init\x00splash\x00"},
		{pid: 200, comm: "worker", start: 5000, utime: 1050, stime: 11, rss: 256, uid: 1000, cmdline: "worker\x00--fast\x00"},
		{pid: 300, comm: "kworker/0:1", start: 10, state: "I"},
	})
	h.Step(req)
	if v := h.Value("Proc/200/cpu"); v.State != ns.Valid || v.V != 510 {
		t.Errorf("cpu = %+v, want 510 ms/s", v)
	}
	if got := views.FormatValue(h.Datum("Proc/200/cpu"), h.Value("Proc/200/cpu"), views.Options{Class: h.Reg.Class(ns.ClassID{schema.ProcASN, 2})}); got != "51.0%" {
		t.Errorf("cpu shown as %q, want 51.0%% (top's %%CPU)", got)
	}
	for path, want := range map[string]string{
		"Proc/200/user": "alice", "Proc/1/user": "root", "Proc/200/cmdline": "worker --fast", "Proc/300/cmdline": "[kworker/0:1]",
		"Proc/300/state": "I", "Proc/200/command": "worker", "Proc/200/cgroup": "/system.slice/x.service",
	} {
		if v := h.Value(path); v.S != want {
			t.Errorf("%s = %+v, want %q", path, v, want)
		}
	}
	if v := h.Value("Proc/200/start"); v.V != 1700000000+50 {
		t.Errorf("start = %+v, want btime + 5000 ticks", v)
	}
	// top's RES: status's VmRSS (statm's resident), not stat's approximate field 24.
	if v := h.Value("Proc/200/rss"); v.V != 256*float64(os.Getpagesize())+172*1024 {
		t.Errorf("rss = %+v, want VmRSS", v)
	}
	old := h.Instance("Proc/200")

	// PID 300 runs another program (exec): the same process, its new command line read at once.
	*now = now.Add(time.Second)
	writeProcTree(t, dir, []fakeProc{
		{pid: 1, comm: "init", start: 1, utime: 100, cmdline: "/sbin/init\x00splash\x00"},
		{pid: 200, comm: "worker", start: 5000, utime: 1050, stime: 11, rss: 256, uid: 1000, cmdline: "worker\x00--fast\x00"},
		{pid: 300, comm: "newprog", start: 10, cmdline: "newprog\x00-x\x00"},
	})
	h.Step(collect.Request{})
	if v := h.Value("Proc/300/cmdline"); v.S != "newprog -x" {
		t.Errorf("after exec, cmdline = %q", v.S)
	}

	// PID 200 exits and the kernel gives it to a new process with a larger CPU time (pid_max
	// wrapped); PID 1 is listed but exits before its files are read (no stat file).
	*now = now.Add(time.Second)
	writeProcTree(t, dir, []fakeProc{
		{pid: 200, comm: "other", start: 9000, utime: 99999, cmdline: "other\x00"},
		{pid: 300, comm: "kworker/0:1", start: 10, state: "I"},
	})
	if err := os.MkdirAll(filepath.Join(dir, "proc", "1"), 0o755); err != nil { // listed, no files
		t.Fatal(err)
	}
	h.Step(req)
	if len(h.Errs) > 0 || h.Reading("13.2").Err != nil {
		t.Errorf("a process exiting while read is an error: %v %v", h.Errs, h.Reading("13.2").Err)
	}
	if _, err := h.Reg.Lookup(nil, "Proc/1"); err == nil {
		t.Error("Proc/1 is still there after it exited")
	}
	if in := h.Instance("Proc/200"); in == old || !old.Removed() {
		t.Error("a reused PID is the same instance")
	}
	if v := h.Value("Proc/200/cpu"); v.State != ns.NoRate || v.Reason != ns.ReasonNewInstance {
		t.Errorf("a reused PID's cpu = %+v, want no rate (new instance), never a spike", v)
	}
	// Process churn stays out of the event log (Class.Churn) is the sampler's business; the
	// registry still reports the removal.
	removed := 0
	for _, e := range h.Events {
		if e.Kind == ns.EvInstanceRemoved && strings.HasPrefix(e.Path, "Proc/") {
			removed++
		}
	}
	if removed != 2 {
		t.Errorf("%d removals, want 2 (PID 1, the old PID 200)", removed)
	}
}

// A process whose /proc/PID/io cannot be read has its I/O n/a with the reason, never 0.
func TestProcIOUnreadable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h, p, _ := procHarness(t, dir)
	writeProcTree(t, dir, []fakeProc{{pid: 5, comm: "secret", start: 3}, {pid: 6, comm: "old", start: 4, noIO: true}})
	p.openHook = func(path string) error {
		if strings.HasSuffix(path, "/5/io") {
			return unix.EACCES
		}
		return nil
	}
	h.Step(collect.Request{Static: true, Variable: true})
	for _, path := range []string{"Proc/5/read_bytes", "Proc/5/io_bytes", "Proc/5/syscr"} {
		v := h.Value(path)
		if v.State != ns.Unavailable || v.Reason != ns.ReasonAccessDenied {
			t.Errorf("%s = %+v, want n/a (access denied)", path, v)
		}
		if views.Mark(v) != views.MarkNA {
			t.Errorf("%s is shown as %q, want n/a", path, views.Mark(v))
		}
	}
	if v := h.Value("Proc/6/read_bytes"); v.State != ns.Unavailable || v.Reason != ns.ReasonNotPresent {
		t.Errorf("no io file: %+v, want n/a (not present)", v)
	}
	if err := h.Reading("13.2").Err; err != nil {
		t.Errorf("an unreadable io file is a class error: %v", err)
	}
}

// Hostile command lines are kept as the kernel gave them and made safe when shown.
func TestProcHostileCmdline(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h, _, _ := procHarness(t, dir)
	writeProcTree(t, dir, []fakeProc{{pid: 7, comm: "x\x1b[2J", start: 3, cmdline: "evil\x00\x1b]0;pwned\x07\x00\xff\xfe\x00" + strings.Repeat("a", 10000)}})
	h.Step(collect.Request{Static: true, Variable: true})
	v := h.Value("Proc/7/cmdline")
	if len(v.S) > schema.MaxCmdline+len("…") {
		t.Errorf("command line of %d bytes kept", len(v.S))
	}
	shown := views.FormatValue(h.Datum("Proc/7/cmdline"), v, views.Options{})
	if strings.ContainsAny(shown, "\x1b\x07") || !strings.HasPrefix(shown, "evil ") {
		t.Errorf("shown as %q", shown)
	}
	if c := views.FormatValue(h.Datum("Proc/7/command"), h.Value("Proc/7/command"), views.Options{}); strings.Contains(c, "\x1b") {
		t.Errorf("command shown as %q", c)
	}
}

// Issue 17: after the first scan, a scan allocates the same whatever the number of processes.
func TestProcAllocsIndependentOfCount(t *testing.T) {
	allocs := func(n int) float64 {
		dir := t.TempDir()
		var procs []fakeProc
		for i := range n {
			procs = append(procs, fakeProc{pid: uint64(100 + i), comm: "p", start: uint64(i), utime: uint64(i), cmdline: "p\x00"})
		}
		writeProcTree(t, dir, procs)
		p := newProcProvider(treeRoots(dir), &bootClock{}, 2, 8<<30)
		req := collect.Request{Classes: map[*ns.Class]bool{p.cls: true}}
		if _, err := p.Collect(t.Context(), req); err != nil {
			t.Fatal(err)
		}
		return testing.AllocsPerRun(20, func() {
			if _, err := p.Collect(t.Context(), req); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, big := allocs(10), allocs(300)
	if big > small {
		t.Errorf("a scan of 300 processes allocates %.0f times, of 10 %.0f: allocations grow with the count", big, small)
	}
}

// The Proc class is read only while someone subscribes to it: the sampler's full reads leave it
// out (issue 17: the default screen costs what it did).
func TestProcOnlyOnDemand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeProcTree(t, dir, []fakeProc{{pid: 5, comm: "a", start: 3}})
	p := newProcProvider(treeRoots(dir), &bootClock{}, 2, 8<<30)
	calls := 0
	p.openHook = func(string) error { calls++; return nil }
	s, err := collect.NewSampler(ns.NewRegistry(), []collect.Provider{p}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := s.Sample(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 0 {
		t.Fatalf("the processes were read %d times with nobody subscribed", calls)
	}
	cancel := s.Subscribe(s.Registry().OnDemand("Proc/*/rss")...)
	if _, err := s.Sample(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Registry().Lookup(nil, "Proc/5/rss"); err != nil || calls == 0 {
		t.Fatalf("subscribed, Proc/5/rss: %v (%d reads)", err, calls)
	}
	cancel()
	calls = 0
	if _, err := s.Sample(t.Context()); err != nil {
		t.Fatal(err)
	}
	if calls != 0 {
		t.Errorf("read %d times after the subscription ended", calls)
	}
}

// 100,000 processes (synthetic source) with churn and PID wrap: no panic, no stale rows.
func TestProcSyntheticHundredThousand(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 processes")
	}
	opt, err := synthetic.Parse("synthetic:procs=100000,pidstart=4194000")
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Unix(1700000000, 0)
	opt.Now = func() time.Time { return clock }
	var provs []collect.Provider
	for _, p := range synthetic.Providers(opt) {
		if p.Supplier().Module == "synthetic-proc" {
			provs = append(provs, p)
		}
	}
	h := collecttest.NewHarness(t, provs)
	for i := range 3 {
		clock = clock.Add(time.Second)
		snap := h.Step(collect.Request{Static: true, Variable: true})
		cv := snap.Class(h.Reg.Class(ns.ClassID{schema.ProcASN, 2}))
		if cv == nil || len(cv.Insts) != 100000 {
			t.Fatalf("step %d: %v instances, want 100000", i, cv)
		}
		for _, in := range cv.Insts {
			if in.Removed() {
				t.Fatalf("step %d: a removed process %s is still listed", i, in.Path())
			}
		}
	}
	// The PIDs wrapped past pid_max to 300.
	if _, err := h.Reg.Lookup(nil, "Proc/300"); err != nil {
		t.Errorf("no wrapped PID 300: %v", err)
	}
}

// issue 32 item 15: where /proc/PID/statm and schedstat are there, the resident size comes from
// statm at every scan and status is read again only when the main thread ran since the last
// scan (schedstat's run time moved): its user and context switches are the main thread's and
// cannot change while it does not run. A process that ran has its status read and its new
// counts shown.
func TestProcStatusOnlyWhenRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h, p, now := procHarness(t, dir)
	req := collect.Request{Static: true, Variable: true}
	procs := []fakeProc{{pid: 10, comm: "idle", start: 1, utime: 7, rss: 100, uid: 1000}, {pid: 20, comm: "busy", start: 2, utime: 50, rss: 300}}
	extra := func(run10, run20 uint64) {
		for pid, run := range map[uint64]uint64{10: run10, 20: run20} {
			d := filepath.Join(dir, "proc", fmt.Sprint(pid))
			rss := map[uint64]uint64{10: 120, 20: 310}[pid] // statm's resident pages: not stat's field 24
			if err := os.WriteFile(filepath.Join(d, "statm"), fmt.Appendf(nil, "5000 %d 30 10 0 400 0\n", rss), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, "schedstat"), fmt.Appendf(nil, "%d 1234 56\n", run), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	opened := map[string]int{}
	p.openHook = func(path string) error {
		opened[filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path)]++
		return nil
	}
	writeProcTree(t, dir, procs)
	extra(1000, 5000)
	h.Step(req)
	if opened["10/status"] != 1 || opened["20/status"] != 1 {
		t.Fatalf("first scan: status opened %v, want once each", opened)
	}
	if v := h.Value("Proc/10/rss"); v.State != ns.Valid || v.V != float64(120*os.Getpagesize()) {
		t.Errorf("rss = %+v, want statm's 120 pages", v)
	}
	// PID 10 did not run; PID 20 ran and switched 8 more times (the fixture writes utime as the
	// voluntary switches).
	*now = now.Add(time.Second)
	procs[1].utime = 58
	writeProcTree(t, dir, procs)
	extra(1000, 5600)
	h.Step(req)
	if opened["10/status"] != 1 || opened["20/status"] != 2 {
		t.Errorf("second scan: status opened %v, want again only for PID 20, which ran", opened)
	}
	if v := h.Value("Proc/20/vctxsw"); v.State != ns.Valid || v.V != 8 {
		t.Errorf("PID 20's switches = %+v, want 8/s", v)
	}
	if v := h.Value("Proc/10/vctxsw"); v.State != ns.Valid || v.V != 0 {
		t.Errorf("PID 10's switches = %+v, want 0/s from the values kept", v)
	}
	if v := h.Value("Proc/10/user"); v.S != "alice" {
		t.Errorf("PID 10's user = %+v, kept from its status", v)
	}
}

// Issue 38 item 5: a kernel thread's statm is never read (the kernel writes zeros for a thread
// without memory of its own); its resident size is still 0, and a user process's still statm's.
func TestProcKernelThreadStatmNotRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h, p, now := procHarness(t, dir)
	procs := []fakeProc{{pid: 2, comm: "kthreadd", start: 1, kthread: true}, {pid: 30, comm: "app", start: 9, rss: 40}}
	opened := map[string]int{}
	p.openHook = func(path string) error {
		opened[filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path)]++
		return nil
	}
	for i := range 2 {
		writeProcTree(t, dir, procs)
		for _, pid := range []string{"2", "30"} {
			// A statm that says otherwise for the kernel thread: were it read, its rss would show.
			if err := os.WriteFile(filepath.Join(dir, "proc", pid, "statm"), []byte("5000 77 30 10 0 400 0\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		h.Step(collect.Request{})
		*now = now.Add(time.Second)
		if opened["2/statm"] != 0 || opened["30/statm"] != i+1 {
			t.Fatalf("scan %d: statm opened %v, want never the kernel thread's, each scan the process's", i+1, opened)
		}
	}
	if v := h.Value("Proc/2/rss"); v.State != ns.Valid || v.V != 0 {
		t.Errorf("kernel thread's rss = %+v, want 0", v)
	}
	if v := h.Value("Proc/30/rss"); v.State != ns.Valid || v.V != float64(77*os.Getpagesize()) {
		t.Errorf("process's rss = %+v, want statm's 77 pages", v)
	}
}

// Issue 38 item 5: what is kept of a process for its life (its user, its command line) is keyed
// by its PID and start time: a new process given a PID whose old process did not run (the same
// schedstat run time) and without a variable-data reading has its own user and command line.
func TestProcReusedPIDKeepsNothingOfTheOld(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h, _, now := procHarness(t, dir)
	step := func(f fakeProc, req collect.Request) {
		writeProcTree(t, dir, []fakeProc{f})
		d := filepath.Join(dir, "proc", "40")
		if err := os.WriteFile(filepath.Join(d, "schedstat"), []byte("1000 1 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		h.Step(req)
		*now = now.Add(time.Second)
	}
	step(fakeProc{pid: 40, comm: "old", start: 100, uid: 1000, cmdline: "old\x00--a\x00"}, collect.Request{Static: true, Variable: true})
	step(fakeProc{pid: 40, comm: "old", start: 100, uid: 1000, cmdline: "old\x00--a\x00"}, collect.Request{})
	step(fakeProc{pid: 40, comm: "new", start: 200, uid: 0, cmdline: "new\x00--b\x00"}, collect.Request{})
	for path, want := range map[string]string{"Proc/40/user": "root", "Proc/40/cmdline": "new --b", "Proc/40/command": "new"} {
		if v := h.Value(path); v.S != want {
			t.Errorf("%s = %+v, want %q (the new process's)", path, v, want)
		}
	}
	if v := h.Value("Proc/40/start"); v.V != 1700000000+2 {
		t.Errorf("start = %+v, want the new process's", v)
	}
}

// FuzzParseStatmSched: never panics; what is accepted is a number of the input.
func FuzzParseStatmSched(f *testing.F) {
	f.Add([]byte("5000 120 30 10 0 400 0\n"))
	f.Add([]byte("123456789 1234 56\n"))
	f.Add([]byte(" 1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if v, err := parseStatmResident("fuzz", data); err == nil && !strings.Contains(string(data), fmt.Sprint(v)) {
			t.Fatalf("resident %d is not in %q", v, data)
		}
		if v, err := parseSchedRun("fuzz", data); err == nil && !strings.Contains(string(data), fmt.Sprint(v)) {
			t.Fatalf("run time %d is not in %q", v, data)
		}
	})
}
