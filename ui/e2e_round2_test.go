package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// waitKeyLine waits until the screen's last line is a key line ending with `? help • q quit`,
// and returns the screen; it fails, naming what was shown, when it never is.
func (tm *tmuxTerm) waitKeyLine(what string) string {
	tm.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := tm.capture()
		if strings.HasSuffix(lastLine(s), "? help • q quit") {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("%s: the key line is %q", what, lastLine(s))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitGone waits until the screen no longer shows text.
func (tm *tmuxTerm) waitGone(text string) {
	tm.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for strings.Contains(tm.capture(), text) {
		if time.Now().After(deadline) {
			tm.t.Fatalf("%q is still on the screen", text)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// lastLine is the screen's last line without its trailing blanks.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.TrimRight(lines[len(lines)-1], " ")
}

// Issue 42 items 1 and 2, in the real program at 80×24, 120×40 and 200×60: the key line keeps
// `? help` and `q quit` with the tree focused and on the overview; the overview's I/O block is
// headed DISK R/W; after T the process table still shows USER and S; a click on a column's
// header sorts by it and a second click reverses; F9 says dcimon only watches, F1 opens the
// help, F10 quits.
func TestSmokeRoundTwo(t *testing.T) {
	bin, _ := program(t)
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			tm := startTerm(t, sz[0], sz[1], bin, "--source", "synthetic:disks=6,nics=3,cpus=4,procs=60,seed=3")
			// startTerm focused the tree (1). The last line is the key line once no message is
			// shown there.
			tm.waitFor("1 Tree")
			tm.waitKeyLine("the tree focused")
			tm.keys("o")
			tm.waitFor("Processes by CPU")
			s := tm.waitKeyLine("the overview")
			if sz[0] >= 180 && (!strings.Contains(s, "DISK R/W") || strings.Contains(s, "IO/s")) {
				t.Errorf("the I/O block's header:\n%s", s)
			}
			tm.keys("P")
			tm.waitFor("%CPU▼", "COMMAND")
			tm.keys("T")
			s = tm.waitFor("TIME+▼")
			var header string
			for _, l := range strings.Split(s, "\n") {
				if strings.Contains(l, "TIME+▼") {
					header = l
				}
			}
			if f := strings.Fields(header[max(strings.Index(header, "PID"), 0):]); len(f) < 3 || f[0] != "PID" || f[1] != "USER" || f[2] != "S" {
				t.Errorf("after T the header is %q", header)
			}
			// A click on RES (SGR mouse: press and release, 1-based cells).
			x := strings.Index(header, "RES")
			if x < 0 {
				x = strings.Index(header, "%CPU")
			}
			y := strings.Index(s, header)
			row := strings.Count(s[:y], "\n")
			col := len([]rune(header[:x]))
			click := fmt.Sprintf("\x1b[<0;%d;%dM\x1b[<0;%d;%dm", col+1, row+1, col+1, row+1)
			tm.literal(click)
			tm.waitFor("highest first (click again: reversed)")
			tm.literal(click)
			tm.waitFor("lowest first (click again: reversed)")
			tm.keys("F9")
			tm.waitFor("dcimon only watches")
			tm.keys("F1")
			tm.waitFor("close help")
			// Escape alone, then the next key: sent together they read as one alt+ key.
			tm.keys("Escape")
			tm.waitGone("close help")
			tm.keys("F10")
			tm.restored(0)
		})
	}
}
