package linux

import (
	"context"
	"errors"
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

// benchLive times op, one call an iteration, on the live host; its first error fails the
// benchmark. What op reuses from one call to the next is declared by the caller, before.
func benchLive(b *testing.B, op func() error) {
	skipWithoutProc(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := op(); err != nil {
			b.Fatal(err)
		}
	}
}

// benchGopsutil is benchLive for a gopsutil call, given the context gopsutil reads the host with.
func benchGopsutil(b *testing.B, op func(ctx context.Context) error) {
	ctx := gopsutilContext(context.Background())
	benchLive(b, func() error { return op(ctx) })
}

// benchParse times parse over the basic fixture's file at path, so that it does not depend on the
// host.
func benchParse(b *testing.B, path string, parse func(data []byte) error) {
	data := readFixture(b, path)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// benchFloor parses /proc/stat, diskstats and net/dev, as read, into reused storage: the part
// BenchmarkFloor and BenchmarkFloorKept share; they differ in how read gets the bytes.
func benchFloor(b *testing.B, read func(path string) []byte) {
	var st procStat
	var ds []diskStat
	var nd []netDevStat
	benchLive(b, func() error {
		if err := parseStat("/proc/stat", read("/proc/stat"), &st); err != nil {
			return err
		}
		var err error
		if ds, err = parseDiskstats("/proc/diskstats", read("/proc/diskstats"), ds, 0); err != nil {
			return err
		}
		nd, err = parseNetDev("/proc/net/dev", read("/proc/net/dev"), nd)
		return err
	})
}

// errOf is the error of a call whose value the benchmark does not need.
func errOf[T any](_ T, err error) error { return err }

// nonEmpty is err, or an error when a call that must find something found n == 0 things.
func nonEmpty(n int, err error) error {
	if err == nil && n == 0 {
		return errors.New("found nothing")
	}
	return err
}

// BenchmarkFloor is the least any CPU+disk+net sample can cost: open, read and close the three files
// with bare system calls into one buffer, and parse them into reused storage. Its only allocations are
// the three path conversions of syscall.Open.
func BenchmarkFloor(b *testing.B) {
	buf := make([]byte, 1<<20)
	benchFloor(b, func(path string) []byte {
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
	})
}

// BenchmarkFloorKept is BenchmarkFloor with the three files kept open and read again with one
// pread each, as the providers read a live procfs (issue 38 item 5): the least a collection of
// them costs now.
func BenchmarkFloorKept(b *testing.B) {
	skipWithoutProc(b)
	buf := make([]byte, 1<<20)
	fds := map[string]int{}
	for _, p := range []string{"/proc/stat", "/proc/diskstats", "/proc/net/dev"} {
		fd, err := syscall.Open(p, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			b.Fatal(err)
		}
		defer syscall.Close(fd)
		fds[p] = fd
	}
	benchFloor(b, func(path string) []byte {
		n, err := syscall.Pread(fds[path], buf, 0)
		if err != nil {
			b.Fatal(err)
		}
		return buf[:n]
	})
}

// BenchmarkRaw is our readers as a provider will call them: roots from the context, os.Open, one
// reused fileReader and reused storage.
func BenchmarkRaw(b *testing.B) {
	ctx := context.Background()
	var fr fileReader
	var st procStat
	var ds []diskStat
	var nd []netDevStat
	benchLive(b, func() error {
		var err error
		if err = readStat(ctx, &fr, &st); err != nil {
			return err
		}
		if ds, err = readDiskstats(ctx, &fr, ds, 0); err != nil {
			return err
		}
		nd, err = readNetDev(ctx, &fr, nd)
		return err
	})
}

func BenchmarkRawStat(b *testing.B) {
	ctx := context.Background()
	var fr fileReader
	var st procStat
	benchLive(b, func() error { return readStat(ctx, &fr, &st) })
}

func BenchmarkRawDiskstats(b *testing.B) {
	ctx := context.Background()
	var fr fileReader
	var ds []diskStat
	benchLive(b, func() (err error) {
		ds, err = readDiskstats(ctx, &fr, ds, 0)
		return err
	})
}

func BenchmarkRawNetDev(b *testing.B) {
	ctx := context.Background()
	var fr fileReader
	var nd []netDevStat
	benchLive(b, func() (err error) {
		nd, err = readNetDev(ctx, &fr, nd)
		return err
	})
}

func BenchmarkGopsutilCPUTimes(b *testing.B) {
	benchGopsutil(b, func(ctx context.Context) error {
		ts, err := cpu.TimesWithContext(ctx, true)
		return nonEmpty(len(ts), err)
	})
}

func BenchmarkGopsutilDiskIOCounters(b *testing.B) {
	benchGopsutil(b, func(ctx context.Context) error { return errOf(disk.IOCountersWithContext(ctx)) })
}

func BenchmarkGopsutilNetIOCounters(b *testing.B) {
	benchGopsutil(b, func(ctx context.Context) error {
		ns, err := net.IOCountersWithContext(ctx, true)
		return nonEmpty(len(ns), err)
	})
}

// Memory and load are not part of the CPU+disk+net budget; measured for the next providers.
func BenchmarkRawMeminfo(b *testing.B) {
	ctx := context.Background()
	var fr fileReader
	var mi memInfo
	benchLive(b, func() error { return readMeminfo(ctx, &fr, &mi) })
}

func BenchmarkGopsutilVirtualMemory(b *testing.B) {
	benchGopsutil(b, func(ctx context.Context) error { return errOf(mem.VirtualMemoryWithContext(ctx)) })
}

func BenchmarkRawLoadAvg(b *testing.B) {
	ctx := context.Background()
	var fr fileReader
	benchLive(b, func() error { return errOf(readLoadAvg(ctx, &fr)) })
}

func BenchmarkGopsutilLoadAvg(b *testing.B) {
	benchGopsutil(b, func(ctx context.Context) error { return errOf(load.AvgWithContext(ctx)) })
}

// The parse-only benchmarks use the basic fixture, so they do not depend on the host.
func BenchmarkParseStat(b *testing.B) {
	var st procStat
	benchParse(b, "basic/t0/proc/stat", func(data []byte) error { return parseStat("stat", data, &st) })
}

func BenchmarkParseDiskstats(b *testing.B) {
	var ds []diskStat
	benchParse(b, "basic/t0/proc/diskstats", func(data []byte) (err error) {
		ds, err = parseDiskstats("diskstats", data, ds, 0)
		return err
	})
}

func BenchmarkParseNetDev(b *testing.B) {
	var nd []netDevStat
	benchParse(b, "basic/t0/proc/net/dev", func(data []byte) (err error) {
		nd, err = parseNetDev("dev", data, nd)
		return err
	})
}
