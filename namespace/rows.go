package namespace

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// buildRows builds the n rows of b's reading into its columns and counts their impossible jumps.
// Rows are independent, so a large class is built on every CPU (10,000 disks × 28 datums). Each
// value is worked out straight into its cells (cells.go).
func buildRows(b *rowBuilder, n int) (jumps int) {
	workers := runtime.GOMAXPROCS(0)
	if n*b.nd < parallelValues || workers < 2 {
		var more []moreText
		jumps = b.rows(0, n, &more)
		b.out.merge(more)
		return jumps
	}
	pb := new(rowBuilder)
	*pb = *b
	var wg sync.WaitGroup
	var all atomic.Int32
	chunk := (n + workers - 1) / workers
	mores := make([][]moreText, 0, workers)
	var mu sync.Mutex
	for lo := 0; lo < n; lo += chunk {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			var more []moreText
			all.Add(int32(pb.rows(lo, hi, &more)))
			if len(more) > 0 {
				mu.Lock()
				mores = append(mores, more)
				mu.Unlock()
			}
		}(lo, min(lo+chunk, n))
	}
	wg.Wait()
	for _, m := range mores {
		b.out.merge(m)
	}
	return int(all.Load())
}

// merge adds texts outside the text datums' column to the columns.
func (cols *valueCols) merge(more []moreText) {
	if len(more) == 0 {
		return
	}
	if cols.more == nil {
		cols.more = make(map[int]string, len(more))
	}
	for _, m := range more {
		cols.more[m.i] = m.s
	}
}

// parallelValues is the class size (instances × datums) from which Next builds rows in parallel.
const parallelValues = 64 << 10

// rowBuilder computes the rows of one class sample.
type rowBuilder struct {
	c         *Class
	nd        int
	cs        *ClassSample
	prev      *ClassValues
	out       *valueCols
	kept      bool // the reading's k-th instance is in slot k (keptPlaces)
	reset     bool
	elapsed   float64
	jumpLimit float64   // the seconds a counter's hardware bound is over: elapsed with Impossible's tolerances
	window    float64   // the source's slack: how long its two readings took (issue 40 item 6)
	own       []float64 // each datum's own interval (ClassSample.Times); -1: unchanged since the previous reading
	errReason Reason
	partial   bool // raw values may be used despite an error
	noDerived bool // the derived datums are left unavailable (Sample.NoDerived)
}

// rows builds the rows of cs.Insts[lo:hi], and counts the counters among them that rose further
// than their hardware can (ReasonImpossibleJump). A class reading with an error may still carry values
// for some instances (a bad line among good ones): those are used, and only instances without
// values are unavailable with the reading's reason. more gathers the texts outside the text
// datums' column.
func (b *rowBuilder) rows(lo, hi int, more *[]moreText) (jumps int) {
	for k := lo; k < hi; k++ {
		in := b.cs.Insts[k]
		if in == nil {
			continue
		}
		slot := k
		if !b.kept {
			slot = in.slot
		}
		jumps += b.row(k, slot, in, more)
	}
	return jumps
}

// row builds the values of in, the k-th instance of the reading, in its cells at slot: its datums from
// their raw values and previous ones (or unavailable when the reading has none for it), then the
// invariants checked and the derived datums computed. The previous values are read from the
// previous snapshot's columns one at a time, as they are needed.
func (b *rowBuilder) row(k, slot int, in *Instance, more *[]moreText) (jumps int) {
	c, nd, cs, prev := b.c, b.nd, b.cs, b.prev
	w := b.out.rowCells(c, slot, nd)
	if len(c.steps) != nd {
		w.clear() // a class not compiled: no datum is worked out, each reads as zero
	}
	pslot := -1 // the instance's slot in prev when its values there are rated against
	hadPrev := prev != nil && slot < len(prev.Insts) && prev.Insts[slot] == in
	newInst := !hadPrev && prev != nil && prev.Sampled
	if hadPrev && !b.reset {
		pslot = slot
	}
	var raw []Raw
	if b.partial && len(cs.Raw) >= (k+1)*nd {
		raw = cs.Raw[k*nd : k*nd+nd : k*nd+nd]
	}
	if raw == nil {
		b.unavailableRow(&w, more)
	} else {
		jumps = b.fillRow(&w, pslot, raw, hadPrev, newInst, more)
	}
	if len(c.parts) > 0 {
		checkParts(c, &w, b.argsElapsed(c.parts), b.window)
	}
	if b.noDerived {
		for _, d := range c.derivOrd {
			w.nums[d], w.flags[d] = numCell{}, flagCell{State: Unavailable, Reason: ReasonNotSampled}
		}
	} else {
		b.deriveRow(&w, pslot, more)
	}
	return jumps
}

// unavailableRow marks the read datums of a row the reading has no values for unavailable, with
// the reading's reason (ReasonNoValues when it has none).
func (b *rowBuilder) unavailableRow(w *cellRow, more *[]moreText) {
	r := b.errReason
	if r == ReasonNone {
		r = ReasonNoValues
	}
	ta := b.c.textAt()
	for d := range b.c.steps {
		if b.c.steps[d].plan != planDerived {
			w.put(d, Value{State: Unavailable, Reason: r}, ta, more)
		}
	}
}

// fillRow computes the read datums of a row from their raw values and their previous ones (those
// of prev's slot pslot; -1 when there are none to rate against), each over its own interval when
// it has one, and counts the impossible jumps. A value read, without intervals of its own, is
// worked out in place (a counter rated against a valid previous reading, a level, a text); the
// rest goes through fill.
func (b *rowBuilder) fillRow(w *cellRow, pslot int, raw []Raw, hadPrev, newInst bool, more *[]moreText) (jumps int) {
	c := b.c
	ta := c.textAt()
	p := prevRow{slot: pslot}
	if pslot >= 0 {
		base := pslot * b.nd
		p.nums, p.flags = b.prev.cols.nums[base:base+b.nd:base+b.nd], b.prev.cols.flags[base:base+b.nd:base+b.nd]
		p.more = b.prev.cols.more != nil
	}
	inPlace := b.own == nil
	rated := inPlace && p.nums != nil && b.elapsed > 0
	for d := range c.steps {
		st := &c.steps[d]
		if st.plan == planDerived {
			continue
		}
		switch r := &raw[d]; {
		case r.State == RawInvalid || r.State == RawUnavailable:
			w.put(d, unread(r), ta, more) // whatever came before
			continue
		case inPlace && r.State == RawOK && b.inPlace(w, d, st, r, &p, rated, ta, more):
			continue
		}
		if b.fillOne(w, d, st, raw, &p, hadPrev, newInst, ta, more) {
			jumps++
		}
	}
	return jumps
}

// prevRow are the cells of an instance's previous values (slot's in the previous snapshot; nil
// when there are none to rate against), read a datum at a time.
type prevRow struct {
	nums  []numCell
	flags []flagCell
	slot  int
	more  bool // the previous snapshot has texts outside its text column
}

// inPlace works the value of datum d read (r) out in its cells when it is a common case: a
// counter rated against a valid previous reading (when rated), a level that fits its type, a
// text. It reports false where fill must decide.
func (b *rowBuilder) inPlace(w *cellRow, d int, st *datumStep, r *Raw, p *prevRow, rated bool, ta []int, more *[]moreText) bool {
	switch {
	case st.plan >= planCounterU32:
		return rated && b.counterRate(w, d, st, r, &p.nums[d], p.flags[d].State)
	case st.plan == planLevel:
		if !Fits(st.ty, r.N) {
			return false
		}
		v := toFloat(st.ty, r.N)
		var change float64
		if p.nums != nil && p.flags[d].State == Valid {
			change = v - p.nums[d].V
		}
		w.nums[d], w.flags[d] = numCell{N: r.N, Change: change, V: v}, flagCell{}
		if r.S != "" {
			*more = append(*more, moreText{i: w.base + d, s: r.S})
		}
		return true
	case st.plan == planString:
		w.nums[d], w.flags[d], w.texts[ta[d]] = numCell{N: r.N}, flagCell{}, r.S
		return true
	}
	return false
}

// fillOne works the value of datum d out through fill, with its previous value made of its
// cells, and reports an impossible jump.
func (b *rowBuilder) fillOne(w *cellRow, d int, st *datumStep, raw []Raw, p *prevRow, hadPrev, newInst bool, ta []int, more *[]moreText) (jump bool) {
	c := b.c
	var pv *Value
	var pval Value
	if p.nums != nil {
		pval = Value{N: p.nums[d].N, Change: p.nums[d].Change, V: p.nums[d].V, State: p.flags[d].State, Reason: p.flags[d].Reason}
		if p.more || (d < len(ta) && ta[d] >= 0) {
			pval.S = b.prev.textOf(p.slot, d, p.slot*b.nd+d)
		}
		pv = &pval
	}
	el := b.elapsed
	if b.own != nil {
		if el = b.own[d]; el < 0 && pv != nil && pv.State != Unavailable && raw[d].State == RawOK {
			w.put(d, *pv, ta, more) // not logged since its previous reading: that reading's value, never a rate of 0
			return false
		}
	}
	v := fill(st.plan, &c.Datums[d], &raw[d], pv, hadPrev, newInst, b.reset, el)
	if c.Datums[d].RateBoundBy != 0 && v.State == Valid {
		v = boundByInstance(c, &c.Datums[d], raw, v, el)
	}
	w.put(d, v, ta, more)
	return v.Reason == ReasonImpossibleJump
}

// counterRate is fill's common case worked out in place: a counter's rate between this reading
// (r, read) and a valid (or not yet rated) previous one of the same instance, under no reset,
// over the class's interval (more than none). It reports false where fill must decide (a value
// that does not fit, a decrease, an impossible rise, a rate its instance bounds).
func (b *rowBuilder) counterRate(w *cellRow, d int, st *datumStep, r *Raw, prev *numCell, pstate ValueState) bool {
	if (pstate != Valid && pstate != NoRate) || !Fits(st.ty, r.N) {
		return false
	}
	dd := &b.c.Datums[d]
	delta, ok := counterDelta(st.plan, prev.N, r.N)
	if !ok || dd.RateBoundBy != 0 || delta >= 1<<63 || (dd.MaxRate > 0 && delta > dd.MaxRate*b.jumpLimit) {
		return false // Impossible's test, its bound's seconds worked out once a reading
	}
	w.nums[d], w.flags[d] = numCell{N: r.N, Change: delta, V: delta / b.elapsed}, flagCell{}
	return true
}

// deriveRow computes a row's derived datums in their order; one whose arguments were not logged
// since the previous reading keeps its value as it was.
func (b *rowBuilder) deriveRow(w *cellRow, pslot int, more *[]moreText) {
	for i := range b.c.derivs {
		s := &b.c.derivs[i]
		el := b.argsElapsed(s.args[:s.n])
		if b.own != nil && pslot >= 0 && el < 0 {
			w.put(s.d, b.prev.At(pslot, s.d), b.c.textAt(), more) // its arguments not logged since: its value as it was
			continue
		}
		w.nums[s.d], w.flags[s.d] = s.eval(w.nums, w.flags, el)
	}
}

// argsElapsed is the interval of a derivation or an invariant over the datums at: the class's,
// or with values of their own times (ClassSample.Times) the longest of theirs, -1 when none was
// logged since the previous reading.
func (b *rowBuilder) argsElapsed(at []int) float64 {
	if b.own == nil {
		return b.elapsed
	}
	el := -1.0
	for _, j := range at {
		if j < len(b.own) && b.own[j] > el {
			el = b.own[j]
		}
	}
	return el
}
