package namespace

import (
	"slices"
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
	// Err reports a failed reading. With ErrReason ReasonTimeout or ReasonAssumedDead every value
	// is unavailable; with a provider error, instances that still have Raw values keep them
	// (a bad line among good ones) and the others are unavailable.
	Err error
	// ErrReason classifies Err (provider error, timeout, assumed dead).
	ErrReason Reason
	Insts     []*Instance
	Raw       []Raw
	// Times, when set, is the time of each datum's value (by datum index; an archive whose
	// metrics pmlogger logs in groups of their own): a datum's rate is over the time since its
	// own previous value, and a datum whose time is its previous reading's keeps that reading's
	// value (issue 39). nil: every value is at Time.
	Times []time.Time
	// Slack is how far Time may be from when the values were read, beyond Start to End: a
	// recorded reading's (an archive's record carries pmcd's timestamp, not how long its fetch
	// took; collect.ReplaySlack). Invariants judged against the time elapsed allow it.
	Slack time.Duration
}

// Sample is one collection: the classes read in it. Classes not read keep their previous values.
type Sample struct {
	Start, End time.Time
	Classes    []ClassSample
	// Restart says the readings do not follow the previous ones (a replayed archive moved to
	// another time): no rate or delta is taken across, as at a first reading.
	Restart bool
	// NoDerived leaves the derived datums uncomputed, unavailable (ReasonNotSampled): a
	// recorder writes the datums read only (issue 38 item 4).
	NoDerived bool
}

// ClassValues are the values of one class in a snapshot, read by Value, At and RowInto; kept in
// columns indexed by instance slot × len(Class.Datums) + datum index (columns.go); Insts by slot
// (nil for a free slot).
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
	Restarted bool // read after a move in time (Sample.Restart): no rate across, whatever came before
	Jumps     int  // counters whose rise at this reading was impossible (ReasonImpossibleJump)
	Insts     []*Instance
	cols      valueCols
	// Times are the times of each datum's values when the reading had its own (ClassSample.Times);
	// nil when every value is at Time.
	Times []time.Time
	// Slack is the reading's ClassSample.Slack.
	Slack time.Duration
}

// TimeOf is the time of datum index d's values: its own when the reading had times of its own
// (ClassSample.Times), else the class's.
func (cv *ClassValues) TimeOf(d int) time.Time {
	if cv != nil && d >= 0 && d < len(cv.Times) && !cv.Times[d].IsZero() {
		return cv.Times[d]
	}
	if cv == nil {
		return time.Time{}
	}
	return cv.Time
}

// Value returns the value of datum index d of the instance, and whether the instance is in
// this snapshot. An instance that is not is never a value: it has been removed, or has not been
// read yet.
func (cv *ClassValues) Value(in *Instance, d int) (Value, bool) {
	if cv == nil || in == nil || in.slot >= len(cv.Insts) || cv.Insts[in.slot] != in {
		return absent(in), false
	}
	return cv.At(in.slot, d), true
}

// JumpRefs lists the statistics of the class whose counters rose further than their hardware can
// at this reading (ReasonImpossibleJump), for the event log; nil when there are none.
func (cv *ClassValues) JumpRefs() []Ref {
	if cv == nil || cv.Jumps == 0 {
		return nil
	}
	var out []Ref
	nd := len(cv.Class.Datums)
	for slot, in := range cv.Insts {
		if in == nil {
			continue
		}
		for d := range nd {
			if cv.cols.flags[slot*nd+d].Reason == ReasonImpossibleJump {
				out = append(out, Ref{Ctx: in.Context(), Datum: &cv.Class.Datums[d]})
			}
		}
	}
	return out
}

// absent is the value of an instance that is not in a snapshot.
func absent(in *Instance) Value {
	if in != nil && in.Removed() {
		return Value{State: Unavailable, Reason: ReasonRemoved}
	}
	return Value{State: Unavailable, Reason: ReasonNotSampled}
}

// Row returns all values of the instance (one per datum) in a slice of its own, or nil; RowInto
// reads them into a slice kept from one call to the next.
func (cv *ClassValues) Row(in *Instance) []Value { return cv.RowInto(nil, in) }

// InvalidList is the instance's invalid-data list: the ids of datums not valid for it
// (DCI_INVALIDDATUMID, DCI-INV-1). Empty means all valid.
func (cv *ClassValues) InvalidList(in *Instance) []DatumID {
	var out []DatumID
	if cv == nil || in == nil || in.slot >= len(cv.Insts) || cv.Insts[in.slot] != in {
		return nil
	}
	nd := len(cv.Class.Datums)
	for i := range nd {
		if cv.cols.flags[in.slot*nd+i].State == Invalid {
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
	// Changes holds PCP's out-of-band state-change flags for this snapshot against the previous
	// one (PCPF-13): PMCDNamesChange when instances appeared or went, PMCDRestartAgent (part of
	// PMCDAgentChange) when a supplier re-initialised; 0 when nothing changed.
	Changes int
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
	// Carry classes not read in this sample; the retired snapshot's buffers are spare.
	spares := takeSpares(n)
	defer putSpares(spares)
	sp := *spares
	for i := 0; i < n; i++ {
		var old valueCols
		var oldInsts []*Instance
		spare := false
		if next.Classes[i].cols.nums != nil && recycled != nil {
			old, oldInsts, spare = next.Classes[i].cols, next.Classes[i].Insts, true
		}
		if prev != nil && i < len(prev.Classes) {
			// A buffer the previous snapshot still uses (a class carried unchanged) is not spare.
			if old.sameArray(&prev.Classes[i].cols) {
				old, oldInsts, spare = valueCols{}, nil, false
			}
			if p := prev.Classes[i].Insts; len(oldInsts) > 0 && len(p) > 0 && &oldInsts[0] == &p[0] {
				oldInsts = nil
			}
			next.Classes[i] = prev.Classes[i]
		} else {
			next.Classes[i] = ClassValues{}
		}
		next.Classes[i].ResetSeen, next.Classes[i].Restarted, next.Classes[i].Jumps = false, false, 0
		if spare {
			sp[i] = spareBufs{old, oldInsts}
		}
	}
	for i := range s.Classes {
		cs := &s.Classes[i]
		idx := cs.Class.index
		var pcv *ClassValues
		if prev != nil && idx < len(prev.Classes) && prev.Classes[idx].Class == cs.Class && !s.Restart {
			pcv = &prev.Classes[idx]
		}
		buildClass(&next.Classes[idx], pcv, cs, &sp[idx], s.NoDerived)
		next.Classes[idx].Restarted = s.Restart
		if prev != nil {
			next.Changes |= changesOf(pcv, &next.Classes[idx])
		}
	}
	return next
}

// changesOf compares a class's instances and reset across two readings (PCPF-13).
func changesOf(prev, cur *ClassValues) int {
	ch := 0
	if cur.ResetSeen {
		ch |= PMCDRestartAgent
	}
	if prev == nil || !prev.Sampled {
		if len(cur.Insts) > 0 {
			ch |= PMCDNamesChange
		}
		return ch
	}
	if len(prev.Insts) != len(cur.Insts) {
		return ch | PMCDNamesChange
	}
	for i := range cur.Insts {
		if prev.Insts[i] != cur.Insts[i] {
			return ch | PMCDNamesChange
		}
	}
	return ch
}

// buildClass builds the class values of one class sample into out, reusing the spare buffers,
// with its rates over the interval since prev (nil: none before it); its derived datums are
// left uncomputed when noDerived.
func buildClass(out *ClassValues, prev *ClassValues, cs *ClassSample, spare *spareBufs, noDerived bool) {
	c := cs.Class
	nd := len(c.Datums)
	// An instance kept in its place since the previous reading (the k-th in slot k, none come or
	// gone: a fleet's hosts' disks) is not read for its slot.
	kept := prev != nil && keptPlaces(cs.Insts, prev.Insts)
	slots := len(cs.Insts)
	if !kept {
		slots = slotsOf(cs.Insts)
	}
	cols, insts := spare.rows(c, slots, nd)
	*out = ClassValues{Class: c, Sampled: true, Reset: cs.Reset, Time: cs.Time, Start: cs.Start, End: cs.End, Slack: cs.Slack,
		Err: cs.Err, ErrReason: cs.ErrReason, Insts: insts, cols: cols}
	if cs.Times != nil {
		out.Times = slices.Clone(cs.Times) // the provider may fill its slice again
	}
	reset := false
	var elapsed, window float64
	if prev != nil && prev.Sampled {
		// How long the two readings took: how far each timestamp may be from its values.
		window = readingSlack(cs.Start, cs.End, cs.Slack) + readingSlack(prev.Start, prev.End, prev.Slack)
		if prev.Reset != cs.Reset {
			reset = true
			out.ResetSeen = true
		}
		out.Elapsed = cs.Time.Sub(prev.Time)
		elapsed = out.Elapsed.Seconds()
	}
	errReason := readingReason(cs)
	if kept {
		copy(insts, cs.Insts)
	} else {
		for _, in := range cs.Insts {
			if in != nil {
				insts[in.slot] = in
			}
		}
	}
	// A reading that failed as a whole (timed out, supplier dead, class unavailable) is never
	// used; a provider error that still came with values is a partial reading.
	partial := errReason == ReasonNone || errReason == ReasonProviderError
	// On the stack: a class of a few rows (a thousand hosts' classes each reading) costs no
	// allocation of its own.
	b := rowBuilder{c: c, nd: nd, cs: cs, prev: prev, out: &out.cols, kept: kept, reset: reset, elapsed: elapsed, jumpLimit: elapsed*jumpTolerance + jumpSlack, window: window, errReason: errReason, partial: partial, noDerived: noDerived}
	if cs.Times != nil && prev != nil && prev.Sampled {
		b.own = ownIntervals(cs, prev, nd, elapsed)
	}
	out.Jumps = buildRows(&b, len(cs.Insts))
	// Free slots hold no instance; keep their values zero so nothing stale is ever read.
	for slot, in := range insts {
		if in == nil {
			out.cols.clearSlot(c, slot, nd)
		}
	}
}

// readingSlack is how far a reading's timestamp may be from its values, in seconds: how long it
// took (never less than nothing) and its source's slack (issue 40 item 6).
func readingSlack(start, end time.Time, slack time.Duration) float64 {
	return max(end.Sub(start), 0).Seconds() + slack.Seconds()
}

// keptPlaces says the instances of a reading are those of the previous one (prev, by slot) in
// the same places: the k-th in slot k.
func keptPlaces(insts, prev []*Instance) bool {
	if len(insts) != len(prev) {
		return false
	}
	for k, in := range insts {
		if in == nil || in != prev[k] {
			return false
		}
	}
	return true
}

// slotsOf is how many slots the instances take: one past the highest.
func slotsOf(insts []*Instance) int {
	slots := 0
	for _, in := range insts {
		if in != nil && in.slot+1 > slots {
			slots = in.slot + 1
		}
	}
	return slots
}

// rows are the value columns and instance slice of a reading of slots rows of nd datums of c:
// the spare ones when they are large enough (the instances cleared), else new ones.
func (sp *spareBufs) rows(c *Class, slots, nd int) (valueCols, []*Instance) {
	cols, insts := sp.cols.sized(c, slots, nd), sp.insts
	if cap(insts) >= slots {
		insts = insts[:slots]
		clear(insts)
	} else {
		insts = make([]*Instance, slots, grown(cap(insts), slots))
	}
	return cols, insts
}

// grown is the capacity of rows that outgrew had: n at first, and a quarter more than n once
// they grow again (a class whose instances come and go, the processes, would otherwise make
// its rows anew at each new highest slot; issue 38 item 5). Classes whose instances stay keep
// their rows at their size.
func grown(had, n int) int {
	if had == 0 {
		return n
	}
	return n + n/4
}

// readingReason is why the reading's values may be unavailable: its own reason, a provider
// error when it has an error without one, or the class being unavailable.
func readingReason(cs *ClassSample) Reason {
	errReason := cs.ErrReason
	if cs.Err != nil && errReason == ReasonNone {
		errReason = ReasonProviderError
	}
	if why := cs.Class.Unavailable(); why != "" && errReason == ReasonNone {
		errReason = ReasonClassUnavailable
	}
	return errReason
}

// ownIntervals are each datum's own interval: from its previous value's time to its own (issue
// 39); the class's elapsed for one without a time, -1 for one not logged since (its value as it
// was).
func ownIntervals(cs *ClassSample, prev *ClassValues, nd int, elapsed float64) []float64 {
	own := make([]float64, nd)
	for d := range own {
		pt := prev.Time
		if d < len(prev.Times) {
			pt = prev.Times[d]
		}
		switch t := cs.Times[d]; {
		case t.IsZero():
			own[d] = elapsed
		case t.Equal(pt):
			own[d] = -1 // not logged since: its value as it was
		default:
			own[d] = t.Sub(pt).Seconds()
		}
	}
	return own
}

// TickSlack is how far a processor's counted time may run ahead of the time elapsed between two
// readings: two ticks of the kernel's clock (USER_HZ 100), one for the counters' quantization
// (each reading is taken between two ticks) and one for when the reading was taken against its
// timestamp (a pmcd's is taken apart from its PMDA's read: 0.22 s of parts in 0.206 s was seen
// at 200 ms intervals). PartSlack is the same for a slow clock: 2% of the interval.
const (
	TickSlack = 0.02
	PartSlack = 0.02
)

// unitSeconds is the seconds in one of a time unit (a Part's unit).
func unitSeconds(u Unit) float64 {
	switch u {
	case UnitMillisecs:
		return 1e-3
	case UnitMicrosecs:
		return 1e-6
	case UnitNanosecs:
		return 1e-9
	}
	return 1
}

// fill computes one non-derived value of datum dd. pv is the previous value of the same instance
// and datum when there is a usable one (same instance, no reset); newInst says the instance
// appeared since the class's previous reading. A value that does not fit the
// datum's type is invalid, never truncated; a counter that rose further than the datum's hardware
// bound allows (or by 2^63 or more) is a discontinuity, never a rate.
func fill(p datumPlan, dd *Datum, r *Raw, pv *Value, hadPrev, newInst, reset bool, elapsed float64) Value {
	switch r.State {
	case RawSkipped:
		if pv != nil {
			return *pv
		}
		return Value{State: Unavailable, Reason: ReasonNoValues}
	case RawInvalid, RawUnavailable:
		return unread(r)
	}
	ty := dd.Type
	switch p {
	case planNotQueryable:
		return Value{State: Unavailable, Reason: ReasonNotQueryable}
	case planString:
		return Value{N: r.N, S: r.S}
	}
	if !Fits(ty, r.N) {
		return Value{N: r.N, State: Invalid, Reason: ReasonOverflow}
	}
	if p == planLevel {
		v := Value{N: r.N, S: r.S, V: toFloat(ty, r.N)}
		if pv != nil && pv.State == Valid {
			v.Change = v.V - pv.V
		}
		return v
	}
	v := Value{N: r.N}
	switch {
	case reset:
		v.State, v.Reason = NoRate, ReasonReset
		return v
	case !hadPrev && newInst:
		v.State, v.Reason = NoRate, ReasonNewInstance
		return v
	case !hadPrev || pv == nil || pv.State == Invalid || pv.State == Unavailable:
		v.State, v.Reason = NoRate, ReasonFirstSample
		return v
	}
	delta, ok := counterDelta(p, pv.N, r.N)
	if !ok {
		v.State, v.Reason = NoRate, ReasonCounterDecrease
		return v
	}
	if elapsed <= 0 {
		v.State, v.Reason = NoRate, ReasonNoElapsed
		return v
	}
	if Impossible(dd, delta, elapsed) {
		v.State, v.Reason = NoRate, ReasonImpossibleJump
		return v
	}
	v.Change, v.V = delta, delta/elapsed
	return v
}

// unread is the value of a datum a provider says is invalid (RawInvalid) or has no value
// (RawUnavailable), whatever came before it.
func unread(r *Raw) Value {
	if r.State == RawInvalid {
		return Value{State: Invalid, Reason: ReasonInvalidData}
	}
	if r.Reason == ReasonNone {
		return Value{State: Unavailable, Reason: ReasonNoValues}
	}
	return Value{State: Unavailable, Reason: r.Reason}
}

// Fits reports whether a raw number fits data type t: a 4-byte type holds 32 bits (zero- or
// sign-extended for UMA_INT4), so a reading that needs more is an overflow, not a value to
// truncate.
func Fits(t DataType, n uint64) bool {
	switch t {
	case TypeUint4, TypeBoolean:
		return n>>32 == 0
	case TypeInt4:
		return n>>32 == 0 || int64(n) == int64(int32(n))
	}
	return true
}

// CounterDelta is the interval delta of a counter of type t between two readings: a 32-bit
// unsigned counter that decreased wrapped once; any other decrease is a discontinuity and
// reports false (X-3, AMB-53).
func CounterDelta(t DataType, prev, cur uint64) (float64, bool) {
	p := planCounterU64
	switch t {
	case TypeUint4:
		p = planCounterU32
	case TypeInt4:
		p = planCounterI32
	case TypeInt8:
		p = planCounterI64
	}
	return counterDelta(p, prev, cur)
}

func counterDelta(p datumPlan, prev, cur uint64) (float64, bool) {
	switch p {
	case planCounterU32:
		return float64(uint32(cur) - uint32(prev)), true // modular arithmetic is the single wrap
	case planCounterI32:
		if int32(cur) < int32(prev) {
			return 0, false
		}
		return float64(int64(int32(cur)) - int64(int32(prev))), true
	case planCounterI64:
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
		if n != 0 { // DCI truth: FALSE is 0, TRUE is anything else (DCI-TYPE-1)
			return 1
		}
		return 0
	}
	return float64(n)
}
