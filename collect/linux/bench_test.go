package linux

import (
	"context"
	"os"
	"syscall"
	"testing"

	"github.com/shirou/gopsutil/v3/cpu"
	"github.com/shirou/gopsutil/v3/disk"
	"github.com/shirou/gopsutil/v3/load"
	"github.com/shirou/gopsutil/v3/mem"
	"github.com/shirou/gopsutil/v3/net"
)

// The benchmarks read the live host: go test -run x -bench . -benchmem ./collect/
// See the budget note in gopsutil.go for the figures and what they decided.

func skipWithoutProc(b *testing.B) {
	for _, p := range []string{"/proc/stat", "/proc/diskstats", "/proc/net/dev"} {
		if _, err := os.Stat(p); err != nil {
			b.Skipf("no %s: %v", p, err)
		}
	}
}

// BenchmarkFloor is the least any CPU+disk+net sample can cost: open, read and close the three files
// with bare system calls into one buffer, and parse them into reused storage. Its only allocations are
// the three path conversions of syscall.Open.
func BenchmarkFloor(b *testing.B) {
	skipWithoutProc(b)
	buf := make([]byte, 1<<20)
	var st procStat
	var ds []diskStat
	var nd []netDevStat
	read := func(path string) []byte {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			m, err := syscall.Read(fd, buf[n:])
			if err == syscall.EINTR {
				continue
			}
			if err != nil {
				b.Fatal(err)
			}
			if m == 0 {
				break
			}
			n += m
		}
		syscall.Close(fd)
		return buf[:n]
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := parseStat("/proc/stat", read("/proc/stat"), &st); err != nil {
			b.Fatal(err)
		}
		var err error
		if ds, err = parseDiskstats("/proc/diskstats", read("/proc/diskstats"), ds, 0); err != nil {
			b.Fatal(err)
		}
		if nd, err = parseNetDev("/proc/net/dev", read("/proc/net/dev"), nd); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFloorKept is BenchmarkFloor with the three files kept open and read again with one
// pread each, as the providers read a live procfs (issue 38 item 5): the least a collection of
// them costs now.
func BenchmarkFloorKept(b *testing.B) {
	skipWithoutProc(b)
	buf := make([]byte, 1<<20)
	var st procStat
	var ds []diskStat
	var nd []netDevStat
	fds := map[string]int{}
	for _, p := range []string{"/proc/stat", "/proc/diskstats", "/proc/net/dev"} {
		fd, err := syscall.Open(p, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			b.Fatal(err)
		}
		defer syscall.Close(fd)
		fds[p] = fd
	}
	read := func(path string) []byte {
		n, err := syscall.Pread(fds[path], buf, 0)
		if err != nil {
			b.Fatal(err)
		}
		return buf[:n]
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := parseStat("/proc/stat", read("/proc/stat"), &st); err != nil {
			b.Fatal(err)
		}
		var err error
		if ds, err = parseDiskstats("/proc/diskstats", read("/proc/diskstats"), ds, 0); err != nil {
			b.Fatal(err)
		}
		if nd, err = parseNetDev("/proc/net/dev", read("/proc/net/dev"), nd); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRaw is our readers as a provider will call them: roots from the context, os.Open, one
// reused fileReader and reused storage.
func BenchmarkRaw(b *testing.B) {
	skipWithoutProc(b)
	ctx := context.Background()
	var fr fileReader
	var st procStat
	var ds []diskStat
	var nd []netDevStat
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if err = readStat(ctx, &fr, &st); err != nil {
			b.Fatal(err)
		}
		if ds, err = readDiskstats(ctx, &fr, ds, 0); err != nil {
			b.Fatal(err)
		}
		if nd, err = readNetDev(ctx, &fr, nd); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRawStat(b *testing.B) {
	skipWithoutProc(b)
	ctx := context.Background()
	var fr fileReader
	var st procStat
	b.ReportAllocs()
	for b.Loop() {
		if err := readStat(ctx, &fr, &st); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRawDiskstats(b *testing.B) {
	skipWithoutProc(b)
	ctx := context.Background()
	var fr fileReader
	var ds []diskStat
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if ds, err = readDiskstats(ctx, &fr, ds, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRawNetDev(b *testing.B) {
	skipWithoutProc(b)
	ctx := context.Background()
	var fr fileReader
	var nd []netDevStat
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if nd, err = readNetDev(ctx, &fr, nd); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGopsutilCPUTimes(b *testing.B) {
	skipWithoutProc(b)
	ctx := gopsutilContext(context.Background())
	b.ReportAllocs()
	for b.Loop() {
		if ts, err := cpu.TimesWithContext(ctx, true); err != nil || len(ts) == 0 {
			b.Fatal(len(ts), err)
		}
	}
}

func BenchmarkGopsutilDiskIOCounters(b *testing.B) {
	skipWithoutProc(b)
	ctx := gopsutilContext(context.Background())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := disk.IOCountersWithContext(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGopsutilNetIOCounters(b *testing.B) {
	skipWithoutProc(b)
	ctx := gopsutilContext(context.Background())
	b.ReportAllocs()
	for b.Loop() {
		if ns, err := net.IOCountersWithContext(ctx, true); err != nil || len(ns) == 0 {
			b.Fatal(len(ns), err)
		}
	}
}

// Memory and load are not part of the CPU+disk+net budget; measured for the next providers.
func BenchmarkRawMeminfo(b *testing.B) {
	skipWithoutProc(b)
	ctx := context.Background()
	var fr fileReader
	var mi memInfo
	b.ReportAllocs()
	for b.Loop() {
		if err := readMeminfo(ctx, &fr, &mi); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGopsutilVirtualMemory(b *testing.B) {
	skipWithoutProc(b)
	ctx := gopsutilContext(context.Background())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := mem.VirtualMemoryWithContext(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRawLoadAvg(b *testing.B) {
	skipWithoutProc(b)
	ctx := context.Background()
	var fr fileReader
	b.ReportAllocs()
	for b.Loop() {
		if _, err := readLoadAvg(ctx, &fr); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGopsutilLoadAvg(b *testing.B) {
	skipWithoutProc(b)
	ctx := gopsutilContext(context.Background())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := load.AvgWithContext(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// The parse-only benchmarks use the basic fixture, so they do not depend on the host.
func BenchmarkParseStat(b *testing.B) {
	data := readFixture(b, "basic/t0/proc/stat")
	var st procStat
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := parseStat("stat", data, &st); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseDiskstats(b *testing.B) {
	data := readFixture(b, "basic/t0/proc/diskstats")
	var ds []diskStat
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		var err error
		if ds, err = parseDiskstats("diskstats", data, ds, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseNetDev(b *testing.B) {
	data := readFixture(b, "basic/t0/proc/net/dev")
	var nd []netDevStat
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		var err error
		if nd, err = parseNetDev("dev", data, nd); err != nil {
			b.Fatal(err)
		}
	}
}
