package ui

import (
	"math"

	"dcimon/namespace"
)

// ringLen is how many recent samples a sparkline remembers.
const ringLen = 48

// ring is a fixed ring of recent values, NaN for a sample without a valid value.
type ring struct {
	buf  [ringLen]float64
	n    int // values held, up to ringLen
	next int
	seen uint64 // the snapshot that last fed it
}

func (r *ring) push(v float64, ok bool) {
	if !ok {
		v = math.NaN()
	}
	r.buf[r.next] = v
	r.next = (r.next + 1) % ringLen
	if r.n < ringLen {
		r.n++
	}
}

// values appends the held values, oldest first, to dst.
func (r *ring) values(dst []float64) []float64 {
	dst = dst[:0]
	for i := r.n; i > 0; i-- {
		dst = append(dst, r.buf[(r.next-i+ringLen)%ringLen])
	}
	return dst
}

// max is the highest held valid value, or NaN.
func (r *ring) max() float64 {
	m := math.NaN()
	for i := 0; i < r.n; i++ {
		if v := r.buf[i]; !math.IsNaN(v) && (math.IsNaN(m) || v > m) {
			m = v
		}
	}
	return m
}

type ringKey struct {
	inst *namespace.Instance
	di   int
}

// ringStore keeps a ring per statistic someone looked at; rings not fed for ringTTL snapshots
// are dropped, so the store stays as small as what is on screen.
type ringStore struct {
	rings map[ringKey]*ring
}

const ringTTL = 300

func (s *ringStore) get(k ringKey) *ring {
	if s.rings == nil {
		return nil
	}
	return s.rings[k]
}

// feed pushes one value into the ring of k, once per snapshot.
func (s *ringStore) feed(k ringKey, seq uint64, v namespace.Value) {
	if s.rings == nil {
		s.rings = map[ringKey]*ring{}
	}
	r := s.rings[k]
	if r == nil {
		r = &ring{}
		s.rings[k] = r
	} else if r.seen == seq {
		return
	}
	r.seen = seq
	r.push(v.V, v.State == namespace.Valid)
}

// prune drops the rings not fed since seq-ringTTL.
func (s *ringStore) prune(seq uint64) {
	if seq%32 != 0 {
		return
	}
	for k, r := range s.rings {
		if r.seen+ringTTL < seq {
			delete(s.rings, k)
		}
	}
}

// reset forgets every ring: after a replay's jump in time, the history drawn must not run
// across it (issue 30).
func (s *ringStore) reset() { clear(s.rings) }
