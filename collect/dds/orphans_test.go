package dds

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 41 item 5: a supplier program that double-forks a daemon with setsid (a session and a
// group of its own, its parent gone) leaves nothing once its run is over: dcimon, its child
// subreaper, is given the orphan, kills it and reaps it. A child of dcimon's that is no
// supplier's (here, the test's own) is left alone.
func TestRunProgramEndsSetsidDaemon(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "daemon.pid")
	writeProgram(t, dir, "p", "setsid -f sh -c 'echo $$ > "+pidFile+"; exec sleep "+uniqueSleep(41)+"'\n"+
		"while [ ! -s "+pidFile+" ]; do sleep 0.01; done\necho 'up 1'\n")
	mine := exec.Command("sleep", uniqueSleep(42))
	if err := mine.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { mine.Process.Kill(); mine.Wait() }()
	runP(t, dir)
	data := readAll(t, pidFile)
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the daemon %d outlived its run", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := mine.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("a child that is no supplier's was ended: %v", err)
	}
}
