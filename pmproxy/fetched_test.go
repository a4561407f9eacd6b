package pmproxy

import (
	"testing"
	"time"
)

// A fetch whose values are set by position reads as one by name: Get and Lookup (of a few
// values, and of more than a scan's eight) find each metric's, a name not fetched has none, and
// the next fetch into it (by position again, or by name) keeps nothing of the last.
func TestFetchedByPosition(t *testing.T) {
	var f Fetched
	pos := map[string]int{"a": 0, "b": 1, "c": 2}
	many := make([]Value, 12)
	for i := range many {
		many[i] = Uint(int64(i*10), uint64(i))
	}
	f.ReuseAt(time.Unix(5, 0), pos, 3)
	f.SetAt(0, []Value{Uint(-1, 7)})
	f.SetAt(2, many)
	if v, ok := f.Lookup("a", -1); !ok || v.bits != 7 {
		t.Errorf("a: %+v %v", v, ok)
	}
	if v, ok := f.Lookup("c", 110); !ok || v.bits != 11 {
		t.Errorf("c instance 110: %+v %v", v, ok)
	}
	if len(f.Get("b")) != 0 || len(f.Get("nope")) != 0 || len(f.Get("c")) != 12 {
		t.Errorf("b %v, nope %v, c %d values", f.Get("b"), f.Get("nope"), len(f.Get("c")))
	}
	f.ReuseAt(time.Unix(6, 0), pos, 3)
	f.SetAt(1, []Value{Uint(-1, 8)})
	if _, ok := f.Lookup("c", 110); ok || len(f.Get("a")) != 0 || len(f.Get("b")) != 1 {
		t.Errorf("the next fetch keeps the last one's values: c %v a %v", f.Get("c"), f.Get("a"))
	}
	f.Reuse(time.Unix(7, 0))
	f.Values["b"] = []Value{Uint(-1, 9)}
	if v, ok := f.Lookup("b", -1); !ok || v.bits != 9 || len(f.Get("a")) != 0 {
		t.Errorf("by name again: %+v %v", v, ok)
	}
}
