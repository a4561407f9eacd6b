// dcimon metrics: the name space (or the paths given) as Prometheus text format 0.0.4 with PCP's
// `# PCP5` metadata lines, for a node_exporter textfile directory or PCP's pmdaopenmetrics, or as
// OpenMetrics 1.0 text.

package headless

import (
	"context"
	"fmt"
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
			pmid, indom := reg.PCPID(f.class, f.datum.ID) // as describe says them (issue 39 item 8)
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

// promName is a name in Prometheus's characters (namespace.PromName).
func promName(s string) string { return ns.PromName(s) }

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
