package schema

import ns "dcimon/namespace"

// Pressure datum low bytes: some, then full, each avg10, avg60, avg300 and total.
const (
	PSISomeAvg10ID = 1 + iota
	PSISomeAvg60ID
	PSISomeAvg300ID
	PSISomeTotalID
	PSIFullAvg10ID
	PSIFullAvg60ID
	PSIFullAvg300ID
	PSIFullTotalID
	psiNumIDs = iota
)

// PSIResources are the resources the kernel reports, in instance order.
var PSIResources = [...]string{"cpu", "memory", "io"}

const pressureASN = 7

// PressureClasses declares Pressure (7, uninstantiated) and one instance per resource (7.2:
// cpu, memory, io).
func PressureClasses() (top, res *ns.Class) {
	src := func(kind, field string) string {
		return "/proc/pressure/<resource> \"" + kind + "\" line, " + field
	}
	avg := func(id uint8, kind, field, window string) ns.Datum {
		return ns.Gauge(id, kind+"_"+field, ns.TypeUint4, ns.UnitCentiPercent,
			"Share of time "+whoStallsShort(kind)+" stalled, "+window+" average", src(kind, field+", two decimals kept as hundredths")).
			WithScale(0, 10000).WithPCPName(pmdaMetric(psiPMDA(), id) + " [" + window + "]").
			WithHelp("The share of the last " + window + " in which " + whoStalls(kind) + " waited for the resource, as the kernel averages it (a level, in %).")
	}
	total := func(id uint8, kind string) ns.Datum {
		return ns.Counter(id, kind+"_total", ns.TypeUint8, ns.UnitMicrosecs, "Time "+whoStallsShort(kind)+" stalled",
			src(kind, "total, microseconds")).WithScale(0, 1e6).WithMaxRate(1e6).
			WithPCPName(pmdaMetric(psiPMDA(), id)).
			WithHelp("Microseconds in which " + whoStalls(kind) + " waited; as a rate, the share of the interval (100% = always).")
	}
	top = &ns.Class{ID: ns.ClassID{pressureASN}, Name: "Pressure", Desc: "Pressure stall information", Flags: ns.ClassEnabled,
		Help: "How much of the time tasks waited for processors, memory or I/O (/proc/pressure, Linux 4.20 with PSI): one subcontext per resource."}
	res = &ns.Class{ID: ns.ClassID{pressureASN, 2}, Name: "resource", Desc: "Stalls waiting for one resource", Flags: ns.ClassEnabled,
		Help:     "The stall averages and total of one resource. n/a (not supported) on a kernel without PSI, never 0.",
		InstFreq: ns.SiNoInst, Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagEnumeration, Size: 4}},
		Datums: []ns.Datum{
			avg(PSISomeAvg10ID, "some", "avg10", "10 seconds"),
			avg(PSISomeAvg60ID, "some", "avg60", "60 seconds"),
			avg(PSISomeAvg300ID, "some", "avg300", "300 seconds"),
			total(PSISomeTotalID, "some"),
			avg(PSIFullAvg10ID, "full", "avg10", "10 seconds"),
			avg(PSIFullAvg60ID, "full", "avg60", "60 seconds"),
			avg(PSIFullAvg300ID, "full", "avg300", "300 seconds"),
			total(PSIFullTotalID, "full"),
		}}
	return top, res
}

// whoStallsShort is whoStalls for a one-line description ("Share of time all tasks stalled").
func whoStallsShort(kind string) string {
	if kind == "full" {
		return "all tasks"
	}
	return "some task"
}

func whoStalls(kind string) string {
	if kind == "full" {
		return "all non-idle tasks at once"
	}
	return "at least one task"
}

const PressureModule, PressureTitle = "dcimon-pressure", "Pressure stall information"

// psiPMDA is where the Linux PMDA keeps each pressure datum: one metric per resource (Resource
// in the name), the averages as instances of their window.
func psiPMDA() []Binding {
	avg := func(low uint8, kind string, window int64) Binding {
		// PCP's averages are percentages with decimals; the datum keeps hundredths of a percent.
		return Binding{Datum: low, Metric: "kernel.all.pressure." + Resource + "." + kind + ".avg", Mult: 100, Inst: window}
	}
	return []Binding{
		{Datum: PSISomeTotalID, Metric: "kernel.all.pressure." + Resource + ".some.total"},
		avg(PSISomeAvg10ID, "some", 10), avg(PSISomeAvg60ID, "some", 60), avg(PSISomeAvg300ID, "some", 300),
		{Datum: PSIFullTotalID, Metric: "kernel.all.pressure." + Resource + ".full.total"},
		avg(PSIFullAvg10ID, "full", 10), avg(PSIFullAvg60ID, "full", 60), avg(PSIFullAvg300ID, "full", 300),
	}
}
