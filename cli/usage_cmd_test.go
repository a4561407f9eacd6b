package cli

import (
	"strings"
	"testing"
)

// Issue 42 item 3: did-you-mean for commands, flags and hotset names, and a usage error that
// names the command's own --help.
func TestUsageErrorsSuggest(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"lst"}, []string{"did you mean list?"}},
		{[]string{"desc"}, []string{"did you mean describe?"}},
		{[]string{"lsit"}, []string{"did you mean list?", "Run 'dcimon --help' for usage."}},
		{[]string{"get", "--intervl", "2s", "CPU/busy"}, []string{"unknown flag: --intervl; did you mean --interval?", "Run 'dcimon get --help' for usage."}},
		{[]string{"hot", "Disk", "busy", "--thresold", "5"}, []string{"did you mean --threshold?", "Run 'dcimon hot --help'"}},
		{[]string{"--thme", "mono"}, []string{"did you mean --theme?", "Run 'dcimon --help'"}},
		{[]string{"hot", "Disk"}, []string{"Run 'dcimon hot --help' for usage."}},
		{[]string{"get", "CPU/busy", "-n", "x"}, []string{"Run 'dcimon get --help' for usage."}},
		{[]string{"config", "check", "a", "b"}, []string{"Run 'dcimon config --help' for usage."}},
		{[]string{"hot", "--name", "busiest-disk"}, []string{"no such hotset", "did you mean busiest-disks?"}},
	} {
		_, stderr, code := runFake(t, tc.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2: %s", tc.args, code, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: %q not in %q", tc.args, w, stderr)
			}
		}
	}
}
