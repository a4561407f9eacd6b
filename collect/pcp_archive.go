package collect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	ns "dcimon/namespace"
	"dcimon/pcparchive"
	"dcimon/pmproxy"
)

// A PCP archive (a pmlogger's, issue 15) read through the same mapping as a live host: an
// archiveContext answers what a pmproxy context answers (descriptions, instance domains, the
// name space, fetches) from the archive, each fetch the next sample in time. The host's classes,
// derived statistics and PCP name space are then those of a remote host, and rates come from the
// archive's own timestamps.

// archiveContext is an archive as a pcpContext. Each Fetch moves to the next record that holds
// any of the names asked for, and answers every metric's latest value up to it. Records are read
// one at a time (pcparchive.Cursor): memory does not grow with the archive's length.
type archiveContext struct {
	a       *pcparchive.Archive
	byName  map[string]*pcparchive.Desc
	cur     *pcparchive.Cursor
	pending []pcparchive.Result // read ahead of the cursor, not given yet
	now     time.Time
	clock   atomic.Int64 // now, for the sampler's clock, read while a collection may run
	first   time.Time
	last    time.Time
	latest  map[uint32][]pmproxy.Value // by pmid: the values of its latest record so far
}

// openArchive reads an archive's metadata and places it at its start.
func openArchive(base string) (*archiveContext, error) {
	a, err := pcparchive.Open(base)
	if err != nil {
		return nil, err
	}
	x := &archiveContext{a: a, byName: map[string]*pcparchive.Desc{}, latest: map[uint32][]pmproxy.Value{}}
	for i := range a.Descs {
		for _, n := range a.Descs[i].Names {
			x.byName[n] = &a.Descs[i]
		}
	}
	// The span: from the first record to the last, read through once (a record at a time).
	c, err := a.Cursor(time.Time{})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	n := 0
	for {
		r, err := c.Next()
		if err != nil {
			if n == 0 {
				return nil, fmt.Errorf("archive %s: no records: %w", base, err)
			}
			break // the end, or a record cut short: the archive ends before it
		}
		if n == 0 {
			x.first = r.Time
		}
		x.last = r.Time
		n++
	}
	if x.cur, err = a.Cursor(time.Time{}); err != nil {
		return nil, err
	}
	x.now = x.first
	x.clock.Store(x.now.UnixNano())
	return x, nil
}

// next is the next record: one read ahead, else the cursor's.
func (x *archiveContext) next() (pcparchive.Result, error) {
	if len(x.pending) > 0 {
		r := x.pending[0]
		x.pending = x.pending[1:]
		return r, nil
	}
	return x.cur.Next()
}

// apply takes a record's values as the latest of their metrics.
func (x *archiveContext) apply(r pcparchive.Result) {
	for _, s := range r.Sets {
		d := x.a.Desc(s.PMID)
		if d == nil {
			continue
		}
		vals := make([]pmproxy.Value, 0, len(s.Values))
		for _, v := range s.Values {
			if text, ok := archiveText(v, d.Type); ok {
				vals = append(vals, pmproxy.Value{Instance: int64(v.Inst), Text: text})
			}
		}
		x.latest[s.PMID] = vals
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

// seek places the archive so that its next fetches are of the last data record before the last
// one at or before at, then that one: a reading's rates end at at. The records before are read
// for their values (a metric logged once, at the start, is known), one at a time.
func (x *archiveContext) seek(at time.Time) error {
	first, last := x.Span()
	if at.Before(first) || at.After(last) {
		return fmt.Errorf("archive %s: %s is outside it: its samples are from %s to %s", x.a.Base,
			at.Format("2006-01-02 15:04:05 MST"), first.In(at.Location()).Format("2006-01-02 15:04:05"), last.In(at.Location()).Format("2006-01-02 15:04:05 MST"))
	}
	var q []pcparchive.Result // from the last data record but one, up to at
	for {
		r, err := x.next()
		if err != nil || r.Time.After(at) {
			if err == nil {
				q = append(q, r)
			}
			break
		}
		q = append(q, r)
		data := 0
		for _, o := range q {
			if isData(o) {
				data++
			}
		}
		for data > 2 { // keep two data records before at, apply the rest
			if isData(q[0]) {
				data--
			}
			x.apply(q[0])
			x.now = q[0].Time
			x.clock.Store(x.now.UnixNano())
			q = q[1:]
		}
	}
	x.pending = append(q, x.pending...)
	return nil
}

// Labels are the archive's host, as its label names it.
func (x *archiveContext) Labels() (string, map[string]string) {
	return x.a.Label.Host, map[string]string{"hostname": x.a.Label.Host}
}

// Metrics describes names as pmproxy would; a name the archive lacks is ErrUnknownMetric.
func (x *archiveContext) Metrics(_ context.Context, names ...string) ([]pmproxy.Desc, error) {
	out := make([]pmproxy.Desc, 0, len(names))
	var missing []string
	for _, n := range names {
		d := x.byName[n]
		if d == nil {
			missing = append(missing, n)
			continue
		}
		pd := pmproxy.Desc{Name: n, PMID: pcparchive.PMIDString(d.PMID), Type: archiveType(d.Type), Sem: archiveSem(d.Sem),
			Units: archiveUnits(d.Units)}
		if d.InDom != pcparchive.InDomNull {
			pd.InDom = pcparchive.InDomString(d.InDom)
		}
		for _, t := range x.a.Texts {
			if t.Ident == d.PMID && t.Type&4 != 0 { // PM_TEXT_PMID
				if t.Type&1 != 0 {
					pd.OneLine = t.Text
				} else {
					pd.Help = t.Text
				}
			}
		}
		out = append(out, pd)
	}
	if len(missing) > 0 {
		return out, fmt.Errorf("archive %s: %w: %s", x.a.Base, pmproxy.ErrUnknownMetric, strings.Join(missing, ", "))
	}
	return out, nil
}

// InDom is the instance domain as it was at the current sample (its latest observation up to
// it), or its first one before that.
func (x *archiveContext) InDom(_ context.Context, indom string) ([]pmproxy.Instance, error) {
	var best *pcparchive.InDom
	for i := range x.a.InDoms {
		in := &x.a.InDoms[i]
		if pcparchive.InDomString(in.InDom) != indom {
			continue
		}
		if best == nil || (!in.Time.After(x.now) && in.Time.After(best.Time)) || best.Time.After(x.now) && in.Time.Before(best.Time) {
			best = in
		}
	}
	if best == nil {
		return nil, fmt.Errorf("archive %s: no instance domain %s", x.a.Base, indom)
	}
	out := make([]pmproxy.Instance, len(best.Instances))
	for i, id := range best.Instances {
		out[i] = pmproxy.Instance{ID: int64(id), Name: best.Names[i]}
	}
	return out, nil
}

// Children is the archive's name space below prefix.
func (x *archiveContext) Children(_ context.Context, prefix string) (leaf, nonleaf []string, err error) {
	leaf, nonleaf = childrenOf(maps.Keys(x.byName), prefix)
	return leaf, nonleaf, nil
}

// childrenOf is the name space the metric names make, below prefix: the next component of each
// name under it, a leaf where it is the last, each once and in order.
func childrenOf(names iter.Seq[string], prefix string) (leaf, nonleaf []string) {
	seen := map[string]bool{}
	for n := range names {
		rest := n
		if prefix != "" {
			var ok bool
			if rest, ok = strings.CutPrefix(n, prefix+"."); !ok {
				continue
			}
		}
		first, _, more := strings.Cut(rest, ".")
		if seen[first] {
			continue
		}
		seen[first] = true
		if more {
			nonleaf = append(nonleaf, first)
		} else {
			leaf = append(leaf, first)
		}
	}
	sort.Strings(leaf)
	sort.Strings(nonleaf)
	return leaf, nonleaf
}

// scales are the processor count and memory size the archive first records (1 and 0 when it
// has none), for the classes' scales.
func (x *archiveContext) scales() (int, uint64) {
	ncpu, mem := 1, uint64(0)
	c, err := x.a.Cursor(time.Time{})
	if err != nil {
		return ncpu, mem
	}
	defer c.Close()
	for range 100 { // pmlogger logs them with the first samples
		r, err := c.Next()
		if err != nil {
			break
		}
		for _, s := range r.Sets {
			d := x.a.Desc(s.PMID)
			if d == nil || len(s.Values) != 1 {
				continue
			}
			n, err := s.Values[0].Uint64(d.Type)
			switch {
			case err != nil:
			case slices.Contains(d.Names, "hinv.ncpu") && n > 0 && n < 1<<20:
				ncpu = int(n)
			case slices.Contains(d.Names, "mem.physmem") && n < math.MaxUint64/1024:
				mem = n * 1024
			}
		}
		if ncpu > 1 && mem > 0 {
			break
		}
	}
	return ncpu, mem
}

// ErrArchiveEnd is the error of a fetch past an archive's last sample.
var ErrArchiveEnd = fmt.Errorf("the end of the archive")

// Fetch moves to the next record holding any of names and answers each name's latest values.
func (x *archiveContext) Fetch(_ context.Context, names ...string) (*pmproxy.Fetched, error) {
	want := map[uint32]bool{}
	for _, n := range names {
		if d := x.byName[n]; d != nil {
			want[d.PMID] = true
		}
	}
	for found := false; !found; {
		r, err := x.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("archive %s: %w (%s)", x.a.Base, ErrArchiveEnd, x.now.UTC().Format(time.RFC3339))
			}
			// A record cut short (its writer killed, or out of room) or damaged: the archive
			// ends before it, which is said.
			return nil, fmt.Errorf("%w, after %s: %w", ErrArchiveEnd, x.now.UTC().Format(time.RFC3339), err)
		}
		x.now = r.Time
		x.clock.Store(x.now.UnixNano())
		x.apply(r)
		for _, s := range r.Sets {
			found = found || want[s.PMID]
		}
	}
	f := &pmproxy.Fetched{Time: x.now, Values: map[string][]pmproxy.Value{}}
	for _, n := range names {
		if d := x.byName[n]; d != nil {
			if vs, ok := x.latest[d.PMID]; ok {
				f.Values[n] = vs
			}
		}
	}
	return f, nil
}

// archiveText is a recorded value as pmproxy would send it: integers exactly, floats in
// full, strings as they are.
func archiveText(v pcparchive.Value, typ int32) (string, bool) {
	switch typ {
	case pcparchive.TypeString:
		return v.String(), true
	case pcparchive.TypeFloat, pcparchive.TypeDouble:
		f, err := v.Float64(typ)
		if err != nil || math.IsNaN(f) {
			return "", err == nil
		}
		return strconv.FormatFloat(f, 'g', -1, 64), true
	case pcparchive.Type32, pcparchive.Type64:
		n, err := v.Uint64(typ)
		return strconv.FormatInt(int64(n), 10), err == nil
	case pcparchive.TypeU32, pcparchive.TypeU64:
		n, err := v.Uint64(typ)
		return strconv.FormatUint(n, 10), err == nil
	}
	return "", false
}

func archiveType(t int32) string {
	switch t {
	case pcparchive.Type32:
		return "32"
	case pcparchive.TypeU32:
		return "u32"
	case pcparchive.Type64:
		return "64"
	case pcparchive.TypeU64:
		return "u64"
	case pcparchive.TypeFloat:
		return "float"
	case pcparchive.TypeDouble:
		return "double"
	case pcparchive.TypeString:
		return "string"
	}
	return "aggregate"
}

func archiveSem(s int32) string {
	switch s {
	case 1:
		return "counter"
	case 4:
		return "discrete"
	}
	return "instant"
}

// archiveUnits writes an archive's bit-packed pmUnits as dcimon writes units ("Kbyte/sec"),
// which parsePMUnits reads as it reads pmproxy's.
func archiveUnits(u uint32) string { return ns.UnpackPMUnits(u >> 8).String() }

// ArchiveProviders returns the provider of the host a PCP archive recorded, through the same
// mapping as a live host's: its classes, the archive's whole name space under PCP, and each
// collection the archive's next sample. With at, the first collection is the sample before at
// and the second the last one at or before it, so that rates are over the interval ending there;
// a time outside the archive is an error that says what the archive covers, unless clamp
// (the start of a series: from before the archive is from its start).
//
// clock is the archive's time (the latest sample read): a sampler of it reads time from it, so
// that its readings are timed as the archive was, not by the wall clock.
func ArchiveProviders(base string, at time.Time, clamp bool) (provs []Provider, clock func() time.Time, err error) {
	x, err := openArchive(base)
	if err != nil {
		return nil, nil, err
	}
	if first, last := x.Span(); clamp && !at.IsZero() { // a series from before the start, or after the end
		if at.Before(first) {
			at = first
		}
		if at.After(last) {
			at = last
		}
	}
	if !at.IsZero() {
		if err := x.seek(at); err != nil {
			return nil, nil, err
		}
	}
	h := &pcpHost{opt: PCPOptions{Hostspec: x.a.Label.Host, Interval: time.Second}, now: func() time.Time { return x.now },
		dial: func() (pcpContext, error) { return x, nil }}
	h.x = x
	ncpu, mem := x.scales()
	h.host = PCPHost{Name: x.a.Label.Host, Spec: x.a.Label.Host}
	h.start(ncpu, mem)
	spec := ns.EscapeName(x.a.Label.Host)
	h.sup = supplier(handlePCP, "archive:"+cut(spec, 56), cut("PCP archive of "+spec, 63),
		cut(fmt.Sprintf("The archive %s of host %s, from %s", ns.EscapeName(base), spec, x.a.Label.Start.UTC().Format(time.RFC3339)), 255),
		ns.SPTGeneralSupplier, h.decl)
	return []Provider{h}, func() time.Time { return time.Unix(0, x.clock.Load()) }, nil
}
