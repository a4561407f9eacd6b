package cli

import (
	"os"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// Issue 41 item 2: the first signal ends dcimon within its grace whatever the command is doing:
// with no second signal and a command that never returns, the process is ended with 128+n.
func TestFirstSignalEndsWithinGrace(t *testing.T) {
	sigs := make(chan os.Signal, 2)
	var got atomic.Int32
	cancelled := make(chan struct{})
	exited := make(chan int, 1)
	go watchSignals(sigs, &got, func() { close(cancelled) }, 50*time.Millisecond, func(code int) { exited <- code })
	start := time.Now()
	sigs <- syscall.SIGTERM
	<-cancelled
	select {
	case code := <-exited:
		if code != 143 || got.Load() != int32(syscall.SIGTERM) {
			t.Errorf("exit %d, signal %d; want 143 after SIGTERM", code, got.Load())
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("ended %v after the signal", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a command that never returns kept the process running after the first signal")
	}
	if exitGrace > time.Second {
		t.Errorf("grace %v: the first signal must end dcimon within 1 s", exitGrace)
	}
}
