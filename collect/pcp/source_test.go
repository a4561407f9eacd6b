package pcp

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	"dcimon/collect/linux"
	"dcimon/internal/pcptest"
	ns "dcimon/namespace"
)

// samplerOf is a sampler of a new registry over provs, made with opt; err is the error of
// making provs, which fails the test as the sampler's own does.
func samplerOf(tb testing.TB, provs []collect.Provider, err error, opt collect.Options) *collect.Sampler {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
	s, err := collect.NewSampler(ns.NewRegistry(), provs, opt)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// readTwice is s's second reading, 300 ms after its first: one with the rates of the counters.
func readTwice(t *testing.T, s *collect.Sampler) *ns.Snapshot {
	t.Helper()
	ctx := context.Background()
	if _, err := s.Sample(ctx); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	snap, err := s.Sample(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// pcpSampler is a sampler whose only supplier is the remote host opt names.
func pcpSampler(t *testing.T, opt Options) *collect.Sampler {
	t.Helper()
	provs, err := Providers(opt)
	// A deadline well above what a loaded machine (the whole suite, under -race, beside other
	// pmcds) needs for a first reading: these tests are about what is read, not how fast.
	return samplerOf(t, provs, err, collect.Options{Deadline: 10 * time.Second})
}

// Issue 14: a host read through a real pmproxy and pmcd (started by the test) fills the same
// classes as the local providers, with the same numbers where both read the same kernel; so does
// one read over PCP's own protocol, directly and relayed by pmproxy (issue 31). Each comes back
// by itself after its pmcd is killed and started again, with no rate across the restart.
func TestPCPSourceMatchesLocal(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	for _, path := range []string{"rest", "native", "native@proxy"} {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			p := pcptest.Start(t)
			opt := Options{URL: p.URL(), Hostspec: p.Hostspec()}
			switch path {
			case "native":
				opt.URL = ""
			case "native@proxy":
				opt.URL, opt.Hostspec = "", p.ProxyHostspec()
			}
			testMatchesLocal(t, p, pcpSampler(t, opt))
		})
	}
}

func testMatchesLocal(t *testing.T, p *pcptest.PCP, s *collect.Sampler) {
	ctx := context.Background()
	snap := readTwice(t, s)
	local := collecttest.NewHarness(t, linux.Providers(linux.Options{}))
	local.Step(collect.Request{Static: true})
	// Disks and interfaces: the same names, sizes and MTUs as the local providers see.
	var same []string
	for _, class := range []string{"Disk", "NetIf"} {
		ref, err := local.Reg.Lookup(nil, class)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range ref.Ctx.Children() {
			if _, err := s.Registry().Lookup(nil, class+"/"+c.Name); err != nil {
				t.Errorf("%s/%s is local but not remote: %v", class, c.Name, err)
				continue
			}
			if class == "Disk" {
				same = append(same, class+"/"+c.Name+"/size")
			} else {
				same = append(same, class+"/"+c.Name+"/mtu")
			}
		}
	}
	if len(same) == 0 {
		t.Error("no disk or interface to compare")
	}
	if rv, lv := collecttest.Value(t, s, snap, "Host/hostname"), local.Value("Host/hostname"); rv.S != lv.S || rv.S == "" {
		t.Errorf("Host/hostname: remote %q, local %q", rv.S, lv.S)
	}
	for _, path := range append([]string{"Mem/Real/total", "CPU/ncpu", "Host/boottime", "FS/∕/size", "FS/∕/inodes"}, same...) {
		rv := collecttest.Value(t, s, snap, path)
		lv := local.Value(path)
		if rv.State != ns.Valid || rv.N != lv.N {
			t.Errorf("%s: remote %+v, local %+v", path, rv, lv)
		}
	}
	for _, path := range []string{"CPU/cpu0/user", "CPU/busy", "Mem/Virt/faults", "Mem/Real/avail", "Host/load1", "Host/uptime",
		"Pressure/cpu/some_avg10", "Pressure/io/some_total", "TCP/currestab", "TCP/insegs", "IP/inreceives"} {
		if v := collecttest.Value(t, s, snap, path); v.State != ns.Valid {
			cv := snap.Class(s.Registry().Class(ns.ClassID{1, 2}))
			t.Errorf("%s: %+v (class read at %v, elapsed %v; status %+v)", path, v, cv.Time, cv.Elapsed, s.Status()[0])
		}
	}
	ref, _ := s.Registry().Lookup(nil, "CPU/cpu0/user")
	if ref.Datum.PCP.Name != "kernel.percpu.cpu.user" || !strings.Contains(ref.Datum.Source, "PCP metric kernel.percpu.cpu.user") {
		t.Errorf("CPU/cpu0/user: PCP name %q source %q", ref.Datum.PCP.Name, ref.Datum.Source)
	}

	// The host goes down: its classes say why, and no number is invented; it comes back by
	// itself, with no rate across the restart (its counters started again).
	p.StopPMCD()
	time.Sleep(100 * time.Millisecond)
	snap, _ = s.Sample(ctx)
	v := collecttest.Value(t, s, snap, "CPU/cpu0/user")
	st := s.Status()[0]
	if st.State != "failing" || st.LastErr == nil {
		t.Logf("pmproxy still answered with pmcd down: %+v %v", v, st.LastErr)
	} else if v.State == ns.Valid {
		t.Errorf("a valid value from a host that is down: %+v", v)
	}
	p.StartPMCD(t)
	p.WaitReady(t)
	deadline := time.Now().Add(45 * time.Second)
	for {
		snap, _ = s.Sample(ctx)
		// Back when its memory is read again and its processors are there again (a pmcd
		// just started may answer for one before its PMDAs answer for the other).
		if _, err := s.Registry().Lookup(nil, "CPU/cpu0/user"); err == nil {
			if v := collecttest.Value(t, s, snap, "Mem/Real/total"); v.State == ns.Valid {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the host did not come back: %v", s.Status()[0].LastErr)
		}
		time.Sleep(500 * time.Millisecond)
	}
	for _, path := range []string{"CPU/cpu0/user", "Mem/Virt/faults"} {
		if v := collecttest.Value(t, s, snap, path); v.State == ns.Valid && v.V > 1e9 {
			t.Errorf("%s: a spike across the restart: %+v", path, v)
		}
	}
}

// A pmproxy that is not there: the provider is degraded with the URL in its error, and backs off.
func TestPCPSourceProxyDown(t *testing.T) {
	port := pcptest.FreePort(t)
	provs, err := Providers(Options{URL: "pcp://127.0.0.1:" + strconv.Itoa(port), Hostspec: "localhost", ProbeDeadline: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = provs[0].Collect(context.Background(), collect.Request{})
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1:"+strconv.Itoa(port)) {
		t.Errorf("err %v, want the pmproxy URL", err)
	}
	t0 := time.Now()
	_, err2 := provs[0].Collect(context.Background(), collect.Request{})
	if err2 == nil || err2.Error() != err.Error() || time.Since(t0) > 100*time.Millisecond {
		t.Errorf("second try at once: %v after %v, want the same error at once (a backoff)", err2, time.Since(t0))
	}
}

// pmproxy forgets a context idle past its polltimeout: the provider makes it again, with a new
// reset value, so no rate is computed across it (issue 14).
func TestPCPSourceContextExpires(t *testing.T) {
	t.Parallel() // it waits on pmlogger or pmproxy's clock: beside the other tests that do (issue 37)
	p := pcptest.Start(t)
	s := pcpSampler(t, Options{URL: p.URL(), Hostspec: p.Hostspec(), Interval: 100 * time.Millisecond})
	ctx := context.Background()
	if _, err := s.Sample(ctx); err != nil {
		t.Fatal(err)
	}
	reset := s.Status()[0].Supplier.Reset
	time.Sleep(8 * time.Second) // past the context's 5 s polltimeout, with room for pmproxy's timer under load
	snap, _ := s.Sample(ctx)
	if st := s.Status()[0]; st.State != "ok" || st.Supplier.Reset == reset {
		t.Fatalf("after the context expired: state %s, reset %x (was %x), err %v", st.State, st.Supplier.Reset, reset, st.LastErr)
	}
	if v := collecttest.Value(t, s, snap, "CPU/cpu0/user"); v.State == ns.Valid {
		t.Errorf("a rate across a re-created context: %+v", v)
	}
	time.Sleep(200 * time.Millisecond)
	snap, _ = s.Sample(ctx)
	if v := collecttest.Value(t, s, snap, "CPU/cpu0/user"); v.State != ns.Valid {
		t.Errorf("no rate at the next reading: %+v", v)
	}
}

// BenchmarkPCPCollect is one collection of a remote host (every mapped metric in one fetch)
// through a real pmproxy and pmcd on this machine.
func BenchmarkPCPCollect(b *testing.B) {
	p := pcptest.Start(b)
	provs, err := Providers(Options{URL: p.URL(), Hostspec: p.Hostspec()})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := provs[0].Collect(ctx, collect.Request{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := provs[0].Collect(ctx, collect.Request{}); err != nil {
			b.Fatal(err)
		}
	}
}
