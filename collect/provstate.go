package collect

import (
	"errors"
	"time"

	"dcimon/namespace"
)

// ErrNoAnswer is a provider's error when its collection did not answer within the deadline
// (ProviderStatus.LastErr wraps it): it may still answer at a later collection.
var ErrNoAnswer = errors.New("no answer")

// ProviderStatus is what the sampler knows about one provider's health.
type ProviderStatus struct {
	ID        uint32 // its number among every supplier the sampler has had
	Dynamic   bool   // an extension supplier (a user's file or program), which can be told to go away
	Supplier  namespace.Supplier
	State     string // "ok", "failing", "busy" (still running after a deadline), "dead", "idle"
	LastDur   time.Duration
	Successes uint64
	Failures  uint64
	LastErr   error
	Warning   error // what is wrong though it still supplies (Warner); nil when nothing is
	LastOK    time.Time
}

// provState is one provider as the sampler keeps it. Its fields have one owner each:
//   - who it is (p, sup, id, origin) is fixed when it is made;
//   - what its collections read and decide (its classes, what is due, its instances) belongs to
//     the goroutine that holds Sampler.mu (Sample, GoAway), and is read and written by it alone;
//   - its health, which Status reads from any goroutine, is guarded by Sampler.stMu: the holder
//     of Sampler.mu writes it under stMu, and run's goroutine clears health.collecting under it.
type provState struct {
	p      Provider
	sup    namespace.Supplier
	id     uint32 // its number among every supplier the sampler has had (the Monitor instance)
	origin origin // built in, or found by the Discoverer

	classes    []*namespace.Class        // the classes registered for it (parents before children)
	every      map[*namespace.Class]bool // a request's every class, kept while classes stay: never changed once made
	refused    map[string]string         // class id → why the registry refused it, so it is said once
	needStatic bool                      // its static datums are read at the next collection (and not yet read whole)
	lastVar    time.Time                 // when its SV_VARIABLE datums were last read whole
	lastFull   time.Time                 // when every class was last asked for (SPMI-DDS-6)
	lastTime   time.Time                 // the provider's own timestamp of its last data (liveness)
	insts      map[*namespace.Class][]*namespace.Instance
	worker     *worker // the goroutine it is collected on (worker.go); made at its first collection, under Sampler.mu

	health health // guarded by Sampler.stMu
}

// origin is where a supplier comes from.
type origin uint8

const (
	// builtIn is a supplier the sampler was made with: its classes are registered all at once
	// and stay.
	builtIn origin = iota
	// discovered is a supplier the Discoverer found (a user's file or program): its classes are
	// registered one by one, as it declares them, and taken back when it dies or goes
	// (SPMI-DDS-1 to 5).
	discovered
)

// readState is what became of a provider's collections.
type readState uint8

const (
	neverRead    readState = iota // nothing absorbed yet: "idle"
	answered                      // its last collection answered: "ok"
	failed                        // its last collection failed: "failing", or "busy" while one still runs
	unregistered                  // its classes were refused: listed, failed, and never collected
)

// liveness is whether a supplier is taken to be there (SPMI-DDS-4).
type liveness uint8

const (
	alive       liveness = iota
	assumedDead          // its data not updated for longer than Options.Liveness
)

// health is what Status says of a provider.
type health struct {
	read       readState
	liveness   liveness
	collecting bool    // a collection goroutine has not returned yet
	reset      [8]byte // the supplier's incarnation, as its last answer said
	successes  uint64
	failures   uint64
	lastErr    error
	warning    error // its Warner's last warning
	lastDur    time.Duration
	lastOK     time.Time // when the sampler last saw it update
}

// resetKnown says its reset value is the one to compare an answer's with: it has answered, or
// was found by the Discoverer (whose first declaration is taken at once, against a zero reset).
func (ps *provState) resetKnown() bool {
	return ps.origin == discovered || ps.health.successes > 0
}

// status is its ProviderStatus; the caller holds Sampler.stMu.
func (ps *provState) status() ProviderStatus {
	h := ps.health
	sup := ps.sup
	sup.Reset = h.reset
	return ProviderStatus{ID: ps.id, Dynamic: ps.origin == discovered, Supplier: sup, State: h.word(), LastDur: h.lastDur,
		Successes: h.successes, Failures: h.failures, LastErr: h.lastErr, Warning: h.warning, LastOK: h.lastOK}
}

// word is the health in ProviderStatus.State's words.
func (h health) word() string {
	switch {
	case h.read == unregistered:
		return "not registered"
	case h.liveness == assumedDead:
		return "dead"
	case h.read == failed && h.collecting:
		return "busy"
	case h.read == failed:
		return "failing"
	case h.read == neverRead:
		return "idle"
	}
	return "ok"
}
