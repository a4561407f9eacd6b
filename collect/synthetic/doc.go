// Package synthetic is a deterministic, scriptable made-up host (--source synthetic:...): the
// classes collect/schema declares, filled in datum order from a seeded generator, with scripted
// failures, hangs, resets and devices that come and go, for tests, screenshots and benchmarks at
// sizes no test machine has.
package synthetic
