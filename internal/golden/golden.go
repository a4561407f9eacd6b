// Package golden is the module's one golden-file helper (house style rule 14): Check compares a
// test's text with testdata/<Test>/<name>.golden through x/exp/golden, and
// `go test ./... -update` rewrites every golden file of the module. A package whose tests have no
// golden file imports it blank, so that the -update flag is defined in every test binary and the
// command runs in every package.
package golden

import (
	"testing"

	xgolden "github.com/charmbracelet/x/exp/golden"
)

// Check compares got with testdata/<t.Name()>/<name>.golden, as a subtest named name.
func Check(t *testing.T, name, got string) {
	t.Helper()
	t.Run(name, func(t *testing.T) { xgolden.RequireEqual(t, got) })
}
