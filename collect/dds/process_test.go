package dds

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"dcimon/internal/testbin"
	"dcimon/supply"
)

// gone waits up to 5 s for every process with arg to end.
func gone(t *testing.T, arg string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if len(testbin.ProcessesWith(arg)) == 0 {
			return
		}
	}
	t.Errorf("still running: %q", testbin.ProcessesWith(arg))
}

// runP runs the program dir/p once, as a supplier's run does, with a reaper of its own; an
// error fails the test.
func runP(t *testing.T, dir string) {
	t.Helper()
	var r reaper
	if _, err := runProgram(context.Background(), &r, filepath.Join(dir, "p"), "dds:p", 5*time.Second, supply.DefaultLimits); err != nil {
		t.Fatal(err)
	}
}

// readAll is the content of the file at path; an error fails the test.
func readAll(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// uniqueSleep is a sleep duration no other test uses, to find its processes by.
func uniqueSleep(n int) string { return fmt.Sprintf("%d.%d", 1000+n, os.Getpid()) }

// Issue 29 item 13: a run leaves nothing behind: what a program started in the background is
// killed with its process group when the run is over.
func TestRunProgramLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	bg := uniqueSleep(1)
	writeProgram(t, dir, "p", "sleep "+bg+" &\necho 'up 1'\n")
	runP(t, dir)
	gone(t, bg)
}

// Issue 29 item 13: when dcimon ends, the pipe to the reaper is closed by the kernel, and the
// reaper kills every process group it was told of and not told was done. Here the pipe is closed
// by hand, as the kernel would.
func TestReaperKillsGroupsWhenTheEndCloses(t *testing.T) {
	var r reaper
	keep, kill := uniqueSleep(2), uniqueSleep(3)
	start := func(arg string) *exec.Cmd {
		cmd := exec.Command("sleep", arg)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { _ = cmd.Wait() }()
		return cmd
	}
	a, b := start(kill), start(keep)
	defer func() { _ = b.Process.Kill() }()
	r.tell('+', a.Process.Pid)
	r.tell('+', b.Process.Pid)
	r.tell('-', b.Process.Pid) // done: the reaper must leave this group alone
	if r.w == nil {
		t.Fatalf("no reaper: %v", r.err)
	}
	r.mu.Lock()
	_ = r.w.Close()
	r.mu.Unlock()
	gone(t, kill)
	time.Sleep(100 * time.Millisecond)
	if len(testbin.ProcessesWith(keep)) == 0 {
		t.Error("the reaper killed a group it had been told was done")
	}
}

// Issue 29 item 12: a program gets PATH, HOME, LANG, TZ and the other variables the docs list,
// never dcimon's password.
func TestProgramEnvironmentMinimal(t *testing.T) {
	t.Setenv("DCIMON_PCP_PASSWORD", "hunter2")
	t.Setenv("TZ", "Europe/Berlin")
	t.Setenv("LANG", "C.UTF-8")
	t.Setenv("SOME_TOKEN", "secret")
	dir := t.TempDir()
	envFile := filepath.Join(t.TempDir(), "env")
	writeProgram(t, dir, "p", "env > '"+envFile+"'\necho 'up 1'\n")
	runP(t, dir)
	data := readAll(t, envFile)
	env := string(data)
	for _, bad := range []string{"hunter2", "DCIMON_PCP_PASSWORD", "SOME_TOKEN"} {
		if strings.Contains(env, bad) {
			t.Errorf("the program's environment has %s:\n%s", bad, env)
		}
	}
	for _, want := range []string{"PATH=", "TZ=Europe/Berlin", "LANG=C.UTF-8"} {
		if !strings.Contains(env, want) {
			t.Errorf("the program's environment has no %s:\n%s", want, env)
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(env), "\n") {
		k, _, _ := strings.Cut(l, "=")
		if k != "PWD" && k != "SHLVL" && k != "_" && !strings.Contains(" "+strings.Join(programEnv, " ")+" ", " "+k+" ") {
			t.Errorf("the program's environment has %s, not in the documented list", k)
		}
	}
}
