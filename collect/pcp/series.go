package pcp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
	"dcimon/pmproxy"
)

// Fleet history from pmproxy's time series (issue 34): the archives of a farm of pmloggers,
// loaded by `pmseries --load` into a key-value server (Redis or Valkey) and read through pmproxy's
// /series REST API. Each source the series hold (a host, named by its hostname label) is a host
// of the source: a pcpHost over a seriesContext, read through the same mapping, reading code and
// namespace as an archive, and a collect.Timeline, so --at, --from/--to and the monitor's replay
// cursor work as on archives.
//
// The queries are the fleet's, never a host's: a metric's series for every host are resolved
// once (its series ids, descriptors and instances, cached), and its values are read for every
// host at once, in a time window around the time asked for (one /series/values over the set of
// series ids, SeriesPage ids a request), kept until a time outside it is asked for. A host's
// samples are the timestamps of one metric of its (its clock: the first the mapping reads that
// is not discrete, one without an instance domain first), read for every host in windows too.
//
// A reading takes each metric's latest value at or before the host's sample, as an archive's
// does; a discrete metric logged once (hinv.ncpu) has its first value when the window has none.
// A host's counters read across a gap (a step between its samples longer than half again its
// logging interval: a missed sample window) or a restart (a 64-bit counter that went down) give
// no rate: the context's generation changes, and with it the reset value (PCPF-14).

// SeriesOptions choose a source of pmproxy's time series.
type SeriesOptions struct {
	URL      string // pcp://PROXY[:PORT] or pcps://...
	Password string // for a user in the URL
	// Hosts are globs (path.Match) on the host names; none: every host.
	Hosts []string
	// Deadline bounds each request to pmproxy (10 s when zero), and MaxValues the values one
	// window of one metric may hold for the fleet (4 million when zero).
	Deadline  time.Duration
	MaxValues int
}

// Series is the hosts pmproxy's time series hold, as a History: the replay cursor and the
// headless commands move through them as through archives.
type Series struct {
	c     *pmproxy.Client
	opt   SeriesOptions
	known map[string]bool // the metric names the series know
	all   []string
	xs    []*seriesContext
	src   map[string]int // source id → host

	mu      sync.Mutex
	metrics map[string]*seriesMetric
	clk     seriesClock
	brk     seriesBreaker // pmproxy or its key-value server down (series_down.go)
}

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

// OpenSeries finds the hosts pmproxy's series hold (those the globs name), resolves the
// mapping's metrics for all of them, and reads each host's first and last samples. An error
// says whether pmproxy or its key-value server does not answer.
func OpenSeries(ctx context.Context, opt SeriesOptions) (*Series, error) {
	if opt.Deadline <= 0 {
		opt.Deadline = 10 * time.Second
	}
	if opt.MaxValues <= 0 {
		opt.MaxValues = 4 << 20
	}
	// A window of a fleet's values is megabytes, which pmproxy gathers before it answers: the
	// answer's headers may come as late as the request's deadline.
	tr := &http.Transport{
		DialContext:           (&net.Dialer{Timeout: 2 * time.Second}).DialContext,
		TLSHandshakeTimeout:   2 * time.Second,
		ResponseHeaderTimeout: opt.Deadline,
		MaxIdleConnsPerHost:   8,
		IdleConnTimeout:       60 * time.Second,
		ReadBufferSize:        64 << 10,
	}
	c, err := pmproxy.New(opt.URL, pmproxy.Options{Password: opt.Password, Transport: tr})
	if err != nil {
		return nil, err
	}
	s := &Series{c: c, opt: opt, metrics: map[string]*seriesMetric{}, src: map[string]int{}}
	rctx, cancel := s.reqCtx(ctx)
	names, err := c.SeriesMetricNames(rctx)
	cancel()
	if err != nil {
		return nil, c.Diagnose(err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("pmproxy %s: its time series hold no metric: load archives with pmseries --load (docs/series.md)", c.URL())
	}
	s.known = map[string]bool{}
	for _, n := range names {
		s.known[n] = true
	}
	s.all = slices.Sorted(maps.Keys(s.known))
	_, classes := pcpMapping(1, 0)
	var mapped []string
	for _, n := range metricsOf(classes, func(int) bool { return true }) {
		if s.known[n] {
			mapped = append(mapped, n)
		}
	}
	if len(mapped) == 0 {
		return nil, fmt.Errorf("pmproxy %s: its time series hold none of the Linux PMDA's metrics dcimon reads (of %d metrics)", c.URL(), len(names))
	}
	// Every mapped metric's series, several metrics at once: their sources are the hosts.
	ms := make([]*seriesMetric, len(mapped))
	errs := make([]error, len(mapped))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i, n := range mapped {
		ms[i] = s.metric(n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = s.resolve(ctx, ms[i])
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, c.Diagnose(err)
	}
	if err := s.findHosts(ctx, ms); err != nil {
		return nil, err
	}
	for _, m := range ms {
		m.choose(s)
	}
	if err := s.startClocks(ctx, ms); err != nil {
		return nil, err
	}
	return s, nil
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

// findHosts names the sources of the metrics' series by their hostname labels, keeps those the
// globs name, and orders them by name.
func (s *Series) findHosts(ctx context.Context, ms []*seriesMetric) error {
	var order []string
	seenSrc := map[string]bool{}
	for _, m := range ms {
		if m.raw == nil {
			continue
		}
		for _, d := range m.raw.descs {
			if !seenSrc[d.Source] {
				seenSrc[d.Source] = true
				order = append(order, d.Source)
			}
		}
	}
	// A source's name: the host's, as pmseries took it from the archive's label (pmlogger
	// writes there pmcd's hostname label). /series/sources answers that at once for a fleet,
	// where /series/labels takes a quarter of a second for 500 hosts.
	rctx, cancel := s.reqCtx(ctx)
	names, err := s.c.SeriesSources(rctx, order)
	cancel()
	if err != nil {
		return s.diagnose(err)
	}
	type found struct {
		src, name string
		labels    map[string]string
	}
	var hosts []found
	for _, src := range order {
		name := ""
		for _, n := range names[src] {
			if !strings.Contains(n, "/") {
				name = n // not an archive's path
				break
			}
		}
		if name == "" {
			name = "source-" + src[:min(len(src), 12)]
		}
		if len(s.opt.Hosts) > 0 && !slices.ContainsFunc(s.opt.Hosts, func(g string) bool { ok, _ := path.Match(g, name); return ok }) {
			continue
		}
		hosts = append(hosts, found{src, name, map[string]string{"hostname": name}})
	}
	if len(hosts) == 0 {
		if len(s.opt.Hosts) > 0 {
			return fmt.Errorf("pmproxy %s: no host of its %d time series sources is named %s", s.c.URL(), len(order), strings.Join(s.opt.Hosts, " or "))
		}
		return fmt.Errorf("pmproxy %s: its time series have no source with the Linux PMDA's metrics", s.c.URL())
	}
	sort.SliceStable(hosts, func(i, j int) bool { return hosts[i].name < hosts[j].name })
	seen := map[string]int{}
	for i, h := range hosts {
		name := ns.EscapeName(h.name)
		if seen[name]++; seen[name] > 1 {
			name += "~" + strconv.Itoa(seen[name]) // two sources of one hostname: two hosts
		}
		x := &seriesContext{s: s, i: i, name: name, hostname: h.name, labels: h.labels}
		s.src[h.src] = i
		s.xs = append(s.xs, x)
	}
	return nil
}

// Hosts are the hosts, as paths name them.
func (s *Series) Hosts() []string {
	out := make([]string, len(s.xs))
	for i, x := range s.xs {
		out[i] = x.name
	}
	return out
}

// Timelines are the hosts' timelines.
func (s *Series) Timelines() []collect.Timeline {
	out := make([]collect.Timeline, len(s.xs))
	for i, x := range s.xs {
		out[i] = x
	}
	return out
}

// Clock is the time of the latest sample read, of any host (not of one whose series begins
// after the time asked for).
func (s *Series) Clock() time.Time {
	var t int64
	for _, x := range s.xs {
		if !x.notYet {
			t = max(t, x.clock.Load())
		}
	}
	return time.Unix(0, t)
}

// Span is the time from the first host's first sample to the last one's last.
func (s *Series) Span() (first, last time.Time) {
	for i, x := range s.xs {
		if i == 0 || x.first.Before(first) {
			first = x.first
		}
		if i == 0 || x.last.After(last) {
			last = x.last
		}
	}
	return first, last
}

// URL is pmproxy's address.
func (s *Series) URL() string { return s.c.URL() }

// SeriesProviders returns the providers of the series' hosts, each under a context of its own
// named by the host (`node007/Disk/sda/busy`). With at, the first collection is each host's
// sample before at and the second its last one at or before it, as for archives
// (ArchiveProviders); a time no host covers is an error that says what the series cover, unless
// clamp (the start of a series of readings).
func SeriesProviders(s *Series, at time.Time, clamp bool) ([]collect.Provider, error) {
	if !at.IsZero() {
		covered := false
		for _, x := range s.xs {
			n := x.near(at)
			covered = covered || (!n.Before(x.first) && !n.After(x.last))
		}
		if !covered && !clamp {
			first, last := s.Span()
			const ms = "2006-01-02 15:04:05.000"
			return nil, fmt.Errorf("series of pmproxy %s: %s is outside them: their samples are from %s to %s", s.c.URL(),
				at.Format(ms+" MST"), first.In(at.Location()).Format(ms), last.In(at.Location()).Format(ms+" MST"))
		}
		for _, x := range s.xs {
			t := at
			switch n := x.near(at); {
			case clamp:
				t = collect.Within(t, x.first, x.last)
			case n.Before(x.first):
				x.notYet, t = true, x.first // a host whose series begins later: not recorded then
			case n.After(x.last):
				t = x.last
			}
			if err := x.Seek(t); err != nil {
				return nil, err
			}
			if clamp {
				// A series of readings (--from): its first sample is the ground of the first
				// rates, read, not printed, as for archives (Archives.seek).
				x.twice = false
			}
		}
	}
	provs := make([]collect.Provider, len(s.xs))
	for i, x := range s.xs {
		h := &pcpHost{opt: Options{Hostspec: x.name, Interval: time.Second}, now: x.nowTime,
			dial: func() (pcpContext, error) { return x, nil }}
		h.x, h.recorded = x, true
		ncpu, mem := x.scales()
		// Always under a context of its own: a source of series is a fleet, whatever its size.
		h.host, h.fleet, h.asn = Host{Name: x.name, Spec: x.hostname}, true, FleetASNBase+uint32(i)
		h.start(ncpu, mem)
		spec := ns.EscapeName(x.name)
		h.sup = schema.Supplier(handlePCP+uint32(i), "series:"+ns.Clip(spec, 57), ns.Clip("PCP series of "+spec, 63),
			ns.Clip(fmt.Sprintf("The time series of host %s through pmproxy %s, from %s", spec, s.c.URL(),
				x.first.UTC().Format(time.RFC3339)), 255),
			ns.SPTGeneralSupplier, h.decl)
		provs[i] = h
	}
	return provs, nil
}

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
		in, ok := g.m.inst[v.Instance]
		if !ok {
			return // an instance the series did not list when resolved
		}
		inst = in.id
	}
	ss := g.out[h]
	if n := len(ss); n == 0 || !ss[n-1].t.Equal(v.Time) {
		ss = append(ss, seriesSample{t: v.Time})
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

// seriesValue is a stored value as a fetch's: a number decoded as its type says, text kept
// (copied out of the answer) when it is not one, so the reading says what was wrong.
func seriesValue(inst int64, text, typ string) pmproxy.Value {
	switch typ {
	case "u32", "u64":
		if n, err := strconv.ParseUint(text, 10, 64); err == nil {
			return pmproxy.Uint(inst, n)
		}
	case "32", "64":
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return pmproxy.Int(inst, n)
		}
	case "float", "double":
		if f, err := strconv.ParseFloat(text, 64); err == nil {
			return pmproxy.Float(inst, f)
		}
	case "string":
		// pmseries stores a string in double quotes ("sh"): the value is what is inside.
		if len(text) >= 2 && text[0] == '"' && text[len(text)-1] == '"' {
			text = text[1 : len(text)-1]
		}
	}
	return pmproxy.Value{Instance: inst, Text: strings.Clone(text)}
}

// maxStep is the longest logging interval of the hosts.
func (s *Series) maxStep() time.Duration {
	var d time.Duration
	for _, x := range s.xs {
		d = max(d, x.step)
	}
	return max(d, time.Second)
}
