package ui

import (
	"context"

	"dcimon/namespace"
)

// Source is what the monitor reads: the name space, one collection on demand, and the event log.
type Source interface {
	Registry() *namespace.Registry
	Events() *namespace.EventLog
	// Sample runs one collection (blocking; the UI calls it only inside a tea.Cmd) and returns the new snapshot.
	Sample(ctx context.Context) (*namespace.Snapshot, error)
}
