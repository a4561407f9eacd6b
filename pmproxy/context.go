package pmproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Context is a pmproxy context on one pmcd (a hostspec: `web1`, `10.0.0.5:44321`). It is safe
// for concurrent use; a context pmproxy has forgotten is created again at the next request.
type Context struct {
	c        *Client
	hostspec string
	poll     time.Duration

	mu     sync.Mutex
	id     int64
	gen    uint64
	labels map[string]string
	host   string

	// One fetch at a time reuses the answer's buffer and the last names' query (a collection
	// fetches the same names each time): fmu guards them.
	fmu       sync.Mutex
	buf       bytes.Buffer
	lastNames []string
	lastQuery url.Values
}

// NewContext creates a context on hostspec whose pmproxy side lives polltimeout after its last
// request (rounded up to whole seconds, at least 1): give one above the interval at which it is
// read, or it expires between readings (and is created again, at the cost of one reading's rates).
func (c *Client) NewContext(ctx context.Context, hostspec string, polltimeout time.Duration) (*Context, error) {
	x := &Context{c: c, hostspec: hostspec, poll: polltimeout}
	if err := x.create(ctx); err != nil {
		return nil, err
	}
	return x, nil
}

// Outlive makes the context, when it is made again (it expired, or pmproxy restarted), live at
// least d past its last request: a caller whose readings came further apart than it was made
// for (an interval made longer) loses one reading's rates, not every one.
func (x *Context) Outlive(d time.Duration) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.poll = max(x.poll, d)
}

// create asks pmproxy for a new context; the caller holds mu or owns x.
func (x *Context) create(ctx context.Context) error {
	secs := int(math.Ceil(x.poll.Seconds()))
	if secs < 1 {
		secs = 1
	}
	var r struct {
		Context  json.Number    `json:"context"`
		Hostspec string         `json:"hostspec"`
		Labels   map[string]any `json:"labels"`
	}
	if err := x.c.get(ctx, "/pmapi/context", url.Values{"hostspec": {x.hostspec}, "polltimeout": {strconv.Itoa(secs)}}, &r); err != nil {
		return fmt.Errorf("%s: %w", x.hostspec, err)
	}
	id, err := r.Context.Int64()
	if err != nil {
		return fmt.Errorf("%s: pmproxy gave context %q", x.hostspec, r.Context)
	}
	x.id, x.host = id, r.Hostspec
	x.labels = map[string]string{}
	for k, v := range r.Labels {
		x.labels[k] = fmt.Sprint(v)
	}
	x.gen++
	return nil
}

// Hostspec is the hostspec the context was made for.
func (x *Context) Hostspec() string { return x.hostspec }

// Generation counts the contexts made for this one: it changes when pmproxy forgot the context
// and it was created again. Counters read across a change are not comparable (pmcd may have
// restarted); a reader must not compute a rate across it.
func (x *Context) Generation() uint64 {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.gen
}

// Labels are the context's labels (hostname, machineid, domainname, ...), and Host the host name
// pmcd gave.
func (x *Context) Labels() (host string, labels map[string]string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.host, x.labels
}

// call runs one request on the context, creating the context again once if pmproxy forgot it,
// and decodes the answer into out (encoding/json, numbers kept as their text).
func (x *Context) call(ctx context.Context, op string, q url.Values, out any) error {
	return x.callWith(ctx, op, q, nil, func(path string, b []byte) error { return x.c.decode(path, b, out) })
}

// callWith is call with a decoder of its own.
func (x *Context) callWith(ctx context.Context, op string, q url.Values, buf *bytes.Buffer, decode func(path string, b []byte) error) error {
	x.mu.Lock()
	id := x.id
	x.mu.Unlock()
	path := fmt.Sprintf("/pmapi/%d/%s", id, op)
	b, err := x.c.body(ctx, path, q, buf)
	if errExpired(err) {
		x.mu.Lock()
		if x.id == id { // nobody made it again meanwhile
			if cerr := x.create(ctx); cerr != nil {
				x.mu.Unlock()
				return cerr
			}
		}
		id = x.id
		x.mu.Unlock()
		path = fmt.Sprintf("/pmapi/%d/%s", id, op)
		b, err = x.c.body(ctx, path, q, buf)
	}
	if err != nil {
		return err
	}
	return decode(path, b)
}

// Desc is a metric's descriptor, as pmproxy gives it.
type Desc struct {
	Name    string         `json:"name"`
	PMID    string         `json:"pmid"`
	InDom   string         `json:"indom"` // "" for a metric with no instance domain
	Type    string         `json:"type"`  // u32 u64 32 64 float double string aggregate event ...
	Sem     string         `json:"sem"`   // counter instant discrete
	Units   string         `json:"units"` // "Kbyte", "millisec", "count", "byte / sec", "none"
	Labels  map[string]any `json:"labels"`
	OneLine string         `json:"text-oneline"`
	Help    string         `json:"text-help"`
}

// ErrUnknownMetric is wrapped by the error for names pmcd does not know: pmproxy answers them
// with HTTP 200 and no values, which must never be read as 0.
var ErrUnknownMetric = errors.New("unknown metric")

// Metrics returns the descriptors of names, in their order. A name pmcd does not know is an
// error wrapping ErrUnknownMetric, naming it.
func (x *Context) Metrics(ctx context.Context, names ...string) ([]Desc, error) {
	var r struct {
		Metrics []Desc `json:"metrics"`
	}
	if err := x.call(ctx, "metric", url.Values{"names": {strings.Join(names, ",")}}, &r); err != nil {
		var e *Error
		if errors.As(err, &e) && strings.Contains(e.Message, "Unknown metric name") {
			return nil, fmt.Errorf("%s: %w: %s", x.hostspec, ErrUnknownMetric, e.Message)
		}
		return nil, err
	}
	by := make(map[string]Desc, len(r.Metrics))
	for _, d := range r.Metrics {
		by[d.Name] = d
	}
	out := make([]Desc, 0, len(names))
	var missing []string
	for _, n := range names {
		d, ok := by[n]
		if !ok {
			missing = append(missing, n)
			continue
		}
		out = append(out, d)
	}
	if len(missing) > 0 {
		return out, fmt.Errorf("%s: %w: %s", x.hostspec, ErrUnknownMetric, strings.Join(missing, ", "))
	}
	return out, nil
}

// Instance is one instance of an instance domain.
type Instance struct {
	ID     int64          `json:"instance"`
	Name   string         `json:"name"`
	Labels map[string]any `json:"labels"`
}

// InDom returns the instances of an instance domain ("60.1").
func (x *Context) InDom(ctx context.Context, indom string) ([]Instance, error) {
	var r struct {
		Instances []struct {
			Instance json.Number    `json:"instance"`
			Name     string         `json:"name"`
			Labels   map[string]any `json:"labels"`
		} `json:"instances"`
	}
	if err := x.call(ctx, "indom", url.Values{"indom": {indom}}, &r); err != nil {
		return nil, err
	}
	out := make([]Instance, 0, len(r.Instances))
	for _, in := range r.Instances {
		id, err := in.Instance.Int64()
		if err != nil {
			return nil, fmt.Errorf("%s: indom %s: instance %q is not a number", x.hostspec, indom, in.Instance)
		}
		out = append(out, Instance{ID: id, Name: in.Name, Labels: in.Labels})
	}
	return out, nil
}

// Children is the name space below prefix ("" for the root): leaf metrics and inner nodes.
func (x *Context) Children(ctx context.Context, prefix string) (leaf, nonleaf []string, err error) {
	var r struct {
		Leaf    []string `json:"leaf"`
		NonLeaf []string `json:"nonleaf"`
	}
	q := url.Values{}
	if prefix != "" {
		q.Set("prefix", prefix)
	}
	if err := x.call(ctx, "children", q, &r); err != nil {
		return nil, nil, err
	}
	return r.Leaf, r.NonLeaf, nil
}

// Value is one instance's value, as the text pmproxy sent: exact for every integer type. A
// value decoded already from PCP's binary encoding (a native fetch, package pmcd) carries its
// number instead of text (Uint, Int, Float): the same methods read both, so the readers of a
// fetch do not care where it came from.
type Value struct {
	Instance int64 // -1 for a metric with no instance domain (PM_IN_NULL)
	Text     string
	kind     uint8 // numText (text to parse), numUint, numInt or numFloat
	bits     uint64
}

const (
	numText = iota
	numUint
	numInt
	numFloat
)

// Uint is an unsigned integer value (a u32 or u64 metric) as decoded.
func Uint(inst int64, n uint64) Value { return Value{Instance: inst, kind: numUint, bits: n} }

// Int is a signed integer value (a 32 or 64 metric) as decoded.
func Int(inst int64, n int64) Value { return Value{Instance: inst, kind: numInt, bits: uint64(n)} }

// Float is a floating-point value (a float or double metric) as decoded.
func Float(inst int64, x float64) Value {
	return Value{Instance: inst, kind: numFloat, bits: math.Float64bits(x)}
}

// errKind is the error of a decoded number read as a kind it cannot be exactly: a negative
// number as unsigned, a fraction as an integer. As strconv says of such text.
func errKind(v Value, as string) error {
	return &strconv.NumError{Func: "Parse" + as, Num: v.String(), Err: strconv.ErrSyntax}
}

// String is the value as text: the text sent, or the decoded number written out.
func (v Value) String() string {
	switch v.kind {
	case numUint:
		return strconv.FormatUint(v.bits, 10)
	case numInt:
		return strconv.FormatInt(int64(v.bits), 10)
	case numFloat:
		return strconv.FormatFloat(math.Float64frombits(v.bits), 'g', -1, 64)
	}
	return v.Text
}

// Uint64 is the value as an unsigned integer (a u32 or u64 metric), exactly.
func (v Value) Uint64() (uint64, error) {
	switch v.kind {
	case numUint:
		return v.bits, nil
	case numInt:
		if int64(v.bits) < 0 {
			return 0, errKind(v, "Uint")
		}
		return v.bits, nil
	case numFloat:
		x := math.Float64frombits(v.bits)
		if x < 0 || x != math.Trunc(x) || x >= 1<<64 {
			return 0, errKind(v, "Uint")
		}
		return uint64(x), nil
	}
	return strconv.ParseUint(v.Text, 10, 64)
}

// Int64 is the value as a signed integer (a 32 or 64 metric), exactly.
func (v Value) Int64() (int64, error) {
	switch v.kind {
	case numUint:
		if v.bits > math.MaxInt64 {
			return 0, &strconv.NumError{Func: "ParseInt", Num: v.String(), Err: strconv.ErrRange}
		}
		return int64(v.bits), nil
	case numInt:
		return int64(v.bits), nil
	case numFloat:
		x := math.Float64frombits(v.bits)
		if x != math.Trunc(x) || x < math.MinInt64 || x >= math.MaxInt64 {
			return 0, errKind(v, "Int")
		}
		return int64(x), nil
	}
	return strconv.ParseInt(v.Text, 10, 64)
}

// Float64 is the value as a floating-point number (float and double metrics).
func (v Value) Float64() (float64, error) {
	switch v.kind {
	case numUint:
		return float64(v.bits), nil
	case numInt:
		return float64(int64(v.bits)), nil
	case numFloat:
		return math.Float64frombits(v.bits), nil
	}
	return strconv.ParseFloat(v.Text, 64)
}

// Fetched is one fetch: the time pmcd read the values, and each metric's values by name (Get).
type Fetched struct {
	Time time.Time
	// Values are each metric's values by name, unless the fetch has them by position (ReuseAt:
	// a native context, which asks for the same names fetch after fetch); Get reads either.
	Values map[string][]Value
	// Errs are the PCP status codes (pcpwire.Code: PM_ERR_PERMISSION, a PMDA's "No
	// permission") pmcd gave instead of values, by metric; nil when it gave none. Read over
	// pmcd's own protocol only.
	Errs map[string]int32

	pos   map[string]int // each name's position in byPos (shared, never written to); nil: by name
	byPos [][]Value
	index map[string]map[int64]int // metric → instance → position in its values, made at the first Lookup
}

// Get is metric's values in the fetch; none when the fetch has none of it.
func (f *Fetched) Get(metric string) []Value {
	if f.pos != nil {
		if i, ok := f.pos[metric]; ok {
			return f.byPos[i]
		}
		return nil
	}
	return f.Values[metric]
}

// ReuseAt empties f for another fetch at t whose values are set by position (SetAt): pos is
// each name's position among n (a map never written to, which the fetches of the same names
// share; issue 38: no map of values by name a host).
func (f *Fetched) ReuseAt(t time.Time, pos map[string]int, n int) {
	f.Time, f.pos, f.Values = t, pos, nil
	f.byPos = slices.Grow(f.byPos[:0], n)[:n]
	clear(f.byPos)
	clear(f.Errs)
	for _, ix := range f.index {
		clear(ix)
	}
}

// SetAt sets the values of the name at position i (ReuseAt).
func (f *Fetched) SetAt(i int, vs []Value) { f.byPos[i] = vs }

// Reuse empties f for another fetch at t, keeping its maps' room: the values read from it
// before are not to be used after (a native context fetches into one Fetched again and again).
func (f *Fetched) Reuse(t time.Time) {
	f.Time, f.pos = t, nil
	if f.Values == nil {
		f.Values = map[string][]Value{}
	}
	clear(f.Values)
	clear(f.Errs)
	for _, ix := range f.index {
		clear(ix)
	}
}

// Lookup is metric's value for instance inst; inst -1 is a metric with no instance domain, or
// the only value a metric has. Looking an instance up costs a map access, whatever the count.
func (f *Fetched) Lookup(metric string, inst int64) (Value, bool) {
	return f.LookupIn(metric, f.Get(metric), inst)
}

// LookupIn is Lookup where vs are already metric's values in f (a caller that planned its
// columns keeps them): the same answer, without looking the metric up by name for a few values.
func (f *Fetched) LookupIn(metric string, vs []Value, inst int64) (Value, bool) {
	if inst < 0 && len(vs) == 1 {
		return vs[0], true
	}
	if len(vs) <= 8 {
		for _, v := range vs {
			if v.Instance == inst {
				return v, true
			}
		}
		return Value{}, false
	}
	if f.index == nil {
		f.index = map[string]map[int64]int{}
	}
	ix, ok := f.index[metric]
	if !ok || len(ix) == 0 {
		if ix == nil {
			ix = make(map[int64]int, len(vs))
		}
		for i, v := range vs {
			ix[v.Instance] = i
		}
		f.index[metric] = ix
	}
	if i, ok := ix[inst]; ok {
		return vs[i], true
	}
	return Value{}, false
}

// Fetch reads the current values of names. A name with no values (not known to pmcd, or with no
// instance now) is absent from Values; the caller says which, with Metrics.
func (x *Context) Fetch(ctx context.Context, names ...string) (*Fetched, error) {
	x.fmu.Lock()
	defer x.fmu.Unlock()
	if !slices.Equal(names, x.lastNames) {
		x.lastNames, x.lastQuery = slices.Clone(names), url.Values{"names": {strings.Join(names, ",")}}
	}
	var r *fetchAnswer
	err := x.callWith(ctx, "fetch", x.lastQuery, &x.buf, func(path string, b []byte) error {
		var err error
		if r, err = decodeFetch(b); err != nil {
			return fmt.Errorf("pmproxy %s: %s: %w", x.c.URL(), path, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	t, err := parseTimestamp(r.timestamp)
	if err != nil {
		return nil, fmt.Errorf("%s: fetch: %w", x.hostspec, err)
	}
	f := &Fetched{Time: t, Values: make(map[string][]Value, len(r.values))}
	for _, m := range r.values {
		f.Values[m.name] = m.instances
	}
	return f, nil
}

// parseTimestamp reads pmproxy's fetch timestamp. pmproxy (PCP 6.0.3) prints the seconds, a
// point, and the nanoseconds as an integer without leading zeros: 0.034751998 s past a second is
// written ".34751998", not ".034751998". Read as a decimal fraction, one stamp in ten would go
// back in time and a rate over it would be nonsense; read as nanoseconds, 150 stamps taken 13 ms
// apart all increase (see TestParseTimestamp). Nine digits read the same either way.
func parseTimestamp(s string) (time.Time, error) {
	sec, frac, _ := strings.Cut(s, ".")
	n, err := strconv.ParseInt(sec, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("timestamp %q", s)
	}
	var ns int64
	if frac != "" {
		if len(frac) > 9 {
			return time.Time{}, fmt.Errorf("timestamp %q: more than nanoseconds", s)
		}
		ns, err = strconv.ParseInt(frac, 10, 64)
		if err != nil || ns < 0 {
			return time.Time{}, fmt.Errorf("timestamp %q", s)
		}
	}
	return time.Unix(n, ns), nil
}
