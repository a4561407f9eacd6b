package schema

import (
	"slices"
	"strconv"

	ns "dcimon/namespace"
)

// CPU datum low bytes. user, kern, wait and idle are 1 to 4 as in checklist §0.1, so that
// `CPU/cpu0/idle` is ASN.1 1.1.4 (SPMI L532); the rest follow in /proc/stat's column order,
// then the derived datums, each after its arguments.
const (
	CPUUserID      = 1 + iota // /proc/stat column 1 (guest time included, as the kernel counts it)
	CPUKernID                 // column 3, system
	CPUWaitID                 // column 5, iowait
	CPUIdleID                 // column 4, idle
	CPUNiceID                 // column 2 (guest_nice included)
	CPUIRQID                  // column 6
	CPUSoftIRQID              // column 7
	CPUStealID                // column 8
	CPUGuestID                // column 9 (already in user)
	CPUGuestNiceID            // column 10 (already in nice)
	cpuUsrSysID               // derived: user + nice + kern
	cpuIntStealID             // derived: irq + softirq + steal
	cpuBusyMsID               // derived: usrsys + intsteal
	cpuIdleMsID               // derived: idle + wait
	cpuBusyID                 // derived: PERCENT(busy_ms, idle_ms)
	CPUNumID                  // totals only: online processors
	cpuUsrID                  // derived: user - guest (mpstat %usr)
	cpuNicedID                // derived: nice - guest_nice (mpstat %nice)
	cpuCountedMsID            // derived: busy_ms + idle_ms, every part's time (mpstat's denominator)
	cpuShareBaseID            // the shares follow in pairs: the time not in the part, then the part's share
)

// cpuShares are mpstat's columns as derived datums, each a part's time over the time counted
// in all the parts (issue 32 item 6): the shares of one processor add up to 100, as mpstat's do,
// where rates over the wall clock can reach 102 when a reading lands a tick late. Guest time is
// inside user and nice; %usr and %nice leave it out and %guest and %gnice show it, as mpstat.
var cpuShares = [...]struct {
	name string
	part uint8
	desc string
}{
	{"%usr", cpuUsrID, "user code, guest time excluded"},
	{"%nice", cpuNicedID, "niced user code, guest time excluded"},
	{"%sys", CPUKernID, "kernel code, interrupts excluded"},
	{"%iowait", CPUWaitID, "idle with I/O outstanding"},
	{"%irq", CPUIRQID, "hardware interrupts"},
	{"%soft", CPUSoftIRQID, "software interrupts"},
	{"%steal", CPUStealID, "stolen by the hypervisor"},
	{"%guest", CPUGuestID, "running a guest"},
	{"%gnice", CPUGuestNiceID, "running a niced guest"},
	{"%idle", CPUIdleID, "idle with no I/O outstanding"},
}

// CPUShareNames are the names of the shares, in mpstat's column order.
func CPUShareNames() []string {
	out := make([]string, len(cpuShares))
	for i, s := range cpuShares {
		out[i] = s.name
	}
	return out
}

// cpuDatums declares the statistics of one processor or of all of them; maxMs is the SPMI scale
// of the time counters, in milliseconds per second (1000 per processor).
func cpuDatums(maxMs float64) []ns.Datum {
	src := func(col int, name string) string {
		return "/proc/stat cpu/cpuN line column " + strconv.Itoa(col) + " (" + name + "), USER_HZ ticks ×10 = ms"
	}
	ms := func(id uint8, name, desc string, col int, kname, help string) ns.Datum {
		d := ns.Counter(id, name, ns.TypeUint8, ns.UnitMillisecs, desc, src(col, kname)).
			WithScale(0, maxMs).WithMaxRate(maxMs).WithShare(maxMs / 1000).WithHelp(help)
		if id != CPUGuestID && id != CPUGuestNiceID {
			// The eight states a processor's time is split into; guest time is inside user
			// and nice, so it is not a part of its own.
			d = d.WithPart()
		}
		return d
	}
	busy := func(d ns.Datum, help string) ns.Datum {
		return consumerDerived(d, maxMs, help).WithShare(maxMs / 1000)
	}
	out := []ns.Datum{
		ms(CPUUserID, "user", "Time in user mode (guest time included)", 1, "user",
			"Milliseconds spent running user code at normal priority; the kernel also counts time running a virtual machine's guest here."),
		ms(CPUKernID, "kern", "Time in kernel mode", 3, "system",
			"Milliseconds spent in the kernel on behalf of processes (system calls, page faults), not counting interrupts."),
		ms(CPUWaitID, "wait", "Idle time with I/O outstanding", 5, "iowait",
			"Milliseconds idle while some I/O was outstanding; per processor the kernel only approximates it (proc(5))."),
		ms(CPUIdleID, "idle", "Idle time", 4, "idle",
			"Milliseconds spent in the idle task with no I/O outstanding."),
		ms(CPUNiceID, "nice", "Time in user mode at low priority", 2, "nice",
			"Milliseconds spent running niced (positive nice) user code, niced guest time included."),
		ms(CPUIRQID, "irq", "Time servicing hardware interrupts", 6, "irq",
			"Milliseconds spent in hardware interrupt handlers."),
		ms(CPUSoftIRQID, "softirq", "Time servicing software interrupts", 7, "softirq",
			"Milliseconds spent in softirq handlers (network and block completion, timers)."),
		ms(CPUStealID, "steal", "Time stolen by the hypervisor", 8, "steal",
			"Milliseconds this virtual processor was ready to run but the hypervisor ran something else."),
		ms(CPUGuestID, "guest", "Time running a guest (part of user)", 9, "guest",
			"Milliseconds spent running a virtual machine's guest; already counted in user, so never add the two."),
		ms(CPUGuestNiceID, "guest_nice", "Time running a niced guest (part of nice)", 10, "guest_nice",
			"Milliseconds spent running a niced guest; already counted in nice."),
		busy(ns.Derived(cpuUsrSysID, "usrsys", ns.DerivedSum3, ns.PMSemCounter, "User, nice and kernel time",
			CPUUserID, CPUNiceID, CPUKernID), "user + nice + kern, guest time included once (it is inside user and nice).").WithAux(),
		busy(ns.Derived(cpuIntStealID, "intsteal", ns.DerivedSum3, ns.PMSemCounter, "Interrupt, softirq and steal time",
			CPUIRQID, CPUSoftIRQID, CPUStealID), "irq + softirq + steal.").WithAux(),
		busy(ns.Derived(cpuBusyMsID, "busy_ms", ns.DerivedSum2, ns.PMSemCounter, "Busy time (all but idle and wait)",
			cpuUsrSysID, cpuIntStealID), "usrsys + intsteal: every millisecond that was neither idle nor I/O wait.").WithAux(),
		busy(ns.Derived(cpuIdleMsID, "idle_ms", ns.DerivedSum2, ns.PMSemCounter, "Idle time including I/O wait",
			CPUIdleID, CPUWaitID), "idle + wait.").WithAux(),
		busy(ns.Derived(cpuBusyID, "busy", ns.DerivedPercent, ns.PMSemInstant, "Busy share of the interval",
			cpuBusyMsID, cpuIdleMsID),
			"busy_ms / (busy_ms + idle_ms) over the interval: the share of time the processor was not idle, as top and mpstat show it (steal counts as busy).").WithScale(0, 1),
		busy(ns.Derived(cpuUsrID, "usr", ns.DerivedDifference, ns.PMSemCounter, "User time without guest time",
			CPUUserID, CPUGuestID), "user - guest: time in user code of this host's own processes, mpstat's %usr."),
		busy(ns.Derived(cpuNicedID, "niced", ns.DerivedDifference, ns.PMSemCounter, "Niced user time without guest time",
			CPUNiceID, CPUGuestNiceID), "nice - guest_nice: mpstat's %nice."),
		busy(ns.Derived(cpuCountedMsID, "counted_ms", ns.DerivedSum2, ns.PMSemCounter, "Time counted in all the parts",
			cpuBusyMsID, cpuIdleMsID), "busy_ms + idle_ms: every tick the kernel counted over the interval, the denominator of mpstat's shares.").WithAux(),
	}
	for i, sh := range cpuShares {
		rest, share := uint8(cpuShareBaseID+2*i), uint8(cpuShareBaseID+2*i+1)
		out = append(out,
			busy(ns.Derived(rest, "not"+sh.name[1:], ns.DerivedDifference, ns.PMSemCounter, "Time counted outside "+sh.name[1:],
				cpuCountedMsID, sh.part), "counted_ms - the part: the rest of the denominator of "+sh.name+".").WithAux(),
			busy(ns.Derived(share, sh.name, ns.DerivedPercent, ns.PMSemInstant, "Share of counted time: "+sh.desc,
				sh.part, rest), "The part's time over the time counted in every part over the interval, as mpstat's "+sh.name+
				": a processor's shares add up to 100.").WithScale(0, 1))
	}
	return out
}

// CPUClasses declares CPU (1, uninstantiated), its totals (1.1, whose statistics SPMI shows in
// `CPU` itself) and one instance per processor (1.2, UMA_PROCESSOR, instance value = the OS
// processor number, SPMI number = number + 1) (checklist §0.1, AMB-51). ncpu sets the scales.
func CPUClasses(ncpu int) (top, total, per *ns.Class) {
	if ncpu < 1 {
		ncpu = 1
	}
	top = &ns.Class{ID: ns.ClassID{cpuASN}, Name: "CPU", Desc: "Processor statistics", Flags: ns.ClassEnabled,
		Help: "Processor time from /proc/stat: all processors together as CPU's own statistics, one subcontext per processor."}
	// ncpu sits at position cpuNumID-1, where the provider writes it, before the derived datums
	// added after it.
	all := cpuDatums(1000 * float64(ncpu))
	totalDatums := append(slices.Clone(all[:CPUNumID-1]),
		ns.Gauge(CPUNumID, "ncpu", ns.TypeUint4, ns.UnitProcessors, "Online processors", "/proc/stat: number of cpuN lines").
			WithScale(0, float64(ncpu)).WithHelp("Processors the kernel lists in /proc/stat; an offline processor has no line."))
	totalDatums = append(totalDatums, all[CPUNumID-1:]...)
	total = &ns.Class{ID: ns.ClassID{cpuASN, 1}, Name: "total", Desc: "All processors together", Flags: ns.ClassEnabled,
		Help:   "System-wide processor times: the sum over every processor, from the cpu line of /proc/stat.",
		Totals: true, Levels: SingleLevel(), Datums: totalDatums}
	per = &ns.Class{ID: ns.ClassID{cpuASN, 2}, Name: "cpu", Desc: "One processor", Flags: ns.ClassEnabled,
		Help:     "Times of one processor, from its cpuN line of /proc/stat. Instance value: the processor number.",
		InstFreq: ns.SiCfgInst, Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagProcessor, Size: 4}},
		Datums: cpuDatums(1000)}
	namePCP(total, cpuTotalPMDA())
	namePCP(per, cpuPMDA("kernel.percpu.cpu"))
	return top, total, per
}

const CPUModule, CPUTitle = "dcimon-cpu", "Processor times"

// CPUTimeDatums is the number of CPU time counters (user to guest_nice): datums 1 to CPUTimes, in
// /proc/stat's column order after the first four.
const CPUTimeDatums = CPUGuestNiceID

// CPUSpecs are the instances of the processors numbered cpus: value = the processor number,
// SPMI number = number + 1 (`CPU/cpu0` = 1.1, SPMI-ASN-5).
func CPUSpecs(cpus []int) []ns.InstanceSpec {
	specs := make([]ns.InstanceSpec, len(cpus))
	levels := make([]uint64, len(cpus))
	for i, n := range cpus {
		levels[i] = uint64(n)
		specs[i] = ns.InstanceSpec{Levels: levels[i : i+1 : i+1], OSName: "cpu" + strconv.Itoa(n),
			ASN: ASNFor(uint64(n) + 1), Desc: "Processor " + strconv.Itoa(n)}
	}
	return specs
}

// cpuTotalPMDA is where the Linux PMDA keeps the totals: the processor times and the count of
// processors.
func cpuTotalPMDA() []Binding {
	return append(cpuPMDA("kernel.all.cpu"), Binding{Datum: CPUNumID, Metric: "hinv.ncpu", Mult: 1})
}

// cpuPMDA is where the Linux PMDA keeps the processor times: under prefix (kernel.all.cpu for
// the totals, kernel.percpu.cpu for each processor), in milliseconds.
func cpuPMDA(prefix string) []Binding {
	return []Binding{
		{Datum: CPUUserID, Metric: prefix + ".user"}, {Datum: CPUKernID, Metric: prefix + ".sys"}, {Datum: CPUWaitID, Metric: prefix + ".wait.total"},
		{Datum: CPUIdleID, Metric: prefix + ".idle"}, {Datum: CPUNiceID, Metric: prefix + ".nice"}, {Datum: CPUIRQID, Metric: prefix + ".irq.hard"},
		{Datum: CPUSoftIRQID, Metric: prefix + ".irq.soft"}, {Datum: CPUStealID, Metric: prefix + ".steal"}, {Datum: CPUGuestID, Metric: prefix + ".guest"},
		{Datum: CPUGuestNiceID, Metric: prefix + ".guest_nice"},
	}
}
