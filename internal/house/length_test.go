package house

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// maxLines is the house limit of a non-test Go file (RULES rule 3, issue 37 item 1).
const maxLines = 700

// TestFileLength fails for every non-test Go file over maxLines lines that testdata/long_files.txt
// does not allow, or that grew past its allowance; the list may only shrink.
func TestFileLength(t *testing.T) {
	found := map[string]over{}
	for _, f := range goFiles(t, false) {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		n := bytes.Count(b, []byte("\n"))
		if len(b) > 0 && b[len(b)-1] != '\n' {
			n++
		}
		if n > maxLines {
			found[f] = over{n, fmtWhere(f, maxLines+1)}
		}
	}
	ratchet(t, "testdata/long_files.txt", maxLines, "lines", found)
}
