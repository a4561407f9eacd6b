package ui

import (
	"fmt"
	"strings"
	"testing"
)

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
			// startTerm focused the tree (1).
			if l := lastLine(tm.waitFor("1 Tree")); !strings.HasSuffix(l, "? help • q quit") {
				t.Errorf("the tree focused: key line %q", l)
			}
			tm.keys("o")
			s := tm.waitFor("Processes by CPU")
			if l := lastLine(s); !strings.HasSuffix(l, "? help • q quit") {
				t.Errorf("the overview: key line %q", l)
			}
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
			tm.keys("Escape")
			tm.keys("F10")
			tm.restored(0)
		})
	}
}
