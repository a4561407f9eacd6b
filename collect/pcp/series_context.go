package pcp

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"dcimon/collect"
	"dcimon/pmproxy"
)

// seriesContext is one host of the series as a pcpContext and a collect.Timeline.
type seriesContext struct {
	s        *Series
	i        int
	name     string // as paths name it
	hostname string
	labels   map[string]string

	first, second, last time.Time
	step                time.Duration // its logging interval: its shortest step seen

	gen      atomic.Uint64 // changes at a gap or a restart
	clock    atomic.Int64  // now, for the sampler's clock
	target   atomic.Int64  // UnixNano of the time fetches read up to; 0: none (the next sample)
	notYet   bool
	mark     time.Time    // every sample at or before it has been read
	markNano atomic.Int64 // mark, for the windows of the other hosts' readings (fleetWindow)
	now      time.Time    // the sample read last (Shown)
	fetched  bool
	again    bool // the next fetch reads this sample again (a new generation began at it)
	// twice: a seek landed on the host's first sample, which the seek's two fetches both read
	// (the reading is that sample, without rates, as an archive's: issue 39 item 6).
	twice bool
	// prev is the last reading's time and counters (64-bit), to tell a restart.
	prevT   time.Time
	prevCtr map[string][]pmproxy.Value
}

func (x *seriesContext) nowTime() time.Time { return time.Unix(0, x.clock.Load()) }

func (x *seriesContext) setMark(t time.Time) {
	x.mark = t
	x.markNano.Store(t.UnixNano())
}

func (x *seriesContext) setNow(t time.Time) {
	x.now = t
	x.clock.Store(t.UnixNano())
}

// Generation changes when a reading follows a gap or a restart: no rate across it.
func (x *seriesContext) Generation() uint64 { return x.gen.Load() + 1 }

// Labels are the host's name and its context's labels, as the series hold them.
func (x *seriesContext) Labels() (string, map[string]string) { return x.hostname, x.labels }

// Metrics describes names as the host's series do; one it has none of is ErrUnknownMetric.
func (x *seriesContext) Metrics(ctx context.Context, names ...string) ([]pmproxy.Desc, error) {
	out := make([]pmproxy.Desc, 0, len(names))
	var missing []string
	for _, n := range names {
		m := x.s.metric(n)
		if err := x.s.resolve(ctx, m); err != nil {
			return out, x.s.diagnose(err)
		}
		d, ok := m.desc[x.i]
		if !ok {
			missing = append(missing, n)
			continue
		}
		out = append(out, d)
	}
	if len(missing) > 0 {
		return out, fmt.Errorf("series of %s: %w: %s", x.name, pmproxy.ErrUnknownMetric, strings.Join(missing, ", "))
	}
	return out, nil
}

// InDom is every instance the host's series of the instance domain have had.
func (x *seriesContext) InDom(_ context.Context, indom string) ([]pmproxy.Instance, error) {
	x.s.mu.Lock()
	ms := slices.Collect(maps.Values(x.s.metrics))
	x.s.mu.Unlock()
	seen := map[int64]bool{}
	var out []pmproxy.Instance
	for _, m := range ms {
		if d, ok := m.desc[x.i]; !ok || d.InDom != indom || !m.instReady.Load() {
			continue // a metric of another domain, or not read yet
		}
		for _, in := range m.instsOf[x.i] {
			if !seen[in.ID] {
				seen[in.ID] = true
				out = append(out, in)
			}
		}
	}
	slices.SortFunc(out, func(a, b pmproxy.Instance) int { return int(a.ID - b.ID) })
	return out, nil
}

// Children is the name space of the series' metrics below prefix (every host's).
func (x *seriesContext) Children(_ context.Context, prefix string) (leaf, nonleaf []string, err error) {
	leaf, nonleaf = childrenOf(slices.Values(x.s.all), prefix)
	return leaf, nonleaf, nil
}

// scales are the processor count and memory size the host's series hold first.
func (x *seriesContext) scales() (int, uint64) {
	ncpu, mem := 1, uint64(0)
	ctx := context.Background()
	get := func(name string) (uint64, bool) {
		m := x.s.metric(name)
		if x.s.resolve(ctx, m) != nil {
			return 0, false
		}
		vs, ok, err := x.s.values(ctx, m, x.i, x.first, x.step)
		if err != nil || !ok || len(vs) != 1 {
			return 0, false
		}
		n, err := vs[0].Uint64()
		return n, err == nil
	}
	if n, ok := get("hinv.ncpu"); ok && n > 0 && n < 1<<20 {
		ncpu = int(n)
	}
	if n, ok := get("mem.physmem"); ok && n < 1<<54 {
		mem = n * 1024
	}
	return ncpu, mem
}

// Fetch reads the samples up to the target (or, without one, the next sample) and answers each
// name's values there. Nothing new by the target is errNoNewSample, a target before the host's
// series begins errNotRecordedThen, and no next sample the end.
func (x *seriesContext) Fetch(ctx context.Context, names ...string) (*pmproxy.Fetched, error) {
	at, err := x.fetchTime(ctx)
	if err != nil {
		return nil, err
	}
	// A gap in the host's samples, or a counter that went down, since the last reading: no
	// rate across it (a new generation).
	gap := false
	if !x.prevT.IsZero() && at.After(x.prevT) {
		if gap, err = x.s.gapBetween(ctx, x, x.prevT, at); err != nil {
			return nil, err
		}
	}
	x.s.prefetch(ctx, names, at)
	f := &pmproxy.Fetched{Time: at, Values: make(map[string][]pmproxy.Value, len(names))}
	ctr := map[string][]pmproxy.Value{}
	restart := false
	for _, n := range names {
		m := x.s.metric(n)
		if err := x.s.resolve(ctx, m); err != nil {
			return nil, x.s.diagnose(err)
		}
		vs, ok, err := x.s.values(ctx, m, x.i, at, x.step)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		f.Values[n] = vs
		if d := m.desc[x.i]; d.Sem == "counter" && (d.Type == "u64" || d.Type == "64") {
			ctr[n] = vs
			restart = restart || wentDown(x.prevCtr[n], vs)
		}
	}
	if (gap || restart) && x.fetched && !at.Equal(x.prevT) {
		x.gen.Add(1)
		x.again = true
	}
	x.setMark(at)
	x.prevT, x.prevCtr, x.fetched = at, ctr, true
	x.setNow(at)
	return f, nil
}

// fetchTime is the sample a fetch reads: the one read last again, the last up to the target,
// or the next one. Nothing new by the target is errNoNewSample, a target before the host's
// series begins errNotRecordedThen, and no next sample the end.
func (x *seriesContext) fetchTime(ctx context.Context) (time.Time, error) {
	switch {
	case x.notYet && x.target.Load() == 0:
		return time.Time{}, errNotRecordedThen
	case x.twice && x.fetched:
		// A seek's second fetch at the host's first sample: its classes as the first left them
		// (no rate yet), as an archive's, never the next sample.
		x.twice = false
		return time.Time{}, errNoNewSample
	case x.again:
		// The sampler reads a host again, whole, when its reset value changed (the generation
		// this sample began): the same sample, not the next.
		x.again = false
		return x.now, nil
	}
	if tg := x.target.Load(); tg != 0 {
		return x.lastUpTo(ctx, time.Unix(0, tg))
	}
	return x.nextSample(ctx)
}

// lastUpTo is the host's last sample up to the target t, when it is after the one read last;
// else nothing new (errNoNewSample), or at the first fetch the sample it is placed at.
func (x *seriesContext) lastUpTo(ctx context.Context, t time.Time) (time.Time, error) {
	if x.near(t).Before(x.first) {
		return time.Time{}, errNotRecordedThen
	}
	last, ok, err := x.s.lastAtOrBefore(ctx, x, t)
	switch {
	case err != nil:
		return time.Time{}, err
	case ok && last.After(x.mark):
		return last, nil
	case x.fetched:
		return time.Time{}, errNoNewSample
	}
	return x.now, nil
}

// nextSample is the host's first sample after the one read last; past its last, the end
// (collect.ErrArchiveEnd).
func (x *seriesContext) nextSample(ctx context.Context) (time.Time, error) {
	next, ok, err := x.s.nextAfter(ctx, x, x.mark)
	if err != nil {
		return time.Time{}, err
	}
	if !ok {
		return time.Time{}, fmt.Errorf("series of %s: %w (%s)", x.name, collect.ErrArchiveEnd, x.now.UTC().Format(time.RFC3339))
	}
	return next, nil
}

// wentDown says a counter of now is below its value before, for the same instance.
func wentDown(before, now []pmproxy.Value) bool {
	if len(before) == 0 {
		return false
	}
	was := make(map[int64]uint64, len(before))
	for _, v := range before {
		if n, err := v.Uint64(); err == nil {
			was[v.Instance] = n
		}
	}
	for _, v := range now {
		n, err := v.Uint64()
		if w, ok := was[v.Instance]; ok && err == nil && n < w {
			return true
		}
	}
	return false
}

// Timeline.

// Span is the time of the host's first and last samples.
func (x *seriesContext) Span() (first, last time.Time) { return x.first, x.last }

// Start is where its first rates are: its second sample.
func (x *seriesContext) Start() time.Time { return x.second }

// Shown is the time of the sample read last.
func (x *seriesContext) Shown() time.Time { return x.now }

// ReadTo makes the next fetches read every sample up to t.
func (x *seriesContext) ReadTo(t time.Time) { x.target.Store(t.UnixNano()) }

// near is at kept to the host's first or last sample when it is before or after it by less
// than one of its intervals, as for an archive (archiveContext.near).
func (x *seriesContext) near(at time.Time) time.Time {
	switch {
	case at.Before(x.first) && x.first.Sub(at) < x.step:
		return x.first
	case at.After(x.last) && at.Sub(x.last) < x.step:
		return x.last
	}
	return at
}

// timelineCtx bounds the requests of a Timeline method (which has no context of its own).
func (x *seriesContext) timelineCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 4*x.s.opt.Deadline)
}

// Seek places the host so that its next fetches are of its last sample but one at or before at,
// then the last one: a reading's rates end at at. When that last one is the host's first sample
// (at is on it or within an interval before it), both fetches read it: the reading is the first
// sample, without rates, never the one after at (issue 39 item 6, as archiveContext.Seek).
func (x *seriesContext) Seek(at time.Time) error {
	if at = x.near(at); at.Before(x.first) || at.After(x.last) {
		const ms = "2006-01-02 15:04:05.000"
		return fmt.Errorf("series of %s: %s is outside them: its samples are from %s to %s", x.name,
			at.Format(ms+" MST"), x.first.In(at.Location()).Format(ms), x.last.In(at.Location()).Format(ms+" MST"))
	}
	ctx, cancel := x.timelineCtx()
	defer cancel()
	p2, ok, err := x.s.lastAtOrBefore(ctx, x, at)
	if err != nil {
		return err
	}
	if !ok {
		p2 = x.first
	}
	start := p2
	p1, ok, err := x.s.lastBefore(ctx, x, p2)
	if err != nil {
		return err
	}
	if ok {
		start = p1
	}
	now := x.first
	if p0, ok, err := x.s.lastBefore(ctx, x, start); err != nil {
		return err
	} else if ok {
		now = p0
	}
	x.setMark(start.Add(-time.Nanosecond))
	x.setNow(now)
	x.fetched, x.again, x.prevT, x.prevCtr = false, false, time.Time{}, nil
	x.twice = !ok // at the first sample: both fetches read it, the reading has no rates yet
	return nil
}

// Ahead is the time of the first sample not read yet.
func (x *seriesContext) Ahead() (time.Time, bool) {
	ctx, cancel := x.timelineCtx()
	defer cancel()
	t, ok, err := x.s.nextAfter(ctx, x, x.mark)
	return t, ok && err == nil
}

// After is the time of the host's first sample after t.
func (x *seriesContext) After(t time.Time) (time.Time, bool) {
	ctx, cancel := x.timelineCtx()
	defer cancel()
	n, ok, err := x.s.nextAfter(ctx, x, t)
	return n, ok && err == nil
}

// Before is the time of the host's last sample before t.
func (x *seriesContext) Before(t time.Time) (time.Time, bool) {
	ctx, cancel := x.timelineCtx()
	defer cancel()
	p, ok, err := x.s.lastBefore(ctx, x, t)
	return p, ok && err == nil
}

// Count counts the host's samples after t and up to u, at most most.
func (x *seriesContext) Count(t, u time.Time, most int) int {
	ctx, cancel := x.timelineCtx()
	defer cancel()
	k := 0
	for k < most {
		n, ok, err := x.s.nextAfter(ctx, x, t)
		if err != nil || !ok || n.After(u) {
			break
		}
		k, t = k+1, n
	}
	return k
}
