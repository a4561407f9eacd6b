package namespace

import (
	"math"
	"time"
)

// ClassSample is one provider reading of one class: the instances it saw, in its own order, and
// their raw values (stride: len(Class.Datums), one Raw per datum; derived slots are ignored).
type ClassSample struct {
	Class *Class
	Reset [8]byte   // the supplier's reset value at the reading (DCI4-SUP-8)
	Time  time.Time // the collector timestamp rates are computed from
	Start time.Time // when the operation started (DCI-RET-2)
	End   time.Time // when it ended
	Err   error     // the whole reading failed: every value is unavailable
	// ErrReason classifies Err (provider error, timeout, assumed dead).
	ErrReason Reason
	Insts     []*Instance
	Raw       []Raw
}

// Sample is one collection: the classes read in it. Classes not read keep their previous values.
type Sample struct {
	Start, End time.Time
	Classes    []ClassSample
}

// ClassValues are the values of one class in a snapshot. Vals is indexed by
// instance slot × len(Class.Datums) + datum index; Insts by slot (nil for a free slot).
type ClassValues struct {
	Class     *Class
	Sampled   bool // the class has been read at least once
	Reset     [8]byte
	Time      time.Time
	Start     time.Time
	End       time.Time
	Elapsed   time.Duration // since the previous reading of this class; 0 when there is none
	Err       error
	ErrReason Reason
	ResetSeen bool // the reset value changed at this reading
	Insts     []*Instance
	Vals      []Value

	spare      []Value // recyclable buffers from a retired snapshot, only inside Next
	spareInsts []*Instance
}

func (cv *ClassValues) recycle(v []Value, in []*Instance) { cv.spare, cv.spareInsts = v, in }

// Value returns the value of datum index d of the instance, and whether the instance is in
// this snapshot.
func (cv *ClassValues) Value(in *Instance, d int) (Value, bool) {
	if cv == nil || in == nil || in.slot >= len(cv.Insts) || cv.Insts[in.slot] != in {
		return Value{}, false
	}
	return cv.Vals[in.slot*len(cv.Class.Datums)+d], true
}

// Row returns all values of the instance (one per datum), or nil.
func (cv *ClassValues) Row(in *Instance) []Value {
	if cv == nil || in == nil || in.slot >= len(cv.Insts) || cv.Insts[in.slot] != in {
		return nil
	}
	n := len(cv.Class.Datums)
	return cv.Vals[in.slot*n : in.slot*n+n : in.slot*n+n]
}

// InvalidList is the instance's invalid-data list: the ids of datums not valid for it
// (DCI_INVALIDDATUMID, DCI-INV-1). Empty means all valid.
func (cv *ClassValues) InvalidList(in *Instance) []DatumID {
	var out []DatumID
	for i, v := range cv.Row(in) {
		if v.State == Invalid {
			out = append(out, cv.Class.Datums[i].ID)
		}
	}
	return out
}

// Snapshot is an immutable picture of every class's values at one collection. Build the next one
// with Next; never modify a snapshot after it has been handed out.
type Snapshot struct {
	Seq        uint64
	Start, End time.Time
	Classes    []ClassValues // indexed by Class.Index
}

// Class returns the values of class c, or nil when it has never been sampled.
func (s *Snapshot) Class(c *Class) *ClassValues {
	if s == nil || c == nil || c.index >= len(s.Classes) || s.Classes[c.index].Class != c {
		return nil
	}
	return &s.Classes[c.index]
}

// Lookup returns the value of a statistic reference (a datum of a context's statistics class).
func (s *Snapshot) Lookup(ref Ref) (Value, *ClassValues, bool) {
	if ref.Datum == nil || ref.Ctx.Stats == nil {
		return Value{}, nil, false
	}
	cv := s.Class(ref.Ctx.Stats)
	if cv == nil {
		return Value{Reason: ReasonNotSampled, State: Unavailable}, nil, false
	}
	v, ok := cv.Value(ref.Ctx.StatsInst, ref.Ctx.Stats.DatumIndex(ref.Datum.ID))
	return v, cv, ok
}

// Next builds the snapshot that follows prev (nil for the first) from a new sample. It is a pure
// function of its arguments: rates use the collector timestamps of the two readings;
// counters show val_change and a rate per second, with a 32-bit unsigned wrap taken as one wrap,
// and a 64-bit decrease, a changed supplier reset or a new instance giving no rate (X-3,
// DCI4-SUP-8); invalid and unavailable values stay distinct from zero; derived datums are
// computed on interval deltas for counters and levels for quantities (DCI-DER-4).
//
// reuse, when not nil, is a snapshot nobody reads any more whose value slices are recycled, so
// that the steady state allocates nothing per datum.
func Next(prev *Snapshot, s *Sample, reuse *Snapshot) *Snapshot {
	n := 0
	if prev != nil {
		n = len(prev.Classes)
	}
	for i := range s.Classes {
		if k := s.Classes[i].Class.index + 1; k > n {
			n = k
		}
	}
	next := &Snapshot{Start: s.Start, End: s.End}
	var recycled []ClassValues
	if reuse != nil && reuse != prev {
		recycled = reuse.Classes
	}
	if cap(recycled) >= n && recycled != nil {
		next.Classes = recycled[:n]
	} else {
		next.Classes = make([]ClassValues, n)
	}
	if prev != nil {
		next.Seq = prev.Seq + 1
	}
	// Carry classes not read in this sample.
	for i := 0; i < n; i++ {
		var old []Value
		var oldInsts []*Instance
		if next.Classes[i].Vals != nil && recycled != nil {
			old, oldInsts = next.Classes[i].Vals, next.Classes[i].Insts
		}
		if prev != nil && i < len(prev.Classes) {
			// A buffer the previous snapshot still uses (a class carried unchanged) is not spare.
			if p := prev.Classes[i].Vals; len(old) > 0 && len(p) > 0 && &old[0] == &p[0] {
				old, oldInsts = nil, nil
			}
			if p := prev.Classes[i].Insts; len(oldInsts) > 0 && len(p) > 0 && &oldInsts[0] == &p[0] {
				oldInsts = nil
			}
			next.Classes[i] = prev.Classes[i]
		} else {
			next.Classes[i] = ClassValues{}
		}
		next.Classes[i].ResetSeen = false
		if old != nil {
			// Stash the recyclable buffers in a place buildClass can find them.
			next.Classes[i].recycle(old, oldInsts)
		}
	}
	for i := range s.Classes {
		cs := &s.Classes[i]
		idx := cs.Class.index
		var pcv *ClassValues
		if prev != nil && idx < len(prev.Classes) && prev.Classes[idx].Class == cs.Class {
			pcv = &prev.Classes[idx]
		}
		buildClass(&next.Classes[idx], pcv, cs)
	}
	for i := range next.Classes {
		next.Classes[i].spare, next.Classes[i].spareInsts = nil, nil
	}
	return next
}

func buildClass(out *ClassValues, prev *ClassValues, cs *ClassSample) {
	c := cs.Class
	nd := len(c.Datums)
	slots := 0
	for _, in := range cs.Insts {
		if in != nil && in.slot+1 > slots {
			slots = in.slot + 1
		}
	}
	vals, insts := out.spare, out.spareInsts
	if cap(vals) >= slots*nd {
		vals = vals[:slots*nd]
		clear(vals)
	} else {
		vals = make([]Value, slots*nd)
	}
	if cap(insts) >= slots {
		insts = insts[:slots]
		clear(insts)
	} else {
		insts = make([]*Instance, slots)
	}
	*out = ClassValues{Class: c, Sampled: true, Reset: cs.Reset, Time: cs.Time, Start: cs.Start, End: cs.End,
		Err: cs.Err, ErrReason: cs.ErrReason, Insts: insts, Vals: vals}
	reset := false
	var elapsed float64
	if prev != nil && prev.Sampled {
		if prev.Reset != cs.Reset {
			reset = true
			out.ResetSeen = true
		}
		out.Elapsed = cs.Time.Sub(prev.Time)
		elapsed = out.Elapsed.Seconds()
	}
	errReason := cs.ErrReason
	if cs.Err != nil && errReason == ReasonNone {
		errReason = ReasonProviderError
	}
	if why := c.Unavailable(); why != "" && errReason == ReasonNone {
		errReason = ReasonClassUnavailable
	}
	for k, in := range cs.Insts {
		if in == nil {
			continue
		}
		insts[in.slot] = in
		row := vals[in.slot*nd : in.slot*nd+nd]
		var prow []Value
		if prev != nil && in.slot < len(prev.Insts) && prev.Insts[in.slot] == in {
			prow = prev.Vals[in.slot*nd : in.slot*nd+nd]
		}
		var raw []Raw
		if errReason == ReasonNone && len(cs.Raw) >= (k+1)*nd {
			raw = cs.Raw[k*nd : k*nd+nd]
		}
		for d := range c.Datums {
			dd := &c.Datums[d]
			if dd.IsDerived() {
				continue
			}
			v := &row[d]
			if raw == nil {
				v.State, v.Reason = Unavailable, errReason
				if v.Reason == ReasonNone {
					v.Reason = ReasonNoValues
				}
				continue
			}
			r := &raw[d]
			var pv *Value
			if prow != nil && !reset {
				pv = &prow[d]
			}
			fill(v, dd, r, pv, prow != nil, reset, elapsed)
		}
		for _, d := range c.derivOrd {
			derive(&row[d], &c.Datums[d], row, c.Datums, elapsed)
		}
	}
}

// fill computes one non-derived value.
func fill(v *Value, d *Datum, r *Raw, pv *Value, hadPrev, reset bool, elapsed float64) {
	if d.Flags&DatumQueryable == 0 && d.ID != InvalidDatumID {
		v.State, v.Reason = Unavailable, ReasonNotQueryable
		return
	}
	switch r.State {
	case RawSkipped:
		if pv != nil {
			*v = *pv
			return
		}
		v.State, v.Reason = Unavailable, ReasonNoValues
		return
	case RawInvalid:
		v.State, v.Reason = Invalid, ReasonInvalidData
		return
	case RawUnavailable:
		v.State, v.Reason = Unavailable, r.Reason
		if v.Reason == ReasonNone {
			v.Reason = ReasonNoValues
		}
		return
	}
	v.N, v.S = r.N, r.S
	if !d.Type.IsNumeric() {
		v.State = Valid
		return
	}
	cur := toFloat(d.Type, r.N)
	if !d.IsCounter() {
		v.V, v.State = cur, Valid
		if pv != nil && pv.State == Valid {
			v.Change = cur - pv.V
		}
		return
	}
	switch {
	case reset:
		v.State, v.Reason = NoRate, ReasonReset
		return
	case !hadPrev:
		v.State, v.Reason = NoRate, ReasonFirstSample
		return
	case pv == nil || (pv.State != Valid && pv.State != NoRate) || (pv.State == NoRate && pv.Reason == ReasonNone):
		v.State, v.Reason = NoRate, ReasonFirstSample
		return
	}
	delta, ok := counterDelta(d.Type, pv.N, r.N)
	if !ok {
		v.State, v.Reason = NoRate, ReasonCounterDecrease
		return
	}
	if elapsed <= 0 {
		v.State, v.Reason = NoRate, ReasonNoElapsed
		return
	}
	v.Change, v.V, v.State = delta, delta/elapsed, Valid
}

// counterDelta is the interval delta of a counter: a 32-bit unsigned counter that decreased
// wrapped once; any other decrease is a discontinuity (X-3, AMB-53).
func counterDelta(t DataType, prev, cur uint64) (float64, bool) {
	switch t {
	case TypeUint4:
		p, c := uint32(prev), uint32(cur)
		return float64(c - p), true // modular arithmetic is the single wrap
	case TypeInt4:
		if int32(cur) < int32(prev) {
			return 0, false
		}
		return float64(int64(int32(cur)) - int64(int32(prev))), true
	case TypeInt8:
		if int64(cur) < int64(prev) {
			return 0, false
		}
		return float64(int64(cur) - int64(prev)), true
	}
	if cur < prev {
		return 0, false
	}
	return float64(cur - prev), true
}

func toFloat(t DataType, n uint64) float64 {
	switch t {
	case TypeInt4:
		return float64(int32(n))
	case TypeInt8:
		return float64(int64(n))
	case TypeUint4:
		return float64(uint32(n))
	case TypeBoolean:
		return float64(n & 1)
	}
	return float64(n)
}

// argValue is the input a derived formula takes from an argument: the interval delta for
// counters (DCI-DER-4, AMB-26), the level otherwise.
func argValue(v *Value, d *Datum) (float64, bool) {
	if v.State != Valid {
		return 0, false
	}
	if d.IsCounter() {
		return v.Change, true
	}
	return v.V, true
}

func derive(out *Value, d *Datum, row []Value, datums []Datum, elapsed float64) {
	var a [3]float64
	for n := 0; n < d.Units.Args(); n++ {
		j := d.args[n]
		x, ok := argValue(&row[j], &datums[j])
		if !ok {
			out.State, out.Reason = row[j].State, row[j].Reason
			if out.State == Valid || out.State == Invalid {
				out.State = Unavailable
			}
			if out.Reason == ReasonNone || out.Reason == ReasonInvalidData {
				out.Reason = ReasonArgUnavailable
			}
			if row[j].State == NoRate {
				out.State = NoRate
			}
			return
		}
		a[n] = x
	}
	r, ok := Evaluate(d.Units, a[0], a[1], a[2])
	if !ok {
		out.State, out.Reason = Unavailable, ReasonZeroDenominator
		return
	}
	if d.IsCounter() {
		if elapsed <= 0 {
			out.State, out.Reason = NoRate, ReasonNoElapsed
			return
		}
		out.Change, out.V, out.State = r, r/elapsed, Valid
		return
	}
	out.V, out.State = r, Valid
}

// Evaluate applies a derived relationship to its arguments (DCI-DER-2). It reports false for a
// zero denominator or a result that is not a finite number, so no Inf or NaN ever reaches a
// screen (DCI-DER-5). PERCENT returns the fraction; it is shown ×100 (AMB-17). VARIANCE is the
// population variance arg3/arg1 − (arg2/arg1)² of count, sum and sum of squares (AMB-16).
func Evaluate(rel Unit, a1, a2, a3 float64) (float64, bool) {
	var r float64
	switch rel {
	case DerivedSum2:
		r = a1 + a2
	case DerivedSum3:
		r = a1 + a2 + a3
	case DerivedDifference:
		r = a1 - a2
	case DerivedAverage:
		if a2 == 0 {
			return 0, false
		}
		r = a1 / a2
	case DerivedPercent:
		if a1+a2 == 0 {
			return 0, false
		}
		r = a1 / (a1 + a2)
	case DerivedProduct:
		r = a1 * a2
	case DerivedVariance:
		if a1 == 0 {
			return 0, false
		}
		m := a2 / a1
		r = a3/a1 - m*m
	default:
		return 0, false
	}
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return 0, false
	}
	return r, true
}
