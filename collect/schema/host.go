package schema

import ns "dcimon/namespace"

// Host datum low bytes, static statistics first (DCI4-RD-7).
const (
	HostNameID    = 1 + iota // /proc/sys/kernel/hostname
	HostReleaseID            // /proc/sys/kernel/osrelease
	HostOSID                 // gopsutil host.PlatformInformation
	HostArchID               // gopsutil host.KernelArch (live host only)
	HostBootID               // /proc/stat btime
	HostHundredID            // the constant 100, divisor of the ×100 load averages
	HostUptimeID             // /proc/uptime field 1
	HostLoad1xID             // /proc/loadavg field 1 ×100
	HostLoad5xID             // field 2 ×100
	HostLoad15xID            // field 3 ×100
	hostLoad1ID              // derived: load1_x100 / hundred
	hostLoad5ID              // derived
	hostLoad15ID             // derived
	HostRunningID            // /proc/stat procs_running
	HostBlockedID            // /proc/stat procs_blocked
	HostThreadsID            // /proc/loadavg field 4, after the slash
	HostCtxswID              // /proc/stat ctxt
	HostIntrID               // /proc/stat intr, first field
	HostForksID              // /proc/stat processes
)

// HostTextSize is the DCI4 size of the host's text statistics: a host name is at most 64 bytes
// (HOST_NAME_MAX), plus the terminating NUL, rounded to 4 (DCI4-TYPE-2: the supplier bounds the
// string so that size can reserve room).
const HostTextSize = 68

// Hardware bounds of the kernel's event counters per processor (Datum.MaxRate), far above what a
// processor does: 10^8 context switches or interrupts a second (a switch costs about a
// microsecond), 10^7 forks.
const (
	hostMaxEvents = 1e8
	hostMaxForks  = 1e7
)

// HostClass declares Host (5): one instance, its own SPMI context, holding the host's identity,
// load and kernel activity. ncpu sets the scales of the load statistics.
func HostClass(ncpu int) *ns.Class {
	if ncpu < 1 {
		ncpu = 1
	}
	text := func(id uint8, name, desc, src, help string) ns.Datum {
		d := ns.Text(id, name, desc, src).WithHelp(help)
		d.DCI4.Size = HostTextSize
		return d
	}
	load := func(id uint8, mins string, field string) ns.Datum {
		return ns.Gauge(id, "load"+mins+"_x100", ns.TypeUint4, ns.UnitCount, mins+"-minute load average ×100",
			"/proc/loadavg field "+field+", two decimals kept as hundredths").
			WithScale(0, 200*float64(ncpu)).
			WithHelp("The " + mins + "-minute load average in hundredths, exactly as the kernel prints it (0.39 is 39); see load" + mins + " for the number itself.").WithAux()
	}
	avg := func(id, arg uint8, mins string) ns.Datum {
		return sourced(ns.Derived(id, "load"+mins, ns.DerivedAverage, ns.PMSemInstant, mins+"-minute load average", arg, HostHundredID).
			WithScale(0, 2*float64(ncpu)).
			WithHelp("Runnable and uninterruptible tasks averaged over "+mins+" minutes: load"+mins+"_x100 / hundred (DCI has no fractions, AMB-30)."),
			"derived: AVERAGE(load"+mins+"_x100, hundred)")
	}
	host := &ns.Class{ID: ns.ClassID{HostASN}, Name: "Host", Desc: "Host identity, load and kernel activity", Flags: ns.ClassEnabled,
		Help:   "The host as a whole: who it is, how long it has been up, its load and the kernel's event counters.",
		Levels: SingleLevel(),
		Datums: []ns.Datum{
			text(HostNameID, "hostname", "Host name", "/proc/sys/kernel/hostname",
				"The kernel's host name (uname -n), exact bytes; escaped when shown."),
			text(HostReleaseID, "release", "Kernel release", "/proc/sys/kernel/osrelease",
				"The running kernel's release string (uname -r)."),
			text(HostOSID, "os", "Operating system and version", "/etc/os-release PRETTY_NAME (or /usr/lib/os-release)",
				"The distribution's own name for itself, from os-release(5) in the tree read; n/a when it has none."),
			text(HostArchID, "arch", "Machine architecture", "gopsutil host.KernelArch (uname machine), live host only",
				"The kernel's machine type (uname -m); n/a when reading a tree rather than the running host."),
			ns.Discrete(HostBootID, "boottime", ns.TypeUint8, ns.UnitSecs, "Time the host booted", "/proc/stat btime, seconds since the Epoch").
				WithDCI4(ns.STTime, ns.STFCTime, ns.STPAbsolute).
				WithHelp("When the kernel booted, as a C time; also the reset value of every host-wide supplier (DCI4-SUP-8)."),
			ns.Discrete(HostHundredID, "hundred", ns.TypeUint4, ns.UnitCount, "Divisor of the ×100 load averages", "constant 100: /proc/loadavg prints two decimals").
				WithScale(0, 100).WithHelp("Always 100: the denominator that turns the loadN_x100 statistics into the load averages.").WithAux(),
			ns.Gauge(HostUptimeID, "uptime", ns.TypeUint8, ns.UnitTicks, "Time since boot", "/proc/uptime field 1, centiseconds").
				WithTicks(100).WithDCI4(ns.STTime, ns.STFMonotonic, ns.STPRelative).WithScale(0, 100*86400*365).
				WithHelp("How long the host has been up, in centiseconds (DCI4 STF_MONOTONIC), suspended time included."),
			load(HostLoad1xID, "1", "1"),
			load(HostLoad5xID, "5", "2"),
			load(HostLoad15xID, "15", "3"),
			avg(hostLoad1ID, HostLoad1xID, "1"),
			avg(hostLoad5ID, HostLoad5xID, "5"),
			avg(hostLoad15ID, HostLoad15xID, "15"),
			ns.Gauge(HostRunningID, "running", ns.TypeUint4, ns.UnitProcesses, "Runnable tasks now", "/proc/stat procs_running").
				WithScale(0, 2*float64(ncpu)).WithHelp("Threads that are running or ready to run at the moment of the reading."),
			ns.Gauge(HostBlockedID, "blocked", ns.TypeUint4, ns.UnitProcesses, "Tasks blocked on I/O now", "/proc/stat procs_blocked").
				WithScale(0, 16).WithHelp("Threads waiting for I/O to complete at the moment of the reading."),
			ns.Gauge(HostThreadsID, "threads", ns.TypeUint4, ns.UnitThreads, "Threads in existence", "/proc/loadavg field 4, after the slash").
				WithScale(0, 4096).WithHelp("Kernel scheduling entities (processes and threads) that exist now."),
			ns.Counter(HostCtxswID, "ctxsw", ns.TypeUint8, ns.UnitEvent, "Context switches", "/proc/stat ctxt").
				WithScale(0, 100000).WithMaxRate(hostMaxEvents * float64(ncpu)).WithHelp("Context switches since boot, shown as a rate."),
			ns.Counter(HostIntrID, "intr", ns.TypeUint8, ns.UnitEvent, "Interrupts serviced", "/proc/stat intr, first field (all sources)").
				WithScale(0, 100000).WithMaxRate(hostMaxEvents * float64(ncpu)).WithHelp("Interrupts of every source serviced since boot, shown as a rate."),
			ns.Counter(HostForksID, "forks", ns.TypeUint8, ns.UnitProcesses, "Processes and threads created", "/proc/stat processes").
				WithScale(0, 100).WithMaxRate(hostMaxForks * float64(ncpu)).WithHelp("Forks (processes and threads created) since boot, shown as a rate."),
		}}
	namePCP(host, hostPMDA())
	return host
}

const HostModule, HostTitle = "dcimon-host", "Host identity and load"

// hostPMDA is where the Linux PMDA keeps the host's identity, load and event counters.
func hostPMDA() []Binding {
	return []Binding{
		{Datum: HostNameID, Metric: "kernel.uname.nodename"}, {Datum: HostReleaseID, Metric: "kernel.uname.release"},
		{Datum: HostOSID, Metric: "kernel.uname.distro"}, {Datum: HostArchID, Metric: "kernel.uname.machine"},
		{Datum: HostBootID, Metric: "kernel.all.boottime"}, {Datum: HostHundredID, Metric: MetricConst, Mult: 100},
		{Datum: HostUptimeID, Metric: "kernel.all.uptime", Mult: 100}, // seconds as the datum's centisecond ticks
		{Datum: HostLoad1xID, Metric: "kernel.all.load", Mult: 100, Inst: 1},
		{Datum: HostLoad5xID, Metric: "kernel.all.load", Mult: 100, Inst: 5},
		{Datum: HostLoad15xID, Metric: "kernel.all.load", Mult: 100, Inst: 15},
		{Datum: HostRunningID, Metric: "kernel.all.running", Mult: 1}, {Datum: HostBlockedID, Metric: "kernel.all.blocked", Mult: 1},
		{Datum: HostCtxswID, Metric: "kernel.all.pswitch", Mult: 1}, {Datum: HostIntrID, Metric: "kernel.all.intr", Mult: 1},
		{Datum: HostForksID, Metric: "kernel.all.sysfork", Mult: 1},
	}
}
