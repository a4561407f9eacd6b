package pcp

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"dcimon/pmproxy"
)

// seriesMetric is one metric's series for the fleet: resolved once, and a window of values.
type seriesMetric struct {
	name string

	once   sync.Once
	err    error
	raw    *seriesRaw              // what resolve read, until the hosts are known (choose)
	host   map[string]int          // series id → host
	byHost map[int]string          // host → its series id
	ids    []string                // the chosen hosts' series, by host
	desc   map[int]pmproxy.Desc    // by host
	inst   map[string]seriesInstOf // instance series id → instance
	// instsOf are each host's instances, as ever seen.
	instsOf map[int][]pmproxy.Instance
	// The instances are read once, when the values are first (instances).
	withInDom bool
	instOnce  sync.Once
	instErr   error
	instReady atomic.Bool

	mu       sync.Mutex // guards the window and the first values
	lo, hi   time.Time  // the window of values read
	samples  map[int][]seriesSample
	firstErr error
	firsts   map[int]seriesSample // discrete metrics: each host's first value
	gotFirst bool
}

type seriesInstOf struct {
	id   int64
	name string
	host int
}

// seriesSample is one host's values of one metric at one time.
type seriesSample struct {
	t    time.Time
	vals []pmproxy.Value
}

// metric is the metric's entry, made once.
func (s *Series) metric(name string) *seriesMetric {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.metrics[name]
	if m == nil {
		m = &seriesMetric{name: name}
		s.metrics[name] = m
	}
	return m
}

// resolve reads a metric's series, their descriptors and instances, once.
func (s *Series) resolve(ctx context.Context, m *seriesMetric) error {
	m.once.Do(func() { m.err = s.resolveNow(ctx, m) })
	return m.err
}

// seriesRaw is what resolve read of a metric's series, every source's.
type seriesRaw struct {
	descs []pmproxy.SeriesDesc
}

func (s *Series) resolveNow(ctx context.Context, m *seriesMetric) error {
	if !s.known[m.name] {
		return nil // the series have no such metric: no host has it
	}
	rctx, cancel := s.reqCtx(ctx)
	defer cancel()
	ids, err := s.c.SeriesQuery(rctx, m.name)
	if err != nil || len(ids) == 0 {
		return err
	}
	descs, err := s.c.SeriesDescs(rctx, ids)
	if err != nil {
		return fmt.Errorf("%s: %w", m.name, err)
	}
	raw := seriesRaw{descs: descs}
	if len(s.xs) > 0 { // the hosts are known: a metric read later (the PCP name space)
		m.take(s, raw)
		return nil
	}
	m.raw = &raw
	return nil
}

// choose keeps what resolve read of the chosen hosts' series.
func (m *seriesMetric) choose(s *Series) {
	if m.raw != nil {
		m.take(s, *m.raw)
	}
}

func (m *seriesMetric) take(s *Series, r seriesRaw) {
	m.host, m.desc, m.ids = map[string]int{}, map[int]pmproxy.Desc{}, nil
	m.byHost = map[int]string{}
	for _, d := range r.descs {
		h, ok := s.src[d.Source]
		if !ok {
			continue
		}
		if _, dup := m.desc[h]; dup {
			continue // one series of a metric a host (several: label sets that differ; the first)
		}
		m.host[d.Series], m.byHost[h] = h, d.Series
		m.ids = append(m.ids, d.Series)
		pd := pmproxy.Desc{Name: m.name, PMID: d.PMID, Type: d.Type, Sem: d.Semantics, Units: d.Units}
		if d.InDom != "none" {
			pd.InDom = d.InDom
		}
		m.desc[h] = pd
		m.withInDom = m.withInDom || pd.InDom != ""
	}
}

// instances reads a metric's instances (their series ids, numbers and names), once, when its
// values are first read: a fleet's are hundreds of kilobytes a metric, and a command reads the
// metrics of the classes it wants, not every one the series hold.
func (s *Series) instances(ctx context.Context, m *seriesMetric) error {
	m.instOnce.Do(func() {
		if !m.withInDom {
			m.instReady.Store(true)
			return
		}
		rctx, cancel := s.reqCtx(ctx)
		defer cancel()
		insts, err := s.c.SeriesInstances(rctx, m.ids)
		if err != nil {
			m.instErr = fmt.Errorf("%s: %w", m.name, s.diagnose(err))
			return
		}
		m.inst, m.instsOf = map[string]seriesInstOf{}, map[int][]pmproxy.Instance{}
		for _, in := range insts {
			if h, ok := m.host[in.Series]; ok {
				m.inst[in.Instance] = seriesInstOf{id: in.ID, name: in.Name, host: h}
				m.instsOf[h] = append(m.instsOf[h], pmproxy.Instance{ID: in.ID, Name: in.Name})
			}
		}
		m.instReady.Store(true)
	})
	return m.instErr
}

// sid is the host's series of the metric.
func (m *seriesMetric) sid(h int) string { return m.byHost[h] }
