//go:build race

package pmproxy

// raceEnabled skips the allocation budgets: the race detector allocates on its own.
const raceEnabled = true
