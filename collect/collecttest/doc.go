// Package collecttest helps the sources' tests: a minimal DCI server (Harness) that turns rounds
// of a provider's collections into snapshots the way the sampler does, and a manual clock.
package collecttest
