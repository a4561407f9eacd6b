package linux

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"dcimon/collect"

	"github.com/shirou/gopsutil/v3/host"
	"github.com/shirou/gopsutil/v3/mem"
	gnet "github.com/shirou/gopsutil/v3/net"
)

// The provider benchmarks read the live host: go test -run x -bench 'Collect|Floor' -benchmem ./collect/
// See gopsutil.go for the figures and the budget (CPU+disk+net at most twice BenchmarkFloor).

// benchCollect runs one steady-state collection of each provider per iteration: the first,
// complete collection (static and variable data) is done before the timer starts.
func benchCollect(b *testing.B, provs []collect.Provider) {
	skipWithoutProc(b)
	ctx := context.Background()
	for _, p := range provs {
		if _, err := p.Collect(ctx, collect.Request{Static: true, Variable: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range provs {
			if _, err := p.Collect(ctx, collect.Request{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkHostCollect is one collection of every host provider.
func BenchmarkHostCollect(b *testing.B) { benchCollect(b, Providers(Options{})) }

// BenchmarkCPUDiskNetCollect is the part of a collection the budget is about.
func BenchmarkCPUDiskNetCollect(b *testing.B) {
	benchCollect(b, hostProvidersOf(b, "cpu", "disk", "net"))
}

// BenchmarkNewClassesCollect is issue 19's classes together (pressure, IP/TCP/UDP, file systems,
// NUMA and, where there are any, sensors): budget 100 µs a collection.
func BenchmarkNewClassesCollect(b *testing.B) {
	benchCollect(b, hostProvidersOf(b, "pressure", "tcpip", "fs", "numa", "sensors?"))
}

func BenchmarkPressureCollect(b *testing.B) { benchCollect(b, hostProvidersOf(b, "pressure")) }
func BenchmarkTCPIPCollect(b *testing.B)    { benchCollect(b, hostProvidersOf(b, "tcpip")) }
func BenchmarkFSCollect(b *testing.B)       { benchCollect(b, hostProvidersOf(b, "fs")) }
func BenchmarkNUMACollect(b *testing.B)     { benchCollect(b, hostProvidersOf(b, "numa")) }
func BenchmarkCPUCollect(b *testing.B)      { benchCollect(b, hostProvidersOf(b, "cpu")) }
func BenchmarkDiskCollect(b *testing.B)     { benchCollect(b, hostProvidersOf(b, "disk")) }
func BenchmarkNetCollect(b *testing.B)      { benchCollect(b, hostProvidersOf(b, "net")) }

// hostProvidersOf is the host providers named (cpu for *linux.cpuProvider), by name and not by
// position, so a new provider cannot slip into another's benchmark. A name ending in ? may be
// absent (sensors, on a host without any).
func hostProvidersOf(b *testing.B, names ...string) []collect.Provider {
	b.Helper()
	var out []collect.Provider
	all := Providers(Options{})
	for _, n := range names {
		opt := strings.HasSuffix(n, "?")
		n = strings.TrimSuffix(n, "?")
		found := false
		for _, p := range all {
			if strings.HasSuffix(fmt.Sprintf("%T", p), "."+n+"Provider") {
				out, found = append(out, p), true
			}
		}
		if !found && !opt {
			b.Fatalf("no host provider %q", n)
		}
	}
	return out
}

// BenchmarkHostStatic is what the host provider reads once per supplier initialisation.
func BenchmarkHostStatic(b *testing.B) {
	skipWithoutProc(b)
	p := newHostProvider(hostRoots(), &bootClock{}, runtime.NumCPU())
	ctx := withRoots(context.Background(), hostRoots())
	b.ReportAllocs()
	for b.Loop() {
		p.readStatic(ctx)
	}
}

// gopsutil calls considered for the providers (figures in gopsutil.go).
func BenchmarkGopsutilPlatform(b *testing.B) {
	benchGopsutil(b, func(ctx context.Context) error {
		_, _, _, err := host.PlatformInformationWithContext(ctx)
		return err
	})
}

func BenchmarkGopsutilHostInfo(b *testing.B) {
	benchGopsutil(b, func(ctx context.Context) error { return errOf(host.InfoWithContext(ctx)) })
}

func BenchmarkGopsutilSwapMemory(b *testing.B) {
	benchGopsutil(b, func(ctx context.Context) error { return errOf(mem.SwapMemoryWithContext(ctx)) })
}

func BenchmarkRawMemCollect(b *testing.B) { benchCollect(b, Providers(Options{})[1:2]) }

// BenchmarkGopsutilInterfaces is one netlink dump of every interface with its addresses, what
// the net provider does for IPv4 addresses when SV_VARIABLE data is due.
func BenchmarkGopsutilInterfaces(b *testing.B) {
	benchGopsutil(b, func(ctx context.Context) error { return errOf(gnet.InterfacesWithContext(ctx)) })
}

// BenchmarkReadIPv4All asks for each interface's addresses one by one, the raw layer's way.
func BenchmarkReadIPv4All(b *testing.B) {
	skipWithoutProc(b)
	ctx := context.Background()
	names, err := listNetIfs(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, n := range names {
			if _, err := readIPv4(ctx, n); err != nil {
				b.Fatal(err)
			}
		}
	}
}
