package namespace

import "math"

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

func derive(d *Datum, row []Value, datums []Datum, elapsed float64) Value {
	var a [3]float64
	for n := 0; n < d.Units.Args(); n++ {
		j := d.args[n]
		x, ok := argValue(&row[j], &datums[j])
		if !ok {
			out := Value{State: Unavailable, Reason: row[j].Reason}
			if row[j].State == NoRate {
				out.State = NoRate
			}
			if out.Reason == ReasonNone || out.Reason == ReasonInvalidData {
				out.Reason = ReasonArgUnavailable
			}
			return out
		}
		a[n] = x
	}
	switch {
	case d.Units == DerivedPercent && (a[0] < 0 || a[1] < 0):
		// A share of parts one of which is negative (a disk busy for longer than the
		// interval: idle_ms < 0) would lie outside 0–100%.
		return Value{State: Unavailable, Reason: ReasonShareOutOfRange}
	case d.Units == DerivedDifference && !d.IsCounter() && a[0] < a[1]:
		// Sizes: what is in use (total − available) cannot be negative (issue 29).
		return Value{State: Unavailable, Reason: ReasonUsedAboveTotal}
	}
	r, ok := Evaluate(d.Units, a[0], a[1], a[2])
	if !ok {
		return Value{State: Unavailable, Reason: ReasonZeroDenominator}
	}
	if d.IsCounter() {
		if elapsed <= 0 {
			return Value{State: NoRate, Reason: ReasonNoElapsed}
		}
		return Value{Change: r, V: r / elapsed}
	}
	return Value{V: r}
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
