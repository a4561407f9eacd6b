package cli

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 41 item 6: text others chose (here a host named "evil ESC]0;owned BEL host") never
// reaches a terminal raw from metrics, list, describe, get or hot, nor from an error; to a pipe
// or a file, the documented formats stay exact (Prometheus text escapes only \, newline and ").
func TestHeadlessOutputSafeOnATerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a fixture tree")
	}
	tree := copyTree(t, "../collect/linux/testdata/hostile_names/t0")
	roots := []string{"--procfs", filepath.Join(tree, "proc"), "--sysfs", filepath.Join(tree, "sys")}
	cmds := [][]string{{"metrics", "Host/hostname"}, {"list"}, {"describe", "Host/hostname"}, {"get", "Host/hostname"},
		{"hot", "NetIf", "bytes", "-n", "1"}, {"get", "Disk/\x1b[2Jnone"}}
	old := isTerminal
	defer func() { isTerminal = old }()
	for _, term := range []bool{true, false} {
		isTerminal = func(io.Writer) bool { return term }
		for _, args := range cmds {
			var out, errb bytes.Buffer
			// The fake clock: get and hot sample the fixture tree twice without waiting an interval.
			runEnv(context.Background(), append(append([]string{}, args...), roots...), fakeEnv(), &out, &errb)
			both := out.String() + errb.String()
			if term && strings.ContainsAny(both, "\x1b\x07") {
				t.Errorf("%q to a terminal: raw control characters in %q", args, both)
			}
			if !term && args[0] == "metrics" && !strings.Contains(out.String(), "evil\x1b]0;owned\x07host") {
				t.Errorf("metrics to a pipe is not the exact format: %q", out.String())
			}
		}
	}
}
