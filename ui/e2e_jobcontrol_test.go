package ui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSmokeStopFromOutside (issue 29 item 10): `kill -TSTP PID` from another shell stops dcimon
// as Ctrl-Z does: the shell gets its terminal back (alternate screen left, mouse off, cursor
// shown); after `fg` the monitor is in raw mode again (q quits without Enter) and the whole frame
// is drawn again. A SIGSTOP, which cannot be caught, is followed on `fg` by the same retaking.
func TestSmokeStopFromOutside(t *testing.T) {
	bin, args := program(t)
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	for _, sig := range []string{"TSTP", "STOP"} {
		t.Run(sig, func(t *testing.T) { stopFromOutside(t, sig, bin, args) })
	}
}

func stopFromOutside(t *testing.T, sig, bin string, args []string) {
	tm := startShell(t)
	pidFile := filepath.Join(tm.dir, "pid")
	tm.literal("sh -c " + shq("echo $$ > "+shq(pidFile)+"; exec "+shellWords(bin, args...)))
	tm.keys("Enter")
	tm.waitFor("Overview", "sample ")
	tm.keys("1")
	before := tm.waitFor("1 Tree", "sample ")
	pid, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("kill", "-"+sig, strings.TrimSpace(string(pid))).CombinedOutput(); err != nil {
		t.Fatalf("kill: %v\n%s", err, out)
	}
	tm.waitFor("Stopped")
	if sig == "TSTP" {
		// What the shell is left with while dcimon is stopped: its own screen, no mouse.
		for flag, want := range map[string]string{"alternate_on": "0", "cursor_flag": "1", "mouse_button_flag": "0",
			"mouse_sgr_flag": "0", "mouse_any_flag": "0"} {
			if got := tm.display("#{" + flag + "}"); got != want {
				t.Errorf("stopped with %s %q, want %q", flag, got, want)
			}
		}
	}
	// The shell draws on the terminal meanwhile and leaves it cooked.
	tm.literal("echo shell-was-here")
	tm.keys("Enter")
	tm.waitFor("shell-was-here")
	tm.literal("fg")
	tm.keys("Enter")
	after := tm.waitFor("1 Tree", "sample ")
	if alt := tm.display("#{alternate_on}"); alt != "1" {
		t.Errorf("resumed without the alternate screen (%q)", alt)
	}
	// The frame is whole: nothing of the shell's is left on it, and its first and last lines
	// (the panes' top, the status bar) are the monitor's again.
	deadline := time.Now().Add(5 * time.Second)
	for !wholeFrame(before, after) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		after = tm.capture()
	}
	if !wholeFrame(before, after) {
		t.Errorf("the frame after fg is not whole:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	// Raw mode again: q alone (no Enter) ends the monitor.
	tm.quitToShell()
}

// startShell is an interactive bash in a 100×30 tmux terminal, its line discipline recorded in
// stty.before, for tests of what a shell with job control does with the monitor.
func startShell(t *testing.T) *tmuxTerm {
	t.Helper()
	tm := &tmuxTerm{t: t, name: fmt.Sprintf("dcimon-e2e-%d-%d", os.Getpid(), time.Now().UnixNano()), dir: t.TempDir()}
	cmd := tm.tmux("new-session", "-d", "-s", tm.name, "-x", "100", "-y", "30", "bash --norc --noprofile -i")
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "TZ=UTC")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	t.Cleanup(func() { _ = tm.tmux("kill-server").Run() })
	tm.literal("stty -g > " + shq(filepath.Join(tm.dir, "stty.before")))
	tm.keys("Enter")
	return tm
}

// quitToShell types q to the monitor run from startShell's shell, waits until the shell has the
// terminal again (keys typed earlier could reach the monitor), and checks it exited 0 with the
// terminal restored.
func (tm *tmuxTerm) quitToShell() {
	tm.t.Helper()
	tm.keys("q")
	for deadline := time.Now().Add(10 * time.Second); tm.display("#{alternate_on}") != "0"; {
		if time.Now().After(deadline) {
			tm.t.Fatalf("q (without Enter) did not end the monitor:\n%s", tm.capture())
		}
		time.Sleep(20 * time.Millisecond)
	}
	tm.literal(`echo "EXIT=$?"; stty -g > ` + shq(filepath.Join(tm.dir, "stty.after")))
	tm.keys("Enter")
	tm.restored(0)
}

// wholeFrame reports whether after is a full frame of the monitor as before was: the same first
// line and status line shape, and no shell output left anywhere on it.
func wholeFrame(before, after string) bool {
	b, a := strings.Split(strings.TrimRight(before, "\n"), "\n"), strings.Split(strings.TrimRight(after, "\n"), "\n")
	if len(a) != len(b) || strings.Contains(after, "shell-was-here") || strings.Contains(after, "Stopped") ||
		strings.Contains(after, "$ fg") {
		return false
	}
	first := func(s string) string {
		return strings.Join(strings.Fields(s), " ")[:min(10, len(strings.Join(strings.Fields(s), " ")))]
	}
	return first(a[0]) == first(b[0]) && first(a[len(a)-1]) == first(b[len(b)-1])
}
