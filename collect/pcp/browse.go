package pcp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
	"dcimon/pmproxy"
)

// A remote host's whole PCP name space, browsable (issue 14): under each host, a context `PCP`
// mirrors the name space of its pmcd, every PMDA's metrics (kvm, xfs, openmetrics, ...), read a
// level at a time as it is explored. Each inner node of PCP's name space is a context (an
// uninstantiated lazy class, Class.Lazy); nothing is read below it until it is subscribed to
// (the monitor shows it, or a command's path goes through it). Then its children are listed
// (/pmapi/children) and its leaf metrics described (/pmapi/metric), and the sampler registers
// what was found (Grower), below the node's class, which never changes (DCI-NS-3: an
// instantiated class has no subclasses):
//
//   - each inner child, a lazy context of its own, not yet listed;
//   - the node's single values (kernel.all's), as the statistics of its context: a totals class
//     as CPU's, one datum a metric;
//   - the metrics of its largest instance domain, when they outnumber the single values
//     (disk.dev's), as a class whose instances are the node's subcontexts (`disk/dev/sda`);
//   - each other metric (the load averages among kernel.all's single values) in a context of
//     its own named by the metric, its one statistic `value` (`kernel/all/load/1 minute/value`).
//
// Every datum is made from the metric's PCP descriptor: type, semantics and units (a counter is
// shown as a rate), the one-line and long help texts and the labels, all of them escaped as any
// name from outside, and pmcd's own pmid and instance domain. Values are fetched only for the
// classes subscribed to, in the same request as the mapped classes'.

// pcpNSASN is the number of the `PCP` context below a host.
const pcpNSASN = 20

// pcpMaxDatums is how many metrics one class holds (the ordinary low bytes of a datum id); the
// rest of a node's metrics of the same domain are classes of their own.
const pcpMaxDatums = ns.MaxOrdinaryLow

// pcpTree is a host's PCP name space as far as it has been explored.
type pcpTree struct {
	nodes map[*ns.Class]*pcpNode      // by their current class; touched only under pcpHost.mu
	names map[string]map[int64]string // instance names by instance domain, per context

	mu    sync.Mutex  // guards grown: Grown may be called while a late Collect still runs
	grown []*ns.Class // found since the sampler last asked
}

// pcpNode is one class of the PCP name space: an inner node of PCP's (a context, listed once),
// or a class of metrics (their names, PCP types, factors to the datums' units and instance
// domain; class.Datums[i] is metrics[i]).
type pcpNode struct {
	prefix string // the PCP name: "kernel.all", "kernel.all.load"; "" for the root
	class  *ns.Class
	listed bool // an inner node's children have been read
	kids   map[string]uint32
	next   uint32

	metrics []string
	types   []string
	mults   []float64
	indom   string
}

func newPCPTree(root *ns.Class) *pcpTree {
	t := &pcpTree{nodes: map[*ns.Class]*pcpNode{}}
	t.nodes[root] = &pcpNode{class: root, kids: map[string]uint32{}}
	return t
}

// pcpRootClass is the `PCP` context of a host.
func pcpRootClass() *ns.Class {
	return &ns.Class{ID: ns.ClassID{pcpNSASN}, Name: "PCP", Desc: "The host's whole PCP name space", Flags: ns.ClassEnabled,
		OnDemand: true, Lazy: true,
		Help: "Every metric of every PMDA of the host's pmcd, as PCP names them, read a level at a time when a context is " +
			"opened: each inner node of PCP's name space is a context, each leaf metric a statistic (a counter shown as a rate)."}
}

// Grown returns the classes found since the last call (collect.Grower).
func (h *pcpHost) Grown() []*ns.Class {
	if h.tree == nil {
		return nil
	}
	h.tree.mu.Lock()
	defer h.tree.mu.Unlock()
	g := h.tree.grown
	h.tree.grown = nil
	return g
}

// wanted are the inner nodes the request names that are not listed yet, and the classes of
// metrics it names, in a stable order.
func (t *pcpTree) wanted(req collect.Request) (unlisted, read []*pcpNode) {
	for c, n := range t.nodes {
		switch {
		case !req.Classes[c]: // never by a request for every class: that would explore it all
		case len(n.metrics) > 0:
			read = append(read, n)
		case !n.listed:
			unlisted = append(unlisted, n)
		}
	}
	byID := func(a, b *pcpNode) int { return strings.Compare(a.class.ID.String(), b.class.ID.String()) }
	slices.SortFunc(unlisted, byID)
	slices.SortFunc(read, byID)
	return unlisted, read
}

// metricNames are the metrics of the nodes to read, for the fetch.
func metricNames(read []*pcpNode) []string {
	var out []string
	for _, n := range read {
		for i, m := range n.metrics {
			if n.mults[i] != 0 {
				out = append(out, m)
			}
		}
	}
	return out
}

// helpReader is a context whose descriptors come without help texts unless asked for (pmcd's
// protocol asks for each text apart): the browser asks, for the classes it makes.
type helpReader interface {
	MetricsWithHelp(ctx context.Context, names ...string) ([]pmproxy.Desc, error)
}

// list reads what lies below node n and makes its classes, for the sampler to register.
func (h *pcpHost) list(ctx context.Context, n *pcpNode) error {
	leaves, inner, err := h.x.Children(ctx, n.prefix)
	if err != nil {
		return err
	}
	full := func(name string) string {
		if n.prefix == "" {
			return name
		}
		return n.prefix + "." + name
	}
	var descs []pmproxy.Desc
	if len(leaves) > 0 {
		names := make([]string, len(leaves))
		for i, l := range leaves {
			names[i] = full(l)
		}
		// A metric whose PMDA does not answer is left out; the others are described.
		if hx, ok := h.x.(helpReader); ok {
			descs, err = hx.MetricsWithHelp(ctx, names...)
		} else {
			descs, err = h.x.Metrics(ctx, names...)
		}
		if err != nil && !errors.Is(err, pmproxy.ErrUnknownMetric) {
			return err
		}
	}
	var grown []*ns.Class
	add := func(kid *pcpNode) {
		h.tree.nodes[kid.class] = kid
		grown = append(grown, kid.class)
	}
	nodeAt := func(id ns.ClassID, name, prefix string, listed bool) *pcpNode {
		kid := &pcpNode{prefix: prefix, listed: listed}
		kid.class = &ns.Class{ID: id, Name: ns.InstanceName(name), Desc: ns.Clip("PCP "+ns.EscapeName(prefix), ns.SiMaxLName-1),
			Flags: ns.ClassEnabled, OnDemand: true, Lazy: true,
			Help: "A node of the PCP name space (" + ns.EscapeName(prefix) + "); what is below it is read when it is opened."}
		return kid
	}
	for _, name := range inner {
		add(nodeAt(n.childID(name), name, full(name), false))
	}
	byDom := map[string][]pmproxy.Desc{}
	for _, d := range descs {
		byDom[d.InDom] = append(byDom[d.InDom], d)
	}
	// The node's own statistics: its single values, and the metrics of its largest instance
	// domain when they outnumber those; at most pcpMaxDatums of each. The rest are loose.
	var loose []pmproxy.Desc
	take := func(ds []pmproxy.Desc) []pmproxy.Desc {
		if len(ds) > pcpMaxDatums {
			loose = append(loose, ds[pcpMaxDatums:]...)
			return ds[:pcpMaxDatums]
		}
		return ds
	}
	main, best := "", len(byDom[""])
	for _, dom := range slices.Sorted(maps.Keys(byDom)) {
		if k := len(byDom[dom]); dom != "" && k > best {
			main, best = dom, k
		}
	}
	for _, dom := range slices.Sorted(maps.Keys(byDom)) {
		switch {
		case dom == "" && n.prefix != "":
			add(h.metricsClass(n.childID("\x00values"), n.class.Name, n.prefix, "", take(byDom[dom])))
		case dom != "" && dom == main && n.prefix != "":
			add(h.metricsClass(n.childID("\x00instances"), n.class.Name, n.prefix, dom, take(byDom[dom])))
		default:
			loose = append(loose, byDom[dom]...)
		}
	}
	slices.SortFunc(loose, func(a, b pmproxy.Desc) int { return strings.Compare(a.Name, b.Name) })
	for _, d := range loose {
		leaf := d.Name[strings.LastIndexByte(d.Name, '.')+1:]
		at := nodeAt(n.childID(leaf), leaf, d.Name, true)
		at.class.Desc = ns.Clip(ns.EscapeName(oneLine(d)), ns.SiMaxLName-1)
		add(at)
		add(h.metricsClass(at.class.ID.Child(1), at.class.Name, d.Name, d.InDom, []pmproxy.Desc{d}))
	}
	n.listed = true
	h.tree.mu.Lock()
	h.tree.grown = append(h.tree.grown, grown...)
	h.tree.mu.Unlock()
	return nil
}

// childID is the class id of n's child name: numbered in the order children are first seen,
// and the same number for the same name as long as dcimon runs.
func (n *pcpNode) childID(name string) ns.ClassID {
	k, ok := n.kids[name]
	if !ok {
		n.next++
		k = n.next
		if n.kids == nil {
			n.kids = map[string]uint32{}
		}
		n.kids[name] = k
	}
	return n.class.ID.Child(k)
}

// metricsClass is the class of the metrics descs, of instance domain dom ("" for single values,
// the statistics of its parent's context), at id. A lone metric in a context of its own has the
// one datum `value`.
func (h *pcpHost) metricsClass(id ns.ClassID, name, prefix, dom string, descs []pmproxy.Desc) *pcpNode {
	c := &ns.Class{ID: id, Name: name, Flags: ns.ClassEnabled, OnDemand: true, Lazy: true}
	n := &pcpNode{prefix: prefix, class: c, indom: dom, listed: true}
	lone := len(descs) == 1 && descs[0].Name == prefix
	for i, d := range descs {
		dname := d.Name[strings.LastIndexByte(d.Name, '.')+1:]
		if lone {
			dname = "value"
		}
		dat, mult := pcpBrowseDatum(uint8(i+1), ns.InstanceName(dname), d)
		c.Datums = append(c.Datums, dat)
		n.metrics, n.types, n.mults = append(n.metrics, d.Name), append(n.types, d.Type), append(n.mults, mult)
	}
	where := "the PCP metrics of " + ns.EscapeName(prefix)
	if lone {
		where = "the PCP metric " + ns.EscapeName(prefix)
		c.Desc = ns.Clip(ns.EscapeName(oneLine(descs[0])), ns.SiMaxLName-1)
	} else {
		c.Desc = ns.Clip("PCP "+ns.EscapeName(prefix), ns.SiMaxLName-1)
	}
	if dom == "" {
		c.Levels, c.Totals = schema.SingleLevel(), true
		c.Help = "Single values: " + where + " that have no instance domain."
	} else {
		c.Levels = []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagEnumeration, Size: 4}}
		c.InstFreq = ns.SiContInst
		c.Help = "One instance of PCP instance domain " + ns.EscapeName(dom) + ": " + where + " in that domain. Instance value: PCP's instance number."
	}
	return n
}

// oneLine is a metric's one-line help, or its name when it has none.
func oneLine(d pmproxy.Desc) string {
	if s := strings.TrimSpace(d.OneLine); s != "" && !strings.HasPrefix(s, "<no ") {
		return s
	}
	return d.Name
}

// pcpBrowseDatum is the datum of one PCP metric, from its descriptor, and the factor from its
// values to the datum's unit (0: not a value dcimon can show, such as an aggregate).
func pcpBrowseDatum(low uint8, name string, d pmproxy.Desc) (ns.Datum, float64) {
	desc := ns.Clip(ns.EscapeName(oneLine(d)), ns.SiMaxLName-1)
	src := "PCP metric " + d.Name
	u := ns.PCPUnitsOf(d.Units)
	help := ns.EscapeName(strings.TrimSpace(d.Help))
	if help == "" || strings.HasPrefix(help, "<no ") {
		help = ns.EscapeName(oneLine(d))
	}
	help += fmt.Sprintf(" PCP metric %s (pmid %s, type %s, semantics %s, units %s", ns.EscapeName(d.Name), ns.EscapeName(d.PMID),
		ns.EscapeName(d.Type), ns.EscapeName(d.Sem), ns.EscapeName(d.Units))
	if d.InDom != "" {
		help += ", instance domain " + ns.EscapeName(d.InDom)
	}
	help += ")."
	if len(d.Labels) > 0 {
		var ls []string
		for _, k := range slices.Sorted(maps.Keys(d.Labels)) {
			ls = append(ls, ns.EscapeName(k)+"="+ns.EscapeName(fmt.Sprint(d.Labels[k])))
		}
		help += " Labels: " + strings.Join(ls, ", ") + "."
	}
	mult := u.Mult
	var t ns.DataType
	switch d.Type {
	case "u32":
		t = ns.TypeUint4
	case "u64":
		t = ns.TypeUint8
	case "32":
		t = ns.TypeInt4
	case "64":
		t = ns.TypeInt8
	case "float", "double":
		// Decimals are kept in the next finer unit (milliseconds for seconds, millionths of a
		// plain number), as a user's statistics are.
		t = ns.TypeInt8
		if len(u.Finer) > 0 {
			next := u.Finer[0]
			if next == ns.UnitMicroUnits {
				mult *= 1e6
			} else {
				mult *= 1000
			}
			u.Unit = next
		}
	case "string":
		dat := ns.Text(low, name, desc, src).WithVolatility(ns.SVVolatile).WithHelp(help).WithPCPName(d.Name)
		dat.DCI4.Size = 256
		dat.PCP.PMID, dat.PCP.InDom = d.PMID, d.InDom
		return dat, 1
	default:
		dat := ns.Text(low, name, desc, src).WithHelp(help + " Values of PCP type " + ns.EscapeName(d.Type) + " are not shown.").WithPCPName(d.Name)
		dat.DCI4.Size = 4
		dat.PCP.PMID, dat.PCP.InDom = d.PMID, d.InDom
		return dat, 0
	}
	var dat ns.Datum
	switch d.Sem {
	case "counter":
		if t == ns.TypeInt4 {
			t = ns.TypeUint4
		} else if t == ns.TypeInt8 {
			t = ns.TypeUint8
		}
		dat = ns.Counter(low, name, t, u.Unit, desc, src)
	case "discrete":
		dat = ns.Discrete(low, name, t, u.Unit, desc, src).WithVolatility(ns.SVVolatile)
	default:
		dat = ns.Gauge(low, name, t, u.Unit, desc, src)
	}
	if !u.PM.IsZero() {
		dat.PCP.Units = u.PM
	}
	// PCP has no unit for a point in time: seconds since the epoch are declared as seconds. A
	// boot time or a time stamp is shown as a date, not as 500,000 hours.
	leaf := d.Name[strings.LastIndexByte(d.Name, '.')+1:]
	if d.Sem != "counter" && u.Unit == ns.UnitSecs && mult == 1 && (strings.Contains(leaf, "boottime") || strings.Contains(leaf, "timestamp")) {
		dat = dat.WithDCI4(ns.STTime, ns.STFCTime, ns.STPAbsolute)
	}
	dat.PCP.PMID, dat.PCP.InDom = d.PMID, d.InDom
	return dat.WithHelp(help).WithPCPName(d.Name), mult
}

// readNode is one reading of a listed node's class from a fetch.
func (h *pcpHost) readNode(ctx context.Context, n *pcpNode, f *pmproxy.Fetched) collect.ClassReading {
	c := n.class
	nd := len(c.Datums)
	if n.indom == "" {
		raw := make([]ns.Raw, nd)
		h.fillNode(raw, n, f, -1)
		return collect.ClassReading{Class: c, Specs: schema.SingleSpecs(), Raw: raw}
	}
	// The instances are those any of the node's metrics has a value for now.
	seen := map[int64]bool{}
	for _, m := range n.metrics {
		for _, v := range f.Get(m) {
			seen[v.Instance] = v.Instance >= 0
		}
	}
	var ids []int64
	for id, ok := range seen {
		if ok {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	names, err := h.domNames(ctx, n.indom, ids)
	if err != nil {
		return collect.ClassReading{Class: c, Err: err}
	}
	specs := make([]ns.InstanceSpec, 0, len(ids))
	raw := make([]ns.Raw, 0, nd*len(ids))
	for _, id := range ids {
		name, ok := names[id]
		if !ok {
			continue // not in the domain's list even when read again: not shown
		}
		specs = append(specs, ns.InstanceSpec{Levels: []uint64{uint64(id)}, OSName: name, ASN: schema.ASNFor(uint64(id) + 1),
			Desc: ns.Clip(ns.EscapeName(name), ns.SiMaxLName-1)})
		raw = raw[:len(raw)+nd]
		h.fillNode(raw[len(raw)-nd:], n, f, id)
	}
	return collect.ClassReading{Class: c, Specs: specs, Raw: raw}
}

// domNames are the names of an instance domain's instances, read again when ids has one not
// seen before.
func (h *pcpHost) domNames(ctx context.Context, dom string, ids []int64) (map[int64]string, error) {
	if h.tree.names == nil {
		h.tree.names = map[string]map[int64]string{}
	}
	names := h.tree.names[dom]
	fresh := names != nil
	for _, id := range ids {
		if _, ok := names[id]; !ok {
			fresh = false
			break
		}
	}
	if fresh {
		return names, nil
	}
	insts, err := h.x.InDom(ctx, dom)
	if err != nil {
		return nil, err
	}
	names = make(map[int64]string, len(insts))
	for _, in := range insts {
		names[in.ID] = in.Name
	}
	h.tree.names[dom] = names
	return names, nil
}

// fillNode fills one instance's values (inst -1 for single values): a metric with no value for
// it now has no value, with that reason, never 0.
func (h *pcpHost) fillNode(row []ns.Raw, n *pcpNode, f *pmproxy.Fetched, inst int64) {
	for i, m := range n.metrics {
		if n.mults[i] == 0 {
			row[i] = ns.RawNA(ns.ReasonNotSupported)
			continue
		}
		v, ok := f.Lookup(m, inst)
		if !ok {
			row[i] = ns.RawNA(ns.ReasonNoValues)
			continue
		}
		if n.types[i] == "string" {
			row[i] = ns.RawS(ns.Clip(v.Text, 255))
			continue
		}
		row[i] = pcpRaw(v, n.types[i], n.mults[i])
	}
}
