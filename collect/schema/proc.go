package schema

import ns "dcimon/namespace"

const ProcASN = 13

// Proc datum low bytes.
const (
	ProcStateID = 1 + iota
	ProcPPIDID
	ProcUserID
	ProcUIDID
	ProcThreadsID
	ProcPriorityID
	ProcNiceID
	ProcStartID
	ProcUtimeID
	ProcStimeID
	ProcRSSID
	ProcVSizeID
	ProcMinfltID
	ProcMajfltID
	ProcRcharID
	ProcWcharID
	ProcSyscrID
	ProcSyscwID
	ProcReadBytesID
	ProcWriteBytesID
	ProcVCtxID
	ProcNVCtxID
	ProcCommandID
	ProcCmdlineID
	ProcCgroupID
	ProcCPUID     // derived: utime + stime, shown as % of one processor (top's %CPU)
	ProcIOBytesID // derived: read_bytes + write_bytes
)

// MaxCmdline bounds a kept command line: ARG_MAX allows megabytes.
const MaxCmdline = 4096

// ProcClasses declares Proc (13, uninstantiated) and one instance per process (13.2).
func ProcClasses(ncpu int, memTotal uint64) (top, pc *ns.Class) {
	maxMs := 1000 * float64(max(ncpu, 1))
	ms := func(id uint8, name, desc, field, pcp, help string) ns.Datum {
		return ns.Counter(id, name, ns.TypeUint8, ns.UnitMillisecs, desc, "/proc/PID/stat field "+field+", USER_HZ ticks ×10 = ms").
			WithScale(0, 1000).WithMaxRate(maxMs).WithShare(1).WithPCPName(pcp).WithHelp(help)
	}
	count := func(id uint8, name string, u ns.Unit, desc, src, pcp string, scale float64, help string) ns.Datum {
		return ns.Counter(id, name, ns.TypeUint8, u, desc, src).WithScale(0, scale).WithPCPName(pcp).WithHelp(help)
	}
	bytesC := func(id uint8, name, desc, field, pcp, help string) ns.Datum {
		return ns.Counter(id, name, ns.TypeUint8, ns.UnitBytes, desc, "/proc/PID/io "+field).
			WithScale(0, 100<<20).WithPCPName(pcp).WithHelp(help + " n/a (access denied) for another user's process unless dcimon may trace it.")
	}
	ioCount := func(id uint8, name, desc, field, pcp string) ns.Datum {
		return ns.Counter(id, name, ns.TypeUint8, ns.UnitCount, desc, "/proc/PID/io "+field).
			WithScale(0, 10000).WithPCPName(pcp).WithHelp(desc + " (system calls); n/a (access denied) where /proc/PID/io cannot be read.")
	}
	text := func(id uint8, name, desc, src, pcp, help string) ns.Datum {
		d := ns.Text(id, name, desc, src).WithPCPName(pcp).WithHelp(help)
		d.DCI4.Size = 256
		return d
	}
	rssMax := float64(memTotal)
	if rssMax <= 0 {
		rssMax = 1 << 34
	}
	cpu := sourced(ns.Derived(ProcCPUID, "cpu", ns.DerivedSum2, ns.PMSemCounter, "CPU time, user and system (top's %CPU)", ProcUtimeID, ProcStimeID).
		WithScale(0, 1000).WithShare(1).WithHelp("utime + stime: as a rate, the share of one processor the process used over the interval, as top shows %CPU (a process with many threads can pass 100%)."), "derived: SUM(utime, stime)")
	iob := sourced(ns.Derived(ProcIOBytesID, "io_bytes", ns.DerivedSum2, ns.PMSemCounter, "Storage bytes read and written", ProcReadBytesID, ProcWriteBytesID).
		WithScale(0, 100<<20).WithHelp("read_bytes + write_bytes: the storage traffic the process caused; n/a where /proc/PID/io cannot be read."), "derived: SUM(read_bytes, write_bytes)")
	top = &ns.Class{ID: ns.ClassID{ProcASN}, Name: "Proc", Desc: "Processes", Flags: ns.ClassEnabled,
		Help: "Every process of the host, as top shows them: /proc/PID/stat, status and io, read only while something shows or ranks them."}
	pc = &ns.Class{ID: ns.ClassID{ProcASN, 2}, Name: "proc", Desc: "One process", Flags: ns.ClassEnabled,
		Help: "One process, named by its PID, labelled with its command name. A PID the kernel gives to a new process is a new instance (the start time tells them apart): no rate ever spans the two. " +
			"dcimon only watches: it sends no signal and changes no priority.",
		InstFreq: ns.SiContInst, OnDemand: true, Churn: true,
		Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagWorkID, Size: 4}, {Type: ns.TypeUint8, Tag: ns.TagWorkInfo, Size: 8}},
		Datums: []ns.Datum{
			text(ProcStateID, "state", "State (R running, S sleeping, D disk wait, Z zombie, ...)", "/proc/PID/stat field 3", "proc.psinfo.sname",
				"The scheduler state, one letter as ps and top print it: R running, S sleeping, D uninterruptible (usually disk) wait, Z zombie, T stopped, t traced, I idle kernel thread."),
			ns.Discrete(ProcPPIDID, "ppid", ns.TypeUint4, ns.UnitNone, "Parent process ID", "/proc/PID/stat field 4").
				WithPCPName("proc.psinfo.ppid").WithHelp("The PID of the parent; 0 for init and kthreadd."),
			text(ProcUserID, "user", "Effective user", "/proc/PID/status Uid (effective), named by /etc/passwd", "proc.id.euid_nm",
				"The effective user's name from the host's /etc/passwd, or the number where it has none (a user only a directory service knows)."),
			ns.Discrete(ProcUIDID, "uid", ns.TypeUint4, ns.UnitNone, "Effective user ID", "/proc/PID/status Uid, second field").
				WithPCPName("proc.id.euid").WithHelp("The effective user ID."),
			ns.Gauge(ProcThreadsID, "threads", ns.TypeUint4, ns.UnitThreads, "Threads", "/proc/PID/stat field 20").
				WithScale(0, 64).WithPCPName("proc.psinfo.threads").WithHelp("Threads in the process."),
			ns.Gauge(ProcPriorityID, "priority", ns.TypeInt4, ns.UnitNone, "Scheduling priority", "/proc/PID/stat field 18").
				WithScale(-100, 39).WithPCPName("proc.psinfo.priority").WithHelp("The kernel's priority as top's PR: 20 + nice for normal processes, negative for real-time ones."),
			ns.Gauge(ProcNiceID, "nice", ns.TypeInt4, ns.UnitNone, "Nice value", "/proc/PID/stat field 19").
				WithScale(-20, 19).WithPCPName("proc.psinfo.nice").WithHelp("From -20 (favoured) to 19 (least favoured)."),
			ns.Discrete(ProcStartID, "start", ns.TypeUint8, ns.UnitSecs, "Time the process started", "/proc/PID/stat field 22 (ticks after boot) + /proc/stat btime").
				WithDCI4(ns.STTime, ns.STFCTime, ns.STPAbsolute).WithPCPName("proc.psinfo.start_time").
				WithHelp("When the process started, to the second; with the PID it names the process (a reused PID has another start)."),
			ms(ProcUtimeID, "utime", "CPU time in user mode", "14", "proc.psinfo.utime", "Milliseconds the process ran its own code; as a rate, a share of one processor."),
			ms(ProcStimeID, "stime", "CPU time in kernel mode", "15", "proc.psinfo.stime", "Milliseconds the kernel worked for the process (system calls, faults)."),
			ns.Gauge(ProcRSSID, "rss", ns.TypeUint8, ns.UnitBytes, "Resident memory (top's RES)", "/proc/PID/status VmRSS, kB ×1024 (statm's resident, exactly)").
				WithScale(0, rssMax).WithPCPName("proc.psinfo.rss").WithHelp("Memory of the process in RAM now, shared pages included, as top's RES."),
			ns.Gauge(ProcVSizeID, "vsize", ns.TypeUint8, ns.UnitBytes, "Virtual memory (top's VIRT)", "/proc/PID/stat field 23").
				WithScale(0, 1<<40).WithPCPName("proc.psinfo.vsize").WithHelp("The size of the address space: mapped, not necessarily used."),
			count(ProcMinfltID, "minflt", ns.UnitEvent, "Minor page faults", "/proc/PID/stat field 10", "proc.psinfo.minflt", 10000,
				"Faults served without I/O (a page already in memory)."),
			count(ProcMajfltID, "majflt", ns.UnitEvent, "Major page faults", "/proc/PID/stat field 12", "proc.psinfo.maj_flt", 100,
				"Faults that had to read from storage: a process waiting on them is slow."),
			bytesC(ProcRcharID, "rchar", "Bytes read by system calls", "rchar", "proc.io.rchar", "Bytes the process read with read(2) and the like, from storage, the cache, pipes or sockets."),
			bytesC(ProcWcharID, "wchar", "Bytes written by system calls", "wchar", "proc.io.wchar", "Bytes the process wrote with write(2) and the like."),
			ioCount(ProcSyscrID, "syscr", "Read system calls", "syscr", "proc.io.syscr"),
			ioCount(ProcSyscwID, "syscw", "Write system calls", "syscw", "proc.io.syscw"),
			bytesC(ProcReadBytesID, "read_bytes", "Bytes read from storage", "read_bytes", "proc.io.read_bytes", "Bytes the process caused to be fetched from storage."),
			bytesC(ProcWriteBytesID, "write_bytes", "Bytes written to storage", "write_bytes", "proc.io.write_bytes", "Bytes the process caused to be sent to storage (when it dirtied the pages)."),
			count(ProcVCtxID, "vctxsw", ns.UnitEvent, "Voluntary context switches", "/proc/PID/status voluntary_ctxt_switches", "proc.psinfo.vctxsw", 1000,
				"Times the process gave up the processor to wait (I/O, a lock, sleep)."),
			count(ProcNVCtxID, "nvctxsw", ns.UnitEvent, "Involuntary context switches", "/proc/PID/status nonvoluntary_ctxt_switches", "proc.psinfo.nvctxsw", 1000,
				"Times the scheduler took the processor away: many mean the process wants more CPU than it gets."),
			text(ProcCommandID, "command", "Command name", "/proc/PID/stat field 2", "proc.psinfo.cmd",
				"The command name the kernel keeps (15 bytes at most), as top's COMMAND."),
			text(ProcCmdlineID, "cmdline", "Command line", "/proc/PID/cmdline, arguments joined by spaces", "proc.psinfo.psargs",
				"The full command line (4 KiB kept), [name] for a kernel thread; any byte is escaped when shown."),
			text(ProcCgroupID, "cgroup", "Control group", "/proc/PID/cgroup: the unified path, else the first v1 controller's", "proc.psinfo.cgroups",
				"The control group the process belongs to: see the CGroup class for its totals."),
			cpu, iob,
		}}
	return top, pc
}

const ProcModule, ProcTitle = "dcimon-proc", "Processes"
