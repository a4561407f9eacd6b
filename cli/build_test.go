package cli

import (
	"os"
	"testing"

	"dcimon/internal/testbin"
)

// buildDcimon returns the dcimon binary of this test run, built once for every test that needs it.
func buildDcimon(tb testing.TB) string { return testbin.Dcimon(tb, "..") }

func TestMain(m *testing.M) {
	code := m.Run()
	testbin.Cleanup()
	os.Exit(code)
}
