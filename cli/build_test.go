package cli

import (
	"flag"
	"os"
	"testing"

	"dcimon/internal/testbin"
)

// buildDcimon returns the dcimon binary of this test run, built once for every test that needs it.
func buildDcimon(tb testing.TB) string { return testbin.Dcimon(tb, "..") }

func TestMain(m *testing.M) {
	// The whole package's run (no -run, not -short) builds the binary beside its first tests.
	flag.Parse()
	if f := flag.Lookup("test.run"); !testing.Short() && f != nil && f.Value.String() == "" {
		testbin.Prebuild("..")
	}
	code := m.Run()
	testbin.Cleanup()
	os.Exit(code)
}
