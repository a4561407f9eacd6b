package linux

import "context"

// Where dcimon reads files itself instead of calling gopsutil v3 (v3.24.5).
//
// Budget: the CPU+disk+net part of one sample may cost at most twice the floor, where the floor is
// opening, reading and parsing /proc/stat, /proc/diskstats and /proc/net/dev with bare system calls
// (BenchmarkFloor). Measured with `go test -run x -bench . -benchmem -count 5 ./collect/linux/` on the
// development VM (2 vCPU AMD EPYC, Linux 6.18, 13 block devices of which 3 had I/O, 4 interfaces;
// medians of 5, other work running on the machine, so take ±20%):
//
//	floor (3 files, syscall open/read)     65 µs       48 B     3 allocs   budget: 130 µs
//	ours: readStat+readDiskstats+readNetDev 85 µs      457 B    15 allocs  (1.3× floor)
//	  readStat                              22 µs      152 B     5 allocs
//	  readDiskstats                         30 µs      152 B     5 allocs
//	  readNetDev                            37 µs      152 B     5 allocs
//	gopsutil cpu.TimesWithContext(percpu)   38 µs     6672 B    26 allocs
//	gopsutil disk.IOCountersWithContext    178 µs    12441 B   132 allocs
//	gopsutil net.IOCountersWithContext      45 µs     6712 B    21 allocs
//	all three gopsutil calls               261 µs                          (4.0× floor)
//
// (parsing alone, from memory: /proc/stat 2.2 µs, diskstats 4.5 µs, net/dev 2.2 µs, 0 allocs; the rest
// is the kernel generating the files.)
//
// Decisions, per source:
//
//   - Disk: our parser. disk.IOCounters alone is 2.7× the floor: for every device with I/O it stats
//     /dev/<name> twice and opens the udev database and sysfs model/serial/dm-name files, on every call.
//     It also drops every device whose counters are all zero (an idle disk disappears instead of showing
//     0), omits the discard and flush columns, and stops at the first bad number with a bare strconv
//     error. Serials and dm names are static (SV_VARIABLE) and read by readBlockDev once per reset.
//   - CPU: our parser. cpu.Times(percpu=true) alone fits, but it returns no total line and the CPU
//     provider also needs ctxt, intr, btime, processes and procs_*, which gopsutil cannot give from the
//     same read: a second read of /proc/stat (22-38 µs) takes CPU+disk+net to about 135 µs, over budget,
//     and the per-CPU times and totals would come from two instants, breaking the consistent class block
//     of DCI-MTH-11. gopsutil also returns float seconds (DCI has no float, AMB-30) and silently skips
//     lines it cannot parse.
//   - Net: our parser. net.IOCounters fits the budget, but it exposes 10 of the 16 columns (no frame,
//     compressed, multicast, colls, carrier), and it panics with an index out of range on a truncated
//     line (TestGopsutilQuirks): a provider must not be one corrupt line away from a panic.
//
// gopsutil stays available for providers where it fits and is complete; gopsutilContext points it at the
// same tree as our readers. Also measured, for the next providers: /proc/meminfo ours 27 µs / 152 B /
// 5 allocs vs mem.VirtualMemoryWithContext 54 µs / 10640 B / 173 allocs; /proc/loadavg ours 15 µs vs
// load.AvgWithContext 20 µs / 1904 B / 11 allocs. Never call cpu.Percent: it keeps package state between
// calls (house style rule 2). An empty slice with a nil error from gopsutil means "no data", not zeros
// (cpu.Times on an unreadable /proc/stat does exactly that, while net.IOCounters returns an error).

// The providers (issue 3), measured the same way with the machine busier (load 2-4; medians of 5;
// go test -run x -bench 'Floor|Collect|Gopsutil|IPv4|HostStatic' -benchmem -count 5 ./collect/linux/):
//
//	floor                                    84 µs                           budget: 168 µs
//	cpu+disk+net providers, one Collect each 117 µs   6424 B   30 allocs  (1.4× floor)
//	  cpu 29 µs, disk 39 µs, net 49 µs (steady state: diskstats/net/dev/stat only, sysfs cached)
//	all five host providers (host, mem too)  253 µs   9088 B   67 allocs
//	host static data (hostname, release, os-release, uname)   52 µs, once per supplier reset
//
// Where the providers use gopsutil v3, and where they do not:
//
//   - host.KernelArch (uname -m): used for Host/arch, on the live host only; uname has no tree.
//   - net.InterfacesWithContext: used for NetIf/ipv4 on the live host, one netlink dump of every
//     interface and its addresses when SV_VARIABLE data is due: 208 µs / 165 allocs, against 538 µs /
//     311 allocs for readIPv4 per interface (each call dumps the links again). Under a tree there is
//     no netlink, and ipv4 is invalid.
//   - host.PlatformInformationWithContext: not used. When the tree has no etc/lsb-release it runs the
//     running host's /usr/bin/lsb_release (21.6 ms, a child process, and the live host's answer under
//     a fixture tree); readOSRelease reads os-release(5) from the tree instead (a few µs).
//   - host.InfoWithContext (21.1 ms): not used. Host name, kernel version and uptime come from
//     os.Hostname, uname and sysinfo, always the live host, and the virtualization it also reports is
//     cached in a package variable (the first tree read wins for the life of the process).
//   - host.BootTimeWithContext: not used. It asks the cached virtualization first, and for lxc and
//     docker guests computes time.Now - uptime, which drifts; /proc/stat btime is in the file the CPU
//     and Host providers read anyway.
//   - mem.VirtualMemoryWithContext (51 µs, 173 allocs) and mem.SwapMemoryWithContext (91 µs, 400
//     allocs): not used. readMeminfo takes 26 µs / 5 allocs, and the memory provider reads
//     meminfo and vmstat for all of Mem/Real, Mem/Swap and Mem/Virt in 107 µs / 18 allocs (most of
//     it the kernel generating vmstat); gopsutil's "used" is total-free-buffers-cached, where
//     free(1) and we use total-available.
//
// The synthetic source, 10,000 disks (2,500 with 2 partitions), one disk Collect
// (BenchmarkSyntheticCollect10k in ./collect/synthetic/): 3.5 ms with the GC off, 8-10 ms in a tight loop, most of the
// difference the collector scanning the 14 MB of fresh ns.Raw (pointerful: Raw.S) each
// collection allocates, as the Provider contract requires.

// gopsutilContext returns ctx with a complete common.EnvMap for gopsutil's *WithContext calls, so that
// gopsutil reads exactly the tree our own readers read and never the process environment. Call it once
// per sample, not per gopsutil call: it allocates the map.
func gopsutilContext(ctx context.Context) context.Context {
	return withRoots(ctx, rootsFrom(ctx))
}
