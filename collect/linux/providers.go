package linux

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/shirou/gopsutil/v3/common"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// Options choose where the host providers read from.
type Options struct {
	// Procfs and Sysfs are the directories read as /proc and /sys; empty means the real ones.
	// When either is set the source is a tree, not the live host: the udev database, /etc and
	// /dev are looked for next to it (Procfs's or else Sysfs's parent directory: run/, etc/,
	// dev/), and data that only the live kernel can give (IPv4 addresses, the machine
	// architecture) is reported as unavailable rather than mixed in from the running host.
	Procfs, Sysfs string
	// ShowLoop also shows loop, ram and zram block devices (and their partitions), and pseudo,
	// squashfs and duplicate file systems, hidden by default because they are rarely what a
	// person watching disks and file systems wants to see.
	ShowLoop bool
	// ProbeDeadline bounds the one read done before the first collection (the processor count
	// and memory size that set the classes' scales); 2 s when zero. A tree that does not answer
	// in time gets default scales, and its providers fail under the sampler's deadline instead.
	ProbeDeadline time.Duration
}

// hostProbe is what the classes' declarations need to know of the host before the first
// collection: only the scales of their statistics depend on it.
type hostProbe struct {
	ncpu     int                 // cpuN lines of /proc/stat; 0 when unknown
	memTotal uint64              // MemTotal of /proc/meminfo in bytes; 0 when unknown
	sensors  *schema.SensorScale // /sys/class/hwmon has a channel (the Sensors class is declared), and the limits found
	// absent names the classes whose source the host has not at all (a kernel without PSI has
	// no /proc/pressure; one without NUMA no /sys/devices/system/node), with why: they are
	// declared not applicable and never read (DCI-CLS-2).
	absent map[string]string
}

// probeHost reads the processor count and memory size from r within d. The reads run in their
// own goroutine, so a file that blocks (a hung network file system under a tree) costs at most d
// at start-up: the goroutine is abandoned, never waited for (issue 21).
func probeHost(r roots, d time.Duration) hostProbe {
	if d <= 0 {
		d = 2 * time.Second
	}
	ch := make(chan hostProbe, 1)
	go func() {
		ctx := withRoots(context.Background(), r)
		var fr fileReader
		var st procStat
		var mi memInfo
		_ = readStat(ctx, &fr, &st)
		_ = readMeminfo(ctx, &fr, &mi)
		total, _ := mi.get(memTotal)
		ch <- hostProbe{ncpu: len(st.cpus), memTotal: total, sensors: probeSensors(filepath.Join(r.sys, "class", "hwmon")),
			absent: probeAbsent(r)}
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case p := <-ch:
		return p
	case <-t.C:
		return hostProbe{}
	}
}

// roots resolves the options to the directories the readers use.
func (o Options) roots() roots {
	if o.Procfs == "" && o.Sysfs == "" {
		return hostRoots()
	}
	base := o.Procfs
	if base == "" {
		base = o.Sysfs
	}
	r := treeRoots(filepath.Dir(filepath.Clean(base)))
	r.proc, r.sys = "/proc", "/sys"
	if o.Procfs != "" {
		r.proc = o.Procfs
	}
	if o.Sysfs != "" {
		r.sys = o.Sysfs
	}
	return r
}

// Providers returns the built-in providers reading this host (or the tree the options name),
// in a fixed order: host, mem, cpu, disk, net. They share one boot-time reading, so the four
// host-wide suppliers report the same reset value (see bootClock).
func Providers(opt Options) []collect.Provider {
	r := opt.roots()
	boot := &bootClock{}
	probe := probeHost(r, opt.ProbeDeadline)
	provs := []collect.Provider{
		newHostProvider(r, boot, probe.ncpuOr()),
		newMemProvider(r, boot, probe.memTotal),
		newCPUProvider(r, boot, probe.ncpuOr()),
		newDiskProvider(r, boot, opt.ShowLoop),
		newNetProvider(r, boot),
		newPressureProvider(r, boot, probe.absent["Pressure"]),
		newTCPIPProvider(r, boot),
		newFSProvider(r, boot, opt.ShowLoop),
		newNUMAProvider(r, boot, probe.memTotal, probe.absent["NUMA"]),
	}
	provs = append(provs, newProcProvider(r, boot, probe.ncpuOr(), probe.memTotal), newCgroupProvider(r, boot, probe.ncpuOr()))
	if probe.sensors != nil {
		// Where there is no sensor the class is absent, not empty (issue 19).
		provs = append(provs, newSensorsProvider(r, boot, *probe.sensors))
	}
	return provs
}

// ncpuOr is the probed processor count, or this machine's when the tree did not say (the count
// only sets the CPU and load statistics' scales).
func (p hostProbe) ncpuOr() int {
	if p.ncpu > 0 {
		return p.ncpu
	}
	return runtime.NumCPU()
}

// bootClock is the boot time (seconds since the epoch, /proc/stat btime) that the host-wide
// suppliers use as their reset value (DCI4-SUP-8): a reboot is exactly when every counter they
// report starts again. The CPU and Host suppliers read /proc/stat at every collection anyway and
// keep this up to date; the Disk, NetIf and Mem suppliers, which do not read /proc/stat, use
// their last reading and read it themselves only at their first collection and when the sampler
// asks for static data. On the live host that is enough: dcimon does not survive a reboot of the
// machine it runs on. (The kernel derives btime from the wall clock, so stepping the clock moves
// it by the step: such a supplier "re-initialises" once, which costs one interval of rates.)
type bootClock struct{ v atomic.Uint64 }

func (b *bootClock) get() uint64  { return b.v.Load() }
func (b *bootClock) set(s uint64) { b.v.Store(s) }

// refreshBoot reads the boot time from /proc/stat into boot, keeping the previous value when the
// file cannot be read or has no plausible btime line.
func refreshBoot(ctx context.Context, fr *fileReader, boot *bootClock, now time.Time) {
	var st procStat
	_ = readStat(ctx, fr, &st)
	if v, ok := st.get(statBtime); ok && plausibleBoot(v, now) {
		boot.set(v)
	}
}

// earliestBoot is 2000-01-01 00:00:00 UTC. A boot time before it comes from a clock that was not
// set when the host booted, or from a corrupt /proc/stat (a truncated "btime 17", an overflowing
// 2^64−1 shown as 1969): not a time to show, nor one to key supplier resets on.
const earliestBoot = 946684800

// plausibleBoot reports whether btime (seconds since the epoch) can be the host's boot time read
// at now: not before 2000 and not more than a day in the future.
func plausibleBoot(btime uint64, now time.Time) bool {
	return btime >= earliestBoot && (now.Unix() <= 0 || btime <= uint64(now.Unix())+86400)
}

// rootsEnv caches the common.EnvMap of a provider's roots, so that pointing a collection at
// them costs one context value, not a seven-entry map per collection. The map is only read.
type rootsEnv struct {
	r   roots
	env common.EnvMap
}

// with returns ctx pointing our readers and gopsutil at r.
func (e *rootsEnv) with(ctx context.Context, r roots) context.Context {
	if e.env == nil || e.r != r {
		e.r, e.env = r, r.envMap()
	}
	return context.WithValue(ctx, common.EnvKey, e.env)
}

// clockFunc is a provider's clock: time.Now for the live host; tests inject their own.
type clockFunc func() time.Time

// probeAbsent finds the classes whose whole source the host lacks: a directory that does not
// exist at all (not one that cannot be read, which is an error to show at every reading).
func probeAbsent(r roots) map[string]string {
	out := map[string]string{}
	for _, a := range []struct{ class, dir, why string }{
		{"Pressure", filepath.Join(r.proc, "pressure"), "the kernel has no pressure stall information (no %s: PSI needs Linux 4.20 with CONFIG_PSI, and psi=1 where it is off by default)"},
		{"NUMA", filepath.Join(r.sys, "devices", "system", "node"), "the kernel has no NUMA nodes (no %s)"},
	} {
		if _, err := os.Stat(a.dir); errors.Is(err, fs.ErrNotExist) {
			out[a.class] = fmt.Sprintf(a.why, a.dir)
		}
	}
	return out
}

// notApplicable marks classes as not applicable on this host, and why (DCI-CLS-2): the sampler
// never reads them, and the tree, list and describe say so.
func notApplicable(why string, cs ...*ns.Class) {
	if why == "" {
		return
	}
	for _, c := range cs {
		c.Flags |= ns.ClassNotApplicable
		c.Help = "Not applicable on this host: " + why + ". " + c.Help
	}
}
