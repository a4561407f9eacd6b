package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// DCIMON_HEAPPROFILE names the file the heap profile goes to; unset, nothing is written; a file
// that cannot be made is said, never a failure of the run.
func TestWriteHeapProfile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "heap.prof")
	writeHeapProfile(p)
	if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
		t.Fatalf("no heap profile written: %v", err)
	}
	writeHeapProfile("")
	writeHeapProfile(filepath.Join(dir, "no", "such", "dir", "heap.prof"))
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("files written: %v", es)
	}
}
