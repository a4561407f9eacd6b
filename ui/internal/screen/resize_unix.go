//go:build unix

package screen

import (
	"bytes"
	"errors"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// notifyResize delivers the terminal's size-change signal to c.
func notifyResize(c chan<- os.Signal) { signal.Notify(c, syscall.SIGWINCH) }

// JobControl reports whether a stop (Ctrl-Z) would be honoured: the kernel discards SIGTSTP sent
// to an orphaned process group, which is what dcimon is in when nothing in its session can
// continue it (run straight by tmux, or by ssh host dcimon). The group is not orphaned when the
// first ancestor outside it (a shell with job control, past a sudo or env in the same group) is
// in the same session.
func JobControl() bool {
	pgrp := unix.Getpgrp()
	sid, err := unix.Getsid(0)
	if err != nil {
		return false
	}
	pid := os.Getppid()
	for range 16 {
		if pid <= 1 {
			return false
		}
		g, err1 := unix.Getpgid(pid)
		s, err2 := unix.Getsid(pid)
		if err1 != nil || err2 != nil || s != sid {
			return false
		}
		if g != pgrp {
			return true
		}
		if pid, err = parentOf(pid); err != nil {
			return false
		}
	}
	return false
}

// parentOf is pid's parent from /proc/PID/stat (the field after the command's closing bracket).
func parentOf(pid int) (int, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, errors.New("malformed stat")
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 2 {
		return 0, errors.New("malformed stat")
	}
	return strconv.Atoi(string(f[1]))
}

// notifyJob delivers the job-control signals sent from outside to c.
func notifyJob(c chan<- os.Signal) { signal.Notify(c, syscall.SIGTSTP, syscall.SIGCONT) }

// isStop says a job-control signal is the stop (SIGTSTP), not the continue.
func isStop(sig os.Signal) bool { return sig == syscall.SIGTSTP }

// stopGroup stops the process group as a SIGTSTP's default action would.
func stopGroup() { _ = unix.Kill(0, unix.SIGSTOP) }
