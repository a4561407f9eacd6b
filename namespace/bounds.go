package namespace

// Tolerances of the hardware bound: the kernel counts time in ticks (10 ms at the lowest HZ) and
// the two readings are not taken at exactly their timestamps, so a processor may seem busy a
// little over 100% of a short interval. A counter may exceed its MaxRate × elapsed by
// jumpTolerance of the interval plus jumpSlack seconds' worth before the rise is impossible.
const (
	jumpTolerance = 1.1
	jumpSlack     = 0.05
)

// Impossible reports whether a counter's interval delta cannot be real: 2^63 or more (a reset or
// a corrupt reading, whatever the datum), or more than the datum's hardware bound allows in
// elapsed seconds (Datum.MaxRate: a processor's time, a disk's busy time).
func Impossible(d *Datum, delta, elapsed float64) bool {
	if delta >= 1<<63 {
		return true
	}
	return d.MaxRate > 0 && delta > d.MaxRate*(elapsed*jumpTolerance+jumpSlack)
}

// boundByInstance checks a counter's valid rate against the bound its instance gives
// (Datum.RateBoundBy): a rise beyond it, with Impossible's tolerances, is a discontinuity.
func boundByInstance(c *Class, dd *Datum, raw []Raw, v Value, elapsed float64) Value {
	i := c.DatumIndex(dd.RateBoundBy)
	if i < 0 || raw[i].State != RawOK || raw[i].N == 0 || elapsed <= 0 {
		return v
	}
	bound := float64(raw[i].N) * dd.RateBoundScale
	if v.Change > bound*(elapsed*jumpTolerance+jumpSlack) {
		return Value{N: v.N, State: NoRate, Reason: ReasonImpossibleJump}
	}
	return v
}
