package namespace

import (
	"sync"
	"time"
)

// Reading is the reading that every statset and hotset of a program shares: the SPMI's internal
// "obsolete" switch turned into one snapshot per refresh (SPMI-SET-13, SPMI-HOT-20, X-4).
//
// Reading a set with Force takes a new reading from the provider layer (one call of the source's
// take function, which samples every provider once) and so marks every statistic of every set
// obsolete. Any later read of any set, forced or not, refreshes its obsolete statistics from that
// same reading and clears their mark. A read without Force when nothing is obsolete returns the
// values previously retrieved. So a program that reads several sets per tick forces only the first
// read and the providers are read once per tick; a program that never forces ("freeze") keeps
// showing the same numbers.
//
// A program whose sampler runs elsewhere (the TUI's collection command) hands each tick's snapshot
// in with Publish instead, which has the same effect as a forced read. A Source is safe for
// concurrent use; the sets that read it are not.
type Reading struct {
	mu    sync.Mutex
	take  func() (*Snapshot, error)
	snap  *Snapshot
	gen   uint64 // counts readings; a set whose last reading is older holds obsolete values
	reads uint64
}

// NewReading returns a source that takes a new reading with take whenever a set is read with
// Force. take may be nil for a source fed only by Publish; Force then has nothing to refresh from.
func NewReading(take func() (*Snapshot, error)) *Reading { return &Reading{take: take} }

// Publish hands in a reading taken elsewhere (the tick's one sample): every statistic becomes
// obsolete, so the next read of each set refreshes from snap.
func (s *Reading) Publish(snap *Snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.snap = snap
	s.gen++
}

// Snapshot returns the current reading, or nil before the first.
func (s *Reading) Snapshot() *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snap
}

// Reads counts the readings taken through take: the provider reads the sets caused.
func (s *Reading) Reads() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reads
}

// acquire returns the reading a set read should use and its number, taking a new one first when
// force is set and the source can.
func (s *Reading) acquire(force bool) (*Snapshot, uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if force && s.take != nil {
		snap, err := s.take()
		if err != nil {
			return s.snap, s.gen, err
		}
		s.reads++
		if snap != nil {
			s.snap = snap
			s.gen++
		}
	}
	return s.snap, s.gen, nil
}

// readingTime is the time a set read stamps on its header (SPMI-SET-3, SPMI-HOT-3): the end of
// the collection, or its start when the end is not set.
func readingTime(snap *Snapshot) time.Time {
	if snap.End.IsZero() {
		return snap.Start
	}
	return snap.End
}
