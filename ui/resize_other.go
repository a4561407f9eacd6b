//go:build !unix

package ui

import "os"

// notifyResize does nothing where there is no size-change signal: the size read at start stays.
func notifyResize(chan<- os.Signal) {}
