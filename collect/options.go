package collect

import (
	"context"
	"fmt"
	"time"
)

// Liveness limits (SPMI-DDS-4, AMB-48): 0 disables the check, otherwise 15 s to 600 s.
const (
	DefaultLiveness = 30 * time.Second
	MinLiveness     = 15 * time.Second
	MaxLiveness     = 600 * time.Second
	// variableEvery is how often SV_VARIABLE datums are re-read (DCI4-DESC-3, AMB-56).
	variableEvery = 5 * time.Minute
	// DefaultIdleEvery is how often classes nobody is subscribed to are still read while others
	// are (SPMI-DDS-6: "keep updating slowly, about every 5 s, rather than stopping").
	DefaultIdleEvery = 5 * time.Second
)

// Options configure a Sampler.
type Options struct {
	// Now is the clock; time.Now when nil. Tests inject a fake one.
	Now func() time.Time
	// Replay says Now is a recording's clock (archives, a series), not the wall clock: a
	// reading takes no time on it, and each class sample's timestamp may be ReplaySlack from
	// its values (issue 40 item 6).
	Replay bool
	// Deadline bounds one provider's collection; 2 s when zero. A provider that is still
	// running at the deadline fails this collection (its goroutine is left to finish) and is
	// not started again until it returns.
	Deadline time.Duration
	// Liveness is the SPMI dynamic-data-supplier timeout: a provider whose data has not been
	// updated for longer is assumed dead (SiAssumedDead). 0 disables; negative means the default.
	Liveness time.Duration
	// Events is the size of the event log; 1000 when zero.
	Events int
	// IdleEvery is how often a provider's unsubscribed classes are read while someone is
	// subscribed to something; DefaultIdleEvery when zero.
	IdleEvery time.Duration
	// EveryClass reads every class at every collection, subscribed or not (a replay: its
	// readings jump in time, and a class read now and then would have no rate after a jump).
	EveryClass bool
	// NoDerived leaves the derived datums of every snapshot uncomputed (unavailable): a
	// recorder, which writes the datums read only, does not pay for what it never writes
	// (issue 38 item 4). The rates are worked out as ever: what a counter's state says
	// (a discontinuity, a broken invariant) decides what is written.
	NoDerived bool
	// Discover, when set, finds suppliers that come and go while dcimon runs (users' files and
	// programs under DDS, issue 18); it is asked at the first collection and then every
	// DiscoverEvery (2 s when zero), under the deadline.
	Discover      Discoverer
	DiscoverEvery time.Duration
	// Self reads dcimon's own process for the Monitor class (the Linux source's reader of
	// /proc/self); without it those statistics are n/a.
	Self func(ctx context.Context) (SelfUsage, error)
}

// withDefaults is o with each option left zero given its default, or the error of a liveness
// timeout out of bounds.
func (o Options) withDefaults() (Options, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Deadline <= 0 {
		o.Deadline = 2 * time.Second
	}
	if o.Liveness < 0 {
		o.Liveness = DefaultLiveness
	}
	if err := ValidateLiveness(o.Liveness); err != nil {
		return o, err
	}
	if o.Events <= 0 {
		o.Events = 1000
	}
	if o.IdleEvery <= 0 {
		o.IdleEvery = DefaultIdleEvery
	}
	if o.DiscoverEvery <= 0 {
		o.DiscoverEvery = 2 * time.Second
	}
	return o, nil
}

// SelfUsage is what dcimon's own process holds now: resident and virtual memory in bytes, and
// its threads. Its CPU time comes from getrusage.
type SelfUsage struct {
	RSS, VM, Threads uint64
}

// ValidateLiveness checks a liveness timeout: 0 or 15 s to 600 s (SPMI-DDS-4).
func ValidateLiveness(d time.Duration) error {
	if d == 0 || (d >= MinLiveness && d <= MaxLiveness) {
		return nil
	}
	return fmt.Errorf("liveness timeout %v: want 0 (disabled) or %v to %v (SPMI-DDS-4)", d, MinLiveness, MaxLiveness)
}
