package collect_test

import (
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
)

// Issue 38 item 1: a sampler confined to what paths name (Sampler.Confine, `get Alpha/*/ops`)
// runs only the providers of the classes named, at its first collection too and after IdleEvery;
// a class subscribed to is read too; paths that name nothing, or the Monitor class, confine
// nothing; and a recording is read whole (its records time the readings).
func TestConfineReadsOnlyWhatIsNamed(t *testing.T) {
	for _, tc := range []struct {
		what       string
		paths      []string
		replay     bool
		subscribeB bool
		wantB      bool
	}{
		{"a statistic of alpha", []string{"Alpha/*/ops"}, false, false, false},
		{"an instance named", []string{"Alpha/a0/size"}, false, false, false},
		{"beta subscribed to", []string{"Alpha/*/ops"}, false, true, true},
		{"a recording", []string{"Alpha/*/ops"}, true, false, true},
		{"both named", []string{"Alpha/*/ops", "Beta/b0/ops"}, false, false, true},
		{"nothing named", []string{"Nope/x"}, false, false, true},
		{"the Monitor class", []string{"Monitor/alpha/error"}, false, false, true},
		{"a context only", []string{"Beta/*"}, false, false, true},
	} {
		clock := &collecttest.FakeClock{T: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		a := newFake("alpha", 10, clock, "a0")
		b := newFake("beta", 11, clock, "b0")
		s, c := newTestSampler(t, collect.Options{Liveness: 0, Replay: tc.replay}, a, b)
		s.Confine(tc.paths...)
		if tc.subscribeB {
			s.Subscribe(b.class)
		}
		for range 7 { // past IdleEvery (5 s): the rest is not read slowly either
			collecttest.Tick(t, s, c, time.Second)
		}
		if a.calls.Load() != 7 || (b.calls.Load() > 0) != tc.wantB {
			t.Errorf("%s: alpha read %d times, beta %d; want 7, and beta read: %v", tc.what, a.calls.Load(), b.calls.Load(), tc.wantB)
		}
	}
}
