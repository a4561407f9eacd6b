package namespace

import (
	"slices"
	"testing"
	"time"
)

// TestNextKeptPlacesAsReordered checks that a reading whose instances kept their places (the
// k-th in slot k: Next takes their slots without reading them, keptPlaces) gives every instance
// the values the same reading in another order gives, which takes each instance's slot from it;
// and that an instance missing from a reading, or one more, is read by its slot.
func TestNextKeptPlacesAsReordered(t *testing.T) {
	_, c, insts := benchClass(t, 6)
	nd := len(c.Datums)
	raws := func(base uint64, order []*Instance) []Raw {
		out := make([]Raw, len(order)*nd)
		for k, in := range order {
			for d := range nd {
				// Counters rise by a different amount for each instance and datum; one
				// 32-bit counter wraps.
				n := base*uint64(in.slot+d+1) + uint64(d)
				if d == 3 && base > 1 {
					n = uint64(in.slot) + 5 // below the first reading's (1<<32 - 10): a wrap
				} else if d == 3 {
					n = 1<<32 - 10
				}
				out[k*nd+d] = Raw{N: n}
			}
		}
		return out
	}
	sample := func(at time.Time, base uint64, order []*Instance) *Sample {
		return &Sample{Start: at, End: at, Classes: []ClassSample{{Class: c, Time: at, Insts: order, Raw: raws(base, order)}}}
	}
	first := Next(nil, sample(t0, 1, insts), nil)
	at := t0.Add(2 * time.Second)
	kept := Next(first, sample(at, 1000, insts), nil)
	reversed := slices.Clone(insts)
	slices.Reverse(reversed)
	other := Next(first, sample(at, 1000, reversed), nil)
	fewer := Next(first, sample(at, 1000, insts[1:]), nil)
	for _, in := range insts {
		a, b := kept.Class(c).Row(in), other.Class(c).Row(in)
		if !slices.Equal(a, b) {
			t.Errorf("%s: kept in place %+v, reordered %+v", in.OSName, a, b)
		}
		if a[0].State != Valid || a[3].State != Valid {
			t.Errorf("%s: a counter and a wrapped 32-bit one should be rates: %+v, %+v", in.OSName, a[0], a[3])
		}
		if in == insts[0] {
			if _, ok := fewer.Class(c).Value(in, 0); ok {
				t.Errorf("%s: not in the reading, yet in the snapshot", in.OSName)
			}
			continue
		}
		if f := fewer.Class(c).Row(in); !slices.Equal(a, f) {
			t.Errorf("%s: with one instance fewer %+v, want %+v", in.OSName, f, a)
		}
	}
}
