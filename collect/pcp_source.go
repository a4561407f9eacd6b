package collect

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	ns "dcimon/namespace"
	"dcimon/pmproxy"
)

// A remote host through Performance Co-Pilot (issue 14): the same classes as the local
// providers, filled from the standard Linux PMDA's metrics that pmproxy serves. The mapping is
// one table (pcpMapping): for each class, where its instances come from and, for each datum,
// the PCP metric and how its units become the datum's. A datum the table does not name is not
// supported on the remote host, never invented. So far the table maps the CPU and Mem classes;
// the others (Disk, NetIf, Host, ...) are not read remotely yet.

// PCPOptions choose a remote host.
type PCPOptions struct {
	URL      string // pcp://PROXY[:PORT] or pcps://...
	Password string // for a user in the URL; never in the URL itself
	Hostspec string // the pmcd, as pmproxy reaches it: "web1", "10.0.0.5:44321"
	// Interval is how often the monitor reads; the pmproxy context is kept alive longer than it.
	Interval time.Duration
	// ProbeDeadline bounds the one request before the first collection (processor count and
	// memory size, for scales); 2 s when zero.
	ProbeDeadline time.Duration
}

// pcpDatum is where one datum comes from: a PCP metric, and the factor from its units to the
// datum's (0: from the two descriptors' units, pmConvScale).
type pcpDatum struct {
	low    uint8
	metric string
	mult   float64
}

// pcpClass is one class of a remote host: its instances are the instances of its first
// metric's domain (none for a single-instance class), named by inst.
type pcpClass struct {
	class  *ns.Class
	inst   func(name string) (level uint64, ok bool)
	datums []pcpDatum
}

// cpuNumber reads "cpu12" as 12: the Linux PMDA names processors as /proc/stat does.
func cpuNumber(name string) (uint64, bool) {
	n, err := strconv.ParseUint(strings.TrimPrefix(name, "cpu"), 10, 32)
	return n, err == nil && strings.HasPrefix(name, "cpu")
}

// pcpMapping is the one table from PCP's Linux PMDA to dcimon's classes (issue 14; the archives
// of issue 15 are to use it too).
func pcpMapping(ncpu int, memTotal uint64) (decl []*ns.Class, classes []pcpClass) {
	cpuTop, cpuTotal, cpuPer := cpuClasses(ncpu)
	cpuTimes := func(prefix string) []pcpDatum {
		return []pcpDatum{
			{cpuUserID, prefix + ".user", 0}, {cpuKernID, prefix + ".sys", 0}, {cpuWaitID, prefix + ".wait.total", 0},
			{cpuIdleID, prefix + ".idle", 0}, {cpuNiceID, prefix + ".nice", 0}, {cpuIRQID, prefix + ".irq.hard", 0},
			{cpuSoftIRQID, prefix + ".irq.soft", 0}, {cpuStealID, prefix + ".steal", 0}, {cpuGuestID, prefix + ".guest", 0},
			{cpuGuestNiceID, prefix + ".guest_nice", 0},
		}
	}
	memTop, real, swap, virt := memClasses(memTotal)
	classes = []pcpClass{
		{class: cpuTotal, datums: append(cpuTimes("kernel.all.cpu"), pcpDatum{cpuNumID, "hinv.ncpu", 1})},
		{class: cpuPer, inst: cpuNumber, datums: cpuTimes("kernel.percpu.cpu")},
		{class: real, datums: []pcpDatum{
			{realTotalID, "mem.physmem", 0}, {realFreeID, "mem.util.free", 0}, {realAvailID, "mem.util.available", 0},
			{realBuffersID, "mem.util.bufmem", 0}, {realCachedID, "mem.util.cached", 0},
		}},
		{class: swap, datums: []pcpDatum{
			{swapTotalID, "mem.util.swapTotal", 0}, {swapFreeID, "mem.util.swapFree", 0},
			{swapInID, "swap.pagesin", 1}, {swapOutID, "swap.pagesout", 1},
		}},
		{class: virt, datums: []pcpDatum{
			// /proc/vmstat's pgpgin and pgpgout count kilobytes, whatever their names say; PCP
			// declares them as counts.
			{virtPageInID, "mem.vmstat.pgpgin", 1024}, {virtPageOutID, "mem.vmstat.pgpgout", 1024},
			{virtFaultsID, "mem.vmstat.pgfault", 1}, {virtMajFaultsID, "mem.vmstat.pgmajfault", 1},
		}},
	}
	for _, pc := range classes {
		for i := range pc.class.Datums {
			d := &pc.class.Datums[i]
			if d.IsDerived() {
				continue
			}
			d.Source = "not read from PCP: no Linux PMDA metric is mapped to it"
			for _, m := range pc.datums {
				if d.ID.Low() == m.low {
					d.PCP.Name, d.Source = m.metric, "pmproxy: "+m.metric
				}
			}
		}
	}
	return []*ns.Class{cpuTop, cpuTotal, cpuPer, memTop, real, swap, virt}, classes
}

// pcpHost is one remote host as a DCI4 supplier.
type pcpHost struct {
	opt     PCPOptions
	client  *pmproxy.Client
	sup     ns.Supplier
	decl    []*ns.Class
	classes []pcpClass
	names   []string // every metric the table names, once

	mu      sync.Mutex
	x       *pmproxy.Context
	gen     uint64
	descs   map[string]pmproxy.Desc
	instNm  map[string]map[int64]string
	retryAt time.Time // backoff after a failure to reach pmproxy
	backoff time.Duration
	lastErr error // the failure the backoff follows
	now     func() time.Time
}

// PCPProviders returns the providers of one remote host read through pmproxy. It does not fail
// when pmproxy or the host does not answer: the provider is then degraded with the reason, and
// tries again with a growing pause; a malformed URL is an error.
func PCPProviders(opt PCPOptions) ([]Provider, error) {
	c, err := pmproxy.New(opt.URL, pmproxy.Options{Password: opt.Password})
	if err != nil {
		return nil, err
	}
	if opt.Interval <= 0 {
		opt.Interval = time.Second
	}
	h := &pcpHost{opt: opt, client: c, now: time.Now}
	ncpu, mem := h.probe()
	h.decl, h.classes = pcpMapping(ncpu, mem)
	seen := map[string]bool{}
	for _, pc := range h.classes {
		for _, m := range pc.datums {
			if !seen[m.metric] {
				seen[m.metric] = true
				h.names = append(h.names, m.metric)
			}
		}
	}
	h.sup = supplier(handleHost, "pcp:"+cut(ns.EscapeName(opt.Hostspec), 58), cut("PCP host "+ns.EscapeName(opt.Hostspec), 63),
		cut(fmt.Sprintf("The Linux PMDA of pmcd %s through pmproxy %s", ns.EscapeName(opt.Hostspec), c.URL()), 255),
		ns.SPTGeneralSupplier, h.decl)
	return []Provider{h}, nil
}

// probe reads the processor count and memory size for the classes' scales, within the deadline.
func (h *pcpHost) probe() (int, uint64) {
	d := h.opt.ProbeDeadline
	if d <= 0 {
		d = 2 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	if err := h.connect(ctx); err != nil {
		return 1, 0
	}
	f, err := h.x.Fetch(ctx, "hinv.ncpu", "mem.physmem")
	if err != nil {
		return 1, 0
	}
	ncpu, mem := 1, uint64(0)
	if v := f.Values["hinv.ncpu"]; len(v) == 1 {
		if n, err := v[0].Uint64(); err == nil && n > 0 && n < 1<<20 {
			ncpu = int(n)
		}
	}
	if v := f.Values["mem.physmem"]; len(v) == 1 {
		if n, err := v[0].Uint64(); err == nil && n < math.MaxUint64/1024 {
			mem = n * 1024
		}
	}
	return ncpu, mem
}

// connect makes the pmproxy context; the context lives three intervals (at least 5 s) past its
// last request, so it does not expire between readings.
func (h *pcpHost) connect(ctx context.Context) error {
	if h.x != nil {
		return nil
	}
	poll := max(3*h.opt.Interval, 5*time.Second)
	x, err := h.client.NewContext(ctx, h.opt.Hostspec, poll)
	if err != nil {
		return err
	}
	h.x = x
	return nil
}

// Supplier is the host's supplier record: module `pcp:` and the hostspec.
func (h *pcpHost) Supplier() ns.Supplier { return h.sup }

// Classes are the classes the mapping table fills.
func (h *pcpHost) Classes() []*ns.Class { return h.decl }

// errBackoff says the provider is waiting before it tries pmproxy again.
var errBackoff = errors.New("waiting before trying again")

// Collect fetches every mapped metric in one request and fills the classes the request wants.
// The reset value changes with the pmproxy context (made again after pmproxy forgot it): no rate
// is computed across it.
func (h *pcpHost) Collect(ctx context.Context, req Request) (Batch, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.now()
	if now.Before(h.retryAt) {
		return Batch{}, fmt.Errorf("%w (%v) after %w", errBackoff, h.retryAt.Sub(now).Round(time.Second), h.lastErr)
	}
	f, err := h.fetch(ctx)
	if err != nil {
		h.backoff = min(max(2*h.backoff, time.Second), 30*time.Second)
		h.retryAt, h.lastErr = now.Add(h.backoff), err
		return Batch{}, err
	}
	h.backoff, h.retryAt, h.lastErr = 0, time.Time{}, nil
	b := Batch{Time: f.Time}
	hsh := fnv.New64a()
	fmt.Fprintf(hsh, "%s|%d", h.opt.Hostspec, h.gen)
	binary.LittleEndian.PutUint64(b.Reset[:], hsh.Sum64())
	for _, pc := range h.classes {
		if !req.Wants(pc.class) {
			continue
		}
		b.Classes = append(b.Classes, h.read(ctx, pc, f))
	}
	return b, nil
}

// fetch makes sure of the context and the descriptors, and fetches every metric.
func (h *pcpHost) fetch(ctx context.Context) (*pmproxy.Fetched, error) {
	if err := h.connect(ctx); err != nil {
		return nil, err
	}
	if g := h.x.Generation(); g != h.gen || h.descs == nil {
		// A new context (pmproxy forgot the old one, or pmcd was restarted behind it): the
		// descriptors and instance names are read again.
		descs, err := h.x.Metrics(ctx, h.names...)
		if err != nil && !errors.Is(err, pmproxy.ErrUnknownMetric) {
			return nil, err
		}
		h.descs = map[string]pmproxy.Desc{}
		for _, d := range descs {
			h.descs[d.Name] = d
		}
		h.instNm = map[string]map[int64]string{}
		h.gen = g
	}
	f, err := h.x.Fetch(ctx, h.names...)
	if err != nil {
		return nil, err
	}
	if g := h.x.Generation(); g != h.gen {
		h.descs = nil // made again during the fetch: descriptors at the next collection
		h.gen = g
	}
	return f, nil
}

// read fills one class from a fetch.
func (h *pcpHost) read(ctx context.Context, pc pcpClass, f *pmproxy.Fetched) ClassReading {
	c := pc.class
	nd := len(c.Datums)
	if pc.inst == nil {
		raw := make([]ns.Raw, nd)
		h.fillRow(raw, pc, f, -1)
		return ClassReading{Class: c, Specs: singleSpecs(), Raw: raw}
	}
	first := pc.datums[0].metric
	names, err := h.instanceNames(ctx, first, f)
	if err != nil {
		return ClassReading{Class: c, Err: err}
	}
	var specs []ns.InstanceSpec
	var ids []int64
	for _, v := range f.Values[first] {
		name := names[v.Instance]
		level, ok := pc.inst(name)
		if !ok {
			continue
		}
		ids = append(ids, v.Instance)
		specs = append(specs, ns.InstanceSpec{Levels: []uint64{level}, OSName: name, ASN: asnFor(level + 1), Desc: ns.EscapeName(name)})
	}
	// Parents come first and instances in a stable order: by level value.
	order := make([]int, len(specs))
	for i := range order {
		order[i] = i
	}
	sortByLevel(order, specs)
	sorted := make([]ns.InstanceSpec, len(specs))
	raw := make([]ns.Raw, nd*len(specs))
	for i, j := range order {
		sorted[i] = specs[j]
		h.fillRow(raw[i*nd:(i+1)*nd], pc, f, ids[j])
	}
	return ClassReading{Class: c, Specs: sorted, Raw: raw}
}

func sortByLevel(order []int, specs []ns.InstanceSpec) {
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && specs[order[j]].Levels[0] < specs[order[j-1]].Levels[0]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
}

// instanceNames are the names of the instances of metric's domain, read again when a fetch has
// an instance not seen before (a processor brought online).
func (h *pcpHost) instanceNames(ctx context.Context, metric string, f *pmproxy.Fetched) (map[int64]string, error) {
	names := h.instNm[metric]
	fresh := names != nil
	for _, v := range f.Values[metric] {
		if _, ok := names[v.Instance]; !ok {
			fresh = false
			break
		}
	}
	if fresh {
		return names, nil
	}
	d, ok := h.descs[metric]
	if !ok || d.InDom == "" {
		return nil, fmt.Errorf("%s: %s has no instance domain on %s", h.sup.Module, metric, h.opt.Hostspec)
	}
	insts, err := h.x.InDom(ctx, d.InDom)
	if err != nil {
		return nil, err
	}
	names = make(map[int64]string, len(insts))
	for _, in := range insts {
		names[in.ID] = in.Name
	}
	h.instNm[metric] = names
	return names, nil
}

// fillRow fills one instance's raw values (inst -1 for a single-instance class). A datum the
// table does not map, or whose metric the host lacks, is not supported; a value that is not a
// number of the datum's kind is a provider error, never 0.
func (h *pcpHost) fillRow(row []ns.Raw, pc pcpClass, f *pmproxy.Fetched, inst int64) {
	for i := range row {
		row[i] = rawNotSupported()
	}
	for _, m := range pc.datums {
		i := pc.class.DatumIndex(ns.DatumID(m.low))
		if i < 0 {
			continue
		}
		d := &pc.class.Datums[i]
		desc, known := h.descs[m.metric]
		if !known {
			continue // the host's PMDA has no such metric: not supported (an old kernel, another OS)
		}
		var val *pmproxy.Value
		for k, v := range f.Values[m.metric] {
			if v.Instance == inst || (inst < 0 && len(f.Values[m.metric]) == 1) {
				val = &f.Values[m.metric][k]
				break
			}
		}
		if val == nil {
			row[i] = rawNoValues()
			continue
		}
		mult := m.mult
		if mult == 0 {
			from, ok := parsePMUnits(desc.Units)
			if desc.Units == "none" {
				from, ok = ns.PMUnits{}, true
			}
			conv, err := ns.ConvScale(1, from, d.PCP.Units)
			if !ok || err != nil {
				row[i] = ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonProviderError}
				continue
			}
			mult = conv
		}
		row[i] = pcpRaw(*val, desc.Type, mult)
	}
}

// pcpRaw converts one value to the datum's unit: integers exactly when the factor is whole.
func pcpRaw(v pmproxy.Value, typ string, mult float64) ns.Raw {
	switch typ {
	case "u32", "u64":
		n, err := v.Uint64()
		if err != nil {
			return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonProviderError}
		}
		if mult >= 1 && mult == math.Trunc(mult) && mult < 1<<32 {
			k := uint64(mult)
			if n > math.MaxUint64/k {
				return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonOverflow}
			}
			return rawN(n * k)
		}
		return rawN(uint64(math.Round(float64(n) * mult)))
	case "32", "64":
		n, err := v.Int64()
		if err != nil {
			return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonProviderError}
		}
		return rawN(uint64(int64(math.Round(float64(n) * mult))))
	case "float", "double":
		x, err := v.Float64()
		if err != nil {
			return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonProviderError}
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonNotANumber}
		}
		return rawN(uint64(int64(math.Round(x * mult))))
	}
	return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonNotSupported}
}
