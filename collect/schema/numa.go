package schema

import ns "dcimon/namespace"

const numaASN = 11

// NUMA datum low bytes.
const (
	NUMATotalID = 1 + iota
	NUMAFreeID
	NUMAHitID
	NUMAMissID
	NUMAForeignID
	NUMALocalID
	NUMAOtherID
	NUMAInterleaveID
	numaUsedID // derived: total - free
)

// NUMAClasses declares NUMA (11, uninstantiated) and one instance per node (11.2). memTotal
// sets the memory scales.
func NUMAClasses(memTotal uint64) (top, node *ns.Class) {
	if memTotal == 0 {
		memTotal = 16 << 30
	}
	mem := func(id uint8, name, desc, key, pcp, help string) ns.Datum {
		return ns.Gauge(id, name, ns.TypeUint8, ns.UnitBytes, desc, "/sys/devices/system/node/nodeN/meminfo "+key+", kB ×1024").
			WithScale(0, float64(memTotal)).WithPCPName(pcp).WithHelp(help)
	}
	alloc := func(id uint8, name, desc, key, pcp, help string) ns.Datum {
		return ns.Counter(id, name, ns.TypeUint8, ns.UnitPages, desc, "/sys/devices/system/node/nodeN/numastat "+key).
			WithScale(0, 1e6).WithMaxRate(1e9).WithPCPName(pcp).WithHelp(help)
	}
	used := sourced(ns.Derived(numaUsedID, "used", ns.DerivedDifference, ns.PMSemInstant, "Node memory in use (total - free)", NUMATotalID, NUMAFreeID).
		WithScale(0, float64(memTotal)).WithHelp("total - free."), "derived: DIFFERENCE(total, free)")
	top = &ns.Class{ID: ns.ClassID{numaASN}, Name: "NUMA", Desc: "NUMA memory nodes", Flags: ns.ClassEnabled,
		Help: "Memory per NUMA node and where allocations were served, from /sys/devices/system/node."}
	node = &ns.Class{ID: ns.ClassID{numaASN, 2}, Name: "node", Desc: "One NUMA node", Flags: ns.ClassEnabled,
		Help:     "One node's memory and allocation counters. Instance value: the node number.",
		InstFreq: ns.SiCfgInst, Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagEnumeration, Size: 4}},
		Datums: []ns.Datum{
			mem(NUMATotalID, "total", "Node memory", "MemTotal", "mem.numa.util.total", "Memory attached to the node."),
			mem(NUMAFreeID, "free", "Node memory free", "MemFree", "mem.numa.util.free", "The node's memory not in use."),
			alloc(NUMAHitID, "hit", "Allocations served by their preferred node", "numa_hit", "mem.numa.alloc.hit", "Pages allocated on this node as intended."),
			alloc(NUMAMissID, "miss", "Allocations served here for another node", "numa_miss", "mem.numa.alloc.miss", "Pages allocated on this node although another was preferred (it was full)."),
			alloc(NUMAForeignID, "foreign", "Allocations meant here served elsewhere", "numa_foreign", "mem.numa.alloc.foreign", "Pages meant for this node allocated on another: the remote accesses to come."),
			alloc(NUMALocalID, "local", "Allocations for a process on this node", "local_node", "mem.numa.alloc.local_node", "Pages allocated here for a process running on this node."),
			alloc(NUMAOtherID, "other", "Allocations for a process on another node", "other_node", "mem.numa.alloc.other_node", "Pages allocated here for a process running elsewhere."),
			alloc(NUMAInterleaveID, "interleave", "Interleaved allocations served here", "interleave_hit", "mem.numa.alloc.interleave_hit", "Pages of an interleave policy allocated here as intended."),
			used,
		}}
	return top, node
}

const NUMAModule, NUMATitle = "dcimon-numa", "NUMA nodes"
