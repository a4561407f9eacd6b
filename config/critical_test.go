package config

import (
	"strings"
	"testing"
)

// Issue 42 item 4: a hotset's critical threshold (hot --check's CRITICAL) is read, written back
// by an edit, and refused when it points the other way from its threshold.
func TestHotsetCritical(t *testing.T) {
	f, err := Parse("c.toml", []byte("[[hotset]]\nname = \"fs\"\npath = \"FS\"\nstat = \"%used\"\nthreshold = 80\ncritical = 90\n"))
	if err != nil || len(f.Hotset) != 1 || f.Hotset[0].Critical != 90 {
		t.Fatalf("%v %+v", err, f)
	}
	_, err = Parse("c.toml", []byte("[[hotset]]\nname = \"fs\"\npath = \"FS\"\nstat = \"%used\"\nthreshold = 80\ncritical = -5\n"))
	if err == nil || !strings.Contains(err.Error(), "critical") {
		t.Errorf("a critical the other way: %v", err)
	}
	h := f.Hotset[0]
	h.Critical = 95
	out, err := EditHotsets("c.toml", []byte("[[hotset]]\nname = \"fs\"\npath = \"FS\"\nstat = \"%used\"\nthreshold = 80\ncritical = 90\n"), []Hotset{h})
	if err != nil || !strings.Contains(string(out), "critical = 95") {
		t.Errorf("edited: %v\n%s", err, out)
	}
	h.Name, h.Critical = "new", 97
	out, err = EditHotsets("c.toml", nil, []Hotset{h})
	if err != nil || !strings.Contains(string(out), "critical = 97") {
		t.Errorf("a new table: %v\n%s", err, out)
	}
}
