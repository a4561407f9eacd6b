package ui

import (
	"context"

	"dcimon/namespace"
)

// Sampler is what the monitor reads: the name space, one collection on demand, and the event log.
type Sampler interface {
	Registry() *namespace.Registry
	Events() *namespace.EventLog
	// Sample runs one collection (blocking; the UI calls it only inside a tea.Cmd) and returns the new snapshot.
	Sample(ctx context.Context) (*namespace.Snapshot, error)
}

// refresher is a Sampler that can be asked to re-read its SV_VARIABLE data (addresses, MTUs,
// capacities) at the next collection rather than when it is due (DCI4-DESC-3): the refresh key,
// and a class whose description changed (DATACHANGED, DCI-EVT-5).
type refresher interface {
	Refresh()
}

// subscriber is a Sampler that can read only the classes someone shows (collect.Sampler): the
// monitor subscribes to what is on screen, and the rest of the name space is read slowly
// (SPMI-FEAT-2, SPMI-DDS-6). A Sampler without it reads everything at every collection.
type subscriber interface {
	Subscribe(classes ...*namespace.Class) (cancel func())
}

// goAwayer is a Sampler with extension suppliers that can be told to go away (SPMI-DDS-5):
// collect.Sampler. The monitor calls it inside a tea.Cmd.
type goAwayer interface {
	GoAway(module string) error
}
