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
	strs    interner      // the strings of the series' descriptors (series_metric.go)
	brk     seriesBreaker // pmproxy or its key-value server down (series_down.go)
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

// findHosts names the sources of the metrics' series by their hostname labels, keeps those the
// globs name, and orders them by name.
func (s *Series) findHosts(ctx context.Context, ms []*seriesMetric) error {
	order := sourcesOf(ms)
	// A source's name: the host's, as pmseries took it from the archive's label (pmlogger
	// writes there pmcd's hostname label). /series/sources answers that at once for a fleet,
	// where /series/labels takes a quarter of a second for 500 hosts.
	rctx, cancel := s.reqCtx(ctx)
	names, err := s.c.SeriesSources(rctx, order)
	cancel()
	if err != nil {
		return s.diagnose(err)
	}
	var hosts []seriesSource
	for _, src := range order {
		if name := sourceName(src, names[src]); s.wanted(name) {
			hosts = append(hosts, seriesSource{src, name})
		}
	}
	if len(hosts) == 0 {
		if len(s.opt.Hosts) > 0 {
			return fmt.Errorf("pmproxy %s: no host of its %d time series sources is named %s", s.c.URL(), len(order), strings.Join(s.opt.Hosts, " or "))
		}
		return fmt.Errorf("pmproxy %s: its time series have no source with the Linux PMDA's metrics", s.c.URL())
	}
	sort.SliceStable(hosts, func(i, j int) bool { return hosts[i].name < hosts[j].name })
	s.addHosts(hosts)
	return nil
}

// seriesSource is a source of the series (its id) and the name of its host.
type seriesSource struct{ src, name string }

// sourcesOf is the sources of the metrics' series, in the order first met.
func sourcesOf(ms []*seriesMetric) []string {
	var order []string
	seen := map[string]bool{}
	for _, m := range ms {
		if m.raw == nil {
			continue
		}
		for _, d := range m.raw.descs {
			if !seen[d.Source] {
				seen[d.Source] = true
				order = append(order, d.Source)
			}
		}
	}
	return order
}

// sourceName is the host's name of a source: the first of its names that is not an archive's
// path, else one made of its id.
func sourceName(src string, names []string) string {
	for _, n := range names {
		if !strings.Contains(n, "/") {
			return n
		}
	}
	return "source-" + src[:min(len(src), 12)]
}

// wanted says a host of this name is one the globs name (every host without globs).
func (s *Series) wanted(name string) bool {
	return len(s.opt.Hosts) == 0 || slices.ContainsFunc(s.opt.Hosts, func(g string) bool { ok, _ := path.Match(g, name); return ok })
}

// addHosts makes a host of each source, in order, named as paths name it: two sources of one
// hostname are two hosts (the second named name~2).
func (s *Series) addHosts(hosts []seriesSource) {
	seen := map[string]int{}
	for i, h := range hosts {
		name := ns.EscapeName(h.name)
		if seen[name]++; seen[name] > 1 {
			name += "~" + strconv.Itoa(seen[name])
		}
		x := &seriesContext{s: s, i: i, name: name, hostname: h.name, labels: map[string]string{"hostname": h.name}}
		s.src[h.src] = i
		s.xs = append(s.xs, x)
	}
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
