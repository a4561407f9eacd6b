package namespace

import (
	"slices"
	"time"
)

// StatSet is an SPMI statset (SpmiStatSet): a list of statistics read together from one reading
// of a shared Reading, with the time of the read and the time since the previous one
// (SPMI-SET-1..15). A StatSet is not safe for concurrent use; give each one a single owner.
//
// Decisions the SPMI guide leaves open, written down once:
//   - adding a statistic already in the set raises its ref_count instead of adding a row; deleting
//     lowers it and removes the row at zero (AMB-42);
//   - the set keeps its own previous reading of every statistic: val_change is the change since the
//     set's previous read of it and counters decode as val_change divided by the collector time
//     elapsed since that read (SPMI-SET-7, SPMI-SET-9, X-4). When the set reads every snapshot, as
//     the TUI does, these are exactly the snapshot's deltas and rates, so every pane shows the same
//     numbers; a set that skipped readings still gets rates over its own interval;
//   - a statistic is primed with the shared reading's snapshot when it is added, so its first read
//     after the next reading gives a valid rate (SPMI-SET-15). A counter read on the reading it was
//     primed with has no interval yet and gives SiNoValue, never 0 or a rate since boot;
//   - values are decoded into (value, error), never into a negative sentinel (SPMI-SET-10, AMB-50);
//   - only numeric statistics can be added: SPMI values are SiLong or SiFloat (SPMI-VAL-2).
type StatSet struct {
	reg        *Registry
	src        *Reading
	vals       []*StatVal // in order of addition; iteration runs backwards (SPMI-SET-11)
	gen        uint64     // the shared reading the set last read
	read       bool
	freed      bool
	time       time.Time
	timeChange time.Duration
	// A statistic's row as read and its previous reading, by datum index (only the datums it
	// needs filled), kept from one statistic to the next; and what each datum of a class needs.
	row, prow []Value
	needs     map[needKey][]int
}

// needKey is a datum of a class.
type needKey struct {
	c  *Class
	di int
}

// needOf is the datums whose values datum di's interval value is computed from (intervalValue):
// itself and, for a derived datum, its arguments and theirs; made once a set for each datum.
func (s *StatSet) needOf(c *Class, di int) []int {
	k := needKey{c, di}
	if need, ok := s.needs[k]; ok {
		return need
	}
	var need []int
	var walk func(j int)
	walk = func(j int) {
		if slices.Contains(need, j) {
			return
		}
		need = append(need, j)
		if dd := &c.Datums[j]; dd.IsDerived() {
			for n := range dd.Units.Args() {
				walk(dd.ArgIndex(n))
			}
		}
	}
	walk(di)
	if s.needs == nil {
		s.needs = map[needKey][]int{}
	}
	s.needs[k] = need
	return need
}

// StatVal is one statistic of a statset: the SpmiStatVals record (SPMI-SET-4). Val and Err are
// results, rewritten by every read that refreshes the statistic; treat them as read-only.
type StatVal struct {
	// Val is the statistic's value at the set's last read: Val.N is `val` as the supplier keeps it
	// (Val.V for derived values, which have no raw reading), Val.Change is `val_change` since the
	// set's previous read, Val.V the decoded value (SPMI-SET-6, -7, -9), and Val.State with
	// Val.Reason say why a value is missing.
	Val Value
	// Err is the per-value SPMI error: SiSuccess when the last read gave a value (SPMI-SET-8).
	Err SiErr
	// Time is the collector timestamp of the reading the value comes from.
	Time time.Time

	set  *StatSet
	ref  Ref
	path string
	di   int // the datum's index in its class
	refs int
	idx  int // position in set.vals; -1 once deleted
	read bool
	gen  uint64

	// The set's previous reading of the datums the statistic needs (need: itself and, derived,
	// its arguments), which priming fills (SPMI-SET-15) and each read replaces; derived values are
	// recomputed from it when the set skipped readings.
	need      []int
	prev      []Value
	prevTime  time.Time
	prevReset [8]byte
	hasPrev   bool
}

// NewStatSet returns an empty statset of the registry's statistics, read from src
// (SpmiCreateStatSet). The set exists before anything is added to it, by construction.
func NewStatSet(reg *Registry, src *Reading) *StatSet { return &StatSet{reg: reg, src: src} }

// Ref is the statistic and its context (the stat and context handles).
func (v *StatVal) Ref() Ref { return v.ref }

// Path is the statistic's full SPMI path (`CPU/cpu0/idle`).
func (v *StatVal) Path() string { return v.path }

// RefCount is how many times the statistic has been added to the set and not deleted (SPMI-SET-5).
func (v *StatVal) RefCount() int { return v.refs }

// WasRead reports whether a read of the set has refreshed this statistic yet (SPMI-SET-12).
func (v *StatVal) WasRead() bool { return v.read }

// Time is the time of the set's current read (SPMI-SET-3); zero before the first.
func (s *StatSet) Time() time.Time { return s.time }

// TimeChange is the time elapsed between the set's previous read and the current one; zero until
// the set has been read twice (SPMI-SET-3).
func (s *StatSet) TimeChange() time.Duration { return s.timeChange }

// Len is the number of rows (statistics) in the set.
func (s *StatSet) Len() int { return len(s.vals) }

// Add adds the statistic at path, resolved relative to parent (nil: path is a full path from Top),
// and returns its record (SpmiPathAddSetStat, SPMI-SET-1, SPMI-HIER-8). Adding a statistic the set
// already holds raises its ref_count and returns the existing record (SPMI-SET-5, AMB-42). The new
// statistic is primed with the shared reading's snapshot (SPMI-SET-15). An unknown context is
// SiInvalidCx, an unknown statistic or a path naming a context SiNotFound, a text statistic
// SiBadArgument (AMB-44).
func (s *StatSet) Add(parent *Context, path string) (*StatVal, error) {
	if s.freed {
		return nil, errf(StatusInvalidArg, SiBadArgument, "statset: the set has been freed")
	}
	ref, err := s.reg.Lookup(parent, path)
	if err != nil {
		return nil, err
	}
	return s.AddRef(ref)
}

// AddRef is Add of a statistic already resolved (the stat and context handles a lookup gave), as
// `dcimon get` adds what its paths and wildcards expanded to.
func (s *StatSet) AddRef(ref Ref) (*StatVal, error) {
	if s.freed {
		return nil, errf(StatusInvalidArg, SiBadArgument, "statset: the set has been freed")
	}
	path := ref.Path()
	if !ref.IsStat() {
		return nil, errf(StatusUnknownDatum, SiNotFound, "statset: %q names a context, not a statistic", path)
	}
	if !numericDatum(ref.Datum) {
		return nil, errf(StatusInvalidArg, SiBadArgument, "statset: %s is %s, not a number: SPMI values are SiLong or SiFloat (SPMI-VAL-2)", ref.Path(), ref.Datum.Type)
	}
	for _, v := range s.vals {
		if v.ref.Ctx == ref.Ctx && v.ref.Datum == ref.Datum {
			v.refs++
			return v, nil
		}
	}
	v := &StatVal{set: s, ref: ref, path: ref.Path(), di: -1, refs: 1, idx: len(s.vals),
		Err: SiNoValue, Val: Value{State: Unavailable, Reason: ReasonNotSampled}}
	snap := s.src.Snapshot()
	s.reg.Read(func() {
		if c := ref.Ctx.Stats; c != nil && !ref.Ctx.Deleted() {
			if v.di = c.DatumIndex(ref.Datum.ID); v.di >= 0 {
				v.need = s.needOf(c, v.di)
			}
		}
		if snap != nil && v.di >= 0 {
			v.prime(snap)
		}
	})
	if v.di < 0 {
		return nil, errf(StatusInvalidArg, SiDeleted, "statset: the context of %s has been deleted", v.path)
	}
	s.vals = append(s.vals, v)
	return v, nil
}

// Del removes one reference to the statistic; the row goes when its ref_count reaches zero
// (SpmiDelSetStat, SPMI-SET-1, SPMI-SET-5). A record not in the set is SiNotFound.
func (s *StatSet) Del(v *StatVal) error {
	if v == nil || v.set != s || v.idx < 0 {
		return errf(StatusInvalidArg, SiNotFound, "statset: the statistic is not in this set")
	}
	v.refs--
	if v.refs > 0 {
		return nil
	}
	i := v.idx
	s.vals = append(s.vals[:i], s.vals[i+1:]...)
	for j := i; j < len(s.vals); j++ {
		s.vals[j].idx = j
	}
	v.set, v.idx = nil, -1
	return nil
}

// Clear deletes every statistic of the set; the set stays usable.
func (s *StatSet) Clear() {
	for _, v := range s.vals {
		v.set, v.idx, v.refs = nil, -1, 0
	}
	s.vals = nil
}

// Free erases the set: it deletes every statistic first, then the set itself, which refuses any
// further use with SiBadArgument (SpmiFreeStatSet, SPMI-SET-1).
func (s *StatSet) Free() {
	s.Clear()
	s.freed = true
}

// Read reads every statistic of the set at the same time, from one snapshot of the shared reading
// (SpmiGetStatSet, SPMI-SET-2). With force the shared reading first takes a new reading; without, the set
// refreshes from the shared reading's snapshot the statistics it holds obsolete values for, and
// returns the values previously retrieved when there are none (SPMI-SET-13). Per-value problems
// are in each record's Err, never in the returned error, which reports only that the source has
// no reading or could not take one.
func (s *StatSet) Read(force bool) error {
	if s.freed {
		return errf(StatusInvalidArg, SiBadArgument, "statset: the set has been freed")
	}
	snap, gen, err := s.src.acquire(force)
	if err != nil {
		return err
	}
	if snap == nil {
		return errf(StatusNotInitialized, SiNoValue, "statset: the source has no reading yet")
	}
	fresh := !s.read || gen != s.gen
	if fresh {
		t := readingTime(snap)
		if s.read {
			s.timeChange = t.Sub(s.time)
		}
		s.time, s.gen, s.read = t, gen, true
	}
	s.reg.Read(func() {
		for _, v := range s.vals {
			if !v.read || v.gen != gen {
				v.refresh(snap)
				v.gen = gen
			}
		}
	})
	return nil
}

// First returns the first record in iteration order, the statistic added last (SpmiFirstVals,
// SPMI-SET-11), or nil for an empty set. Records of statistics not yet read decode to SiNoValue.
func (s *StatSet) First() *StatVal {
	if len(s.vals) == 0 {
		return nil
	}
	return s.vals[len(s.vals)-1]
}

// Next returns the record after v in iteration order, the statistic added before it
// (SpmiNextVals, SPMI-SET-11), or nil at the end or when v is not in the set.
func (s *StatSet) Next(v *StatVal) *StatVal {
	if v == nil || v.set != s || v.idx <= 0 {
		return nil
	}
	return s.vals[v.idx-1]
}

// Value decodes the record (SpmiGetValue, SPMI-SET-9): a quantity's level, a counter's val_change
// divided by the seconds elapsed since the set's previous read. It fails with SiNotFound for a
// record not in the set, SiNoValue before the statistic's first read (SPMI-SET-12), and the
// record's own code when the value is missing; it never returns a sentinel (SPMI-SET-10).
func (s *StatSet) Value(v *StatVal) (float64, error) {
	if v == nil || v.set != s || v.idx < 0 {
		return 0, errf(StatusInvalidArg, SiNotFound, "statset: the statistic is not in this set")
	}
	return v.decode()
}

// NextValue is Next and Value in one call (SpmiNextValue, SPMI-SET-14): nil v gives the first
// record. It returns the record with its decoded value, or a nil record at the end. A record whose
// value cannot be decoded comes back with the decoding error, so the walk can go on. The position
// is kept in the record, so each step costs the same whichever set is walked.
func (s *StatSet) NextValue(v *StatVal) (*StatVal, float64, error) {
	var n *StatVal
	if v == nil {
		n = s.First()
	} else {
		n = s.Next(v)
	}
	if n == nil {
		return nil, 0, nil
	}
	x, err := n.decode()
	return n, x, err
}

func (v *StatVal) decode() (float64, error) {
	if !v.read {
		return 0, errf(StatusNotInitialized, SiNoValue, "%s: no value before the set's first read (SPMI-SET-12)", v.path)
	}
	if v.Err != SiSuccess {
		if v.Val.Reason != ReasonNone {
			return 0, errf(v.Val.Reason.Status(), v.Err, "%s: %s", v.path, v.Val.Reason)
		}
		return 0, errf(StatusNotPresent, v.Err, "%s: %s", v.path, v.Err.Text())
	}
	return v.Val.V, nil
}

// prime records the statistic's current reading as the set's previous one (SPMI-SET-15).
func (v *StatVal) prime(snap *Snapshot) {
	ctx := v.ref.Ctx
	if ctx.Deleted() || ctx.Stats == nil {
		return
	}
	cv := snap.Class(ctx.Stats)
	if cv == nil || !cv.Sampled {
		return
	}
	if row := v.rowIn(cv); row != nil {
		v.keep(cv, row)
	}
}

// rowIn is the row of the statistic's instance in cv, the datums it needs filled (in the set's
// scratch row), or nil when the instance is not in cv.
func (v *StatVal) rowIn(cv *ClassValues) []Value {
	in := v.ref.Ctx.StatsInst
	if in == nil || in.slot >= len(cv.Insts) || cv.Insts[in.slot] != in {
		return nil
	}
	s := v.set
	nd := len(cv.Class.Datums)
	if v.di >= nd {
		return nil // not a datum of the class as it is now
	}
	s.row = growValues(s.row, nd)
	for _, j := range v.need {
		if j < nd {
			s.row[j] = cv.At(in.slot, j)
		}
	}
	return s.row
}

// keep takes the needed datums of row as the set's previous reading of the statistic.
func (v *StatVal) keep(cv *ClassValues, row []Value) {
	if cap(v.prev) < len(v.need) {
		v.prev = make([]Value, len(v.need))
	}
	v.prev = v.prev[:len(v.need)]
	for k, j := range v.need {
		if j < len(row) {
			v.prev[k] = row[j]
		}
	}
	v.prevTime, v.prevReset, v.hasPrev = cv.Time, cv.Reset, true
}

// prevRow is the statistic's previous reading by datum index, in the set's scratch.
func (v *StatVal) prevRow(nd int) []Value {
	s := v.set
	s.prow = growValues(s.prow, nd)
	for k, j := range v.need {
		if j < nd && k < len(v.prev) {
			s.prow[j] = v.prev[k]
		}
	}
	return s.prow
}

// refresh takes the statistic's value from a reading (one step of SpmiGetStatSet).
func (v *StatVal) refresh(snap *Snapshot) {
	first := !v.read
	v.read = true
	ctx := v.ref.Ctx
	if ctx.Deleted() || ctx.Stats == nil || v.di < 0 {
		v.Val, v.Err, v.Time = Value{State: Unavailable}, SiDeleted, time.Time{}
		return
	}
	cv := snap.Class(ctx.Stats)
	if cv == nil || !cv.Sampled {
		v.Val, v.Err, v.Time = Value{State: Unavailable, Reason: ReasonNotSampled}, SiNoValue, time.Time{}
		return
	}
	row := v.rowIn(cv)
	if row == nil {
		v.Val, v.Err, v.Time = Value{State: Unavailable, Reason: ReasonNoValues}, SiNoValue, cv.Time
		return
	}
	d := &ctx.Stats.Datums[v.di]
	cur := row[v.di]
	switch {
	case v.hasPrev && cv.Restarted:
		// Read after a move in a replayed archive: nothing is taken across the move.
		v.Val = firstValue(cur, d)
	case v.hasPrev && cv.Time.Equal(v.prevTime):
		// No new reading of the class since the set's previous one.
		if !first {
			return
		}
		v.Val = firstValue(cur, d)
	case v.hasPrev && cv.Elapsed > 0 && cv.Time.Add(-cv.Elapsed).Equal(v.prevTime):
		// The snapshot's interval is the set's: its delta and rate are the set's.
		v.Val = cur
	case v.hasPrev:
		// The set skipped readings: compute over its own interval (SPMI-SET-7, SPMI-SET-9).
		v.Val = intervalValue(ctx.Stats, v.di, v.prevRow(len(row)), row, cv.Reset != v.prevReset, cv.Time.Sub(v.prevTime).Seconds())
	default:
		v.Val = firstValue(cur, d)
	}
	v.Err, v.Time = valueErr(&v.Val), cv.Time
	v.keep(cv, row)
}

// firstValue is a value the set has no previous reading for: a level as it is, a counter without
// a rate (SPMI-SET-15).
// A counter that already has no rate keeps the reading's own reason (a new instance, a supplier
// re-initialised), which says more than "no previous sample".
func firstValue(cur Value, d *Datum) Value {
	cur.Change = 0
	switch {
	case d.IsCounter() && cur.State == Valid:
		cur.V, cur.State, cur.Reason = 0, NoRate, ReasonFirstSample
	case d.IsCounter() && cur.State == NoRate && cur.Reason == ReasonNone:
		cur.V, cur.Reason = 0, ReasonFirstSample
	case d.IsCounter() && cur.State == NoRate:
		cur.V = 0
	}
	return cur
}

// valueErr is the SPMI per-value code of a value (SPMI-SET-8): success only for a valid value.
func valueErr(v *Value) SiErr {
	if v.State == Valid {
		return SiSuccess
	}
	if e := v.Reason.SiErr(); e != SiSuccess {
		return e
	}
	return SiNoValue
}

func numericDatum(d *Datum) bool { return d.IsDerived() || d.Type.IsNumeric() }

// intervalValue is datum d of a row over an interval longer than the snapshot's, from the set's
// previous reading prev to cur: counters give their delta and its rate over elapsed seconds,
// levels their current value; derived values are recomputed from their arguments over the same
// interval (DCI-DER-4), so a set that skipped readings still decodes by SPMI-SET-9.
func intervalValue(c *Class, d int, prev, cur []Value, reset bool, elapsed float64) Value {
	out := cur[d]
	dd := &c.Datums[d]
	x, st, why := intervalInput(c, d, prev, cur, reset)
	if st != Valid {
		out.Change, out.V, out.State, out.Reason = 0, 0, st, why
		return out
	}
	if dd.IsCounter() {
		if elapsed <= 0 {
			out.Change, out.V, out.State, out.Reason = 0, 0, NoRate, ReasonNoElapsed
			return out
		}
		out.Change, out.V, out.State, out.Reason = x, x/elapsed, Valid, ReasonNone
		return out
	}
	out.V, out.State, out.Reason, out.Change = x, Valid, ReasonNone, 0
	if prev[d].State == Valid {
		out.Change = x - prev[d].V
	}
	return out
}

// intervalInput is what datum j contributes over the interval: its delta for a counter, its level
// otherwise (the argument rule of DCI-DER-4).
func intervalInput(c *Class, j int, prev, cur []Value, reset bool) (float64, ValueState, Reason) {
	dd := &c.Datums[j]
	if dd.IsDerived() {
		var a [3]float64
		for n := 0; n < dd.Units.Args(); n++ {
			x, st, why := intervalInput(c, dd.ArgIndex(n), prev, cur, reset)
			if st != Valid {
				if st == Invalid {
					st = Unavailable
				}
				if why == ReasonNone || why == ReasonInvalidData {
					why = ReasonArgUnavailable
				}
				return 0, st, why
			}
			a[n] = x
		}
		r, ok := Evaluate(dd.Units, a[0], a[1], a[2])
		if !ok {
			return 0, Unavailable, ReasonZeroDenominator
		}
		return r, Valid, ReasonNone
	}
	cv := &cur[j]
	if !dd.IsCounter() {
		if cv.State != Valid {
			return 0, cv.State, cv.Reason
		}
		return cv.V, Valid, ReasonNone
	}
	// A counter's raw reading is kept in N even when it has no rate (NoRate).
	if cv.State != Valid && cv.State != NoRate {
		return 0, cv.State, cv.Reason
	}
	if pv := &prev[j]; pv.State != Valid && pv.State != NoRate {
		return 0, NoRate, ReasonFirstSample
	}
	if reset {
		return 0, NoRate, ReasonReset
	}
	delta, ok := CounterDelta(dd.Type, prev[j].N, cv.N)
	if !ok {
		return 0, NoRate, ReasonCounterDecrease
	}
	return delta, Valid, ReasonNone
}
