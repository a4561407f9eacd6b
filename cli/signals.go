package cli

import (
	"os"
	"sync/atomic"
	"syscall"
	"time"
)

// exitGrace is how long dcimon lets a command end after the first signal before it ends the
// process itself (issue 41 item 2): whatever it was reading, the first SIGTERM or Ctrl-C ends it
// within a second. The command, told by its context, normally returns long before: the monitor
// gives the terminal back, a recording writes its last whole record.
const exitGrace = 900 * time.Millisecond

// watchSignals waits for the first signal on sigs: it records it in got and calls cancel; then
// either a second signal or exitGrace passing calls exit with the signalled program's status,
// should the command still be running.
func watchSignals(sigs <-chan os.Signal, got *atomic.Int32, cancel func(), grace time.Duration, exit func(int)) {
	s := (<-sigs).(syscall.Signal)
	got.Store(int32(s))
	cancel()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case s2 := <-sigs:
		s = s2.(syscall.Signal)
	case <-t.C:
	}
	exit(signalStatus(s))
}
