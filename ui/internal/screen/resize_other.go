//go:build !unix

package screen

import "os"

// notifyResize does nothing where there is no size-change signal: the size read at start stays.
func notifyResize(chan<- os.Signal) {}

// JobControl is false: no Ctrl-Z stop where there are no job-control signals.
func JobControl() bool { return false }

// notifyJob does nothing where there are no job-control signals.
func notifyJob(chan<- os.Signal) {}

// isStop is false where there are no job-control signals.
func isStop(os.Signal) bool { return false }

// stopGroup does nothing where there are no job-control signals.
func stopGroup() {}
