//go:build !race

package collect_test

// raceEnabled skips the allocation budgets: the race detector allocates on its own.
const raceEnabled = false
