package cli

import (
	"bufio"
	"flag"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"dcimon/internal/testbin"
)

// buildDcimon returns the dcimon binary of this test run, built once for every test that needs it.
func buildDcimon(tb testing.TB) string { return testbin.Dcimon(tb, "..") }

// binaryOrSkip is buildDcimon for a test that runs the binary, skipped under -short.
func binaryOrSkip(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	return buildDcimon(t)
}

// signalAfterFirstLine starts cmd, waits for the first line it prints (so that the signal arrives
// while the command runs), sends it sig and returns how it ended; it fails the test if cmd still
// runs 10 s later.
func signalAfterFirstLine(t *testing.T, cmd *exec.Cmd, sig syscall.Signal) error {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Process.Signal(sig)
	done := make(chan error, 1)
	go func() { _, _ = io.Copy(io.Discard, stdout); done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("still running 10 s after %v", sig)
	}
	return err
}

func TestMain(m *testing.M) {
	// The whole package's run (no -run, not -short) builds the binary beside its first tests.
	flag.Parse()
	if f := flag.Lookup("test.run"); !testing.Short() && f != nil && f.Value.String() == "" {
		testbin.Prebuild("..")
	}
	code := m.Run()
	testbin.Cleanup()
	os.Exit(code)
}
