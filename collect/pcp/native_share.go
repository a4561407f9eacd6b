package pcp

import (
	"encoding/binary"
	"hash/fnv"
	"maps"
	"slices"
	"sync"

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
func sharedPositions(names []string) map[string]int {
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
			return p.pos
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
	positions.byHash[sum] = append(positions.byHash[sum], namesPos{slices.Clone(names), pos})
	return pos
}
