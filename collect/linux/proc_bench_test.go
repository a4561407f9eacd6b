package linux

import (
	"context"

	"os/exec"
	"strconv"
	"testing"

	"github.com/shirou/gopsutil/v3/process"
	"golang.org/x/sys/unix"

	"dcimon/collect"
	ns "dcimon/namespace"
)

// Issue 17's budget: a scan of 1,000 processes in 3 ms or less, with allocations that do not
// grow with the count. Four views of the same cost:
//
//	ProcParse1000     our parsers alone, on the bytes of 1,000 processes' stat, status and io
//	ProcScanTree1000  list, open, read, parse and fill from a tree of 1,000 processes (a tmpfs or
//	                  page-cache copy: the files cost what a regular file costs)
//	ProcScanLive      the running host's /proc, whatever it holds, and ProcScanLive1000 with
//	                  1,000 sleeping processes started for it: the kernel's cost of writing each
//	                  process's files is in these, and it is most of it
//	GopsutilLive      gopsutil's process package reading the same datums, for comparison
//
// go test ./collect -run '^$' -bench 'Proc|Gopsutil' -benchmem

func BenchmarkProcParse1000(b *testing.B) {
	stat := []byte("4242 (postgres) S 1 4242 4242 0 -1 4194560 15000 0 30 0 12000 3000 0 0 20 0 8 0 500000 1073741824 65536 18446744073709551615\n")
	status := []byte("Name:\tpostgres\nUmask:\t0077\nState:\tS (sleeping)\nTgid:\t4242\nNgid:\t0\nPid:\t4242\nPPid:\t1\nTracerPid:\t0\nUid:\t113\t113\t113\t113\nGid:\t120\t120\t120\t120\n" +
		"FDSize:\t64\nGroups:\t120\nVmPeak:\t 1048576 kB\nVmSize:\t 1048576 kB\nVmRSS:\t  262144 kB\nThreads:\t8\nSigQ:\t0/63448\nCapEff:\t0000000000000000\n" +
		"Cpus_allowed_list:\t0-7\nvoluntary_ctxt_switches:\t150000\nnonvoluntary_ctxt_switches:\t3000\n")
	io := []byte("rchar: 123456789\nwchar: 98765432\nsyscr: 100000\nsyscw: 50000\nread_bytes: 4096000\nwrite_bytes: 8192000\ncancelled_write_bytes: 0\n")
	var st pidStat
	var sv procStatus
	var iv procIO
	b.ReportAllocs()
	for b.Loop() {
		for range 1000 {
			if parsePIDStat("s", stat, &st) != nil || parseProcStatus("s", status, &sv) != nil || parseProcIO("s", io, &iv) != nil {
				b.Fatal("parse")
			}
		}
	}
}

func benchProcScan(b *testing.B, p *procProvider) {
	req := collect.Request{Classes: map[*ns.Class]bool{p.cls: true}}
	bt, err := p.Collect(context.Background(), req)
	if err != nil {
		b.Fatal(err)
	}
	n := len(bt.Classes[0].Specs)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := p.Collect(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "procs")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(max(n, 1)), "ns/proc")
}

func BenchmarkProcScanTree1000(b *testing.B) {
	dir := b.TempDir()
	var procs []fakeProc
	for i := range 1000 {
		procs = append(procs, fakeProc{pid: uint64(100 + i), comm: "worker", start: uint64(i), utime: uint64(i), cmdline: "worker\x00--id\x00"})
	}
	writeProcTree(b, dir, procs)
	benchProcScan(b, newProcProvider(treeRoots(dir), &bootClock{}, 2, 8<<30))
}

func BenchmarkProcScanLive(b *testing.B) {
	benchProcScan(b, newProcProvider(hostRoots(), &bootClock{}, 2, 8<<30))
}

// startSleepers starts n sleeping processes, killed when the benchmark ends.
func startSleepers(b *testing.B, n int) {
	for range n {
		c := exec.Command("sleep", "3600")
		if err := c.Start(); err != nil {
			b.Skipf("cannot start sleeping processes: %v", err)
		}
		b.Cleanup(func() { c.Process.Kill(); c.Wait() })
	}
}

// BenchmarkProcScanLiveUncached is BenchmarkProcScanLive with no descriptor kept (issue 41 item
// 9): what a process beyond the cache costs.
func BenchmarkProcScanLiveUncached(b *testing.B) {
	p := newProcProvider(hostRoots(), &bootClock{}, 2, 8<<30)
	p.keep, p.keepKnown = true, true // budget 0: every file opened per reading
	benchProcScan(b, p)
}

func BenchmarkProcScanLive1000(b *testing.B) {
	startSleepers(b, 1000)
	benchProcScan(b, newProcProvider(hostRoots(), &bootClock{}, 2, 8<<30))
}

// BenchmarkGopsutilLive reads the datums of the Proc class with gopsutil's process package.
func BenchmarkGopsutilLive(b *testing.B) {
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		ps, err := process.Processes()
		if err != nil {
			b.Fatal(err)
		}
		n = len(ps)
		for _, p := range ps {
			_, _ = p.Times()
			_, _ = p.MemoryInfo()
			_, _ = p.IOCounters()
			_, _ = p.Name()
			_, _ = p.Status()
			_, _ = p.Ppid()
			_, _ = p.NumThreads()
			_, _ = p.NumCtxSwitches()
			_, _ = p.Uids()
		}
	}
	b.ReportMetric(float64(n), "procs")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(max(n, 1)), "ns/proc")
}

// BenchmarkProcFloorLive1000 only opens, reads and closes each process's stat, status and io,
// one read each: what the kernel costs to write them, which no parser can save. The scan's own
// cost is ProcScanLive1000's time less this.
func BenchmarkProcFloorLive1000(b *testing.B) {
	startSleepers(b, 1000)
	p := newProcProvider(hostRoots(), &bootClock{}, 2, 8<<30)
	pids, err := p.list("/proc", nil)
	if err != nil {
		b.Fatal(err)
	}
	var paths []pathZ
	for _, pid := range pids {
		for _, f := range []string{"stat", "status", "io"} {
			paths = append(paths, makePathZ("/proc/"+strconv.FormatUint(pid, 10)+"/"+f))
		}
	}
	buf := make([]byte, 4096)
	b.ResetTimer()
	for b.Loop() {
		for _, z := range paths {
			fd, err := openZ(z)
			if err != nil {
				continue
			}
			_, _ = unix.Read(fd, buf)
			unix.Close(fd)
		}
	}
	b.ReportMetric(float64(len(pids)), "procs")
}
