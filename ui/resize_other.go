//go:build !unix

package ui

import "os"

// notifyResize does nothing where there is no size-change signal: the size read at start stays.
func notifyResize(chan<- os.Signal) {}

// jobControl is false: no Ctrl-Z stop where there are no job-control signals.
func jobControl() bool { return false }
