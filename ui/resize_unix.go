//go:build unix

package ui

import (
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// notifyResize delivers the terminal's size-change signal to c.
func notifyResize(c chan<- os.Signal) { signal.Notify(c, syscall.SIGWINCH) }

// jobControl reports whether a stop (Ctrl-Z) would be honoured: the kernel discards SIGTSTP sent
// to an orphaned process group, which is what dcimon is in when nothing in its session can
// continue it (run straight by tmux, or by ssh host dcimon). It is not orphaned when its parent,
// a shell with job control, is in the same session and another process group.
func jobControl() bool {
	ppid := os.Getppid()
	psid, err1 := unix.Getsid(ppid)
	sid, err2 := unix.Getsid(0)
	ppgrp, err3 := unix.Getpgid(ppid)
	return err1 == nil && err2 == nil && err3 == nil && psid == sid && ppgrp != unix.Getpgrp()
}
