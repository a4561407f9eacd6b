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
// mapping table (pcpMapping) reads from a Linux PMDA metric is written under that metric's name,
// so that the same table reads it back and PCP's tools know it; the rest under dcimon.<path>
// names. Each metric's descriptor is its datum's PCP view (type, semantics, units), and values
// are written as the datum holds them, so that any PCP tool computes the same quantities. A datum
// the table reads otherwise (recSpecials: with a factor of its own, from one instance of a metric
// as the load averages, from a metric per instance as pressure, or file systems named by a
// metric of their own) is written as the Linux PMDA has it, with the PMDA's type and units, so
// that the table reads it back the same way.
type Recorder struct {
	w       *pcparchive.Writer
	metrics []*recMetric
	byKey   map[recKey]*recMetric
	domains map[*ns.Class]*recInDom
	items   uint32
	owns    uint32 // instance domains of special metrics' own
	names   map[string]bool
	// gen is the registry generation described last (described: once at least).
	gen       uint64
	described bool
	// linux are the Linux PMDA metrics the mapping reads datums from as they are (pcpNames),
	// by class id and datum; specials are the datums written as the Linux PMDA has them but
	// not as they are (recSpecials), and special the PCP metrics they make.
	linux    map[string]string
	specials map[string][]recTarget
	special  map[string]*recSpecial
	order    []*recSpecial
}

// recTarget is where one datum of a class goes in a PCP metric: an instance of it (0: the
// metric's only value, or the class's own instances), divided by mult; for a class with fixed
// instances (pressure), the instance of the class it is read from.
type recTarget struct {
	metric string
	inst   int64
	mult   float64
	fixed  string
}

// recSpecial is a PCP metric made of recTargets: its descriptor, and its values' sources.
type recSpecial struct {
	name    string
	pmid    uint32
	typ     int32
	indom   uint32 // pcparchive.InDomNull, the class's, or its own (instances by recTarget.inst)
	own     bool   // its own instance domain, written once
	srcs    []recSource
	mount   bool // filesys.mountdir: each file system's mount point
	written bool
}

type recSource struct {
	class *ns.Class
	datum int
	t     recTarget
}

// pcpDescOf are the Linux PMDA's descriptors of the metrics the recorder writes other than as a
// datum holds them (type, semantics, units), so that PCP's tools read them as pmlogger's.
var pcpDescOf = map[string]struct {
	typ   int32
	sem   int32
	units ns.PMUnits
}{
	"kernel.all.load":    {pcparchive.TypeFloat, 3, ns.PMUnits{}},
	"kernel.all.uptime":  {pcparchive.TypeU32, 3, ns.PMUnits{DimTime: 1, ScaleTime: ns.PMTimeSec}},
	"mem.vmstat.pgpgin":  {pcparchive.TypeU64, 1, ns.PMUnits{DimCount: 1}},
	"mem.vmstat.pgpgout": {pcparchive.TypeU64, 1, ns.PMUnits{DimCount: 1}},
	"pressure.avg":       {pcparchive.TypeFloat, 3, ns.PMUnits{}}, // kernel.all.pressure.*.*.avg
	"filesys.mountdir":   {pcparchive.TypeString, 4, ns.PMUnits{}},
}

// loadInst names kernel.all.load's instances as the Linux PMDA does.
func loadInst(metric string, inst int64) string {
	switch {
	case metric == "kernel.all.load":
		return fmt.Sprintf("%d minute", inst)
	case strings.HasSuffix(metric, ".avg"):
		return fmt.Sprintf("%d second", inst)
	}
	return fmt.Sprint(inst)
}

// recSpecials are the datums the mapping table reads other than as they are, by class id and
// datum: from an instance of a metric, with a factor, per fixed instance, or of a class named by
// a metric (file systems, whose filesys.mountdir is written too).
func recSpecials() map[string][]recTarget {
	_, classes := pcpMapping(1, 0)
	out := map[string][]recTarget{}
	for _, pc := range classes {
		for _, m := range pc.Datums {
			if m.Metric == schema.MetricClock || m.Metric == schema.MetricConst || m.Check != nil {
				continue
			}
			simple := pc.Fixed == nil && pc.NameMetric == "" && m.Inst == 0 && (m.Mult == 0 || m.Mult == 1)
			if simple {
				continue // pcpNames
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

// dcimonDomain is the PMDA domain number of the metrics dcimon writes (510: the first of the
// end-user PMDAs' range, 385-510, in PCP's stdpmid; 511 is the dynamic name space's, where
// pmdumplog finds derived metrics' names).
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
}

// recInDom is a class's instance domain: its number and the instances last written, by name.
type recInDom struct {
	device int // > 0: the datum whose value names an instance (a file system's device; never the first)
	indom  uint32
	ids    map[string]int32
	next   int32
	names  string // the last written set, to write it again only when it changes
}

// NewRecorder starts an archive at base for host, its first sample at start. labels are the
// context's (hostname, machineid: what pmlogger records of its pmcd); none when nil.
func NewRecorder(base string, version int, host string, start time.Time, labels map[string]string) (*Recorder, error) {
	zone, _ := start.Zone()
	w, err := pcparchive.Create(base, version, pcparchive.Label{PID: int32(os.Getpid()), Start: start, Host: host, TZ: zone,
		Zoneinfo: ":" + start.Location().String()})
	if err != nil {
		return nil, err
	}
	if len(labels) > 0 {
		if err := w.PutLabels(start, pcparchive.LabelContext, 0, labels); err != nil {
			w.Close()
			return nil, err
		}
	}
	return &Recorder{w: w, byKey: map[recKey]*recMetric{}, domains: map[*ns.Class]*recInDom{}, names: map[string]bool{},
		linux: pcpNames(), specials: recSpecials(), special: map[string]*recSpecial{}}, nil
}

// pcpNames are the Linux PMDA metric each datum of the mapped classes is read from, where the
// table reads it as it is (by the class's id and the datum's low byte).
func pcpNames() map[string]string {
	_, classes := pcpMapping(1, 0)
	out := map[string]string{}
	for _, pc := range classes {
		if pc.Fixed != nil || pc.NameMetric != "" {
			continue
		}
		for _, m := range pc.Datums {
			if m.Metric == schema.MetricClock || m.Metric == schema.MetricConst || m.Inst != 0 || (m.Mult != 0 && m.Mult != 1) || m.Check != nil {
				continue
			}
			out[fmt.Sprintf("%s/%d", pc.Class.ID, m.Datum)] = m.Metric
		}
	}
	return out
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
			if ts := r.specials[fmt.Sprintf("%s/%d", c.ID, d.ID.Low())]; ts != nil {
				if err := r.describeSpecial(c, i, ts); err != nil {
					return err
				}
				r.byKey[key] = nil // written through its PCP metric
				continue
			}
			name, pcp := r.linux[fmt.Sprintf("%s/%d", c.ID, d.ID.Low())]
			if !pcp {
				name = "dcimon." + recPath(c, d)
			}
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
			sem := int32(3)
			switch d.PCP.Sem {
			case ns.PMSemCounter:
				sem = 1
			case ns.PMSemDiscrete:
				sem = 4
			}
			if err := r.w.PutDesc(pcparchive.Desc{PMID: m.pmid, Type: typ, InDom: indom, Sem: sem, Units: units << 8, Names: []string{name}}); err != nil {
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

// describeSpecial writes the descriptors of the PCP metrics datum i of class c goes to (those
// not written yet), and adds the datum to their sources.
func (r *Recorder) describeSpecial(c *ns.Class, i int, ts []recTarget) error {
	d := &c.Datums[i]
	for _, t := range ts {
		sp := r.special[t.metric]
		if sp == nil {
			sp = &recSpecial{name: t.metric, indom: pcparchive.InDomNull, mount: t.metric == "filesys.mountdir"}
			desc, known := pcpDescOf[t.metric]
			if strings.HasPrefix(t.metric, "kernel.all.pressure.") && strings.HasSuffix(t.metric, ".avg") {
				desc, known = pcpDescOf["pressure.avg"], true
			}
			if !known {
				typ, _ := recType(d)
				desc.typ, desc.units, desc.sem = typ, d.PCP.Units, recSem(d)
			}
			sp.typ = desc.typ
			switch {
			case t.inst != 0:
				sp.own = true
				r.owns++
				sp.indom = pcparchive.InDomOf(dcimonDomain, 1<<20+r.owns) // apart from the classes' domains
			case !c.SingleInstance() && t.fixed == "":
				dm := r.domain(c)
				sp.indom = dm.indom
				if sp.mount {
					dm.device = i // the file systems' instances are named by device, as the PMDA's
				}
			}
			if r.names[t.metric] {
				return fmt.Errorf("recording: %s is written twice", t.metric)
			}
			r.names[t.metric] = true
			r.items++
			sp.pmid = pcparchive.PMID(dcimonDomain, r.items>>10, r.items&0x3ff)
			units, err := desc.units.Pack()
			if err != nil {
				units = 0
			}
			if err := r.w.PutDesc(pcparchive.Desc{PMID: sp.pmid, Type: sp.typ, InDom: sp.indom, Sem: desc.sem, Units: units << 8, Names: []string{t.metric}}); err != nil {
				return err
			}
			if d.Desc != "" && !sp.mount {
				_ = r.w.PutText(pcparchive.Text{Type: 1 | 4, Ident: sp.pmid, Text: d.Desc})
			}
			r.special[t.metric] = sp
			r.order = append(r.order, sp)
		}
		sp.srcs = append(sp.srcs, recSource{class: c, datum: i, t: t})
	}
	return nil
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

// recordSpecials adds the values of the special metrics (describeSpecial) to sets.
func (r *Recorder) recordSpecials(reg *ns.Registry, snap *ns.Snapshot, t time.Time, sets []pcparchive.OutSet) ([]pcparchive.OutSet, error) {
	for _, sp := range r.order {
		if sp.own && !sp.written {
			// Its own instances, named as the PMDA names them: written once, before its values.
			var ids []int32
			var names []string
			for _, src := range sp.srcs {
				if id := int32(src.t.inst); !slices.Contains(ids, id) {
					ids, names = append(ids, id), append(names, loadInst(sp.name, src.t.inst))
				}
			}
			if err := r.w.PutInDom(pcparchive.InDom{Time: t, InDom: sp.indom, Instances: ids, Names: names}); err != nil {
				return sets, err
			}
			sp.written = true
		}
		set := pcparchive.OutSet{PMID: sp.pmid}
		for _, src := range sp.srcs {
			if reg.Class(src.class.ID) != src.class {
				continue
			}
			cv := snap.Class(src.class)
			for _, in := range reg.Instances(src.class) {
				if src.t.fixed != "" && in.Name != src.t.fixed {
					continue
				}
				v, ok := cv.Value(in, src.datum)
				if !ok || (v.State != ns.Valid && v.State != ns.NoRate) {
					continue // not read: no value, never a 0
				}
				inst := int32(-1)
				switch {
				case sp.own:
					inst = int32(src.t.inst)
				case sp.indom != pcparchive.InDomNull:
					inst = r.domains[src.class].ids[in.Name]
				}
				ov := pcparchive.OutValue{Inst: inst}
				switch {
				case sp.mount:
					ov.S = strings.ReplaceAll(in.Name, "∕", "/") // fsName's inverse: the mount point
				case sp.typ == pcparchive.TypeFloat || sp.typ == pcparchive.TypeDouble:
					ov.F = float64(v.N)
					if src.t.mult > 1 {
						ov.F /= src.t.mult
					}
				case src.t.mult > 1:
					ov.N = uint64(math.Round(float64(v.N) / src.t.mult))
				default:
					ov.N = v.N
				}
				set.Values = append(set.Values, ov)
			}
		}
		if len(set.Values) > 0 {
			sets = append(sets, set)
		}
	}
	return sets, nil
}

// recPath is a datum's dcimon.* name: its class's path and its name, dots for slashes, and
// only the characters PCP's names allow.
func recPath(c *ns.Class, d *ns.Datum) string {
	p := c.Context().Path()
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
	// Instance domains first: a record's instances are always named before it.
	for c, dm := range r.domains {
		if reg.Class(c.ID) != c {
			continue // the class has gone
		}
		var ids []int32
		var names []string
		cv := snap.Class(c)
		for _, in := range reg.Instances(c) {
			id, ok := dm.ids[in.Name]
			if !ok {
				id = dm.next
				dm.next++
				dm.ids[in.Name] = id
			}
			name := in.Name
			if dm.device > 0 {
				// Named by its device as the PMDA does; a device mounted twice by both.
				if v, ok := cv.Value(in, dm.device); ok && v.State == ns.Valid && v.S != "" {
					name = v.S
					if slices.Contains(names, name) {
						name += " " + strings.ReplaceAll(in.Name, "∕", "/")
					}
				}
			}
			ids, names = append(ids, id), append(names, name)
		}
		if joined := strings.Join(names, "\x00"); joined != dm.names {
			dm.names = joined
			if err := r.w.PutInDom(pcparchive.InDom{Time: t, InDom: dm.indom, Instances: ids, Names: names}); err != nil {
				return err
			}
		}
	}
	var sets []pcparchive.OutSet
	whole := r.w.IndexNext() // a record a seek starts at: every value in it
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
			if reg.Class(class.ID) == class {
				cv, insts = snap.Class(class), reg.Instances(class)
			}
		}
		if cv == nil {
			continue
		}
		set := pcparchive.OutSet{PMID: m.pmid}
		for _, in := range insts {
			v, ok := cv.Value(in, m.datum)
			if !ok || (v.State != ns.Valid && v.State != ns.NoRate) {
				continue // not read: no value, never a 0
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
		if len(set.Values) > 0 {
			sets = append(sets, set)
		}
	}
	sets, err := r.recordSpecials(reg, snap, t, sets)
	if err != nil {
		return err
	}
	return r.w.PutResult(t, sets)
}

// VolumeSize is how many bytes the data volume being written holds.
func (r *Recorder) VolumeSize() int64 { return r.w.VolumeSize() }

// NewVolume begins the archive's next data volume, and returns the number of the one closed.
func (r *Recorder) NewVolume() (int, error) { return r.w.NewVolume() }

// Close ends the archive at end (the last record's time).
func (r *Recorder) Close(end time.Time) error { return r.w.CloseAt(end) }
