package ui

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Smoke tests of the real program in a real terminal (tmux): they wait for text, move the focus,
// filter, resize, and quit by key and by SIGTERM, checking the terminal is given back (alternate
// screen left, cursor visible) and the exit status. Program-level behaviour beyond that is tested
// through Update (house style rule 15).

// program builds the binary the smoke tests run and returns it with its arguments. It is dcimon
// itself on its synthetic source once main runs the monitor (ui.Run) and accepts
// `--source synthetic:...`; until then it is the test-only program in ui/internal/demo on the
// fixture source.
func program(t *testing.T) (string, []string) {
	t.Helper()
	if testing.Short() {
		t.Skip("smoke tests of the binary are skipped with -short")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	root, _ := filepath.Abs("..")
	if mainRunsMonitor(root) {
		bin := filepath.Join(dir, "dcimon")
		if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err == nil {
			return bin, []string{"--source", "synthetic:disks=4,nics=2,cpus=4,seed=1"}
		} else {
			t.Logf("dcimon does not build (%v): %s; using ui/internal/demo", err, out)
		}
	} else {
		t.Log("main does not run ui.Run with a synthetic source yet: using ui/internal/demo on the fixture source")
	}
	bin := filepath.Join(dir, "demo")
	if out, err := exec.Command("go", "build", "-o", bin, "./internal/demo").CombinedOutput(); err != nil {
		t.Fatalf("building the demo: %v\n%s", err, out)
	}
	return bin, []string{"--disks", "4", "--nics", "eth0,eth1"}
}

// mainRunsMonitor reports whether package main calls ui.Run and knows the synthetic source.
func mainRunsMonitor(root string) bool {
	files, _ := filepath.Glob(filepath.Join(root, "*.go"))
	var run, synth bool
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || strings.HasSuffix(f, "_test.go") {
			continue
		}
		run = run || bytes.Contains(b, []byte("ui.Run("))
		synth = synth || bytes.Contains(b, []byte("synthetic:"))
	}
	return run && synth
}

// term is one tmux session running the program.
type term struct {
	t    *testing.T
	name string
	dir  string
}

func startTerm(t *testing.T, w, h int, bin string, args ...string) *term {
	t.Helper()
	dir := t.TempDir()
	tm := &term{t: t, name: fmt.Sprintf("dcimon-e2e-%d-%d", os.Getpid(), time.Now().UnixNano()), dir: dir}
	quoted := make([]string, 0, len(args)+1)
	for _, a := range append([]string{bin}, args...) {
		quoted = append(quoted, shq(a))
	}
	// The inner shell records the program's pid and becomes the program; the outer one prints
	// its exit status and keeps the window open so the test can look at the restored terminal.
	script := filepath.Join(dir, "run.sh")
	body := fmt.Sprintf("sh -c %s\necho \"EXIT=$?\"\nsleep 60\n", shq("echo $$ > "+shq(filepath.Join(dir, "pid"))+"; exec "+strings.Join(quoted, " ")))
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("tmux", "new-session", "-d", "-s", tm.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "sh "+shq(script))
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "TZ=UTC")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "kill-session", "-t", tm.name).Run() })
	return tm
}

// shq quotes s for a POSIX shell.
func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func (tm *term) capture() string {
	out, err := exec.Command("tmux", "capture-pane", "-p", "-t", tm.name).Output()
	if err != nil {
		tm.t.Fatalf("capture-pane: %v", err)
	}
	return string(out)
}

func (tm *term) display(format string) string {
	out, _ := exec.Command("tmux", "display-message", "-p", "-t", tm.name, format).Output()
	return strings.TrimSpace(string(out))
}

// waitFor waits until the screen contains every text, or fails showing the screen.
func (tm *term) waitFor(texts ...string) string {
	tm.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := tm.capture()
		ok := true
		for _, x := range texts {
			ok = ok && strings.Contains(s, x)
		}
		if ok {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("timed out waiting for %q; the screen:\n%s", texts, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (tm *term) keys(k ...string) {
	tm.t.Helper()
	if out, err := exec.Command("tmux", append([]string{"send-keys", "-t", tm.name}, k...)...).CombinedOutput(); err != nil {
		tm.t.Fatalf("send-keys: %v\n%s", err, out)
	}
}

func (tm *term) literal(s string) {
	tm.t.Helper()
	if out, err := exec.Command("tmux", "send-keys", "-t", tm.name, "-l", s).CombinedOutput(); err != nil {
		tm.t.Fatalf("send-keys: %v\n%s", err, out)
	}
}

// restored checks the program left the alternate screen, showed the cursor and exited with 0.
func (tm *term) restored() {
	tm.t.Helper()
	tm.waitFor("EXIT=0")
	if alt := tm.display("#{alternate_on}"); alt != "0" {
		tm.t.Errorf("the alternate screen is still on (%q)", alt)
	}
	if cur := tm.display("#{cursor_flag}"); cur != "1" {
		tm.t.Errorf("the cursor is hidden (%q)", cur)
	}
	if s := tm.capture(); strings.Contains(s, "1 Tree") {
		tm.t.Errorf("the monitor's screen is still shown:\n%s", s)
	}
}

func TestSmokeFullLayout(t *testing.T) {
	bin, args := program(t)
	tm := startTerm(t, 120, 40, bin, args...)
	tm.waitFor("1 Tree", "2 Values", "3 Hotsets", "4 Inspector", "5 Events", "▾ CPU", "sample ")
	tm.keys("Tab")
	tm.waitFor("sort by next column") // the values pane's help: it has the focus
	tm.keys("/")
	tm.literal("sdb")
	s := tm.waitFor("/ sdb ", " match", "sdb ") // "1 match", or "2 matches" with a partition sdb1
	if strings.Contains(s, "▸ sda") || strings.Contains(s, "▾ sda") {
		t.Errorf("the filter leaves sda in the tree:\n%s", s)
	}
	tm.keys("Enter")
	tm.waitFor("Top › Disk › sdb")
	tm.keys("q")
	tm.restored()
}

func TestSmokeCompactAndResize(t *testing.T) {
	bin, args := program(t)
	tm := startTerm(t, 80, 24, bin, args...)
	tm.waitFor("1 Tree", "2 Values", "5 Events", "▾ CPU")
	tm.keys("5")
	tm.waitFor("╭─ 5 Events", "INSTANCEADDED")
	if out, err := exec.Command("tmux", "resize-window", "-t", tm.name, "-x", "30", "-y", "8").CombinedOutput(); err != nil {
		t.Fatalf("resize: %v\n%s", err, out)
	}
	tm.waitFor("terminal too small")
	if out, err := exec.Command("tmux", "resize-window", "-t", tm.name, "-x", "200", "-y", "60").CombinedOutput(); err != nil {
		t.Fatalf("resize: %v\n%s", err, out)
	}
	tm.waitFor("╭─ 1 Tree", "╭─ 3 Hotsets")
	tm.keys("C-c")
	tm.restored()
}

func TestSmokeSIGTERM(t *testing.T) {
	bin, args := program(t)
	tm := startTerm(t, 100, 30, bin, args...)
	tm.waitFor("1 Tree", "sample ")
	pid, err := os.ReadFile(filepath.Join(tm.dir, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("kill", "-TERM", strings.TrimSpace(string(pid))).CombinedOutput(); err != nil {
		t.Fatalf("kill: %v\n%s", err, out)
	}
	tm.restored()
}
