package pcp

import (
	"dcimon/collect"
	"dcimon/pcparchive"
	"maps"
	"sort"
	"time"
)

// seek places the archive so that its next fetches are of the last data record but one at or
// before at, then the last one: a reading's rates end at at. It starts from the temporal index's
// last entry before at (an earlier one when that leaves fewer than two data records before at),
// on the archive's start values; the records between are read for their values, one at a time.
func (x *archiveContext) Seek(at time.Time) error {
	if at = x.near(at); at.Before(x.first) || at.After(x.last) {
		return x.outside(at)
	}
	idx := x.a.Index
	i := sort.Search(len(idx), func(i int) bool { return idx[i].Time.After(at) }) - 1
	for tries := 0; ; tries++ {
		from := i // the index entry to read from; -1: the archive's start
		if tries >= 3 {
			from = -1
		}
		c, err := x.a.CursorFrom(from)
		if err != nil {
			x.note(err)
			return err
		}
		latest := maps.Clone(x.prologue)
		now := x.first
		var q []pcparchive.Result // from the last data record but one, up to at, and one past it
		for {
			r, err := c.Next()
			if err != nil {
				x.note(err) // a damaged record: the seek stops before it, which is said
				break
			}
			q = append(q, r)
			if r.Time.After(at) {
				break
			}
			data := 0
			for _, o := range q {
				if isData(o) && !o.Time.After(at) {
					data++
				}
			}
			for data > 2 { // keep two data records before at, apply the rest
				if isData(q[0]) {
					data--
				}
				x.applyTo(latest, q[0])
				now = q[0].Time
				q = q[1:]
			}
		}
		data := 0
		for _, o := range q {
			if isData(o) && !o.Time.After(at) {
				data++
			}
		}
		if data < 2 && from >= 0 {
			c.Close()
			i--
			continue
		}
		x.cur.Close()
		x.cur, x.pending, x.latest, x.now = c, q, latest, now
		x.fetched = false // the next fetch answers, whatever it reads
		x.clock.Store(x.now.UnixNano())
		return nil
	}
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
	var last time.Time
	for _, q := range x.pending {
		if q.Time.Before(t) && isData(q) {
			last = q.Time
		}
	}
	return last, !last.IsZero()
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

// Start is where the archive's first rates are: its second data record.
func (x *archiveContext) Start() time.Time { return x.second }

// Shown is the time of the record read last.
func (x *archiveContext) Shown() time.Time { return x.now }

// Ahead is the time of the first data record read ahead of the cursor.
func (x *archiveContext) Ahead() (time.Time, bool) {
	for _, q := range x.pending {
		if isData(q) {
			return q.Time, true
		}
	}
	return time.Time{}, false
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
