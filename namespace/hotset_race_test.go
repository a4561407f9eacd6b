//go:build race

package namespace

// hsRaceEnabled relaxes allocation checks: the race detector allocates on its own.
const hsRaceEnabled = true
