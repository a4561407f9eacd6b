package pcp

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
	"dcimon/pcparchive"
)

// Recorder writes what a sampler reads as a PCP archive (dcimon record, issue 15). A datum the
// mapping (schema.LinuxPMDA) reads from a Linux PMDA metric is written as that metric exactly as
// the PMDA describes it (pmdaTable: its pmid, type, semantics, units, instance domain and fixed
// instances), its value converted back to the metric's units, so that the same mapping reads it
// back, PCP's tools know it, and pmlogextract merges a recording with a pmlogger archive of the
// same host (issue 30). Every other datum is written under a dcimon.<path> name in dcimon's own
// domain, with its datum's PCP view.
type Recorder struct {
	w       *pcparchive.Writer
	metrics []*recMetric
	byKey   map[recKey]*recMetric
	domains map[*ns.Class]*recInDom
	items   uint32
	names   map[string]bool
	// gen is the registry generation described last (described: once at least).
	gen       uint64
	described bool
	// pmda are the Linux PMDA's descriptors; targets the PMDA metrics each datum is read from,
	// by class id and datum; special the PMDA metrics written, in order.
	pmda    map[string]*pmdaDesc
	targets map[string][]recTarget
	special map[string]*recSpecial
	order   []*recSpecial
	// start is the archive's start; pmdaLabel says the PMDA's domain label is written.
	start     time.Time
	pmdaLabel bool
	// live are the registered instances of each class the recorder writes, nil for a class
	// gone, as of registry generation liveGen: looked up once per generation, not per metric
	// and sample (issue 38 item 4).
	live    map[*ns.Class][]*ns.Instance
	liveReg *ns.Registry
	liveGen uint64
	sets    []pcparchive.OutSet // the last record's, their array used again
}

// instances are class c's instances, as Registry.Instances has them, or nil and false when c is
// no longer the class registered under its id.
func (r *Recorder) instances(reg *ns.Registry, c *ns.Class) ([]*ns.Instance, bool) {
	if insts, ok := r.live[c]; ok {
		return insts, insts != nil
	}
	var insts []*ns.Instance
	if reg.Class(c.ID) == c {
		insts = reg.Instances(c)
		if insts == nil {
			insts = []*ns.Instance{}
		}
	}
	r.live[c] = insts
	return insts, insts != nil
}

// recTarget is where one datum of a class goes in a PMDA metric: at an instance of it fixed by the
// PMDA (inst, the load averages' minutes), or the class's own instances; the datum is the
// metric's value × mult (0: the factor between their units). For a class with fixed instances
// (pressure), fixed is the instance of the class it is read from.
type recTarget struct {
	metric string
	inst   int64
	mult   float64
	fixed  string
}

// recSpecial is a PMDA metric written from recTargets: its descriptor, and its values' sources.
type recSpecial struct {
	desc    *pmdaDesc
	srcs    []recSource
	mount   bool // filesys.mountdir: each file system's mount point
	written bool // its fixed instances are written
	// steady, for a discrete metric, are the values last written by instance (written again
	// only when they change, and at each index entry, where a seek starts).
	steady map[int32]pcparchive.OutValue
	vals   []pcparchive.OutValue // the values of the last record, their array used again
}

type recSource struct {
	class *ns.Class
	datum int
	t     recTarget
	conv  float64 // the datum's value ÷ conv is the metric's
}

// recTargets are the PMDA metrics the mapping reads each datum from, by class id and datum: with
// a factor, from an instance of a metric (the load averages), per fixed instance of the class
// (pressure), and the metric that names a class's instances (filesys.mountdir).
func recTargets() map[string][]recTarget {
	_, classes := pcpMapping(1, 0)
	out := map[string][]recTarget{}
	for _, pc := range classes {
		for _, m := range pc.Datums {
			if m.Metric == schema.MetricClock || m.Metric == schema.MetricConst {
				continue
			}
			key := fmt.Sprintf("%s/%d", pc.Class.ID, m.Datum)
			if pc.Fixed == nil {
				out[key] = append(out[key], recTarget{metric: m.Metric, inst: m.Inst, mult: m.Mult})
				continue
			}
			for _, r := range pc.Fixed {
				out[key] = append(out[key], recTarget{metric: strings.ReplaceAll(m.Metric, schema.Resource, r), inst: m.Inst, mult: m.Mult, fixed: r})
			}
		}
		if pc.NameMetric != "" && len(pc.Datums) > 0 {
			key := fmt.Sprintf("%s/%d", pc.Class.ID, pc.InstText)
			out[key] = append(out[key], recTarget{metric: pc.NameMetric})
		}
	}
	return out
}

// dcimonDomain is the PMDA domain number of the metrics dcimon writes under its own names (510:
// the first of the end-user PMDAs' range, 385-510, in PCP's stdpmid; 511 is the dynamic name
// space's, where pmdumplog finds derived metrics' names).
const dcimonDomain = 510

type recKey struct {
	class *ns.Class
	datum int
}

type recMetric struct {
	class *ns.Class
	datum int
	pmid  uint32
	typ   int32
	name  string
	// steady, for a discrete datum (a size, a name, an address), are the values last written
	// by instance: written again only when they change, and at each index entry, where a reader
	// that seeks starts (pmlogger logs such metrics "once").
	steady map[string]ns.Value
	vals   []pcparchive.OutValue // the values of the last record, their array used again
}

// NewRecorder starts an archive at base for host, its first sample at start. labels are the
// context's (hostname, machineid: what pmlogger records of its pmcd); none when nil.
func NewRecorder(base string, version int, host string, start time.Time, labels map[string]string) (*Recorder, error) {
	pmda, err := pmdaDescs()
	if err != nil {
		return nil, err
	}
	zone, _ := start.Zone()
	w, err := pcparchive.Create(base, version, pcparchive.Label{PID: int32(os.Getpid()), Start: start, Host: host, TZ: zone,
		Zoneinfo: ":" + start.Location().String()})
	if err != nil {
		return nil, err
	}
	if len(labels) > 0 {
		if err := w.PutLabels(start, pcparchive.LabelContext, 0, labels); err != nil {
			_ = w.Abort() // no record written: the files this start made go, so the next finds the name free
			return nil, err
		}
	}
	return &Recorder{w: w, byKey: map[recKey]*recMetric{}, domains: map[*ns.Class]*recInDom{}, names: map[string]bool{},
		pmda: pmda, targets: recTargets(), special: map[string]*recSpecial{}, start: start}, nil
}

// recTypes maps a datum's PCP type to the archive's; text is a string.
func recType(d *ns.Datum) (int32, bool) {
	if d.Type == ns.TypeOctetString {
		return pcparchive.TypeAggr, true // bytes, which a string's NUL would cut
	}
	if d.IsText() {
		return pcparchive.TypeString, true
	}
	switch d.PCP.Type {
	case ns.PMType32:
		return pcparchive.Type32, true
	case ns.PMTypeU32:
		return pcparchive.TypeU32, true
	case ns.PMType64:
		return pcparchive.Type64, true
	case ns.PMTypeU64:
		return pcparchive.TypeU64, true
	}
	return 0, false
}

// describe writes the descriptors of the classes' datums not written yet.
func (r *Recorder) describe(reg *ns.Registry) error {
	gen := reg.Generation()
	if r.described && gen == r.gen {
		return nil // no class came since
	}
	r.gen, r.described = gen, true
	for _, c := range reg.Classes() {
		if !c.Instantiated() || c.OnDemand || (len(c.ID) > 0 && c.ID[0] == collect.MonitorID[0]) {
			// Processes and groups are asked for, not recorded with the rest; Monitor is
			// dcimon's own state, not the host's.
			continue
		}
		r.classDomain(c)
		for i := range c.Datums {
			d := &c.Datums[i]
			key := recKey{c, i}
			if _, done := r.byKey[key]; done || d.IsDerived() || d.ID == ns.InvalidDatumID {
				continue
			}
			typ, ok := recType(d)
			if !ok {
				continue
			}
			r.byKey[key] = nil
			all, err := r.describePMDA(c, i)
			if err != nil {
				return err
			}
			if dm := r.domains[c]; all && (dm == nil || !dm.partial) {
				continue // every value of it goes to PMDA metrics
			}
			// Else under dcimon's name too: of a class the PMDA has only some instances of (file
			// systems), every instance, so that a replay of dcimon's recording has them all.
			name := "dcimon." + recPath(c, d)
			for k := 2; r.names[name]; k++ { // a name is one metric's (PMNS)
				name = fmt.Sprintf("%s_%d", strings.TrimSuffix(name, fmt.Sprintf("_%d", k-1)), k)
			}
			r.names[name] = true
			r.items++
			m := &recMetric{class: c, datum: i, typ: typ, name: name,
				pmid: pcparchive.PMID(dcimonDomain, r.items>>10, r.items&0x3ff)}
			if d.PCP.Sem == ns.PMSemDiscrete || d.IsText() {
				m.steady = map[string]ns.Value{}
			}
			indom := uint32(pcparchive.InDomNull)
			if !c.SingleInstance() {
				indom = r.domain(c).indom
			}
			units, err := d.PCP.Units.Pack()
			if err != nil {
				units = 0
			}
			if err := r.w.PutDesc(pcparchive.Desc{PMID: m.pmid, Type: typ, InDom: indom, Sem: recSem(d), Units: units << 8, Names: []string{name}}); err != nil {
				return err
			}
			if d.Help != "" || d.Desc != "" {
				_ = r.w.PutText(pcparchive.Text{Type: 1 | 4, Ident: m.pmid, Text: d.Desc})
				if d.Help != "" {
					_ = r.w.PutText(pcparchive.Text{Type: 2 | 4, Ident: m.pmid, Text: d.Help})
				}
			}
			r.byKey[key] = m
			r.metrics = append(r.metrics, m)
		}
	}
	return nil
}

// classDomain gives a class of the PMDA's the PMDA's instance domain (the disks' 60.1): the
// domain of the metrics its instances are read from.
func (r *Recorder) classDomain(c *ns.Class) {
	if c.SingleInstance() || r.domains[c] != nil {
		return
	}
	r.domain(c) // a domain of dcimon's at least
	for i := range c.Datums {
		for _, t := range r.targets[fmt.Sprintf("%s/%d", c.ID, c.Datums[i].ID.Low())] {
			if m := r.pmda[t.metric]; m != nil && t.inst == 0 && t.fixed == "" && m.indom != pcparchive.InDomNull {
				dm := r.domain(c)
				dm.pmda = m.indom
				dm.partial = t.metric == "filesys.mountdir" || dm.partial
			}
		}
	}
}

// describePMDA writes the descriptors of the PMDA metrics datum i of class c goes to (those not
// written yet) and adds the datum to their sources. It reports whether all of the datum's values
// go to them: a datum read from no PMDA metric, or from one this PMDA has not (the cpu "full"
// pressure of older PMDAs), or in other units, is written under dcimon's name too.
func (r *Recorder) describePMDA(c *ns.Class, i int) (all bool, err error) {
	d := &c.Datums[i]
	ts := r.targets[fmt.Sprintf("%s/%d", c.ID, d.ID.Low())]
	all = len(ts) > 0
	for _, t := range ts {
		m := r.pmda[t.metric]
		conv, ok := recConv(d, t, m, c)
		if ok && t.inst == 0 && t.fixed == "" && !c.SingleInstance() && r.domain(c).pmda != m.indom {
			ok = false // another domain than the class's instances are written in
		}
		if !ok {
			all = false
			continue
		}
		sp := r.special[t.metric]
		if sp == nil {
			if r.names[t.metric] {
				return false, fmt.Errorf("recording: %s is written twice", t.metric)
			}
			r.names[t.metric] = true
			sp = &recSpecial{desc: m, mount: t.metric == "filesys.mountdir"}
			if m.sem == 4 {
				sp.steady = map[int32]pcparchive.OutValue{}
			}
			if sp.mount {
				r.domain(c).device = i // the file systems' instances are named by device, as the PMDA's
			}
			units, err := m.units.Pack()
			if err != nil {
				return false, fmt.Errorf("recording: %s: %w", t.metric, err)
			}
			if err := r.w.PutDesc(pcparchive.Desc{PMID: m.pmid, Type: m.typ, InDom: m.indom, Sem: m.sem, Units: units << 8, Names: []string{t.metric}}); err != nil {
				return false, err
			}
			if m.text != "" { // the PMDA's own words, as pmlogger writes them
				_ = r.w.PutText(pcparchive.Text{Type: 1 | 4, Ident: m.pmid, Text: m.text})
			}
			if !r.pmdaLabel {
				// The PMDA's domain label, as pmlogger records it.
				if err := r.w.PutLabels(r.start, pcparchive.LabelDomain, m.pmid>>22, map[string]string{"agent": "linux"}); err != nil {
					return false, err
				}
				r.pmdaLabel = true
			}
			r.special[t.metric] = sp
			r.order = append(r.order, sp)
		}
		sp.srcs = append(sp.srcs, recSource{class: c, datum: i, t: t, conv: conv})
	}
	return all, nil
}

// recConv is what datum d's value is divided by to be metric m's (target t), or false when the
// datum cannot be written as m: m is not the PMDA's, its units are of another dimension, or its
// instances are not the class's.
func recConv(d *ns.Datum, t recTarget, m *pmdaDesc, c *ns.Class) (float64, bool) {
	switch {
	case m == nil:
		return 0, false
	case t.inst != 0:
		if m.indom == pcparchive.InDomNull || !slices.ContainsFunc(m.insts, func(in pmdaInst) bool { return int64(in.id) == t.inst }) {
			return 0, false
		}
	case t.fixed != "" || c.SingleInstance():
		if m.indom != pcparchive.InDomNull {
			return 0, false
		}
	case m.indom == pcparchive.InDomNull:
		return 0, false
	}
	if m.typ == pcparchive.TypeString || d.IsText() {
		return 1, m.typ == pcparchive.TypeString && d.IsText()
	}
	if t.mult != 0 {
		return t.mult, true
	}
	f, err := ns.ConvScale(1, m.units, d.PCP.Units)
	if err != nil || f <= 0 {
		return 0, false
	}
	return f, true
}

// recSem is a datum's PCP semantics as an archive's number.
func recSem(d *ns.Datum) int32 {
	switch d.PCP.Sem {
	case ns.PMSemCounter:
		return 1
	case ns.PMSemDiscrete:
		return 4
	}
	return 3
}

// recordSpecials adds the values of the PMDA metrics (describePMDA) to sets. whole says the
// record is one a seek starts at: every discrete value is in it.
func (r *Recorder) recordSpecials(reg *ns.Registry, snap *ns.Snapshot, t time.Time, whole bool, sets []pcparchive.OutSet) ([]pcparchive.OutSet, error) {
	for _, sp := range r.order {
		m := sp.desc
		if len(m.insts) > 0 && !sp.written {
			// Its fixed instances, named as the PMDA names them: written once, before its values.
			var ids []int32
			var names []string
			for _, in := range m.insts {
				ids, names = append(ids, in.id), append(names, in.name)
			}
			if err := r.w.PutInDom(pcparchive.InDom{Time: t, InDom: m.indom, Instances: ids, Names: names}); err != nil {
				return sets, err
			}
			sp.written = true
		}
		set := pcparchive.OutSet{PMID: m.pmid, Values: sp.vals[:0]}
		for _, src := range sp.srcs {
			insts, ok := r.instances(reg, src.class)
			if !ok {
				continue
			}
			cv := snap.Class(src.class)
			for _, in := range insts {
				if src.t.fixed != "" && in.Name != src.t.fixed {
					continue
				}
				v, ok := cv.Value(in, src.datum)
				if !ok || (v.State != ns.Valid && v.State != ns.NoRate) {
					continue // not read: no value, never a 0
				}
				inst := int32(-1)
				switch {
				case src.t.inst != 0:
					inst = int32(src.t.inst)
				case m.indom != pcparchive.InDomNull:
					dm := r.domains[src.class]
					if dm.outside[in.Name] {
						continue // not an instance of the PMDA's domain
					}
					inst = dm.ids[in.Name]
				}
				ov := pcparchive.OutValue{Inst: inst}
				x := toFloat(&src.class.Datums[src.datum], v.N) / src.conv
				switch {
				case sp.mount:
					ov.S = strings.ReplaceAll(in.Name, "∕", "/") // FSName's inverse: the mount point
				case m.typ == pcparchive.TypeString:
					ov.S = v.S
				case m.typ == pcparchive.TypeFloat || m.typ == pcparchive.TypeDouble:
					ov.F = x
				case m.typ == pcparchive.TypeU32 || m.typ == pcparchive.Type32:
					// The PMDA's 32-bit metrics wrap at 2^32, as the kernel's counters do.
					ov.N = uint64(uint32(uint64(math.Floor(x))))
				default:
					ov.N = uint64(math.Floor(x)) // as the PMDA divides: Kbyte = sectors / 2
				}
				if sp.steady != nil {
					if old, ok := sp.steady[inst]; ok && !whole && old == ov {
						continue // as written before: the reader has it
					}
					sp.steady[inst] = ov
				}
				set.Values = append(set.Values, ov)
			}
		}
		sp.vals = set.Values
		if len(set.Values) > 0 {
			sets = append(sets, set)
		}
	}
	return sets, nil
}

// toFloat is a raw number of datum d as a float, signed types by their sign.
func toFloat(d *ns.Datum, n uint64) float64 {
	switch d.Type {
	case ns.TypeInt4:
		return float64(int32(n))
	case ns.TypeInt8:
		return float64(int64(n))
	}
	return float64(n)
}

// recPath is a datum's dcimon.* name: its class's path and its name, dots for slashes, and
// only the characters PCP's names allow.
func recPath(c *ns.Class, d *ns.Datum) string { return recPathIn(c.Context().Path(), c, d) }

// recPathIn is recPath for a class whose context's path is p.
func recPathIn(p string, c *ns.Class, d *ns.Datum) string {
	if p == "" {
		p = c.Name
	} else if !c.SingleInstance() || c.Totals {
		p += "/" + c.Name // its context is another class's (disks and partitions share Disk)
	}
	clean := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			switch {
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
				b.WriteRune(r)
			case r == '/':
				b.WriteByte('.')
			default:
				b.WriteByte('_')
			}
		}
		return b.String()
	}
	out := clean(p) + "." + clean(d.Name)
	if out != "" && out[0] >= '0' && out[0] <= '9' {
		out = "m" + out
	}
	return out
}

func (r *Recorder) domain(c *ns.Class) *recInDom {
	dm := r.domains[c]
	if dm == nil {
		dm = &recInDom{indom: pcparchive.InDomOf(dcimonDomain, uint32(len(r.domains)+1)), ids: map[string]int32{}}
		r.domains[c] = dm
	}
	return dm
}

// Record writes one snapshot: the descriptors of classes not seen before, each instance domain
// whose instances changed, and one record of every value read.
func (r *Recorder) Record(reg *ns.Registry, snap *ns.Snapshot) error {
	if err := r.describe(reg); err != nil {
		return err
	}
	t := snap.End
	r.noteGeneration(reg)
	// Instance domains first: a record's instances are always named before it.
	for c, dm := range r.domains {
		if err := r.writeDomain(reg, snap, c, dm, t); err != nil {
			return err
		}
	}
	// The sets and their values are written by PutResult before Record returns, and kept by
	// nothing: their arrays serve the next record.
	whole := r.w.IndexNext() // a record a seek starts at: every value in it
	sets, err := r.recordSpecials(reg, snap, t, whole, r.metricSets(reg, snap, whole))
	if err != nil {
		return err
	}
	r.sets = sets
	return r.w.PutResult(t, sets)
}

// noteGeneration forgets the classes' instances looked up and the domains written when the
// registry's generation moved: classes and instances change only with it.
func (r *Recorder) noteGeneration(reg *ns.Registry) {
	g := reg.Generation()
	if r.live != nil && reg == r.liveReg && g == r.liveGen {
		return
	}
	if r.live == nil {
		r.live = map[*ns.Class][]*ns.Instance{}
	}
	clear(r.live)
	r.liveReg, r.liveGen = reg, g
	for _, dm := range r.domains {
		dm.seen = false
	}
}

// metricSets are the value sets of the snapshot's metrics, in the recorder's reused arrays; a
// set with no value is left out. whole says the record is one a seek starts at.
func (r *Recorder) metricSets(reg *ns.Registry, snap *ns.Snapshot, whole bool) []pcparchive.OutSet {
	sets := r.sets[:0]
	var (
		class *ns.Class // the metrics of one class come one after another: looked up once
		cv    *ns.ClassValues
		insts []*ns.Instance
	)
	for _, m := range r.metrics {
		if m == nil {
			continue
		}
		if m.class != class {
			class, cv, insts = m.class, nil, nil
			if in, ok := r.instances(reg, class); ok {
				cv, insts = snap.Class(class), in
			}
		}
		if cv == nil {
			continue
		}
		set := r.metricSet(m, cv, insts, whole)
		if len(set.Values) > 0 {
			sets = append(sets, set)
		}
	}
	return sets
}

// metricSet is metric m's values of the instances read: not read, no value (never a 0); a
// steady metric's value as written before is left out but where a seek starts.
func (r *Recorder) metricSet(m *recMetric, cv *ns.ClassValues, insts []*ns.Instance, whole bool) pcparchive.OutSet {
	set := pcparchive.OutSet{PMID: m.pmid, Values: m.vals[:0]}
	for _, in := range insts {
		v, ok := cv.Value(in, m.datum)
		if !ok || (v.State != ns.Valid && v.State != ns.NoRate) {
			continue
		}
		if m.steady != nil {
			if old, ok := m.steady[in.Name]; ok && !whole && old.N == v.N && old.S == v.S {
				continue // as written before: the reader has it
			}
			m.steady[in.Name] = v
		}
		inst := int32(-1)
		if !m.class.SingleInstance() {
			inst = r.domains[m.class].ids[in.Name]
		}
		ov := pcparchive.OutValue{Inst: inst, N: v.N, S: v.S}
		if (m.typ == pcparchive.TypeString || m.typ == pcparchive.TypeAggr) && len(ov.S) > math.MaxUint16 {
			ov.S = ov.S[:math.MaxUint16]
		}
		set.Values = append(set.Values, ov)
	}
	m.vals = set.Values
	return set
}

// VolumeSize is how many bytes the data volume being written holds.
func (r *Recorder) VolumeSize() int64 { return r.w.VolumeSize() }

// NewVolume begins the archive's next data volume, and returns the number of the one closed.
func (r *Recorder) NewVolume() (int, error) { return r.w.NewVolume() }

// Close ends the archive at end (the last record's time).
func (r *Recorder) Close(end time.Time) error { return r.w.CloseAt(end) }
