// dcimon metrics: the name space (or the paths given) as Prometheus text, with PCP's `# PCP5`
// metadata lines, for a node_exporter textfile directory or PCP's pmdaopenmetrics.

package headless

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	ns "dcimon/namespace"
	"dcimon/views"
)

// MetricsOptions are what `dcimon metrics` is asked.
type MetricsOptions struct {
	Common
	Paths    []string      // contexts or statistics, wildcards allowed; none for the whole name space
	Interval time.Duration // between the first reading and the one written (rates need two), and between writes
	Count    int           // readings written; 0 until interrupted
	// Emit takes each reading's text: standard output, or a file written whole and atomically
	// (the caller's, so this package writes no file itself).
	Emit func(text []byte) error
}

// Metrics writes readings of the name space as Prometheus text format 0.0.4 (what node_exporter's
// textfile collector and pmdaopenmetrics read), each family with a `# PCP5 name pmid type indom
// sem units` line as pmproxy writes them. Counters are their cumulative readings (the reader
// computes rates); every other statistic is its value as dcimon shows it, in the units its HELP
// says (a derived %util, an iostat await); text statistics are `_info` gauges of 1 whose label
// `value` holds the text. A value that is not there is left out, never written as 0.
func Metrics(ctx context.Context, o MetricsOptions, e Env) (err error) {
	o.Common.Interval = o.Interval
	s, as, _, err := firstReadingOf(ctx, o.Common, e, o.Paths...)
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
		text := writeMetrics(reg, snap, refs, viewOptions(e, o.NetBits, reg, snap, nil), e)
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

// family is one metric family: one datum of one class, every instance's sample.
type family struct {
	name, pcp, help, typ string
	class                *ns.Class
	datum                *ns.Datum
	lines                []string
}

func writeMetrics(reg *ns.Registry, snap *ns.Snapshot, refs []ns.Ref, base views.Options, e Env) []byte {
	byKey := map[string]*family{}
	var order []*family
	for _, ref := range refs {
		c, d := ref.Ctx.Stats, ref.Datum
		key := c.ID.String() + "/" + strconv.Itoa(int(d.ID.Low()))
		f := byKey[key]
		if f == nil {
			f = newFamily(reg, c, d)
			byKey[key] = f
			order = append(order, f)
		}
		v, cv, ok := snap.Lookup(ref)
		if !ok {
			continue
		}
		opt := base
		opt.Class = classOf(cv, ref)
		if line, ok := sampleLine(f, ref, v, opt); ok {
			f.lines = append(f.lines, line)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# dcimon metrics of %s at %s\n", promEscape(reg.HostName(snap), false), snap.End.In(e.Loc).Format(time.RFC3339))
	for _, f := range order {
		if len(f.lines) == 0 {
			continue // no valid value: the family is left out rather than described with none
		}
		if !f.datum.IsText() { // a text is an _info gauge of 1 here: no PCP metric has that value
			fmt.Fprintf(&b, "# PCP5 %s %s %s %s %s %s\n", f.pcp, pmidOf(f.class, f.datum), pcpTypeWord(f.datum),
				indomOf(f.class), f.datum.PCP.Sem.Word(), pcpUnitsOf(f.datum))
		}
		fmt.Fprintf(&b, "# HELP %s %s\n", f.name, promEscape(f.help, false))
		fmt.Fprintf(&b, "# TYPE %s %s\n", f.name, f.typ)
		for _, l := range f.lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return []byte(b.String())
}

// newFamily names a class's datum as a family: dcimon_<classes>_<datum>, a class's name left
// out where it repeats its parent's (Disk/disk is `disk`), `_total` for counters, `_info` for
// text; its PCP name is the datum's where PCP's Linux PMDA has one for the whole family, else
// dcimon.<the same parts>.
func newFamily(reg *ns.Registry, c *ns.Class, d *ns.Datum) *family {
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
	f := &family{class: c, datum: d, typ: "gauge"}
	f.name = "dcimon_" + strings.Join(parts, "_")
	f.pcp = "dcimon." + strings.Join(parts, ".")
	if d.PCP.Name != "" && !strings.ContainsAny(d.PCP.Name, "<> ") {
		f.pcp = d.PCP.Name
	}
	switch {
	case d.IsText():
		f.name += "_info"
	case d.IsCounter() && !d.IsDerived():
		f.name += "_total"
		f.typ = "counter"
	}
	f.help = d.Desc
	if u := views.RawUnits(c, d); u != "" && !d.IsText() && !d.IsDerived() {
		f.help += " (" + u + ")"
	}
	return f
}

// sampleLine is one instance's sample of a family, false when its value is not there.
func sampleLine(f *family, ref ns.Ref, v ns.Value, opt views.Options) (string, bool) {
	labels := instanceLabels(ref.Ctx)
	d := ref.Datum
	var val float64
	num := ""
	switch {
	case d.IsText():
		if v.State != ns.Valid {
			return "", false
		}
		labels = append(labels, [2]string{"value", v.S})
		val = 1
	case d.IsCounter() && !d.IsDerived():
		// The cumulative reading is there from the first sample on, rate or none.
		if v.State != ns.Valid && v.State != ns.NoRate {
			return "", false
		}
		num = strconv.FormatUint(v.N, 10) // exact: a float64 rounds a counter past 2^53
	case d.IsDerived():
		// Computed by dcimon over the interval (iostat's await, %util): as dcimon shows it.
		if v.State != ns.Valid {
			return "", false
		}
		m := views.MeasureWith(opt, d)
		val = views.Clean(m.Base(v.V))
		if f.help == d.Desc {
			if u := m.BaseLabel(); u != "" {
				f.help += " (" + u + ")"
			}
		}
	default:
		// A level, in the datum's own unit, which the # PCP5 line states.
		if v.State != ns.Valid {
			return "", false
		}
		val = v.V
	}
	if num == "" {
		if math.IsNaN(val) || math.IsInf(val, 0) {
			return "", false
		}
		num = strconv.FormatFloat(val, 'g', -1, 64)
		if val == math.Trunc(val) && math.Abs(val) < 1<<53 {
			num = strconv.FormatFloat(val, 'f', -1, 64) // 9818112, not 9.818112e+06
		}
	}
	var b strings.Builder
	b.WriteString(f.name)
	if len(labels) > 0 {
		b.WriteByte('{')
		for i, l := range labels {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(l[0])
			b.WriteString(`="`)
			b.WriteString(promEscape(l[1], true))
			b.WriteByte('"')
		}
		b.WriteByte('}')
	}
	b.WriteByte(' ')
	b.WriteString(num)
	return b.String(), true
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
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_', r >= '0' && r <= '9' && i > 0:
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// promEscape escapes a HELP text (backslash, newline) or a label value (also the double quote),
// with invalid UTF-8 replaced: the text format is UTF-8.
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

func pmidOf(c *ns.Class, d *ns.Datum) string { return fmt.Sprintf("%s.%d", c.ID, d.ID.Low()) }

func indomOf(c *ns.Class) string {
	if c.SingleInstance() {
		return "PM_INDOM_NULL"
	}
	return c.ID.String()
}

// pcpTypeWord is pmTypeStr's word for a datum's type; a derived datum, which PCP would compute
// as a double, is "double".
func pcpTypeWord(d *ns.Datum) string {
	switch {
	case d.IsDerived():
		return "double"
	case d.IsText():
		return "string"
	}
	switch d.PCP.Type {
	case ns.PMType32:
		return "32"
	case ns.PMTypeU32:
		return "u32"
	case ns.PMType64:
		return "64"
	case ns.PMTypeU64:
		return "u64"
	case ns.PMTypeFloat:
		return "float"
	case ns.PMTypeString:
		return "string"
	}
	return "double"
}

// pcpUnitsOf is the datum's PCP units as pmUnitsStr writes them ("millisec", "Kbyte", "none").
func pcpUnitsOf(d *ns.Datum) string {
	if d.IsDerived() || d.IsText() {
		return "none"
	}
	return ns.PCPUnitsFor(d.Units).String()
}
