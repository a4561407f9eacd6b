package ui

import (
	"math"
	"strings"
)

// Bars and sparklines are pure functions of numbers, so they get table tests.

var eighths = [...]string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// Runs of the cells bars are drawn with, to slice from rather than repeat for every bar.
var (
	fullCells  = strings.Repeat("█", 256)
	emptyCells = strings.Repeat("░", 256)
)

// cellRun is n cells of the run r (made of one three-byte character).
func cellRun(r string, n int) string {
	switch {
	case n <= 0:
		return ""
	case 3*n <= len(r):
		return r[:3*n]
	}
	return strings.Repeat(r[:3], n)
}

// barScale places v on the SPMI default scale lo..hi (SPMI-VAL-3): the fraction of the bar to
// fill, clamped to 0..1, and whether v lies above hi. A scale with hi ≤ lo cannot place
// anything: ok is false. The true value is always printed next to the bar (AMB-41).
func barScale(v, lo, hi float64) (frac float64, over, ok bool) {
	if !(hi > lo) || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false, false
	}
	f := (v - lo) / (hi - lo)
	switch {
	case f > 1:
		return 1, true, true
	case f < 0:
		return 0, false, true
	}
	return f, false, true
}

// barCells returns the filled part of a w-cell bar for frac (in eighths of a cell) and the
// number of cells left empty.
func barCells(frac float64, w int) (string, int) {
	if w <= 0 {
		return "", 0
	}
	frac = math.Max(0, math.Min(1, frac))
	units := int(math.Round(frac * float64(w*8)))
	full, part := units/8, units%8
	s := cellRun(fullCells, full) + eighths[part]
	used := full
	if part > 0 {
		used++
	}
	return s, w - used
}

var sparkChars = [...]rune{'▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'}

// sparkline draws the last w values (oldest first) in w cells over the scale lo..hi, clamped at
// its ends; with hi ≤ lo the scale is min(0, lowest)..highest of the values shown. A value that
// is not a number (no valid reading) is a blank cell, never a zero.
func sparkline(vals []float64, w int, lo, hi float64) string {
	if w <= 0 {
		return ""
	}
	if len(vals) > w {
		vals = vals[len(vals)-w:]
	}
	if !(hi > lo) {
		lo, hi = 0.0, math.Inf(-1)
		for _, v := range vals {
			if math.IsNaN(v) {
				continue
			}
			lo = math.Min(lo, v)
			hi = math.Max(hi, v)
		}
	}
	var sb strings.Builder
	for i := len(vals); i < w; i++ {
		sb.WriteByte(' ')
	}
	for _, v := range vals {
		if math.IsNaN(v) {
			sb.WriteByte(' ')
			continue
		}
		i := 0
		if hi > lo {
			i = int(math.Round(math.Max(0, math.Min(1, (v-lo)/(hi-lo))) * float64(len(sparkChars)-1)))
		}
		sb.WriteRune(sparkChars[clamp(i, 0, len(sparkChars)-1)])
	}
	return sb.String()
}
