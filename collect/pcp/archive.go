package pcp

import (
	"context"
	"encoding/json"
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

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
	"dcimon/pcparchive"
	"dcimon/pmproxy"
)

// A PCP archive (a pmlogger's, issue 15) read through the same mapping as a live host: an
// archiveContext answers what a pmproxy context answers (descriptions, instance domains, the
// name space, fetches) from the archive, each fetch the next sample in time. The host's classes,
// derived statistics and PCP name space are then those of a remote host, and rates come from the
// archive's own timestamps.

// archiveContext is an archive as a pcpContext. Without a target, each Fetch moves to the next
// record that holds any of the names asked for (the headless commands' series); with one (a
// Replay's time cursor), it reads every record up to the target. Either way it answers every
// metric's latest value so far. Records are read one at a time (pcparchive.Cursor), and a seek
// starts from the temporal index: memory and the time to move do not grow with the archive's
// length.
type archiveContext struct {
	a       *pcparchive.Archive
	byName  map[string]*pcparchive.Desc
	cur     *pcparchive.Cursor
	pending []pcparchive.Result // read ahead of the cursor, not given yet
	now     time.Time
	clock   atomic.Int64 // now, for the sampler's clock, read while a collection may run
	target  atomic.Int64 // UnixNano of the time fetches read up to; 0: none (the next record)
	first   time.Time
	second  time.Time // the second data record's, where the first rates are
	last    time.Time
	latest  map[uint32][]pmproxy.Value // by pmid: the values of its latest record so far
	fetched bool                       // a fetch has answered: a later one with nothing new is errNoNewSample
	// notYet says the headless commands read this archive, one of several, at a time before it
	// began: its host was not recorded then.
	notYet bool
	// extra are dcimon's own metrics (dcimon.*) a reading plan reads besides the mapping's.
	extra map[string]bool
	// prologue are the values of the records at the archive's start (what pmlogger logs
	// "once": hinv.ncpu, kernel.uname), the ground every seek starts from.
	prologue map[uint32][]pmproxy.Value
	// damage is the first damage met in the archive (a *pcparchive.DamageError): in its
	// metadata or index when opened, or where a read of a volume stopped (issue 30 item 9).
	damage atomic.Pointer[error]
}

// note keeps the first damage a read of the archive met (any error but its end).
func (x *archiveContext) note(err error) {
	if err != nil && !errors.Is(err, io.EOF) {
		x.damage.CompareAndSwap(nil, &err)
	}
}

// Damage is the damage met so far in the archives (a *pcparchive.DamageError each, joined): in
// a metadata file or index as it was opened, or in a volume, where the reading stopped. What
// was read before it has been given; a command that printed it then fails with this error
// (issue 30 item 9). nil while none was met.
func (as *Archives) Damage() error {
	var errs []error
	for _, x := range as.xs {
		if p := x.damage.Load(); p != nil {
			errs = append(errs, *p)
		}
	}
	return errors.Join(errs...)
}

// prologueSpan is how long after its first data record an archive's start lasts: pmlogger logs its
// "once" metrics with its first fetches.
const prologueSpan = 2 * time.Second

// openArchive reads an archive's metadata, its start and its end, and places it at its start.
// The end is found from the temporal index's last entry (the records after it are read); an
// archive without an index is read through once.
func openArchive(base string) (*archiveContext, error) {
	a, err := pcparchive.Open(base)
	if a == nil {
		return nil, err
	}
	x := &archiveContext{a: a, byName: map[string]*pcparchive.Desc{}, latest: map[uint32][]pmproxy.Value{},
		prologue: map[uint32][]pmproxy.Value{}}
	x.note(err) // damage of the metadata or index: what was before it is read
	for i := range a.Descs {
		for _, n := range a.Descs[i].Names {
			x.byName[n] = &a.Descs[i]
		}
	}
	if x.cur, err = a.Cursor(time.Time{}); err != nil {
		return nil, err
	}
	// The start: the first records, read ahead and kept for the fetches that follow; its
	// values are those up to prologueSpan after the first data record (pmlogger's own record
	// comes first, and its first fetch may come late on a loaded host).
	data := 0
	var firstData time.Time
	for len(x.pending) < 64 {
		r, err := x.cur.Next()
		if err != nil {
			x.note(err)
			if len(x.pending) == 0 {
				return nil, fmt.Errorf("archive %s: no records: %w", base, err)
			}
			break
		}
		x.pending = append(x.pending, r)
		if isData(r) {
			if data++; data == 1 {
				firstData = r.Time
			} else if data == 2 {
				x.second = r.Time
			}
		}
		if !firstData.IsZero() && r.Time.After(firstData.Add(prologueSpan)) {
			break
		}
		x.applyTo(x.prologue, r)
	}
	// The archive's span is its data's: pmlogger's own records before the first sample and after
	// the last (its prologue and epilogue hold only pmcd's metrics) are no samples (issue 30).
	x.first = x.pending[0].Time
	if !firstData.IsZero() {
		x.first = firstData
	}
	x.last = x.first
	for _, r := range x.pending {
		if isData(r) {
			x.last = r.Time
		}
	}
	if x.second.IsZero() {
		x.second = x.last
	}
	// The end: from the index's last entry but one (its last is often the end itself), or
	// from here without an index, read to the last record.
	from := -1
	if n := len(a.Index); n >= 2 && a.Index[n-2].Time.After(x.last) {
		from = n - 2
	}
	if c, err := a.CursorFrom(from); err == nil {
		for {
			r, err := c.Next()
			if err != nil {
				x.note(err)
				break // the end, or a damaged record: the archive ends before it
			}
			if isData(r) && r.Time.After(x.last) {
				x.last = r.Time
			}
		}
		c.Close()
	} else {
		x.note(err)
	}
	if x.second.After(x.last) {
		x.second = x.last
	}
	x.now = x.first
	x.clock.Store(x.now.UnixNano())
	return x, nil
}

// peek is the next record without taking it.
func (x *archiveContext) peek() (pcparchive.Result, error) {
	if len(x.pending) == 0 {
		r, err := x.cur.Next()
		if err != nil {
			x.note(err)
			return r, err
		}
		x.pending = append(x.pending, r)
	}
	return x.pending[0], nil
}

// next is the next record: one read ahead, else the cursor's.
func (x *archiveContext) next() (pcparchive.Result, error) {
	if len(x.pending) > 0 {
		r := x.pending[0]
		x.pending = x.pending[1:]
		return r, nil
	}
	r, err := x.cur.Next()
	x.note(err)
	return r, err
}

// apply takes a record's values as the latest of their metrics.
func (x *archiveContext) apply(r pcparchive.Result) { x.applyTo(x.latest, r) }

func (x *archiveContext) applyTo(latest map[uint32][]pmproxy.Value, r pcparchive.Result) {
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
		latest[s.PMID] = vals
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

// near is at kept to the archive's first or last sample when it is before or after it by less
// than one of its intervals: a time a user read off the archive to the second ("19:12:59" for a
// first sample at 19:12:59.532) means that sample (issue 30).
func (x *archiveContext) near(at time.Time) time.Time {
	step := x.second.Sub(x.first)
	if step <= 0 {
		step = time.Second
	}
	switch {
	case at.Before(x.first) && x.first.Sub(at) < step:
		return x.first
	case at.After(x.last) && at.Sub(x.last) < step:
		return x.last
	}
	return at
}

// outside is the error for a time the archive does not cover, saying what it does.
func (x *archiveContext) outside(at time.Time) error {
	first, last := x.Span()
	const ms = "2006-01-02 15:04:05.000" // precise enough to be true of samples a second apart
	return fmt.Errorf("archive %s: %s is outside it: its samples are from %s to %s", x.a.Base,
		at.Format(ms+" MST"), first.In(at.Location()).Format(ms), last.In(at.Location()).Format(ms+" MST"))
}

// ownClasses reads from dcimon's own names a class that dcimon record wrote whole under them
// (file systems: the PMDA's filesys has only those of a device, so the recording keeps tmpfs and
// a server's exports under dcimon.FS.fs.*, every file system named as dcimon names it). A class
// the archive has not whole so (any pmlogger archive) is read through the mapping as it is.
func (x *archiveContext) ownClasses(decl []*ns.Class, classes []pcpClass) {
	for k := range classes {
		pc := &classes[k]
		if pc.NameMetric == "" || pc.Fixed != nil || len(pc.Class.ID) < 2 {
			continue
		}
		// The path of the class's context, as the recording named it: its parent class's name
		// (a host's context of a fleet is not in it).
		var ctx string
		for _, c := range decl {
			if slices.Equal(c.ID, pc.Class.ID[:len(pc.Class.ID)-1]) {
				ctx = c.Name
			}
		}
		var own []pcpDatum
		for _, b := range pc.Datums {
			i := pc.Class.DatumIndex(ns.DatumID(b.Datum))
			if i < 0 {
				own = nil
				break
			}
			name := "dcimon." + recPathIn(ctx, pc.Class, &pc.Class.Datums[i])
			if x.byName[name] == nil {
				own = nil
				break
			}
			own = append(own, pcpDatum{Datum: b.Datum, Metric: name, Mult: 1})
		}
		if own == nil {
			continue
		}
		pc.Datums, pc.NameMetric, pc.NameAs, pc.InstText = own, "", nil, 0
		pc.expand()
	}
}

// ownColumns adds to a class's reading plan the datums the mapping does not read from the Linux
// PMDA but dcimon record wrote under its own names (dcimon.Host.threads, dcimon.Disk.disk.ro):
// a replay of dcimon's recording has them as live. Their values are as the datum held them, of
// the class's instance domain; fetches answer them from then on.
func (x *archiveContext) ownColumns(pc pcpClass, cols []pcpCol) []pcpCol {
	if pc.Class.Context() == nil {
		return cols
	}
	have := map[int]bool{}
	for _, c := range cols {
		have[c.at] = true
	}
	for i := range pc.Class.Datums {
		d := &pc.Class.Datums[i]
		if have[i] || d.IsDerived() || d.ID == ns.InvalidDatumID {
			continue
		}
		name := "dcimon." + recPath(pc.Class, d)
		desc := x.byName[name]
		if desc == nil {
			continue
		}
		if x.extra == nil {
			x.extra = map[string]bool{}
		}
		x.extra[name] = true
		cols = append(cols, pcpCol{at: i, metric: name, mult: 1, typ: ns.PMType(desc.Type).Word(), kind: colValue})
	}
	return cols
}

// errNoNewSample is a replay's fetch of an archive that has no sample since the last one read
// (a host of several whose next sample is after the others'): its classes keep their values.
var errNoNewSample = errors.New("no new sample in the archive")

// errNotRecordedThen is a replay's fetch of an archive at a time before it began (a host of
// several whose archive starts later): its classes are n/a, "not in the archive", never another
// time's values.
var errNotRecordedThen = errors.New("not recorded then")

// Fetch reads up to the target, or without one moves to the next record holding any of names,
// and answers each name's latest values.
func (x *archiveContext) Fetch(_ context.Context, names ...string) (*pmproxy.Fetched, error) {
	if x.notYet && x.target.Load() == 0 {
		return nil, errNotRecordedThen
	}
	if tg := x.target.Load(); tg != 0 {
		t := time.Unix(0, tg)
		if x.near(t).Before(x.first) {
			// A replay of several hosts whose cursor is before this one's archive began.
			return nil, errNotRecordedThen
		}
		n, err := x.readTo(t)
		if err != nil && !(errors.Is(err, collect.ErrArchiveEnd) && t.After(x.last)) {
			return nil, err
		}
		if n == 0 && x.fetched {
			// Nothing new by the cursor: a host sampled a little later than the others, or whose
			// archive has ended: its last values stay, timed as they were read (stale).
			return nil, errNoNewSample
		}
	} else if err := x.readNext(names); err != nil {
		return nil, err
	}
	f := &pmproxy.Fetched{Time: x.now, Values: map[string][]pmproxy.Value{}}
	for _, n := range names {
		if d := x.byName[n]; d != nil {
			if vs, ok := x.latest[d.PMID]; ok {
				f.Values[n] = vs
			}
		}
	}
	x.fetched = true
	for n := range x.extra { // dcimon's own metrics a plan reads (ownColumns)
		if vs, ok := x.latest[x.byName[n].PMID]; ok {
			f.Values[n] = vs
		}
	}
	return f, nil
}

// endErr is the error of a read past the archive's end (err io.EOF) or up to a record cut
// short (its writer killed, or out of room) or damaged: the archive ends before it, which is said.
func (x *archiveContext) endErr(err error) error {
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("archive %s: %w (%s)", x.a.Base, collect.ErrArchiveEnd, x.now.UTC().Format(time.RFC3339))
	}
	return fmt.Errorf("%w, after %s: %w", collect.ErrArchiveEnd, x.now.UTC().Format(time.RFC3339), err)
}

// readNext moves to the next record holding any of names.
func (x *archiveContext) readNext(names []string) error {
	want := map[uint32]bool{}
	for _, n := range names {
		if d := x.byName[n]; d != nil {
			want[d.PMID] = true
		}
	}
	for found := false; !found; {
		r, err := x.next()
		if err != nil {
			return x.endErr(err)
		}
		if isData(r) { // pmlogger's own records are no samples: their time is not a reading's
			x.now = r.Time
			x.clock.Store(x.now.UnixNano())
		}
		x.apply(r)
		for _, s := range r.Sets {
			found = found || want[s.PMID]
		}
	}
	return nil
}

// readTo reads every record up to t, and says how many. None there is not an error unless the
// archive has ended: the values stay those of the time read last (a host of several whose
// archive has no sample between two of the others').
func (x *archiveContext) readTo(t time.Time) (int, error) {
	n := 0
	for {
		r, err := x.peek()
		if err != nil {
			if !t.After(x.now) || (errors.Is(err, io.EOF) && !t.After(x.last)) {
				return n, nil
			}
			return n, x.endErr(err)
		}
		if r.Time.After(t) {
			return n, nil
		}
		x.pending = x.pending[1:]
		x.apply(r)
		if isData(r) { // pmlogger's own records are no samples: their time is not a reading's
			x.now = r.Time
			x.clock.Store(x.now.UnixNano())
			n++
		}
	}
}

// Labels are the archive's host, as its label names it.
// Labels are the archive's host, as its label names it, and its context's labels as recorded
// (the first context label set: pmlogger's pmcd's, dcimon record's host's).
func (x *archiveContext) Labels() (string, map[string]string) {
	out := map[string]string{"hostname": x.a.Label.Host}
	for _, ls := range x.a.Labels {
		if ls.Type&pcparchive.LabelContext == 0 || len(ls.Sets) == 0 {
			continue
		}
		var m map[string]any
		if json.Unmarshal([]byte(ls.Sets[0].JSON), &m) == nil {
			for k, v := range m {
				if s, ok := v.(string); ok {
					out[k] = s
				} else if b, err := json.Marshal(v); err == nil {
					out[k] = string(b)
				}
			}
		}
		break
	}
	return x.a.Label.Host, out
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
		pd := pmproxy.Desc{Name: n, PMID: pcparchive.PMIDString(d.PMID), Type: ns.PMType(d.Type).Word(), Sem: ns.PMSem(d.Sem).Word(),
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
		// Never described: no instance was ever recorded (dcimon's partitions of a host that
		// has none), which is no instance now.
		return nil, nil
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

// scales are the processor count and memory size the archive records at its start (1 and 0
// when it has none there), for the classes' scales: pmlogger logs them with its first samples.
func (x *archiveContext) scales() (int, uint64) {
	ncpu, mem := 1, uint64(0)
	first := func(name string) (uint64, bool) {
		d := x.byName[name]
		if d == nil || len(x.prologue[d.PMID]) != 1 {
			return 0, false
		}
		n, err := strconv.ParseUint(x.prologue[d.PMID][0].Text, 10, 64)
		return n, err == nil
	}
	if n, ok := first("hinv.ncpu"); ok && n > 0 && n < 1<<20 {
		ncpu = int(n)
	}
	if n, ok := first("mem.physmem"); ok && n < math.MaxUint64/1024 {
		mem = n * 1024
	}
	return ncpu, mem
}

// archiveText is a recorded value as pmproxy would send it: integers exactly, floats in
// full, strings as they are.
func archiveText(v pcparchive.Value, typ int32) (string, bool) {
	switch typ {
	case pcparchive.TypeString:
		return v.StringValue(), true
	case pcparchive.TypeAggr:
		return string(v.Block), true // dcimon's octet strings (an address): the bytes as they are
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

func archiveUnits(u uint32) string { return ns.UnpackPMUnits(u >> 8).String() }

// Archives are the PCP archives a source reads (one per host; several replay together as a
// fleet), through the same mapping as live hosts: their classes, each archive's whole name space
// under PCP, and each collection their next sample, or their samples up to a Replay's time.
type Archives struct {
	xs    []*archiveContext
	names []string // each archive's host, as the paths name it
}

// ArchiveProviders returns the providers of the hosts the PCP archives at bases recorded. With
// at, the first collection is the sample before at and the second the last one at or before it,
// so that rates are over the interval ending there; a time outside an archive is an error that
// says what the archive covers, unless clamp (the start of a series: from before the archive is
// from its start). Two archives of the same host are two hosts, the second named host~2.
func ArchiveProviders(bases []string, at time.Time, clamp bool) ([]collect.Provider, *Archives, error) {
	as := &Archives{}
	seen := map[string]int{}
	for _, base := range bases {
		x, err := openArchive(base)
		if err != nil {
			return nil, nil, err
		}
		name := x.a.Label.Host
		if seen[name]++; seen[name] > 1 {
			name += "~" + strconv.Itoa(seen[name])
		}
		as.xs, as.names = append(as.xs, x), append(as.names, name)
	}
	if !at.IsZero() {
		covered := false
		for _, x := range as.xs {
			n := x.near(at)
			covered = covered || (!n.Before(x.first) && !n.After(x.last))
		}
		for _, x := range as.xs {
			t := at
			switch n := x.near(at); {
			case clamp: // a series from before the start, or after the end
				t = collect.Within(t, x.first, x.last)
			case covered && n.Before(x.first):
				// One host of several whose archive begins later: not recorded then (issue 30).
				x.notYet, t = true, x.first
			case covered && n.After(x.last):
				t = x.last // one whose archive has ended: its last values, timed as they were
			}
			if err := x.Seek(t); err != nil {
				if p := x.damage.Load(); p != nil {
					// The archive seems to end early because a damaged record stopped the reading.
					err = errors.Join(*p, err)
				}
				return nil, nil, err
			}
		}
	}
	provs := make([]collect.Provider, len(as.xs))
	for i, x := range as.xs {
		h := &pcpHost{opt: Options{Hostspec: as.names[i], Interval: time.Second}, now: func() time.Time { return x.now },
			dial: func() (pcpContext, error) { return x, nil }}
		h.x = x
		ncpu, mem := x.scales()
		h.host, h.fleet, h.asn = Host{Name: as.names[i], Spec: x.a.Label.Host}, len(as.xs) > 1, FleetASNBase+uint32(i)
		h.start(ncpu, mem)
		spec := ns.EscapeName(as.names[i])
		h.sup = schema.Supplier(handlePCP+uint32(i), "archive:"+ns.Clip(spec, 56), ns.Clip("PCP archive of "+spec, 63),
			ns.Clip(fmt.Sprintf("The archive %s of host %s, from %s", ns.EscapeName(x.a.Base), ns.EscapeName(x.a.Label.Host),
				x.a.Label.Start.UTC().Format(time.RFC3339)), 255),
			ns.SPTGeneralSupplier, h.decl)
		provs[i] = h
	}
	return provs, as, nil
}

// Clock is the archives' time, the latest sample read of any: a sampler of them reads time
// from it, so that its readings are timed as the archives were, not by the wall clock.
func (as *Archives) Clock() time.Time {
	var t int64
	for _, x := range as.xs {
		if !x.notYet { // an archive not begun at the time asked for has no time of its own in it
			t = max(t, x.clock.Load())
		}
	}
	return time.Unix(0, t)
}

// Span is the time from the first archive's start to the last one's end.
func (as *Archives) Span() (first, last time.Time) {
	for i, x := range as.xs {
		f, l := x.Span()
		if i == 0 || f.Before(first) {
			first = f
		}
		if i == 0 || l.After(last) {
			last = l
		}
	}
	return first, last
}

// Hosts are the archives' hosts, as the paths name them.
func (as *Archives) Hosts() []string { return as.names }
