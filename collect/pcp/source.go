package pcp

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
	"dcimon/pmcd"
	"dcimon/pmproxy"
)

// A remote host through Performance Co-Pilot (issue 14): the same classes as the local
// providers, filled from the standard Linux PMDA's metrics that its pmcd serves, over PCP's own
// protocol (issue 31, native.go) or pmproxy's REST API (issue 14). The mapping is
// one table (pcpMapping): for each class, where its instances come from and, for each datum,
// the PCP metric and how its units become the datum's. A datum the table does not name, or whose
// metric the host lacks, is on its instance's invalid-data list (n/a with the reason) where the
// class has one, else not supported: never invented. So far the table maps Host, CPU, Mem, Disk
// (disks and their partitions), FS, Pressure, IP/TCP/UDP and NetIf; the others are not read
// remotely yet.

// Options choose a remote host.
type Options struct {
	// URL is pmproxy's (pcp://PROXY[:PORT] or pcps://...) for its REST API; "" is PCP's own
	// protocol to each host's pmcd (its hostspec may name a pmproxy that relays it: host@proxy).
	URL      string
	Password string // for a user in the URL; never in the URL itself
	Hostspec string // the pmcd, as pmproxy reaches it: "web1", "10.0.0.5:44321"
	// Interval is how often the readings are taken; the pmproxy context is kept alive longer than
	// two of them (its polltimeout), so it never expires between readings (issue 31).
	Interval time.Duration
	// Deadline is a host's request deadline: how long one dial (with its handshake) or one
	// collection's requests to it may take (FleetDeadline, or NativeDeadline natively, for the
	// source's hosts when zero); the pmproxy context is kept alive longer than it too. The
	// collection's own deadline (the sampler's, CollectDeadline) may be shorter: a host whose
	// requests are still running then is marked with why, and its requests go on off the
	// collection path until this deadline (issue 40 item 1).
	Deadline time.Duration
	// ProbeDeadline bounds how long the start waits for the hosts' first connections (made
	// in the background, with each host's processor count and memory size, for scales); 2 s
	// when zero. A host not connected by then is connected when it answers.
	ProbeDeadline time.Duration
	// ShowLoop shows the instances hidden by default (loop, ram and zram disks), as --show-loop
	// does on this host.
	ShowLoop bool
}

// pcpContext is where a host's PCP metrics come from: a pmproxy context on its pmcd
// (*pmproxy.Context), the host's pmcd on a connection of its own (nativeContext), an archive of
// it (archiveContext), or its series in pmproxy's time series (seriesContext); an archive's and
// a series' fetches go forward in time.
type pcpContext interface {
	Generation() uint64
	Labels() (host string, labels map[string]string)
	Metrics(ctx context.Context, names ...string) ([]pmproxy.Desc, error)
	InDom(ctx context.Context, indom string) ([]pmproxy.Instance, error)
	Children(ctx context.Context, prefix string) (leaf, nonleaf []string, err error)
	Fetch(ctx context.Context, names ...string) (*pmproxy.Fetched, error)
}

// pcpHost is one remote host as a DCI4 supplier.
type pcpHost struct {
	opt     Options
	client  *pmproxy.Client
	sup     ns.Supplier
	decl    []*ns.Class
	classes []pcpClass
	names   []string // every metric the table names, once
	// namesFor are the metrics of some of the classes, by the set of them (bit i: classes[i]).
	namesFor map[uint64][]string
	tree     *pcpTree  // the host's PCP name space, as far as it has been explored
	root     *ns.Class // its PCP context
	host     Host
	fleet    bool   // one of several hosts: its classes are under a context of its own
	asn      uint32 // that context's number
	// scale is what the classes were declared with (processors, memory bytes); scaled says the
	// host's own figures were compared with it, scaleGen counts the declarations since.
	scale    [2]uint64
	scaled   bool
	scaleGen uint64
	bufs     map[*ns.Class]*pcpBufs
	plans    map[*pcpDatum][]pcpCol // by a class's (or fixed instance's) first datum; per context (plan.go)
	colVals  [][]pmproxy.Value      // a plan's columns' values in the last fetch (plan)

	// dial opens the host's archive in place of a pmproxy context (ArchiveProviders).
	dial func() (pcpContext, error)
	// archive is the archive the host reads, set when the host is made (ArchiveProviders): nil
	// for a live host or series. recorded says the host's values are recorded ones (an archive,
	// or series loaded from archives, whose time goes back and forth), set so too.
	archive  *archiveContext
	recorded bool

	mu    sync.Mutex
	x     pcpContext
	gen   uint64
	descs map[string]pmproxy.Desc
	// descsGen counts the sets of descriptors read (what a class's buffers worked out from them
	// is good while it stays).
	descsGen   uint64
	invScratch []ns.DatumID
	classBuf   []collect.ClassReading // the last batch's, filled again
	factors    map[string]float64     // metric → factor to its datum's unit, NaN where none (per context)
	reset      [8]byte                // the reset value of the current context
	instNm     map[string]map[int64]string
	namesGen   uint64    // counts the instance domains read into instNm (a class's instances are as last read while it stays)
	retryAt    time.Time // backoff after a failure to reach pmproxy
	// lastCollect is when the last collection began, and gap the longest time between two: a
	// context made again (one expired) lives longer than it.
	lastCollect time.Time
	gap         time.Duration
	// valueErr is the first value of the class being read that could not be read (a number of
	// 400 digits): said as that class's error.
	valueErr error
	backoff  time.Duration
	lastErr  error // the failure the backoff follows
	now      func() time.Time
	// dl is the schedule of the host's dials, made off the collection path (redial.go);
	// redeclared says the classes were declared again at the connection just taken, to be
	// said in the next batch.
	dl         dialState
	reqs       *requestContexts // the context of its requests, shared with the fleet's other hosts
	redeclared bool
	direct     *directState   // a native host's answers read by position (native_direct.go)
	directs    []*directState // its plans, one for each set of classes asked for (useDirect)
}

// Providers returns the provider of one remote host read through pmproxy, its classes at the
// top of the name space as the local providers' are. It does not fail when pmproxy or the host
// does not answer: the provider is then degraded with the reason, and tries again with a growing
// pause; a malformed URL is an error.
func Providers(opt Options) ([]collect.Provider, error) {
	return Fleet(opt, []Host{{Name: opt.Hostspec, Spec: opt.Hostspec}})
}

// Host is one host of a PCP source: its name in paths (the hostspec as the user gave it, or
// an alias), and its pmcd's hostspec.
type Host struct{ Name, Spec string }

// FleetASNBase numbers the hosts' contexts of a source with several hosts: host i (from 0) is
// the top-level context 1000+i, above every class number dcimon gives.
const FleetASNBase = 1000

// Fleet returns one provider per host. With several hosts each host's classes hang under a
// context of its own named by the host (`web1/Disk/sda/busy`); two hosts whose pmcds report the
// same host name stay two hosts. The hosts are asked for their scales at once, so hosts that do
// not answer cost one probe deadline at start, not one each. Without a URL each host is read on a
// connection of its own to its pmcd; a hostspec PCP would not take is an error.
func Fleet(opt Options, hosts []Host) ([]collect.Provider, error) {
	var c *pmproxy.Client
	var specs []pmcd.Hostspec
	if opt.URL != "" {
		var err error
		if c, err = pmproxy.New(opt.URL, pmproxy.Options{Password: opt.Password}); err != nil {
			return nil, err
		}
	} else {
		for _, h := range hosts {
			sp, err := pmcd.ParseHostspec(h.Spec)
			if err != nil {
				return nil, fmt.Errorf("host %s: %w", h.Name, err)
			}
			specs = append(specs, sp)
		}
	}
	if opt.Interval <= 0 {
		opt.Interval = time.Second
	}
	if opt.Deadline <= 0 {
		opt.Deadline = FleetDeadline(len(hosts))
		if c == nil {
			opt.Deadline = NativeDeadline(len(hosts))
		}
	}
	hs := make([]*pcpHost, len(hosts))
	// Every host is declared with one processor and no memory size, and dialled in the
	// background, the dials spread over part of the first interval; the start waits for them
	// up to the probe deadline, and a host that has answered by then is declared again with
	// its own scales. The others are connected when they answer (redial.go).
	now, spread := time.Now(), startJitter(len(hosts), opt.Interval)
	reqs := &requestContexts{}
	for i, hst := range hosts {
		o := opt
		o.Hostspec = hst.Spec
		h := &pcpHost{opt: o, client: c, now: time.Now, reqs: reqs}
		if c == nil {
			h.x = newNativeContext(specs[i])
		}
		h.host, h.fleet, h.asn = hst, len(hosts) > 1, FleetASNBase+uint32(i)
		h.start(1, 0)
		var delay time.Duration
		if spread > 0 {
			delay = rand.N(spread)
		}
		h.dl.spread = spread
		h.startDial(now, delay)
		hs[i] = h
	}
	wait := opt.ProbeDeadline
	if wait <= 0 {
		wait = 2 * time.Second
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	expired := false
	for _, h := range hs {
		if !expired {
			select {
			case l := <-h.dl.done:
				h.dl.done <- l // taken below, as at any collection
			case <-timer.C:
				expired = true
			}
		}
		h.takeLink(time.Now())
		if h.connected() {
			// Nothing is registered yet: declared afresh, with the labels its pmcd gave.
			h.decl = nil
			h.declare(int(h.scale[0]), h.scale[1])
		}
		h.redeclared = false
	}
	provs := make([]collect.Provider, len(hosts))
	for i, h := range hs {
		spec := ns.EscapeName(h.opt.Hostspec)
		how := "over PCP's own protocol"
		if c != nil {
			how = "through pmproxy " + c.URL()
		}
		h.sup = schema.Supplier(handlePCP+uint32(i), "pcp:"+ns.Clip(ns.EscapeName(hosts[i].Name), 58), ns.Clip("PCP host "+spec, 63),
			ns.Clip(fmt.Sprintf("The Linux PMDA of pmcd %s, %s", spec, how), 255),
			ns.SPTGeneralSupplier, h.decl)
		provs[i] = h
	}
	return provs, nil
}

// start declares the host's classes, its PCP context among them, for the first time.
func (h *pcpHost) start(ncpu int, mem uint64) {
	h.root = pcpRootClass()
	h.declare(ncpu, mem)
	h.tree = newPCPTree(h.root)
}

// declare builds the host's classes for ncpu processors and mem bytes of memory (the scales of
// its processor and memory statistics). Declared again once the host's own figures are read (its
// probe at start did not answer in time, or answered otherwise), a class described as before
// keeps its registered self, so that only those that differ are registered anew (Describe).
func (h *pcpHost) declare(ncpu int, mem uint64) {
	old := map[string]*ns.Class{}
	for _, c := range h.decl {
		old[c.ID.String()] = c
	}
	var decl []*ns.Class
	var classes []pcpClass
	var names []string
	if ax := h.archive; ax != nil {
		// An archive reads some classes under dcimon's own names (ownClasses): its own mapping.
		decl, classes = pcpMapping(ncpu, mem)
		ax.ownClasses(decl, classes)
		names = metricsOf(classes, func(int) bool { return true })
	} else {
		decl, classes, names = sharedPCPMapping(ncpu, mem)
	}
	if h.recorded {
		src, _ := h.x.(holder)
		decl, classes, names = liveOnlyOut(decl, classes, names, src)
	}
	if h.fleet {
		decl = reroot(decl, h.asn, h.host)
		if len(h.root.ID) == 1 { // put under the host once
			h.root.ID = append(ns.ClassID{h.asn}, h.root.ID...)
		}
	}
	decl = append(decl, h.root)
	// The host's own name, machine id and labels, as its pmcd gave them: attributes of its
	// context (or of Host, for a single host), in the inspector and describe.
	target := decl[0]
	for _, c := range decl {
		if !h.fleet && len(c.ID) == 1 && c.ID[0] == schema.HostASN {
			target = c
		}
	}
	if o := old[target.ID.String()]; o != nil {
		target.Extensions = o.Extensions
	} else {
		target.Extensions = append(target.Extensions, h.hostAttrs()...)
	}
	for i, c := range decl {
		if o := old[c.ID.String()]; o != nil && o != c && !ns.ClassDiffers(o, c) {
			decl[i] = o
			for j := range classes {
				if classes[j].Class == c {
					classes[j].Class = o
				}
			}
		}
	}
	h.decl, h.classes, h.scale, h.names = decl, classes, [2]uint64{uint64(ncpu), mem}, names
	h.namesFor, h.plans, h.bufs = nil, nil, nil
}

// Describe is the host's classes as now declared (collect.Describer): after its own processor
// count and memory size were read, when they were not those it was first declared with.
func (h *pcpHost) Describe() []*ns.Class {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.decl)
}

// rescale declares the classes again when a fetch has the host's processor count and memory
// size and they are not those the classes were declared with; the reset value then changes, so
// the sampler takes the new descriptions (and computes no rate across them). Once per host.
func (h *pcpHost) rescale(f *pmproxy.Fetched) {
	if h.scaled {
		return
	}
	nv, ok1 := f.Lookup("hinv.ncpu", -1)
	mv, ok2 := f.Lookup("mem.physmem", -1)
	if !ok1 || !ok2 {
		return // not in this fetch (only some classes were wanted): at a later one
	}
	h.scaled = true
	n, err1 := nv.Uint64()
	m, err2 := mv.Uint64()
	if err1 != nil || err2 != nil || n == 0 || n >= 1<<20 || m >= math.MaxUint64/1024 {
		return
	}
	if n == h.scale[0] && m*1024 == h.scale[1] {
		return
	}
	h.declare(int(n), m*1024)
	h.scaleGen++
	h.setGen(h.gen)
}

// hostAttrs are the host's name and context labels (hostname, machineid, domainname, ...) as
// pmcd gave them when dcimon started, escaped; or why they are not known.
func (h *pcpHost) hostAttrs() []ns.Attr {
	var host string
	var labels map[string]string
	if h.x != nil {
		host, labels = h.x.Labels()
	}
	if labels == nil && host == "" {
		return []ns.Attr{{Key: "pcp labels", Value: "not known: the host did not answer when dcimon started"}}
	}
	out := []ns.Attr{{Key: "pcp hostname", Value: ns.EscapeName(host)}}
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		out = append(out, ns.Attr{Key: "pcp label " + ns.EscapeName(k), Value: ns.EscapeName(labels[k])})
	}
	return out
}

// FleetDeadline is the collection deadline for a PCP source of n hosts. Each host asks pmproxy
// one thing at a time, and pmproxy.MaxInFlight hosts ask at once: a collection of n hosts is
// about n / MaxInFlight requests end to end, and a first one (a context on each pmcd,
// descriptors and instance domains) about seven times that. So 2 s, and 150 ms more for each
// MaxInFlight hosts past the first. A host that does not answer holds one slot until its own
// deadline, and is then backed off: it never holds the others up.
func FleetDeadline(n int) time.Duration {
	return 2*time.Second + time.Duration(max(n-pmproxy.MaxInFlight, 0)/pmproxy.MaxInFlight)*150*time.Millisecond
}

// handlePCP is the supplier handle of a PCP source's first host; the others follow it.
const handlePCP = 100

// reroot puts a host's classes under a context of the host's own: each class id gains the host's
// number as its first level, and the host's context comes first.
func reroot(decl []*ns.Class, asn uint32, h Host) []*ns.Class {
	top := &ns.Class{ID: ns.ClassID{asn}, Name: h.Name, Desc: ns.Clip("Host "+ns.EscapeName(h.Spec)+" through PCP", 63), Flags: ns.ClassEnabled,
		Help: "One host of the source, read from its pmcd through PCP; its classes are the local ones'."}
	out := []*ns.Class{top}
	for _, c := range decl {
		c.ID = append(ns.ClassID{asn}, c.ID...)
		if len(c.NestUnder) > 0 {
			c.NestUnder = append(ns.ClassID{asn}, c.NestUnder...)
		}
		out = append(out, c)
	}
	return out
}

// connect opens the host's archive (a live host is connected in the background: redial.go).
func (h *pcpHost) connect() error {
	if h.x != nil || h.dial == nil {
		return nil
	}
	x, err := h.dial()
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

// Collect fetches every mapped metric in one request and fills the classes the request wants.
// The reset value changes with the pmproxy context (made again after pmproxy forgot it): no rate
// is computed across it.
func (h *pcpHost) Collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.now()
	h.noteGap(now)
	h.lastCollect = now
	if h.live() {
		var err error
		if ctx, err = h.requestContext(now); err != nil {
			return collect.Batch{}, err
		}
	}
	if now.Before(h.retryAt) {
		// Waiting before trying again: the reason is still the last failure's, said once in
		// the events rather than alternating with a note of the wait.
		return collect.Batch{}, h.lastErr
	}
	unlisted, browse := h.tree.wanted(req)
	mask := h.wantMask(req)
	names := h.wantedNames(mask, browse)
	byPlan := len(unlisted) == 0 && len(browse) == 0
	if byPlan {
		h.useDirect(mask)
	}
	f, err := h.fetch(ctx, names, byPlan && h.directOK(mask))
	if errors.Is(err, errNoNewSample) {
		// An archive with nothing new by the replay's time: its classes as they were, under the
		// same reset value (another would read as the supplier re-initialised).
		return collect.Batch{Reset: h.reset}, nil
	}
	if errors.Is(err, errNotRecordedThen) {
		return h.notRecorded(req), nil
	}
	if err != nil {
		h.failed(now, err)
		return collect.Batch{}, err
	}
	h.backoff, h.retryAt, h.lastErr = 0, time.Time{}, nil
	if f == nil {
		return h.directBatch(), nil // decoded into the rows by position (native_direct.go)
	}
	if byPlan {
		h.startRecording(mask)
		defer h.finishRecording(f, names) // after the rescale, which may declare the classes again
	}
	// This reading is of the classes as declared; a rescale declares them again for the next
	// one, whose new reset value has the sampler take the new descriptions.
	defer h.rescale(f)
	b := collect.Batch{Time: f.Time, Reset: h.reset, Classes: h.classBuf[:0], Redeclared: h.redeclared}
	h.redeclared = false
	defer func() { h.classBuf = b.Classes }()
	b.Classes = h.readWanted(ctx, req, f, browse, b.Classes)
	h.listOpened(ctx, unlisted)
	return b, nil
}

// noteGap has a pmproxy context outlive the longest gap seen between two collections, so that
// pmproxy does not forget it between them.
func (h *pcpHost) noteGap(now time.Time) {
	if h.lastCollect.IsZero() {
		return
	}
	if g := now.Sub(h.lastCollect); g > h.gap {
		h.gap = g // the next context outlives the longest gap seen
		if x, ok := h.x.(*pmproxy.Context); ok {
			x.Outlive(2*g + 5*time.Second)
		}
	}
}

// requestContext makes sure of a live host's link and gives the context of its requests.
// The host's requests have its own deadline, not the collection's: one still running when the
// collection gives up on it goes on (the sampler starts no other meanwhile), so a slow answer
// costs this reading, not the connection (issue 40 item 1). The hosts of a fleet share that
// deadline's context within a collection (reqs): one per host cost 8 allocations a host at
// every reading (issue 38 item 6).
func (h *pcpHost) requestContext(now time.Time) (context.Context, error) {
	if err := h.ensureLink(now); err != nil {
		return nil, err
	}
	if h.reqs == nil {
		h.reqs = &requestContexts{}
	}
	return h.reqs.get(h.dialDeadline()), nil
}

// wantedNames are the metrics to fetch: only those of the classes the request wants (on a
// screen of fleet hotsets, the disks, interfaces and processors of each host, not everything
// the table maps), then those of the browsed nodes read.
func (h *pcpHost) wantedNames(mask uint64, browse []*pcpNode) []string {
	var names []string
	switch {
	case len(h.classes) >= 64 || mask == 1<<len(h.classes)-1:
		names = h.names
	case mask != 0:
		names = h.namesOfMask(mask)
	}
	if more := metricNames(browse); len(more) > 0 {
		names = append(slices.Clip(names), more...)
	}
	return names
}

// wantMask is the set of the classes req wants (bit i: classes[i]).
func (h *pcpHost) wantMask(req collect.Request) uint64 {
	var mask uint64
	for i, pc := range h.classes {
		if req.Wants(pc.Class) {
			mask |= 1 << i
		}
	}
	return mask
}

// namesOfMask are the metrics of the classes whose bits mask sets, kept per mask: a screen asks
// for the same classes at every reading.
func (h *pcpHost) namesOfMask(mask uint64) []string {
	if names := h.namesFor[mask]; names != nil {
		return names
	}
	if h.namesFor == nil {
		h.namesFor = map[uint64][]string{}
	}
	// Kept once for the hosts that ask for the same (sharedNames: 2 KB a host, issue 38).
	names := sharedNames(metricsOf(h.classes, func(i int) bool { return mask&(1<<i) != 0 })).names
	h.namesFor[mask] = names
	return names
}

// failed notes a failed fetch: its error is the reason until the next try, and a live
// connection's next try waits.
func (h *pcpHost) failed(now time.Time, err error) {
	if !h.recorded && h.connected() { // an archive's (or series') time goes back and forth
		// On a connection that stays (a lost one is dialled again at once, in the
		// background), doubling pauses, each drawn at random from half to one and a half of
		// its length, so that hosts that went together do not come back all at once.
		h.backoff = min(max(2*h.backoff, time.Second), 30*time.Second)
		h.retryAt = now.Add(h.backoff/2 + rand.N(h.backoff))
	}
	h.lastErr = err
}

// readWanted appends to dst the readings of the wanted classes and the browsed nodes in f. An
// archive's class or node with nothing logged since its last reading is left out: as recorded
// then (issue 39).
func (h *pcpHost) readWanted(ctx context.Context, req collect.Request, f *pmproxy.Fetched, browse []*pcpNode, dst []collect.ClassReading) []collect.ClassReading {
	for i, pc := range h.classes {
		if !req.Wants(pc.Class) {
			continue
		}
		h.recClass(i, pc)
		cr := h.read(ctx, pc, f)
		h.recReading(pc, cr)
		if h.archive != nil && !h.archive.timed(pc, &cr) {
			continue
		}
		dst = append(dst, cr)
	}
	for _, n := range browse {
		cr := h.readNode(ctx, n, f)
		if h.archive != nil && !h.archive.timedNode(n, &cr) {
			continue
		}
		dst = append(dst, cr)
	}
	return dst
}

// listOpened lists the nodes opened since the last reading; what they hold is registered after
// this collection and read at the next. One that cannot be listed now (pmproxy went away
// between two requests) is tried again at the next collection that wants it, and the mapped
// classes keep this reading.
func (h *pcpHost) listOpened(ctx context.Context, unlisted []*pcpNode) {
	for _, n := range unlisted {
		if h.list(ctx, n) != nil {
			break
		}
	}
}

// fetch makes sure of the context and the descriptors, and fetches names (none: the context
// is made sure of, and the fetch is of pmcd's clock alone). byPlan has a native host's answer
// decoded into its rows by its plan where it can be (the Fetched is then nil).
func (h *pcpHost) fetch(ctx context.Context, names []string, byPlan bool) (*pmproxy.Fetched, error) {
	if err := h.connect(); err != nil {
		return nil, err
	}
	if g := h.x.Generation(); g != h.gen || h.descs == nil {
		// A new context (pmproxy forgot the old one, or pmcd was restarted behind it): the
		// descriptors and instance names are read again.
		descs, err := h.x.Metrics(ctx, h.names...)
		if err != nil && !errors.Is(err, pmproxy.ErrUnknownMetric) {
			return nil, err
		}
		h.descs = sharedDescs(descs)
		h.descsGen++
		h.instNm = map[string]map[int64]string{}
		h.factors = map[string]float64{}
		h.plans = nil
		h.tree.names = nil
		h.setGen(g)
	}
	if len(names) == 0 {
		names = []string{"pmcd.control.timeout"} // the time of the fetch, for the batch
	}
	var f *pmproxy.Fetched
	var err error
	if x, native := h.x.(*nativeContext); native && byPlan && h.direct != nil && h.directOK(h.direct.mask) {
		f, err = x.fetchInto(ctx, names, h.decodeDirect)
	} else {
		f, err = h.x.Fetch(ctx, names...)
	}
	if err != nil {
		return nil, err
	}
	if g := h.x.Generation(); g != h.gen {
		h.descs = nil // made again during the fetch: descriptors at the next collection
		h.descsGen++
		h.setGen(g)
	}
	return f, nil
}

// setGen takes the context's generation and the reset value that goes with it.
func (h *pcpHost) setGen(g uint64) {
	h.gen = g
	hsh := fnv.New64a()
	fmt.Fprintf(hsh, "%s|%d|%d", h.opt.Hostspec, g, h.scaleGen)
	binary.LittleEndian.PutUint64(h.reset[:], hsh.Sum64())
}

// Kinds of pcpCol.
const (
	colValue    = iota // a value of the metric
	colClock           // pmcd's clock
	colConst           // a constant
	colMissing         // the host has no such metric
	colNoFactor        // the metric's units cannot become the datum's
)

// notRecorded is a reading of an archive's host at a time before its archive began: its classes
// have no instances, and a single-instance class's values are n/a, "not in the archive"; the
// host itself is not at fault (issue 30).
func (h *pcpHost) notRecorded(req collect.Request) collect.Batch {
	b := collect.Batch{Reset: h.reset, Time: h.now()}
	for _, pc := range h.classes {
		if !req.Wants(pc.Class) {
			continue
		}
		cr := collect.ClassReading{Class: pc.Class, Specs: []ns.InstanceSpec{}}
		if pc.InstOf == nil && pc.Fixed == nil {
			cr.Specs = schema.SingleSpecs()
			cr.Raw = make([]ns.Raw, len(pc.Class.Datums))
			for i := range cr.Raw {
				cr.Raw[i] = ns.RawNA(ns.ReasonNotRecorded)
			}
		}
		b.Classes = append(b.Classes, cr)
	}
	return b
}
