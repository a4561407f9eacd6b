package namespace

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// buildRows builds the n rows of b's reading into its columns and counts their impossible jumps.
// Rows are independent, so a large class is built on every CPU (10,000 disks × 28 datums). Each
// row is worked out in a row of Values (on the stack for a class of up to stackDatums datums),
// then packed into the columns.
func buildRows(b *rowBuilder, n int) (jumps int) {
	workers := runtime.GOMAXPROCS(0)
	if n*b.nd < parallelValues || workers < 2 {
		var stack [stackDatums]Value
		row := b.scratch(stack[:])
		var more []moreText
		jumps = b.rows(0, n, row, &more)
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
			row := pb.scratch(nil)
			var more []moreText
			all.Add(int32(pb.rows(lo, hi, row, &more)))
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

// stackDatums is the most datums a class's row is worked out in on the stack.
const stackDatums = 64

// scratch is where one worker works out a row: in buf when it holds one of the class, else in
// a new array.
func (b *rowBuilder) scratch(buf []Value) []Value {
	if len(buf) < b.nd {
		buf = make([]Value, b.nd)
	}
	return buf[:b.nd:b.nd]
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
	reset     bool
	elapsed   float64
	window    float64   // the source's slack: how long its two readings took (issue 40 item 6)
	own       []float64 // each datum's own interval (ClassSample.Times); -1: unchanged since the previous reading
	errReason Reason
	partial   bool // raw values may be used despite an error
	noDerived bool // the derived datums are left unavailable (Sample.NoDerived)
}

// rows builds the rows of cs.Insts[lo:hi], and counts the counters among them that rose further
// than their hardware can (ReasonImpossibleJump). A class reading with an error may still carry values
// for some instances (a bad line among good ones): those are used, and only instances without
// values are unavailable with the reading's reason.
func (b *rowBuilder) rows(lo, hi int, row []Value, more *[]moreText) (jumps int) {
	for k := lo; k < hi; k++ {
		if in := b.cs.Insts[k]; in != nil {
			jumps += b.row(k, in, row, more)
		}
	}
	return jumps
}

// row builds the row of in, the k-th instance of the reading: its datums from their raw values
// and previous ones (or unavailable when the reading has none for it), then the invariants
// checked and the derived datums computed; then it is packed into the columns.
// row is the worker's scratch (buildRows), more the texts outside the text column. The previous
// values are read from the previous snapshot's columns one at a time, as they are needed.
func (b *rowBuilder) row(k int, in *Instance, row []Value, more *[]moreText) (jumps int) {
	c, nd, cs, prev := b.c, b.nd, b.cs, b.prev
	if len(c.plan) != nd {
		clear(row) // a class not compiled: no datum is worked out, each reads as zero
	}
	pslot := -1 // the instance's slot in prev when its values there are rated against
	hadPrev := prev != nil && in.slot < len(prev.Insts) && prev.Insts[in.slot] == in
	newInst := !hadPrev && prev != nil && prev.Sampled
	if hadPrev && !b.reset {
		pslot = in.slot
	}
	var raw []Raw
	if b.partial && len(cs.Raw) >= (k+1)*nd {
		raw = cs.Raw[k*nd : k*nd+nd : k*nd+nd]
	}
	if raw == nil {
		b.unavailableRow(row)
	} else {
		jumps = b.fillRow(row, pslot, raw, hadPrev, newInst)
	}
	if len(c.parts) > 0 {
		checkParts(c, row, b.argsElapsed(c.parts), b.window)
	}
	if b.noDerived {
		for _, d := range c.derivOrd {
			row[d] = Value{State: Unavailable, Reason: ReasonNotSampled}
		}
	} else {
		b.deriveRow(row, pslot)
	}
	*more = b.out.pack(c, row, in.slot, *more)
	return jumps
}

// unavailableRow marks the read datums of a row the reading has no values for unavailable, with
// the reading's reason (ReasonNoValues when it has none).
func (b *rowBuilder) unavailableRow(row []Value) {
	r := b.errReason
	if r == ReasonNone {
		r = ReasonNoValues
	}
	for d, p := range b.c.plan {
		if p == planDerived {
			continue
		}
		row[d] = Value{State: Unavailable, Reason: r}
	}
}

// fillRow computes the read datums of a row from their raw values and their previous ones (those
// of prev's slot pslot; -1 when there are none to rate against), each over its own interval when it has one, and
// counts the impossible jumps.
func (b *rowBuilder) fillRow(row []Value, pslot int, raw []Raw, hadPrev, newInst bool) (jumps int) {
	c := b.c
	// The previous values' cells, read a datum at a time (a Value made of them on the stack).
	var pn []numCell
	var pf []flagCell
	var ta []int
	more := false
	if pslot >= 0 {
		base := pslot * b.nd
		pn, pf = b.prev.cols.nums[base:base+b.nd:base+b.nd], b.prev.cols.flags[base:base+b.nd:base+b.nd]
		ta, more = c.textAt(), b.prev.cols.more != nil
	}
	for d, p := range c.plan {
		if p == planDerived {
			continue
		}
		if p >= planCounterU32 && pn != nil && b.own == nil && c.Datums[d].RateBoundBy == 0 {
			// fill's common case without a Value made of the previous cells first.
			if v, ok := counterRate(p, &c.Datums[d], &raw[d], &pn[d], pf[d].State, b.elapsed); ok {
				row[d] = v
				continue
			}
		}
		var pv *Value
		var pval Value
		if pn != nil {
			pval = Value{N: pn[d].N, Change: pn[d].Change, V: pn[d].V, State: pf[d].State, Reason: pf[d].Reason}
			if more || (d < len(ta) && ta[d] >= 0) {
				pval.S = b.prev.textOf(pslot, d, pslot*b.nd+d)
			}
			pv = &pval
		}
		el := b.elapsed
		if b.own != nil {
			if el = b.own[d]; el < 0 && pv != nil && pv.State != Unavailable && raw[d].State == RawOK {
				row[d] = *pv // not logged since its previous reading: that reading's value, never a rate of 0
				continue
			}
		}
		row[d] = fill(p, &c.Datums[d], &raw[d], pv, hadPrev, newInst, b.reset, el)
		if by := c.Datums[d].RateBoundBy; by != 0 && row[d].State == Valid {
			row[d] = boundByInstance(c, &c.Datums[d], raw, row[d], el)
		}
		if row[d].Reason == ReasonImpossibleJump {
			jumps++
		}
	}
	return jumps
}

// counterRate is fill's common case: a counter's rate between this reading and a valid (or
// not yet rated) previous one of the same instance, under no reset; false where fill must
// decide (a value that does not fit, a decrease, no time elapsed, an impossible rise).
func counterRate(p datumPlan, dd *Datum, r *Raw, prev *numCell, pstate ValueState, el float64) (Value, bool) {
	if r.State != RawOK || (pstate != Valid && pstate != NoRate) || el <= 0 || !Fits(dd.Type, r.N) {
		return Value{}, false
	}
	delta, ok := counterDelta(p, prev.N, r.N)
	if !ok || Impossible(dd, delta, el) {
		return Value{}, false
	}
	return Value{N: r.N, Change: delta, V: delta / el}, true
}

// deriveRow computes a row's derived datums in their order; one whose arguments were not logged
// since the previous reading keeps its value as it was.
func (b *rowBuilder) deriveRow(row []Value, pslot int) {
	c := b.c
	for _, d := range c.derivOrd {
		if b.own != nil && pslot >= 0 && b.argsElapsed(c.Datums[d].args[:c.Datums[d].Units.Args()]) < 0 {
			row[d] = b.prev.At(pslot, d) // its arguments not logged since: its value as it was
			continue
		}
		row[d] = derive(&c.Datums[d], row, c.Datums, b.argsElapsed(c.Datums[d].args[:c.Datums[d].Units.Args()]))
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
