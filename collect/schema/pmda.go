package schema

import (
	"strconv"
	"strings"

	ns "dcimon/namespace"
)

// PCP's Linux PMDA as a source of the schema's classes: for each class, where its instances come
// from and, for each datum, the PMDA metric and how its units become the datum's. It is the one
// table every PCP source derives its reading from (a live host, an archive, the recorder).

// Binding is where one datum comes from in PCP's Linux PMDA: a PCP metric, and the factor from its units to the
// datum's (0: from the two descriptors' units, pmConvScale).
type Binding struct {
	Datum  uint8
	Metric string
	Mult   float64
	// Check, when set, turns a value the PMDA passes on unchecked into what it means.
	Check func(ns.Raw) ns.Raw
	// Inst, when not 0, is the instance of metric to read for every instance of the class (the
	// 1-minute load average is instance 1 of kernel.all.load).
	Inst int64
}

// PMDAClass is one class as PCP's Linux PMDA has it: its instances are the instances of its first
// metric's domain (none for a single-instance class); inst gives an instance's level value from
// its PCP name and number, false to leave it out.
type PMDAClass struct {
	Class  *ns.Class
	InstOf func(name string, id int64) (level uint64, ok bool)
	// Hidden, when set, says which instances are hidden unless asked for (loop, ram and zram
	// disks: --show-loop, as the host's own providers do).
	Hidden func(name string) bool
	Datums []Binding
	// ParentMetric, for a class nested under another (partitions under disks), is a metric of
	// the parents' instance domain; parent finds an instance's parent among them by name.
	ParentMetric string
	Parent       func(name string, parents map[string]int64) (level uint64, asn uint16, ok bool)
	// NameMetric, when set, is a string metric of the same domain whose value names the
	// instance as dcimon does (a file system by its mount point, not its device); nameAs turns
	// the value into the name, and the PCP instance name goes to the text datum instText.
	NameMetric string
	NameAs     func(string) string
	InstText   uint8
	// Fixed, when set, are the class's instances by name (the pressure resources); a datum's
	// metric then names the instance by "<resource>", one metric per instance, and an instance
	// whose first metric the host lacks is not there (a kernel without PSI).
	Fixed []string
	// StartMetric, when set, is a metric of the same domain whose value is each instance's
	// second level (a process's start time): a number the host gives again is another instance.
	StartMetric string
	// Denied, when set, says what the host's pmcd needs to serve the class: a live host whose
	// instance metric comes with no values at all (its PMDA said "No permission") gives the
	// class's reading this error, never an empty class (the proc PMDA, issue 40 item 5).
	Denied string
	// LiveOnly says the class is read from a live pmcd only, not from archives or series (the
	// processes: not yet, issue 40 item 5).
	LiveOnly bool
}

// Resource is the placeholder of a per-instance metric name.
const Resource = "<resource>"

// MetricClock names the pmcd's own clock, in milliseconds, where a class needs the collector's clock
// (a disk's clock_ms, the denominator of %util and aqu-sz).
const MetricClock = "(pmcd's fetch timestamp)"

// MetricConst is a constant of the class's own (the divisor of the ×100 load averages): mult.
const MetricConst = "(constant)"

// PartitionParent finds a partition's disk by name, as the kernel names partitions: the disk's
// name and a number (sda1), or, for a disk whose name ends in a digit, "p" and a number
// (nvme0n1p1, mmcblk0p2). The longest such disk wins, hidden ones (loop, ram) never; the ASN is
// partASNBase + the number.
func PartitionParent(name string, disks map[string]int64) (uint64, uint16, bool) {
	best, bestID := "", int64(-1)
	for d, id := range disks {
		rest, ok := strings.CutPrefix(name, d)
		if !ok || len(d) <= len(best) || HiddenDisk(d) {
			continue
		}
		if d != "" && d[len(d)-1] >= '0' && d[len(d)-1] <= '9' {
			if rest, ok = strings.CutPrefix(rest, "p"); !ok {
				continue
			}
		}
		if n, err := strconv.ParseUint(rest, 10, 16); err == nil && n > 0 {
			best, bestID = d, id
		}
	}
	if bestID < 0 {
		return 0, 0, false
	}
	rest := strings.TrimPrefix(strings.TrimPrefix(name, best), "p")
	n, _ := strconv.ParseUint(rest, 10, 16)
	return uint64(bestID), ASNFor(PartASNBase + n), true
}

// InstanceNumber is the level of an instance that has no number of the kind the local class
// uses (a device number): the PMDA's own instance number, which stays with the name while pmcd
// runs.
func InstanceNumber(_ string, id int64) (uint64, bool) { return uint64(id), id >= 0 }

// CPUNumber reads "cpu12" as 12: the Linux PMDA names processors as /proc/stat does.
func CPUNumber(name string, _ int64) (uint64, bool) {
	n, err := strconv.ParseUint(strings.TrimPrefix(name, "cpu"), 10, 32)
	return n, err == nil && strings.HasPrefix(name, "cpu")
}

// LinuxPMDA is the one table from PCP's Linux PMDA to dcimon's classes, assembled from each
// class's bindings (cpuPMDA, diskPMDA, fsPMDA, ... beside the class's declaration): the remote
// host, the archive replay and the recorder all read through it. ncpu and memTotal set the scales.
func LinuxPMDA(ncpu int, memTotal uint64) (decl []*ns.Class, classes []PMDAClass) {
	cpuTop, cpuTotal, cpuPer := CPUClasses(ncpu)
	memTop, real, swap, virt := MemClasses(memTotal)
	diskTop, disk, part := DiskClasses()
	disk.Help = "One whole block device, from the Linux PMDA's disk.dev metrics. Instance value: the PMDA's instance number (PCP gives no device number)."
	part.Help = "One partition, below its disk, from the Linux PMDA's disk.partitions metrics. Instance levels: the disk's and the partition's PMDA instance numbers."
	psiTop, psi := PressureClasses()
	psi.Help = "The stall averages and total of one resource, from the Linux PMDA's kernel.all.pressure metrics; one PCP lacks (cpu full on older PMDAs) is not supported."
	ip, tcp, udp := TCPIPClasses()
	// The protocol counters already name the PCP metric each is (Datum.PCP.Name): those names
	// are their rows, all of them counts.
	byName := func(c *ns.Class) []Binding {
		var out []Binding
		for _, d := range c.Datums {
			if !d.IsDerived() && d.PCP.Name != "" && !strings.ContainsAny(d.PCP.Name, "<[") {
				out = append(out, Binding{Datum: d.ID.Low(), Metric: d.PCP.Name, Mult: 1})
			}
		}
		return out
	}
	fsTop, fsc := FSClasses()
	fsc.Help = "Sizes and inodes of one mounted file system, from the Linux PMDA's filesys metrics (which leave out pseudo file systems). Instance value: the PMDA's instance number."
	netTop, iface := NetClasses()
	iface.Help = "One network interface, from the Linux PMDA's network.interface metrics. Instance value: the PMDA's instance number."
	host := HostClass(ncpu)
	procTop, proc := ProcClasses(ncpu, memTotal)
	proc.Help = "One process, from PCP's proc PMDA (its proc.psinfo, proc.id and proc.io metrics), named by its PID, described by the PMDA's instance name (PID and command line). " +
		"Instance levels: the PID and the start time after boot in milliseconds, so a reused PID is a new instance. The start datum is not read (the PMDA counts from boot)."
	classes = []PMDAClass{
		{Class: host, Datums: hostPMDA()},
		{Class: cpuTotal, Datums: cpuTotalPMDA()},
		{Class: cpuPer, InstOf: CPUNumber, Datums: cpuPMDA("kernel.percpu.cpu")},
		{Class: real, Datums: realPMDA()},
		{Class: swap, Datums: swapPMDA()},
		{Class: virt, Datums: virtPMDA()},
		{Class: disk, InstOf: InstanceNumber, Hidden: HiddenDisk,
			Datums: diskPMDA("disk.dev")},
		{Class: part, InstOf: InstanceNumber, Datums: diskPMDA("disk.partitions"),
			ParentMetric: "disk.dev.read", Parent: PartitionParent},
		{Class: fsc, InstOf: InstanceNumber, NameMetric: "filesys.mountdir", NameAs: FSName, InstText: FSDeviceID, Datums: fsPMDA[:]},
		{Class: psi, Fixed: PSIResources[:], Datums: psiPMDA()},
		{Class: ip, Datums: byName(ip)}, {Class: tcp, Datums: byName(tcp)}, {Class: udp, Datums: byName(udp)},
		{Class: iface, InstOf: InstanceNumber, Datums: ifacePMDA()},
		{Class: proc, InstOf: InstanceNumber, NameAs: ProcPID, StartMetric: ProcStartMetric, Denied: ProcDenied, LiveOnly: true, Datums: procPMDA()},
	}
	return []*ns.Class{host, cpuTop, cpuTotal, cpuPer, memTop, real, swap, virt, diskTop, disk, part, fsTop, fsc, psiTop, psi, ip, tcp, udp, netTop, iface, procTop, proc}, classes
}

// namePCP names, on each datum of c that a binding of bs reads, the PCP metric it is
// (Datum.PCP.Name), unless its declaration names it already (with its instance, as the pressure
// averages do): so this host read locally and read through pmcd give one answer when asked which
// PCP metric a datum is (issue 37 item 2). pmcd's clock and a constant are no metric.
func namePCP(c *ns.Class, bs []Binding) {
	for _, b := range bs {
		if b.Metric == MetricClock || b.Metric == MetricConst {
			continue
		}
		for i := range c.Datums {
			if d := &c.Datums[i]; d.ID.Low() == b.Datum && !d.IsDerived() && d.PCP.Name == "" {
				d.PCP.Name = b.Metric
			}
		}
	}
}

// pmdaMetric is the PMDA metric bound to datum id, or "" when none is.
func pmdaMetric(bs []Binding, id uint8) string {
	for _, b := range bs {
		if b.Datum == id {
			return b.Metric
		}
	}
	return ""
}
