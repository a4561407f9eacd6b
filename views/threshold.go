package views

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A hotset threshold is typed and shown in the units its statistic is shown in (issue 12):
// `--threshold 50` on a busy percentage means 50%, not 50 times the whole; `10MiB` on a byte rate
// means 10 MiB/s. The name space compares thresholds with values in the datum's own unit (a
// fraction, a rate per second in the source unit), so the commands and the monitor convert at the
// edge with ParseThreshold and show the stored threshold back with ThresholdText.

// ParseThreshold reads a threshold typed in the measure's display units and returns it in the
// datum's own unit, the one namespace.HotSpec.Threshold compares with. A bare number is in the
// measure's base unit (percent, bytes, seconds, ones: see BaseLabel); a unit may follow, with or
// without a space: `50`, `50%`, `-5`, `10MiB`, `10 MiB/s`, `1.5k`, `2ms`, `250us`. A negative
// threshold keeps its SPMI meaning (values below its magnitude qualify, SPMI-HOT-7).
func ParseThreshold(m Measure, s string) (float64, error) {
	t := strings.TrimSpace(s)
	// The number is the longest prefix that reads as one; the rest is the unit.
	end := len(t)
	for end > 0 {
		if _, err := strconv.ParseFloat(t[:end], 64); err == nil {
			break
		}
		end--
	}
	num, unit := t[:end], strings.TrimSpace(t[end:])
	x, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("threshold %q is not a number", s)
	}
	mult, ok := unitMultiplier(m, unit)
	if !ok {
		return 0, fmt.Errorf("threshold %q: unit %q is not a unit of this statistic (%s)", s, unit, m.BaseLabel())
	}
	per := m.Base(1) // displayed base units per unit of value
	if per == 0 {
		return 0, fmt.Errorf("threshold %q: the statistic has no scale", s)
	}
	return x * mult / per, nil
}

// unitMultiplier is how many base units (bytes, seconds, ones, percent) one unit u is, for the
// units a person may type after a threshold of measure m. An empty u is the base unit.
func unitMultiplier(m Measure, u string) (float64, bool) {
	if u == "" {
		return 1, true
	}
	u = trimUnit(m, u)
	var ladder []rung
	var match func(label string) bool
	switch m.Kind {
	case KindPercent:
		return 1, u == "%" || u == ""
	case KindSize: // KiB, k, kB and their cases
		ladder, match = sizeLadder, func(l string) bool {
			return strings.EqualFold(u, l) || len(l) == 3 && (strings.EqualFold(u, l[:1]) || strings.EqualFold(u, l[:1]+"B"))
		}
	case KindBits: // Mbit and m
		ladder, match = bitLadder, func(l string) bool { return u == l || len(l) > 3 && strings.EqualFold(u, l[:1]) }
	case KindTime:
		if u == "us" {
			u = "µs"
		}
		ladder, match = timeLadder, func(l string) bool { return u == l }
	case KindCount:
		ladder, match = countLadder, func(l string) bool { return u == l || l == "k" && u == "K" }
	}
	for _, r := range ladder {
		if match(r.label) {
			return r.f, true
		}
	}
	return 1, u == ""
}

// trimUnit is u without what may follow the scale of measure m, repeated or left out: "/s",
// "/op", the count's noun.
func trimUnit(m Measure, u string) string {
	u = strings.TrimSpace(u)
	if m.Per != "" {
		u = strings.TrimSuffix(u, m.Per)
	}
	if m.Noun != "" {
		u = strings.TrimSpace(strings.TrimSuffix(u, m.Noun))
	}
	return strings.TrimSpace(u)
}

// ThresholdText shows a stored threshold (in the datum's own unit) in the statistic's display
// units with its condition, as SPMI-HOT-7 reads it: `> 50.0%`, `< 5.0%`, `> 10.0 MiB/s`, or
// `0 (every value)`.
func ThresholdText(m Measure, t float64) string {
	switch {
	case t == 0:
		return "0 (every value)"
	case t < 0:
		return "< " + m.Format(-t)
	}
	return "> " + m.Format(t)
}

// ThresholdInput is a stored threshold as a person would type it back: the number in the
// measure's base unit (`50` for 50%, `10485760` for 10 MiB/s), the form's starting text.
func ThresholdInput(m Measure, t float64) string {
	return strconv.FormatFloat(roundSig(m.Base(t), 12), 'f', -1, 64)
}

// Clean drops the floating-point noise of a unit conversion from a number meant for people or
// scripts (0.7×100 = 70.00000000000001 becomes 70), keeping 12 significant digits.
func Clean(x float64) float64 { return roundSig(x, 12) }

// roundSig drops the floating-point noise of a conversion (0.5×100 = 50.00000000000001).
func roundSig(x float64, digits int) float64 {
	v, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', digits, 64), 64)
	if err != nil {
		return x
	}
	return v
}
