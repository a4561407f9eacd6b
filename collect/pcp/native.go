package pcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	ns "dcimon/namespace"
	"dcimon/pcpwire"
	"dcimon/pmcd"
	"dcimon/pmproxy"
)

// nativeContext is a host's pmcd reached over PCP's own protocol (package pmcd), as pmval,
// pmrep and pcp-htop reach it: one connection of its own. A connection is made by a goroutine
// of the host's own, off the collection path (redial.go), and a context whose connection broke
// (pmcd restarted, a deadline missed in the middle of an answer) answers errNotConnected until
// the host takes a new one. Its generation counts the connections, and the fetches before which
// pmcd said its agents or names changed: a new generation has the host read its descriptors
// again, and no rate is taken across it.
//
// It is used by one goroutine at a time (its dialler's, then its host's, under the host's lock).
type nativeContext struct {
	spec pmcd.Hostspec
	conn *pmcd.Conn
	gen  uint64

	host   string
	labels map[string]string

	// What pmcd said of the names asked for, for this generation: each name's pmid (PMIDNull
	// where pmcd knows none) and each pmid's descriptor.
	// Another host's pmcd that said the same shares the two maps (shared: never written to
	// then; native_share.go).
	ids    map[string]uint32
	descs  map[uint32]pcpwire.Desc
	shared bool

	// A fetch's scratch, kept from one fetch to the next: the names last asked for, the pmids
	// fetched for them and which name each is (the contexts that fetch the same names under
	// the same maps share them, never written to: fetchLists), and the values made of the
	// result.
	lastNames []string
	pmids     []uint32
	of        []int
	types     []int32        // each pmid's type, as its descriptor says
	sets      map[string]int // each name's place among pmids (its set in an answer)
	pos       map[string]int // each name's position in lastNames (sharedPositions)
	out       pmproxy.Fetched
	vals      []pmproxy.Value
}

func newNativeContext(spec pmcd.Hostspec) *nativeContext {
	return &nativeContext{spec: spec}
}

// connect dials the pmcd when there is no connection and reads its context labels (its host
// name among them). Only the host's dialler calls it (dialNative).
func (x *nativeContext) connect(ctx context.Context) error {
	if x.conn != nil {
		return nil
	}
	c, err := pmcd.DialSpec(ctx, x.spec, pmcd.Options{})
	if err != nil {
		return err
	}
	sets, err := c.Labels(ctx, pcpwire.LabelContext, 0)
	if err != nil && c.Broken() {
		c.Close()
		return err
	}
	x.host, x.labels = x.spec.Host, map[string]string{}
	if len(sets) > 0 {
		for _, l := range sets[0].Labels {
			x.labels[l.Name] = labelText(l.Value)
		}
	}
	if h := x.labels["hostname"]; h != "" {
		x.host = h
	}
	x.conn = c
	x.renew()
	return nil
}

// ready says whether there is a connection to ask on; a collection never dials.
func (x *nativeContext) ready() error {
	if x.conn == nil {
		return fmt.Errorf("pmcd %s: %w", x.spec, errNotConnected)
	}
	return nil
}

// renew starts a generation: what was read of the name space is forgotten.
func (x *nativeContext) renew() {
	x.gen++
	x.ids, x.descs, x.shared = map[string]uint32{}, map[uint32]pcpwire.Desc{}, false
	x.lastNames = nil
}

// labelText is a label's JSON value as text: a string without its quotes, anything else as sent.
func labelText(v string) string {
	var s string
	if strings.HasPrefix(v, `"`) && json.Unmarshal([]byte(v), &s) == nil {
		return s
	}
	return v
}

// check drops the connection after an error that broke it (anything but a code pmcd sent,
// a deadline among them): the next request dials again.
func (x *nativeContext) check(err error) error {
	if err != nil && x.conn != nil && x.conn.Broken() {
		x.conn.Close()
		x.conn = nil
	}
	return err
}

// Close ends the connection.
func (x *nativeContext) Close() {
	if x.conn != nil {
		x.conn.Close()
		x.conn = nil
	}
}

// Generation counts the connections and the state changes that made what was read stale.
func (x *nativeContext) Generation() uint64 { return x.gen }

// Labels are pmcd's host name and context labels, as its last connection gave them.
func (x *nativeContext) Labels() (string, map[string]string) { return x.host, x.labels }

// resolve makes sure of the pmid and descriptor of each name, asking pmcd for those not known in
// this generation: the names in as few PDUs as its limits allow, the descriptors in batches.
func (x *nativeContext) resolve(ctx context.Context, names []string) error {
	var ask []string
	for _, n := range names {
		if _, ok := x.ids[n]; !ok && !slices.Contains(ask, n) {
			ask = append(ask, n)
		}
	}
	if len(ask) == 0 {
		return nil
	}
	ids, err := x.conn.LookupNames(ctx, ask, nil)
	if err != nil {
		return x.check(err)
	}
	x.own()
	var need []uint32
	for i, n := range ask {
		x.ids[n] = ids[i]
		if _, ok := x.descs[ids[i]]; !ok && ids[i] != pcpwire.PMIDNull {
			need = append(need, ids[i])
		}
	}
	if len(need) > 0 {
		ds, err := x.conn.Descs(ctx, need, nil)
		if err != nil {
			return x.check(err)
		}
		for i, d := range ds {
			x.descs[need[i]] = d // PMIDNull: pmcd has the name and no descriptor (its agent is gone)
		}
	}
	x.share()
	return nil
}

// desc is name's descriptor, when pmcd has it.
func (x *nativeContext) desc(name string) (pcpwire.Desc, bool) {
	id, ok := x.ids[name]
	if !ok || id == pcpwire.PMIDNull {
		return pcpwire.Desc{}, false
	}
	d, ok := x.descs[id]
	return d, ok && d.PMID != pcpwire.PMIDNull
}

// Metrics describes names as pmproxy would, without help texts; a name pmcd lacks is
// ErrUnknownMetric, the others described.
func (x *nativeContext) Metrics(ctx context.Context, names ...string) ([]pmproxy.Desc, error) {
	if err := x.ready(); err != nil {
		return nil, err
	}
	if err := x.resolve(ctx, names); err != nil {
		return nil, err
	}
	out := make([]pmproxy.Desc, 0, len(names))
	var missing []string
	for _, n := range names {
		d, ok := x.desc(n)
		if !ok {
			missing = append(missing, n)
			continue
		}
		pd := pmproxy.Desc{Name: n, PMID: pcpwire.PMIDString(d.PMID), Type: ns.PMType(d.Type).Word(), Sem: ns.PMSem(d.Sem).Word(),
			Units: ns.UnpackPMUnits(uint32(d.Units) >> 8).String()}
		if d.InDom != pcpwire.InDomNull {
			pd.InDom = pcpwire.InDomString(d.InDom)
		}
		out = append(out, pd)
	}
	if len(missing) > 0 {
		return out, fmt.Errorf("pmcd %s: %w: %s", x.spec, pmproxy.ErrUnknownMetric, strings.Join(missing, ", "))
	}
	return out, nil
}

// MetricsWithHelp is Metrics with each metric's one-line and whole help texts: the name space
// browser's descriptions. pmcd's protocol asks for each text apart, so the mapped metrics, read
// at each connection, go without.
func (x *nativeContext) MetricsWithHelp(ctx context.Context, names ...string) ([]pmproxy.Desc, error) {
	out, err := x.Metrics(ctx, names...)
	if len(out) == 0 || (err != nil && !errors.Is(err, pmproxy.ErrUnknownMetric)) {
		return out, err
	}
	ids := make([]uint32, len(out))
	for i, d := range out {
		ids[i] = x.ids[d.Name]
	}
	one, terr := x.conn.Texts(ctx, ids, pcpwire.TextOneLine|pcpwire.TextPMID)
	if terr != nil {
		return out, x.check(terr)
	}
	help, terr := x.conn.Texts(ctx, ids, pcpwire.TextHelp|pcpwire.TextPMID)
	if terr != nil {
		return out, x.check(terr)
	}
	for i := range out {
		out[i].OneLine, out[i].Help = one[i], help[i]
		if out[i].Help == "" {
			out[i].Help = one[i] // as pmLookupText gives it
		}
	}
	return out, err
}

// parseInDom reads an instance domain as PCP prints it (domain.serial).
func parseInDom(s string) (uint32, error) {
	d, serial, ok := strings.Cut(s, ".")
	dom, err1 := strconv.ParseUint(d, 10, 9)
	ser, err2 := strconv.ParseUint(serial, 10, 22)
	if !ok || err1 != nil || err2 != nil {
		return 0, fmt.Errorf("instance domain %q: want DOMAIN.SERIAL", s)
	}
	return uint32(dom)<<22 | uint32(ser), nil
}

// InDom lists the instances of an instance domain.
func (x *nativeContext) InDom(ctx context.Context, indom string) ([]pmproxy.Instance, error) {
	id, err := parseInDom(indom)
	if err != nil {
		return nil, err
	}
	if err := x.ready(); err != nil {
		return nil, err
	}
	insts, err := x.conn.InDom(ctx, id)
	if err != nil {
		return nil, x.check(err)
	}
	out := make([]pmproxy.Instance, len(insts))
	for i, in := range insts {
		out[i] = pmproxy.Instance{ID: int64(in.ID), Name: in.Name}
	}
	return out, nil
}

// Children is the name space below prefix: its metrics and its nodes, each in order.
func (x *nativeContext) Children(ctx context.Context, prefix string) (leaf, nonleaf []string, err error) {
	if err := x.ready(); err != nil {
		return nil, nil, err
	}
	kids, err := x.conn.Children(ctx, prefix)
	if err != nil {
		return nil, nil, x.check(err)
	}
	for _, k := range kids {
		if k.Leaf {
			leaf = append(leaf, k.Name)
		} else {
			nonleaf = append(nonleaf, k.Name)
		}
	}
	slices.Sort(leaf)
	slices.Sort(nonleaf)
	return leaf, nonleaf, nil
}

// Fetch reads the values of names in one PDU_FETCH. A name with no values (pmcd knows no such
// metric, its agent said why there are none, or it has no instance now) is absent from Values,
// as pmproxy leaves it out. The Fetched is the context's own, valid until its next fetch; its
// numbers are decoded already (no text made or parsed).
func (x *nativeContext) Fetch(ctx context.Context, names ...string) (*pmproxy.Fetched, error) {
	return x.fetchInto(ctx, names, nil)
}

// fetchInto is Fetch where into, when not nil, is given pmcd's answer first: when it read the
// answer (true: a host that decodes it straight into its raw rows, native_direct.go) no
// Fetched is made, and the Fetched is nil; the context's values by position are then let go
// (issue 38 item 1: 20 KB a host).
func (x *nativeContext) fetchInto(ctx context.Context, names []string, into func(*pcpwire.Result) bool) (*pmproxy.Fetched, error) {
	if err := x.ready(); err != nil {
		return nil, err
	}
	if !slices.Equal(names, x.lastNames) {
		if err := x.resolve(ctx, names); err != nil {
			return nil, err
		}
		np := sharedNames(names)
		x.lastNames, x.pos = np.names, np.pos
		l := x.fetchLists(np.names)
		x.pmids, x.of, x.types, x.sets = l.pmids, l.of, l.types, l.sets
	}
	if len(x.pmids) == 0 {
		return nil, fmt.Errorf("pmcd %s: %w: %s", x.spec, pmproxy.ErrUnknownMetric, strings.Join(names, ", "))
	}
	// The values are decoded under the names and descriptors they were asked with, from a
	// result that is pmcd.Conn's only while they are (FetchFunc).
	var f *pmproxy.Fetched
	direct := false
	changes, err := x.conn.FetchFunc(ctx, x.pmids, func(_ int32, res *pcpwire.Result) {
		if direct = into != nil && into(res); !direct {
			f = x.decode(res)
		}
	})
	if err != nil {
		return nil, x.check(err)
	}
	if direct {
		x.vals, x.out = nil, pmproxy.Fetched{}
	}
	if changes&(pcpwire.ChangeAgent|pcpwire.ChangeNames) != 0 {
		// An agent came, went or restarted, or the names changed, before these values were
		// taken: they are the new state's, read under a new generation, and the descriptors
		// and pmids are asked for again at the next request. (Renewed before decoding, the
		// names asked for were gone: a panic, issue 38.)
		x.renew()
	}
	return f, nil
}

// decode makes the Fetched of a fetch's result: each set's values at its name's position
// (no map of values by name a host), numbers as numbers, into slices of one array kept from
// fetch to fetch.
func (x *nativeContext) decode(res *pcpwire.Result) *pmproxy.Fetched {
	f := &x.out
	f.ReuseAt(res.Time, x.pos, len(x.lastNames))
	n := 0
	for _, s := range res.Sets {
		n += len(s.Values)
	}
	// The last fetch's values stay in the array until overwritten: a string value the same as
	// the one in its place last time (a mount point, a device name) keeps that one's text.
	prev := len(x.vals)
	x.vals = slices.Grow(x.vals[:0], n)[:n]
	at := 0
	names := x.lastNames
	for i, s := range res.Sets {
		if s.Err != 0 && i < len(x.of) {
			// Why the metric has no values (the proc PMDA's "No permission"), for the class
			// that reads it to say (issue 40 item 5).
			if f.Errs == nil {
				f.Errs = map[string]int32{}
			}
			f.Errs[names[x.of[i]]] = int32(s.Err)
		}
		if s.Err != 0 || len(s.Values) == 0 || i >= len(x.of) {
			continue
		}
		// The sets come in the order asked for: the pmid's type is known by its place, unless
		// pmcd answered another pmid there.
		var typ int32
		if i < len(x.pmids) && s.PMID == x.pmids[i] {
			typ = x.types[i]
		} else {
			typ = x.descs[s.PMID].Type
		}
		start := at
		for _, v := range s.Values {
			if typ == pcpwire.TypeString && at < prev && !v.Insitu {
				if old := x.vals[at]; old.Instance == int64(v.Inst) && old.Text != "" && old.Text == string(stringOf(v.Block)) {
					at++
					continue
				}
			}
			x.vals[at] = nativeValue(v, typ)
			at++
		}
		f.SetAt(x.of[i], x.vals[start:at:at])
	}
	x.vals = x.vals[:at]
	return f
}

// stringOf is a string value's bytes up to its NUL, for comparing (no copy is made).
func stringOf(b []byte) []byte {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return b[:i]
	}
	return b
}

// nativeValue is one value as its descriptor's type says: a number decoded, a string's text, an
// aggregate's bytes; a value not sent as its type is text that reads as no number, so that the
// host's reading says what came.
func nativeValue(v pcpwire.Value, typ int32) pmproxy.Value {
	inst := int64(v.Inst)
	switch typ {
	case pcpwire.Type32, pcpwire.Type64:
		if n, err := v.Uint64(typ); err == nil {
			return pmproxy.Int(inst, int64(n))
		}
	case pcpwire.TypeU32, pcpwire.TypeU64:
		if n, err := v.Uint64(typ); err == nil {
			return pmproxy.Uint(inst, n)
		}
	case pcpwire.TypeFloat, pcpwire.TypeDouble:
		if f, err := v.Float64(typ); err == nil {
			return pmproxy.Float(inst, f)
		}
	case pcpwire.TypeString:
		if !v.Insitu {
			return pmproxy.Value{Instance: inst, Text: v.StringValue()}
		}
	case pcpwire.TypeAggregate:
		if !v.Insitu {
			return pmproxy.Value{Instance: inst, Text: string(v.Block)}
		}
	}
	return pmproxy.Value{Instance: inst, Text: fmt.Sprintf("<type %d sent as %s>", typ, shape(v))}
}

func shape(v pcpwire.Value) string {
	if v.Insitu {
		return "a 32-bit word"
	}
	return fmt.Sprintf("a block of %d bytes", len(v.Block))
}

// NativeDeadline is the collection deadline for a source of n hosts read over PCP's own
// protocol: each host has its own connection and asks at once, so 2 s, and a millisecond more
// a host for the CPU that decodes them all (a thousand hosts: 3 s).
func NativeDeadline(n int) time.Duration {
	return 2*time.Second + time.Duration(n)*time.Millisecond
}
