// Package supply reads the statistics users supply: Prometheus text format 0.0.4 and
// OpenMetrics text, as node_exporter's textfile collector and PCP's pmdaopenmetrics read them,
// with PCP's optional `# PCP5 name pmid type indom sem units` lines for exact metadata and
// dcimon's own `# DCIMON vendor=NAME interval=10s` line (issue 18).
//
// Values and label sets are parsed by github.com/prometheus/common/expfmt, the parser
// node_exporter uses; a pre-pass before it keeps what expfmt treats as comments (`# PCP5`,
// `# UNIT`, `# DCIMON`), brings OpenMetrics' forms to the text format's (a counter family `foo`
// whose samples are `foo_total`, the info, stateset, gaugehistogram and unknown types, `# EOF`)
// and bounds what one file may cost. It imports nothing of dcimon's.
package supply

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Limits bound what one file or one program's output may cost.
type Limits struct {
	MaxBytes int // the whole text
	MaxLine  int // one line
	// MaxSeries bounds the series over every family, and the families a text names; both are
	// counted as the text is read, and a text past either is refused then.
	MaxSeries int
}

// DefaultLimits are the limits of a supplier's text: 16 MiB, lines of 64 KiB, 100,000 series.
var DefaultLimits = Limits{MaxBytes: 16 << 20, MaxLine: 64 << 10, MaxSeries: 100_000}

// Doc is one parsed text.
type Doc struct {
	Vendor   string        // `# DCIMON vendor=NAME`; "" when the text does not say
	Interval time.Duration // `# DCIMON interval=10s`; 0 when the text does not say
	// Enterprise is the vendor's IANA private enterprise number (`# DCIMON enterprise=2`), its
	// SPMI number under DDS (SPMI-ASN-4); 0 when the text does not say.
	Enterprise uint16
	Families   []Family // in the order the text first names them
}

// Family is one metric family.
type Family struct {
	Name string
	Help string
	// Type is counter, gauge, untyped, summary or histogram; an OpenMetrics info, stateset,
	// gaugehistogram or unknown family is untyped, its own word kept in OMType.
	Type   string
	OMType string
	Unit   string // OpenMetrics `# UNIT`
	PCP    *PCP5  // the `# PCP5` line just before the family's HELP or TYPE, when there is one
	Line   int    // the line that first names the family
	Series []Series
}

// Series is one sample: its labels, sorted by name, and its value. A summary or histogram
// series is its _sum and _count (Sum, Count); Value is NaN for them.
type Series struct {
	Labels     []Label
	Value      float64
	Sum, Count float64
}

// Label is one label pair.
type Label struct{ Name, Value string }

// PCP5 is pmproxy's metadata line: `# PCP5 name pmid type indom sem units`, and where it is.
type PCP5 struct {
	Name, PMID, Type, InDom, Sem, Units string
	Line                                int
}

// ErrLimit is wrapped by the errors of a text past a limit.
var ErrLimit = errors.New("past the limit")

// Parse reads one text (named name in errors, which say its line). Nothing of a text that has an
// error is used: a supplier is either read whole or degraded with the error.
func Parse(name string, data []byte, lim Limits) (*Doc, error) {
	if lim.MaxBytes > 0 && len(data) > lim.MaxBytes {
		return nil, fmt.Errorf("%s: %d bytes: %w of %d bytes", name, len(data), ErrLimit, lim.MaxBytes)
	}
	doc := &Doc{}
	pre, meta, err := prepass(name, data, lim, doc)
	if err != nil {
		return nil, err
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(pre))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	r := familyReader{name: name, lim: lim, names: map[string]string{}, last: map[string]string{}}
	for _, n := range meta.order {
		mf := fams[n]
		if mf == nil || len(mf.GetMetric()) == 0 {
			continue // a TYPE or HELP without samples: nothing to show
		}
		f := Family{Name: n, Help: mf.GetHelp(), Type: strings.ToLower(mf.GetType().String()), OMType: meta.omType[n],
			Unit: meta.unit[n], PCP: meta.pcp[n], Line: meta.line[n]}
		if err := r.readSeries(&f, mf); err != nil {
			return nil, err
		}
		doc.Families = append(doc.Families, f)
	}
	return doc, nil
}

// familyReader reads the parser's families into Parse's: it counts the text's series against
// the limit and keeps the labels' names and values once. Every series has its own copy of each
// label's name and value from the parser; a name, and a value the series before had too (a
// host's labels on every series of pmproxy's output), is kept once, so that a large text costs
// less for as long as it is kept.
type familyReader struct {
	name   string
	lim    Limits
	series int
	names  map[string]string // the labels' names, each kept once (up to 4096)
	last   map[string]string // each label's last value (up to 4096 labels)
}

// readSeries reads the series of the parser's family mf into f. The family's series and their
// labels are each one array, made at their final size, so that what is kept is what the text
// has, without what growing a slice leaves unused.
func (r *familyReader) readSeries(f *Family, mf *dto.MetricFamily) error {
	// A label set given twice is an error; sets are told apart by a hash of them, and
	// compared only when two hashes are equal, so no key is made per series.
	seen := make(map[uint64][]int, len(mf.GetMetric()))
	nl := 0
	for _, m := range mf.GetMetric() {
		nl += len(m.GetLabel())
	}
	f.Series = make([]Series, 0, len(mf.GetMetric()))
	labels := make([]Label, 0, nl)
	for _, m := range mf.GetMetric() {
		s := Series{Value: math.NaN(), Sum: math.NaN(), Count: math.NaN()}
		first := len(labels)
		for _, l := range m.GetLabel() {
			labels = append(labels, r.label(l.GetName(), l.GetValue(), labels[first:]))
		}
		s.Labels = labels[first:len(labels):len(labels)]
		slices.SortFunc(s.Labels, func(a, b Label) int { return strings.Compare(a.Name, b.Name) })
		if err := r.once(f, seen, s.Labels); err != nil {
			return err
		}
		fillValue(&s, mf.GetType(), m)
		f.Series = append(f.Series, s)
		if r.series++; r.lim.MaxSeries > 0 && r.series > r.lim.MaxSeries {
			return fmt.Errorf("%s: more than %d series: %w", r.name, r.lim.MaxSeries, ErrLimit)
		}
	}
	return nil
}

// label is the label ln=lv with its name and value kept once: the name as before, the value as
// the series before had it, or as another label of the series (pmproxy's device_name and
// instname) has it.
func (r *familyReader) label(ln, lv string, others []Label) Label {
	if k, ok := r.names[ln]; ok {
		ln = k
	} else if len(r.names) < 4096 {
		r.names[ln] = ln
	}
	if prev, ok := r.last[ln]; ok && prev == lv {
		lv = prev
	} else if ok || len(r.last) < 4096 {
		r.last[ln] = lv
	}
	for _, o := range others {
		if o.Value == lv {
			lv = o.Value
			break
		}
	}
	return Label{ln, lv}
}

// once refuses a label set ls the family f has given already, and notes it in seen (by its hash)
// as the next series'.
func (r *familyReader) once(f *Family, seen map[uint64][]int, ls []Label) error {
	h := LabelsHash(ls)
	for _, i := range seen[h] {
		if slices.Equal(f.Series[i].Labels, ls) {
			return fmt.Errorf("%s:%d: family %s: the series %s is given twice", r.name, f.Line, f.Name, labelKey(ls))
		}
	}
	seen[h] = append(seen[h], len(f.Series))
	return nil
}

func fillValue(s *Series, t dto.MetricType, m *dto.Metric) {
	switch t {
	case dto.MetricType_COUNTER:
		s.Value = m.GetCounter().GetValue()
	case dto.MetricType_GAUGE:
		s.Value = m.GetGauge().GetValue()
	case dto.MetricType_SUMMARY:
		s.Sum, s.Count = m.GetSummary().GetSampleSum(), float64(m.GetSummary().GetSampleCount())
	case dto.MetricType_HISTOGRAM:
		s.Sum, s.Count = m.GetHistogram().GetSampleSum(), float64(m.GetHistogram().GetSampleCount())
	default:
		s.Value = m.GetUntyped().GetValue()
	}
}

// LabelsHash is FNV-1a of a label set (names and values, each ended by a byte no name holds), with
// no allocation: the parser finds a series' duplicates by it, and collect/dds a family's
// instances. Two label sets of one family with one hash would be taken for one; at 64 bits that is
// about one chance in 10^9 for a family of 200,000 series.
func LabelsHash(ls []Label) uint64 {
	h := uint64(14695981039346656037)
	add := func(s string) {
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= 1099511628211
		}
		h ^= 0xff
		h *= 1099511628211
	}
	for _, l := range ls {
		add(l.Name)
		add(l.Value)
	}
	return h
}

// labelKey is a series' label set as the text writes it: {a="x",b="y"}, {} for none.
func labelKey(ls []Label) string {
	if len(ls) == 0 {
		return "{}"
	}
	b := make([]byte, 0, 32*len(ls))
	b = append(b, '{')
	for i, l := range ls {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, l.Name...)
		b = append(b, '=')
		b = strconv.AppendQuote(b, l.Value)
	}
	return string(append(b, '}'))
}

// LabelKey is Series' label set as the text writes it: {a="x",b="y"}, {} for none.
func (s Series) LabelKey() string { return labelKey(s.Labels) }

// meta is what the pre-pass keeps that expfmt does not.
type meta struct {
	order  []string
	line   map[string]int
	unit   map[string]string
	omType map[string]string
	pcp    map[string]*PCP5
}

// lines calls f with each line of data (without its newline) and its number from 1, until f
// says to stop; no slice of the lines is made (a text of two million lines would cost 48 MB of
// them before a line is read).
func lines(data []byte, f func(ln int, l []byte) error) error {
	for ln := 1; len(data) > 0; ln++ {
		l := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if err := f(ln, l); err != nil {
			return err
		}
	}
	return nil
}

// prepass rewrites the text for expfmt, line for line (so its line numbers stay the text's),
// and collects the metadata it would drop. It refuses a text past the series limit as soon as it
// has counted one series too many, and one naming more families than that, before expfmt is
// given anything (issue 38 item 3: a 16 MB text of a million series cost a gigabyte before it was
// refused). It counts only lines that are each a series of their own (a histogram's or summary's
// _count, any other family's sample named as its family), so that it never refuses a text the
// count of expfmt's series accepts.
func prepass(name string, data []byte, lim Limits, doc *Doc) ([]byte, *meta, error) {
	declared, err := declaredTypes(name, data, lim)
	if err != nil {
		return nil, nil, err
	}
	counters := map[string]bool{}
	for n, t := range declared {
		counters[n] = t == "counter"
	}
	p := &prepassText{
		name: name, lim: lim, doc: doc,
		m:        &meta{line: map[string]int{}, unit: map[string]string{}, omType: map[string]string{}, pcp: map[string]*PCP5{}},
		declared: declared, counters: counters, renamed: renamedFamilies(data, declared),
	}
	out := make([]byte, 0, len(data))
	err = lines(data, func(ln int, l []byte) error {
		keep, err := p.rewrite(ln, l)
		if err != nil {
			return err
		}
		out = append(out, keep...)
		out = append(out, '\n')
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, p.m, nil
}

// prepassText is prepass's reading of one text: its limits, the metadata it collects, the
// families' declared types and names, the PCP5 line waiting for its family and the series
// counted.
type prepassText struct {
	name     string
	lim      Limits
	doc      *Doc
	m        *meta
	declared map[string]string // a family's declared type
	counters map[string]bool   // the families declared counters
	renamed  map[string]string // a family's name as its samples have it
	pending  *PCP5             // the PCP5 line before its family's HELP or TYPE
	series   int
}

// tooMany is the error of a text with more than the limit's number of series of what.
func tooMany(name string, lim Limits, what string) error {
	return fmt.Errorf("%s: more than %d %s: %w", name, lim.MaxSeries, what, ErrLimit)
}

// declaredTypes are the types the text's TYPE lines declare, by family; a text declaring more
// families than the series limit is refused.
func declaredTypes(name string, data []byte, lim Limits) (map[string]string, error) {
	declared := map[string]string{}
	err := lines(data, func(_ int, l []byte) error {
		if len(l) == 0 || l[0] != '#' {
			return nil
		}
		if f := bytes.Fields(l); len(f) == 4 && string(f[0]) == "#" && string(f[1]) == "TYPE" {
			declared[string(f[2])] = string(f[3])
			if lim.MaxSeries > 0 && len(declared) > lim.MaxSeries {
				return tooMany(name, lim, "families")
			}
		}
		return nil
	})
	return declared, err
}

// renamedFamilies are the families renamed as their samples are: OpenMetrics names a counter
// family foo and its samples foo_total, an info family foo and its samples foo_info, and the
// text format names the family as the samples.
func renamedFamilies(data []byte, declared map[string]string) map[string]string {
	renamed := map[string]string{}
	_ = lines(data, func(_ int, l []byte) error {
		if len(l) == 0 || l[0] == '#' {
			return nil
		}
		n := sampleName(l)
		for _, st := range [...][2]string{{"_total", "counter"}, {"_info", "info"}} {
			if base, ok := bytes.CutSuffix(n, []byte(st[0])); ok && declared[string(base)] == st[1] && declared[string(n)] == "" {
				renamed[string(base)] = string(n)
			}
		}
		return nil
	})
	return renamed
}

// note records the line a family first appears on, refusing one family more than the series
// limit.
func (p *prepassText) note(fam string, ln int) error {
	if _, ok := p.m.line[fam]; !ok {
		if p.lim.MaxSeries > 0 && len(p.m.order) >= p.lim.MaxSeries {
			return tooMany(p.name, p.lim, "families")
		}
		p.m.line[fam] = ln
		p.m.order = append(p.m.order, fam)
	}
	return nil
}

// rewrite is line ln as expfmt is given it (nil: an empty line), refusing a line past the
// length limit.
func (p *prepassText) rewrite(ln int, l []byte) ([]byte, error) {
	if p.lim.MaxLine > 0 && len(l) > p.lim.MaxLine {
		return nil, fmt.Errorf("%s:%d: a line of %d bytes: %w of %d", p.name, ln, len(l), ErrLimit, p.lim.MaxLine)
	}
	if len(l) > 0 && l[0] == '#' {
		return p.comment(ln, l)
	}
	return p.sample(ln, l)
}

// comment reads a comment line: PCP5, DCIMON, EOF and UNIT lines are taken out (their metadata
// kept), HELP and TYPE lines name their families as the samples do, with OpenMetrics' types
// expfmt does not know as untyped.
func (p *prepassText) comment(ln int, l []byte) ([]byte, error) {
	f := strings.Fields(string(l))
	kw := ""
	if len(f) > 1 {
		kw = f[1]
	}
	switch kw {
	case "PCP5":
		if len(f) < 8 {
			return nil, fmt.Errorf("%s:%d: # PCP5 wants name pmid type indom sem units, got %q", p.name, ln, l)
		}
		p.pending = &PCP5{Name: f[2], PMID: f[3], Type: f[4], InDom: f[5], Sem: f[6], Units: strings.Join(f[7:], " "), Line: ln}
		return nil, nil
	case "DCIMON":
		return nil, dcimonLine(p.name, ln, f[2:], p.doc)
	case "EOF":
		return nil, nil
	case "UNIT":
		if len(f) >= 4 {
			p.m.unit[renamedName(p.renamed, f[2])] = f[3]
		}
		return nil, nil
	case "HELP", "TYPE":
		if len(f) < 3 {
			return l, nil // expfmt says what is wrong
		}
		return p.familyComment(ln, l, f)
	}
	return l, nil
}

// familyComment reads a HELP or TYPE line, its fields f: its family is noted with the PCP5 line
// before it, renamed as its samples are, and an OpenMetrics type expfmt does not know (info,
// stateset, gaugehistogram, unknown) is kept and declared untyped.
func (p *prepassText) familyComment(ln int, l []byte, f []string) ([]byte, error) {
	kw := f[1]
	fam := renamedName(p.renamed, f[2])
	if err := p.note(fam, ln); err != nil {
		return nil, err
	}
	if p.pending != nil {
		p.m.pcp[fam], p.pending = p.pending, nil
	}
	if kw == "TYPE" && len(f) == 4 {
		switch f[3] {
		case "info", "stateset", "gaugehistogram", "unknown":
			p.m.omType[fam] = f[3]
			f[3] = "untyped"
		}
	}
	switch {
	case kw == "HELP" && fam != f[2]:
		return helpLine(l, fam), nil // the help text keeps its own spacing
	case kw == "TYPE" && (fam != f[2] || p.m.omType[fam] != ""):
		f[2] = fam
		return []byte(strings.Join(f, " ")), nil
	}
	return l, nil
}

// sample reads a sample line: OpenMetrics' creation time of a counter is taken out (not a
// statistic); any other counts as a series when it is one of its own, refused past the series
// limit, and notes its family.
func (p *prepassText) sample(ln int, l []byte) ([]byte, error) {
	nb := sampleName(l)
	if len(nb) == 0 {
		return l, nil
	}
	if base, ok := bytes.CutSuffix(nb, []byte("_created")); ok && p.counters[string(base)] {
		return nil, nil
	}
	fam := nb // no string made for the usual sample line, whose family is noted already
	_, known := p.m.line[string(nb)]
	if !known {
		fam = []byte(familyOf(string(nb), p.m))
	}
	if seriesLine(nb, fam, p.declared[string(fam)]) {
		if p.series++; p.lim.MaxSeries > 0 && p.series > p.lim.MaxSeries {
			return nil, tooMany(p.name, p.lim, "series")
		}
	}
	if !known {
		if err := p.note(string(fam), ln); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// seriesLine says a sample line named sample, of family fam declared of type typ, is a series
// of its own: a histogram's or summary's _count line (its buckets, quantiles and sum are the
// same series'), any other family's sample named as the family.
func seriesLine(sample, fam []byte, typ string) bool {
	if typ == "histogram" || typ == "summary" {
		base, ok := bytes.CutSuffix(sample, []byte("_count"))
		return ok && bytes.Equal(base, fam)
	}
	return bytes.Equal(sample, fam)
}

// helpLine is a HELP line with its family's name replaced, its text untouched.
func helpLine(l []byte, fam string) []byte {
	rest := bytes.TrimLeft(l[1:], " \t")             // "HELP name text"
	rest = bytes.TrimLeft(rest[len("HELP"):], " \t") // "name text"
	if i := bytes.IndexAny(rest, " \t"); i >= 0 {
		rest = rest[i+1:]
	} else {
		rest = nil
	}
	return append([]byte("# HELP "+fam+" "), rest...)
}

func renamedName(renamed map[string]string, n string) string {
	if r, ok := renamed[n]; ok {
		return r
	}
	return n
}

// familyOf is the family a sample name belongs to: a histogram's or summary's _bucket, _sum and
// _count samples are its family's, when that family was declared.
func familyOf(sample string, m *meta) string {
	for _, suf := range []string{"_bucket", "_sum", "_count"} {
		if base, ok := strings.CutSuffix(sample, suf); ok {
			if _, declared := m.line[base]; declared {
				return base
			}
		}
	}
	return sample
}

// sampleName is the metric name a sample line starts with (empty for a blank line), within l.
func sampleName(l []byte) []byte {
	l = bytes.TrimLeft(l, " \t")
	if i := bytes.IndexAny(l, "{ \t"); i >= 0 {
		return l[:i]
	}
	return l
}

// dcimonLine reads `# DCIMON vendor=acme enterprise=12345 interval=10s`.
func dcimonLine(name string, ln int, kvs []string, doc *Doc) error {
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("%s:%d: # DCIMON wants key=value, got %q", name, ln, kv)
		}
		switch k {
		case "vendor":
			if !validVendor(v) {
				return fmt.Errorf("%s:%d: # DCIMON vendor=%q: want letters, digits, _ and -, at most 31", name, ln, v)
			}
			doc.Vendor = v
		case "interval":
			d, err := time.ParseDuration(v)
			if err != nil || d < 100*time.Millisecond || d > time.Hour {
				return fmt.Errorf("%s:%d: # DCIMON interval=%q: want a duration from 100ms to 1h", name, ln, v)
			}
			doc.Interval = d
		case "enterprise":
			n, err := strconv.ParseUint(v, 10, 16)
			if err != nil || n == 0 {
				return fmt.Errorf("%s:%d: # DCIMON enterprise=%q: want an IANA enterprise number from 1 to 65535", name, ln, v)
			}
			doc.Enterprise = uint16(n)
		default:
			return fmt.Errorf("%s:%d: # DCIMON: unknown key %q (want vendor, enterprise or interval)", name, ln, k)
		}
	}
	return nil
}

// validVendor reports whether s can name a vendor context: SPMI names are at most 31 bytes.
func validVendor(s string) bool {
	if s == "" || len(s) > 31 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// VendorOf is the vendor a file or program is named for: its name without the extension, made
// a valid vendor name ("acme.prom" is acme, "my queue.om" is my_queue).
func VendorOf(file string) string {
	base := file
	if i := strings.LastIndexByte(base, '/'); i >= 0 {
		base = base[i+1:]
	}
	for _, ext := range []string{".prom", ".om", ".sh", ".py"} {
		base = strings.TrimSuffix(base, ext)
	}
	var b strings.Builder
	for _, c := range base {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	v := b.String()
	if len(v) > 31 {
		v = v[:31]
	}
	if v == "" {
		v = "unnamed"
	}
	return v
}
