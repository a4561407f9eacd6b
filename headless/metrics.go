// dcimon metrics: the name space (or the paths given) as Prometheus text format 0.0.4 with PCP's
// `# PCP5` metadata lines, for a node_exporter textfile directory or PCP's pmdaopenmetrics, or as
// OpenMetrics 1.0 text.

package headless

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	ns "dcimon/namespace"
	"dcimon/views"
)

// The formats `dcimon metrics` writes.
const (
	// FormatPrometheus is the Prometheus text format 0.0.4, each family with its `# PCP5` line:
	// the default, because node_exporter's textfile collector (the usual reader of --output)
	// reads only this format, and pmdaopenmetrics reads it with the PCP metadata.
	FormatPrometheus = "prometheus"
	// FormatOpenMetrics is OpenMetrics 1.0 text: counters as families without `_total` whose
	// samples have it, `info` families, `# UNIT`, `# EOF`, and no other comment (so no `# PCP5`).
	FormatOpenMetrics = "openmetrics"
)

// MetricsOptions are what `dcimon metrics` is asked.
type MetricsOptions struct {
	Common
	Paths    []string      // contexts or statistics, wildcards allowed; none for the whole name space
	Interval time.Duration // between the first reading and the one written (rates need two), and between writes
	Count    int           // readings written; 0 until interrupted
	Format   string        // FormatPrometheus ("" too) or FormatOpenMetrics
	// Emit takes each reading's text: standard output, or a file written whole and atomically
	// (the caller's, so this package writes no file itself).
	Emit func(text []byte) error
}

// Metrics writes readings of the name space in o.Format. Names follow Prometheus's conventions
// (docs/metrics.md): values in base units (seconds, bytes, ratios), the unit in the name,
// `_total` on counters only, `_info` for texts; counters are their cumulative readings (the
// reader computes rates), levels and derived statistics their values; a user's series under DDS
// are written under their own family's name with their own labels. A value that is not there is
// left out, never written as 0.
func Metrics(ctx context.Context, o MetricsOptions, e Env) (err error) {
	o.Common.Interval = o.Interval
	switch o.Format {
	case "", FormatPrometheus, FormatOpenMetrics:
	default:
		return Usagef("--format %q: want %s or %s", o.Format, FormatPrometheus, FormatOpenMetrics)
	}
	s, as, _, _, err := firstReadingOf(ctx, o.Common, e, o.Paths...)
	if err != nil {
		return err
	}
	defer func() { err = damaged(as, err) }() // what was read is printed; then the damage is said
	reg := s.Registry()
	for n := 0; o.Count == 0 || n < o.Count; n++ {
		if err := e.Sleep(ctx, o.Interval); err != nil {
			if n > 0 && ctx.Err() != nil {
				return nil
			}
			return err
		}
		snap, err := s.Sample(ctx)
		if err != nil {
			return err
		}
		refs, err := metricRefs(reg, o.Paths, o.All)
		if err != nil {
			return err
		}
		text := writeMetrics(reg, snap, refs, e, o.Format == FormatOpenMetrics)
		if err := o.Emit(text); err != nil {
			return err
		}
	}
	return nil
}

// metricRefs are the statistics the paths name: every statistic at and below a context, a
// statistic named, or what a wildcard matches; the whole name space with no path.
func metricRefs(reg *ns.Registry, paths []string, all bool) ([]ns.Ref, error) {
	var roots []ns.Ref
	if len(paths) == 0 {
		roots = []ns.Ref{{Ctx: reg.Top()}}
	}
	for _, p := range paths {
		refs, err := reg.Glob(p)
		if err != nil {
			return nil, err
		}
		roots = append(roots, refs...)
	}
	var out []ns.Ref
	seen := map[string]bool{}
	add := func(r ns.Ref) {
		if r.Datum == nil || r.Datum.ID == ns.InvalidDatumID || (r.Datum.Aux && !all) || seen[r.Path()] {
			return
		}
		seen[r.Path()] = true
		out = append(out, r)
	}
	reg.Read(func() {
		var walk func(c *ns.Context)
		walk = func(c *ns.Context) {
			if c.Stats != nil {
				for i := range c.Stats.Datums {
					add(ns.Ref{Ctx: c, Datum: &c.Stats.Datums[i]})
				}
			}
			for _, k := range c.Children() {
				walk(k)
			}
		}
		for _, r := range roots {
			if r.Datum != nil {
				add(r)
			} else {
				walk(r.Ctx)
			}
		}
	})
	return out, nil
}

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
	// An exact integer factor, or the inverse of a power of ten: written exactly, not through a
	// float (a counter of 2^60 milliseconds is 1152921504606846.976 seconds).
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
	cv := conversionOf(c, d)
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
	}
	f.pcp.sem, f.pcp.units = "instant", cv.units
	switch {
	case d.IsText():
		f.pcp.typ, f.pcp.sem = "string", d.PCP.Sem.Word()
	case counter:
		f.pcp.sem = "counter"
	case !d.IsDerived():
		f.pcp.sem = d.PCP.Sem.Word()
	}
	switch {
	case f.pcp.typ != "":
	case cv.derived || cv.div != 1 || d.PCP.Type == ns.PMTypeFloat || d.PCP.Type == ns.PMTypeDouble:
		f.pcp.typ = "double"
	case cv.mul > 1 && (d.PCP.Type == ns.PMTypeU32 || d.PCP.Type == ns.PMTypeU64):
		f.pcp.typ = "u64" // kilobytes made bytes need the room
	case cv.mul > 1:
		f.pcp.typ = "64"
	default:
		f.pcp.typ = d.PCP.Type.Word()
	}
	return f
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

// writeMetrics writes one reading of the statistics refs name: the Prometheus text format with
// # PCP5 lines, or OpenMetrics.
func writeMetrics(reg *ns.Registry, snap *ns.Snapshot, refs []ns.Ref, e Env, om bool) []byte {
	type key struct {
		c *ns.Class
		d ns.DatumID
	}
	byKey := map[key]*family{}
	names := map[string]*family{}
	var order []*family
	for _, ref := range refs {
		c, d := ref.Ctx.Stats, ref.Datum
		k := key{c, d.ID}
		f := byKey[k]
		if f == nil {
			if datumNamed(c, "count") != nil && extension(c, extType) != "" && (d.Name == "count" || d.Name == "mean") &&
				(extension(c, extType) == "summary" || extension(c, extType) == "histogram") {
				continue // a user's summary is written as one family, from its sum
			}
			f = newFamily(reg, c, d)
			for n := 2; names[f.name] != nil; n++ { // two classes, one name (vendor a_b's c, vendor a's b_c)
				f.name = uniqueName(f, n)
			}
			names[f.name] = f
			byKey[k] = f
			order = append(order, f)
		}
		v, _, ok := snap.Lookup(ref)
		if !ok {
			continue
		}
		f.sample(ref, v, snap)
	}
	ids := newPCPIDs(reg, order)
	var b strings.Builder
	if !om {
		// A comment is allowed in the text format, not in OpenMetrics.
		fmt.Fprintf(&b, "# dcimon metrics of %s at %s\n", promEscape(reg.HostName(snap), false), snap.End.In(e.Loc).Format(time.RFC3339))
	}
	for _, f := range order {
		if len(f.lines) == 0 {
			continue // no valid value: the family is left out rather than described with none
		}
		name := f.name
		if om {
			name = f.omName()
		}
		if !om && f.typ != "info" { // an info gauge of 1 is no PCP metric's value
			pmid, indom := ids.of(f)
			fmt.Fprintf(&b, "# PCP5 %s %s %s %s %s %s\n", f.pcp.name, pmid, f.pcp.typ, indom, f.pcp.sem, f.pcp.units)
		}
		fmt.Fprintf(&b, "# HELP %s %s\n", name, helpEscape(f.help, om))
		typ := f.typ
		if !om && typ == "info" {
			typ = "gauge"
		}
		fmt.Fprintf(&b, "# TYPE %s %s\n", name, typ)
		if om && f.unit != "" {
			fmt.Fprintf(&b, "# UNIT %s %s\n", name, f.unit)
		}
		for _, l := range f.lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	if om {
		b.WriteString("# EOF\n")
	}
	return []byte(b.String())
}

// uniqueName is f's name with n before its suffixes, for a name another family has.
func uniqueName(f *family, n int) string {
	base := f.name
	tail := ""
	for _, s := range []string{"_total", "_info", "_" + f.conv.suffix} {
		if s != "_" && strings.HasSuffix(base, s) {
			base, tail = strings.TrimSuffix(base, s), s+tail
		}
	}
	return base + "_" + strconv.Itoa(n) + tail
}

// omName is the family's name in OpenMetrics: a counter's and an info's without their suffix,
// which their samples have.
func (f *family) omName() string {
	switch f.typ {
	case "counter":
		return strings.TrimSuffix(f.name, "_total")
	case "info":
		return strings.TrimSuffix(f.name, "_info")
	}
	return f.name
}

// sample adds one instance's sample of the family, nothing when its value is not there.
func (f *family) sample(ref ns.Ref, v ns.Value, snap *ns.Snapshot) {
	labels := labelsOf(ref.Ctx)
	d := ref.Datum
	switch {
	case d.IsText():
		if v.State != ns.Valid {
			return
		}
		f.add(f.name, append(labels, [2]string{"value", v.S}), "1")
	case f.typ == "summary":
		// A user's summary or histogram: its sum and count, both there or neither.
		cv, _, ok := snap.Lookup(ns.Ref{Ctx: ref.Ctx, Datum: f.count})
		sum, sok := f.value(v)
		if !ok || (cv.State != ns.Valid && cv.State != ns.NoRate) || !sok {
			return
		}
		base := strings.TrimSuffix(f.name, "_total")
		f.add(base+"_sum", labels, sum)
		f.add(base+"_count", labels, strconv.FormatUint(cv.N, 10))
	default:
		if num, ok := f.value(v); ok {
			f.add(f.name, labels, num)
		}
	}
}

// value is the number written for v, false when v is not there.
func (f *family) value(v ns.Value) (string, bool) {
	d, cv := f.datum, f.conv
	switch {
	case cv.derived:
		// Computed by dcimon over the interval (iostat's await, %util): in base units.
		if v.State != ns.Valid {
			return "", false
		}
		x := cv.measure.Base(v.V)
		if cv.ratio {
			x /= 100
		}
		return formatFloat(views.Clean(x))
	case d.IsCounter():
		// The cumulative reading is there from the first sample on, rate or none.
		if v.State != ns.Valid && v.State != ns.NoRate {
			return "", false
		}
		return cv.exact(false, v.N)
	default:
		if v.State != ns.Valid {
			return "", false
		}
		if d.Type == ns.TypeInt4 || d.Type == ns.TypeInt8 {
			n := int64(v.N)
			if n < 0 {
				return cv.exact(true, uint64(-n))
			}
			return cv.exact(false, uint64(n))
		}
		if d.Type == ns.TypeUint4 || d.Type == ns.TypeUint8 {
			return cv.exact(false, v.N)
		}
		return formatFloat(v.V * cv.factor)
	}
}

// exact writes ±n in the written unit without rounding when the factor allows (an integer, or the
// inverse of a power of ten: 1234 milliseconds is 1.234 seconds), else through a float.
func (cv conversion) exact(neg bool, n uint64) (string, bool) {
	if cv.div == 0 {
		x := float64(n) * cv.factor
		if neg {
			x = -x
		}
		return formatFloat(x)
	}
	x := new(big.Int).Mul(new(big.Int).SetUint64(n), new(big.Int).SetUint64(cv.mul))
	s := x.String()
	if places := len(strconv.FormatUint(cv.div, 10)) - 1; places > 0 {
		if len(s) <= places {
			s = strings.Repeat("0", places-len(s)+1) + s
		}
		s = s[:len(s)-places] + "." + s[len(s)-places:]
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if neg && s != "0" {
		s = "-" + s
	}
	return s, true
}

// formatFloat is the shortest text of x, without an exponent for whole numbers below 2^53;
// false for NaN and the infinities, which are left out.
func formatFloat(x float64) (string, bool) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "", false
	}
	if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
		return strconv.FormatFloat(x, 'f', -1, 64), true // 9818112, not 9.818112e+06
	}
	return strconv.FormatFloat(x, 'g', -1, 64), true
}

// add writes one sample line.
func (f *family) add(name string, labels [][2]string, num string) {
	var b strings.Builder
	b.WriteString(name)
	if len(labels) > 0 {
		b.WriteByte('{')
		for i, l := range labels {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(labelName(l[0]))
			b.WriteString(`="`)
			b.WriteString(promEscape(l[1], true))
			b.WriteByte('"')
		}
		b.WriteByte('}')
	}
	b.WriteByte(' ')
	b.WriteString(num)
	f.lines = append(f.lines, b.String())
}

// labelsOf are a statistic's labels: a user's series' own, exactly as its text gave them
// (issue 33: `v` stays `v`, "slash/path" stays "slash/path"); else the instances on the
// context's path, outermost first, each labelled by its class's name: Disk/sda/sda1 is
// {disk="sda",part="sda1"}.
func labelsOf(c *ns.Context) [][2]string {
	if c.Kind == ns.CtxInstance && c.Inst != nil && len(c.Inst.Labels) > 0 {
		return attrLabels(c.Inst.Labels)
	}
	if c.Stats != nil && len(c.Stats.Labels) > 0 && c.Stats.SingleInstance() {
		return attrLabels(c.Stats.Labels)
	}
	return instanceLabels(c)
}

func attrLabels(as []ns.Attr) [][2]string {
	out := make([][2]string, len(as))
	for i, a := range as {
		out[i] = [2]string{a.Key, a.Value}
	}
	return out
}

// instanceLabels are the instances on a context's path, outermost first, each labelled by its
// class's name: Disk/sda/sda1 is {disk="sda",part="sda1"}.
func instanceLabels(c *ns.Context) [][2]string {
	var out [][2]string
	for k := c; k != nil; k = k.Parent() {
		if k.Kind == ns.CtxInstance && k.Inst != nil {
			name := k.Inst.OSName
			if name == "" {
				name = k.Name
			}
			out = append(out, [2]string{strings.ToLower(promName(k.Class.Name)), name})
		}
	}
	slices.Reverse(out)
	// Two levels of one class (a group under a group) are one label: the outermost to the
	// innermost, joined as a path.
	for i := 1; i < len(out); i++ {
		if out[i][0] == out[i-1][0] {
			out[i-1][1] += "/" + out[i][1]
			out = slices.Delete(out, i, i+1)
			i--
		}
	}
	return out
}

// promName makes a name fit [a-zA-Z_:][a-zA-Z0-9_:]* (`%util` is `pct_util`).
func promName(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '%':
			b.WriteString("pct_")
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_', r == ':', r >= '0' && r <= '9' && i > 0:
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// labelName makes a label name fit [a-zA-Z_][a-zA-Z0-9_]*, which every name a text gave already does.
func labelName(s string) string {
	n := promName(s)
	if strings.ContainsRune(n, ':') {
		n = strings.ReplaceAll(n, ":", "_")
	}
	if n == "" {
		return "_"
	}
	return n
}

// promEscape escapes a HELP text (backslash, newline) or a label value (also the double quote),
// with invalid UTF-8 replaced: both formats are UTF-8.
func promEscape(s string, label bool) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	r := strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	if label {
		r = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
	}
	return r.Replace(s)
}

// helpEscape escapes a HELP text: OpenMetrics escapes the double quote there too.
func helpEscape(s string, om bool) string { return promEscape(s, om) }

// pcpIDs numbers the families' PCP metrics and instance domains (issue 33): valid PCP
// identifiers (domain.cluster.item, domain < 511, cluster < 4096, item < 1024), the same from one
// run to the next. dcimon's own classes (ids of at most two parts) are in domain 510, the one its
// archives use (collect/pcp/record.go), cluster first×32+second; every other class (a user's
// family, a host of a fleet, a remote host's PCP name space) is numbered from a hash of its path
// in domains 385-509, the end-user PMDAs' range of PCP's stdpmid, a collision moving the later
// path (in name order) on to the next free number. The item is the datum's low byte; a class with
// instances has the instance domain domain.cluster.
type pcpIDs map[*ns.Class]ns.PMID

const (
	dcimonDomain    = 510
	otherDomainLow  = 385
	otherDomainHigh = 509
)

func newPCPIDs(reg *ns.Registry, fams []*family) pcpIDs {
	ids := pcpIDs{}
	used := map[[2]uint32]bool{}
	type other struct {
		c   *ns.Class
		key string
	}
	var others []other
	for _, f := range fams {
		c := f.class
		if _, done := ids[c]; done {
			continue
		}
		if p, ok := builtinCluster(c.ID); ok {
			ids[c] = p
			used[[2]uint32{p.Domain, p.Cluster}] = true
			continue
		}
		ids[c] = ns.PMID{} // placed below
		others = append(others, other{c, classPath(reg, c)})
	}
	slices.SortFunc(others, func(a, b other) int { return strings.Compare(a.key, b.key) })
	span := uint64(otherDomainHigh-otherDomainLow+1) * ns.PMIDClusters
	for _, o := range others {
		h := fnv.New64a()
		h.Write([]byte(o.key))
		n := h.Sum64() % span
		for {
			p := ns.PMID{Domain: otherDomainLow + uint32(n/ns.PMIDClusters), Cluster: uint32(n % ns.PMIDClusters)}
			if !used[[2]uint32{p.Domain, p.Cluster}] {
				used[[2]uint32{p.Domain, p.Cluster}] = true
				ids[o.c] = p
				break
			}
			n = (n + 1) % span
		}
	}
	return ids
}

// builtinCluster places a class of dcimon's own name space: an id of one or two parts, the
// first below 128, the second below 32.
func builtinCluster(id ns.ClassID) (ns.PMID, bool) {
	switch {
	case len(id) == 1 && id[0] < 128:
		return ns.PMID{Domain: dcimonDomain, Cluster: id[0] * 32}, true
	case len(id) == 2 && id[0] < 128 && id[1] < 32:
		return ns.PMID{Domain: dcimonDomain, Cluster: id[0]*32 + id[1]}, true
	}
	return ns.PMID{}, false
}

// classPath names a class by the names of the classes above it: DDS/acme/queue_depth/series.
func classPath(reg *ns.Registry, c *ns.Class) string {
	var parts []string
	for i := 1; i <= len(c.ID); i++ {
		if k := reg.Class(c.ID[:i]); k != nil {
			parts = append(parts, k.Name)
		}
	}
	return strings.Join(parts, "/")
}

// of is the family's pmid and instance domain as the # PCP5 line writes them.
func (ids pcpIDs) of(f *family) (string, string) {
	p := ids[f.class]
	p.Item = uint32(f.datum.ID.Low())
	indom := ns.InDomNull
	if !f.class.SingleInstance() {
		indom = ns.InDom{Domain: p.Domain, Serial: p.Cluster}
	}
	return p.String(), indom.String()
}
