package schema

import ns "dcimon/namespace"

// Mem/Real datum low bytes.
const (
	RealTotalID   = 1 + iota // MemTotal
	RealFreeID               // MemFree
	RealAvailID              // MemAvailable
	RealBuffersID            // Buffers
	RealCachedID             // Cached
	realUsedID               // derived: total - avail
	realPctUsedID            // derived: PERCENT(used, avail)
)

// Mem/Swap datum low bytes.
const (
	SwapTotalID   = 1 + iota // SwapTotal
	SwapFreeID               // SwapFree
	swapUsedID               // derived: total - free
	swapPctUsedID            // derived: PERCENT(used, free)
	SwapInID                 // vmstat pswpin
	SwapOutID                // vmstat pswpout
)

// Mem/Virt datum low bytes.
const (
	VirtPageInID    = 1 + iota // vmstat pgpgin
	VirtPageOutID              // vmstat pgpgout
	VirtFaultsID               // vmstat pgfault
	VirtMajFaultsID            // vmstat pgmajfault
)

// MemClasses declares Mem (4, uninstantiated) with three single-instance contexts in the SPMI
// guide's style (`Mem/Real/...`): Real (4.1) physical memory, Swap (4.2) swap space and
// swapping, Virt (4.3) paging and faults. memTotal (bytes) sets the scales of the levels.
func MemClasses(memTotal uint64) (top, real, swap, virt *ns.Class) {
	if memTotal == 0 {
		memTotal = 16 << 30
	}
	max := float64(memTotal)
	level := func(id uint8, name, desc, key, help string) ns.Datum {
		return ns.Gauge(id, name, ns.TypeUint8, ns.UnitBytes, desc, "/proc/meminfo "+key+", kB ×1024").
			WithScale(0, max).WithHelp(help)
	}
	derived := func(d ns.Datum, src, help string) ns.Datum { return sourced(d, src).WithHelp(help) }
	top = &ns.Class{ID: ns.ClassID{memASN}, Name: "Mem", Desc: "Memory statistics", Flags: ns.ClassEnabled,
		Help: "Physical memory, swap space and paging, from /proc/meminfo and /proc/vmstat."}
	real = &ns.Class{ID: ns.ClassID{memASN, 1}, Name: "Real", Desc: "Physical memory statistics", Flags: ns.ClassEnabled,
		Help: "Physical memory (RAM) as the kernel accounts it in /proc/meminfo.", Levels: SingleLevel(),
		Datums: []ns.Datum{
			ns.Discrete(RealTotalID, "total", ns.TypeUint8, ns.UnitBytes, "Usable physical memory", "/proc/meminfo MemTotal, kB ×1024").
				WithVolatility(ns.SVVolatile).WithScale(0, max).
				WithHelp("RAM the kernel can use: installed memory less firmware and kernel reservations. Read at every reading: a memory balloon or hot-unplug changes it."),
			level(RealFreeID, "free", "Memory not used for anything", "MemFree",
				"RAM that holds nothing at all; caches are not free, see avail."),
			level(RealAvailID, "avail", "Memory available without swapping", "MemAvailable",
				"The kernel's estimate of memory available for new work without swapping: free memory plus reclaimable caches (Linux 3.14)."),
			level(RealBuffersID, "buffers", "Block device buffers", "Buffers",
				"Memory holding raw block device data (metadata, not file contents)."),
			level(RealCachedID, "cached", "Page cache", "Cached",
				"Memory holding file contents (page cache, tmpfs and shared memory included, swap cache excluded)."),
			derived(ns.Derived(realUsedID, "used", ns.DerivedDifference, ns.PMSemInstant, "Memory in use (total - avail)",
				RealTotalID, RealAvailID).WithScale(0, max),
				"derived: DIFFERENCE(total, avail)",
				"Memory not available for new work: total - avail, as free(1) counts used memory since procps-ng 4."),
			derived(ns.Derived(realPctUsedID, "%used", ns.DerivedPercent, ns.PMSemInstant, "% memory in use",
				realUsedID, RealAvailID).WithScale(0, 1),
				"derived: PERCENT(used, avail)",
				"used / (used + avail) = used / total."),
		}}
	swap = &ns.Class{ID: ns.ClassID{memASN, 2}, Name: "Swap", Desc: "Swap space statistics", Flags: ns.ClassEnabled,
		Help: "Swap space (paging space) and the pages moved to and from it.", Levels: SingleLevel(),
		Datums: []ns.Datum{
			ns.Discrete(SwapTotalID, "total", ns.TypeUint8, ns.UnitBytes, "Swap space", "/proc/meminfo SwapTotal, kB ×1024").
				WithVolatility(ns.SVVolatile).WithScale(0, max).
				WithHelp("All swap space configured; changes with swapon and swapoff, so read at every reading."),
			level(SwapFreeID, "free", "Swap space unused", "SwapFree", "Swap space holding nothing."),
			derived(ns.Derived(swapUsedID, "used", ns.DerivedDifference, ns.PMSemInstant, "Swap space in use (total - free)",
				SwapTotalID, SwapFreeID).WithScale(0, max),
				"derived: DIFFERENCE(total, free)", "Swap space holding pages: total - free."),
			derived(ns.Derived(swapPctUsedID, "%used", ns.DerivedPercent, ns.PMSemInstant, "% swap space in use",
				swapUsedID, SwapFreeID).WithScale(0, 1),
				"derived: PERCENT(used, free)", "used / total; n/a on a host without swap (zero denominator)."),
			ns.Counter(SwapInID, "swapin", ns.TypeUint8, ns.UnitPages, "Pages swapped in", "/proc/vmstat pswpin").
				WithScale(0, 1000).WithHelp("Pages read back from swap space, shown as a rate."),
			ns.Counter(SwapOutID, "swapout", ns.TypeUint8, ns.UnitPages, "Pages swapped out", "/proc/vmstat pswpout").
				WithScale(0, 1000).WithHelp("Pages written to swap space, shown as a rate."),
		}}
	virt = &ns.Class{ID: ns.ClassID{memASN, 3}, Name: "Virt", Desc: "Paging statistics", Flags: ns.ClassEnabled,
		Help: "Paging between memory and block devices, and page faults, from /proc/vmstat.", Levels: SingleLevel(),
		Datums: []ns.Datum{
			ns.Counter(VirtPageInID, "pagein", ns.TypeUint8, ns.UnitBytes, "Bytes paged in from block devices", "/proc/vmstat pgpgin, KiB ×1024").
				WithScale(0, 100<<20).WithHelp("Data read from block devices into memory (files and swap), shown as a rate."),
			ns.Counter(VirtPageOutID, "pageout", ns.TypeUint8, ns.UnitBytes, "Bytes paged out to block devices", "/proc/vmstat pgpgout, KiB ×1024").
				WithScale(0, 100<<20).WithHelp("Data written from memory to block devices (files and swap), shown as a rate."),
			ns.Counter(VirtFaultsID, "faults", ns.TypeUint8, ns.UnitEvent, "Page faults", "/proc/vmstat pgfault").
				WithScale(0, 100000).WithHelp("Page faults, minor and major, shown as a rate."),
			ns.Counter(VirtMajFaultsID, "majfaults", ns.TypeUint8, ns.UnitEvent, "Page faults that needed I/O", "/proc/vmstat pgmajfault").
				WithScale(0, 1000).WithHelp("Major page faults (the page had to be read from disk), shown as a rate."),
		}}
	namePCP(real, realPMDA())
	namePCP(swap, swapPMDA())
	namePCP(virt, virtPMDA())
	return top, real, swap, virt
}

const MemModule, MemTitle = "dcimon-mem", "Memory and paging"

// realPMDA is where the Linux PMDA keeps physical memory (mem.physmem and mem.util, Kbyte).
func realPMDA() []Binding {
	return []Binding{
		{Datum: RealTotalID, Metric: "mem.physmem"}, {Datum: RealFreeID, Metric: "mem.util.free"}, {Datum: RealAvailID, Metric: "mem.util.available"},
		{Datum: RealBuffersID, Metric: "mem.util.bufmem"}, {Datum: RealCachedID, Metric: "mem.util.cached"},
	}
}

// swapPMDA is where the Linux PMDA keeps swap space and swapping.
func swapPMDA() []Binding {
	return []Binding{
		{Datum: SwapTotalID, Metric: "mem.util.swapTotal"}, {Datum: SwapFreeID, Metric: "mem.util.swapFree"},
		{Datum: SwapInID, Metric: "swap.pagesin", Mult: 1}, {Datum: SwapOutID, Metric: "swap.pagesout", Mult: 1},
	}
}

// virtPMDA is where the Linux PMDA keeps paging and faults.
func virtPMDA() []Binding {
	return []Binding{
		// /proc/vmstat's pgpgin and pgpgout count kilobytes, whatever their names say; PCP
		// declares them as counts.
		{Datum: VirtPageInID, Metric: "mem.vmstat.pgpgin", Mult: 1024}, {Datum: VirtPageOutID, Metric: "mem.vmstat.pgpgout", Mult: 1024},
		{Datum: VirtFaultsID, Metric: "mem.vmstat.pgfault", Mult: 1}, {Datum: VirtMajFaultsID, Metric: "mem.vmstat.pgmajfault", Mult: 1},
	}
}
