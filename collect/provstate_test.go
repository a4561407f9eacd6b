package collect

import (
	"errors"
	"testing"
)

// Issue 37 item 3: a provider's health is states whose values say what they mean, and Status's
// word for each is decided in one place, in this order: not registered, dead, busy, failing,
// idle, ok.
func TestHealthWord(t *testing.T) {
	for _, c := range []struct {
		h    health
		want string
	}{
		{health{}, "idle"},
		{health{read: answered}, "ok"},
		{health{read: answered, collecting: true}, "ok"}, // a collection running is no failure
		{health{read: failed}, "failing"},
		{health{read: failed, collecting: true}, "busy"}, // still running after a failed one
		{health{read: answered, liveness: assumedDead}, "dead"},
		{health{read: failed, collecting: true, liveness: assumedDead}, "dead"},
		{health{read: unregistered}, "not registered"},
		{health{read: unregistered, liveness: assumedDead}, "not registered"},
	} {
		if got := c.h.word(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.h, got, c.want)
		}
	}
}

// A supplier's reset is compared with an answer's once it has answered, or from the start for
// one the Discoverer found (its first declaration is taken at once, against a zero reset).
func TestResetKnown(t *testing.T) {
	for _, c := range []struct {
		ps   provState
		want bool
	}{
		{provState{}, false},
		{provState{health: health{failures: 3, read: failed, lastErr: errors.New("x")}}, false},
		{provState{health: health{successes: 1, read: answered}}, true},
		{provState{origin: discovered}, true},
	} {
		if got := c.ps.resetKnown(); got != c.want {
			t.Errorf("origin %d, %d answers: %v, want %v", c.ps.origin, c.ps.health.successes, got, c.want)
		}
	}
}
