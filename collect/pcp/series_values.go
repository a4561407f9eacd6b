package pcp

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"dcimon/pmproxy"
)

// values are a host's values of a metric at t: its latest sample at or before t in the window
// read around t (read for every host when t is outside it), else for a discrete metric its
// first value when that is not after t.
func (s *Series) values(ctx context.Context, m *seriesMetric, h int, t time.Time, step time.Duration) ([]pmproxy.Value, bool, error) {
	if _, ok := m.desc[h]; !ok {
		return nil, false, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := s.window(ctx, m, t); err != nil {
		return nil, false, err
	}
	ss := m.samples[h]
	i := sort.Search(len(ss), func(i int) bool { return ss[i].t.After(t) }) - 1
	if i >= 0 {
		return ss[i].vals, true, nil
	}
	if m.desc[h].Sem != "discrete" {
		return nil, false, nil
	}
	if !m.gotFirst {
		rctx, cancel := s.reqCtx(ctx)
		g := s.grouper(m)
		err := s.c.SeriesValuesFunc(rctx, m.ids, pmproxy.Window{Start: time.Unix(1, 0), Most: 1}, s.opt.MaxValues, g.add)
		cancel()
		m.gotFirst, m.firstErr = true, err
		m.firsts = map[int]seriesSample{}
		for h, ss := range g.done() {
			if len(ss) > 0 {
				m.firsts[h] = ss[0]
			}
		}
	}
	if f, ok := m.firsts[h]; ok && !f.t.After(t) {
		return f.vals, true, nil
	}
	return nil, false, m.firstErr
}

// window makes sure the metric's window of values holds t: read for every host when it does not,
// from t to one of the longest logging intervals after it, a second more either way (the hosts
// of a fleet sample a little apart). A reading reads its two samples forward (the first reading
// at the first of them), as do the readings of a series or a replay: each window is one reading's
// two samples of every host, and the next reading reads the next window. The caller holds m.mu.
func (s *Series) window(ctx context.Context, m *seriesMetric, t time.Time) error {
	if m.samples != nil && !t.Before(m.lo) && !t.After(m.hi) {
		return nil
	}
	if err := s.instances(ctx, m); err != nil {
		return err
	}
	lo, hi := s.fleetWindow(t)
	rctx, cancel := s.reqCtx(ctx)
	defer cancel()
	g := s.grouper(m)
	if err := s.c.SeriesValuesFunc(rctx, m.ids, pmproxy.Window{Start: lo, Finish: hi}, s.opt.MaxValues, g.add); err != nil {
		m.samples = nil
		return fmt.Errorf("%s: %w", m.name, s.diagnose(err))
	}
	m.samples, m.lo, m.hi = g.done(), lo, hi
	return nil
}

// fleetWindow is the window of values a reading at t reads: from the earliest sample any host
// reads next to one of the longest logging intervals after the latest (so the next reading is in
// it too), a second more either way, and t in it. Hosts whose next samples are far apart (more
// than four intervals) each read a window of their own: [t, t + interval], a second more.
func (s *Series) fleetWindow(t time.Time) (time.Time, time.Time) {
	step := s.maxStep()
	lo, hi := t, t
	s.clk.mu.Lock()
	for i, x := range s.xs {
		mark := time.Unix(0, x.markNano.Load())
		ts := s.clk.times[i]
		j := sort.Search(len(ts), func(j int) bool { return ts[j].After(mark) })
		if j < len(ts) && ts[j].Sub(t).Abs() <= 2*step {
			lo, hi = minTime(lo, ts[j]), maxTime(hi, ts[j])
		}
	}
	s.clk.mu.Unlock()
	if hi.Sub(lo) > 4*step {
		lo, hi = t, t
	}
	return lo.Add(-time.Second), hi.Add(step + time.Second)
}

// prefetch reads the windows at t of the metrics that lack one, a few metrics at once: the first
// reading of a fleet asks for a dozen, which would otherwise be read one after the other.
func (s *Series) prefetch(ctx context.Context, names []string, t time.Time) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for _, n := range names {
		m := s.metric(n)
		if s.resolve(ctx, m) != nil || len(m.ids) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			m.mu.Lock()
			defer m.mu.Unlock()
			_ = s.window(ctx, m, t) // an error is said by the reading that needs it
		}()
	}
	wg.Wait()
}

// grouper sorts a metric's values into each host's samples as they come, numbers decoded as
// their descriptor says (the answer's text is not kept: a window of a fleet's values is megabytes
// of it).
type grouper struct {
	m   *seriesMetric
	out map[int][]seriesSample
}

func (s *Series) grouper(m *seriesMetric) *grouper {
	return &grouper{m: m, out: map[int][]seriesSample{}}
}

func (g *grouper) add(v pmproxy.SeriesValue) {
	h, ok := g.m.host[v.Series]
	if !ok {
		return
	}
	inst := int64(-1)
	if v.Instance != "" {
		k, ok := keyOf(v.Instance)
		in, known := g.m.inst[k]
		if !ok || !known {
			return // an instance the series did not list when resolved
		}
		inst = in
	}
	ss := g.out[h]
	if n := len(ss); n == 0 || !ss[n-1].t.Equal(v.Time) {
		// A sample has a value of each of the host's instances: its room made once, not
		// grown by doubling (a fleet's window is tens of thousands of values a metric).
		ss = append(ss, seriesSample{t: v.Time, vals: make([]pmproxy.Value, 0, max(1, len(g.m.instsOf[h])))})
	}
	last := &ss[len(ss)-1]
	last.vals = append(last.vals, seriesValue(inst, v.Value, g.m.desc[h].Type))
	g.out[h] = ss
}

// done is each host's samples, oldest first.
func (g *grouper) done() map[int][]seriesSample {
	for _, ss := range g.out {
		sort.SliceStable(ss, func(i, j int) bool { return ss[i].t.Before(ss[j].t) })
	}
	return g.out
}
