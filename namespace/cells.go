package namespace

// Next works a snapshot's values out straight into the cells of its columns (issue 38 item 1):
// each value's numbers, state and text are written where they are kept as they are worked out,
// not into a row of 48-byte Values packed into the columns after; and what a value needs of its
// datum is a step of 8 bytes made when the class was compiled, not the Datum (hundreds of
// bytes, its four views) read for every value of every instance.

// datumStep is what Next needs of one datum for each of its values. A counter's bounds
// (Datum.MaxRate, RateBoundBy) are read from the datum as it is at the reading.
type datumStep struct {
	ty   DataType
	plan datumPlan
}

// stepFor is datum d's step.
func stepFor(d *Datum) datumStep { return datumStep{ty: d.Type, plan: planFor(d)} }

// derivStep is a derived datum's formula as Next applies it (DCI-DER-2, DCI-DER-4).
type derivStep struct {
	d     int    // the derived datum's index
	n     int    // how many arguments
	args  [3]int // the arguments' indices
	units Unit   // the relationship
	// argCounter says an argument is a counter, whose interval delta is used, not its level.
	argCounter [3]bool
	counter    bool // the datum is a counter: a rate over the interval
}

// derivSteps are the steps of the derived datums in order.
func derivSteps(datums []Datum, order []int) []derivStep {
	if len(order) == 0 {
		return nil
	}
	out := make([]derivStep, len(order))
	for k, i := range order {
		d := &datums[i]
		s := derivStep{d: i, n: d.Units.Args(), args: d.args, units: d.Units, counter: d.IsCounter()}
		for n := range s.n {
			s.argCounter[n] = datums[d.args[n]].IsCounter()
		}
		out[k] = s
	}
	return out
}

// eval works the derived value out of its arguments' cells, over elapsed seconds for a counter.
func (s *derivStep) eval(nums []numCell, flags []flagCell, elapsed float64) (numCell, flagCell) {
	var a [3]float64
	for n := range s.n {
		j := s.args[n]
		if f := flags[j]; f.State != Valid {
			out := flagCell{State: Unavailable, Reason: f.Reason}
			if f.State == NoRate {
				out.State = NoRate
			}
			if out.Reason == ReasonNone || out.Reason == ReasonInvalidData {
				out.Reason = ReasonArgUnavailable
			}
			return numCell{}, out
		}
		if s.argCounter[n] {
			a[n] = nums[j].Change
		} else {
			a[n] = nums[j].V
		}
	}
	switch {
	case s.units == DerivedPercent && (a[0] < 0 || a[1] < 0):
		// A share of parts one of which is negative (a disk busy for longer than the
		// interval: idle_ms < 0) would lie outside 0–100%.
		return numCell{}, flagCell{State: Unavailable, Reason: ReasonShareOutOfRange}
	case s.units == DerivedDifference && !s.counter && a[0] < a[1]:
		// Sizes: what is in use (total − available) cannot be negative (issue 29).
		return numCell{}, flagCell{State: Unavailable, Reason: ReasonUsedAboveTotal}
	}
	r, ok := Evaluate(s.units, a[0], a[1], a[2])
	if !ok {
		return numCell{}, flagCell{State: Unavailable, Reason: ReasonZeroDenominator}
	}
	if s.counter {
		if elapsed <= 0 {
			return numCell{}, flagCell{State: NoRate, Reason: ReasonNoElapsed}
		}
		return numCell{Change: r, V: r / elapsed}, flagCell{}
	}
	return numCell{V: r}, flagCell{}
}

// cellRow is where one instance's values go in a snapshot's columns.
type cellRow struct {
	nums  []numCell
	flags []flagCell
	texts []string // the texts of the class's text datums
	base  int      // the index of its first value
}

// rowCells are the cells of slot's values in cols.
func (cols *valueCols) rowCells(c *Class, slot, nd int) cellRow {
	base := slot * nd
	w := cellRow{nums: cols.nums[base : base+nd : base+nd], flags: cols.flags[base : base+nd : base+nd], base: base}
	if nt := c.textCount(); nt > 0 {
		w.texts = cols.texts[slot*nt : slot*nt+nt : slot*nt+nt]
	}
	return w
}

// put stores v as the value of datum d; a text of a datum that is not a text datum (textAt,
// ta) is added to more, for the caller to merge.
func (w *cellRow) put(d int, v Value, ta []int, more *[]moreText) {
	w.nums[d] = numCell{N: v.N, Change: v.Change, V: v.V}
	w.flags[d] = flagCell{State: v.State, Reason: v.Reason}
	if d < len(ta) && ta[d] >= 0 {
		w.texts[ta[d]] = v.S
	} else if v.S != "" {
		*more = append(*more, moreText{i: w.base + d, s: v.S})
	}
}

// clear zeroes the row: a class not compiled, whose datums are not worked out, reads as zero.
func (w *cellRow) clear() {
	clear(w.nums)
	clear(w.flags)
	clear(w.texts)
}

// checkParts enforces the invariant of Datum.Part: the parts of one instance's time add up to at
// most Share × elapsed seconds, plus two ticks a processor and 2% (TickSlack, PartSlack), and the
// source's slack: window, how long the two readings took (a remote timestamp is pmcd's, taken at
// some moment of its request). When they add up to more, no part of the reading is true, and
// every part is an error naming the invariant (issues 29, 40). A part is a counter, whose values
// carry no text.
func checkParts(c *Class, w *cellRow, elapsed, window float64) {
	if elapsed <= 0 {
		return
	}
	var sum, share float64
	for _, d := range c.parts {
		if w.flags[d].State != Valid {
			return // a part without a rate: nothing to compare
		}
		dd := &c.Datums[d]
		sum += w.nums[d].Change * unitSeconds(dd.Units)
		share = dd.ShareOrOne()
	}
	if sum <= share*(elapsed*(1+PartSlack)+TickSlack+window) {
		return
	}
	for _, d := range c.parts {
		w.nums[d] = numCell{N: w.nums[d].N}
		w.flags[d] = flagCell{State: Unavailable, Reason: ReasonBeyondElapsed}
	}
}
