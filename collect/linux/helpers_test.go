package linux

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// fixtureCtx returns a context pointing at testdata/<scenario>/<tN>.
func fixtureCtx(t testing.TB, scenario, tn string) context.Context {
	t.Helper()
	dir := filepath.Join("testdata", scenario, tn)
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return withRoots(context.Background(), treeRoots(dir))
}

// readFixture returns the content of testdata/<rel>.
func readFixture(t testing.TB, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", rel))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
