// Package spell measures how far a mistyped name is from the names it could have meant: the one
// edit distance behind every "did you mean" (the configuration file's keys, the monitor's key
// names, commands, flags, paths and hotsets; issue 37: the same function lived in config and ui).
package spell

// Distance is the Levenshtein distance of a and b, counted in bytes: the fewest insertions,
// deletions and substitutions of one byte that turn a into b.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Closest is the candidate nearest name, for a "did you mean": one a typo or two away (by edit
// distance, less than the name's length), or "" when none is; of two as near, the first in
// byte order, so the answer does not depend on the candidates' order.
func Closest(name string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := Distance(name, c); d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	if bestD >= len(name) {
		return ""
	}
	return best
}
