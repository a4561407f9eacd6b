package pcp

import (
	"context"
	"fmt"
	"strings"
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
	raw    *seriesRaw           // what resolve read, until the hosts are known (choose)
	host   map[string]int       // series id → host
	byHost map[int]string       // host → its series id
	ids    []string             // the chosen hosts' series, by host
	desc   map[int]pmproxy.Desc // by host
	inst   map[sidKey]int64     // instance series id → instance number
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

// sidKey is a series id as its 20 bytes: the key of a metric's instances, thousands for a
// fleet, where a string of 40 digits each was a copy out of the answer.
type sidKey [20]byte

// keyOf is sid's key; false when sid is not 40 hexadecimal digits.
func keyOf(sid string) (k sidKey, ok bool) {
	if len(sid) != 2*len(k) {
		return k, false
	}
	for i := range k {
		hi, ok1 := unhex(sid[2*i])
		lo, ok2 := unhex(sid[2*i+1])
		if !ok1 || !ok2 {
			return k, false
		}
		k[i] = hi<<4 | lo
	}
	return k, true
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
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
	// Read as they come (their strings the answer's until the call returns): a metric's series
	// ids kept, its sources, PMIDs, types, semantics and units shared by every host and metric
	// that has them.
	var raw seriesRaw
	err = s.c.SeriesDescsFunc(rctx, ids, func(d pmproxy.SeriesDesc) {
		d.Series = strings.Clone(d.Series)
		for _, p := range []*string{&d.Source, &d.PMID, &d.InDom, &d.Semantics, &d.Type, &d.Units} {
			*p = s.strs.intern(*p)
		}
		raw.descs = append(raw.descs, d)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", m.name, err)
	}
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
		// Read as they come (their strings the answer's until the call returns): each kept by
		// its key, its name once for every host that has it (a fleet's disks are sda… on each).
		inst, of := map[sidKey]int64{}, map[int][]pmproxy.Instance{}
		names := map[string]string{}
		err := s.c.SeriesInstancesFunc(rctx, m.ids, func(in pmproxy.SeriesInstance) {
			h, ok := m.host[in.Series]
			if !ok {
				return
			}
			if k, ok := keyOf(in.Instance); ok { // the values name no other (pmproxy.validSID)
				inst[k] = in.ID
			}
			name, ok := names[in.Name]
			if !ok {
				name = strings.Clone(in.Name)
				names[name] = name
			}
			of[h] = append(of[h], pmproxy.Instance{ID: in.ID, Name: name})
		})
		if err != nil {
			m.instErr = fmt.Errorf("%s: %w", m.name, s.diagnose(err))
			return
		}
		m.inst, m.instsOf = inst, of
		m.instReady.Store(true)
	})
	return m.instErr
}

// interner keeps one copy of each string it is given, for every caller.
type interner struct {
	mu sync.Mutex
	m  map[string]string
}

// intern is s, or the copy of it kept; s may be valid only during the call.
func (in *interner) intern(s string) string {
	in.mu.Lock()
	defer in.mu.Unlock()
	if k, ok := in.m[s]; ok {
		return k
	}
	if in.m == nil {
		in.m = map[string]string{}
	}
	k := strings.Clone(s)
	in.m[k] = k
	return k
}

// sid is the host's series of the metric.
func (m *seriesMetric) sid(h int) string { return m.byHost[h] }
