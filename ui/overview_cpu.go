// The overview's CPU line: the busy share and what it is made of, in mpstat's words.

package ui

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"dcimon/namespace"
)

// cpuParts are the parts of the busy time the CPU line names, in mpstat's order and words;
// each is a share of the ticks counted (collect/schema's %usr, ...). Guest time, and any part
// the width leaves no room for, is "other".
var cpuParts = [...]struct{ label, stat string }{
	{"usr", "CPU/%usr"}, {"nice", "CPU/%nice"}, {"sys", "CPU/%sys"},
	{"irq", "CPU/%irq"}, {"soft", "CPU/%soft"}, {"steal", "CPU/%steal"},
}

// cpuBreakdown is the CPU line's breakdown of the busy share (a fraction) into its parts, as
// text at most room cells wide: `usr 13.8 sys 6.9 soft 2.4 other 1.2 · iowait 3.6`. The numbers
// before the dot add up to the total the line shows, to the tenth (issue 32 item 2); iowait is
// idle time and is not in the total, so it comes after. A part that is 0.0 is left out, as is
// everything when the shares are not known (a source without them).
func (m *Model) cpuBreakdown(busy float64, room int) string {
	var labels []string
	var vals []float64
	for _, p := range cpuParts {
		v, _, _, ok := m.statValue(p.stat)
		if !ok || v.State != namespace.Valid {
			return ""
		}
		labels, vals = append(labels, p.label), append(vals, 100*v.V)
	}
	wait := ""
	if v, _, _, ok := m.statValue("CPU/%iowait"); ok && v.State == namespace.Valid {
		wait = " · iowait " + strconv.FormatFloat(100*v.V, 'f', 1, 64)
	}
	total := 100 * busy
	// The most parts that fit, the smallest folded into other first; then without iowait.
	small := make([]int, len(vals))
	for i := range small {
		small[i] = i
	}
	slices.SortStableFunc(small, func(a, b int) int { return cmpFloat(vals[a], vals[b]) })
	for _, w := range []string{wait, ""} {
		for drop := 0; drop <= len(vals); drop++ {
			var ls []string
			var vs []float64
			for i := range vals {
				if !slices.Contains(small[:drop], i) {
					ls, vs = append(ls, labels[i]), append(vs, vals[i])
				}
			}
			if s := partsText(total, ls, vs) + w; width(s) <= room {
				return s
			}
		}
	}
	return ""
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// partsText names parts of total (both in percent) with one decimal each and other for the
// rest, the printed numbers adding up to total as printed; parts printed as 0.0 are left out.
func partsText(total float64, labels []string, vals []float64) string {
	rest := total
	for _, v := range vals {
		rest -= v
	}
	// Each part rounded on its own, other taking what rounding leaves over, so a part reads the
	// same whatever else fits; by the largest remainder when that would make other negative.
	tenths := make([]int64, len(vals)+1)
	left := int64(math.Round(total * 10))
	for i, v := range vals {
		tenths[i] = int64(math.Round(max(v, 0) * 10))
		left -= tenths[i]
	}
	tenths[len(vals)] = left
	if left < 0 {
		tenths = apportion(total, append(slices.Clone(vals), rest))
	}
	var sb strings.Builder
	for i, t := range tenths {
		if t == 0 {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		if i < len(labels) {
			sb.WriteString(labels[i])
		} else {
			sb.WriteString("other")
		}
		sb.WriteByte(' ')
		sb.WriteString(strconv.FormatFloat(float64(t)/10, 'f', 1, 64))
	}
	return sb.String()
}

// apportion rounds vals (percentages, parts of total) to tenths that add up to total rounded to
// a tenth, by the largest remainder: each part gets its tenths rounded down, and the tenths left
// go to the parts with the largest remainders (taken back from the smallest when rounding the
// total went down). A negative part counts as 0.
func apportion(total float64, vals []float64) []int64 {
	want := int64(math.Round(total * 10))
	out := make([]int64, len(vals))
	rem := make([]float64, len(vals))
	var sum int64
	for i, v := range vals {
		x := max(v, 0) * 10
		f := math.Floor(x)
		out[i], rem[i] = int64(f), x-f
		sum += out[i]
	}
	order := make([]int, len(vals))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpFloat(rem[b], rem[a]) })
	for n := 0; sum < want && len(order) > 0; n++ {
		out[order[n%len(order)]]++
		sum++
	}
	for n := len(order) - 1; sum > want && n >= 0; n-- {
		if i := order[n]; out[i] > 0 {
			out[i]--
			sum--
		}
		if n == 0 && sum > want {
			n = len(order) // another round, from the smallest remainders again
		}
	}
	return out
}
