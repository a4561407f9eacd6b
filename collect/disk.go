package collect

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"golang.org/x/sys/unix"

	ns "dcimon/namespace"
)

// Disk and partition datum low bytes: the /proc/diskstats counters, the collector's clock, the
// sysfs attributes, then the derived datums each after its arguments. The names of the derived
// ones follow iostat -x so that a table or a hotset finds them: iops, bytes, r_await, w_await,
// await, aqu_sz and busy (%util).
const (
	diskReadsID      = 1 + iota // field 4, reads completed
	diskWritesID                // field 8, writes completed
	diskRMergedID               // field 5, reads merged
	diskWMergedID               // field 9, writes merged
	diskRBytesID                // field 6, sectors read ×512
	diskWBytesID                // field 10, sectors written ×512
	diskRMsID                   // field 7, ms reading
	diskWMsID                   // field 11, ms writing
	diskIOMsID                  // field 13, ms with I/O in flight
	diskWeightedMsID            // field 14, weighted ms
	diskInFlightID              // field 12, I/Os in flight
	diskDiscardsID              // field 15
	diskDBytesID                // field 17, sectors discarded ×512
	diskDMsID                   // field 18
	diskFlushesID               // field 19
	diskFMsID                   // field 20
	diskClockID                 // the collector's monotonic clock, ms
	diskSizeID                  // sysfs size
	diskROID                    // sysfs ro
	diskIOPSID                  // derived: reads + writes
	diskBytesID                 // derived: read_bytes + write_bytes
	diskRWMsID                  // derived: read_ms + write_ms
	diskRAwaitID                // derived: read_ms / reads
	diskWAwaitID                // derived: write_ms / writes
	diskAwaitID                 // derived: rw_ms / iops
	diskAquSzID                 // derived: weighted_ms / clock_ms
	diskIdleMsID                // derived: clock_ms - io_ms
	diskBusyID                  // derived: PERCENT(io_ms, idle_ms)
	diskRAreqID                 // derived: read_bytes / reads (iostat rareq-sz)
	diskWAreqID                 // derived: write_bytes / writes (wareq-sz)
	diskRMergePctID             // derived: PERCENT(reads_merged, reads) (%rrqm)
	diskWMergePctID             // derived: PERCENT(writes_merged, writes) (%wrqm)
	diskNumIDs       = iota     // datums before the invalid-data list
)

// diskRawCol maps the counter datums (index id-1) to their /proc/diskstats column.
var diskRawCol = [...]diskCol{diskReads, diskWrites, diskReadsMerged, diskWritesMerged, diskReadBytes, diskWriteBytes,
	diskReadMs, diskWriteMs, diskIOMs, diskWeightedMs, diskInFlight, diskDiscards, diskDiscardBytes, diskDiscardMs,
	diskFlushes, diskFlushMs}

// diskWriteIDs are the datums that are invalid for a read-only device (DCI-INV-1): bytes written
// on a read-only device is the DCI document's own example.
var diskWriteIDs = [...]uint8{diskWritesID, diskWMergedID, diskWBytesID, diskWMsID}

// Hardware bounds of the disk counters (Datum.MaxRate), far above any device made, so that only
// a corrupt or rewritten counter exceeds them: requests 10^8 per second (the fastest NVMe devices
// complete about 10^7), bytes 10^12 per second, busy time one millisecond per millisecond, and
// the per-request times (read_ms, weighted_ms, ...) a full queue of 65,536 requests' worth.
const (
	diskMaxOps     = 1e8
	diskMaxBytes   = 1e12
	diskMaxBusyMs  = 1000
	diskMaxQueueMs = 1000 * 65536
)

// diskMaxRate is the hardware bound of one disk counter.
func diskMaxRate(id uint8, u ns.Unit) float64 {
	switch {
	case id == diskIOMsID:
		return diskMaxBusyMs
	case u == ns.UnitBytes:
		return diskMaxBytes
	case u == ns.UnitMillisecs:
		return diskMaxQueueMs
	}
	return diskMaxOps
}

// diskDatums declares the statistics of one block device or partition. Counter types follow the
// kernel's printf widths: the millisecond columns are unsigned int and wrap at 2^32 even on
// 64-bit kernels, so they are UMA_UINT4 and the name space takes a decrease as one wrap; the
// others are UMA_UINT8, where a decrease is a discontinuity.
func diskDatums() []ns.Datum {
	col := func(c diskCol) string { return "/proc/diskstats field " + strconv.Itoa(int(c)+4) }
	typ := func(c diskCol) ns.DataType {
		if diskColInfo[c].bits == 32 {
			return ns.TypeUint4
		}
		return ns.TypeUint8
	}
	cnt := func(id uint8, name string, u ns.Unit, desc, what string, max float64, help string) ns.Datum {
		c := diskRawCol[id-1]
		return ns.Counter(id, name, typ(c), u, desc, col(c)+", "+what).WithScale(0, max).
			WithMaxRate(diskMaxRate(id, u)).WithHelp(help)
	}
	drv := func(d ns.Datum, max float64, help string) ns.Datum {
		d.Source = "derived by the consumer from the interval deltas of its arguments"
		return d.WithScale(0, max).WithHelp(help)
	}
	inv := ns.InvalidList().WithHelp("The write statistics of a read-only device are not valid (DCI-INV-1).")
	inv.Source = "/sys/block/<dev>/ro"
	return []ns.Datum{
		cnt(diskReadsID, "reads", ns.UnitReads, "Reads completed", "reads completed", 5000,
			"Read requests completed; as a rate, iostat's r/s."),
		cnt(diskWritesID, "writes", ns.UnitWrites, "Writes completed", "writes completed", 5000,
			"Write requests completed; as a rate, iostat's w/s."),
		cnt(diskRMergedID, "reads_merged", ns.UnitReads, "Reads merged before being issued", "reads merged", 5000,
			"Adjacent reads merged into one request; as a rate, iostat's rrqm/s."),
		cnt(diskWMergedID, "writes_merged", ns.UnitWrites, "Writes merged before being issued", "writes merged", 5000,
			"Adjacent writes merged into one request; as a rate, iostat's wrqm/s."),
		cnt(diskRBytesID, "read_bytes", ns.UnitBytes, "Bytes read", "sectors read ×512 (always 512-byte units)", 500<<20,
			"Data read; as a rate, iostat's rkB/s ×1024."),
		cnt(diskWBytesID, "write_bytes", ns.UnitBytes, "Bytes written", "sectors written ×512 (always 512-byte units)", 500<<20,
			"Data written; as a rate, iostat's wkB/s ×1024."),
		cnt(diskRMsID, "read_ms", ns.UnitMillisecs, "Time spent reading", "milliseconds spent reading", 1000,
			"Milliseconds read requests spent from issue to completion, summed over requests (wraps at 2^32)."),
		cnt(diskWMsID, "write_ms", ns.UnitMillisecs, "Time spent writing", "milliseconds spent writing", 1000,
			"Milliseconds write requests spent from issue to completion, summed over requests (wraps at 2^32)."),
		cnt(diskIOMsID, "io_ms", ns.UnitMillisecs, "Time with I/O in flight (busy time)", "milliseconds spent doing I/O", 1000,
			"Milliseconds during which at least one request was in flight: the device's busy time (wraps at 2^32)."),
		cnt(diskWeightedMsID, "weighted_ms", ns.UnitMillisecs, "Time waited, weighted by queue depth", "weighted milliseconds spent doing I/O", 10000,
			"Milliseconds spent doing I/O multiplied by the number of requests in flight: the queue's integral (wraps at 2^32)."),
		ns.Gauge(diskInFlightID, "inflight", ns.TypeUint4, ns.UnitQLength, "I/O requests in flight now", col(diskInFlight)+", I/Os currently in progress").
			WithScale(0, 32).WithHelp("Requests issued to the device and not yet completed, at the moment of the reading."),
		cnt(diskDiscardsID, "discards", ns.UnitEvent, "Discards completed", "discards completed (Linux 4.18)", 1000,
			"Discard (trim) requests completed; not supported before Linux 4.18."),
		cnt(diskDBytesID, "discard_bytes", ns.UnitBytes, "Bytes discarded", "sectors discarded ×512 (Linux 4.18)", 1<<30,
			"Data discarded (trimmed)."),
		cnt(diskDMsID, "discard_ms", ns.UnitMillisecs, "Time spent discarding", "milliseconds spent discarding (Linux 4.18)", 1000,
			"Milliseconds discard requests spent from issue to completion (wraps at 2^32)."),
		cnt(diskFlushesID, "flushes", ns.UnitEvent, "Flush requests completed", "flush requests completed (Linux 5.5)", 1000,
			"Cache flush requests completed; not supported before Linux 5.5."),
		cnt(diskFMsID, "flush_ms", ns.UnitMillisecs, "Time spent flushing", "milliseconds spent flushing (Linux 5.5)", 1000,
			"Milliseconds flush requests spent from issue to completion (wraps at 2^32)."),
		ns.Counter(diskClockID, "clock_ms", ns.TypeUint8, ns.UnitMillisecs, "Collector clock at the reading",
			"the collector's monotonic clock when diskstats was read: CLOCK_MONOTONIC (live host), /proc/uptime ×10 (tree)").
			WithScale(0, 1000).WithMaxRate(diskMaxBusyMs).
			WithHelp("Milliseconds on the clock the kernel's I/O times advance with, read with the counters, so that PERCENT and AVERAGE over interval deltas give iostat's %util and aqu-sz exactly.").WithAux(),
		ns.Discrete(diskSizeID, "size", ns.TypeUint8, ns.UnitBytes, "Capacity", "/sys/block/<dev>/size, 512-byte sectors ×512").
			WithVolatility(ns.SVVariable).WithScale(0, 1<<40).
			WithHelp("The device's capacity; read when it appears and then every five minutes."),
		ns.Discrete(diskROID, "ro", ns.TypeBoolean, ns.UnitNone, "Read-only", "/sys/block/<dev>/ro").
			WithVolatility(ns.SVVariable).WithDCI4(ns.STBoolean, ns.SBFNormal, ns.SBPYesNo).WithScale(0, 1).
			WithHelp("Whether the device refuses writes; its write statistics are then invalid."),
		drv(ns.Derived(diskIOPSID, "iops", ns.DerivedSum2, ns.PMSemCounter, "Reads and writes completed", diskReadsID, diskWritesID),
			10000, "reads + writes; as a rate, iostat's r/s + w/s."),
		drv(ns.Derived(diskBytesID, "bytes", ns.DerivedSum2, ns.PMSemCounter, "Bytes read and written", diskRBytesID, diskWBytesID),
			1<<30, "read_bytes + write_bytes; as a rate, the device's throughput."),
		drv(ns.Derived(diskRWMsID, "rw_ms", ns.DerivedSum2, ns.PMSemCounter, "Time spent reading and writing", diskRMsID, diskWMsID),
			1000, "read_ms + write_ms, the numerator of await.").WithAux(),
		drv(ns.Derived(diskRAwaitID, "r_await", ns.DerivedAverage, ns.PMSemInstant, "Average read time, ms per read", diskRMsID, diskReadsID),
			100, "Δread_ms / Δreads: iostat's r_await; n/a in an interval without reads."),
		drv(ns.Derived(diskWAwaitID, "w_await", ns.DerivedAverage, ns.PMSemInstant, "Average write time, ms per write", diskWMsID, diskWritesID),
			100, "Δwrite_ms / Δwrites: iostat's w_await; n/a in an interval without writes."),
		drv(ns.Derived(diskAwaitID, "await", ns.DerivedAverage, ns.PMSemInstant, "Average I/O time, ms per request", diskRWMsID, diskIOPSID),
			100, "Δrw_ms / Δiops: iostat's await."),
		drv(ns.Derived(diskAquSzID, "aqu_sz", ns.DerivedAverage, ns.PMSemInstant, "Average queue length", diskWeightedMsID, diskClockID),
			32, "Δweighted_ms / Δclock_ms: iostat's aqu-sz."),
		drv(ns.Derived(diskIdleMsID, "idle_ms", ns.DerivedDifference, ns.PMSemCounter, "Time with no I/O in flight", diskClockID, diskIOMsID),
			1000, "clock_ms - io_ms, the complement of the busy time.").WithAux(),
		drv(ns.Derived(diskBusyID, "busy", ns.DerivedPercent, ns.PMSemInstant, "Busy share of the interval (%util)", diskIOMsID, diskIdleMsID),
			1, "io_ms / (io_ms + idle_ms) = Δio_ms / Δclock_ms: iostat's %util."),
		drv(ns.Derived(diskRAreqID, "rareq_sz", ns.DerivedAverage, ns.PMSemInstant, "Average read size, bytes per read", diskRBytesID, diskReadsID),
			512<<10, "Δread_bytes / Δreads: iostat's rareq-sz ×1024; n/a in an interval without reads."),
		drv(ns.Derived(diskWAreqID, "wareq_sz", ns.DerivedAverage, ns.PMSemInstant, "Average write size, bytes per write", diskWBytesID, diskWritesID),
			512<<10, "Δwrite_bytes / Δwrites: iostat's wareq-sz ×1024; n/a in an interval without writes."),
		drv(ns.Derived(diskRMergePctID, "%rrqm", ns.DerivedPercent, ns.PMSemInstant, "Share of reads merged", diskRMergedID, diskReadsID),
			1, "Δreads_merged / (Δreads_merged + Δreads): iostat's %rrqm."),
		drv(ns.Derived(diskWMergePctID, "%wrqm", ns.DerivedPercent, ns.PMSemInstant, "Share of writes merged", diskWMergedID, diskWritesID),
			1, "Δwrites_merged / (Δwrites_merged + Δwrites): iostat's %wrqm."),
		inv,
	}
}

// diskClasses declares Disk (2, uninstantiated), one instance per block device (2.2,
// UMA_DISKID) and one per partition nested under its disk (2.3: levels disk, partition), both
// SiContInst so that hot-plugged devices come and go. Instance values are device numbers in the
// dev_t encoding of glibc's makedev(3) and stat(2)'s st_rdev ((major & 0xfff) << 8 | (minor &
// 0xff) | (major >> 12) << 44 | (minor >> 8) << 20), so they match what other tools show.
func diskClasses() (top, disk, part *ns.Class) {
	top = &ns.Class{ID: ns.ClassID{diskASN}, Name: "Disk", Desc: "Disk statistics", Flags: ns.ClassEnabled,
		Help: "Block devices from /proc/diskstats, with their partitions below them; loop, ram and zram devices are hidden unless asked for."}
	disk = &ns.Class{ID: ns.ClassID{diskASN, 2}, Name: "disk", Desc: "One block device", Flags: ns.ClassEnabled | ns.ClassPossibleInvalidData,
		Help:     "One whole block device. Instance value: its device number (makedev encoding); attributes: devno, serial, label (device-mapper name).",
		InstFreq: ns.SiContInst, Levels: []ns.InstLevel{{Type: ns.TypeUint8, Tag: ns.TagDiskID, Size: 8}},
		Datums: diskDatums()}
	part = &ns.Class{ID: ns.ClassID{diskASN, 3}, Name: "part", Desc: "One partition", Flags: ns.ClassEnabled | ns.ClassPossibleInvalidData,
		Help:     "One partition, below its disk. Instance levels: the disk's device number, the partition's device number.",
		InstFreq: ns.SiContInst, NestUnder: ns.ClassID{diskASN, 2},
		Levels: []ns.InstLevel{{Type: ns.TypeUint8, Tag: ns.TagDiskID, Size: 8}, {Type: ns.TypeUint8, Tag: ns.TagDiskPartition, Size: 8}},
		Datums: diskDatums()}
	return top, disk, part
}

// partASNBase numbers partitions inside their disk's context after every possible statistic
// number (datum low bytes stop at 0xff), so a partition never shares a number with one of the
// disk's statistics (SPMI-ASN-2): partition N is 256 + N.
const partASNBase = 0x100

// hiddenDisk reports whether a whole device is one of the kinds hidden by default: loop, ram and
// zram devices (names loopN, ramN, zramN).
func hiddenDisk(name string) bool {
	for _, p := range [...]string{"loop", "ram", "zram"} {
		if len(name) > len(p) && name[:len(p)] == p {
			for i := len(p); i < len(name); i++ {
				if name[i] < '0' || name[i] > '9' {
					return false
				}
			}
			return true
		}
	}
	return false
}

// blockInfo is what sysfs says about one device, cached per device number and refreshed when
// SV_VARIABLE data is due, when an unknown device appears, or when a device's counters went
// backwards (it was re-attached). diskstats alone is read every collection.
type blockInfo struct {
	name       string
	devno      uint64
	part       bool
	parent     uint64 // the disk's devno, for a partition
	parentName string
	partNo     uint64
	sizeBytes  uint64
	ro         bool
	removable  bool
	have       blockHave
	serial     string
	serialFrom string
	dmName     string
	inSysfs    bool  // false: a placeholder for a diskstats line sysfs does not describe
	sysErr     error // what of sysfs could not be read at the last refresh (the disk's and its partitions')

	ios       uint64 // reads + writes at the last collection (re-attach detection)
	haveIOs   bool
	seen      uint64 // collection number at which the device was last visible
	present   uint64 // collection number at which it was last in diskstats, visible or not
	delivered uint64 // collection number at which its slow datums were last delivered
}

const diskModule, diskTitle = "dcimon-disk", "Block device I/O"

// diskProvider reads /proc/diskstats every collection and sysfs when needed.
type diskProvider struct {
	base
	clock           func(ctx context.Context) (uint64, bool) // nil: the default collector clock
	showLoop        bool
	top, disk, part *ns.Class
	ds              []diskStat
	devs            map[uint64]*blockInfo
	dl              deliveries
	started         bool
	diskRows        []diskRow
	partRows        []diskRow
	diskSpecs       []ns.InstanceSpec
	partSpecs       []ns.InstanceSpec
	roList          string            // the invalid-data list of a read-only device
	reattached      []bool            // per diskstats line, scratch
	names, prev     map[string]uint64 // device name → number, this collection and the previous one
}

// diskRow is one visible diskstats line and what sysfs says about it.
type diskRow struct {
	st         *diskStat
	info       *blockInfo
	reattached bool
	unread     error // no good diskstats line: the counters are in error with this reason
}

// unreadRows adds the devices diskstats did not give a good line for, although it should have:
// the file had bad lines or could not be read at all (a named pipe, a timeout), and sysfs or the
// previous collection knows the device. They stay, their counters "err" with the reason, rather
// than vanish as if unplugged (issue 21); devices on good lines are untouched.
func (p *diskProvider) unreadRows(ds []diskStat, err error) {
	good := make(map[uint64]bool, len(ds))
	for i := range ds {
		good[mkdev(ds[i].major, ds[i].minor)] = true
	}
	var missing []*blockInfo
	for dn, info := range p.devs {
		if good[dn] || (!info.inSysfs && info.present != p.dl.gen-1) {
			continue
		}
		if !info.part && !p.showLoop && hiddenDisk(info.name) {
			continue
		}
		missing = append(missing, info)
	}
	slices.SortFunc(missing, func(a, b *blockInfo) int { return cmp.Compare(a.name, b.name) })
	for _, info := range missing {
		if !info.part {
			info.seen = p.dl.gen
			p.diskRows = append(p.diskRows, diskRow{st: &diskStat{}, info: info, unread: err})
		}
	}
	for _, info := range missing {
		if parent := p.devs[info.parent]; info.part && parent != nil && parent.seen == p.dl.gen {
			info.seen = p.dl.gen
			p.partRows = append(p.partRows, diskRow{st: &diskStat{}, info: info, unread: err})
		}
	}
}

func newDiskProvider(r roots, boot *bootClock, showLoop bool) *diskProvider {
	p := &diskProvider{base: base{roots: r, now: time.Now, boot: boot}, showLoop: showLoop, devs: map[uint64]*blockInfo{},
		names: map[string]uint64{}, prev: map[string]uint64{}}
	p.top, p.disk, p.part = diskClasses()
	ids := make([]ns.DatumID, len(diskWriteIDs))
	for i, id := range diskWriteIDs {
		ids[i] = ns.DatumID(id)
	}
	p.roList = invalidList(ids...)
	p.decl = []*ns.Class{p.top, p.disk, p.part}
	p.sup = supplier(handleDisk, diskModule, diskTitle,
		"Reads, writes, bytes, times and queue of every block device and partition, from /proc/diskstats and sysfs",
		ns.SPTGeneralSupplier, p.Classes())
	return p
}

// mkdev is the device number of major:minor, glibc's makedev encoding (see diskClasses).
func mkdev(major, minor uint32) uint64 { return unix.Mkdev(major, minor) }

// collectorClock is the clock_ms datum: CLOCK_MONOTONIC in milliseconds on the live host, the
// clock the kernel's I/O times advance with (both stop while the machine is suspended); under a
// tree, the tree's own /proc/uptime, so that a fixture's two captures give their true interval.
func (p *diskProvider) collectorClock(ctx context.Context) (uint64, bool) {
	if p.clock != nil {
		return p.clock(ctx)
	}
	if p.roots.live() {
		var ts unix.Timespec
		if unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts) != nil {
			return 0, false
		}
		return uint64(ts.Nano() / 1e6), true
	}
	up, err := readUptime(ctx, &p.fr)
	if err != nil {
		return 0, false
	}
	return up.upCs * 10, true
}

// Collect reads /proc/diskstats, and sysfs when needed, for both classes at once.
func (p *diskProvider) Collect(ctx context.Context, req Request) (Batch, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dl.start()
	ctx = p.context(ctx)
	ds, err := readDiskstats(ctx, &p.fr, p.ds)
	p.ds = ds
	if err != nil && ctx.Err() != nil {
		return Batch{}, err // cancelled or past the deadline: the sampler says so
	}
	clock, clockOK := p.collectorClock(ctx)
	t := p.now()
	if !p.started || req.Static {
		refreshBoot(ctx, &p.fr, p.boot, p.now())
	}
	refreshed := false
	if !p.started || req.Variable || req.Static {
		p.refreshSysfs(ctx)
		refreshed = true
	}
	if err != nil && len(ds) == 0 && len(p.devs) == 0 {
		return Batch{}, err // nothing read, and nothing known to show in error
	}
	p.started = true

	// Unknown devices, devices back after an absence and re-attached ones (their 64-bit counters
	// went backwards) send us back to sysfs, once per collection. A re-attached device's 32-bit millisecond counters are
	// withheld for this collection: the name space would take their decrease for a wrap.
	p.reattached = p.reattached[:0]
	unknown, again := false, false
	for i := range ds {
		d := &ds[i]
		info := p.devs[mkdev(d.major, d.minor)]
		re := false
		if info == nil || info.name != d.name || (info.present != 0 && info.present != p.dl.gen-1) {
			unknown = true
		} else if ios := d.v[diskReads] + d.v[diskWrites]; info.haveIOs && ios < info.ios {
			re, again = true, true
		}
		p.reattached = append(p.reattached, re)
	}
	if (unknown || again) && !refreshed {
		p.refreshSysfs(ctx)
	}
	p.placeholders()

	// A name that changed device number since the previous collection (a device replaced
	// between two collections) is left out once: the registry adds new instances before it
	// removes old ones, and the old one still holds the name.
	p.diskRows, p.partRows = p.diskRows[:0], p.partRows[:0]
	renamed := func(info *blockInfo) bool {
		prev, ok := p.prev[info.name]
		return ok && prev != info.devno
	}
	for i := range ds {
		d := &ds[i]
		info := p.devs[mkdev(d.major, d.minor)]
		info.ios, info.haveIOs = d.v[diskReads]+d.v[diskWrites], true
		info.present = p.dl.gen
		p.names[info.name] = info.devno
		if info.part || renamed(info) {
			continue
		}
		if !p.showLoop && hiddenDisk(info.name) {
			continue
		}
		info.seen = p.dl.gen
		p.diskRows = append(p.diskRows, diskRow{st: d, info: info, reattached: p.reattached[i]})
	}
	for i := range ds {
		d := &ds[i]
		info := p.devs[mkdev(d.major, d.minor)]
		if !info.part || renamed(info) {
			continue
		}
		if parent := p.devs[info.parent]; parent == nil || parent.seen != p.dl.gen {
			continue // its disk is hidden, or absent from diskstats
		}
		info.seen = p.dl.gen
		p.partRows = append(p.partRows, diskRow{st: d, info: info, reattached: p.reattached[i]})
	}
	if err != nil {
		p.unreadRows(ds, err)
	}
	p.names, p.prev = p.prev, p.names
	clear(p.names)

	b := Batch{Reset: resetOf(p.boot.get()), Time: t}
	if req.Wants(p.disk) {
		p.diskSpecs = syncDiskSpecs(p.diskSpecs, p.diskRows, false)
		b.Classes = append(b.Classes, p.reading(p.disk, p.diskSpecs, p.diskRows, req, clock, clockOK, err))
	}
	if req.Wants(p.part) {
		p.partSpecs = syncDiskSpecs(p.partSpecs, p.partRows, true)
		b.Classes = append(b.Classes, p.reading(p.part, p.partSpecs, p.partRows, req, clock, clockOK, err))
	}
	p.dl.done(ctx)
	return b, nil
}

// reading fills one class's raw values.
func (p *diskProvider) reading(c *ns.Class, specs []ns.InstanceSpec, rows []diskRow, req Request, clock uint64, clockOK bool, err error) ClassReading {
	nd := len(c.Datums)
	raw := make([]ns.Raw, len(rows)*nd)
	for k := range rows {
		r := &rows[k]
		row := raw[k*nd : (k+1)*nd : (k+1)*nd]
		for i, col := range diskRawCol {
			switch {
			case r.unread != nil:
				row[i] = missing(r.unread)
			case !r.st.has(col):
				row[i] = rawNotSupported()
			case r.reattached && diskColInfo[col].bits == 32 && !diskColInfo[col].gauge:
				row[i] = ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonCounterDecrease}
			default:
				row[i] = rawN(r.st.v[col])
			}
		}
		if clockOK {
			row[diskClockID-1] = rawN(clock)
		} else {
			row[diskClockID-1] = rawNoValues()
		}
		info := r.info
		if due(req, ns.SVVariable, p.dl.had(info.delivered)) {
			// An attribute sysfs does not have is not present; one it could not give (a named
			// pipe, garbage) is "err", and the class error says why (issue 21).
			row[diskSizeID-1], row[diskROID-1] = rawNotPresent(), rawNotPresent()
			if readFailed(info.sysErr) {
				row[diskSizeID-1], row[diskROID-1] = missing(info.sysErr), missing(info.sysErr)
			}
			if info.have.size {
				row[diskSizeID-1] = rawN(info.sizeBytes)
			}
			if info.have.ro {
				row[diskROID-1] = rawN(b2u(info.ro))
			}
		} else {
			row[diskSizeID-1], row[diskROID-1] = rawSkipped(), rawSkipped()
		}
		row[nd-1] = rawS("")
		if info.have.ro && info.ro {
			for _, id := range diskWriteIDs {
				row[id-1] = rawInvalid()
			}
			row[nd-1] = rawS(p.roList)
		}
		if err == nil {
			info.delivered = p.dl.gen
		}
	}
	// Sysfs attributes that could not be read fail only their datums; the class error says why.
	seen := map[error]bool{}
	for k := range rows {
		if e := rows[k].info.sysErr; readFailed(e) && !seen[e] {
			seen[e] = true
			err = errors.Join(err, e)
		}
	}
	return ClassReading{Class: c, Specs: specs, Raw: raw, Err: err}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// syncDiskSpecs returns the instance list for rows, reusing specs when the devices are the same
// ones in the same order (the common case: no allocation).
func syncDiskSpecs(specs []ns.InstanceSpec, rows []diskRow, part bool) []ns.InstanceSpec {
	same := len(specs) == len(rows)
	for i := 0; same && i < len(rows); i++ {
		l := specs[i].Levels
		same = l[len(l)-1] == rows[i].info.devno && specs[i].OSName == rows[i].info.name
	}
	if same {
		return specs
	}
	specs = make([]ns.InstanceSpec, len(rows))
	for i := range rows {
		specs[i] = rows[i].info.spec(part)
	}
	return specs
}

// spec describes the device as an instance: OSName keeps the kernel's bytes (the registry makes
// the SPMI name safe), the description and attributes are escaped for display.
func (b *blockInfo) spec(part bool) ns.InstanceSpec {
	devno := strconv.FormatUint(uint64(unix.Major(b.devno)), 10) + ":" + strconv.FormatUint(uint64(unix.Minor(b.devno)), 10)
	attrs := []ns.Attr{{Key: "devno", Value: devno}}
	if part {
		if b.partNo > 0 {
			attrs = append(attrs, ns.Attr{Key: "partition", Value: strconv.FormatUint(b.partNo, 10)})
		}
		desc := cut(fmt.Sprintf("Partition %s of %s", ns.EscapeName(b.name), ns.EscapeName(b.parentName)), ns.SiMaxLName-1)
		var asn uint16
		if b.partNo > 0 {
			asn = asnFor(partASNBase + b.partNo)
		}
		return ns.InstanceSpec{Levels: []uint64{b.parent, b.devno}, OSName: b.name, ASN: asn, Desc: desc, Attrs: attrs}
	}
	if b.serial != "" {
		attrs = append(attrs, ns.Attr{Key: "serial", Value: ns.EscapeName(b.serial)}, ns.Attr{Key: "serial source", Value: b.serialFrom})
	}
	if b.dmName != "" {
		attrs = append(attrs, ns.Attr{Key: "label", Value: ns.EscapeName(b.dmName)})
	}
	if b.have.removable {
		attrs = append(attrs, ns.Attr{Key: "removable", Value: map[bool]string{true: "yes", false: "no"}[b.removable]})
	}
	desc := "Block device " + ns.EscapeName(b.name)
	if b.dmName != "" {
		desc += " (" + ns.EscapeName(b.dmName) + ")"
	}
	return ns.InstanceSpec{Levels: []uint64{b.devno}, OSName: b.name, Desc: cut(desc, ns.SiMaxLName-1), Attrs: attrs}
}

// refreshSysfs re-reads every device's sysfs description. Bookkeeping (delivery, the re-attach
// check) carries over for a device with the same number and name. Sysfs problems are not
// errors of the class: the counters are still good, and the attributes they concern are n/a.
func (p *diskProvider) refreshSysfs(ctx context.Context) {
	old := p.devs
	devs := make(map[uint64]*blockInfo, len(old))
	keep := func(b *blockInfo) {
		if o := old[b.devno]; o != nil && o.name == b.name && o.part == b.part {
			b.ios, b.haveIOs, b.seen, b.present, b.delivered = o.ios, o.haveIOs, o.seen, o.present, o.delivered
		}
		devs[b.devno] = b
	}
	names, _ := listBlockDevs(ctx)
	for _, name := range names {
		bd, err := readBlockDev(ctx, &p.fr, name)
		if bd.major == 0 {
			continue // dev unreadable: the diskstats line gets a placeholder
		}
		dn := mkdev(bd.major, bd.minor)
		keep(&blockInfo{name: name, devno: dn, sizeBytes: bd.sizeBytes, ro: bd.readOnly, removable: bd.removable,
			have: bd.have, serial: bd.serial, serialFrom: bd.serialFrom, dmName: bd.dmName, inSysfs: true, sysErr: err})
		for _, pt := range bd.parts {
			if pt.major == 0 {
				continue
			}
			keep(&blockInfo{name: pt.name, devno: mkdev(pt.major, pt.minor), part: true, parent: dn, parentName: name,
				partNo: pt.number, sizeBytes: pt.sizeBytes, ro: pt.readOnly, have: pt.have, inSysfs: true, sysErr: err})
		}
	}
	p.devs = devs
	for i := range p.ds { // placeholders of devices still in diskstats keep their bookkeeping
		dn := mkdev(p.ds[i].major, p.ds[i].minor)
		if o := old[dn]; o != nil && !o.inSysfs && devs[dn] == nil && o.name == p.ds[i].name {
			devs[dn] = o
		}
	}
}

// placeholders gives every diskstats line sysfs does not describe an entry of its own, treated
// as a whole device without attributes, so that it is shown and does not send us back to sysfs
// every collection.
func (p *diskProvider) placeholders() {
	for i := range p.ds {
		d := &p.ds[i]
		dn := mkdev(d.major, d.minor)
		if b := p.devs[dn]; b != nil && b.name == d.name {
			continue
		}
		p.devs[dn] = &blockInfo{name: d.name, devno: dn}
	}
}
