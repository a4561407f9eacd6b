package dds

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"dcimon/collect/schema"
	ns "dcimon/namespace"
	"dcimon/supply"
)

// The DDS name space (issue 18, SPMI-DDS-1, SPMI-ASN-4): `DDS` (99), a vendor's context
// `DDS/<vendor>` (99.v, v the vendor's IANA enterprise number when its text gives one), and one
// context per metric family `DDS/<vendor>/<family>` (99.v.f). A family without labels is a
// single-instance class whose statistics are its datums; a family with labels is a context
// holding a multi-instance class (99.v.f.1), one instance per label set. A counter, gauge or
// untyped family has one datum, `value`; a summary or histogram has `sum`, `count` and the
// derived `mean` (sum per observation over the interval).

// Datum low bytes of a family's class.
const (
	ddsValue = 1
	ddsSum   = 1
	ddsCount = 2
	ddsMean  = 3
)

// ddsIDs numbers the DDS name space, shared by every DDS supplier of one sampler so that two
// suppliers naming one vendor name the same context (SPMI-DDS-2) and a family keeps its number
// for as long as dcimon runs. Numbers come from the names (FNV-1a, then the next free one), so
// they are the same from one run to the next unless two names collide.
type ddsIDs struct {
	mu      sync.Mutex
	vendors map[string]uint16
	vendorN map[uint16]string
	fams    map[string]uint16 // "vendor\x00family"
	famN    map[uint32]string // vendor number << 16 | family number
}

func newDDSIDs() *ddsIDs {
	return &ddsIDs{vendors: map[string]uint16{}, vendorN: map[uint16]string{}, fams: map[string]uint16{}, famN: map[uint32]string{}}
}

// Vendors without an enterprise number are numbered in 32768..65535, above the numbers IANA has
// given so far, so that they rarely meet a real one.
const ddsVendorBase, ddsVendorSpan = 32768, 32768

func fnv32(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// vendor is the number of a vendor's context: its enterprise number when given and free, else
// one from its name. The first supplier to name a vendor fixes its number.
func (d *ddsIDs) vendor(name string, pen uint16) uint16 {
	d.mu.Lock()
	defer d.mu.Unlock()
	if n, ok := d.vendors[name]; ok {
		return n
	}
	n := pen
	if n == 0 || d.vendorN[n] != "" {
		n = uint16(ddsVendorBase + fnv32(name)%ddsVendorSpan)
		for d.vendorN[n] != "" {
			n = uint16(ddsVendorBase + (uint32(n)-ddsVendorBase+1)%ddsVendorSpan)
		}
	}
	d.vendors[name], d.vendorN[n] = n, name
	return n
}

// family is the number of a family's context under its vendor's.
func (d *ddsIDs) family(vendor uint16, vname, fam string) uint16 {
	d.mu.Lock()
	defer d.mu.Unlock()
	key := vname + "\x00" + fam
	if n, ok := d.fams[key]; ok {
		return n
	}
	n := uint16(1 + fnv32(fam)%65535)
	for d.famN[uint32(vendor)<<16|uint32(n)] != "" {
		n = uint16(1 + uint32(n)%65535)
	}
	d.fams[key], d.famN[uint32(vendor)<<16|uint32(n)] = n, key
	return n
}

// ddsFamily is one family as a supplier declares it, and what it needs to read it: the unit its
// values are kept in and the factor from the text's number to it, its meaning, how its label
// sets are named, and their instance numbers.
type ddsFamily struct {
	name    string
	sig     string // what the declaration depends on; another signature is another class
	classes []*ns.Class
	stats   *ns.Class // the class holding the datums
	typ     string    // counter, gauge, untyped, summary or histogram: how the values are filled
	mean    meaning
	mult    float64 // raw = text value × mult
	whole   bool    // an integer PCP type: a value with decimals does not fit it
	nm      namer
	// A label set keeps its instance number, its name and its labels while it stays in the
	// text, found by the set's 64-bit hash (supply.LabelsHash). Its labels are kept once, here,
	// and the name space's instance shares them (InstanceSpec.Labels): the text's series drop
	// theirs once learnt (learn), and nothing but the set is kept of them between readings.
	sets   map[uint64]*labelSet // label set's hash → the set
	byName map[string]uint64    // name → instance number, so that no two share one
	next   uint64
	at     []*labelSet // each series' set, in the order of the text last learnt
}

// labelSet is one series' labels as the family keeps them: its instance number and name, and
// its labels as the name space keeps them, never changed once made.
type labelSet struct {
	id     uint64
	name   string
	labels []ns.Attr
}

// ddsNameOf is a family's context name: the family's name, escaped as every name from outside,
// shortened with a hash when it is past SPMI's 31 bytes.
func ddsNameOf(fam string) string { return ns.InstanceName(fam) }

// The extensions of a family's class that say what it was in the text, so that the export
// writes it back under its own name and type (issue 33).
const (
	ExtFamily = "openmetrics family"
	ExtType   = "openmetrics type"
)

// declare builds (or keeps, when nothing it depends on changed) the classes of family f of
// vendor v for the supplier src; constant are the labels every series of the text has (pmproxy's
// hostname, machineid and domainname), which name no instance.
func declare(prev *ddsFamily, ids *ddsIDs, vendor string, vnum uint16, src string, f *supply.Family, constant []supply.Label) *ddsFamily {
	var prevMult float64
	if prev != nil {
		prevMult = prev.mult
	}
	summary := f.Type == "summary" || f.Type == "histogram"
	var mean meaning
	if !summary {
		mean = meaningOf(f)
	}
	u := unitOf(f)
	whole := mean.pm != 0 && mean.pm != ns.PMTypeFloat && mean.pm != ns.PMTypeDouble
	if whole {
		u.finer = nil // an integer PCP type's values are whole, in its own unit
	}
	u = refine(u, f, prevMult)
	nm := namingOf(f, constant)
	labelled := nm.labelled
	var classLabels []ns.Attr
	if !labelled && len(f.Series) == 1 {
		classLabels = attrs(f.Series[0].Labels) // one label set, all of them the text's own
	}
	help := ns.EscapeName(f.Help)
	sig := fmt.Sprintf("%s|%s|%s|%v|%d|%g|%v|%v|%s|%v|%v|%v|%v", vendor, f.Name, f.Type, labelled, u.unit, u.mult, u.pcp, u.host, help,
		f.PCP != nil, u.stamp, mean, classLabels)
	if prev != nil && prev.sig == sig {
		prev.nm = nm
		return prev
	}
	fd := &ddsFamily{name: f.Name, sig: sig, typ: f.Type, mean: mean, mult: u.mult, whole: whole, nm: nm,
		sets: map[uint64]*labelSet{}, byName: map[string]uint64{}}
	if prev != nil {
		fd.sets, fd.byName, fd.next = prev.sets, prev.byName, prev.next // a label set keeps its number
	}
	fnum := ids.family(vnum, vendor, f.Name)
	id := ns.ClassID{ns.DDSASN, uint32(vnum), uint32(fnum)}
	name := ddsNameOf(f.Name)
	desc := ns.Clip(help, 63)
	if desc == "" {
		desc = ns.Clip("Family "+ns.EscapeName(f.Name), 63)
	}
	where := fmt.Sprintf("%s line %d", src, f.Line)
	h := help
	if h == "" {
		h = "The text gives no # HELP for this family."
	}
	h += " From " + where + "."
	if u.note != "" {
		h += " Unit: " + u.note + " (no DCI unit; shown as a plain number)."
	}
	if f.Type == "untyped" && f.OMType == "" && f.PCP == nil {
		h += " No # TYPE: a quantity with unspecified units."
	}
	if f.OMType != "" {
		h += " OpenMetrics type " + f.OMType + "."
	}
	// describe shows what came from where (issue 33).
	source := where + "; " + strings.Join(append(slices.Clone(mean.from), u.from), "; ")
	datums := ddsDatums(vendor, f, u, mean, desc, h, source)
	omType := f.Type
	if f.OMType != "" {
		omType = f.OMType
	}
	ext := []ns.Attr{{Key: ExtFamily, Value: ns.EscapeName(f.Name)}, {Key: ExtType, Value: omType}}
	stats := &ns.Class{ID: id, Name: name, Desc: desc, Help: h, Flags: ns.ClassEnabled, Datums: datums, Extensions: ext, Labels: classLabels}
	if labelled {
		ctx := &ns.Class{ID: id, Name: name, Desc: desc, Help: h, Flags: ns.ClassEnabled}
		stats = &ns.Class{ID: id.Child(1), Name: "series", Desc: ns.Clip("Label sets of "+name, 63), Help: h, Flags: ns.ClassEnabled,
			InstFreq: ns.SiContInst, Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagEnumeration, Size: 4}}, Datums: datums,
			Extensions: ext}
		fd.classes = []*ns.Class{ctx, stats}
	} else {
		stats.Levels = schema.SingleLevel()
		fd.classes = []*ns.Class{stats}
	}
	fd.stats = stats
	return fd
}

// ddsDatums are a family's datums. Each names its PCP metric: the # PCP5 line's, else the one
// `dcimon metrics` exports it under (PCPName), so that describe names it too; a # PCP5 line's
// descriptor is the datum's host descriptor, shown as pminfo -d shows it (issue 39 item 8).
func ddsDatums(vendor string, f *supply.Family, u ddsUnit, m meaning, desc, help, source string) []ns.Datum {
	pcpName := PCPName(vendor, f.Name)
	var pmid, indom string
	if f.PCP != nil {
		pcpName = f.PCP.Name
		// The metric's own identifiers on the host pmproxy read it from, when they are PCP's.
		if _, ok := ns.ParsePMID(f.PCP.PMID); ok {
			pmid = f.PCP.PMID
		}
		if _, ok := ns.ParseInDom(f.PCP.InDom); ok {
			indom = f.PCP.InDom
		}
	}
	withPCP := func(d ns.Datum) ns.Datum {
		if !u.pcp.IsZero() {
			d.PCP.Units = u.pcp
		}
		if m.pm != 0 {
			d.PCP.Type = m.pm
		}
		d.PCP.PMID, d.PCP.InDom = pmid, indom
		if f.PCP != nil && u.hostOK && m.pm != 0 {
			d.PCP.Host = &ns.PMDesc{Type: m.pm, Sem: m.sem, Units: u.host}
		}
		return d.WithHelp(help).WithPCPName(pcpName)
	}
	switch f.Type {
	case "summary", "histogram":
		if f.PCP == nil {
			pcpName += ".sum" // as the export names it
		}
		sum := ns.Counter(ddsSum, "sum", ns.TypeUint8, u.unit, ns.Clip("Sum of "+desc, 63), source+", _sum").WithHelp(help).WithPCPName(pcpName)
		if !u.pcp.IsZero() {
			sum.PCP.Units = u.pcp
		}
		return []ns.Datum{
			sum,
			ns.Counter(ddsCount, "count", ns.TypeUint8, ns.UnitEvent, ns.Clip("Observations of "+desc, 63), source+", _count").WithHelp(help).
				WithPCPName(strings.TrimSuffix(pcpName, ".sum") + ".count"),
			ns.Derived(ddsMean, "mean", ns.DerivedAverage, ns.PMSemInstant, ns.Clip("Mean of "+desc, 63), ddsSum, ddsCount).WithHelp(help),
		}
	}
	var d ns.Datum
	switch m.sem {
	case ns.PMSemCounter:
		d = ns.Counter(ddsValue, "value", m.typ, u.unit, desc, source)
	case ns.PMSemDiscrete:
		// PCP's discrete: a value that changes rarely, still read whenever the text changes.
		d = ns.Discrete(ddsValue, "value", m.typ, u.unit, desc, source).WithVolatility(ns.SVVolatile)
	default:
		d = ns.Gauge(ddsValue, "value", m.typ, u.unit, desc, source)
	}
	d = withPCP(d)
	if u.stamp && m.sem != ns.PMSemCounter {
		d = d.WithDCI4(ns.STTime, ns.STFCTime, ns.STPAbsolute)
	}
	return []ns.Datum{d}
}

// PCPName is the PCP name a user's family of vendor is exported under when its text gives none
// (no # PCP5 line): dcimon.dds.<vendor>.<family>, in Prometheus's characters.
func PCPName(vendor, family string) string {
	return "dcimon.dds." + ns.PromName(vendor) + "." + ns.PromName(ns.EscapeName(family))
}

// namer says how a family's label sets are named (issue 33): by PCP's `instname` label when every
// series has one (pmproxy's /metrics), else by the labels whose values vary between the series
// of the family, never by a hash of them all. PCP's context labels that every series of the text
// shares (pmproxy's hostname, machineid and domainname) name nothing.
type namer struct {
	labelled bool            // the family is a context of instances, not a single value
	instname bool            // named by instname
	naming   map[string]bool // else by these labels
}

// pcpContextLabels are the names of PCP's context labels (pmLookupLabels(3)), which pmproxy puts
// on every series it writes.
var pcpContextLabels = []string{"hostname", "domainname", "machineid", "userid", "groupid", "container"}

// constantLabels are the PCP context labels with the same value on every series of a text of more
// than one family: they are the text's host's, not any instance's. Other labels all series share
// (a file about one disk, `disk="sda"` everywhere) still name the instance they are about.
func constantLabels(doc *supply.Doc) []supply.Label {
	if len(doc.Families) < 2 {
		return nil
	}
	var out []supply.Label
	first := true
	for i := range doc.Families {
		for _, s := range doc.Families[i].Series {
			if first {
				out = slices.DeleteFunc(slices.Clone(s.Labels), func(l supply.Label) bool { return !slices.Contains(pcpContextLabels, l.Name) })
				first = false
			} else {
				out = slices.DeleteFunc(out, func(l supply.Label) bool { return !slices.Contains(s.Labels, l) })
			}
			if len(out) == 0 {
				return nil
			}
		}
	}
	return out
}

func namingOf(f *supply.Family, constant []supply.Label) namer {
	if len(f.Series) == 0 {
		return namer{}
	}
	nm := namer{instname: true}
	for _, s := range f.Series {
		if !slices.ContainsFunc(s.Labels, func(l supply.Label) bool { return l.Name == "instname" }) {
			nm.instname = false
			break
		}
	}
	if nm.instname {
		nm.labelled = true
		return nm
	}
	nm.naming = map[string]bool{}
	if len(f.Series) == 1 {
		for _, l := range f.Series[0].Labels {
			if !slices.Contains(constant, l) {
				nm.naming[l.Name] = true
			}
		}
		nm.labelled = len(nm.naming) > 0
		return nm
	}
	// A label varies when some series lacks it or two give it different values.
	first := map[string]string{}
	count := map[string]int{}
	for _, s := range f.Series {
		for _, l := range s.Labels {
			if v, ok := first[l.Name]; !ok {
				first[l.Name] = l.Value
			} else if v != l.Value {
				nm.naming[l.Name] = true
			}
			count[l.Name]++
		}
	}
	for n, c := range count {
		if c != len(f.Series) {
			nm.naming[n] = true
		}
	}
	nm.labelled = true
	return nm
}

// name is a label set's instance name: its instname, the value of the one naming label, or the
// naming labels' name=value pairs; a slash is the DIVISION SLASH, as in a file system's name
// (`dir="/tmp"` is `∕tmp`); the export writes the labels themselves back (Instance.Labels).
func (nm namer) name(ls []supply.Label) string {
	if nm.instname {
		for _, l := range ls {
			if l.Name == "instname" && l.Value != "" {
				return schema.FSName(l.Value)
			}
		}
	}
	var b strings.Builder
	for _, l := range ls {
		if !nm.naming[l.Name] {
			continue
		}
		if len(nm.naming) == 1 {
			if l.Value == "" {
				return schema.FSName(l.Name + "=") // an empty name is no name
			}
			return schema.FSName(l.Value)
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(l.Name + "=" + l.Value)
	}
	if b.Len() == 0 {
		return allLabels(ls)
	}
	return schema.FSName(b.String())
}

// allLabels names a label set by every label: name=value pairs, `{}` for none.
func allLabels(ls []supply.Label) string {
	if len(ls) == 0 {
		return "{}"
	}
	var b strings.Builder
	for i, l := range ls {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(l.Name + "=" + l.Value)
	}
	return schema.FSName(b.String())
}

// attrs is a label set as the name space keeps it, exactly.
func attrs(ls []supply.Label) []ns.Attr {
	if len(ls) == 0 {
		return nil
	}
	out := make([]ns.Attr, len(ls))
	for i, l := range ls {
		out[i] = ns.Attr{Key: l.Name, Value: l.Value}
	}
	return out
}

// learn takes the label sets of a new text's family f (whose classes fd declares): each series'
// set is found, or numbered and named, and the series drop their labels, kept once in the set
// (issue 38 item 3). A single-instance family keeps its one series' labels.
func (fd *ddsFamily) learn(f *supply.Family) {
	if fd.stats.SingleInstance() {
		return
	}
	if len(fd.sets) > 2*len(f.Series)+1024 {
		fd.forget(f) // label sets that come and go (a label with a request id) do not pile up
	}
	fd.at = slices.Grow(fd.at[:0], len(f.Series))[:len(f.Series)]
	for i := range f.Series {
		s := &f.Series[i]
		key := supply.LabelsHash(s.Labels)
		set := fd.sets[key]
		if set == nil {
			fd.next++
			set = &labelSet{id: fd.next, name: fd.nm.name(s.Labels), labels: attrs(s.Labels)}
			if o, taken := fd.byName[set.name]; taken && o != set.id {
				set.name = allLabels(s.Labels)
				if o, taken := fd.byName[set.name]; taken && o != set.id {
					set.name += "~" + strconv.FormatUint(set.id, 10)
				}
			}
			fd.sets[key], fd.byName[set.name] = set, set.id
		}
		fd.at[i] = set
		s.Labels = nil
	}
}

// read fills the family's instances and raw values from f, whose sets fd has learnt.
func (fd *ddsFamily) read(f *supply.Family) ([]ns.InstanceSpec, []ns.Raw) {
	c := fd.stats
	nd := len(c.Datums)
	if c.SingleInstance() {
		raw := make([]ns.Raw, nd)
		if len(f.Series) == 1 {
			fd.fill(raw, f.Series[0])
		}
		return schema.SingleSpecs(), raw
	}
	// Made anew at each reading, not kept: a text changes every few seconds at most, and what is
	// kept between readings is what a large text costs for as long as it stays.
	n := min(len(f.Series), len(fd.at))
	specs, levels := make([]ns.InstanceSpec, n), make([]uint64, n)
	raw := make([]ns.Raw, nd*n)
	for i, set := range fd.at[:n] {
		levels[i] = set.id
		sp := ns.InstanceSpec{Levels: levels[i : i+1 : i+1], OSName: set.name, Labels: set.labels}
		if set.id <= 0xffff {
			sp.ASN = uint16(set.id)
		}
		specs[i] = sp
		fd.fill(raw[i*nd:(i+1)*nd], f.Series[i])
	}
	return specs, raw
}

// forget drops the label sets the text no longer has; those it has keep their numbers and names.
func (fd *ddsFamily) forget(f *supply.Family) {
	sets := make(map[uint64]*labelSet, len(f.Series))
	byName := make(map[string]uint64, len(f.Series))
	for _, s := range f.Series {
		k := supply.LabelsHash(s.Labels)
		if set, ok := fd.sets[k]; ok {
			sets[k], byName[set.name] = set, set.id
		}
	}
	fd.sets, fd.byName = sets, byName
}

// fill converts one series' numbers into raw values in the family's unit.
func (fd *ddsFamily) fill(row []ns.Raw, s supply.Series) {
	switch fd.typ {
	case "summary", "histogram":
		row[ddsSum-1] = rawOf(s.Sum, fd.mult, ns.TypeUint8, true, false)
		row[ddsCount-1] = rawOf(s.Count, 1, ns.TypeUint8, true, false)
	default:
		row[ddsValue-1] = rawOf(s.Value, fd.mult, fd.mean.typ, fd.mean.sem == ns.PMSemCounter, fd.whole)
	}
}

// rawOf is v × mult as a raw value of type t: NaN and the infinities are not a number, never 0; a
// counter below zero is implausible; a value that does not fit t (or, whole, has decimals where
// the text's PCP type is an integer) is an overflow, never truncated.
func rawOf(v, mult float64, t ns.DataType, counter, whole bool) ns.Raw {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonNotANumber}
	}
	x := v * mult
	r := math.Round(x)
	if whole && !isWhole(x) {
		return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonOverflow}
	}
	if counter && r < 0 {
		return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonImplausible}
	}
	var lo, hi float64 // hi is exclusive
	switch t {
	case ns.TypeUint4:
		lo, hi = 0, 1<<32
	case ns.TypeInt4:
		lo, hi = -(1 << 31), 1<<31
	case ns.TypeUint8:
		lo, hi = 0, 1<<64
	default:
		lo, hi = -(1 << 63), 1<<63
	}
	if r < lo || r >= hi {
		return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonOverflow}
	}
	if r < 0 {
		return ns.Raw{N: uint64(int64(r))}
	}
	return ns.Raw{N: uint64(r)}
}
