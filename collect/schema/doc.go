// Package schema declares dcimon's built-in classes once, for every source: Host, CPU, Mem, Disk,
// NetIf, FS, Pressure, IP/TCP/UDP, NUMA, Sensors, Proc and CGroup, each with its ids, datums
// (types, units, scales, derived formulas, helps, the four standards' views), its instance naming
// rule and its supplier identity. collect/linux, collect/pcp and collect/synthetic fill these
// classes; none declares a datum of its own. It imports only namespace.
//
// Top-level class ids are the SPMI ASN.1 numbers of the top-level contexts and stay stable: CPU 1
// (`CPU/cpu0/idle` = 1.1.4), Disk 2, NetIf 3, Mem 4, Host 5, FS 6, Pressure 7, IP 8, TCP 9, UDP 10,
// NUMA 11, Sensors 12, Proc 13, CGroup 14; Monitor 90 is the sampler's and DDS 99 the users'.
package schema
