package house

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"

	"github.com/uudashr/gocognit"
)

// maxCognitive is the ceiling of a function's cognitive complexity (gocognit's measure, pinned in
// go.mod's tool directive: `go tool gocognit -over 30 -test=false .` lists the same functions), issue 37 item 1.
const maxCognitive = 30

// TestComplexityCeiling fails for every function of a non-test Go file whose cognitive complexity
// is over maxCognitive and that testdata/complexity.txt does not allow, or that grew past its
// allowance; the list may only shrink.
func TestComplexityCeiling(t *testing.T) {
	fset := token.NewFileSet()
	found := map[string]over{}
	for _, f := range goFiles(t, false) {
		file, err := parser.ParseFile(fset, filepath.Join(root, f), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range gocognit.ComplexityStats(file, fset, nil) {
			if s.Complexity > maxCognitive {
				found[f+" "+s.FuncName] = over{s.Complexity, fmtWhere(f, s.Pos.Line)}
			}
		}
	}
	ratchet(t, "testdata/complexity.txt", maxCognitive, "(cognitive complexity)", found)
}
