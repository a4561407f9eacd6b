package headless

import (
	"context"
	"errors"
	"os"
	"testing"
)

// Issue 39 item 7: a base name that names no file of its own is refused before anything is read
// or written (`record ""` wrote hidden .0, .meta and .index files in the current directory).
func TestRecordRefusesNoBaseName(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, base := range []string{"", " ", "/tmp/", ".", "..", dir + "/"} {
		err := Record(context.Background(), RecordOptions{Base: base}, Env{}, nil)
		var u *UsageError
		if err == nil || !errors.As(err, &u) {
			t.Errorf("record %q: %v, want a usage error", base, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("files written: %v", ents)
	}
}
