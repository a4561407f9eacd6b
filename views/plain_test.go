package views

import (
	"fmt"
	"strings"
	"testing"

	"dcimon/namespace"
)

// issue 32 item 4: what the panes, the hotset form and `dcimon hot` say has no SPMI or DCI
// names in it; the words stand for the same settings.
func TestPlainWords(t *testing.T) {
	jargon := []string{"SiHot", "SiBad", "SiNo", "DCI_", "SPMI-", "except_type", "feed_type", "maxresp"}
	var said []string
	for _, f := range []namespace.HotFeed{namespace.SiHotNoFeed, namespace.SiHotThreshold, namespace.SiHotAlways} {
		said = append(said, FeedWords(f))
	}
	for _, e := range []namespace.HotExcept{namespace.SiHotNoException, namespace.SiHotException, namespace.SiHotTrap, namespace.SiHotBoth} {
		said = append(said, ExceptWords(e))
	}
	for _, e := range []namespace.SiErr{namespace.SiSuccess, namespace.SiNoValue, namespace.SiBadArgument, namespace.SiNotFound, namespace.SiInvalidCx, namespace.SiDeleted, namespace.SiLocked, namespace.SiOtherErr} {
		said = append(said, ErrWords(e))
	}
	ne := &namespace.Error{Status: namespace.StatusInvalidArg, Si: namespace.SiBadArgument,
		Msg: "frequency 1 must be at least 5 minutes when except_type is SiHotException (SPMI-HOT-13, SPMI-HOT-14)"}
	plain := PlainError(fmt.Errorf("hotset: %w", ne))
	if plain != "frequency 1 must be at least 5 minutes when alerts is events" {
		t.Errorf("PlainError = %q", plain)
	}
	said = append(said, plain, PlainError(fmt.Errorf("max must be set when feed_type is SiHotThreshold (SPMI-HOT-6)")))
	for _, s := range said {
		for _, j := range jargon {
			if strings.Contains(s, j) || s == "" {
				t.Errorf("%q says %q", s, j)
			}
		}
	}
	if FeedWords(namespace.SiHotThreshold) == FeedWords(namespace.SiHotAlways) || FeedWords(namespace.SiHotNoFeed) == FeedWords(namespace.SiHotAlways) ||
		ExceptWords(namespace.SiHotTrap) == ExceptWords(namespace.SiHotBoth) || ExceptWords(namespace.SiHotNoException) == ExceptWords(namespace.SiHotException) {
		t.Error("two settings read the same")
	}
}

// issue 32 item 4: a time per operation is printed in milliseconds, as iostat prints its awaits,
// whatever its size: never µs/op beside another disk's ms/op.
func TestAwaitInMilliseconds(t *testing.T) {
	m := Measure{Kind: KindTime, Factor: 1e-3, Per: "/op"} // a derived average of ms over a count
	for v, want := range map[float64]string{0.125: "0.125 ms/op", 1.5: "1.5 ms/op", 2500: "2500 ms/op", 0: "0 ms/op"} {
		if got := m.Format(v); got != want {
			t.Errorf("Format(%v ms) = %q, want %q", v, got, want)
		}
	}
}

// The panes name a hotset's feed and alerts at every frame that draws it: the plain words are
// found without allocating, and they are the words a refusal's message gets for the same names.
func TestPlainNamesAllocateNothing(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _, _ = FeedWords(namespace.SiHotThreshold), ExceptWords(namespace.SiHotBoth) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
	for _, f := range []namespace.HotFeed{namespace.SiHotNoFeed, namespace.SiHotThreshold, namespace.SiHotAlways} {
		if got, want := FeedWords(f), plainTerms.Replace(f.String()); got != want {
			t.Errorf("%v: %q, a message says %q", f, got, want)
		}
	}
}
