package dds

import (
	"fmt"
	"hash/fnv"
	"math"
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
// values are kept in and the factor from the text's number to it, and the instance numbers of
// its label sets.
type ddsFamily struct {
	name    string
	sig     string // what the declaration depends on; another signature is another class
	classes []*ns.Class
	stats   *ns.Class // the class holding the datums
	typ     string
	mult    float64 // raw = text value × mult
	ids     map[string]uint64
	specs   map[uint64]ns.InstanceSpec // by instance number: made once per label set
	next    uint64
}

// ddsUnit is the DCI unit of a family and the factor from the text's numbers to it.
type ddsUnit struct {
	unit ns.Unit
	mult float64
	pcp  ns.PMUnits // PCP's units when a # PCP5 line gave some DCI has no unit for
	note string     // what the text said of the unit, when DCI has no unit for it
	// finer is the ladder of finer units for values with decimals (seconds to nanoseconds).
	finer []ns.Unit
	// stamp: the values are times (seconds since the epoch), shown as dates (DCI4 ST_TIME).
	stamp bool
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
		return pcpUnit(f.PCP.Units)
	}
	u := f.Unit
	if u == "" {
		n := strings.TrimSuffix(f.Name, "_total")
		for _, suf := range []string{"seconds", "bytes", "celsius", "volts", "ratio"} {
			if strings.HasSuffix(n, "_"+suf) {
				u = suf
				break
			}
		}
	}
	switch u {
	case "seconds":
		if isTimestamp(f) {
			return ddsUnit{unit: ns.UnitSecs, mult: 1, stamp: true} // whole seconds, as a time of day
		}
		return ddsUnit{unit: ns.UnitSecs, mult: 1, finer: []ns.Unit{ns.UnitMillisecs, ns.UnitMicrosecs, ns.UnitNanosecs}}
	case "bytes":
		return ddsUnit{unit: ns.UnitBytes, mult: 1}
	case "celsius":
		return ddsUnit{unit: ns.UnitMilliCelsius, mult: 1000}
	case "volts":
		return ddsUnit{unit: ns.UnitMilliVolts, mult: 1000}
	case "", "ratio":
		if f.Type == "counter" && u == "" {
			return ddsUnit{unit: ns.UnitCount, mult: 1, finer: []ns.Unit{ns.UnitMicroUnits}}
		}
		return ddsUnit{unit: ns.UnitNone, mult: 1, finer: []ns.Unit{ns.UnitMicroUnits}}
	}
	return ddsUnit{unit: ns.UnitNone, mult: 1, note: u, finer: []ns.Unit{ns.UnitMicroUnits}}
}

// pcpUnit maps pmUnitsStr's words onto DCI's units (namespace.PCPUnitsOf).
func pcpUnit(s string) ddsUnit {
	m := ns.PCPUnitsOf(s)
	return ddsUnit{unit: m.Unit, mult: m.Mult, pcp: m.PM, note: m.Note, finer: m.Finer}
}

// pmUnitsStr's words for the scales of space and time.

// fits says every value of the family is a whole number once multiplied by mult.
func fits(f *supply.Family, mult float64) bool {
	whole := func(v float64) bool {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return true // shown as not a number whatever the unit
		}
		x := v * mult
		return math.Abs(x-math.Round(x)) <= 1e-9*math.Max(1, math.Abs(x))
	}
	for _, s := range f.Series {
		if !whole(s.Value) || !whole(s.Sum) {
			return false
		}
	}
	return true
}

// refine moves u to the first finer unit in which every value is whole, or the finest there is,
// never coarser than prev (a family that once had decimals keeps its finer unit, so its class is
// not declared anew at every change of the values).
func refine(u ddsUnit, f *supply.Family, prev float64) ddsUnit {
	for (!fits(f, u.mult) || u.mult < prev) && len(u.finer) > 0 {
		next := u.finer[0]
		switch {
		case next == ns.UnitMicroUnits:
			u.mult *= 1e6
		case next >= ns.UnitSecs && next <= ns.UnitNanosecs:
			u.mult *= 1000
		}
		u.unit, u.finer = next, u.finer[1:]
	}
	return u
}

// ddsNameOf is a family's context name: the family's name, escaped as every name from outside,
// shortened with a hash when it is past SPMI's 31 bytes.
func ddsNameOf(fam string) string { return ns.InstanceName(fam) }

// declare builds (or keeps, when nothing it depends on changed) the classes of family f of
// vendor v for the supplier src.
func declare(prev *ddsFamily, ids *ddsIDs, vendor string, vnum uint16, src string, f *supply.Family) *ddsFamily {
	var prevMult float64
	if prev != nil {
		prevMult = prev.mult
	}
	u := refine(unitOf(f), f, prevMult)
	labelled := len(f.Series) > 1 || (len(f.Series) == 1 && len(f.Series[0].Labels) > 0)
	help := ns.EscapeName(f.Help)
	sig := fmt.Sprintf("%s|%s|%s|%v|%d|%g|%v|%s|%v|%v", vendor, f.Name, f.Type, labelled, u.unit, u.mult, u.pcp, help, f.PCP != nil, u.stamp)
	if prev != nil && prev.sig == sig {
		return prev
	}
	fd := &ddsFamily{name: f.Name, sig: sig, typ: f.Type, mult: u.mult, ids: map[string]uint64{}, specs: map[uint64]ns.InstanceSpec{}}
	if prev != nil {
		fd.ids, fd.specs, fd.next = prev.ids, prev.specs, prev.next // a label set keeps its number
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
	datums := ddsDatums(f, u, desc, h, where)
	stats := &ns.Class{ID: id, Name: name, Desc: desc, Help: h, Flags: ns.ClassEnabled, Datums: datums}
	if labelled {
		ctx := &ns.Class{ID: id, Name: name, Desc: desc, Help: h, Flags: ns.ClassEnabled}
		stats = &ns.Class{ID: id.Child(1), Name: "series", Desc: ns.Clip("Label sets of "+name, 63), Help: h, Flags: ns.ClassEnabled,
			InstFreq: ns.SiContInst, Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagEnumeration, Size: 4}}, Datums: datums}
		fd.classes = []*ns.Class{ctx, stats}
	} else {
		stats.Levels = schema.SingleLevel()
		fd.classes = []*ns.Class{stats}
	}
	fd.stats = stats
	return fd
}

func ddsDatums(f *supply.Family, u ddsUnit, desc, help, where string) []ns.Datum {
	var pcpName string
	if f.PCP != nil {
		pcpName = f.PCP.Name
	}
	withPCP := func(d ns.Datum) ns.Datum {
		if !u.pcp.IsZero() {
			d.PCP.Units = u.pcp
		}
		return d.WithHelp(help).WithPCPName(pcpName)
	}
	switch f.Type {
	case "summary", "histogram":
		return []ns.Datum{
			withPCP(ns.Counter(ddsSum, "sum", ns.TypeUint8, u.unit, ns.Clip("Sum of "+desc, 63), where+", _sum")),
			ns.Counter(ddsCount, "count", ns.TypeUint8, ns.UnitEvent, ns.Clip("Observations of "+desc, 63), where+", _count").WithHelp(help),
			ns.Derived(ddsMean, "mean", ns.DerivedAverage, ns.PMSemInstant, ns.Clip("Mean of "+desc, 63), ddsSum, ddsCount).WithHelp(help),
		}
	case "counter":
		return []ns.Datum{withPCP(ns.Counter(ddsValue, "value", ns.TypeUint8, u.unit, desc, where))}
	}
	g := withPCP(ns.Gauge(ddsValue, "value", ns.TypeInt8, u.unit, desc, where))
	if u.stamp {
		g = g.WithDCI4(ns.STTime, ns.STFCTime, ns.STPAbsolute)
	}
	return []ns.Datum{g}
}

// instanceName is a label set's instance name: the value of a lone label, else name=value pairs;
// a slash is the DIVISION SLASH, as in a file system's name (`dir="/tmp"` is `∕tmp`).
func instanceName(ls []supply.Label) string {
	if len(ls) == 1 {
		return schema.FSName(ls[0].Value)
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

// labelDesc is a label set for an instance's description: name="value" pairs, the values escaped.
func labelDesc(ls []supply.Label) string {
	var b strings.Builder
	for i, l := range ls {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(ns.EscapeName(l.Name) + `="` + ns.EscapeName(l.Value) + `"`)
	}
	return b.String()
}

// read fills the family's instances and raw values from f.
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
	if len(fd.ids) > 2*len(f.Series)+1024 {
		fd.forget(f) // label sets that come and go (a label with a request id) do not pile up
	}
	specs := make([]ns.InstanceSpec, 0, len(f.Series))
	raw := make([]ns.Raw, nd*len(f.Series))
	for i, s := range f.Series {
		key := s.LabelKey()
		id, ok := fd.ids[key]
		if !ok {
			fd.next++
			id = fd.next
			fd.ids[key] = id
			sp := ns.InstanceSpec{Levels: []uint64{id}, OSName: instanceName(s.Labels), Desc: ns.Clip(labelDesc(s.Labels), 63)}
			if id <= 0xffff {
				sp.ASN = uint16(id)
			}
			fd.specs[id] = sp
		}
		specs = append(specs, fd.specs[id])
		fd.fill(raw[i*nd:(i+1)*nd], s)
	}
	return specs, raw
}

// forget drops the numbers of label sets the text no longer has; those it has keep theirs.
func (fd *ddsFamily) forget(f *supply.Family) {
	ids := make(map[string]uint64, len(f.Series))
	specs := make(map[uint64]ns.InstanceSpec, len(f.Series))
	for _, s := range f.Series {
		k := s.LabelKey()
		if id, ok := fd.ids[k]; ok {
			ids[k], specs[id] = id, fd.specs[id]
		}
	}
	fd.ids, fd.specs = ids, specs
}

// fill converts one series' numbers into raw values in the family's unit.
func (fd *ddsFamily) fill(row []ns.Raw, s supply.Series) {
	switch fd.typ {
	case "summary", "histogram":
		row[ddsSum-1] = fd.raw(s.Sum, true)
		row[ddsCount-1] = fd.rawWith(s.Count, 1, true)
	case "counter":
		row[ddsValue-1] = fd.raw(s.Value, true)
	default:
		row[ddsValue-1] = fd.raw(s.Value, false)
	}
}

func (fd *ddsFamily) raw(v float64, counter bool) ns.Raw { return fd.rawWith(v, fd.mult, counter) }

// rawWith is v × mult as a raw value: a counter unsigned, anything else signed; NaN and the
// infinities are not a number, never 0; a value that does not fit is an overflow.
func (fd *ddsFamily) rawWith(v, mult float64, counter bool) ns.Raw {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonNotANumber}
	}
	x := math.Round(v * mult)
	switch {
	case counter && x < 0:
		return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonImplausible}
	case counter && x >= 1<<64, !counter && (x >= 1<<63 || x < -(1<<63)):
		return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonOverflow}
	case counter:
		return ns.Raw{N: uint64(x)}
	}
	return ns.Raw{N: uint64(int64(x))}
}
