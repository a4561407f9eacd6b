package collect_test

import (
	"go/build"
	"slices"
	"strings"
	"testing"
)

// TestRooms keeps the import graph of docs/architecture.md true (issue 28): the schema imports
// only namespace of dcimon's; the sources (linux, pcp, synthetic, dds) fill the schema's classes
// and never import one another; collect itself imports no source.
func TestRooms(t *testing.T) {
	sources := []string{"dcimon/collect/linux", "dcimon/collect/pcp", "dcimon/collect/synthetic", "dcimon/collect/dds"}
	allowed := map[string][]string{
		"dcimon/collect":        {"dcimon/namespace"},
		"dcimon/collect/schema": {"dcimon/namespace"},
	}
	for _, s := range sources {
		allowed[s] = []string{"dcimon/collect", "dcimon/collect/schema", "dcimon/namespace", "dcimon/internal/regular",
			"dcimon/pmproxy", "dcimon/pmcd", "dcimon/pcpwire", "dcimon/pcparchive", "dcimon/supply"}
	}
	for pkg, ok := range allowed {
		p, err := build.Import(pkg, ".", 0)
		if err != nil {
			t.Fatalf("%s: %v", pkg, err)
		}
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, "dcimon") && !slices.Contains(ok, imp) {
				t.Errorf("%s imports %s", pkg, imp)
			}
		}
	}
}
