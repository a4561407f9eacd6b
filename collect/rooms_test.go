package collect_test

import (
	"fmt"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRooms keeps the import graph of docs/architecture.md true (issue 28): the schema imports
// only namespace of dcimon's; the sources (linux, pcp, synthetic, dds) fill the schema's classes
// and never import one another; collect itself imports no source. Test files are held to the same
// rooms (issue 37), but for the crossings named in testCrossings, each for its reason.
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
				t.Errorf("%s: %s imports %s", importedBy(p, p.GoFiles, imp), pkg, imp)
			}
		}
		// A test may import what its package may, the test helpers, and another source only
		// where testCrossings says why.
		for _, imp := range append(slices.Clone(p.TestImports), p.XTestImports...) {
			if !strings.HasPrefix(imp, "dcimon") || imp == pkg || slices.Contains(ok, imp) || testHelper(imp) {
				continue
			}
			if testCrossings[pkg+" "+imp] == "" {
				t.Errorf("%s: the tests of %s import %s, another room (name the crossing and its reason in testCrossings, or do without)",
					importedBy(p, append(slices.Clone(p.TestGoFiles), p.XTestGoFiles...), imp), pkg, imp)
			}
		}
	}
	for k := range testCrossings {
		pkg, imp, _ := strings.Cut(k, " ")
		p, err := build.Import(pkg, ".", 0)
		if err != nil || !slices.Contains(p.TestImports, imp) && !slices.Contains(p.XTestImports, imp) {
			t.Errorf("testCrossings: the tests of %s no longer import %s: remove the entry", pkg, imp)
		}
	}
}

// testCrossings are the test files' imports of another room, "importer imported", each with why.
var testCrossings = map[string]string{
	"dcimon/collect/linux dcimon/collect/synthetic": "the provider contract's tests run every source's providers alike, and the process table's scale test takes the synthetic source's hundred thousand processes",
	"dcimon/collect/linux dcimon/views":             "a fixture's values are checked as the DCI4 presentation rules show them",
	"dcimon/collect/dds dcimon/views":               "a supplier's values are checked as the DCI4 presentation rules show them",
	"dcimon/collect/pcp dcimon/collect/linux":       "one answer per fact: this host read through pmcd and read locally must agree",
}

// testHelper reports whether pkg is one of the packages only tests import.
func testHelper(pkg string) bool {
	return strings.HasPrefix(pkg, "dcimon/internal/") || pkg == "dcimon/collect/collecttest"
}

// importedBy names the first of files (of package p) that imports imp, as file:line.
func importedBy(p *build.Package, files []string, imp string) string {
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, s := range f.Imports {
			if strings.Trim(s.Path.Value, `"`) == imp {
				return fmt.Sprintf("%s/%s:%d", strings.TrimPrefix(p.ImportPath, "dcimon/"), name, fset.Position(s.Pos()).Line)
			}
		}
	}
	return p.ImportPath
}
