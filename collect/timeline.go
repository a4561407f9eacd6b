package collect

import (
	"errors"
	"time"
)

// Timeline is one host's recorded past that the replay cursor moves over: an archive (collect/pcp)
// or a host's series. Its methods are called by one Sample at a time.
type Timeline interface {
	// Span is the time of its first and last samples.
	Span() (first, last time.Time)
	// Start is where its first rates are: its second sample.
	Start() time.Time
	// Shown is the time of the sample read last.
	Shown() time.Time
	// Seek places it so that the next reading starts at the index entry before t.
	Seek(t time.Time) error
	// Ahead is the time of the first sample ahead of the reading place (after a Seek, the
	// first of the two samples that end at the time sought).
	Ahead() (time.Time, bool)
	// After is the time of its first sample after t, not before the one read last.
	After(t time.Time) (time.Time, bool)
	// Before is the time of its last sample before t (found by a seek of its own).
	Before(t time.Time) (time.Time, bool)
	// Count counts its samples after t and up to u, at most most.
	Count(t, u time.Time, most int) int
	// ReadTo makes the next collections read every sample up to t.
	ReadTo(t time.Time)
}

// History is the recorded past of one or more hosts that a Replay moves over.
type History interface {
	Timelines() []Timeline
	// Clock is the time of the latest sample read, of any host: the sampler's clock.
	Clock() time.Time
	// Span is the time from the first timeline's start to the last one's end.
	Span() (first, last time.Time)
	// Hosts are the hosts, as paths name them.
	Hosts() []string
}

// ErrArchiveEnd is the error of a reading past the end of the recorded past.
var ErrArchiveEnd = errors.New("the end of the archive")

// Within is t kept within [first, last].
func Within(t, first, last time.Time) time.Time {
	if t.Before(first) {
		return first
	}
	if t.After(last) {
		return last
	}
	return t
}
