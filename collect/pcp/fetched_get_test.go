package pcp

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A native fetch has its values by position (pmproxy.Fetched.ReuseAt), not in Fetched.Values:
// code here reads a fetch's values through Get, which reads either, so that a native host's
// metric is never read as absent (issue 38 item 3). Only the contexts that make a Fetched by
// name (archives, series) write Values.
func TestFetchedReadThroughGet(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	read := regexp.MustCompile(`\.Values\[[^\]]+\]`)
	write := regexp.MustCompile(`\.Values\[[^\]]+\]\s*=[^=]`)
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if read.MatchString(line) && !write.MatchString(line) {
				t.Errorf("%s:%d reads a fetch's Values by name; read it through Get: %s", name, i+1, strings.TrimSpace(line))
			}
		}
	}
}
