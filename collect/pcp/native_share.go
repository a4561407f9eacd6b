package pcp

import (
	"encoding/binary"
	"hash/fnv"
	"maps"
	"reflect"
	"slices"
	"sync"
	"unsafe"

	"dcimon/pcpwire"
)

// nameSets are the names' pmids and the pmids' descriptors the hosts' pmcds gave, each set kept
// once: a fleet's hosts running one PMDA say the same, and share the two maps (never written to
// once shared) rather than have a copy each (issue 38 item 1: 13 KB a host). At most keptScales
// sets are kept.
var nameSets struct {
	sync.Mutex
	byHash map[uint64][]nameSet
}

// nameSet is a nativeContext's two maps.
type nameSet struct {
	ids   map[string]uint32
	descs map[uint32]pcpwire.Desc
}

// share makes the context's maps those of another host that has the same, or offers its own to
// the next; from then on they are not written to (own).
func (x *nativeContext) share() {
	sum := x.namesHash()
	nameSets.Lock()
	defer nameSets.Unlock()
	for _, s := range nameSets.byHash[sum] {
		if maps.Equal(s.ids, x.ids) && maps.Equal(s.descs, x.descs) {
			x.ids, x.descs, x.shared = s.ids, s.descs, true
			return
		}
	}
	if nameSets.byHash == nil || len(nameSets.byHash) >= keptScales {
		nameSets.byHash = map[uint64][]nameSet{}
	}
	nameSets.byHash[sum] = append(nameSets.byHash[sum], nameSet{x.ids, x.descs})
	x.shared = true
}

// own makes the context's maps its own to write to: copies of shared ones.
func (x *nativeContext) own() {
	if x.shared {
		x.ids, x.descs, x.shared = maps.Clone(x.ids), maps.Clone(x.descs), false
	}
}

// namesHash is a hash of the two maps that does not depend on their order: the sum of each
// entry's.
func (x *nativeContext) namesHash() uint64 {
	var sum uint64
	h := fnv.New64a()
	var b [24]byte
	for n, id := range x.ids {
		h.Reset()
		_, _ = h.Write([]byte(n))
		_, _ = h.Write(binary.BigEndian.AppendUint32(b[:0], id))
		sum += h.Sum64()
	}
	for id, d := range x.descs {
		h.Reset()
		w := binary.BigEndian.AppendUint32(b[:0], id)
		w = binary.BigEndian.AppendUint32(w, d.PMID)
		w = binary.BigEndian.AppendUint32(w, uint32(d.Type))
		w = binary.BigEndian.AppendUint32(w, d.InDom)
		w = binary.BigEndian.AppendUint32(w, uint32(d.Sem))
		w = binary.BigEndian.AppendUint32(w, uint32(d.Units))
		_, _ = h.Write(w)
		sum += 31 * h.Sum64()
	}
	return sum
}

// positions are the positions of names lists the native contexts fetch, each kept once (the
// hosts of a fleet ask for the same names), at most keptScales of them.
var positions struct {
	sync.Mutex
	byHash map[uint64][]namesPos
}

// namesPos is a names list and each name's (first) position in it.
type namesPos struct {
	names []string
	pos   map[string]int
}

// sharedPositions is each of names' first position among them: a map another context that
// fetches the same names has already, never written to.
func sharedPositions(names []string) map[string]int { return sharedNames(names).pos }

// sharedNames is names as another context that fetches the same kept them (one list for the
// fleet's hosts, never written to: 2 KB a host), with their positions.
func sharedNames(names []string) namesPos {
	h := fnv.New64a()
	for _, n := range names {
		_, _ = h.Write([]byte(n))
		_, _ = h.Write([]byte{0})
	}
	sum := h.Sum64()
	positions.Lock()
	defer positions.Unlock()
	for _, p := range positions.byHash[sum] {
		if slices.Equal(p.names, names) {
			return p
		}
	}
	pos := make(map[string]int, len(names))
	for i, n := range names {
		if _, dup := pos[n]; !dup {
			pos[n] = i
		}
	}
	if positions.byHash == nil || len(positions.byHash) >= keptScales {
		positions.byHash = map[uint64][]namesPos{}
	}
	np := namesPos{slices.Clone(names), pos}
	positions.byHash[sum] = append(positions.byHash[sum], np)
	return np
}

// fetchLists are the pmids a names list is fetched by, the name each is and its type, kept
// once for the contexts that fetch the same names (sharedNames's list) under the same shared
// maps (4 KB a host), at most keptScales of them.
var fetchLists struct {
	sync.Mutex
	m map[fetchKey]fetchList
}

// fetchKey is a names list (sharedNames's) and the shared map of pmids its names were
// resolved by (whose descriptors' map goes with it, nameSets).
type fetchKey struct {
	names *string
	n     int
	ids   unsafe.Pointer
}

// fetchList is what a context sends for a names list: each pmid once, which name each is
// and its type.
type fetchList struct {
	pmids []uint32
	of    []int
	types []int32
	sets  map[string]int // each fetched name's place among the pmids (its set in the answer)
}

// fetchLists are the pmids names are fetched by, which name each is, each one's type and each
// name's set: those
// of another context that fetches the same names under the same maps, or made (and offered
// to the next where the maps are shared). The three are never written to.
func (x *nativeContext) fetchLists(names []string) fetchList {
	var k fetchKey
	if x.shared && len(names) > 0 {
		k = fetchKey{unsafe.SliceData(names), len(names), reflect.ValueOf(x.ids).UnsafePointer()}
		fetchLists.Lock()
		l, ok := fetchLists.m[k]
		fetchLists.Unlock()
		if ok {
			return l
		}
	}
	var l fetchList
	for i, n := range names {
		if d, ok := x.desc(n); ok && !slices.Contains(l.pmids, d.PMID) {
			l.pmids, l.of, l.types = append(l.pmids, d.PMID), append(l.of, i), append(l.types, d.Type)
		}
	}
	l.sets = make(map[string]int, len(l.of))
	for i, n := range l.of {
		l.sets[names[n]] = i
	}
	if k.ids != nil {
		fetchLists.Lock()
		if fetchLists.m == nil || len(fetchLists.m) >= keptScales {
			fetchLists.m = map[fetchKey]fetchList{}
		}
		fetchLists.m[k] = l
		fetchLists.Unlock()
	}
	return l
}
