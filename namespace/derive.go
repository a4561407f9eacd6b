package namespace

import "math"

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
