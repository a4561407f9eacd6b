//go:build !race

package pcp

// raceEnabled skips the allocation budgets: the race detector allocates on its own.
const raceEnabled = false
