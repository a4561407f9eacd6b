package headless

import (
	"math"
	"strings"

	ns "dcimon/namespace"
	"dcimon/views"
)

// Extensions of a user's family's class (collect/dds): its name and type in the text.
const (
	extFamily = "openmetrics family"
	extType   = "openmetrics type"
)

// family is one metric family: one datum of one class, every instance's sample; or, for a user's
// summary or histogram, its sum and count datums.
type family struct {
	name  string // the family's name as the text format writes it (counters with `_total`)
	typ   string // counter, gauge, info or summary
	unit  string // the unit at the end of the name, when it is one OpenMetrics' # UNIT may give
	help  string
	class *ns.Class
	datum *ns.Datum
	count *ns.Datum // a summary's count
	conv  conversion
	pcp   pcpMeta
	lines []string
}

// pcpMeta is what the family's `# PCP5` line says: the metric's PCP name, and the type,
// semantics and units of the values as written.
type pcpMeta struct {
	name, typ, sem string
	units          ns.PMUnits
}

// conversion takes a datum's values to what is written: in base units, with the unit the name
// ends with.
type conversion struct {
	suffix  string     // seconds, bytes, ratio, bytes_per_second, per_second, celsius, volts, rpm, timestamp_seconds or ""
	units   ns.PMUnits // PCP's units of the written values
	measure views.Measure
	derived bool // the value is dcimon's computation (a float), written as the measure's base
	ratio   bool // a percentage written as a fraction of one
	mul     uint64
	div     uint64  // a power of ten, or 0 when the factor is not an exact one (then factor)
	factor  float64 // written = value × factor
}

// conversionOf is how d's values are written: the kind of its measure decides the base unit.
func conversionOf(c *ns.Class, d *ns.Datum) conversion {
	var m views.Measure
	switch {
	case d.IsDerived():
		m = views.MeasureFor(c, d)
	case (d.Units == ns.UnitNone || d.Units == 0) && !d.PCP.Units.IsZero():
		m = views.PMMeasure(d.PCP.Units) // a user's PCP units DCI has no unit for ("Kbyte / sec")
	default:
		m = views.UnitMeasure(d.Units, d.TickHz)
	}
	cv := conversion{measure: m, derived: d.IsDerived(), factor: m.Factor}
	if cv.factor == 0 {
		cv.factor = 1
	}
	sec := ns.PMUnits{DimTime: 1, ScaleTime: ns.PMTimeSec}
	switch m.Kind {
	case views.KindSize:
		cv.suffix, cv.units = "bytes", ns.PMUnits{DimSpace: 1}
		switch m.Per {
		case "/s":
			cv.suffix, cv.units = "bytes_per_second", ns.PMUnits{DimSpace: 1, DimTime: -1, ScaleTime: ns.PMTimeSec}
		case "/op":
			cv.units.DimCount = -1
		}
	case views.KindTime:
		cv.suffix, cv.units = "seconds", sec
		if m.Per == "/op" {
			cv.units.DimCount = -1
		} else if d.DCI4.Type == ns.STTime && d.DCI4.Presentation == ns.STPAbsolute {
			cv.suffix = "timestamp_seconds" // a time of day (a boot time), not a duration
		}
	case views.KindPercent:
		cv.suffix, cv.ratio = "ratio", true
	case views.KindOther:
		switch m.Noun {
		case "°C":
			cv.suffix = "celsius"
		case "V":
			cv.suffix = "volts"
		case "RPM":
			cv.suffix = "rpm"
		}
	default: // counts
		if m.Per == "/s" {
			cv.suffix, cv.units = "per_second", ns.PMUnits{DimCount: 1, DimTime: -1, ScaleTime: ns.PMTimeSec}
		} else if d.Units != ns.UnitNone && d.Units != 0 && d.Units != ns.UnitMicroUnits && !d.IsDerived() {
			cv.units = ns.PMUnits{DimCount: 1}
		}
	}
	return cv.exactly()
}

// exactly sets mul and div from the factor where it is an exact integer or the inverse of a power
// of ten: written exactly, not through a float (a counter of 2^60 milliseconds is
// 1152921504606846.976 seconds).
func (cv conversion) exactly() conversion {
	switch f := cv.factor; {
	case f >= 1 && f == math.Trunc(f) && f < 1<<53:
		cv.mul, cv.div = uint64(f), 1
	case f < 1:
		if inv := math.Round(1 / f); math.Abs(inv*f-1) < 1e-12 && isPow10(uint64(inv)) {
			cv.mul, cv.div = 1, uint64(inv)
		}
	}
	return cv
}

// declaredConversion writes a user's family whose # PCP5 line declared its descriptor (the
// datum's host descriptor, collect/dds) in that line's units and scale, as pminfo -d says them
// and as pmproxy writes such a metric: a Kbyte counter in Kbytes, a millisec float in
// milliseconds, never converted to bytes or seconds (issue 39 item 8). False when the datum's
// unit cannot be taken to them.
func declaredConversion(d *ns.Datum, h *ns.PMDesc) (conversion, bool) {
	f := 1.0
	switch d.Units {
	case ns.UnitMicroUnits: // millionths of the declared unit, DCI having none for it (AMB-30)
		f = 1e-6
	case ns.UnitNone, 0: // the declared unit itself, DCI having none for it
	default:
		var err error
		if f, err = ns.ConvScale(1, ns.PCPUnitsFor(d.Units), h.Units); err != nil || f <= 0 {
			return conversion{}, false
		}
	}
	cv := conversion{units: h.Units, factor: f, measure: views.PMMeasure(h.Units)}
	return cv.exactly(), true
}

func isPow10(n uint64) bool {
	for n >= 10 && n%10 == 0 {
		n /= 10
	}
	return n == 1
}

// unitWords say in the HELP text what the values are in.
var unitWords = map[string]string{"seconds": "seconds", "bytes": "bytes", "ratio": "a fraction of one", "bytes_per_second": "bytes per second",
	"per_second": "per second", "celsius": "degrees Celsius", "volts": "volts", "rpm": "revolutions per minute",
	"timestamp_seconds": "seconds since 1970"}

// abbreviations are the unit abbreviations dcimon's datum names end with (`read_ms`, `cpu_us`);
// a time's becomes "time" once the unit is written out (`read_time_seconds_total`, as
// node_exporter names it), another's goes.
var abbreviations = map[string]string{"ms": "time", "us": "time", "ns": "time", "s": "time", "sec": "time", "secs": "time",
	"seconds": "", "kb": "", "mb": "", "gb": "", "b": "", "bytes": ""}

// baseName is a datum's name as a family's last part: Prometheus's characters, a unit
// abbreviation at its end dropped for the unit written out, `pct_` dropped from a ratio.
func baseName(d *ns.Datum, cv conversion) string {
	n := strings.ToLower(promName(d.Name))
	if cv.ratio {
		n = strings.TrimSuffix(strings.TrimPrefix(n, "pct_"), "_pct")
	}
	if cv.suffix == "" {
		return n
	}
	// `bytes` of bytes per second is `bytes_per_second`, not `bytes_bytes_per_second`.
	if first, _, _ := strings.Cut(cv.suffix, "_"); first != cv.suffix && (n == first || strings.HasSuffix(n, "_"+first)) {
		return strings.TrimSuffix(strings.TrimSuffix(n, first), "_")
	}
	if i := strings.LastIndexByte(n, '_'); i > 0 {
		if r, ok := abbreviations[n[i+1:]]; ok {
			n = n[:i]
			if r != "" && !strings.HasSuffix(n, "_"+r) {
				n += "_" + r
			}
		}
	}
	return n
}

// withSuffix is n ending in the unit suffix (unless it does already), then `_total` for a
// counter. A level whose name would end in a suffix Prometheus keeps for counters, summaries
// and histograms (`_total`, `_count`, `_sum`, `_bucket`) ends in `_value` instead.
func withSuffix(n, suffix string, counter bool) string {
	// A name that ends in its unit already (`ibytes`, received bytes) keeps it.
	if suffix != "" && !strings.HasSuffix(n, suffix) {
		n += "_" + suffix
	}
	if counter {
		if !strings.HasSuffix(n, "_total") {
			n += "_total"
		}
		return n
	}
	for _, r := range []string{"_total", "_count", "_sum", "_bucket", "_created", "_info"} {
		if strings.HasSuffix(n, r) {
			return n + "_value"
		}
	}
	return n
}

// newFamily names a class's datum as a family: dcimon_<classes>_<datum> in base units, a class's
// name left out where it repeats its parent's (Disk/disk is `disk`); a user's family is
// dcimon_dds_<vendor>_<its own name>. Its PCP name is the datum's where PCP's Linux PMDA (or the
// user's # PCP5 line) has one for the whole family, else dcimon.<the same parts>.
func newFamily(reg *ns.Registry, c *ns.Class, d *ns.Datum) *family {
	cv, declared := familyConversion(c, d)
	counter := d.IsCounter() && !d.IsDerived()
	f := &family{class: c, datum: d, conv: cv, typ: "gauge"}
	var parts []string
	for i := 1; i <= len(c.ID); i++ {
		k := reg.Class(c.ID[:i])
		if k == nil {
			continue
		}
		n := promName(k.Name)
		if len(parts) > 0 && strings.EqualFold(parts[len(parts)-1], n) {
			continue
		}
		parts = append(parts, strings.ToLower(n))
	}
	parts = append(parts, promName(d.Name))
	f.pcp.name = "dcimon." + strings.Join(parts, ".")
	if d.PCP.Name != "" && !strings.ContainsAny(d.PCP.Name, "<> ") {
		f.pcp.name = d.PCP.Name
	}
	base := "dcimon_" + strings.Join(parts[:len(parts)-1], "_")
	if b := baseName(d, cv); b != "" {
		base += "_" + b
	}
	if own, typ := extension(c, extFamily), extension(c, extType); own != "" && len(c.ID) >= 3 {
		// A user's family (collect/dds): its own name, under its vendor's.
		vendor := ""
		if v := reg.Class(c.ID[:2]); v != nil {
			vendor = promName(v.Name) + "_"
		}
		base = "dcimon_dds_" + vendor + promName(own)
		if d.PCP.Name == "" {
			f.pcp.name = "dcimon.dds." + strings.TrimSuffix(vendor, "_") + "." + promName(own)
			if d.Name != "value" {
				f.pcp.name += "." + d.Name
			}
		}
		if typ == "summary" || typ == "histogram" {
			f.typ, f.count = "summary", datumNamed(c, "count")
			base = strings.TrimSuffix(base, "_total")
		}
	}
	switch {
	case d.IsText():
		f.typ, f.name = "info", strings.TrimSuffix(base, "_info")+"_info"
	case f.typ == "summary":
		f.name = base // its samples are _sum and _count: no suffix of a level's is kept from it
		if cv.suffix != "" && !strings.HasSuffix(base, cv.suffix) {
			f.name += "_" + cv.suffix
		}
	default:
		if counter {
			f.typ = "counter"
		}
		f.name = withSuffix(base, cv.suffix, counter)
	}
	switch cv.suffix {
	case "seconds", "bytes", "ratio", "celsius", "volts":
		if strings.HasSuffix(strings.TrimSuffix(f.name, "_total"), "_"+cv.suffix) {
			f.unit = cv.suffix
		}
	}
	f.help = d.Desc
	if f.typ == "summary" {
		f.help = c.Desc
	}
	if w := unitWords[cv.suffix]; w != "" {
		f.help += " (" + w + ")"
	} else if declared && !cv.units.IsZero() && cv.suffix == "" {
		f.help += " (" + cv.units.String() + ")"
	}
	f.describePCP(d, counter, declared)
	return f
}

// familyConversion is how d's values are written (conversionOf), and whether in the units of the
// descriptor a user's # PCP5 line declared (declaredConversion): base units (byte, sec) keep their
// name's unit suffix.
func familyConversion(c *ns.Class, d *ns.Datum) (conversion, bool) {
	cv := conversionOf(c, d)
	h := d.PCP.Host
	if h == nil || extension(c, extFamily) == "" || d.IsDerived() || d.IsText() {
		return cv, false
	}
	dcv, ok := declaredConversion(d, h)
	if ok && dcv.units != cv.units {
		cv = dcv
	}
	return cv, ok
}

// describePCP fills the family's # PCP5 type, semantics and units: the declared descriptor's for
// a user's family that declared one, else those of the values as written.
func (f *family) describePCP(d *ns.Datum, counter, declared bool) {
	f.pcp.sem, f.pcp.units = "instant", f.conv.units
	switch {
	case d.IsText():
		f.pcp.typ, f.pcp.sem = "string", d.PCP.Sem.Word()
	case counter:
		f.pcp.sem = "counter"
	case !d.IsDerived():
		f.pcp.sem = d.PCP.Sem.Word()
	}
	if h := d.PCP.Host; declared {
		f.pcp.sem, f.pcp.typ = h.Sem.Word(), h.Type.Word()
		if f.conv.div != 1 && h.Type != ns.PMTypeFloat && h.Type != ns.PMTypeDouble {
			f.pcp.typ = "double" // a value with decimals in the declared unit
		}
	}
	switch {
	case f.pcp.typ != "":
	case f.conv.derived || f.conv.div != 1 || d.PCP.Type == ns.PMTypeFloat || d.PCP.Type == ns.PMTypeDouble:
		f.pcp.typ = "double"
	case f.conv.mul > 1 && (d.PCP.Type == ns.PMTypeU32 || d.PCP.Type == ns.PMTypeU64):
		f.pcp.typ = "u64" // kilobytes made bytes need the room
	case f.conv.mul > 1:
		f.pcp.typ = "64"
	default:
		f.pcp.typ = d.PCP.Type.Word()
	}
}

// extension is the value of a class's extension key, "" when it has none.
func extension(c *ns.Class, key string) string {
	for _, x := range c.Extensions {
		if x.Key == key {
			return x.Value
		}
	}
	return ""
}

func datumNamed(c *ns.Class, name string) *ns.Datum {
	for i := range c.Datums {
		if c.Datums[i].Name == name {
			return &c.Datums[i]
		}
	}
	return nil
}
