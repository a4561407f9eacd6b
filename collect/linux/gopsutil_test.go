package linux

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"dcimon/collect/schema"

	"github.com/shirou/gopsutil/v3/cpu"
	"github.com/shirou/gopsutil/v3/disk"
	"github.com/shirou/gopsutil/v3/net"
)

// ticks converts gopsutil's float seconds back to USER_HZ ticks; exact while ticks < 2^50.
func ticks(seconds float64) uint64 {
	return uint64(math.Round(seconds * cpu.ClocksPerSec))
}

// TestGopsutilReadsFixtureTrees checks that gopsutil, given gopsutilContext, reads the same tree as our
// parsers and agrees with them: the fixtures work for both, with plain directories instead of sysfs
// symlinks.
func TestGopsutilReadsFixtureTrees(t *testing.T) {
	t.Parallel()
	if cpu.ClocksPerSec != schema.UserHZ {
		t.Skipf("this host's CLK_TCK is %v, the fixture's USER_HZ is %d", cpu.ClocksPerSec, schema.UserHZ)
	}
	ctx := gopsutilContext(fixtureCtx(t, "basic", "t1"))
	s := readSample(t, ctx)

	per, err := cpu.TimesWithContext(ctx, true)
	if err != nil || len(per) != len(s.stat.cpus) {
		t.Fatalf("cpu.Times(percpu) = %d entries, %v; want %d", len(per), err, len(s.stat.cpus))
	}
	for i, g := range per {
		ours := s.stat.cpus[i].ticks
		got := [numCPUTimes]uint64{ticks(g.User), ticks(g.Nice), ticks(g.System), ticks(g.Idle), ticks(g.Iowait),
			ticks(g.Irq), ticks(g.Softirq), ticks(g.Steal), ticks(g.Guest), ticks(g.GuestNice)}
		if got != ours || g.CPU != "cpu"+strconv.Itoa(i) {
			t.Errorf("gopsutil %s = %v, ours %v", g.CPU, got, ours)
		}
	}

	dm, err := disk.IOCountersWithContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var nonzero []string
	for _, d := range s.disks {
		if d.v != ([numDiskCols]uint64{}) {
			nonzero = append(nonzero, d.name)
		}
		g, ok := dm[d.name]
		if !ok {
			continue
		}
		if g.ReadBytes != d.v[diskReadBytes] || g.WriteBytes != d.v[diskWriteBytes] || g.ReadCount != d.v[diskReads] ||
			g.WeightedIO != d.v[diskWeightedMs] || g.IoTime != d.v[diskIOMs] {
			t.Errorf("gopsutil %s = %+v, ours %v", d.name, g, d.v)
		}
		if g.SerialNumber != "" {
			t.Errorf("gopsutil found a serial for %s under a fixture: %q", d.name, g.SerialNumber)
		}
	}
	// Quirk: gopsutil drops every device whose counters are all zero, so an idle disk is missing, not 0.
	keys := make([]string, 0, len(dm))
	for k := range dm {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	slices.Sort(nonzero)
	if !slices.Equal(keys, nonzero) {
		t.Errorf("gopsutil disks = %v, want only the non-zero ones %v", keys, nonzero)
	}

	ns, err := net.IOCountersWithContext(ctx, true)
	if err != nil || len(ns) != len(s.nics) {
		t.Fatalf("net.IOCounters = %d, %v", len(ns), err)
	}
	for i, g := range ns {
		o := s.nics[i]
		if g.Name != o.name || g.BytesRecv != o.v[netRxBytes] || g.PacketsSent != o.v[netTxPackets] || g.Fifoout != o.v[netTxFIFO] {
			t.Errorf("gopsutil %+v, ours %s %v", g, o.name, o.v)
		}
	}
}

// TestGopsutilQuirks pins down the behaviour that decided where dcimon reads files itself (see the
// budget note in gopsutil.go). If an upgrade changes one of these, revisit that note.
func TestGopsutilQuirks(t *testing.T) {
	t.Parallel()
	// An unreadable /proc/stat is an empty slice with a nil error: "no data", never zeros.
	empty := withRoots(context.Background(), treeRoots(t.TempDir()))
	if ts, err := cpu.TimesWithContext(empty, true); err != nil || len(ts) != 0 {
		t.Errorf("cpu.Times on an empty tree = %v, %v; want [] and nil", ts, err)
	}
	// ... while net reports the same situation as an error.
	if _, err := net.IOCountersWithContext(empty, true); err == nil {
		t.Errorf("net.IOCounters on an empty tree: no error")
	}

	bad := gopsutilContext(fixtureCtx(t, "malformed", "t0"))
	// cpu drops bad lines silently (cpu0 is truncated): nothing says cpu0 is missing.
	if ts, err := cpu.TimesWithContext(bad, true); err != nil || len(ts) != 1 || ts[0].CPU != "cpu1" {
		t.Errorf("cpu.Times(malformed) = %v, %v", ts, err)
	}
	// disk skips short lines silently and stops at the first bad number with a bare strconv error.
	dm, err := disk.IOCountersWithContext(bad)
	if err == nil || len(dm) != 2 {
		t.Errorf("disk.IOCounters(malformed) = %d disks, %v", len(dm), err)
	}
	// net panics on a truncated line (index out of range).
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("net.IOCounters(malformed) did not panic: fixed upstream?")
			}
		}()
		_, _ = net.IOCountersByFileWithContext(bad, true, filepath.Join("testdata", "malformed", "t0", "proc", "net", "dev"))
	}()
}
