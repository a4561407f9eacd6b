package linux

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"golang.org/x/sys/unix"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// diskRawCol maps the counter datums (index id-1) to their /proc/diskstats column.
var diskRawCol = [...]diskCol{diskReads, diskWrites, diskReadsMerged, diskWritesMerged, diskReadBytes, diskWriteBytes,
	diskReadMs, diskWriteMs, diskIOMs, diskWeightedMs, diskInFlight, diskDiscards, diskDiscardBytes, diskDiscardMs,
	diskFlushes, diskFlushMs}

// blockInfo is what sysfs says about one device, cached per device number and refreshed when
// SV_VARIABLE data is due, when an unknown device appears, or when a device's counters went
// backwards (it was re-attached). diskstats alone is read every collection.
type blockInfo struct {
	name       string
	devno      uint64
	part       bool
	parent     uint64 // the disk's devno, for a partition
	parentName string
	partNo     uint64
	sizeBytes  uint64
	ro         bool
	removable  bool
	have       blockHave
	serial     string
	serialFrom string
	dmName     string
	inSysfs    bool  // false: a placeholder for a diskstats line sysfs does not describe
	sysErr     error // what of sysfs could not be read at the last refresh (the disk's and its partitions')

	ios       uint64 // reads + writes at the last collection (re-attach detection)
	haveIOs   bool
	seen      uint64 // collection number at which the device was last visible
	present   uint64 // collection number at which it was last in diskstats, visible or not
	delivered uint64 // collection number at which its slow datums were last delivered
}

// diskProvider reads /proc/diskstats every collection and sysfs when needed.
type diskProvider struct {
	base
	clock           func(ctx context.Context) (uint64, bool) // nil: the default collector clock
	showLoop        bool
	top, disk, part *ns.Class
	ds              []diskStat
	devs            map[uint64]*blockInfo
	dl              collect.Deliveries
	started         bool
	diskRows        []diskRow
	partRows        []diskRow
	diskSpecs       []ns.InstanceSpec
	partSpecs       []ns.InstanceSpec
	roList          string            // the invalid-data list of a read-only device
	reattached      []bool            // per diskstats line, scratch
	names, prev     map[string]uint64 // device name → number, this collection and the previous one
	// columns is the statistics a line of this kernel's diskstats has (11, 15 or 17), from the
	// readings so far: a later line with fewer was cut short (issue 29). kernelBoot is the boot
	// time it belongs to; another kernel may print another count.
	columns    int
	kernelBoot uint64
}

// diskRow is one visible diskstats line and what sysfs says about it.
type diskRow struct {
	st         *diskStat
	info       *blockInfo
	reattached bool
	unread     error // no good diskstats line: the counters are in error with this reason
}

// unreadRows adds the devices diskstats did not give a good line for, although it should have:
// the file had bad lines or could not be read at all (a named pipe, a timeout), and sysfs or the
// previous collection knows the device. They stay, their counters "err" with the reason, rather
// than vanish as if unplugged (issue 21); devices on good lines are untouched.
func (p *diskProvider) unreadRows(ds []diskStat, err error) {
	good := make(map[uint64]bool, len(ds))
	for i := range ds {
		good[mkdev(ds[i].major, ds[i].minor)] = true
	}
	var missing []*blockInfo
	for dn, info := range p.devs {
		if good[dn] || (!info.inSysfs && info.present != p.dl.Gen-1) {
			continue
		}
		if !info.part && !p.showLoop && schema.HiddenDisk(info.name) {
			continue
		}
		missing = append(missing, info)
	}
	slices.SortFunc(missing, func(a, b *blockInfo) int { return cmp.Compare(a.name, b.name) })
	for _, info := range missing {
		if !info.part {
			info.seen = p.dl.Gen
			p.diskRows = append(p.diskRows, diskRow{st: &diskStat{}, info: info, unread: err})
		}
	}
	for _, info := range missing {
		if parent := p.devs[info.parent]; info.part && parent != nil && parent.seen == p.dl.Gen {
			info.seen = p.dl.Gen
			p.partRows = append(p.partRows, diskRow{st: &diskStat{}, info: info, unread: err})
		}
	}
}

func newDiskProvider(r roots, boot *bootClock, showLoop bool) *diskProvider {
	p := &diskProvider{base: base{roots: r, now: time.Now, boot: boot}, showLoop: showLoop, devs: map[uint64]*blockInfo{},
		names: map[string]uint64{}, prev: map[string]uint64{}}
	p.top, p.disk, p.part = schema.DiskClasses()
	ids := make([]ns.DatumID, len(schema.DiskWriteIDs))
	for i, id := range schema.DiskWriteIDs {
		ids[i] = ns.DatumID(id)
	}
	p.roList = schema.InvalidList(ids...)
	p.declare(schema.HandleDisk, schema.DiskModule, schema.DiskTitle,
		"Reads, writes, bytes, times and queue of every block device and partition, from /proc/diskstats and sysfs",
		ns.SPTGeneralSupplier, p.top, p.disk, p.part)
	return p
}

// mkdev is the device number of major:minor, glibc's makedev encoding (see diskClasses).
func mkdev(major, minor uint32) uint64 { return unix.Mkdev(major, minor) }

// collectorClock is the clock_ms datum: CLOCK_MONOTONIC in milliseconds on the live host, the
// clock the kernel's I/O times advance with (both stop while the machine is suspended); under a
// tree, the tree's own /proc/uptime, so that a fixture's two captures give their true interval.
func (p *diskProvider) collectorClock(ctx context.Context) (uint64, bool) {
	if p.clock != nil {
		return p.clock(ctx)
	}
	if p.roots.live() {
		var ts unix.Timespec
		if unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts) != nil {
			return 0, false
		}
		return uint64(ts.Nano() / 1e6), true
	}
	up, err := readUptime(ctx, &p.fr)
	if err != nil {
		return 0, false
	}
	return up.upCs * 10, true
}

// Collect reads /proc/diskstats, and sysfs when needed, for both classes at once.
func (p *diskProvider) Collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dl.Start()
	ctx = p.context(ctx)
	if p.kernelBoot != p.boot.get() {
		p.columns, p.kernelBoot = 0, p.boot.get()
	}
	ds, err := readDiskstats(ctx, &p.fr, p.ds, p.columns)
	p.ds = ds
	for i := range ds {
		p.columns = max(p.columns, ds[i].columns)
	}
	if err != nil && ctx.Err() != nil {
		return collect.Batch{}, err // cancelled or past the deadline: the sampler says so
	}
	clock, clockOK := p.collectorClock(ctx)
	t := p.now()
	if !p.started || req.Static {
		refreshBoot(ctx, &p.fr, p.boot, p.now())
	}
	refreshed := false
	if !p.started || req.Variable || req.Static {
		p.refreshSysfs(ctx)
		refreshed = true
	}
	if err != nil && len(ds) == 0 && len(p.devs) == 0 {
		return collect.Batch{}, err // nothing read, and nothing known to show in error
	}
	p.started = true

	// Unknown devices, devices back after an absence and re-attached ones (their 64-bit counters
	// went backwards) send us back to sysfs, once per collection. A re-attached device's 32-bit millisecond counters are
	// withheld for this collection: the name space would take their decrease for a wrap.
	p.reattached = p.reattached[:0]
	unknown, again := false, false
	for i := range ds {
		d := &ds[i]
		info := p.devs[mkdev(d.major, d.minor)]
		re := false
		if info == nil || info.name != d.name || (info.present != 0 && info.present != p.dl.Gen-1) {
			unknown = true
		} else if ios := d.v[diskReads] + d.v[diskWrites]; info.haveIOs && ios < info.ios {
			re, again = true, true
		}
		p.reattached = append(p.reattached, re)
	}
	if (unknown || again) && !refreshed {
		p.refreshSysfs(ctx)
	}
	p.placeholders()

	// A name that changed device number since the previous collection (a device replaced
	// between two collections) is left out once: the registry adds new instances before it
	// removes old ones, and the old one still holds the name.
	p.diskRows, p.partRows = p.diskRows[:0], p.partRows[:0]
	renamed := func(info *blockInfo) bool {
		prev, ok := p.prev[info.name]
		return ok && prev != info.devno
	}
	for i := range ds {
		d := &ds[i]
		info := p.devs[mkdev(d.major, d.minor)]
		info.ios, info.haveIOs = d.v[diskReads]+d.v[diskWrites], true
		info.present = p.dl.Gen
		p.names[info.name] = info.devno
		if info.part || renamed(info) {
			continue
		}
		if !p.showLoop && schema.HiddenDisk(info.name) {
			continue
		}
		info.seen = p.dl.Gen
		p.diskRows = append(p.diskRows, diskRow{st: d, info: info, reattached: p.reattached[i]})
	}
	for i := range ds {
		d := &ds[i]
		info := p.devs[mkdev(d.major, d.minor)]
		if !info.part || renamed(info) {
			continue
		}
		if parent := p.devs[info.parent]; parent == nil || parent.seen != p.dl.Gen {
			continue // its disk is hidden, or absent from diskstats
		}
		info.seen = p.dl.Gen
		p.partRows = append(p.partRows, diskRow{st: d, info: info, reattached: p.reattached[i]})
	}
	if err != nil {
		p.unreadRows(ds, err)
	}
	p.names, p.prev = p.prev, p.names
	clear(p.names)

	b := p.batch(t)
	if req.Wants(p.disk) {
		p.diskSpecs = syncDiskSpecs(p.diskSpecs, p.diskRows, false)
		b.Classes = append(b.Classes, p.reading(p.disk, p.diskSpecs, p.diskRows, req, clock, clockOK, err))
	}
	if req.Wants(p.part) {
		p.partSpecs = syncDiskSpecs(p.partSpecs, p.partRows, true)
		b.Classes = append(b.Classes, p.reading(p.part, p.partSpecs, p.partRows, req, clock, clockOK, err))
	}
	p.dl.Done(ctx)
	return b, nil
}

// reading fills one class's raw values.
func (p *diskProvider) reading(c *ns.Class, specs []ns.InstanceSpec, rows []diskRow, req collect.Request, clock uint64, clockOK bool, err error) collect.ClassReading {
	nd := len(c.Datums)
	raw := make([]ns.Raw, len(rows)*nd)
	for k := range rows {
		r := &rows[k]
		row := raw[k*nd : (k+1)*nd : (k+1)*nd]
		for i, col := range diskRawCol {
			switch {
			case r.unread != nil:
				row[i] = missing(r.unread)
			case !r.st.has(col):
				row[i] = ns.RawNA(ns.ReasonNotSupported)
			case r.reattached && diskColInfo[col].bits == 32 && !diskColInfo[col].gauge:
				row[i] = ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonCounterDecrease}
			default:
				row[i] = ns.RawN(r.st.v[col])
			}
		}
		if clockOK {
			row[schema.DiskClockID-1] = ns.RawN(clock)
		} else {
			row[schema.DiskClockID-1] = ns.RawNA(ns.ReasonNoValues)
		}
		info := r.info
		if collect.Due(req, ns.SVVariable, p.dl.Had(info.delivered)) {
			// An attribute sysfs does not have is not present; one it could not give (a named
			// pipe, garbage) is "err", and the class error says why (issue 21).
			row[schema.DiskSizeID-1], row[schema.DiskROID-1] = ns.RawNA(ns.ReasonNotPresent), ns.RawNA(ns.ReasonNotPresent)
			if readFailed(info.sysErr) {
				row[schema.DiskSizeID-1], row[schema.DiskROID-1] = missing(info.sysErr), missing(info.sysErr)
			}
			if info.have.size {
				row[schema.DiskSizeID-1] = ns.RawN(info.sizeBytes)
			}
			if info.have.ro {
				row[schema.DiskROID-1] = ns.RawN(b2u(info.ro))
			}
		} else {
			row[schema.DiskSizeID-1], row[schema.DiskROID-1] = ns.RawSkip(), ns.RawSkip()
		}
		row[nd-1] = ns.RawS("")
		if info.have.ro && info.ro {
			for _, id := range schema.DiskWriteIDs {
				row[id-1] = ns.RawInvalidData()
			}
			row[nd-1] = ns.RawS(p.roList)
		}
		if err == nil {
			info.delivered = p.dl.Gen
		}
	}
	// Sysfs attributes that could not be read fail only their datums; the class error says why.
	seen := map[error]bool{}
	for k := range rows {
		if e := rows[k].info.sysErr; readFailed(e) && !seen[e] {
			seen[e] = true
			err = errors.Join(err, e)
		}
	}
	return collect.ClassReading{Class: c, Specs: specs, Raw: raw, Err: err}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// syncDiskSpecs returns the instance list for rows, reusing specs when the devices are the same
// ones in the same order (the common case: no allocation).
func syncDiskSpecs(specs []ns.InstanceSpec, rows []diskRow, part bool) []ns.InstanceSpec {
	same := len(specs) == len(rows)
	for i := 0; same && i < len(rows); i++ {
		l := specs[i].Levels
		same = l[len(l)-1] == rows[i].info.devno && specs[i].OSName == rows[i].info.name
	}
	if same {
		return specs
	}
	specs = make([]ns.InstanceSpec, len(rows))
	for i := range rows {
		specs[i] = rows[i].info.spec(part)
	}
	return specs
}

// spec is the device's instance (schema's naming rule, diskDevice.spec).
func (b *blockInfo) spec(part bool) ns.InstanceSpec {
	return schema.DiskDevice{Name: b.name, Devno: b.devno, Parent: b.parent, ParentName: b.parentName, PartNo: b.partNo,
		Serial: b.serial, SerialFrom: b.serialFrom, DMName: b.dmName, Removable: b.removable,
		RemovableKnown: b.have.removable}.Spec(part)
}

// refreshSysfs re-reads every device's sysfs description. Bookkeeping (delivery, the re-attach
// check) carries over for a device with the same number and name. Sysfs problems are not
// errors of the class: the counters are still good, and the attributes they concern are n/a.
func (p *diskProvider) refreshSysfs(ctx context.Context) {
	old := p.devs
	devs := make(map[uint64]*blockInfo, len(old))
	keep := func(b *blockInfo) {
		if o := old[b.devno]; o != nil && o.name == b.name && o.part == b.part {
			b.ios, b.haveIOs, b.seen, b.present, b.delivered = o.ios, o.haveIOs, o.seen, o.present, o.delivered
		}
		devs[b.devno] = b
	}
	names, _ := listBlockDevs(ctx)
	for _, name := range names {
		bd, err := readBlockDev(ctx, &p.fr, name)
		if bd.major == 0 {
			continue // dev unreadable: the diskstats line gets a placeholder
		}
		dn := mkdev(bd.major, bd.minor)
		keep(&blockInfo{name: name, devno: dn, sizeBytes: bd.sizeBytes, ro: bd.readOnly, removable: bd.removable,
			have: bd.have, serial: bd.serial, serialFrom: bd.serialFrom, dmName: bd.dmName, inSysfs: true, sysErr: err})
		for _, pt := range bd.parts {
			if pt.major == 0 {
				continue
			}
			keep(&blockInfo{name: pt.name, devno: mkdev(pt.major, pt.minor), part: true, parent: dn, parentName: name,
				partNo: pt.number, sizeBytes: pt.sizeBytes, ro: pt.readOnly, have: pt.have, inSysfs: true, sysErr: err})
		}
	}
	p.devs = devs
	for i := range p.ds { // placeholders of devices still in diskstats keep their bookkeeping
		dn := mkdev(p.ds[i].major, p.ds[i].minor)
		if o := old[dn]; o != nil && !o.inSysfs && devs[dn] == nil && o.name == p.ds[i].name {
			devs[dn] = o
		}
	}
}

// placeholders gives every diskstats line sysfs does not describe an entry of its own, treated
// as a whole device without attributes, so that it is shown and does not send us back to sysfs
// every collection.
func (p *diskProvider) placeholders() {
	for i := range p.ds {
		d := &p.ds[i]
		dn := mkdev(d.major, d.minor)
		if b := p.devs[dn]; b != nil && b.name == d.name {
			continue
		}
		p.devs[dn] = &blockInfo{name: d.name, devno: dn}
	}
}
