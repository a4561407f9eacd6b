package dds

import (
	"fmt"
	"math"
	"strings"

	ns "dcimon/namespace"
	"dcimon/supply"
)

// ddsUnit is the DCI unit of a family and the factor from the text's numbers to it.
type ddsUnit struct {
	unit ns.Unit
	mult float64
	pcp  ns.PMUnits // PCP's units when a # PCP5 line gave some DCI has no unit for
	// host is what the # PCP5 line declared, as pminfo -d shows it (the metric's own units and
	// scale: Kbyte, millisec), when it parses; the values are kept in unit, so that a Kbyte counter
	// and a millisec float are described and exported as declared (issue 39 item 8).
	host   ns.PMUnits
	hostOK bool
	note   string // what the text said of the unit, when DCI has no unit for it
	// finer is the ladder of finer units for values with decimals (seconds to nanoseconds).
	finer []ns.Unit
	// stamp: the values are times (seconds since the epoch), shown as dates (DCI4 ST_TIME).
	stamp bool
	from  string // where the unit came from, for describe
}

// isTimestamp says a gauge in seconds is a point in time, by the names Prometheus gives them
// (`node_boot_time_seconds`, `backup_last_success_timestamp_seconds`).
func isTimestamp(f *supply.Family) bool {
	return f.Type != "counter" && (strings.Contains(f.Name, "timestamp") || strings.HasSuffix(f.Name, "_time_seconds"))
}

// unitOf is the unit a family's text states: its # PCP5 line, else its OpenMetrics # UNIT or
// the unit suffix of its name (`_seconds`, `_bytes`); a family that says nothing is a count
// when it is a counter and a quantity with unspecified units otherwise.
func unitOf(f *supply.Family) ddsUnit {
	if f.PCP != nil {
		u := pcpUnit(f.PCP.Units)
		u.host, u.hostOK = ns.ParsePMUnits(f.PCP.Units)
		u.from = fmt.Sprintf("units %s (# PCP5, line %d)", ns.EscapeName(f.PCP.Units), f.PCP.Line)
		return u
	}
	u, from := f.Unit, "# UNIT"
	if u == "" {
		n := strings.TrimSuffix(f.Name, "_total")
		for _, suf := range []string{"seconds", "bytes", "celsius", "volts", "ratio"} {
			if strings.HasSuffix(n, "_"+suf) {
				u, from = suf, "the name's _"+suf
				break
			}
		}
	}
	var out ddsUnit
	switch u {
	case "seconds":
		out = ddsUnit{unit: ns.UnitSecs, mult: 1, finer: []ns.Unit{ns.UnitMillisecs, ns.UnitMicrosecs, ns.UnitNanosecs}}
		if isTimestamp(f) {
			out = ddsUnit{unit: ns.UnitSecs, mult: 1, stamp: true} // whole seconds, as a time of day
		}
	case "bytes":
		out = ddsUnit{unit: ns.UnitBytes, mult: 1}
	case "celsius":
		out = ddsUnit{unit: ns.UnitMilliCelsius, mult: 1000}
	case "volts":
		out = ddsUnit{unit: ns.UnitMilliVolts, mult: 1000}
	case "", "ratio":
		out = ddsUnit{unit: ns.UnitNone, mult: 1, finer: []ns.Unit{ns.UnitMicroUnits}}
		if f.Type == "counter" && u == "" {
			out.unit = ns.UnitCount
		}
	default:
		out = ddsUnit{unit: ns.UnitNone, mult: 1, note: u, finer: []ns.Unit{ns.UnitMicroUnits}}
	}
	out.from = "units " + u + " (" + from + ")"
	if u == "" {
		out.from = "no units given"
	}
	return out
}

// pcpUnit maps pmUnitsStr's words onto DCI's units (namespace.PCPUnitsOf).
func pcpUnit(s string) ddsUnit {
	m := ns.PCPUnitsOf(s)
	return ddsUnit{unit: m.Unit, mult: m.Mult, pcp: m.PM, note: m.Note, finer: m.Finer}
}

// meaning is what a family's values are: a counter, a level or a discrete value, of which type,
// and what said so. A # PCP5 line wins over # TYPE for the semantics and the type (issue 33):
// pmproxy writes `# TYPE gauge` for PCP's discrete metrics, and a user's `counter` there is one.
type meaning struct {
	sem  ns.PMSem
	typ  ns.DataType // the DCI type of the value (counters are unsigned)
	pm   ns.PMType   // PCP's type, when the # PCP5 line gave one
	from []string    // what said so, for describe
}

// meaningOf reads the semantics and type of a counter, gauge or untyped family.
func meaningOf(f *supply.Family) meaning {
	m := meaning{sem: ns.PMSemInstant, typ: ns.TypeInt8}
	switch {
	case f.Type == "counter":
		m.sem, m.typ = ns.PMSemCounter, ns.TypeUint8
		m.from = append(m.from, "semantics counter (# TYPE counter)")
	case f.OMType != "":
		m.from = append(m.from, "semantics instant (# TYPE "+f.OMType+")")
	case f.Type == "untyped":
		m.from = append(m.from, "semantics instant (no # TYPE)")
	default:
		m.from = append(m.from, "semantics instant (# TYPE "+f.Type+")")
	}
	if f.PCP == nil {
		return m
	}
	line := f.PCP.Line
	if sem, ok := ns.ParsePMSem(f.PCP.Sem); ok {
		said := m.from[0]
		m.sem = sem
		m.from[0] = fmt.Sprintf("semantics %s (# PCP5, line %d", sem.Word(), line)
		if !strings.HasPrefix(said, "semantics "+sem.Word()+" ") {
			m.from[0] += "; over " + strings.TrimPrefix(said, "semantics ")
		}
		m.from[0] += ")"
	} else {
		m.from = append(m.from, fmt.Sprintf("# PCP5 semantics %q unknown (line %d): not used", ns.EscapeName(f.PCP.Sem), line))
	}
	t, ok := ns.ParsePMType(f.PCP.Type)
	switch {
	case !ok || t == ns.PMTypeString:
		m.from = append(m.from, fmt.Sprintf("# PCP5 type %q not used (line %d): a sample is a number", ns.EscapeName(f.PCP.Type), line))
		if m.sem == ns.PMSemCounter {
			m.typ = ns.TypeUint8
		}
		return m
	case t == ns.PMTypeU32:
		m.typ = ns.TypeUint4
	case t == ns.PMType32 && m.sem != ns.PMSemCounter:
		m.typ = ns.TypeInt4
	case t == ns.PMTypeU64 || m.sem == ns.PMSemCounter:
		m.typ = ns.TypeUint8 // DCI's counters are unsigned; PCP's type is kept for its view
	default:
		m.typ = ns.TypeInt8
	}
	m.pm = t
	m.from = append(m.from, fmt.Sprintf("type %s (# PCP5, line %d)", t.Word(), line))
	return m
}

// isWhole says x is a whole number but for the rounding of the multiplication that made it: a
// few units in the last place (0.1 × 10^6 is 100000.00000000001), never more, so that a large
// value's decimals (7199254740.993) are not taken for rounding.
func isWhole(x float64) bool {
	return math.Abs(x-math.Round(x)) <= 4*0x1p-52*math.Max(1, math.Abs(x))
}

// fits says every value of the family is a whole number once multiplied by mult.
func fits(f *supply.Family, mult float64) bool {
	whole := func(v float64) bool {
		return math.IsNaN(v) || math.IsInf(v, 0) || isWhole(v*mult) // not a number is shown as such whatever the unit
	}
	for _, s := range f.Series {
		if !whole(s.Value) || !whole(s.Sum) {
			return false
		}
	}
	return true
}

// inRange says every value of the family stays within 64 bits once multiplied by mult.
func inRange(f *supply.Family, mult float64) bool {
	for _, s := range f.Series {
		for _, v := range []float64{s.Value, s.Sum} {
			if !math.IsNaN(v) && !math.IsInf(v, 0) && math.Abs(v*mult) >= 1<<63 {
				return false
			}
		}
	}
	return true
}

// refine moves u to the first finer unit in which every value is whole, or the finest there is,
// never coarser than prev (a family that once had decimals keeps its finer unit, so its class is
// not declared anew at every change of the values), and never so fine that a value no longer
// fits in 64 bits (its decimals are rounded then, rather than the value lost).
func refine(u ddsUnit, f *supply.Family, prev float64) ddsUnit {
	for (!fits(f, u.mult) || u.mult < prev) && len(u.finer) > 0 {
		next := u.finer[0]
		mult := u.mult
		switch {
		case next == ns.UnitMicroUnits:
			mult *= 1e6
		case next >= ns.UnitSecs && next <= ns.UnitNanosecs:
			mult *= 1000
		}
		if mult > prev && !inRange(f, mult) {
			break
		}
		u.mult, u.unit, u.finer = mult, next, u.finer[1:]
	}
	return u
}
