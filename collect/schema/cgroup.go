package schema

import ns "dcimon/namespace"

const CGroupASN = 14

// CGroup datum low bytes.
const (
	CGCPUUsageID = 1 + iota
	CGCPUUserID
	CGCPUSystemID
	CGThrottledID
	CGNrThrottledID
	CGMemCurrentID
	CGMemMaxID
	CGSwapCurrentID
	CGIORBytesID
	CGIOWBytesID
	CGIORIOsID
	CGIOWIOsID
	CGCPUSomeTotalID
	CGCPUSomeAvg10ID
	CGMemSomeTotalID
	CGMemSomeAvg10ID
	CGMemFullTotalID
	CGMemFullAvg10ID
	CGIOSomeTotalID
	CGIOSomeAvg10ID
	CGIOFullTotalID
	CGIOFullAvg10ID
	CGProcsID
	CGVersionID
	CGContainerID
	CGRuntimeID
	CGContainerNameID
	CGIOBytesID // derived: io_rbytes + io_wbytes
)

// cgroup device datum low bytes (one instance per block device a group did I/O on).
const (
	cgdRBytesID = 1 + iota
	cgdWBytesID
	cgdRIOsID
	cgdWIOsID
)

// CGroupClasses declares CGroup (14, uninstantiated), one instance per group (14.2, nested by
// path) and one per block device under a group (14.3).
func CGroupClasses(ncpu int) (top, grp, dev *ns.Class) {
	maxUs := 1e6 * float64(max(ncpu, 1))
	us := func(id uint8, name, desc, src, pcp, help string) ns.Datum {
		return ns.Counter(id, name, ns.TypeUint8, ns.UnitMicrosecs, desc, src).
			WithScale(0, 1e6).WithMaxRate(maxUs).WithShare(1).WithPCPName(pcp).WithHelp(help)
	}
	count := func(id uint8, name string, u ns.Unit, desc, src, pcp string, scale float64, help string) ns.Datum {
		return ns.Counter(id, name, ns.TypeUint8, u, desc, src).WithScale(0, scale).WithPCPName(pcp).WithHelp(help)
	}
	mem := func(id uint8, name, desc, src, pcp, help string) ns.Datum {
		return ns.Gauge(id, name, ns.TypeUint8, ns.UnitBytes, desc, src).WithScale(0, 1<<34).WithPCPName(pcp).WithHelp(help)
	}
	psiTotal := func(id uint8, res, kind string) ns.Datum {
		return ns.Counter(id, res+"_"+kind+"_total", ns.TypeUint8, ns.UnitMicrosecs, "Time "+whoStallsShort(kind)+" of the group stalled on "+res,
			res+".pressure \""+kind+"\" total, microseconds (v2)").WithScale(0, 1e6).WithMaxRate(1e6).WithShare(1).
			WithPCPName("cgroup.pressure." + res + "." + kind + ".total").
			WithHelp("As a rate, the share of the interval in which " + whoStalls(kind) + " of the group waited for " + res + "; n/a (not present) without v2 pressure files.")
	}
	psiAvg := func(id uint8, res, kind string) ns.Datum {
		return ns.Gauge(id, res+"_"+kind+"_avg10", ns.TypeUint4, ns.UnitCentiPercent, "Share of time the group stalled on "+res+", 10 s average",
			res+".pressure \""+kind+"\" avg10, hundredths (v2)").WithScale(0, 10000).
			WithPCPName("cgroup.pressure." + res + "." + kind + ".avg10sec").
			WithHelp("The kernel's 10-second average of the share of time " + whoStalls(kind) + " of the group waited for " + res + ".")
	}
	iob := sourced(ns.Derived(CGIOBytesID, "io_bytes", ns.DerivedSum2, ns.PMSemCounter, "Storage bytes read and written", CGIORBytesID, CGIOWBytesID).
		WithScale(0, 100<<20).WithHelp("io_rbytes + io_wbytes: the group's storage traffic, for the busiest groups by I/O."), "derived: SUM(io_rbytes, io_wbytes)")
	top = &ns.Class{ID: ns.ClassID{CGroupASN}, Name: "CGroup", Desc: "Control groups", Flags: ns.ClassEnabled,
		Help: "The control-group hierarchy (services, containers, user sessions) with each group's CPU, memory, I/O and stalls: " +
			"the unified (v2) hierarchy and the v1 controllers' merged by path. Read only while something shows or ranks them."}
	grp = &ns.Class{ID: ns.ClassID{CGroupASN, 2}, Name: "cgroup", Desc: "One control group", Flags: ns.ClassEnabled,
		Help: "One control group, named by its directory, nested under its parent group. Counters include the groups below it, as the kernel counts them. " +
			"A group re-created under the same path is a new instance.",
		InstFreq: ns.SiContInst, OnDemand: true,
		Levels: []ns.InstLevel{{Type: ns.TypeUint8, Tag: ns.TagPath, Size: 8}, {Type: ns.TypeUint8, Tag: ns.TagInode, Size: 8}},
		Datums: []ns.Datum{
			us(CGCPUUsageID, "cpu", "CPU time of the group", "v2 cpu.stat usage_usec; v1 cpuacct.usage (ns / 1000)", "cgroup.cpu.stat.usage",
				"Microseconds the group's tasks ran; as a rate, the share of one processor (a busy group of many threads passes 100%)."),
			us(CGCPUUserID, "cpu_user", "CPU time in user mode", "v2 cpu.stat user_usec; v1 cpuacct.stat user (USER_HZ ticks)", "cgroup.cpu.stat.user",
				"Microseconds the group's tasks ran their own code."),
			us(CGCPUSystemID, "cpu_system", "CPU time in kernel mode", "v2 cpu.stat system_usec; v1 cpuacct.stat system (USER_HZ ticks)", "cgroup.cpu.stat.system",
				"Microseconds the kernel worked for the group's tasks."),
			us(CGThrottledID, "throttled", "Time throttled by the CPU limit", "v2 cpu.stat throttled_usec; v1 cpu.stat throttled_time (ns / 1000)", "cgroup.cpu.stat.throttled_time",
				"Microseconds the group was held back by its CPU quota: a group throttled much of the time wants more CPU than it may have."),
			count(CGNrThrottledID, "nr_throttled", ns.UnitEvent, "Periods throttled", "v2 cpu.stat nr_throttled; v1 cpu.stat nr_throttled", "cgroup.cpu.stat.nr_throttled", 100,
				"Enforcement periods in which the group used up its quota."),
			mem(CGMemCurrentID, "mem", "Memory in use", "v2 memory.current; v1 memory.usage_in_bytes", "cgroup.memory.current",
				"Memory charged to the group, page cache included."),
			mem(CGMemMaxID, "mem_max", "Memory limit", "v2 memory.max; v1 memory.limit_in_bytes", "cgroup.memory.max",
				"The hard limit; n/a (not present) when the group has none."),
			mem(CGSwapCurrentID, "swap", "Swap in use", "v2 memory.swap.current; v1 memory.memsw.usage_in_bytes − memory.usage_in_bytes", "cgroup.memory.swap.current",
				"Swap charged to the group; n/a where the kernel does not account it."),
			count(CGIORBytesID, "io_rbytes", ns.UnitBytes, "Bytes read from storage", "v2 io.stat rbytes; v1 blkio.throttle.io_service_bytes Read, summed over devices", "cgroup.io.stat.rbytes", 100<<20,
				"Storage reads of the group, every device together; the devices are its subcontexts."),
			count(CGIOWBytesID, "io_wbytes", ns.UnitBytes, "Bytes written to storage", "v2 io.stat wbytes; v1 blkio.throttle.io_service_bytes Write", "cgroup.io.stat.wbytes", 100<<20,
				"Storage writes of the group, every device together."),
			count(CGIORIOsID, "io_rios", ns.UnitReads, "Read operations", "v2 io.stat rios; v1 blkio.throttle.io_serviced Read", "cgroup.io.stat.rios", 1000,
				"Read requests the group's I/O made."),
			count(CGIOWIOsID, "io_wios", ns.UnitWrites, "Write operations", "v2 io.stat wios; v1 blkio.throttle.io_serviced Write", "cgroup.io.stat.wios", 1000,
				"Write requests."),
			psiTotal(CGCPUSomeTotalID, "cpu", "some"), psiAvg(CGCPUSomeAvg10ID, "cpu", "some"),
			psiTotal(CGMemSomeTotalID, "memory", "some"), psiAvg(CGMemSomeAvg10ID, "memory", "some"),
			psiTotal(CGMemFullTotalID, "memory", "full"), psiAvg(CGMemFullAvg10ID, "memory", "full"),
			psiTotal(CGIOSomeTotalID, "io", "some"), psiAvg(CGIOSomeAvg10ID, "io", "some"),
			psiTotal(CGIOFullTotalID, "io", "full"), psiAvg(CGIOFullAvg10ID, "io", "full"),
			ns.Gauge(CGProcsID, "nprocs", ns.TypeUint4, ns.UnitProcesses, "Processes in the group itself", "cgroup.procs lines").
				WithScale(0, 100).WithPCPName("cgroup.procs").WithHelp("Processes directly in this group, not in the groups below it."),
			variableText(CGVersionID, "version", "Hierarchies the group is in", "the directories found: v2, v1 controllers",
				"v2 (unified), v1 (the listed controllers), or both on a hybrid host."),
			variableText(CGContainerID, "container", "Container id", "a 64-hex-digit id in the group's path",
				"The id a container runtime gave the group's container (docker, containerd, podman, cri-o); n/a (not present) for a group that is no container."),
			variableText(CGRuntimeID, "runtime", "Container runtime", "the prefix of the id in the path",
				"docker, containerd, podman or cri-o, from how the runtime names the group."),
			variableText(CGContainerNameID, "container_name", "Container name", "docker: /var/lib/docker/containers/ID/config.v2.json Name",
				"The container's name where it can be read without asking a daemon (docker's own files, readable by root); n/a with the reason otherwise."),
			iob,
		}}
	dev = &ns.Class{ID: ns.ClassID{CGroupASN, 3}, Name: "device", Desc: "One block device of a control group", Flags: ns.ClassEnabled,
		Help:     "The group's I/O on one block device, named as /sys/dev/block names it.",
		InstFreq: ns.SiContInst, OnDemand: true, NestUnder: grp.ID,
		Levels: []ns.InstLevel{{Type: ns.TypeUint8, Tag: ns.TagPath, Size: 8}, {Type: ns.TypeUint8, Tag: ns.TagDevice, Size: 8}},
		Datums: []ns.Datum{
			count(cgdRBytesID, "io_rbytes", ns.UnitBytes, "Bytes read", "v2 io.stat rbytes; v1 blkio.throttle.io_service_bytes Read", "cgroup.io.stat.rbytes", 100<<20, "Bytes the group read from this device."),
			count(cgdWBytesID, "io_wbytes", ns.UnitBytes, "Bytes written", "v2 io.stat wbytes; v1 blkio.throttle.io_service_bytes Write", "cgroup.io.stat.wbytes", 100<<20, "Bytes the group wrote to this device."),
			count(cgdRIOsID, "io_rios", ns.UnitReads, "Read operations", "v2 io.stat rios; v1 blkio.throttle.io_serviced Read", "cgroup.io.stat.rios", 1000, "Reads the group issued to this device."),
			count(cgdWIOsID, "io_wios", ns.UnitWrites, "Write operations", "v2 io.stat wios; v1 blkio.throttle.io_serviced Write", "cgroup.io.stat.wios", 1000, "Writes the group issued to this device."),
		}}
	return top, grp, dev
}

const CGroupModule, CGroupTitle = "dcimon-cgroup", "Control groups"
