package pcparchive

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"

	"dcimon/pcpwire"
)

// Issue 38 item 2, issue 37 (copies): one PCP wire codec. An archive's records are pcpwire's
// types (the same type, not a copy: these assignments compile only so), and the package keeps no
// byte reader or file opener of its own: it reads fields with pcpwire.Fields and opens files
// through internal/regular.
func TestOneCodec(t *testing.T) {
	var r pcpwire.Result = Result{}
	var s pcpwire.ValueSet = ValueSet{}
	var v pcpwire.Value = Value{}
	_, _, _ = r, s, v
	if Type64 != pcpwire.Type64 || InDomNull != pcpwire.InDomNull || PMIDString(PMID(60, 0, 13)) != pcpwire.PMIDString(PMID(60, 0, 13)) {
		t.Error("the package's constants are not pcpwire's")
	}
	names, err := filepath.Glob("*.go")
	if err != nil || len(names) == 0 {
		t.Fatal(names, err)
	}
	banned := map[string]string{"reader": "pcpwire.Fields", "openRegular": "internal/regular.Open", "statRegular": "internal/regular.Open"}
	for _, name := range names {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			var id string
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					id = d.Name.Name
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					if ts, ok := sp.(*ast.TypeSpec); ok && banned[ts.Name.Name] != "" {
						id = ts.Name.Name
					}
				}
			}
			if use, ok := banned[id]; ok {
				t.Errorf("%s declares %s: a copy; use %s", name, id, use)
			}
		}
	}
}
