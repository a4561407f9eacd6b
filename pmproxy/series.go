package pmproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// pmproxy's scalable time series (`/series/*`, PMWEBAPI(3), issue 34): the history pmproxy keeps
// in a key-value server (Redis or Valkey) after `pmseries --load` of pmloggers' archives. A series
// is one metric of one source (a host, named by its context labels); its values are grouped by
// timestamp, an instance of a metric with an instance domain being a series of its own.
//
// What pmproxy 6.0.3 answers, checked against it (internal/pcptest.StartSeries):
//
//   - /series/query?expr=NAME: the series ids of the metric, one a source; with a time window
//     (NAME[start:S,finish:F]) the values, as /series/values does.
//   - /series/values?series=A,B&start=S&finish=F&samples=N: each series' values from S to F,
//     oldest first, N of each at most (counted from S: a window, never "the last N before F",
//     which pmproxy gives only without a window). Timestamps are written as the key-value
//     server's stream ids: milliseconds, a point, and the microseconds past them as an integer
//     without leading zeros (".42" is 42 µs, not 420 ms).
//   - /series/ping answers {"success":true} whether or not the key-value server is up; a query
//     then answers HTTP 500 (“expected array for metric set … (type=none)”), and /series/values
//     and /series/metrics do not answer at all: every request has a deadline, and Diagnose
//     words the failure from what pmproxy does answer.
//
// Long lists of series ids are split into pages (SeriesPage).

// maxSeriesBody bounds one /series answer: a page of values (SeriesPage series at most) of a
// few hundred samples each, or the descriptors of that many series.
const maxSeriesBody = 64 << 20

// SeriesPage is how many series ids one request names at most. pmproxy 6.0.3 refuses a URL of
// 8192 bytes or more (HTTP 414), and misreads a query sent in a POST's body when the body comes
// in more than one read (“Invalid SID … near offset 6”: it parses each piece alone; a series id
// cut so can even fail an assertion and end pmproxy): so every request is a GET, and a list of
// ids is split into pages whose URL stays below the limit. A metric of 500 hosts is 3 requests.
const SeriesPage = 180

// maxURL is pmproxy's limit on a request's URL (MAX_URL_SIZE in its http.c), less a margin.
const maxURL = 8000

// SeriesValue is one value of one series: an instance's (Instance its series id) or a metric's
// with no instance domain (Instance "").
type SeriesValue struct {
	Series   string
	Instance string
	Time     time.Time // to the microsecond, as the key-value server keeps it
	Value    string    // as stored: integers exactly; floats as pmproxy wrote them ("6.200000e-01")
}

// SeriesDesc is a series' descriptor: its source (the host), and its metric's PMID, instance
// domain ("none" for none), semantics, type and units.
type SeriesDesc struct {
	Series    string `json:"series"`
	Source    string `json:"source"`
	PMID      string `json:"pmid"`
	InDom     string `json:"indom"`
	Semantics string `json:"semantics"`
	Type      string `json:"type"`
	Units     string `json:"units"`
}

// SeriesInstance is one instance of a series: its own series id, its number and name.
type SeriesInstance struct {
	Series   string `json:"series"`
	Source   string `json:"source"`
	Instance string `json:"instance"`
	ID       int64  `json:"id"`
	Name     string `json:"name"`
}

// Window is a time window of a values request: from Start to Finish, both included (zero:
// from the first, to the last). Samples is the page size: each series' values are asked for
// that many timestamps at a time (0: all at once). Most asks for that many timestamps of each
// series and no more, from Start (pmproxy counts from a window's start), or without Start
// and Finish the latest ones.
type Window struct {
	Start, Finish time.Time
	Samples       int
	Most          int
}

// secs writes t as pmproxy reads a window's end: seconds with a fraction. pmproxy reads it as a
// double and truncates to the microsecond, so a time written exactly may come out a microsecond
// early: half a microsecond is added (a time at a microsecond, as every stored one is, stays it).
func secs(t time.Time) string {
	us := t.UnixMicro()
	if t.Sub(time.UnixMicro(us)) > 0 {
		us++ // a time between microseconds: the next one (none is stored between)
	}
	return strconv.FormatInt(us/1_000_000, 10) + "." + fmt.Sprintf("%06d5", us%1_000_000)
}

// series calls a /series path, with a GET (see SeriesPage).
func (c *Client) series(ctx context.Context, path string, q url.Values) ([]byte, error) {
	if err := c.fits(path, q); err != nil {
		return nil, err
	}
	return c.request(ctx, path, q, nil, maxSeriesBody)
}

// fits says whether a GET of path with query q fits in a URL pmproxy takes.
func (c *Client) fits(path string, q url.Values) error {
	if n := len(path) + 1 + len(q.Encode()); n >= maxURL {
		return fmt.Errorf("pmproxy %s: %s: a query of %d bytes, more than pmproxy takes (%d)", c.URL(), path, n, maxURL)
	}
	return nil
}

// seriesJSON calls a /series path and decodes its answer with encoding/json.
func (c *Client) seriesJSON(ctx context.Context, path string, q url.Values, out any) error {
	b, err := c.series(ctx, path, q)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("pmproxy %s: %s: %w", c.URL(), path, err)
	}
	return nil
}

// SeriesPing says whether pmproxy answers /series/ping. It says nothing of the key-value server:
// pmproxy 6.0.3 answers success without one.
func (c *Client) SeriesPing(ctx context.Context) error {
	var r struct {
		Success bool `json:"success"`
	}
	if err := c.seriesJSON(ctx, "/series/ping", nil, &r); err != nil {
		return err
	}
	if !r.Success {
		return fmt.Errorf("pmproxy %s: /series/ping: no success", c.URL())
	}
	return nil
}

// SeriesQuery is the ids of the series an expression without a time window matches
// ("disk.dev.read", `disk.dev.read{hostname=="web1"}`).
func (c *Client) SeriesQuery(ctx context.Context, expr string) ([]string, error) {
	var ids []string
	if err := c.seriesJSON(ctx, "/series/query", url.Values{"expr": {expr}}, &ids); err != nil {
		return nil, fmt.Errorf("series query %q: %w", expr, err)
	}
	for _, id := range ids {
		if !validSID(id) {
			return nil, fmt.Errorf("pmproxy %s: series query %q: %q is no series id", c.URL(), expr, clip(id))
		}
	}
	return ids, nil
}

// SeriesMetricNames is every metric name the series know.
func (c *Client) SeriesMetricNames(ctx context.Context) ([]string, error) {
	var names []string
	if err := c.seriesJSON(ctx, "/series/metrics", nil, &names); err != nil {
		return nil, err
	}
	return names, nil
}

// pageConcurrency is how many pages of one request are in flight at once: pmproxy answers from
// its key-value server asynchronously, so a few overlap their round trips; the Client's bound on
// requests in flight (MaxInFlight) still holds.
const pageConcurrency = 4

// pages calls f on ids SeriesPage at a time, a few pages at once; f serialises what it shares.
// The first error is returned, once every page has ended.
func pages(ids []string, f func(page []string) error) error {
	if len(ids) <= SeriesPage {
		if len(ids) == 0 {
			return nil
		}
		return f(ids)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	sem := make(chan struct{}, pageConcurrency)
	for len(ids) > 0 {
		n := min(len(ids), SeriesPage)
		page := ids[:n]
		ids = ids[n:]
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := f(page); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return first
}

// SeriesDescs is the descriptors of series (SeriesDescsFunc), their strings copied out of the
// answers.
func (c *Client) SeriesDescs(ctx context.Context, ids []string) ([]SeriesDesc, error) {
	var out []SeriesDesc
	err := c.SeriesDescsFunc(ctx, ids, func(d SeriesDesc) {
		for _, p := range []*string{&d.Series, &d.Source, &d.PMID, &d.InDom, &d.Semantics, &d.Type, &d.Units} {
			*p = strings.Clone(*p)
		}
		out = append(out, d)
	})
	return out, err
}

// SeriesInstances is the instances of series (those with an instance domain), as ever seen
// (SeriesInstancesFunc), their strings copied out of the answers.
func (c *Client) SeriesInstances(ctx context.Context, ids []string) ([]SeriesInstance, error) {
	var out []SeriesInstance
	err := c.SeriesInstancesFunc(ctx, ids, func(in SeriesInstance) {
		in.Series, in.Source, in.Instance, in.Name = strings.Clone(in.Series), strings.Clone(in.Source), strings.Clone(in.Instance), strings.Clone(in.Name)
		out = append(out, in)
	})
	return out, err
}

// SeriesSources is the names of sources (by source id): the contexts the series were loaded from,
// an archive's path and its host's name (the archive label's, which pmlogger takes from pmcd's
// hostname label).
func (c *Client) SeriesSources(ctx context.Context, ids []string) (map[string][]string, error) {
	out := map[string][]string{}
	var mu sync.Mutex
	err := pages(ids, func(p []string) error {
		var r []struct {
			Source string `json:"source"`
			Name   string `json:"name"`
		}
		if err := c.seriesJSON(ctx, "/series/sources", url.Values{"source": {strings.Join(p, ",")}}, &r); err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		for _, s := range r {
			out[s.Source] = append(out[s.Source], s.Name)
		}
		return nil
	})
	return out, err
}

// SeriesLabels is the labels of series (of a metric without an instance domain, or of an
// instance), by series id: the context's (hostname, machineid), its agent's and the metric's,
// each value as text (a string without its quotes, anything else as JSON).
func (c *Client) SeriesLabels(ctx context.Context, ids []string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	var mu sync.Mutex
	err := pages(ids, func(p []string) error {
		var r []struct {
			Series string                     `json:"series"`
			Labels map[string]json.RawMessage `json:"labels"`
		}
		if err := c.seriesJSON(ctx, "/series/labels", url.Values{"series": {strings.Join(p, ",")}}, &r); err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		for _, s := range r {
			m := make(map[string]string, len(s.Labels))
			for k, v := range s.Labels {
				var str string
				if json.Unmarshal(v, &str) == nil {
					m[k] = str
				} else {
					m[k] = string(v)
				}
			}
			out[s.Series] = m
		}
		return nil
	})
	return out, err
}

// SeriesValues is the values of series in a window, appended to dst (SeriesValuesFunc), their
// strings copied out of the answer.
func (c *Client) SeriesValues(ctx context.Context, ids []string, w Window, limit int, dst []SeriesValue) ([]SeriesValue, error) {
	err := c.SeriesValuesFunc(ctx, ids, w, limit, func(v SeriesValue) {
		v.Series, v.Instance, v.Value = strings.Clone(v.Series), strings.Clone(v.Instance), strings.Clone(v.Value)
		dst = append(dst, v)
	})
	return dst, err
}

// SeriesValuesFunc calls fn with each value of the series in a window, oldest first within each
// series, one call at a time. The series are asked for SeriesPage at a time, a few pages at once;
// a series with Samples timestamps in an answer is asked for again from after its last one
// (paging), until the window is read. limit bounds the values in all (0: 4 million): past it
// the error says what was too big. A value's strings are valid during the call only: they are
// the answer's, read as it comes into a buffer that is read into again.
func (c *Client) SeriesValuesFunc(ctx context.Context, ids []string, w Window, limit int, fn func(SeriesValue)) error {
	if limit <= 0 {
		limit = 4 << 20
	}
	base := url.Values{}
	if !w.Finish.IsZero() {
		base.Set("finish", secs(w.Finish))
	}
	if w.Most > 0 {
		w.Samples = 0
		base.Set("samples", strconv.Itoa(w.Most))
	} else if w.Samples > 0 {
		base.Set("samples", strconv.Itoa(w.Samples))
	}
	r := &valuesReader{c: c, w: w, base: base, limit: limit, fn: fn, series: len(ids)}
	return pages(ids, func(p []string) error { return r.page(ctx, p) })
}

// valuesReader reads the values of a window for SeriesValuesFunc, a page of series at a time,
// a few pages at once.
type valuesReader struct {
	c      *Client
	w      Window
	base   url.Values // the query every request has: the window's finish, its samples
	limit  int
	fn     func(SeriesValue)
	series int        // how many series in all, for the error past limit
	mu     sync.Mutex // serialises fn and total
	total  int        // values handed to fn
}

// in reports whether t is inside the window. pmproxy reads a window's ends as doubles, a
// microsecond either way: the window asked for is a microsecond wider at its start, and what is
// outside the one wanted is dropped here.
func (r *valuesReader) in(t time.Time) bool {
	return (r.w.Start.IsZero() || !t.Before(r.w.Start)) && (r.w.Finish.IsZero() || !t.After(r.w.Finish))
}

// page reads the values of one page of series, asking again for those that may have more.
func (r *valuesReader) page(ctx context.Context, p []string) error {
	q := url.Values{}
	for k, v := range r.base {
		q[k] = v
	}
	d := getStream()
	defer putStream(d)
	start := r.w.Start
	var had map[string]time.Time // the last time read of each series asked for again
	for len(p) > 0 {
		if !start.IsZero() {
			q.Set("start", secs(start.Add(-time.Microsecond)))
		}
		q.Set("series", strings.Join(p, ","))
		var pg *pageCount
		if r.w.Samples > 0 {
			pg = newPageCount(p)
		}
		err := r.c.stream(ctx, "/series/values", q, maxSeriesBody, func(body io.Reader) error {
			return r.deliver(d, body, pg, had)
		})
		if err != nil || pg == nil {
			return err
		}
		p, start, had = again(p, pg, had, r.w.Samples)
	}
	return nil
}

// pageCount counts, when a window asks for pages by Samples, each series' timestamps in an
// answer (count) and its last one (last), by the series' place in the page (at), before
// anything is dropped.
type pageCount struct {
	at    map[string]int
	count []int
	last  []time.Time
}

func newPageCount(p []string) *pageCount {
	pg := &pageCount{at: make(map[string]int, len(p)), count: make([]int, len(p)), last: make([]time.Time, len(p))}
	for i, sid := range p {
		pg.at[sid] = i
	}
	return pg
}

// add counts a value of series sid at t.
func (pg *pageCount) add(sid string, t time.Time) {
	if i, ok := pg.at[sid]; ok && (pg.count[i] == 0 || !pg.last[i].Equal(t)) {
		pg.count[i]++
		pg.last[i] = t
	}
}

// deliver reads one answer as it comes and hands fn each value that is inside the window and
// after what had says was read of its series before, counting the answer's timestamps into pg
// when it is not nil. Past the limit it stops, with an error that says what was too big.
func (r *valuesReader) deliver(d *arrayStream, body io.Reader, pg *pageCount, had map[string]time.Time) error {
	var over error
	err := decodeSeriesValues(d, body, func(v SeriesValue) error {
		if pg != nil {
			pg.add(v.Series, v.Time)
		}
		if t, ok := had[v.Series]; (ok && !v.Time.After(t)) || !r.in(v.Time) {
			return nil
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.total++; r.total > r.limit {
			over = fmt.Errorf("pmproxy %s: the values of %d series from %s to %s: %w: more than %d",
				r.c.URL(), r.series, stamp(r.w.Start), stamp(r.w.Finish), ErrTooBig, r.limit)
			return over
		}
		r.fn(v)
		return nil
	})
	switch {
	case over != nil:
		return over
	case err != nil:
		return fmt.Errorf("pmproxy %s: /series/values: %w", r.c.URL(), err)
	}
	return nil
}

// again is what to ask for next of page p: a series with samples timestamps in the answer may
// have more, so the next request asks for those series from after the earliest of their last
// ones, and had keeps what each has read (dropped from the next answer). The series that set
// the start gets only new values, so each request moves on. None left: more is empty.
func again(p []string, pg *pageCount, had map[string]time.Time, samples int) (more []string, start time.Time, _ map[string]time.Time) {
	var next time.Time
	more = p[:0:0]
	for i, sid := range p {
		if pg.count[i] < samples {
			continue
		}
		if had == nil {
			had = map[string]time.Time{}
		}
		if t := pg.last[i]; t.After(had[sid]) {
			had[sid] = t
		}
		more = append(more, sid)
		if next.IsZero() || had[sid].Before(next) {
			next = had[sid]
		}
	}
	return more, next.Add(time.Microsecond), had
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "the end"
	}
	return t.UTC().Format("2006-01-02T15:04:05.000000Z")
}

// validSID says s is a series id: 40 hexadecimal digits.
func validSID(s string) bool {
	if len(s) != 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// decodeSeriesValues reads a values answer from r as it comes, [{"series":S,"instance":I,
// "timestamp":T,"value":V}, …], calling fn with each value (its strings lie in d's buffer, valid
// during the call only); fn's error ends the reading. A member of another type than these, a
// series id that is not one, or a timestamp that is not the key-value server's is an error; an
// unknown member is skipped; a value that is neither a string nor a number (an event) is left
// out. An object instead of the array, {"success":false,"message":M}, is pmproxy's error sent
// with HTTP 200. FuzzSeriesValues checks it against encoding/json.
func decodeSeriesValues(d *arrayStream, r io.Reader, fn func(SeriesValue) error) error {
	return d.eachElement(r, func(s *scanner) error {
		v, keep, err := seriesValue(s)
		if !keep || err != nil {
			return err
		}
		return fn(v)
	})
}

// seriesValue reads one {"series":S,"instance":I,"timestamp":T,"value":V} of a values answer;
// keep is false for a value that is neither a string nor a number (an event record's), which is
// passed over.
func seriesValue(s *scanner) (v SeriesValue, keep bool, err error) {
	var ts string
	err = s.object(func(k string) error {
		var err error
		switch k {
		case "series":
			v.Series, err = seriesID(s, k)
		case "instance":
			v.Instance, err = seriesID(s, k)
		case "timestamp":
			ts, err = s.num()
		case "value":
			v.Value, keep, err = scalarText(s)
		default:
			err = s.skip(0)
		}
		return err
	})
	switch {
	case err != nil:
		return v, false, err
	case v.Series == "" || ts == "":
		return v, false, s.err("a value without its series or timestamp")
	}
	if v.Time, err = StreamTime(ts); err != nil {
		return v, false, s.err("%v", err)
	}
	return v, keep, nil
}

// seriesID reads the series id of key k (series or instance).
func seriesID(s *scanner, k string) (string, error) {
	str, err := s.str()
	if err != nil {
		return "", err
	}
	if !validSID(str) {
		return "", s.err("%s %q is no series id", k, clip(str))
	}
	return str, nil
}

// scalarText reads a value that is a string or a number as its text, true; an object, an array,
// true, false or null is skipped, false.
func scalarText(s *scanner) (string, bool, error) {
	switch s.peek() {
	case '"':
		t, err := s.str()
		return t, true, err
	case '{', '[', 't', 'f', 'n':
		return "", false, s.skip(0)
	}
	t, err := s.num()
	return t, true, err
}

// StreamTime reads a series timestamp as pmproxy writes it: the milliseconds since the epoch, a
// point, and the microseconds past them (0 to 999) as an integer without leading zeros.
func StreamTime(s string) (time.Time, error) {
	ms, frac, _ := strings.Cut(s, ".")
	m, err := strconv.ParseUint(ms, 10, 64)
	if err != nil || m > 1<<53 {
		return time.Time{}, fmt.Errorf("timestamp %q: not milliseconds", clip(s))
	}
	var us uint64
	if frac != "" {
		if us, err = strconv.ParseUint(frac, 10, 16); err != nil || us > 999 {
			return time.Time{}, fmt.Errorf("timestamp %q: not microseconds past the millisecond", clip(s))
		}
	}
	return time.UnixMicro(int64(m*1000 + us)), nil
}

// Diagnose words a failed /series request from what pmproxy answered, and answers now (within a
// second): that pmproxy does not answer at all; that it answers but has no /series (its
// [pmseries] section is off); or that its key-value server is down. pmproxy 6.0.3 answers
// /series/ping without a key-value server, a query with HTTP 500 ("expected array for metric set
// … (type=none)"), and other requests not at all: a 500, or a query that fails so after a ping,
// is the key-value server; a query that does not answer within the second is it, or pmproxy
// overloaded. Another failure (an answer too big, a malformed one) is err as it is.
func (c *Client) Diagnose(err error) error {
	if err == nil || errors.Is(err, ErrTooBig) {
		return err
	}
	var e *Error
	var ne net.Error
	if errors.Is(err, syscall.ECONNREFUSED) || errors.As(err, new(*net.OpError)) && !errors.As(err, &ne) {
		return fmt.Errorf("pmproxy %s does not answer (is it running?): %w", c.URL(), err)
	}
	kv := func(err error) error {
		return fmt.Errorf("pmproxy %s answers, but its key-value server (Redis or Valkey) does not: %w", c.URL(), err)
	}
	if errors.As(err, &e) && e.Status >= 500 {
		return kv(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if perr := c.SeriesPing(ctx); perr != nil {
		if errors.As(perr, &e) {
			return fmt.Errorf("pmproxy %s has no time series (/series/ping: %v; is [pmseries] enabled in its configuration?): %w", c.URL(), perr, err)
		}
		return fmt.Errorf("pmproxy %s does not answer: %w", c.URL(), err)
	}
	qerr := c.seriesJSON(ctx, "/series/query", url.Values{"expr": {"pmcd.pid"}}, new([]string))
	switch {
	case qerr == nil:
		return err
	case errors.As(qerr, &e) && e.Status >= 500:
		return kv(fmt.Errorf("a query says %v: %w", qerr, err))
	}
	return fmt.Errorf("pmproxy %s answers /series/ping but not a query within a second: its key-value server (Redis or Valkey) is down, or pmproxy is overloaded: %w", c.URL(), err)
}
