package collect

import (
	"time"

	"dcimon/namespace"
)

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

type provState struct {
	p       Provider
	sup     namespace.Supplier
	classes []*namespace.Class        // the classes registered for it (parents before children)
	every   map[*namespace.Class]bool // a request's every class, kept while classes stay: never changed once made
	warning error                     // its Warner's last warning
	index   int
	id      uint32 // its number among every supplier the sampler has had (the Monitor instance)
	// dynamic marks a supplier found by the Discoverer: its classes are registered one by one,
	// as it declares them, and taken back when it dies or goes (SPMI-DDS-1 to 5).
	dynamic bool
	refused map[string]string // class id → why the registry refused it, so it is said once

	reset      [8]byte
	haveReset  bool
	needStatic bool
	lastVar    time.Time
	lastFull   time.Time // when every class was last asked for (SPMI-DDS-6)
	lastTime   time.Time // the provider's own timestamp of its last data (liveness)
	lastOK     time.Time // when the sampler last saw it update
	dead       bool
	failing    bool
	running    bool // a collection goroutine has not returned yet
	successes  uint64
	failures   uint64
	lastErr    error
	regErr     error // registration failed: the supplier is listed, failed, and never collected
	lastDur    time.Duration
	insts      map[*namespace.Class][]*namespace.Instance
}

func (ps *provState) status() ProviderStatus {
	st := "ok"
	switch {
	case ps.regErr != nil:
		st = "not registered"
	case ps.dead:
		st = "dead"
	case ps.running && ps.failing:
		st = "busy"
	case ps.failing:
		st = "failing"
	case ps.successes == 0 && ps.failures == 0:
		st = "idle"
	}
	sup := ps.sup
	sup.Reset = ps.reset
	return ProviderStatus{ID: ps.id, Dynamic: ps.dynamic, Supplier: sup, State: st, LastDur: ps.lastDur, Successes: ps.successes,
		Failures: ps.failures, LastErr: ps.lastErr, Warning: ps.warning, LastOK: ps.lastOK}
}
