package pcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"dcimon/collect"
	ns "dcimon/namespace"
	"dcimon/pcparchive"
	"dcimon/pmproxy"
)

// A PCP archive (a pmlogger's, issue 15) read through the same mapping as a live host: an
// archiveContext answers what a pmproxy context answers (descriptions, instance domains, the
// name space, fetches) from the archive, each fetch the next sample in time. The host's classes,
// derived statistics and PCP name space are then those of a remote host, and rates come from the
// archive's own timestamps.

// archiveContext is an archive as a pcpContext. Without a target, each Fetch moves to the next
// record that holds any of the names asked for (the headless commands' series); with one (a
// Replay's time cursor), it reads every record up to the target. Either way it answers every
// metric's latest value so far. Records are read one at a time (pcparchive.Cursor), and a seek
// starts from the temporal index: memory and the time to move do not grow with the archive's
// length.
type archiveContext struct {
	a       *pcparchive.Archive
	byName  map[string]*pcparchive.Desc
	cur     *pcparchive.Cursor
	pending []pcparchive.Result // read ahead of the cursor, not given yet
	now     time.Time
	clock   atomic.Int64 // now, for the sampler's clock, read while a collection may run
	target  atomic.Int64 // UnixNano of the time fetches read up to; 0: none (the next record)
	first   time.Time
	second  time.Time // the second data record's, where the first rates are
	last    time.Time
	vals    metricVals // each metric's latest values so far and the ones before, with their times
	fetched bool       // a fetch has answered: a later one with nothing new is errNoNewSample
	// notYet says the headless commands read this archive, one of several, at a time before it
	// began: its host was not recorded then.
	notYet bool
	// extra are dcimon's own metrics (dcimon.*) a reading plan reads besides the mapping's.
	extra map[string]bool
	// prologue are the values of the records at the archive's start (what pmlogger logs
	// "once": hinv.ncpu, kernel.uname), the ground every seek starts from.
	prologue metricVals
	// phase counts the fetches after a seek that answer without moving: 2, each metric's
	// values before its last at or before the time sought (the first reading, no rates), then
	// 1, its last (the rates, each over its own interval, issue 39 item 1).
	phase int
	// held makes fetches answer what the last one did, without moving (a PCP/ path reached a
	// level at a time costs no sample, issue 39 item 6); prevShown says that was the values
	// before the last ones.
	held, prevShown bool
	// start is where every metric logged more than once near the archive's start has its second
	// value: the default time's rates (issue 39 item 1).
	start time.Time
	// step is the archive's interval: that of its most often logged metric near its start.
	step time.Duration
	// classAt is the time of each class's last reading (its newest metric's values): a class
	// with nothing newer is not read again, it keeps its values as recorded.
	classAt map[*ns.Class]time.Time
	// timesOf are the pmids of each class's datums (0: none), for their values' times.
	timesOf map[*ns.Class][]uint32
	// damage is the first damage met in the archive (a *pcparchive.DamageError): in its
	// metadata or index when opened, or where a read of a volume stopped (issue 30 item 9).
	damage atomic.Pointer[error]
}

// note keeps the first damage a read of the archive met (any error but its end).
func (x *archiveContext) note(err error) {
	if err != nil && !errors.Is(err, io.EOF) {
		x.damage.CompareAndSwap(nil, &err)
	}
}

// prologueSpan is how long after its first data record an archive's start lasts: pmlogger logs its
// "once" metrics with its first fetches.
const prologueSpan = 2 * time.Second

// openArchive reads an archive's metadata, its start and its end, and places it at its start.
// The end is found from the temporal index's last entry (the records after it are read); an
// archive without an index is read through once.
func openArchive(base string) (*archiveContext, error) {
	a, err := pcparchive.Open(base)
	if a == nil {
		return nil, err
	}
	x := &archiveContext{a: a, byName: map[string]*pcparchive.Desc{}, vals: newMetricVals(), prologue: newMetricVals()}
	x.note(err) // damage of the metadata or index: what was before it is read
	for i := range a.Descs {
		for _, n := range a.Descs[i].Names {
			x.byName[n] = &a.Descs[i]
		}
	}
	if x.cur, err = a.Cursor(time.Time{}); err != nil {
		return nil, err
	}
	// The start: the first records, read ahead and kept for the fetches that follow; its
	// values are those up to prologueSpan after the first data record (pmlogger's own record
	// comes first, and its first fetch may come late on a loaded host).
	data := 0
	var firstData time.Time
	for len(x.pending) < 64 {
		r, err := x.cur.Next()
		if err != nil {
			x.note(err)
			if len(x.pending) == 0 {
				return nil, fmt.Errorf("archive %s: no records: %w", base, err)
			}
			break
		}
		x.pending = append(x.pending, r)
		if isData(r) {
			if data++; data == 1 {
				firstData = r.Time
			} else if data == 2 {
				x.second = r.Time
			}
		}
		if !firstData.IsZero() && r.Time.After(firstData.Add(prologueSpan)) {
			break
		}
		x.applyTo(&x.prologue, r)
	}
	// The archive's span is its data's: pmlogger's own records before the first sample and after
	// the last (its prologue and epilogue hold only pmcd's metrics) are no samples (issue 30).
	x.first = x.pending[0].Time
	if !firstData.IsZero() {
		x.first = firstData
	}
	x.last = x.first
	for _, r := range x.pending {
		if isData(r) {
			x.last = r.Time
		}
	}
	if x.second.IsZero() {
		x.second = x.last
	}
	// The end: from the index's last entry but one (its last is often the end itself), or
	// from here without an index, read to the last record.
	from := -1
	if n := len(a.Index); n >= 2 && a.Index[n-2].Time.After(x.last) {
		from = n - 2
	}
	if c, err := a.CursorFrom(from); err == nil {
		for {
			r, err := c.Next()
			if err != nil {
				x.note(err)
				break // the end, or a damaged record: the archive ends before it
			}
			if isData(r) && r.Time.After(x.last) {
				x.last = r.Time
			}
		}
		c.Close()
	} else {
		x.note(err)
	}
	if x.second.After(x.last) {
		x.second = x.last
	}
	x.start = x.findStart()
	x.now = x.first
	x.clock.Store(x.now.UnixNano())
	return x, nil
}

// peek is the next record without taking it.
func (x *archiveContext) peek() (pcparchive.Result, error) {
	if len(x.pending) == 0 {
		r, err := x.cur.Next()
		if err != nil {
			x.note(err)
			return r, err
		}
		x.pending = append(x.pending, r)
	}
	return x.pending[0], nil
}

// next is the next record: one read ahead, else the cursor's.
func (x *archiveContext) next() (pcparchive.Result, error) {
	if len(x.pending) > 0 {
		r := x.pending[0]
		x.pending = x.pending[1:]
		return r, nil
	}
	r, err := x.cur.Next()
	x.note(err)
	return r, err
}

// apply takes a record's values as the latest of their metrics.
func (x *archiveContext) apply(r pcparchive.Result) { x.applyTo(&x.vals, r) }

// metricVals are each metric's (by pmid) latest values and the ones before them, with the
// times of their records: a metric's rate is between two values of its own, whatever other
// metrics were logged between (pmlogger's logging groups, issue 39 item 1).
type metricVals struct {
	latest, prev map[uint32][]pmproxy.Value
	at, prevAt   map[uint32]time.Time
	// since is where the values were read from: a value before it (the archive's start, a
	// seek's ground) is no previous value of one read after it, whose rate would span the
	// records not read.
	since time.Time
}

func newMetricVals() metricVals {
	return metricVals{latest: map[uint32][]pmproxy.Value{}, prev: map[uint32][]pmproxy.Value{},
		at: map[uint32]time.Time{}, prevAt: map[uint32]time.Time{}}
}

// upTo is a copy of the values recorded up to t, read on from since: a metric is known from
// its record on (pmlogger's once group included), never before.
func (m *metricVals) upTo(t, since time.Time) metricVals {
	out := newMetricVals()
	out.since = since
	for id, at := range m.at {
		if at.After(t) {
			continue
		}
		out.latest[id], out.at[id] = m.latest[id], at
		if p, ok := m.prevAt[id]; ok && !p.After(t) {
			out.prev[id], out.prevAt[id] = m.prev[id], p
		}
	}
	return out
}

func (x *archiveContext) applyTo(m *metricVals, r pcparchive.Result) {
	for _, s := range r.Sets {
		d := x.a.Desc(s.PMID)
		if d == nil {
			continue
		}
		if at, ok := m.at[s.PMID]; ok && !r.Time.After(at) {
			continue // known already, from the archive's start values: a value is never taken back
		}
		vals := make([]pmproxy.Value, 0, len(s.Values))
		for _, v := range s.Values {
			if text, ok := archiveText(v, d.Type); ok {
				vals = append(vals, pmproxy.Value{Instance: int64(v.Inst), Text: text})
			}
		}
		if old, ok := m.latest[s.PMID]; ok && !m.at[s.PMID].Before(m.since) {
			m.prev[s.PMID], m.prevAt[s.PMID] = old, m.at[s.PMID]
		} else {
			delete(m.prev, s.PMID)
			delete(m.prevAt, s.PMID)
		}
		m.latest[s.PMID], m.at[s.PMID] = vals, r.Time
	}
}

// startScan bounds the search of the default time: the records and the time after the first
// sample read to find each metric's second value.
const (
	startScanRecords = 512
	startScanSpan    = 15 * time.Minute
	startQuiet       = 16 // data records without a new metric, once those seen later are seen twice
)

// findStart is where every metric logged more than once near the archive's start has its
// second value (its first rate), or the second sample's time when none is.
func (x *archiveContext) findStart() time.Time {
	c, err := x.a.CursorFrom(-1)
	if err != nil {
		return x.second
	}
	defer c.Close()
	scan := startScanner{x: x, seen: map[uint32]int{}, firstAt: map[uint32]time.Time{}}
	for range startScanRecords {
		r, err := c.Next()
		if err != nil || r.Time.After(x.first.Add(startScanSpan)) {
			break
		}
		if !isData(r) {
			continue
		}
		if scan.settled() {
			break
		}
		scan.read(r)
	}
	if scan.start.IsZero() || scan.start.After(x.last) {
		return x.second
	}
	return scan.start
}

// startScanner is findStart's reading of the archive's first data records: how often each metric
// was seen and when first, and the latest second value so far. It also learns the archive's
// interval (x.step) on the way.
type startScanner struct {
	x       *archiveContext
	seen    map[uint32]int
	firstAt map[uint32]time.Time
	start   time.Time
	// late: metrics first seen after the archive's first round of records (its prologue span)
	// and not seen again yet; quiet: data records since one was first seen. A metric of the
	// first round seen once only is a once group's, or one of a group slower than the scan.
	late, quiet int
}

// settled counts one more data record and says whether the scan may stop before it: a start is
// found, no late metric waits for its second value, and no new metric came for startQuiet records.
func (s *startScanner) settled() bool {
	s.quiet++
	return s.late == 0 && s.quiet > startQuiet && !s.start.IsZero()
}

// read takes a data record's metrics: a first sight starts a metric's wait for its second
// value, a second sight ends it.
func (s *startScanner) read(r pcparchive.Result) {
	for _, set := range r.Sets {
		switch s.seen[set.PMID]++; s.seen[set.PMID] {
		case 1:
			s.firstSeen(set.PMID, r.Time)
		case 2:
			s.secondSeen(set.PMID, r.Time)
		}
	}
}

// firstSeen notes a metric's first value: the quiet count restarts, and a metric first seen after
// the prologue span is late until its second value comes.
func (s *startScanner) firstSeen(pmid uint32, at time.Time) {
	s.firstAt[pmid], s.quiet = at, 0
	if at.After(s.x.first.Add(prologueSpan)) {
		s.late++
	}
}

// secondSeen notes a metric's second value (its first rate): the start moves up to it, and the
// gap since its first value may be the archive's interval.
func (s *startScanner) secondSeen(pmid uint32, at time.Time) {
	if s.firstAt[pmid].After(s.x.first.Add(prologueSpan)) {
		s.late--
	}
	if at.After(s.start) {
		s.start = at
	}
	// The archive's interval: its most often logged metric's.
	if d := at.Sub(s.firstAt[pmid]); d > 0 && (s.x.step == 0 || d < s.x.step) {
		s.x.step = d
	}
}

// isData says a record holds a value of some PMDA's besides pmcd's own (pmlogger logs pmcd's
// metrics in records of their own).
func isData(r pcparchive.Result) bool {
	for _, s := range r.Sets {
		if s.PMID>>22&0x1ff != 2 {
			return true
		}
	}
	return false
}

func (x *archiveContext) Generation() uint64 { return 1 }

// Span is the time of the archive's first and last samples.
func (x *archiveContext) Span() (first, last time.Time) { return x.first, x.last }

// near is at kept to the archive's first or last sample when it is before or after it by less
// than one of its intervals: a time a user read off the archive to the second ("19:12:59" for a
// first sample at 19:12:59.532) means that sample (issue 30).
func (x *archiveContext) near(at time.Time) time.Time {
	step := x.step // a metric's own interval, not the gap between two groups' records
	if step <= 0 {
		step = time.Second
	}
	switch {
	case at.Before(x.first) && x.first.Sub(at) < step:
		return x.first
	case at.After(x.last) && at.Sub(x.last) < step:
		return x.last
	}
	return at
}

// outside is the error for a time the archive does not cover, saying what it does.
func (x *archiveContext) outside(at time.Time) error {
	first, last := x.Span()
	const ms = "2006-01-02 15:04:05.000" // precise enough to be true of samples a second apart
	return fmt.Errorf("archive %s: %s is outside it: its samples are from %s to %s", x.a.Base,
		at.Format(ms+" MST"), first.In(at.Location()).Format(ms), last.In(at.Location()).Format(ms+" MST"))
}

// errNoNewSample is a replay's fetch of an archive that has no sample since the last one read
// (a host of several whose next sample is after the others'): its classes keep their values.
var errNoNewSample = errors.New("no new sample in the archive")

// errNotRecordedThen is a replay's fetch of an archive at a time before it began (a host of
// several whose archive starts later): its classes are n/a, "not in the archive", never another
// time's values.
var errNotRecordedThen = errors.New("not recorded then")

// Fetch reads up to the target, or without one moves to the next record holding any of names,
// and answers each name's latest values. After a seek, the first two fetches answer without
// moving: each metric's values before its last ones, then its last ones (phase); held, each
// answers what the one before did.
func (x *archiveContext) Fetch(_ context.Context, names ...string) (*pmproxy.Fetched, error) {
	if x.notYet && x.target.Load() == 0 {
		return nil, errNotRecordedThen
	}
	if tg := x.target.Load(); tg != 0 && x.near(time.Unix(0, tg)).Before(x.first) {
		// A replay of several hosts whose cursor is before this one's archive began.
		return nil, errNotRecordedThen
	}
	switch {
	case x.held && x.fetched:
		return x.answer(names, x.prevShown), nil
	case x.phase == 2:
		x.phase = 1
		return x.answer(names, true), nil
	case x.phase == 1:
		x.phase = 0
		if tg := x.target.Load(); tg != 0 {
			if _, err := x.readTo(time.Unix(0, tg)); err != nil && !errors.Is(err, collect.ErrArchiveEnd) {
				return nil, err
			}
		}
		return x.answer(names, false), nil
	}
	if tg := x.target.Load(); tg != 0 {
		t := time.Unix(0, tg)
		if x.near(t).Before(x.first) {
			// A replay of several hosts whose cursor is before this one's archive began.
			return nil, errNotRecordedThen
		}
		n, err := x.readTo(t)
		if err != nil && !(errors.Is(err, collect.ErrArchiveEnd) && t.After(x.last)) {
			return nil, err
		}
		if n == 0 && x.fetched {
			// Nothing new by the cursor: a host sampled a little later than the others, or whose
			// archive has ended: its last values stay, timed as they were read (stale).
			return nil, errNoNewSample
		}
	} else if err := x.readNext(names); err != nil {
		return nil, err
	}
	return x.answer(names, false), nil
}

// answer is each of names' latest values, or with prev the ones before them (a metric that has
// none before: its latest).
func (x *archiveContext) answer(names []string, prev bool) *pmproxy.Fetched {
	f := &pmproxy.Fetched{Time: x.now, Values: map[string][]pmproxy.Value{}}
	if prev {
		f.Time = x.prevTime()
	}
	x.clock.Store(f.Time.UnixNano())
	get := func(pmid uint32) ([]pmproxy.Value, bool) {
		if prev {
			if vs, ok := x.vals.prev[pmid]; ok {
				return vs, true
			}
		}
		vs, ok := x.vals.latest[pmid]
		return vs, ok
	}
	for _, n := range names {
		if d := x.byName[n]; d != nil {
			if vs, ok := get(d.PMID); ok {
				f.Values[n] = vs
			}
		}
	}
	for n := range x.extra { // dcimon's own metrics a plan reads (ownColumns)
		if vs, ok := get(x.byName[n].PMID); ok {
			f.Values[n] = vs
		}
	}
	x.fetched, x.prevShown = true, prev
	return f
}

// valueTime is the time of the values the last fetch answered of the metric pmid; zero when it
// had none.
func (x *archiveContext) valueTime(pmid uint32) time.Time {
	if x.prevShown {
		if t, ok := x.vals.prevAt[pmid]; ok {
			return t
		}
	}
	return x.vals.at[pmid]
}

// endErr is the error of a read past the archive's end (err io.EOF) or up to a record cut
// short (its writer killed, or out of room) or damaged: the archive ends before it, which is said.
func (x *archiveContext) endErr(err error) error {
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("archive %s: %w (%s)", x.a.Base, collect.ErrArchiveEnd, x.now.UTC().Format(time.RFC3339))
	}
	return fmt.Errorf("%w, after %s: %w", collect.ErrArchiveEnd, x.now.UTC().Format(time.RFC3339), err)
}

// readNext moves to the next record holding any of names.
func (x *archiveContext) readNext(names []string) error {
	want := map[uint32]bool{}
	for _, n := range names {
		if d := x.byName[n]; d != nil {
			want[d.PMID] = true
		}
	}
	for found := false; !found; {
		r, err := x.next()
		if err != nil {
			return x.endErr(err)
		}
		if isData(r) { // pmlogger's own records are no samples: their time is not a reading's
			x.now = r.Time
			x.clock.Store(x.now.UnixNano())
		}
		x.apply(r)
		for _, s := range r.Sets {
			found = found || want[s.PMID]
		}
	}
	return nil
}

// readTo reads every record up to t, and says how many. None there is not an error unless the
// archive has ended: the values stay those of the time read last (a host of several whose
// archive has no sample between two of the others').
func (x *archiveContext) readTo(t time.Time) (int, error) {
	n := 0
	for {
		r, err := x.peek()
		if err != nil {
			if !t.After(x.now) || (errors.Is(err, io.EOF) && !t.After(x.last)) {
				return n, nil
			}
			return n, x.endErr(err)
		}
		if r.Time.After(t) {
			return n, nil
		}
		x.pending = x.pending[1:]
		x.apply(r)
		if isData(r) { // pmlogger's own records are no samples: their time is not a reading's
			x.now = r.Time
			x.clock.Store(x.now.UnixNano())
			n++
		}
	}
}
