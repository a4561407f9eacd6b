package views

import (
	"math"

	"dcimon/namespace"
)

// Gauged reports whether a bar and a sparkline mean something for the datum: it moves (not
// PM_SEM_DISCRETE) and has an SPMI default scale.
func Gauged(d *namespace.Datum) bool {
	return d != nil && d.PCP.Sem != namespace.PMSemDiscrete && d.Max > d.Min
}

// BarFraction is how full a bar or gauge for the value is, 0..1, over the datum's default scale
// Min..Max (SPMI-VAL-3: for counters the range of the rate per second, so a counter moving 100
// in 2 s fills a 0..100 bar to 0.5). A value outside the range is clamped to the end of the bar
// and reported, while the text beside it always shows the true value (AMB-41). ok is false when
// there is no bar to draw: the value is not valid or the datum has no range.
//
// A discrete value (a capacity, a processor count, a constant) has no bar whatever its scale
// (issue 12): it does not move, so a bar would only say how big the thing is, in alarm colours.
func BarFraction(d *namespace.Datum, v namespace.Value) (frac float64, clamped, ok bool) {
	if v.State != namespace.Valid || !Gauged(d) || math.IsNaN(v.V) {
		return 0, false, false
	}
	f := (v.V - d.Min) / (d.Max - d.Min)
	switch {
	case f < 0:
		return 0, true, true
	case f > 1:
		return 1, true, true
	}
	return f, false, true
}
