// Package collect is dcimon's built-in provider layer: it reads the host's raw counters and hands them,
// unchanged apart from unit conversion at the edge, to the name space, which computes rates, deltas, wraps
// and resets from real timestamps (house style rules 2 and 4, checklist ).
//
// This file set is the raw reading layer the providers are built on. Every source has a pure parser,
// parseX(src, data, dst), that never does I/O, reuses dst so that a steady-state sample does not allocate,
// reports each bad line with its source and line number while keeping the good lines, and is fuzzed; and a
// reader, readX(ctx, ...), that resolves the file from the roots in the context and does the I/O
// (house style rule 5).
//
// Values are integers in base units (checklist AMB-30: DCI has no floating-point type): bytes, not
// sectors or kB; CPU times in USER_HZ ticks (see userHZ); load averages in hundredths; uptime in
// centiseconds. Counter widths follow the kernel's printf formats so that the name space can tell a
// 32-bit wrap from a discontinuity (X-3, AMB-53).
//
// Names (devices, interfaces, host names) are kept as the exact bytes the kernel gave; sanitizeName makes
// them safe for a terminal at display time.
//
// On top of it sit the providers, one DCI4 supplier per file, each declaring its classes once with every
// datum described in all four views (DCI, DCI4, PCP, SPMI): host.go (Host, 5), mem.go (Mem/Real, Swap,
// Virt, 4), cpu.go (CPU totals and per processor, 1), disk.go (Disk: devices and nested partitions, 2)
// and net.go (NetIf, 3). HostProviders returns them in that order (host, mem, cpu, disk, net); their reset
// value is the boot time (suppliers.go). synthetic.go is a deterministic, scriptable source declaring the
// same classes through the same declaration functions (SyntheticProviders, ParseSynthetic). The sampler
// (sampler.go, monitor.go) runs the providers and builds the snapshots.
package collect
