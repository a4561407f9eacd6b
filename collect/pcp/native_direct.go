package pcp

import (
	"hash/fnv"
	"math"
	"slices"
	"sync"
	"time"
	"unsafe"

	"dcimon/collect"
	ns "dcimon/namespace"
	"dcimon/pcpwire"
	"dcimon/pmproxy"
)

// A host read over pmcd's own protocol whose fetches keep their shape (the same pmids, each
// with the same instances in the same places, as a fleet's hosts have reading after reading)
// has pmcd's answer decoded straight into its classes' raw rows (issue 38 item 1): each value
// of the answer goes to the cell (class, row, column) it went to at the reading the plan was
// recorded from, converted as that column says, with no pmproxy.Value made, no lookup by name
// and no second decoding. The plan is recorded from an ordinary reading (readWanted, with the
// host's rec set) and is good while the descriptors, the instance names, the declaration and
// the classes asked for stay; hosts whose plans come out the same share one (directPlans).
// An answer of another shape, or a value that is not what its column reads (an overflow, a
// value not sent as its type, one whose check makes it invalid), is read the ordinary way.

// directPlan is where each value of a fetch's answer goes: the answer's shape (each set's
// pmid, type and instances) and, value by value, its cells.
type directPlan struct {
	pmids []uint32
	types []int32
	lens  []int32 // each set's count of values
	errs  []int32 // each set's error, where pmcd gave one instead of values
	insts []int32 // every set's instances, one set after another
	cells []directCell
	// clocks are the cells of the fetch's time; classes the classes read, by their place in
	// the host's classes (empty: a reading with no instances, noInstances); nameSets the sets
	// whose texts name instances (a file system's mount point), which must stay the same.
	clocks   []directRef
	classes  []int
	empty    []bool
	nameSets []int
	rawLens  []int32 // each class's count of raw values (its rows' layout)
}

// directCell is one value's cell: the value (its set, its place there), the class (its place
// in the plan's classes), the cell's place in the class's raw values, and the column that
// says how it is read.
type directCell struct {
	set, val int32
	cls, at  int32
	col      *pcpCol
	// whole is the column's factor where it reads an unsigned integer by a whole one (as
	// pcpRaw does: most of a host's values), else 0.
	whole uint64
}

// directRef is a cell of a class of the plan.
type directRef struct{ cls, at int32 }

// directState is a host's part: the plan it reads by and what the plan is good for, the
// buffers of its classes (in the plan's order), the texts of its naming sets, and a recording
// under way.
type directState struct {
	plan                         *directPlan
	descsGen, namesGen, scaleGen uint64
	mask                         uint64
	bufs                         []*pcpBufs
	nameTexts                    []string
	errs                         []error // each class's reading's error (one with no instances)
	time                         time.Time
	rec                          *directRec
	// never is set for the key a recording found no plan for (a process class asked for):
	// not recorded again until the key changes.
	never *directState
}

// directRec is a plan being recorded from an ordinary reading, into a plan of the recordings'
// scratch (planScratch: a fleet's hosts record at once, and most find the plan made already).
type directRec struct {
	x     *nativeContext
	p     *directPlan
	cls   int32 // the class being read: its place among classes
	row   int32 // the row being filled: its first cell's place in the class's raw values
	errs  []error
	bad   bool // the reading cannot be read by position (a class whose instances change)
	retry bool // nor this time (a value in error)
}

// planScratch are the plans recordings are made in, used again.
var planScratch = sync.Pool{New: func() any { return new(directPlan) }}

// keptDirect is how many sets of classes asked for a host keeps a plan for.
const keptDirect = 4

// useDirect makes the host's plan that of the classes of mask: each set of classes asked for
// (a screen's, and every class now and then) keeps its own, at most keptDirect, rather than
// one recorded again at each change.
func (h *pcpHost) useDirect(mask uint64) {
	if _, native := h.x.(*nativeContext); !native || h.recorded {
		h.direct = nil // not connected yet: no plan, and none recorded for another set of classes
		return
	}
	for _, d := range h.directs {
		if d.mask == mask {
			h.direct = d
			return
		}
	}
	if len(h.directs) == keptDirect {
		h.directs = append(h.directs[:0], h.directs[1:]...)
	}
	h.direct = &directState{mask: mask}
	h.directs = append(h.directs, h.direct)
}

// directOK says whether the host reads the fetch for the classes of mask by its plan.
func (h *pcpHost) directOK(mask uint64) bool {
	d := h.direct
	return d != nil && d.plan != nil && d.descsGen == h.descsGen && d.namesGen == h.namesGen &&
		d.scaleGen == h.scaleGen && d.mask == mask && h.descs != nil
}

// startRecording has the reading about to be made record a plan, when the host is read over
// pmcd's own protocol and the reading is of mapped classes alone.
func (h *pcpHost) startRecording(mask uint64) {
	if _, native := h.x.(*nativeContext); !native || h.recorded {
		return
	}
	d := h.direct
	if d == nil {
		return
	}
	d.plan, d.bufs, d.nameTexts, d.rec = nil, nil, nil, nil
	if n := d.never; n != nil && n.descsGen == h.descsGen && n.namesGen == h.namesGen && n.scaleGen == h.scaleGen && n.mask == mask {
		return
	}
	d.descsGen, d.namesGen, d.scaleGen, d.mask = h.descsGen, h.namesGen, h.scaleGen, mask
	p := planScratch.Get().(*directPlan)
	p.reset()
	d.rec = &directRec{x: h.x.(*nativeContext), p: p, cls: -1}
}

// recClass notes the class about to be read.
func (h *pcpHost) recClass(i int, pc pcpClass) {
	r := h.recording()
	if r == nil {
		return
	}
	r.cls = int32(len(r.p.classes))
	r.p.classes = append(r.p.classes, i)
}

// recReading checks the reading of the class just read: one of its buffers without an error,
// or one with no instances (with the error that says why: it is the same while the answer's
// shape and the descriptors stay).
func (h *pcpHost) recReading(pc pcpClass, cr collect.ClassReading) {
	r := h.recording()
	if r == nil {
		return
	}
	bf := h.bufsOf(pc.Class)
	empty := len(cr.Specs) == 0 && len(cr.Raw) == 0
	if cr.Err != nil && !empty {
		r.retry = true
		return
	}
	if !empty && (len(cr.Specs) != len(bf.sorted) || len(cr.Raw) != len(bf.raw) || len(cr.Raw) == 0 ||
		&cr.Raw[0] != &bf.raw[0] || &cr.Specs[0] != &bf.sorted[0]) {
		r.bad = true
	}
	if !empty && (pc.StartMetric != "" || pc.Class.Churn) {
		r.bad = true // a process's instances are made of its values
	}
	r.p.empty, r.errs = append(r.p.empty, empty), append(r.errs, cr.Err)
}

// recording is the recording under way, or nil.
func (h *pcpHost) recording() *directRec {
	if h.direct == nil || h.direct.rec == nil || h.direct.rec.bad || h.direct.rec.retry {
		return nil
	}
	return h.direct.rec
}

// recRow notes the place of the row about to be filled.
func (h *pcpHost) recRow(off int) {
	if r := h.recording(); r != nil {
		r.row = int32(off)
	}
}

// recValue notes that column c's cell of the row is vs[pos]'s value.
func (h *pcpHost) recValue(c *pcpCol, vs []pmproxy.Value, inst int64, pos int) {
	r := h.recording()
	if r == nil {
		return
	}
	if pos < 0 || pos >= len(vs) || vs[pos].Instance != inst {
		pos = slices.IndexFunc(vs, func(v pmproxy.Value) bool { return v.Instance == inst })
		if inst < 0 && len(vs) == 1 {
			pos = 0 // LookupIn's only value
		}
	}
	set, ok := r.x.sets[c.metric]
	if pos < 0 || !ok {
		r.bad = true
		return
	}
	r.p.cells = append(r.p.cells, directCell{set: int32(set), val: int32(pos), cls: r.cls, at: r.row + int32(c.at), col: c, whole: wholeFactor(c)})
}

// recClock notes a cell of the fetch's time.
func (h *pcpHost) recClock(c *pcpCol) {
	if r := h.recording(); r != nil {
		r.p.clocks = append(r.p.clocks, directRef{r.cls, r.row + int32(c.at)})
	}
}

// finishRecording makes the plan of the reading just recorded from f, the answer to the
// fetch of names, when every class was read by position.
func (h *pcpHost) finishRecording(f *pmproxy.Fetched, names []string) {
	d := h.direct
	if d == nil || d.rec == nil {
		return
	}
	r := d.rec
	d.rec = nil
	defer planScratch.Put(r.p)
	x, native := h.x.(*nativeContext)
	if r.retry || !native || x != r.x || !slices.Equal(x.lastNames, names) || d.descsGen != h.descsGen ||
		d.namesGen != h.namesGen || d.scaleGen != h.scaleGen || h.descs == nil {
		return
	}
	if !h.scaled && slices.Contains(names, "hinv.ncpu") && slices.Contains(names, "mem.physmem") {
		return // the next reading may declare the classes again (rescale)
	}
	if r.bad {
		d.never = &directState{descsGen: d.descsGen, namesGen: d.namesGen, scaleGen: d.scaleGen, mask: d.mask}
		return
	}
	p := r.p
	if !x.shape(p, f) {
		return
	}
	var texts []string
	for _, k := range p.classes {
		if m := h.nameMetric(h.classes[k]); m != "" {
			s, ok := x.sets[m]
			if !ok {
				return
			}
			p.nameSets = append(p.nameSets, s)
			for _, v := range f.Get(m) {
				texts = append(texts, v.Text)
			}
		}
	}
	d.nameTexts, d.errs = texts, nil
	if slices.ContainsFunc(r.errs, func(err error) bool { return err != nil }) {
		d.errs = r.errs
	}
	d.bufs = make([]*pcpBufs, len(p.classes))
	for i, k := range p.classes {
		d.bufs[i] = h.bufsOf(h.classes[k].Class)
		p.rawLens = append(p.rawLens, int32(len(d.bufs[i].raw)))
	}
	d.plan = sharedDirect(p)
	for _, bf := range d.bufs {
		bf.dropOrdinary()
	}
}

// dropOrdinary lets go of what only an ordinary reading of the class uses (the fetch's
// instances in its order, their places, the fixed instances' specs), once its rows are read by
// position (issue 38 item 1: 10 KB a host). An ordinary reading makes them again: the same
// specs, from the instances' names and the specs kept by name (known).
func (bf *pcpBufs) dropOrdinary() {
	bf.specs, bf.ids, bf.poss, bf.order, bf.seen, bf.fixed = nil, nil, nil, nil, nil, nil
	bf.lastIDs, bf.lastLens, bf.noted = nil, nil, false
}

// shape gives p the shape of the answer f was decoded from: each set's pmid, type, error and
// instances; false when an instance is not PCP's 32-bit one.
func (x *nativeContext) shape(p *directPlan, f *pmproxy.Fetched) bool {
	p.pmids, p.types = append(p.pmids, x.pmids...), append(p.types, x.types...)
	for _, n := range x.of {
		vs := f.Get(x.lastNames[n])
		p.lens, p.errs = append(p.lens, int32(len(vs))), append(p.errs, f.Errs[x.lastNames[n]])
		for _, v := range vs {
			if v.Instance != int64(int32(v.Instance)) {
				return false
			}
			p.insts = append(p.insts, int32(v.Instance))
		}
	}
	return true
}

// decodeDirect decodes pmcd's answer into the host's raw rows by its plan, and says whether it
// did: false when the answer has another shape or a value its cell cannot take as the plan
// reads it (the caller then decodes it the ordinary way, and every row is filled again).
func (h *pcpHost) decodeDirect(res *pcpwire.Result) bool {
	d := h.direct
	p := d.plan
	if len(res.Sets) != len(p.pmids) || !p.sameShape(res) || !d.sameNames(res) {
		return false
	}
	for i, bf := range d.bufs {
		if len(bf.raw) != int(p.rawLens[i]) {
			return false // the rows were laid out again since (never, while the shape stays)
		}
	}
	ms := ns.RawN(uint64(res.Time.UnixMilli()))
	for _, c := range p.clocks {
		d.bufs[c.cls].raw[c.at] = ms
	}
	for i := range p.cells {
		c := &p.cells[i]
		cell := &d.bufs[c.cls].raw[c.at]
		vals := res.Sets[c.set].Values // pcpwire's, in the answer's order
		v := &vals[c.val]
		typ := p.types[c.set]
		if typ == pcpwire.TypeString && !v.Insitu && c.col.check == nil && cell.State == ns.RawOK &&
			cell.S == string(stringOf(v.Block)) {
			continue // the same text as the last time (a device's name): no string made
		}
		if c.whole != 0 && (typ == pcpwire.TypeU32 || typ == pcpwire.TypeU64) {
			// pcpRaw's unsigned integer by a whole factor, without the value made first.
			if n, err := v.Uint64(typ); err == nil && n <= math.MaxUint64/c.whole && cell.State != ns.RawInvalid {
				*cell = ns.RawN(n * c.whole)
				continue
			}
		}
		r := colRaw(c.col, nativeValue(*v, typ))
		if r.State == ns.RawUnavailable && (r.Reason == ns.ReasonOverflow || r.Reason == ns.ReasonProviderError) {
			return false // said with its class's reading, which the ordinary way makes
		}
		if c.col.check != nil {
			r = c.col.check(r)
		}
		if (r.State == ns.RawInvalid) != (cell.State == ns.RawInvalid) {
			return false // the class's invalid-data list changes
		}
		*cell = r
	}
	d.time = res.Time
	return true
}

// wholeFactor is c's factor where c reads an unsigned integer by a whole factor and no check
// (pcpRaw's first case), else 0.
func wholeFactor(c *pcpCol) uint64 {
	if (c.typ != "u32" && c.typ != "u64") || c.check != nil || c.long || c.kind != colValue ||
		c.mult < 1 || c.mult != math.Trunc(c.mult) || c.mult >= 1<<32 {
		return 0
	}
	return uint64(c.mult)
}

// sameShape says res has the plan's sets, each with the same instances in the same places.
func (p *directPlan) sameShape(res *pcpwire.Result) bool {
	k := 0
	for i := range res.Sets {
		s := &res.Sets[i]
		if int32(s.Err) != p.errs[i] || s.PMID != p.pmids[i] || len(s.Values) != int(p.lens[i]) {
			return false
		}
		for _, v := range s.Values {
			if v.Inst != p.insts[k] {
				return false
			}
			k++
		}
	}
	return true
}

// sameNames says the sets that name instances have the texts they had.
func (d *directState) sameNames(res *pcpwire.Result) bool {
	k := 0
	for _, s := range d.plan.nameSets {
		for _, v := range res.Sets[s].Values {
			if v.Insitu || k >= len(d.nameTexts) || d.nameTexts[k] != string(stringOf(v.Block)) {
				return false
			}
			k++
		}
	}
	return true
}

// directBatch is the batch of a fetch decoded by the plan: each class's reading its buffers.
func (h *pcpHost) directBatch() collect.Batch {
	d := h.direct
	b := collect.Batch{Time: d.time, Reset: h.reset, Classes: h.classBuf[:0], Redeclared: h.redeclared}
	h.redeclared = false
	clear(h.colVals[:cap(h.colVals)]) // the last ordinary reading's values, let go with the context's (fetchInto)
	for i, k := range d.plan.classes {
		cr := collect.ClassReading{Class: h.classes[k].Class, Specs: []ns.InstanceSpec{}}
		if d.errs != nil {
			cr.Err = d.errs[i]
		}
		if !d.plan.empty[i] {
			cr.Specs, cr.Raw = d.bufs[i].sorted, d.bufs[i].raw
		}
		b.Classes = append(b.Classes, cr)
	}
	h.classBuf = b.Classes
	return b
}

// directPlans are the plans the hosts recorded, each kept once: a fleet's hosts alike record
// the same (issue 38 item 1: no plan of a thousand cells a host). At most maxSharedPlans.
var directPlans struct {
	sync.Mutex
	byHash map[uint64][]*directPlan
}

// sharedDirect is a plan the same as p another host recorded, or a copy of p (a recording's
// scratch), offered to the next.
func sharedDirect(p *directPlan) *directPlan {
	sum := p.hash()
	directPlans.Lock()
	defer directPlans.Unlock()
	for _, q := range directPlans.byHash[sum] {
		if p.equal(q) {
			return q
		}
	}
	if directPlans.byHash == nil || len(directPlans.byHash) >= maxSharedPlans {
		directPlans.byHash = map[uint64][]*directPlan{}
	}
	q := &directPlan{pmids: slices.Clone(p.pmids), types: slices.Clone(p.types), lens: slices.Clone(p.lens),
		errs: slices.Clone(p.errs), insts: slices.Clone(p.insts), cells: slices.Clone(p.cells),
		clocks: slices.Clone(p.clocks), classes: slices.Clone(p.classes), empty: slices.Clone(p.empty),
		nameSets: slices.Clone(p.nameSets), rawLens: slices.Clone(p.rawLens)}
	directPlans.byHash[sum] = append(directPlans.byHash[sum], q)
	return q
}

// reset empties a recording's scratch plan, keeping its room.
func (p *directPlan) reset() {
	p.pmids, p.types, p.lens, p.errs, p.insts = p.pmids[:0], p.types[:0], p.lens[:0], p.errs[:0], p.insts[:0]
	p.cells, p.clocks, p.classes, p.empty = p.cells[:0], p.clocks[:0], p.classes[:0], p.empty[:0]
	p.nameSets, p.rawLens = p.nameSets[:0], p.rawLens[:0]
}

// hash is a hash of the plan's shape and cells.
func (p *directPlan) hash() uint64 {
	h := fnv.New64a()
	w := func(b []byte) { _, _ = h.Write(b) }
	w(bytesOf(p.pmids))
	w(bytesOf(p.insts))
	w(bytesOf(p.cells))
	w(bytesOf(p.clocks))
	w(bytesOf(p.classes))
	return h.Sum64()
}

// bytesOf is the memory of a slice of plain values (the cells' columns hash by their address:
// shared plans, plan.go).
func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(z)))
}

// equal says two plans are the same.
func (p *directPlan) equal(q *directPlan) bool {
	return slices.Equal(p.pmids, q.pmids) && slices.Equal(p.types, q.types) && slices.Equal(p.lens, q.lens) && slices.Equal(p.errs, q.errs) &&
		slices.Equal(p.insts, q.insts) && slices.Equal(p.cells, q.cells) && slices.Equal(p.clocks, q.clocks) &&
		slices.Equal(p.classes, q.classes) && slices.Equal(p.empty, q.empty) && slices.Equal(p.nameSets, q.nameSets) && slices.Equal(p.rawLens, q.rawLens)
}
