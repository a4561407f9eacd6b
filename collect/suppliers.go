package collect

import (
	"context"
	"encoding/binary"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/shirou/gopsutil/v3/common"

	ns "dcimon/namespace"
)

// The built-in name space (checklist §0.1, AMB-51). Top-level class ids are the SPMI ASN.1
// numbers of the top-level contexts, and stay stable: CPU 1 (`CPU/cpu0/idle` = 1.1.4), Disk 2,
// NetIf 3, Mem 4, Host 5; Monitor is 90 (the sampler's) and DDS 99 is left to extension
// suppliers. Under each instantiable top-level class, level 1 is reserved for a single-instance
// totals class (CPU's is 1.1; Disk's and NetIf's are not offered yet), level 2 holds the
// per-object class and level 3 a nested class (partitions, 2.3).
const (
	cpuASN   = 1
	diskASN  = 2
	netASN   = 3
	memASN   = 4
	hostASN  = 5
	ifaceVer = 101 // DCI4 interface version: statistics format 1.01 (ST_ADDRESS, ST_TIME), AMB-12
	supVer   = 100 // the suppliers' own version, 1.00
)

// Supplier handles (DCI4 swinumber): one per built-in supplier, the same for the host and the
// synthetic source so that a gatherer sees the same suppliers either way.
const (
	handleHost = 1 + iota
	handleMem
	handleCPU
	handleDisk
	handleNet
	handlePressure
	handleTCPIP
	handleFS
	handleNUMA
	handleSensors
	handleProc
	handleCGroup
)

// HostOptions choose where the host providers read from.
type HostOptions struct {
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
	ncpu     int          // cpuN lines of /proc/stat; 0 when unknown
	memTotal uint64       // MemTotal of /proc/meminfo in bytes; 0 when unknown
	sensors  *sensorScale // /sys/class/hwmon has a channel (the Sensors class is declared), and the limits found
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
		ch <- hostProbe{ncpu: len(st.cpus), memTotal: total, sensors: probeSensors(filepath.Join(r.sys, "class", "hwmon"))}
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
func (o HostOptions) roots() roots {
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

// HostProviders returns the built-in providers reading this host (or the tree the options name),
// in a fixed order: host, mem, cpu, disk, net. They share one boot-time reading, so the four
// host-wide suppliers report the same reset value (see bootClock).
func HostProviders(opt HostOptions) []Provider {
	r := opt.roots()
	boot := &bootClock{}
	probe := probeHost(r, opt.ProbeDeadline)
	provs := []Provider{
		newHostProvider(r, boot, probe.ncpuOr()),
		newMemProvider(r, boot, probe.memTotal),
		newCPUProvider(r, boot, probe.ncpuOr()),
		newDiskProvider(r, boot, opt.ShowLoop),
		newNetProvider(r, boot),
		newPressureProvider(r, boot),
		newTCPIPProvider(r, boot),
		newFSProvider(r, boot, opt.ShowLoop),
		newNUMAProvider(r, boot, probe.memTotal),
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

// supplier builds a DCI4 supplier record for the built-in providers (DCI4-SUP-3). MaxStat is the
// highest statistic number of the supplier's flat DCI4 view: every datum of every class,
// numbered from 0 in declaration order (DCI4-SUP-5).
func supplier(handle uint32, module, title, desc string, typ ns.SupplierType, classes []*ns.Class) ns.Supplier {
	n := 0
	for _, c := range classes {
		n += len(c.Datums)
	}
	s := ns.Supplier{IVersion: ifaceVer, Handle: handle, Type: typ, SVersion: supVer,
		Module: module, Title: title, Description: desc}
	if n > 0 {
		s.MaxStat = uint32(n - 1)
	}
	for _, c := range classes {
		sup := s
		c.Supplier = &sup
	}
	return s
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

// resetOf is the 8-byte reset value for a boot time: the seconds, little-endian.
func resetOf(btime uint64) [8]byte {
	var r [8]byte
	binary.LittleEndian.PutUint64(r[:], btime)
	return r
}

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

// singleSpecs is the instance list of a single-instance class; providers build it once.
func singleSpecs() []ns.InstanceSpec {
	return []ns.InstanceSpec{{Levels: []uint64{0}}}
}

// Common instance levels.
func singleLevel() []ns.InstLevel {
	return []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagSingleInst, Size: 4}}
}

// rawN is a valid numeric raw value.
func rawN(v uint64) ns.Raw { return ns.Raw{N: v} }

// rawS is a valid string or octet raw value.
func rawS(s string) ns.Raw { return ns.Raw{S: s} }

// Raw values for datums that were not read or have no value.
func rawSkipped() ns.Raw      { return ns.Raw{State: ns.RawSkipped} }
func rawInvalid() ns.Raw      { return ns.Raw{State: ns.RawInvalid} }
func rawNotSupported() ns.Raw { return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonNotSupported} }
func rawNotPresent() ns.Raw   { return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonNotPresent} }
func rawNoValues() ns.Raw     { return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonNoValues} }

// deliveries tracks which collections reached the name space, so that a slow datum is skipped
// only when the previous collection delivered it: after a collection that failed, was cancelled
// or returned after its deadline (the sampler dropped it, and the name space holds no value or an
// error for it), the next one is complete.
type deliveries struct {
	gen uint64 // collections started
	ok  uint64 // the last collection that returned in time without error
}

// start counts a collection; call it first thing in Collect.
func (d *deliveries) start() { d.gen++ }

// done records that the collection returned its values in time.
func (d *deliveries) done(ctx context.Context) {
	if ctx.Err() == nil {
		d.ok = d.gen
	}
}

// had reports whether something delivered at collection g is in the name space now: it was the
// previous collection, and that one returned in time.
func (d *deliveries) had(g uint64) bool { return g != 0 && g == d.gen-1 && d.ok == g }

// due says whether a datum of volatility v is read in this collection: when the request asks for
// it, and always for an instance the provider has not delivered yet (a new instance comes with
// initial values of all its metrics, DCI-MTH-7). Otherwise the datum is namespace.RawSkipped and
// the name space keeps the previous value (DCI4-DESC-3).
func due(req Request, v ns.Volatility, delivered bool) bool {
	return !delivered || req.Due(v)
}

// invalidList encodes the DCIInvalidData of one instance (DCI-INV-1): the ids of the datums not
// valid for it, 4 bytes each, little-endian; empty when every datum is valid.
func invalidList(ids ...ns.DatumID) string {
	b := make([]byte, 0, 4*len(ids))
	for _, id := range ids {
		b = binary.LittleEndian.AppendUint32(b, uint32(id))
	}
	return string(b)
}

// cut shortens s to at most n bytes without splitting a UTF-8 sequence (SPMI descriptions are
// at most 63 bytes, DCI4 strings are bounded by their size).
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
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
