package schema

import (
	"fmt"
	"strconv"

	ns "dcimon/namespace"
)

// Disk and partition datum low bytes: the /proc/diskstats counters, the collector's clock, the
// sysfs attributes, then the derived datums each after its arguments. The names of the derived
// ones follow iostat -x so that a table or a hotset finds them: iops, bytes, r_await, w_await,
// await, aqu_sz and busy (%util).
const (
	DiskReadsID      = 1 + iota // field 4, reads completed
	DiskWritesID                // field 8, writes completed
	DiskRMergedID               // field 5, reads merged
	DiskWMergedID               // field 9, writes merged
	DiskRBytesID                // field 6, sectors read ×512
	DiskWBytesID                // field 10, sectors written ×512
	DiskRMsID                   // field 7, ms reading
	DiskWMsID                   // field 11, ms writing
	DiskIOMsID                  // field 13, ms with I/O in flight
	DiskWeightedMsID            // field 14, weighted ms
	DiskInFlightID              // field 12, I/Os in flight
	DiskDiscardsID              // field 15
	DiskDBytesID                // field 17, sectors discarded ×512
	DiskDMsID                   // field 18
	DiskFlushesID               // field 19
	DiskFMsID                   // field 20
	DiskClockID                 // the collector's monotonic clock, ms
	DiskSizeID                  // sysfs size
	DiskROID                    // sysfs ro
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

// DiskWriteIDs are the datums that are invalid for a read-only device (DCI-INV-1): bytes written
// on a read-only device is the DCI document's own example.
var DiskWriteIDs = [...]uint8{DiskWritesID, DiskWMergedID, DiskWBytesID, DiskWMsID}

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
	case id == DiskIOMsID:
		return diskMaxBusyMs
	case u == ns.UnitBytes:
		return diskMaxBytes
	case u == ns.UnitMillisecs:
		return diskMaxQueueMs
	}
	return diskMaxOps
}

// DiskFields are the /proc/diskstats fields of the counter datums (index id-1: reads to
// flush_ms), as iostats.rst numbers them after major, minor and name, and whether the kernel
// prints the field as an unsigned int, which wraps at 2^32 even on 64-bit kernels: every
// millisecond field and in-flight (block/genhd.c diskstats_show).
var DiskFields = [DiskFMsID]struct {
	field  int
	Bits32 bool
}{
	{4, false}, {8, false}, {5, false}, {9, false}, {6, false}, {10, false}, {7, true}, {11, true},
	{13, true}, {14, true}, {12, true}, {15, false}, {17, false}, {18, true}, {19, false}, {20, true},
}

// diskDatums declares the statistics of one block device or partition. Counter types follow the
// kernel's printf widths: the millisecond columns are unsigned int and wrap at 2^32 even on
// 64-bit kernels, so they are UMA_UINT4 and the name space takes a decrease as one wrap; the
// others are UMA_UINT8, where a decrease is a discontinuity.
func diskDatums() []ns.Datum {
	col := func(id uint8) string { return "/proc/diskstats field " + strconv.Itoa(DiskFields[id-1].field) }
	typ := func(id uint8) ns.DataType {
		if DiskFields[id-1].Bits32 {
			return ns.TypeUint4
		}
		return ns.TypeUint8
	}
	cnt := func(id uint8, name string, u ns.Unit, desc, what string, max float64, help string) ns.Datum {
		return ns.Counter(id, name, typ(id), u, desc, col(id)+", "+what).WithScale(0, max).
			WithMaxRate(diskMaxRate(id, u)).WithHelp(help)
	}
	inv := sourced(ns.InvalidList().WithHelp("The write statistics of a read-only device are not valid (DCI-INV-1)."), "/sys/block/<dev>/ro")
	return []ns.Datum{
		cnt(DiskReadsID, "reads", ns.UnitReads, "Reads completed", "reads completed", 5000,
			"Read requests completed; as a rate, iostat's r/s."),
		cnt(DiskWritesID, "writes", ns.UnitWrites, "Writes completed", "writes completed", 5000,
			"Write requests completed; as a rate, iostat's w/s."),
		cnt(DiskRMergedID, "reads_merged", ns.UnitReads, "Reads merged before being issued", "reads merged", 5000,
			"Adjacent reads merged into one request; as a rate, iostat's rrqm/s."),
		cnt(DiskWMergedID, "writes_merged", ns.UnitWrites, "Writes merged before being issued", "writes merged", 5000,
			"Adjacent writes merged into one request; as a rate, iostat's wrqm/s."),
		cnt(DiskRBytesID, "read_bytes", ns.UnitBytes, "Bytes read", "sectors read ×512 (always 512-byte units)", 500<<20,
			"Data read; as a rate, iostat's rkB/s ×1024."),
		cnt(DiskWBytesID, "write_bytes", ns.UnitBytes, "Bytes written", "sectors written ×512 (always 512-byte units)", 500<<20,
			"Data written; as a rate, iostat's wkB/s ×1024."),
		cnt(DiskRMsID, "read_ms", ns.UnitMillisecs, "Time spent reading", "milliseconds spent reading", 1000,
			"Milliseconds read requests spent from issue to completion, summed over requests (wraps at 2^32)."),
		cnt(DiskWMsID, "write_ms", ns.UnitMillisecs, "Time spent writing", "milliseconds spent writing", 1000,
			"Milliseconds write requests spent from issue to completion, summed over requests (wraps at 2^32)."),
		cnt(DiskIOMsID, "io_ms", ns.UnitMillisecs, "Time with I/O in flight (busy time)", "milliseconds spent doing I/O", 1000,
			"Milliseconds during which at least one request was in flight: the device's busy time (wraps at 2^32)."),
		cnt(DiskWeightedMsID, "weighted_ms", ns.UnitMillisecs, "Time waited, weighted by queue depth", "weighted milliseconds spent doing I/O", 10000,
			"Milliseconds spent doing I/O multiplied by the number of requests in flight: the queue's integral (wraps at 2^32)."),
		ns.Gauge(DiskInFlightID, "inflight", ns.TypeUint4, ns.UnitQLength, "I/O requests in flight now", col(DiskInFlightID)+", I/Os currently in progress").
			WithScale(0, 32).WithHelp("Requests issued to the device and not yet completed, at the moment of the reading."),
		cnt(DiskDiscardsID, "discards", ns.UnitEvent, "Discards completed", "discards completed (Linux 4.18)", 1000,
			"Discard (trim) requests completed; not supported before Linux 4.18."),
		cnt(DiskDBytesID, "discard_bytes", ns.UnitBytes, "Bytes discarded", "sectors discarded ×512 (Linux 4.18)", 1<<30,
			"Data discarded (trimmed)."),
		cnt(DiskDMsID, "discard_ms", ns.UnitMillisecs, "Time spent discarding", "milliseconds spent discarding (Linux 4.18)", 1000,
			"Milliseconds discard requests spent from issue to completion (wraps at 2^32)."),
		cnt(DiskFlushesID, "flushes", ns.UnitEvent, "Flush requests completed", "flush requests completed (Linux 5.5)", 1000,
			"Cache flush requests completed; not supported before Linux 5.5."),
		cnt(DiskFMsID, "flush_ms", ns.UnitMillisecs, "Time spent flushing", "milliseconds spent flushing (Linux 5.5)", 1000,
			"Milliseconds flush requests spent from issue to completion (wraps at 2^32)."),
		ns.Counter(DiskClockID, "clock_ms", ns.TypeUint8, ns.UnitMillisecs, "Collector clock at the reading",
			"the collector's monotonic clock when diskstats was read: CLOCK_MONOTONIC (live host), /proc/uptime ×10 (tree)").
			WithScale(0, 1000).WithMaxRate(diskMaxBusyMs).
			WithHelp("Milliseconds on the clock the kernel's I/O times advance with, read with the counters, so that PERCENT and AVERAGE over interval deltas give iostat's %util and aqu-sz exactly.").WithAux(),
		ns.Discrete(DiskSizeID, "size", ns.TypeUint8, ns.UnitBytes, "Capacity", "/sys/block/<dev>/size, 512-byte sectors ×512").
			WithVolatility(ns.SVVariable).WithScale(0, 1<<40).
			WithHelp("The device's capacity; read when it appears and then every five minutes."),
		ns.Discrete(DiskROID, "ro", ns.TypeBoolean, ns.UnitNone, "Read-only", "/sys/block/<dev>/ro").
			WithVolatility(ns.SVVariable).WithDCI4(ns.STBoolean, ns.SBFNormal, ns.SBPYesNo).WithScale(0, 1).
			WithHelp("Whether the device refuses writes; its write statistics are then invalid."),
		consumerDerived(ns.Derived(diskIOPSID, "iops", ns.DerivedSum2, ns.PMSemCounter, "Reads and writes completed", DiskReadsID, DiskWritesID),
			10000, "reads + writes; as a rate, iostat's r/s + w/s."),
		consumerDerived(ns.Derived(diskBytesID, "bytes", ns.DerivedSum2, ns.PMSemCounter, "Bytes read and written", DiskRBytesID, DiskWBytesID),
			1<<30, "read_bytes + write_bytes; as a rate, the device's throughput."),
		consumerDerived(ns.Derived(diskRWMsID, "rw_ms", ns.DerivedSum2, ns.PMSemCounter, "Time spent reading and writing", DiskRMsID, DiskWMsID),
			1000, "read_ms + write_ms, the numerator of await.").WithAux(),
		consumerDerived(ns.Derived(diskRAwaitID, "r_await", ns.DerivedAverage, ns.PMSemInstant, "Average read time, ms per read", DiskRMsID, DiskReadsID),
			100, "Δread_ms / Δreads: iostat's r_await; n/a in an interval without reads."),
		consumerDerived(ns.Derived(diskWAwaitID, "w_await", ns.DerivedAverage, ns.PMSemInstant, "Average write time, ms per write", DiskWMsID, DiskWritesID),
			100, "Δwrite_ms / Δwrites: iostat's w_await; n/a in an interval without writes."),
		consumerDerived(ns.Derived(diskAwaitID, "await", ns.DerivedAverage, ns.PMSemInstant, "Average I/O time, ms per request", diskRWMsID, diskIOPSID),
			100, "Δrw_ms / Δiops: iostat's await."),
		consumerDerived(ns.Derived(diskAquSzID, "aqu_sz", ns.DerivedAverage, ns.PMSemInstant, "Average queue length", DiskWeightedMsID, DiskClockID),
			32, "Δweighted_ms / Δclock_ms: iostat's aqu-sz."),
		consumerDerived(ns.Derived(diskIdleMsID, "idle_ms", ns.DerivedDifference, ns.PMSemCounter, "Time with no I/O in flight", DiskClockID, DiskIOMsID),
			1000, "clock_ms - io_ms, the complement of the busy time.").WithAux(),
		consumerDerived(ns.Derived(diskBusyID, "busy", ns.DerivedPercent, ns.PMSemInstant, "Busy share of the interval (%util)", DiskIOMsID, diskIdleMsID),
			1, "io_ms / (io_ms + idle_ms) = Δio_ms / Δclock_ms: iostat's %util."),
		consumerDerived(ns.Derived(diskRAreqID, "rareq_sz", ns.DerivedAverage, ns.PMSemInstant, "Average read size, bytes per read", DiskRBytesID, DiskReadsID),
			512<<10, "Δread_bytes / Δreads: iostat's rareq-sz ×1024; n/a in an interval without reads."),
		consumerDerived(ns.Derived(diskWAreqID, "wareq_sz", ns.DerivedAverage, ns.PMSemInstant, "Average write size, bytes per write", DiskWBytesID, DiskWritesID),
			512<<10, "Δwrite_bytes / Δwrites: iostat's wareq-sz ×1024; n/a in an interval without writes."),
		consumerDerived(ns.Derived(diskRMergePctID, "%rrqm", ns.DerivedPercent, ns.PMSemInstant, "Share of reads merged", DiskRMergedID, DiskReadsID),
			1, "Δreads_merged / (Δreads_merged + Δreads): iostat's %rrqm."),
		consumerDerived(ns.Derived(diskWMergePctID, "%wrqm", ns.DerivedPercent, ns.PMSemInstant, "Share of writes merged", DiskWMergedID, DiskWritesID),
			1, "Δwrites_merged / (Δwrites_merged + Δwrites): iostat's %wrqm."),
		inv,
	}
}

// DiskClasses declares Disk (2, uninstantiated), one instance per block device (2.2,
// UMA_DISKID) and one per partition nested under its disk (2.3: levels disk, partition), both
// SiContInst so that hot-plugged devices come and go. Instance values are device numbers in the
// dev_t encoding of glibc's makedev(3) and stat(2)'s st_rdev ((major & 0xfff) << 8 | (minor &
// 0xff) | (major >> 12) << 44 | (minor >> 8) << 20), so they match what other tools show.
func DiskClasses() (top, disk, part *ns.Class) {
	top = &ns.Class{ID: ns.ClassID{DiskASN}, Name: "Disk", Desc: "Disk statistics", Flags: ns.ClassEnabled,
		Help: "Block devices from /proc/diskstats, with their partitions below them; loop, ram and zram devices are hidden unless asked for."}
	disk = &ns.Class{ID: ns.ClassID{DiskASN, 2}, Name: "disk", Desc: "One block device", Flags: ns.ClassEnabled | ns.ClassPossibleInvalidData,
		Help:     "One whole block device. Instance value: its device number (makedev encoding); attributes: devno, serial, label (device-mapper name).",
		InstFreq: ns.SiContInst, Levels: []ns.InstLevel{{Type: ns.TypeUint8, Tag: ns.TagDiskID, Size: 8}},
		Datums: diskDatums()}
	part = &ns.Class{ID: ns.ClassID{DiskASN, 3}, Name: "part", Desc: "One partition", Flags: ns.ClassEnabled | ns.ClassPossibleInvalidData,
		Help:     "One partition, below its disk. Instance levels: the disk's device number, the partition's device number.",
		InstFreq: ns.SiContInst, NestUnder: ns.ClassID{DiskASN, 2},
		Levels: []ns.InstLevel{{Type: ns.TypeUint8, Tag: ns.TagDiskID, Size: 8}, {Type: ns.TypeUint8, Tag: ns.TagDiskPartition, Size: 8}},
		Datums: diskDatums()}
	namePCP(disk, diskPMDA("disk.dev"))
	namePCP(part, diskPMDA("disk.partitions"))
	return top, disk, part
}

// PartASNBase numbers partitions inside their disk's context after every possible statistic
// number (datum low bytes stop at 0xff), so a partition never shares a number with one of the
// disk's statistics (SPMI-ASN-2): partition N is 256 + N.
const PartASNBase = 0x100

// HiddenDisk reports whether a whole device is one of the kinds hidden by default: loop, ram and
// zram devices (names loopN, ramN, zramN).
func HiddenDisk(name string) bool {
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

const DiskModule, DiskTitle = "dcimon-disk", "Block device I/O"

// DiskDevice is what names a block device or partition as an instance of Disk: its name and
// device number, a partition's disk and number, and a disk's serial number, device-mapper name
// and whether it is removable (when known).
type DiskDevice struct {
	Name, ParentName      string
	Devno, Parent, PartNo uint64
	Serial, SerialFrom    string
	DMName                string
	Removable             bool
	RemovableKnown        bool
}

// Spec describes the device as an instance: OSName keeps the kernel's bytes (the registry makes
// the SPMI name safe), the description and attributes are escaped for display.
func (b DiskDevice) Spec(part bool) ns.InstanceSpec {
	devno := strconv.FormatUint(devMajor(b.Devno), 10) + ":" + strconv.FormatUint(devMinor(b.Devno), 10)
	attrs := []ns.Attr{{Key: "devno", Value: devno}}
	if part {
		if b.PartNo > 0 {
			attrs = append(attrs, ns.Attr{Key: "partition", Value: strconv.FormatUint(b.PartNo, 10)})
		}
		desc := ns.Clip(fmt.Sprintf("Partition %s of %s", ns.EscapeName(b.Name), ns.EscapeName(b.ParentName)), ns.SiMaxLName-1)
		var asn uint16
		if b.PartNo > 0 {
			asn = ASNFor(PartASNBase + b.PartNo)
		}
		return ns.InstanceSpec{Levels: []uint64{b.Parent, b.Devno}, OSName: b.Name, ASN: asn, Desc: desc, Attrs: attrs}
	}
	if b.Serial != "" {
		attrs = append(attrs, ns.Attr{Key: "serial", Value: ns.EscapeName(b.Serial)}, ns.Attr{Key: "serial source", Value: b.SerialFrom})
	}
	if b.DMName != "" {
		attrs = append(attrs, ns.Attr{Key: "label", Value: ns.EscapeName(b.DMName)})
	}
	if b.RemovableKnown {
		attrs = append(attrs, ns.Attr{Key: "removable", Value: map[bool]string{true: "yes", false: "no"}[b.Removable]})
	}
	desc := "Block device " + ns.EscapeName(b.Name)
	if b.DMName != "" {
		desc += " (" + ns.EscapeName(b.DMName) + ")"
	}
	return ns.InstanceSpec{Levels: []uint64{b.Devno}, OSName: b.Name, Desc: ns.Clip(desc, ns.SiMaxLName-1), Attrs: attrs}
}

// devMajor and devMinor split a device number in glibc's makedev(3) encoding (diskClasses).
func devMajor(dev uint64) uint64 { return (dev>>8)&0xfff | (dev>>32)&^uint64(0xfff) }
func devMinor(dev uint64) uint64 { return dev&0xff | (dev>>12)&^uint64(0xff) }

// diskPMDA is where the Linux PMDA keeps a device's counters: under prefix (disk.dev for disks,
// disk.partitions for partitions), with pmcd's own timestamp as the collector's clock. The busy-time
// counters are 32-bit milliseconds in PCP: they wrap after 49.7 days, read as one interval without a
// rate, never a spike.
func diskPMDA(prefix string) []Binding {
	return []Binding{
		{Datum: DiskReadsID, Metric: prefix + ".read"}, {Datum: DiskWritesID, Metric: prefix + ".write"},
		{Datum: DiskRMergedID, Metric: prefix + ".read_merge"}, {Datum: DiskWMergedID, Metric: prefix + ".write_merge"},
		{Datum: DiskRBytesID, Metric: prefix + ".read_bytes"}, {Datum: DiskWBytesID, Metric: prefix + ".write_bytes"},
		{Datum: DiskRMsID, Metric: prefix + ".read_rawactive"}, {Datum: DiskWMsID, Metric: prefix + ".write_rawactive"},
		{Datum: DiskIOMsID, Metric: prefix + ".avactive"}, {Datum: DiskWeightedMsID, Metric: prefix + ".aveq"},
		{Datum: DiskInFlightID, Metric: prefix + ".inflight", Mult: 1}, {Datum: DiskDiscardsID, Metric: prefix + ".discard"},
		{Datum: DiskDBytesID, Metric: prefix + ".discard_bytes"}, {Datum: DiskDMsID, Metric: prefix + ".discard_rawactive"},
		{Datum: DiskFlushesID, Metric: prefix + ".flush"}, {Datum: DiskFMsID, Metric: prefix + ".flush_rawactive"},
		{Datum: DiskClockID, Metric: MetricClock}, {Datum: DiskSizeID, Metric: prefix + ".capacity"},
	}
}
