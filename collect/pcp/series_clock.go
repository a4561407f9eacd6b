package pcp

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"dcimon/pmproxy"
)

// A host's samples in the series are the timestamps of its clock series (OpenSeries picks one of
// its metrics). They are read for every host at once, in a window of the fleet's, kept while the
// times asked for stay in or next to it: a replay of 500 hosts moves them all with one request.

// seriesClock is the fleet's clock series and the window of their samples read.
type seriesClock struct {
	mu     sync.Mutex
	ids    []string       // one a host
	host   map[string]int // clock series → host
	lo, hi time.Time      // the window read
	times  [][]time.Time  // by host, oldest first, within [lo, hi]
}

// clockChunk is how much of the clock a window reads at least: three of the longest logging
// intervals and a second, what a seek needs (the two samples that end at a time, and the one
// before them).
func (s *Series) clockChunk() time.Duration { return 3*s.maxStep() + time.Second }

// startClocks picks each host's clock (the first metric of the mapping's it has that is not
// discrete, one without an instance domain first: a sample a timestamp), and reads each host's
// first two samples and its last. A host with no sample is left out.
func (s *Series) startClocks(ctx context.Context, ms []*seriesMetric) error {
	ids, hostOf := s.pickClocks(ms)
	if err := s.readEnds(ctx, ids, hostOf); err != nil {
		return err
	}
	if err := s.dropSilentHosts(ms); err != nil {
		return err
	}
	s.startAtFirst(ids, hostOf)
	for _, m := range ms {
		m.raw = nil
	}
	return nil
}

// pickClocks is each host's clock series, in host order, and the host of each.
func (s *Series) pickClocks(ms []*seriesMetric) (ids []string, hostOf map[string]*seriesContext) {
	hostOf = map[string]*seriesContext{}
	for h, x := range s.xs {
		if id := clockOf(ms, h); id != "" {
			hostOf[id] = x
			ids = append(ids, id)
		}
	}
	return ids, hostOf
}

// clockOf is host h's clock series: of the first metric it has that is not discrete, one
// without an instance domain first; else of the first it has; "" when it has none.
func clockOf(ms []*seriesMetric, h int) string {
	for _, singular := range []bool{true, false} {
		for _, m := range ms {
			if d, ok := m.desc[h]; ok && d.Sem != "discrete" && (d.InDom == "") == singular {
				return m.sid(h)
			}
		}
	}
	for _, m := range ms {
		if _, ok := m.desc[h]; ok {
			return m.sid(h)
		}
	}
	return ""
}

// readEnds reads each host's first two samples and its last, one request for the fleet each.
func (s *Series) readEnds(ctx context.Context, ids []string, hostOf map[string]*seriesContext) error {
	rctx, cancel := s.reqCtx(ctx)
	defer cancel()
	firsts, err := s.c.SeriesValues(rctx, ids, pmproxy.Window{Start: time.Unix(1, 0), Most: 2}, 0, nil)
	if err != nil {
		return s.diagnose(err)
	}
	lasts, err := s.c.SeriesValues(rctx, ids, pmproxy.Window{Most: 1}, 0, nil)
	if err != nil {
		return s.diagnose(err)
	}
	for _, v := range firsts {
		if x := hostOf[v.Series]; x != nil {
			x.noteEarly(v.Time)
		}
	}
	for _, v := range lasts {
		if x := hostOf[v.Series]; x != nil && v.Time.After(x.last) {
			x.last = v.Time
		}
	}
	return nil
}

// noteEarly keeps t if it is one of the host's two earliest samples seen (first, second).
func (x *seriesContext) noteEarly(t time.Time) {
	switch {
	case x.first.IsZero() || t.Before(x.first):
		if !x.first.IsZero() {
			x.second = x.first
		}
		x.first = t
	case t.After(x.first) && (x.second.IsZero() || t.Before(x.second)):
		x.second = t
	}
}

// dropSilentHosts leaves out the hosts with no sample: those left are numbered again, and the
// metrics' series taken again for them. None left is an error.
func (s *Series) dropSilentHosts(ms []*seriesMetric) error {
	var keep []*seriesContext
	for _, x := range s.xs {
		if !x.first.IsZero() && !x.last.IsZero() {
			keep = append(keep, x)
		}
	}
	if len(keep) == 0 {
		return fmt.Errorf("pmproxy %s: the time series of its %d hosts hold no values", s.c.URL(), len(s.xs))
	}
	if len(keep) == len(s.xs) {
		return nil
	}
	old := s.src
	s.src = map[string]int{}
	for src, h := range old {
		if i := slices.Index(keep, s.xs[h]); i >= 0 {
			s.src[src] = i
		}
	}
	s.xs = keep
	for _, m := range ms {
		m.choose(s)
	}
	return nil
}

// startAtFirst numbers the hosts, places each at its first sample with its logging interval (the
// step from its first sample to its second; a second when it has only one), and keeps the
// fleet's clock series, in host order.
func (s *Series) startAtFirst(ids []string, hostOf map[string]*seriesContext) {
	clockOf := make(map[*seriesContext]string, len(hostOf))
	for _, id := range ids {
		clockOf[hostOf[id]] = id
	}
	s.clk.host = map[string]int{}
	for i, x := range s.xs {
		x.i = i
		if x.second.IsZero() || x.second.After(x.last) {
			x.second = x.last
		}
		x.step = x.second.Sub(x.first)
		if x.step <= 0 {
			x.step = time.Second
		}
		x.setMark(x.first.Add(-time.Nanosecond))
		x.now = x.first
		x.clock.Store(x.first.UnixNano())
		if id, ok := clockOf[x]; ok {
			s.clk.ids = append(s.clk.ids, id)
			s.clk.host[id] = i
		}
	}
	s.clk.times = make([][]time.Time, len(s.xs))
}

// cover makes sure the clock window holds [a, b]: read and added to the window when next to it
// (within a chunk), else read in its place.
func (s *Series) cover(ctx context.Context, a, b time.Time) error {
	// The series keep microseconds: a window of whole ones, so that the next one read
	// starts a microsecond after it ends, and none is missed or read twice.
	a = a.Truncate(time.Microsecond)
	if t := b.Truncate(time.Microsecond); t.Before(b) {
		b = t.Add(time.Microsecond)
	}
	s.clk.mu.Lock()
	defer s.clk.mu.Unlock()
	c := &s.clk
	if c.holds(a, b) {
		return nil
	}
	if !c.near(a, b, s.clockChunk()) {
		c.clear()
		if err := s.readClock(ctx, a, b); err != nil {
			c.lo, c.hi = time.Time{}, time.Time{}
			return err
		}
		c.lo, c.hi = a, b
		return nil
	}
	if a.Before(c.lo) {
		if err := s.readClock(ctx, a, c.lo.Add(-time.Microsecond)); err != nil {
			return err
		}
		c.lo = a
	}
	if b.After(c.hi) {
		if err := s.readClock(ctx, c.hi.Add(time.Microsecond), b); err != nil {
			return err
		}
		c.hi = b
	}
	return nil
}

// holds says the window read holds [a, b].
func (c *seriesClock) holds(a, b time.Time) bool {
	return !c.lo.IsZero() && !a.Before(c.lo) && !b.After(c.hi)
}

// near says [a, b] is within a chunk of the window read, and the two together span fewer
// than 256 chunks: it is read and added to the window, not read in its place.
func (c *seriesClock) near(a, b time.Time, chunk time.Duration) bool {
	return !c.lo.IsZero() && !b.Before(c.lo.Add(-chunk)) && !a.After(c.hi.Add(chunk)) &&
		maxTime(b, c.hi).Sub(minTime(a, c.lo)) < 256*chunk
}

// clear empties every host's samples read, keeping their room.
func (c *seriesClock) clear() {
	for h := range c.times {
		c.times[h] = c.times[h][:0]
	}
}

// add puts a sample time of host h in its place among those read, once.
func (c *seriesClock) add(h int, t time.Time) {
	ts := c.times[h]
	if n := len(ts); n > 0 && ts[n-1].Equal(t) {
		return // the next instance of the same sample
	}
	if i, found := slices.BinarySearchFunc(ts, t, func(t, u time.Time) int { return t.Compare(u) }); !found {
		c.times[h] = slices.Insert(ts, i, t)
	}
}

// readClock reads the fleet's samples from lo to hi into the window. The caller holds s.clk.mu.
func (s *Series) readClock(ctx context.Context, lo, hi time.Time) error {
	c := &s.clk
	rctx, cancel := s.reqCtx(ctx)
	defer cancel()
	err := s.c.SeriesValuesFunc(rctx, c.ids, pmproxy.Window{Start: lo, Finish: hi}, s.opt.MaxValues, func(v pmproxy.SeriesValue) {
		if h, ok := c.host[v.Series]; ok {
			c.add(h, v.Time)
		}
	})
	if err != nil {
		return fmt.Errorf("the samples' times: %w", s.diagnose(err))
	}
	return nil
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// lastAtOrBefore is the host's last sample at or before t.
func (s *Series) lastAtOrBefore(ctx context.Context, x *seriesContext, t time.Time) (time.Time, bool, error) {
	return s.lastBefore(ctx, x, t.Add(time.Nanosecond))
}

// lastBefore is the host's last sample before t, looked for in windows going back from t, each
// twice the last, as far as its first sample.
func (s *Series) lastBefore(ctx context.Context, x *seriesContext, t time.Time) (time.Time, bool, error) {
	if !t.After(x.first) {
		return time.Time{}, false, nil
	}
	t = minTime(t, x.last.Add(time.Nanosecond))
	for back := s.clockChunk(); ; back *= 2 {
		a := t.Add(-back)
		if err := s.cover(ctx, a, t); err != nil {
			return time.Time{}, false, err
		}
		s.clk.mu.Lock()
		ts := s.clk.times[x.i]
		i := sort.Search(len(ts), func(i int) bool { return !ts[i].Before(t) }) - 1
		var got time.Time
		if i >= 0 && !ts[i].Before(a) {
			got = ts[i]
		}
		s.clk.mu.Unlock()
		if !got.IsZero() {
			return got, true, nil
		}
		if a.Before(x.first) {
			return time.Time{}, false, nil
		}
	}
}

// nextAfter is the host's first sample after t, looked for in windows going forward.
func (s *Series) nextAfter(ctx context.Context, x *seriesContext, t time.Time) (time.Time, bool, error) {
	if !t.Before(x.last) {
		return time.Time{}, false, nil
	}
	t = maxTime(t, x.first.Add(-time.Nanosecond))
	for fwd := s.clockChunk(); ; fwd *= 2 {
		b := t.Add(fwd)
		if err := s.cover(ctx, t, b); err != nil {
			return time.Time{}, false, err
		}
		s.clk.mu.Lock()
		ts := s.clk.times[x.i]
		i := sort.Search(len(ts), func(i int) bool { return ts[i].After(t) })
		var got time.Time
		if i < len(ts) && !ts[i].After(b) {
			got = ts[i]
		}
		s.clk.mu.Unlock()
		if !got.IsZero() {
			return got, true, nil
		}
		if b.After(x.last) {
			return time.Time{}, false, nil
		}
	}
}

// gapBetween says the host's samples from a to b have a step longer than half again its
// logging interval (a missed sample window: PCPF-14). A reading that spans more than 4096 of its
// intervals is one.
func (s *Series) gapBetween(ctx context.Context, x *seriesContext, a, b time.Time) (bool, error) {
	if b.Sub(a) > 4096*x.step {
		return true, nil
	}
	if err := s.cover(ctx, a, b); err != nil {
		return false, err
	}
	s.clk.mu.Lock()
	defer s.clk.mu.Unlock()
	ts := s.clk.times[x.i]
	prev := a
	limit := x.step + x.step/2
	for _, t := range ts {
		if t.After(a) && !t.After(b) {
			if t.Sub(prev) > limit {
				return true, nil
			}
			prev = t
		}
	}
	return b.Sub(prev) > limit, nil
}
