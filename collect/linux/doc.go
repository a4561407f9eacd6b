// Package linux reads this host's counters from /proc and /sys (or a fixture tree under the roots
// given) into the classes collect/schema declares: one provider per file (host.go, mem.go,
// cpu.go, disk.go, net.go, fs.go, pressure.go, tcpip.go, numa.go, sensors.go, proc.go,
// cgroup.go), returned in a fixed order by Providers (providers.go).
//
// Every file format has a pure parser, parseX(src, data, dst), that never does I/O, reuses dst so
// that a steady-state sample does not allocate, reports each bad line with its source and line
// number while keeping the good lines, and is fuzzed; and a reader, readX(ctx, ...), that resolves
// the file from the roots in the context and does the I/O (house style rule 5). Values are
// integers in base units (AMB-30): bytes, not sectors or kB; CPU times in milliseconds; load
// averages in hundredths; uptime in centiseconds. Counter widths follow the kernel's printf formats
// so that the name space can tell a 32-bit wrap from a discontinuity (X-3, AMB-53). Names are kept
// as the exact bytes the kernel gave; the name space escapes them for display.
package linux
