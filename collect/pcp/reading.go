package pcp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
	"dcimon/pmproxy"
)

// read fills one class from a fetch: a class of fixed instances, one of a single instance, or
// one whose instances are those the host has (readInstances).
func (h *pcpHost) read(ctx context.Context, pc pcpClass, f *pmproxy.Fetched) collect.ClassReading {
	// The sampler is done with the last reading's slices before it asks for the next one: each
	// class's are kept and filled again (issue 31: a thousand hosts a second).
	bf := h.bufsOf(pc.Class)
	switch {
	case pc.Fixed != nil:
		return h.readFixed(pc, bf, f)
	case pc.InstOf == nil:
		return h.readSingle(pc, bf, f)
	}
	return h.readInstances(ctx, pc, bf, f)
}

// readFixed fills a class of fixed instances (pc.Fixed): each one the host has a metric of.
func (h *pcpHost) readFixed(pc pcpClass, bf *pcpBufs, f *pmproxy.Fetched) collect.ClassReading {
	c := pc.Class
	nd := len(c.Datums)
	if bf.fixed == nil {
		for i, r := range pc.Fixed {
			bf.fixed = append(bf.fixed, ns.InstanceSpec{Levels: []uint64{uint64(i)}, OSName: r, ASN: uint16(i + 1)})
		}
	}
	specs, raw := bf.sorted[:0], bf.raw[:0]
	for i := range pc.Fixed {
		if _, known := h.descs[pc.perFixed[i][0].Metric]; !known {
			continue // this kernel has no such resource
		}
		specs = append(specs, bf.fixed[i])
		raw = slices.Grow(raw, nd)[:len(raw)+nd]
		h.recRow(len(raw) - nd)
		h.fillRowFrom(raw[len(raw)-nd:], pc, pc.perFixed[i], f, -1)
	}
	bf.sorted, bf.raw = specs, raw
	return collect.ClassReading{Class: c, Specs: specs, Raw: raw, Err: h.takeValueErr()}
}

// readSingle fills a class of one instance.
func (h *pcpHost) readSingle(pc pcpClass, bf *pcpBufs, f *pmproxy.Fetched) collect.ClassReading {
	nd := len(pc.Class.Datums)
	if len(bf.sorted) != 1 {
		bf.sorted = schema.SingleSpecs()
	}
	bf.raw = slices.Grow(bf.raw[:0], nd)[:nd]
	h.recRow(0)
	h.fillRow(bf.raw, pc, f, -1)
	return collect.ClassReading{Class: pc.Class, Specs: bf.sorted, Raw: bf.raw, Err: h.takeValueErr()}
}

// readInstances fills a class whose instances are those the host has: the same as at the last
// reading when nothing about them changed, else found again, named, sorted and noted.
func (h *pcpHost) readInstances(ctx context.Context, pc pcpClass, bf *pcpBufs, f *pmproxy.Fetched) collect.ClassReading {
	present := h.presentMetrics(pc, bf)
	if cr, none := h.noInstances(pc, present, f); none {
		return cr
	}
	if len(present) == 0 {
		present = []string{pc.Datums[0].Metric}
	}
	first := present[0]
	byPlace := pc.NameMetric == "" && pc.Parent == nil && pc.StartMetric == ""
	if byPlace && bf.sameInstances(h, present, f) {
		// The instances of the last reading, in the same places of the same metrics, named by
		// the same names (which had every one of them): its specs and order stand, and only the
		// values are read (issue 38 item 2: no map by name or by instance for a host whose
		// instances did not change).
		return h.fillInstances(pc, bf, h.instNm[first], f)
	}
	names, err := h.instanceNames(ctx, first, f)
	if err != nil {
		return h.keepInError(pc, err)
	}
	if err := h.unnamed(pc, first, names, f); err != nil {
		return h.keepInError(pc, err)
	}
	parents, err := h.parentsNow(ctx, pc, bf, present, f)
	if err != nil {
		return h.keepInError(pc, err)
	}
	s := specMaker{h: h, pc: pc, bf: bf, f: f, names: names, parents: parents, nameMetric: h.nameMetric(pc)}
	specs, ids, poss := s.instances(present)
	h.startLevels(pc, specs, ids, f)
	bf.specs, bf.ids, bf.poss = specs, ids, poss
	bf.sortSpecs()
	if byPlace {
		bf.noteInstances(h, present, f)
	}
	return h.fillInstances(pc, bf, names, f)
}

// fillInstances reads the values of a class's instances as the buffers have them (sorted, in
// order: which instance of the fetch each is, and where).
func (h *pcpHost) fillInstances(pc pcpClass, bf *pcpBufs, names map[int64]string, f *pmproxy.Fetched) collect.ClassReading {
	c := pc.Class
	nd := len(c.Datums)
	raw := slices.Grow(bf.raw[:0], nd*len(bf.sorted))[:nd*len(bf.sorted)]
	bf.raw = raw
	cols, vals := h.plan(pc, pc.Datums, f)
	text := -1
	if pc.InstText != 0 {
		text = c.DatumIndex(ns.DatumID(pc.InstText))
	}
	for i, j := range bf.order {
		row := raw[i*nd : (i+1)*nd]
		h.recRow(i * nd)
		h.fillPlanned(row, pc, cols, vals, f, bf.ids[j], bf.poss[j])
		if text >= 0 {
			row[text] = ns.RawS(ns.Clip(names[bf.ids[j]], 255))
		}
	}
	return collect.ClassReading{Class: c, Specs: bf.sorted, Raw: raw, Err: h.takeValueErr()}
}

// noteInstances keeps which instances, in which places, each of the present metrics had in the
// fetch the buffers' specs were made from, and under which descriptors and instance names.
func (bf *pcpBufs) noteInstances(h *pcpHost, present []string, f *pmproxy.Fetched) {
	bf.lastIDs, bf.lastLens, bf.noted = bf.lastIDs[:0], bf.lastLens[:0], false
	for _, m := range present {
		vs := f.Get(m)
		for _, v := range vs {
			if v.Instance != int64(int32(v.Instance)) {
				return // not PCP's 32-bit instance numbers: never taken as the same
			}
			bf.lastIDs = append(bf.lastIDs, int32(v.Instance))
		}
		bf.lastLens = append(bf.lastLens, len(vs))
	}
	bf.lastGen, bf.lastNames, bf.noted = h.descsGen, h.namesGen, true
}

// sameInstances says the fetch has the instances of the one the buffers' specs were made from:
// under the same descriptors and instance names, each present metric with the same instances in
// the same places. The instance names of the fetch's first metric are read already.
func (bf *pcpBufs) sameInstances(h *pcpHost, present []string, f *pmproxy.Fetched) bool {
	if !bf.noted || bf.lastGen != h.descsGen || bf.lastNames != h.namesGen || len(bf.lastLens) != len(present) {
		return false
	}
	at := 0
	for i, m := range present {
		vs := f.Get(m)
		if len(vs) != bf.lastLens[i] {
			return false
		}
		for _, v := range vs {
			if int64(bf.lastIDs[at]) != v.Instance {
				return false
			}
			at++
		}
	}
	return true
}

// unnamed says which instance of the fetch the instance domain names not: a malformed answer,
// never disks that went (issue 31). Processes come and go between the fetch and the reading of
// their names: one gone by then is left out (issue 40 item 5).
func (h *pcpHost) unnamed(pc pcpClass, first string, names map[int64]string, f *pmproxy.Fetched) error {
	if pc.Class.Churn {
		return nil
	}
	for _, v := range f.Get(first) {
		if _, known := names[v.Instance]; !known {
			return fmt.Errorf("%s: instance %d of %s is not in its instance domain on %s (%d instances named)",
				h.sup.Module, v.Instance, first, h.opt.Hostspec, len(names))
		}
	}
	return nil
}

// keepInError is a reading of a class whose instances could not be told this time: the
// instances of the last good reading stay, every value in error with err, rather than vanish
// as if they had gone.
func (h *pcpHost) keepInError(pc pcpClass, err error) collect.ClassReading {
	bf := h.bufsOf(pc.Class)
	nd := len(pc.Class.Datums)
	raw := make([]ns.Raw, nd*len(bf.sorted))
	for i := range raw {
		raw[i] = ns.RawNA(ns.ReasonProviderError)
	}
	return collect.ClassReading{Class: pc.Class, Specs: slices.Clone(bf.sorted), Raw: raw, Err: err}
}

// takeValueErr is the first value of a class's reading that could not be read, and forgets it.
func (h *pcpHost) takeValueErr() error {
	err := h.valueErr
	h.valueErr = nil
	return err
}

// pcpBufs are one class's buffers, kept from one reading to the next: its raw values, its
// instances' specs (each made once while its name stays), the scratch of ordering them, the
// metrics of the class the host has (for a set of descriptors, presentOf), and its instances'
// last invalid-data list.
type pcpBufs struct {
	raw           []ns.Raw
	specs, sorted []ns.InstanceSpec
	fixed         []ns.InstanceSpec // a fixed class's every instance
	ids           []int64
	poss, order   []int
	known         map[string]ns.InstanceSpec
	named         map[string]namedSpec // instances named by a metric: by their PCP name
	parents       map[string]int64
	seen          map[int64]bool
	present       []string
	presentOf     uint64
	invIDs        []ns.DatumID
	invText       string
	// What the specs were made from (noteInstances): each present metric's instances in the
	// fetch's order (lastIDs, lastLens each metric's count), under descriptors lastGen and
	// instance names lastNames.
	lastIDs            []int32
	lastLens           []int
	lastGen, lastNames uint64
	noted              bool
}

// namedSpec is an instance's spec made from the name a metric gave it (a file system's mount
// point), kept while that name stays.
type namedSpec struct {
	text string
	sp   ns.InstanceSpec
}

func (h *pcpHost) bufsOf(c *ns.Class) *pcpBufs {
	if h.bufs == nil {
		h.bufs = map[*ns.Class]*pcpBufs{}
	}
	b := h.bufs[c]
	if b == nil {
		b = &pcpBufs{known: map[string]ns.InstanceSpec{}}
		h.bufs[c] = b
	}
	return b
}

// instanceNames are the names of the instances of metric's domain, read again when a fetch has
// an instance not seen before (a processor brought online).
func (h *pcpHost) instanceNames(ctx context.Context, metric string, f *pmproxy.Fetched) (map[int64]string, error) {
	names := h.instNm[metric]
	fresh := names != nil
	for _, v := range f.Get(metric) {
		if _, ok := names[v.Instance]; !ok {
			fresh = false
			break
		}
	}
	if fresh {
		return names, nil
	}
	d, ok := h.descs[metric]
	if !ok || d.InDom == "" {
		return nil, fmt.Errorf("%s: %s has no instance domain on %s", h.sup.Module, metric, h.opt.Hostspec)
	}
	insts, err := h.x.InDom(ctx, d.InDom)
	if err != nil {
		return nil, err
	}
	names = make(map[int64]string, len(insts))
	for _, in := range insts {
		names[in.ID] = in.Name
	}
	h.instNm[metric] = names
	h.namesGen++
	return names, nil
}

// fillRow fills one instance's raw values (inst -1 for a single-instance class). A datum the
// table does not map, or whose metric the host lacks, is on the instance's invalid-data list
// (DCI-INV-1) where the class keeps one, else not supported; a value that is not a number of the
// datum's kind is a provider error; none is ever 0.
func (h *pcpHost) fillRow(row []ns.Raw, pc pcpClass, f *pmproxy.Fetched, inst int64) {
	h.fillRowFrom(row, pc, pc.Datums, f, inst)
}

// fillRowFrom is fillRow from the given datums (a fixed instance's, its metrics named).
func (h *pcpHost) fillRowFrom(row []ns.Raw, pc pcpClass, datums []pcpDatum, f *pmproxy.Fetched, inst int64) {
	cols, vals := h.plan(pc, datums, f)
	h.fillPlanned(row, pc, cols, vals, f, inst, -1)
}

// pcpCol is how one datum of a class is read from a fetch, worked out once for all its
// instances and fetches: the datum's place in the class, its metric, type and factor (its
// metric's values in a fetch are beside it, plan's second result).
type pcpCol struct {
	at     int // the datum's index in the class
	metric string
	typ    string
	mult   float64
	kind   uint8
	inst   int64
	check  func(ns.Raw) ns.Raw
	long   bool // text kept to schema.MaxCmdline, not HostTextSize (a process's command line)
}

// plan works out how each of datums is read from f: the columns once per context for the class
// (the descriptors and factors do not change within one; hosts whose pmcds said the same share
// them, sharedPlan), and each column's values in f, in the host's scratch (valid until the next
// plan).
func (h *pcpHost) plan(pc pcpClass, datums []pcpDatum, f *pmproxy.Fetched) ([]pcpCol, [][]pmproxy.Value) {
	key := &datums[0]
	if h.plans == nil {
		h.plans = map[*pcpDatum][]pcpCol{}
	}
	cols, ok := h.plans[key]
	if !ok {
		cols = h.sharedPlan(pc, datums)
		h.plans[key] = cols
	}
	vals := slices.Grow(h.colVals[:0], len(cols))[:len(cols)]
	for i := range cols {
		vals[i] = nil
		if cols[i].kind == colValue {
			vals[i] = f.Get(cols[i].metric)
		}
	}
	h.colVals = vals
	return cols, vals
}

// planOnce is plan's part that depends on the context alone.
func (h *pcpHost) planOnce(pc pcpClass, datums []pcpDatum) []pcpCol {
	cols := make([]pcpCol, 0, len(datums))
	for _, m := range datums {
		i := pc.Class.DatumIndex(ns.DatumID(m.Datum))
		if i < 0 {
			continue
		}
		c := pcpCol{at: i, metric: m.Metric, mult: m.Mult, inst: m.Inst, check: m.Check, long: pc.Class.Churn}
		switch m.Metric {
		case schema.MetricClock:
			c.kind = colClock
		case schema.MetricConst:
			c.kind = colConst
		default:
			desc, known := h.descs[m.Metric]
			switch {
			case !known:
				c.kind = colMissing // the host's PMDA has no such metric (an older kernel, another OS)
			case c.mult == 0:
				var ok bool
				if c.mult, ok = h.factor(m.Metric, desc.Units, pc.Class.Datums[i].PCP.Units); !ok {
					c.kind = colNoFactor
				}
			}
			c.typ = desc.Type
		}
		cols = append(cols, c)
	}
	if h.archive != nil && pc.Fixed == nil {
		cols = h.archive.ownColumns(pc, cols)
	}
	return cols
}

// fillPlanned fills one instance's raw values by cols; pos, when not -1, is where the instance
// usually is in each metric's values (the metrics of one domain list their instances alike).
func (h *pcpHost) fillPlanned(row []ns.Raw, pc pcpClass, cols []pcpCol, vals [][]pmproxy.Value, f *pmproxy.Fetched, inst int64, pos int) {
	missing := ns.RawNA(ns.ReasonNotSupported)
	listAt := pc.Class.DatumIndex(ns.InvalidDatumID)
	if listAt >= 0 {
		missing = ns.RawInvalidData()
	}
	for i := range row {
		row[i] = missing
	}
	for k := range cols {
		c := &cols[k]
		if h.fillFixed(row, c, f) {
			continue
		}
		h.fillValue(row, c, vals[k], f, inst, pos)
	}
	if listAt >= 0 {
		h.fillInvalidList(row, pc, listAt)
	}
}

// fillFixed fills a column that reads no metric's value (the fetch's time, a constant, a metric
// the host lacks, one without a unit factor) and says whether c was one.
func (h *pcpHost) fillFixed(row []ns.Raw, c *pcpCol, f *pmproxy.Fetched) bool {
	switch c.kind {
	case colClock:
		row[c.at] = ns.RawN(uint64(f.Time.UnixMilli()))
		h.recClock(c)
	case colConst:
		row[c.at] = ns.RawN(uint64(c.mult))
	case colMissing:
		if h.recorded { // an archive, or series loaded from archives
			// pmlogger logs what its configuration names: the rest was never recorded.
			row[c.at] = ns.RawNA(ns.ReasonNotRecorded)
		}
	case colNoFactor:
		row[c.at] = ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonProviderError}
	default:
		return false
	}
	return true
}

// fillValue fills column c of instance inst (at pos among the metric's values vs, when it is
// there) from the fetch, checked against its type and the column's own check.
func (h *pcpHost) fillValue(row []ns.Raw, c *pcpCol, vs []pmproxy.Value, f *pmproxy.Fetched, inst int64, pos int) {
	want := inst
	if c.inst != 0 {
		want = c.inst
	}
	var val pmproxy.Value
	ok := false
	if want == inst && pos >= 0 && pos < len(vs) && vs[pos].Instance == inst {
		val, ok = vs[pos], true
	} else {
		val, ok = f.LookupIn(c.metric, vs, want) // vs are f.Get(c.metric)
	}
	if !ok {
		if h.archive != nil && len(vs) == 0 {
			// An archive that has no value of the metric yet at this time (pmlogger logs it
			// in a group of its own, later): said so, never 0 (issue 39 item 1).
			row[c.at] = ns.RawNA(ns.ReasonNotRecordedYet)
		}
		return
	}
	row[c.at] = colRaw(c, val)
	h.recValue(c, vs, want, pos)
	if r := row[c.at]; r.State == ns.RawUnavailable && h.valueErr == nil &&
		(r.Reason == ns.ReasonOverflow || r.Reason == ns.ReasonProviderError) {
		// Said with the class's reading: which metric, and what came (issue 31).
		h.valueErr = fmt.Errorf("%s instance %d: %q is no %s value (%s)", c.metric, val.Instance,
			ns.Clip(ns.EscapeName(val.String()), 40), c.typ, r.Reason)
	}
	if c.check != nil {
		row[c.at] = c.check(row[c.at])
	}
}

// fillInvalidList fills the class's list of the datums not valid for this instance (at listAt).
func (h *pcpHost) fillInvalidList(row []ns.Raw, pc pcpClass, listAt int) {
	ids := h.invScratch[:0]
	for i := range row {
		if i != listAt && row[i].State == ns.RawInvalid && !pc.Class.Datums[i].IsDerived() {
			ids = append(ids, pc.Class.Datums[i].ID)
		}
	}
	h.invScratch = ids
	// The same list as the class's last instance had, as a rule: its text made once.
	bf := h.bufsOf(pc.Class)
	if !slices.Equal(ids, bf.invIDs) || bf.invIDs == nil {
		bf.invIDs, bf.invText = append(bf.invIDs[:0], ids...), schema.InvalidList(ids...)
		if bf.invIDs == nil {
			bf.invIDs = []ns.DatumID{}
		}
	}
	row[listAt] = ns.RawS(bf.invText)
}

// factor is the factor from a metric's PCP units to a datum's, worked out once per context
// (pmConvScale); false when the two have different dimensions.
func (h *pcpHost) factor(metric, from string, to ns.PMUnits) (float64, bool) {
	if f, ok := h.factors[metric]; ok {
		return f, !math.IsNaN(f)
	}
	u, ok := ns.ParsePMUnits(from)
	if from == "none" {
		u, ok = ns.PMUnits{}, true
	}
	f, err := ns.ConvScale(1, u, to)
	if !ok || err != nil {
		f = math.NaN()
	}
	h.factors[metric] = f
	return f, !math.IsNaN(f)
}

// pcpRaw converts one value to the datum's unit: integers exactly when the factor is whole.
func pcpRaw(v pmproxy.Value, typ string, mult float64) ns.Raw {
	bad := func(err error) ns.Raw {
		if errors.Is(err, strconv.ErrRange) {
			return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonOverflow} // 400 digits (issue 31)
		}
		return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonProviderError}
	}
	switch typ {
	case "u32", "u64":
		n, err := v.Uint64()
		if err != nil {
			return bad(err)
		}
		if mult >= 1 && mult == math.Trunc(mult) && mult < 1<<32 {
			k := uint64(mult)
			if n > math.MaxUint64/k {
				return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonOverflow}
			}
			return ns.RawN(n * k)
		}
		return ns.RawN(uint64(math.Round(float64(n) * mult)))
	case "32", "64":
		n, err := v.Int64()
		if err != nil {
			return bad(err)
		}
		return ns.RawN(uint64(int64(math.Round(float64(n) * mult))))
	case "float", "double":
		x, err := v.Float64()
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return bad(err)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonNotANumber}
		}
		return ns.RawN(uint64(int64(math.Round(x * mult))))
	case "string":
		return ns.RawS(ns.Clip(v.Text, schema.HostTextSize-1))
	case "aggregate":
		if len(v.Text) <= schema.HostTextSize { // an octet string dcimon recorded (an address)
			return ns.RawS(v.Text)
		}
	}
	return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonNotSupported}
}

// parentMetric is the metric of the parents' domain to find an instance's parent by: the class's
// own (disk.dev.read for partitions), or, where the host has not that one (a pmlogger
// configuration that logs disk.dev.write only), the parents' metric of the same name as one the
// class has (disk.partitions.write's disk.dev.write). "" for a class with no parent.
func (h *pcpHost) parentMetric(pc pcpClass, present []string) string {
	if pc.ParentMetric == "" {
		return ""
	}
	if _, ok := h.descs[pc.ParentMetric]; ok || h.descs == nil {
		return pc.ParentMetric
	}
	prefix := pc.ParentMetric[:strings.LastIndexByte(pc.ParentMetric, '.')+1]
	for _, m := range present {
		if alt := prefix + m[strings.LastIndexByte(m, '.')+1:]; h.descs[alt].Name != "" {
			return alt
		}
	}
	return pc.ParentMetric
}
