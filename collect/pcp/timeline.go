package pcp

import (
	"dcimon/collect"
	ns "dcimon/namespace"
	"dcimon/pcparchive"
	"sort"
	"time"
)

// seek places the archive at at: every record up to it read for its values, from the temporal
// index's last entry before at (an earlier one when that leaves a metric seen there without a
// value before its last, or fewer than two data records), on the archive's start values. The
// next two fetches answer without moving: each metric's values before its last at or before at,
// then its last, so that each rate is over that metric's own interval (issue 39 item 1).
func (x *archiveContext) Seek(at time.Time) error {
	if at = x.near(at); at.Before(x.first) || at.After(x.last) {
		return x.outside(at)
	}
	idx := x.a.Index
	i := sort.Search(len(idx), func(i int) bool { return idx[i].Time.After(at) }) - 1
	for tries := 0; ; tries++ {
		from := i // the index entry to read from; -1: the archive's start
		if tries >= 3 || i < 0 {
			from = -1
		}
		c, err := x.a.CursorFrom(from)
		if err != nil {
			x.note(err)
			return err
		}
		var since time.Time
		if from >= 0 {
			since = idx[from].Time
		}
		vals := x.prologue.upTo(at, since)
		now := x.first
		var ahead []pcparchive.Result // the record after at
		data := 0
		for {
			r, err := c.Next()
			if err != nil {
				x.note(err) // a damaged record: the seek stops before it, which is said
				break
			}
			if r.Time.After(at) {
				ahead = append(ahead, r)
				break
			}
			x.applyTo(&vals, r)
			if isData(r) {
				now = r.Time
				data++
			}
		}
		// Fewer than two samples: an earlier entry, at worst the start. A counter without its
		// value before (logged less often than the index's entries): an earlier entry, at most
		// two more, never the whole archive (a seek stays bounded).
		if from >= 0 && (data < 2 || (tries < 2 && !x.settled(&vals))) {
			c.Close()
			i--
			continue
		}
		x.cur.Close()
		x.cur, x.pending, x.vals, x.now = c, ahead, vals, now
		x.fetched, x.phase = false, 2 // the next fetches answer, whatever they read
		clear(x.classAt)
		x.clock.Store(x.now.UnixNano())
		return nil
	}
}

// settled says every counter read since the values' ground has a value before its last (a
// metric logged less often than the index's entries has none yet).
func (x *archiveContext) settled(m *metricVals) bool {
	for pmid, t := range m.at {
		if d := x.a.Desc(pmid); d != nil && ns.PMSem(d.Sem) == ns.PMSemCounter && !t.Before(m.since) && pmid>>22&0x1ff != 2 {
			if _, ok := m.prev[pmid]; !ok {
				return false
			}
		}
	}
	return true
}

// After is the time of the archive's first data record after t, which is not before the
// one read last (its records ahead are read into pending).
func (x *archiveContext) After(t time.Time) (time.Time, bool) {
	for i := 0; ; i++ {
		if len(x.pending) <= i && !x.more() {
			return time.Time{}, false
		}
		if r := x.pending[i]; isData(r) && r.Time.After(t) {
			return r.Time, true
		}
	}
}

// Before is the time of the archive's last data record before t, found by a seek (which
// the Sample that asks for it follows with a seek of its own).
func (x *archiveContext) Before(t time.Time) (time.Time, bool) {
	if !t.After(x.first) {
		return time.Time{}, false
	}
	if err := x.Seek(t.Add(-time.Nanosecond)); err != nil {
		return time.Time{}, false
	}
	return x.now, x.now.Before(t)
}

// Count counts the archive's data records after t and up to u, at most most, among its
// records ahead (more read ahead as needed): t is not before the one read last.
func (x *archiveContext) Count(t, u time.Time, most int) int {
	k := 0
	for i := 0; k < most; i++ {
		if len(x.pending) <= i && !x.more() {
			break
		}
		r := x.pending[i]
		if r.Time.After(u) {
			break
		}
		if isData(r) && r.Time.After(t) {
			k++
		}
	}
	return k
}

// more reads one more record ahead into pending; false at the end (or past a long run of
// pmcd's own records: no sample near).
func (x *archiveContext) more() bool {
	if len(x.pending) >= 256 {
		return false
	}
	rec, err := x.cur.Next()
	if err != nil {
		x.note(err)
		return false
	}
	x.pending = append(x.pending, rec)
	return true
}

// Start is where the archive's first rates are: where every metric logged more than once near
// its start has its second value.
func (x *archiveContext) Start() time.Time { return x.start }

// Shown is the time of the record read last.
func (x *archiveContext) Shown() time.Time { return x.now }

// Ahead is the time of the first reading a seek leaves to read before the time sought: the
// latest of the values before each metric's last (phase 2), else the first data record read
// ahead of the cursor.
func (x *archiveContext) Ahead() (time.Time, bool) {
	if x.phase == 2 {
		return x.prevTime(), true
	}
	for _, q := range x.pending {
		if isData(q) {
			return q.Time, true
		}
	}
	return time.Time{}, false
}

// prevTime is the time of a seek's first reading: the latest of the values before each
// metric's last, just before the time read when no metric has two values yet.
func (x *archiveContext) prevTime() time.Time {
	var t time.Time
	for _, p := range x.vals.prevAt {
		if p.After(t) {
			t = p
		}
	}
	if t.IsZero() || !t.Before(x.now) {
		t = x.now.Add(-time.Nanosecond) // a first reading all the same
	}
	return t
}

// ReadTo makes the next fetches read every record up to t.
func (x *archiveContext) ReadTo(t time.Time) { x.target.Store(t.UnixNano()) }

// Timelines are the archives, one a host.
func (as *Archives) Timelines() []collect.Timeline {
	out := make([]collect.Timeline, len(as.xs))
	for i, x := range as.xs {
		out[i] = x
	}
	return out
}
