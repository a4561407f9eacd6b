package linux

import (
	"context"
	"errors"
	"hash/fnv"
	"net"
	"net/netip"
	"slices"
	"time"

	gnet "github.com/shirou/gopsutil/v3/net"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// netRawCol maps the counter datums (index id-1) to their /proc/net/dev column.
var netRawCol = [...]netCol{netRxBytes, netTxBytes, netRxPackets, netTxPackets, netRxErrs, netTxErrs, netRxDrop, netTxDrop}

// ifInfo is what sysfs (and netlink) say about one interface, cached by name and refreshed when
// SV_VARIABLE data is due, when the interface appears, or when its counters went backwards (it
// was re-created).
type ifInfo struct {
	name    string
	sys     netIf
	sysOK   bool  // sysfs was readable (ifindex, address, flags...)
	sysErr  error // what could not be read at the last refresh, for the class error
	mac     string
	ipv4    string    // 4 bytes, network order; "" when none
	invalid string    // encoded invalid-data list
	value   uint64    // instance value
	link    linkFiles // flags and operstate kept open for the per-collection link state

	total     uint64 // rx+tx bytes and packets at the last collection (re-creation check)
	haveTotal bool
	delivered uint64
	seen      uint64 // collection number at which it was last in /proc/net/dev
	lastValue uint64 // its instance value then
}

// netRow is one interface of a collection.
type netRow struct {
	d      *netDevStat
	info   *ifInfo
	unread error // no good /proc/net/dev line: the counters are in error with this reason
}

// unreadRows adds the interfaces /proc/net/dev did not give a good line for, although it should
// have: the file had bad lines or could not be read at all, and sysfs or the previous collection
// knows the interface. They stay, their counters "err" with the reason, rather than vanish as if
// removed (issue 21).
func (p *netProvider) unreadRows(ctx context.Context, nd []netDevStat, err error) {
	good := make(map[string]bool, len(nd))
	for i := range nd {
		good[nd[i].name] = true
	}
	names, _ := listNetIfs(ctx)
	for name, info := range p.ifs {
		if info.seen == p.dl.Gen-1 && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var fresh []string
	for _, name := range names {
		if !good[name] && p.ifs[name] == nil {
			fresh = append(fresh, name)
		}
	}
	if len(fresh) > 0 {
		p.refresh(ctx, fresh, false)
	}
	for _, name := range names {
		info := p.ifs[name]
		if good[name] || info == nil || p.used[info.value] {
			continue
		}
		p.used[info.value] = true
		info.seen, info.lastValue = p.dl.Gen, info.value
		p.rows = append(p.rows, netRow{d: &netDevStat{name: name}, info: info, unread: err})
	}
}

// netProvider reads /proc/net/dev every collection and sysfs when needed.
type netProvider struct {
	base
	top, cls *ns.Class
	nd       []netDevStat
	ifs      map[string]*ifInfo
	dl       collect.Deliveries
	started  bool
	rows     []netRow
	specs    []ns.InstanceSpec
	used     map[uint64]bool // scratch: instance values taken in this collection
}

func newNetProvider(r roots, boot *bootClock) *netProvider {
	p := &netProvider{base: base{roots: r, now: time.Now, boot: boot}, ifs: map[string]*ifInfo{}, used: map[uint64]bool{}}
	p.top, p.cls = schema.NetClasses()
	p.declare(schema.HandleNet, schema.NetModule, schema.NetTitle,
		"Bytes, packets, errors and drops of every network interface, with its addresses, flags and speed",
		ns.SPTNetworkDriver, p.top, p.cls)
	return p
}

// Collect reads /proc/net/dev, and sysfs when needed.
func (p *netProvider) Collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dl.Start()
	ctx = p.context(ctx)
	nd, err := readNetDev(ctx, &p.fr, p.nd)
	p.nd = nd
	if err != nil && ctx.Err() != nil {
		return collect.Batch{}, err // cancelled or past the deadline: the sampler says so
	}
	t := p.now()
	if !p.started || req.Static {
		refreshBoot(ctx, &p.fr, p.boot, p.now())
	}
	full := !p.started || req.Variable || req.Static
	p.started = true

	stale := p.stale(nd, full)
	if len(stale) > 0 {
		p.refresh(ctx, stale, full)
	}
	if !full {
		p.readLinks(ctx, nd, stale)
	}

	p.takeRows(nd)
	if err != nil {
		p.unreadRows(ctx, nd, err)
	}
	if err != nil && len(p.rows) == 0 {
		return collect.Batch{}, err // nothing read, and nothing known to show in error
	}
	b := p.batch(t)
	if !req.Wants(p.cls) {
		return b, nil
	}
	p.syncSpecs()
	ndat := len(p.cls.Datums)
	raw := make([]ns.Raw, len(p.rows)*ndat)
	for k, r := range p.rows {
		row := raw[k*ndat : (k+1)*ndat : (k+1)*ndat]
		d, info := r.d, r.info
		for i, c := range netRawCol {
			if r.unread != nil {
				row[i] = missing(r.unread)
			} else {
				row[i] = ns.RawN(d.v[c])
			}
		}
		p.fillAttrs(row, info, req)
		if err == nil {
			info.delivered = p.dl.Gen
		}
	}
	// An attribute that could not be read fails only its own datum ("err"); the class error
	// says which and why.
	cerr := err
	for _, r := range p.rows {
		if r.info.sysOK && r.info.sysErr != nil {
			cerr = errors.Join(cerr, r.info.sysErr)
		}
	}
	b.Classes = []collect.ClassReading{{Class: p.cls, Specs: p.specs, Raw: raw, Err: cerr}}
	p.dl.Done(ctx)
	return b, nil
}

// takeRows makes p.rows of the interfaces read, each with its instance value, and marks them
// seen in this collection.
func (p *netProvider) takeRows(nd []netDevStat) {
	p.rows = p.rows[:0]
	clear(p.used)
	for i := range nd {
		d := &nd[i]
		info := p.ifs[d.name]
		info.total = d.total()
		info.haveTotal = true
		if p.used[info.value] { // two names, one ifindex: only possible in a corrupt tree
			info.value = nameValue(info.name + "\x00dup")
		}
		p.used[info.value] = true
		// Re-created with a new ifindex between two collections: left out once, since the
		// registry adds new instances before it removes old ones and the old one holds the name.
		renamed := info.seen != 0 && info.seen == p.dl.Gen-1 && info.lastValue != info.value
		info.seen, info.lastValue = p.dl.Gen, info.value
		if renamed {
			continue
		}
		p.rows = append(p.rows, netRow{d: d, info: info})
	}
}

// stale are the interfaces that need sysfs read: all of them when full (variable data due),
// else new ones, those back after an absence and those whose counters went backwards
// (re-created, perhaps with a new ifindex).
func (p *netProvider) stale(nd []netDevStat, full bool) []string {
	var stale []string
	for i := range nd {
		d := &nd[i]
		info := p.ifs[d.name]
		if full || info == nil || info.seen != p.dl.Gen-1 || (info.haveTotal && d.total() < info.total) {
			stale = append(stale, d.name)
		}
	}
	return stale
}

// readLinks reads the link state of every interface not stale, at every collection
// (SV_VOLATILE).
func (p *netProvider) readLinks(ctx context.Context, nd []netDevStat, stale []string) {
	for i := range nd {
		info := p.ifs[nd[i].name]
		if info == nil || !info.sysOK || slices.Contains(stale, info.name) {
			continue
		}
		known := info.sys.speedKnown
		if lerr := readNetLink(ctx, &p.fr, &info.link, &info.sys); lerr != nil {
			info.sysErr = lerr
		}
		if info.sys.speedKnown != known {
			info.setInvalid() // speed came or went with the link
		}
	}
}

// fillAttrs fills the sysfs datums of one interface: values when due, skipped otherwise; the
// invalid ones (no MAC, no IPv4 address, unknown speed) are marked invalid every time, from the
// cache.
func (p *netProvider) fillAttrs(row []ns.Raw, info *ifInfo, req collect.Request) {
	delivered := p.dl.Had(info.delivered)
	variable, static := collect.Due(req, ns.SVVariable, delivered), collect.Due(req, ns.SVStatic, delivered)
	// read says whether the attribute was read: one that could not be (a named pipe, garbage) is
	// "err", whose reason the class error gives; ok says whether the interface has the value.
	set := func(id uint8, read, ok bool, r ns.Raw) {
		vol := id == schema.NetUpID || id == schema.NetRunningID || id == schema.NetSpeedID // link state: every collection
		switch {
		case !variable && !vol:
			row[id-1] = ns.RawSkip()
		case !info.sysOK:
			row[id-1] = ns.RawNA(ns.ReasonNotPresent)
		case !read:
			row[id-1] = ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonProviderError}
		case !ok:
			row[id-1] = ns.RawInvalidData()
		default:
			row[id-1] = r
		}
	}
	s := &info.sys
	set(schema.NetMACID, s.have.address, info.mac != "", ns.RawS(info.mac))
	set(schema.NetMTUID, s.have.mtu, true, ns.RawN(s.mtu))
	set(schema.NetUpID, s.have.flags, true, ns.RawN(b2u(s.flags&iffUp != 0)))
	set(schema.NetBroadcastID, s.have.flags, true, ns.RawN(b2u(s.flags&iffBroadcast != 0)))
	set(schema.NetLoopbackID, s.have.flags, true, ns.RawN(b2u(s.flags&iffLoopback != 0)))
	set(schema.NetRunningID, s.have.flags, true, ns.RawN(b2u(s.running())))
	set(schema.NetSpeedID, true, s.speedKnown, ns.RawN(s.speedBps))
	switch {
	case !variable:
		row[schema.NetIPv4ID-1] = ns.RawSkip()
	case info.ipv4 == "":
		row[schema.NetIPv4ID-1] = ns.RawInvalidData() // none, or a tree: there is no netlink to ask
	default:
		row[schema.NetIPv4ID-1] = ns.RawS(info.ipv4)
	}
	switch {
	case !static:
		row[schema.NetIfIndexID-1] = ns.RawSkip()
	case !info.sysOK || s.ifindex == 0:
		row[schema.NetIfIndexID-1] = ns.RawNA(ns.ReasonNotPresent)
	default:
		row[schema.NetIfIndexID-1] = ns.RawN(s.ifindex)
	}
	// Invalid datums stay invalid whether or not they were read this time (DCI-INV-4).
	if info.sysOK {
		if info.mac == "" && s.have.address {
			row[schema.NetMACID-1] = ns.RawInvalidData()
		}
		if !s.speedKnown {
			row[schema.NetSpeedID-1] = ns.RawInvalidData()
		}
	}
	if info.ipv4 == "" {
		row[schema.NetIPv4ID-1] = ns.RawInvalidData()
	}
	row[len(row)-1] = ns.RawS(info.invalid)
}

// refresh re-reads sysfs for the named interfaces and, on the live host, the IPv4 addresses of
// all of them (one netlink dump).
func (p *netProvider) refresh(ctx context.Context, names []string, full bool) {
	var v4 map[string]string
	if p.roots.live() {
		v4 = ipv4Addrs(ctx)
	}
	if full {
		// Forget interfaces that are gone, so that the cache does not grow with churn.
		keep := make(map[string]*ifInfo, len(p.nd))
		for i := range p.nd {
			if o := p.ifs[p.nd[i].name]; o != nil {
				keep[o.name] = o
			}
		}
		for name, o := range p.ifs {
			if keep[name] == nil {
				o.link.close() // gone: its open attribute files too
			}
		}
		p.ifs = keep
	}
	for _, name := range names {
		info := p.ifs[name]
		if info == nil {
			info = &ifInfo{name: name}
			p.ifs[name] = info
		}
		old := info.sys.ifindex
		n, err := readNetIf(ctx, &p.fr, name)
		info.sys, info.sysOK, info.sysErr = n, err == nil || n.ifindex != 0, err
		info.mac = ""
		if hw, err := net.ParseMAC(n.address); err == nil && len(hw) == 6 {
			info.mac = string(hw)
		}
		info.ipv4 = v4[name]
		if info.sysOK && n.ifindex != 0 && n.ifindex < 1<<31 {
			info.value = n.ifindex
		} else {
			info.value = nameValue(name)
		}
		if old != 0 && old != n.ifindex {
			info.delivered = 0 // a new ifindex is a new instance: deliver everything
		}
		info.setInvalid()
	}
}

// setInvalid works out the interface's invalid-data list (DCI-INV-1): no MAC, no IPv4 address,
// no known speed (which changes with the link, so it is worked out at every read of it).
func (info *ifInfo) setInvalid() {
	var inv []ns.DatumID
	if info.sysOK && info.mac == "" {
		inv = append(inv, schema.NetMACID)
	}
	if info.ipv4 == "" {
		inv = append(inv, schema.NetIPv4ID)
	}
	if info.sysOK && !info.sys.speedKnown {
		inv = append(inv, schema.NetSpeedID)
	}
	info.invalid = schema.InvalidList(inv...)
}

// nameValue is the instance value of an interface whose ifindex sysfs does not give: a hash of
// its name with the top bit set, out of the range of real interface indices.
func nameValue(name string) uint64 {
	h := fnv.New32a()
	h.Write([]byte(name))
	return uint64(h.Sum32() | 1<<31)
}

// syncSpecs rebuilds the cached instance list only when the interfaces changed.
func (p *netProvider) syncSpecs() {
	same := len(p.specs) == len(p.rows)
	for i := 0; same && i < len(p.rows); i++ {
		same = p.specs[i].Levels[0] == p.rows[i].info.value && p.specs[i].OSName == p.rows[i].info.name
	}
	if same {
		return
	}
	p.specs = make([]ns.InstanceSpec, len(p.rows))
	levels := make([]uint64, len(p.rows))
	for i, r := range p.rows {
		info := r.info
		levels[i] = info.value
		var asn uint16
		if info.sysOK && info.value == info.sys.ifindex {
			asn = schema.ASNFor(info.value)
		}
		p.specs[i] = ns.InstanceSpec{Levels: levels[i : i+1 : i+1], OSName: info.name, ASN: asn,
			Desc: ns.Clip("Network interface "+ns.EscapeName(info.name), ns.SiMaxLName-1)}
	}
}

// ipv4Addrs returns the first IPv4 address of every interface of the live host, 4 bytes in
// network order, through gopsutil (netlink). Errors leave the addresses unknown (invalid).
func ipv4Addrs(ctx context.Context) map[string]string {
	list, err := gnet.InterfacesWithContext(gopsutilContext(ctx))
	if err != nil {
		return nil
	}
	out := make(map[string]string, len(list))
	for _, ifs := range list {
		for _, a := range ifs.Addrs {
			pfx, err := netip.ParsePrefix(a.Addr)
			if err != nil || !pfx.Addr().Is4() {
				continue
			}
			b := pfx.Addr().As4()
			out[ifs.Name] = string(b[:])
			break
		}
	}
	return out
}
