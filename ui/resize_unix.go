//go:build unix

package ui

import (
	"os"
	"os/signal"
	"syscall"
)

// notifyResize delivers the terminal's size-change signal to c.
func notifyResize(c chan<- os.Signal) { signal.Notify(c, syscall.SIGWINCH) }
