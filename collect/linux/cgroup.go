package linux

// Control groups (issue 17): the hierarchy under /sys/fs/cgroup as nested contexts, one tree
// whatever the host mounts: the unified (v2) hierarchy, and on a v1 or hybrid host the cpu,
// cpuacct, memory, blkio and pids controllers' hierarchies, merged by path. Read only while
// someone subscribes (ns.Class.OnDemand).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// maxCgroups bounds the groups read in one collection: a host with more is read in part, with
// an error that says so, rather than stalling the sampler.
const maxCgroups = 20000

// cgHier is one mounted hierarchy: the unified one, or a v1 controller's.
type cgHier struct {
	dir   string
	v2    bool
	ctrls []string // the v1 controllers it carries ("cpu", "cpuacct")
}

func (h cgHier) has(c string) bool { return h.v2 || slices.Contains(h.ctrls, c) }

// cgroupLayout finds the hierarchies under <sys>/fs/cgroup: unified at the top (v2 hosts), or
// v1 controllers' directories with the unified one in "unified" (hybrid hosts).
func cgroupLayout(root string) ([]cgHier, error) {
	if regularExists(filepath.Join(root, "cgroup.controllers")) {
		return []cgHier{{dir: root, v2: true}}, nil
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var out []cgHier
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if regularExists(filepath.Join(dir, "cgroup.controllers")) {
			out = append(out, cgHier{dir: dir, v2: true})
			continue
		}
		var ctrls []string
		for c := range strings.SplitSeq(e.Name(), ",") {
			switch c {
			case "cpu", "cpuacct", "memory", "blkio", "pids":
				ctrls = append(ctrls, c)
			}
		}
		if len(ctrls) > 0 && regularExists(filepath.Join(dir, "cgroup.procs")) {
			out = append(out, cgHier{dir: dir, ctrls: ctrls})
		}
	}
	return out, nil
}

func regularExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// cgNode is one group: its path below the root, and where it is in each hierarchy.
type cgNode struct {
	rel    string // "/system.slice/ssh.service"
	dirs   []string
	hiers  []int // index into the layout, one per dir
	levels []uint64
	parent []uint64
}

// cgroupProvider reads the control groups.
type cgroupProvider struct {
	base
	top, grp, dev *ns.Class
	names         map[string]string // container id → name, read once
	devNames      map[uint64]string
	lastLayout    time.Time
	layout        []cgHier
}

func newCgroupProvider(r roots, boot *bootClock, ncpu int) *cgroupProvider {
	p := &cgroupProvider{base: base{roots: r, now: time.Now, boot: boot}, names: map[string]string{}, devNames: map[uint64]string{}}
	p.collectLocked = p.collect
	p.top, p.grp, p.dev = schema.CGroupClasses(ncpu)
	p.declare(schema.HandleCGroup, schema.CGroupModule, schema.CGroupTitle, "Control groups: CPU, memory, I/O and pressure of services and containers",
		ns.SPTGeneralSupplier, p.top, p.grp, p.dev)
	return p
}

// collect walks the hierarchies and reads each group.
func (p *cgroupProvider) collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	b := p.batch(time.Time{})
	if !req.Wants(p.grp) && !req.Wants(p.dev) {
		b.Time = p.now()
		return b, nil
	}
	if p.boot.get() == 0 || req.Static {
		refreshBoot(ctx, &p.fr, p.boot, p.now())
		b.Reset = collect.ResetOf(p.boot.get())
	}
	root := filepath.Join(p.roots.sys, "fs", "cgroup")
	if p.layout == nil || p.now().Sub(p.lastLayout) > mountsEvery {
		l, err := cgroupLayout(root)
		if errors.Is(err, fs.ErrNotExist) {
			l, err = nil, nil // no control groups mounted: no instances, no error
		}
		if err != nil {
			return collect.Batch{}, fmt.Errorf("cgroup: %w", err)
		}
		p.layout, p.lastLayout = l, p.now()
	}
	nodes, werr := p.walk(ctx)
	if err := ctx.Err(); err != nil {
		return collect.Batch{}, err
	}
	nd := len(p.grp.Datums)
	specs := make([]ns.InstanceSpec, 0, len(nodes))
	raw := make([]ns.Raw, len(nodes)*nd)
	var dspecs []ns.InstanceSpec
	var draw []ns.Raw
	var errs []error
	if werr != nil {
		errs = append(errs, werr)
	}
	for i, n := range nodes {
		row := raw[i*nd : (i+1)*nd]
		devs, err := p.read(n, row)
		if err != nil && len(errs) < 3 {
			errs = append(errs, err)
		}
		name := filepath.Base(n.rel)
		specs = append(specs, ns.InstanceSpec{Levels: n.levels, Parent: n.parent, OSName: name, Desc: "Control group " + ns.EscapeName(n.rel)})
		for _, d := range devs {
			dspecs = append(dspecs, ns.InstanceSpec{Levels: []uint64{n.levels[0], d.dev}, OSName: p.devName(d.dev),
				Desc: "I/O of " + ns.EscapeName(n.rel) + " on one device"})
			draw = append(draw, ns.RawN(d.rbytes), ns.RawN(d.wbytes), ns.RawN(d.rios), ns.RawN(d.wios))
		}
	}
	b.Time = p.now()
	b.Classes = []collect.ClassReading{{Class: p.grp, Specs: specs, Raw: raw, Err: errors.Join(errs...)}, {Class: p.dev, Specs: dspecs, Raw: draw}}
	return b, nil
}

// walk lists every group of every hierarchy, merged by path, parents before children.
func (p *cgroupProvider) walk(ctx context.Context) ([]*cgNode, error) {
	byRel := map[string]*cgNode{}
	var order []*cgNode
	var err error
	for hi, h := range p.layout {
		var rec func(dir, rel string, depth int)
		rec = func(dir, rel string, depth int) {
			if len(order) >= maxCgroups || depth > 32 || ctx.Err() != nil {
				if len(order) >= maxCgroups && err == nil {
					err = fmt.Errorf("cgroup: more than %d groups: the rest are left out", maxCgroups)
				}
				return
			}
			ents, rerr := os.ReadDir(dir)
			if rerr != nil {
				return // removed while walking, or unreadable: its subgroups are not shown
			}
			for _, e := range ents {
				if !e.IsDir() {
					continue
				}
				r := rel + "/" + e.Name()
				d := filepath.Join(dir, e.Name())
				n := byRel[r]
				if n == nil {
					n = &cgNode{rel: r}
					byRel[r] = n
					order = append(order, n)
				}
				n.dirs, n.hiers = append(n.dirs, d), append(n.hiers, hi)
				rec(d, r, depth+1)
			}
		}
		rec(h.dir, "", 0)
	}
	// Parents come before children: by path, a parent is a prefix of its children.
	slices.SortFunc(order, func(a, b *cgNode) int { return strings.Compare(a.rel, b.rel) })
	for _, n := range order {
		h := fnv.New64a()
		h.Write([]byte(n.rel))
		// The identity: the path, and the inode of its directory in the first hierarchy that
		// has it (the unified one when it does), so a group re-created is a new instance.
		primary := 0
		for i, hi := range n.hiers {
			if p.layout[hi].v2 {
				primary = i
				break
			}
		}
		var st unix.Stat_t
		var ino uint64
		if unix.Stat(n.dirs[primary], &st) == nil {
			ino = st.Ino
		}
		n.levels = []uint64{h.Sum64(), ino}
		if i := strings.LastIndexByte(n.rel, '/'); i > 0 {
			if pn := byRel[n.rel[:i]]; pn != nil {
				n.parent = pn.levels
			}
		}
	}
	return order, err
}

// cgDev is one device's I/O in a group.
type cgDev struct {
	dev                        uint64 // major<<32 | minor
	rbytes, wbytes, rios, wios uint64
}

// read fills one group's row from each hierarchy it is in, and returns its per-device I/O.
func (p *cgroupProvider) read(n *cgNode, row []ns.Raw) ([]cgDev, error) {
	for i := range row {
		row[i] = ns.RawNA(ns.ReasonNotPresent)
	}
	var versions []string
	var devs []cgDev
	var firstErr error
	note := func(err error) {
		if err != nil && firstErr == nil && !errors.Is(err, fs.ErrNotExist) {
			firstErr = err
		}
	}
	procsDone := false
	for k, dir := range n.dirs {
		h := p.layout[n.hiers[k]]
		if h.v2 {
			versions = append(versions, "v2")
			note(p.readV2(dir, row, &devs))
		} else {
			versions = append(versions, "v1 "+strings.Join(h.ctrls, ","))
			note(p.readV1(dir, h, row, &devs))
		}
		if !procsDone {
			if data, err := p.fr.read(filepath.Join(dir, "cgroup.procs")); err == nil {
				row[schema.CGProcsID-1] = ns.RawN(uint64(bytes.Count(data, []byte{'\n'})))
				procsDone = true
			}
		}
	}
	row[schema.CGVersionID-1] = ns.RawS(strings.Join(versions, " + "))
	id, runtime := containerOf(n.rel)
	if id != "" {
		row[schema.CGContainerID-1], row[schema.CGRuntimeID-1] = ns.RawS(id), ns.RawS(runtime)
		row[schema.CGContainerNameID-1] = p.containerName(id, runtime)
	}
	row[schema.CGIOBytesID-1] = ns.Raw{}
	if len(devs) > 0 {
		var r, w, ri, wi uint64
		for _, d := range devs {
			r, w, ri, wi = r+d.rbytes, w+d.wbytes, ri+d.rios, wi+d.wios
		}
		row[schema.CGIORBytesID-1], row[schema.CGIOWBytesID-1], row[schema.CGIORIOsID-1], row[schema.CGIOWIOsID-1] = ns.RawN(r), ns.RawN(w), ns.RawN(ri), ns.RawN(wi)
	}
	if firstErr != nil {
		return devs, fmt.Errorf("cgroup %s: %w", n.rel, firstErr)
	}
	return devs, nil
}

// keyed reads a "name value" file (cpu.stat, memory.stat) and calls f for each line.
func (p *cgroupProvider) keyed(path string, f func(k string, v uint64)) error {
	data, err := p.fr.read(path)
	if err != nil {
		return err
	}
	for n := 1; len(data) > 0; n++ {
		var line []byte
		line, data = cutLine(data)
		k, v := nextField(line)
		if len(k) == 0 {
			continue
		}
		x, err := parseUint(trimSpace(v))
		if err != nil {
			return fmt.Errorf("parse %s line %d: %s: %w", path, n, k, err)
		}
		f(string(k), x)
	}
	return nil
}

// single reads a file holding one number; "max" is no limit (ok false, no error).
func (p *cgroupProvider) single(path string) (uint64, bool, error) {
	data, err := p.fr.read(path)
	if err != nil {
		return 0, false, err
	}
	t := trimSpace(data)
	if string(t) == "max" {
		return 0, false, nil
	}
	v, err := parseUint(t)
	if err != nil {
		return 0, false, fmt.Errorf("parse %s: %w", path, err)
	}
	return v, true, nil
}

func (p *cgroupProvider) readV2(dir string, row []ns.Raw, devs *[]cgDev) error {
	var errs []error
	add := func(err error) {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	add(p.keyed(filepath.Join(dir, "cpu.stat"), func(k string, v uint64) {
		switch k {
		case "usage_usec":
			row[schema.CGCPUUsageID-1] = ns.RawN(v)
		case "user_usec":
			row[schema.CGCPUUserID-1] = ns.RawN(v)
		case "system_usec":
			row[schema.CGCPUSystemID-1] = ns.RawN(v)
		case "throttled_usec":
			row[schema.CGThrottledID-1] = ns.RawN(v)
		case "nr_throttled":
			row[schema.CGNrThrottledID-1] = ns.RawN(v)
		}
	}))
	if v, ok, err := p.single(filepath.Join(dir, "memory.current")); err == nil && ok {
		row[schema.CGMemCurrentID-1] = ns.RawN(v)
	} else {
		add(err)
	}
	if v, ok, err := p.single(filepath.Join(dir, "memory.max")); err == nil && ok {
		row[schema.CGMemMaxID-1] = ns.RawN(v)
	} else {
		add(err)
	}
	if v, ok, err := p.single(filepath.Join(dir, "memory.swap.current")); err == nil && ok {
		row[schema.CGSwapCurrentID-1] = ns.RawN(v)
	} else {
		add(err)
	}
	if data, err := p.fr.read(filepath.Join(dir, "io.stat")); err == nil {
		ds, err := parseIOStat(filepath.Join(dir, "io.stat"), data)
		add(err)
		*devs = mergeDevs(*devs, ds)
	} else {
		add(err)
	}
	for _, r := range [...]struct {
		file                       string
		someT, someA, fullT, fullA uint8
	}{
		{"cpu.pressure", schema.CGCPUSomeTotalID, schema.CGCPUSomeAvg10ID, 0, 0},
		{"memory.pressure", schema.CGMemSomeTotalID, schema.CGMemSomeAvg10ID, schema.CGMemFullTotalID, schema.CGMemFullAvg10ID},
		{"io.pressure", schema.CGIOSomeTotalID, schema.CGIOSomeAvg10ID, schema.CGIOFullTotalID, schema.CGIOFullAvg10ID},
	} {
		path := filepath.Join(dir, r.file)
		data, err := p.fr.read(path)
		if err != nil {
			add(err)
			continue
		}
		pf, err := parsePressure(path, data)
		if err != nil {
			add(err)
			continue
		}
		row[r.someT-1], row[r.someA-1] = ns.RawN(pf.some.total), ns.RawN(pf.some.avg10)
		if r.fullT > 0 && pf.full.present {
			row[r.fullT-1], row[r.fullA-1] = ns.RawN(pf.full.total), ns.RawN(pf.full.avg10)
		}
	}
	return errors.Join(errs...)
}

// noLimitV1 is where a v1 limit means "none": the kernel prints PAGE_COUNTER_MAX in bytes.
const noLimitV1 = 1 << 62

func (p *cgroupProvider) readV1(dir string, h cgHier, row []ns.Raw, devs *[]cgDev) error {
	var errs []error
	add := func(err error) {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if h.has("cpuacct") {
		if v, ok, err := p.single(filepath.Join(dir, "cpuacct.usage")); err == nil && ok {
			row[schema.CGCPUUsageID-1] = ns.RawN(v / 1000)
		} else {
			add(err)
		}
		add(p.keyed(filepath.Join(dir, "cpuacct.stat"), func(k string, v uint64) {
			switch k {
			case "user":
				row[schema.CGCPUUserID-1] = ns.RawN(v * (1e6 / schema.UserHZ))
			case "system":
				row[schema.CGCPUSystemID-1] = ns.RawN(v * (1e6 / schema.UserHZ))
			}
		}))
	}
	if h.has("cpu") {
		add(p.keyed(filepath.Join(dir, "cpu.stat"), func(k string, v uint64) {
			switch k {
			case "throttled_time":
				row[schema.CGThrottledID-1] = ns.RawN(v / 1000)
			case "nr_throttled":
				row[schema.CGNrThrottledID-1] = ns.RawN(v)
			}
		}))
	}
	if h.has("memory") {
		usage, okU, err := p.single(filepath.Join(dir, "memory.usage_in_bytes"))
		if err == nil && okU {
			row[schema.CGMemCurrentID-1] = ns.RawN(usage)
		}
		add(err)
		if v, ok, err := p.single(filepath.Join(dir, "memory.limit_in_bytes")); err == nil && ok && v < noLimitV1 {
			row[schema.CGMemMaxID-1] = ns.RawN(v)
		} else {
			add(err)
		}
		if v, ok, err := p.single(filepath.Join(dir, "memory.memsw.usage_in_bytes")); err == nil && ok && okU && v >= usage {
			row[schema.CGSwapCurrentID-1] = ns.RawN(v - usage)
		}
	}
	if h.has("blkio") {
		var ds []cgDev
		for _, f := range [...]string{"blkio.throttle.io_service_bytes", "blkio.throttle.io_serviced"} {
			path := filepath.Join(dir, f)
			data, err := p.fr.read(path)
			if err != nil {
				add(err)
				continue
			}
			ds, err = parseBlkio(path, data, ds, f == "blkio.throttle.io_serviced")
			add(err)
		}
		*devs = mergeDevs(*devs, ds)
	}
	return errors.Join(errs...)
}

// parseIOStat parses a v2 io.stat: "8:0 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=0 dios=0".
func parseIOStat(src string, data []byte) ([]cgDev, error) {
	var out []cgDev
	for n := 1; len(data) > 0; n++ {
		var line []byte
		line, data = cutLine(data)
		f, rest := nextField(line)
		if len(f) == 0 {
			continue
		}
		maj, min, err := parseDevNum(f)
		if err != nil {
			return out, fmt.Errorf("parse %s line %d: device: %w", src, n, err)
		}
		d := cgDev{dev: uint64(maj)<<32 | uint64(min)}
		for {
			var kv []byte
			kv, rest = nextField(rest)
			if len(kv) == 0 {
				break
			}
			k, v, ok := bytes.Cut(kv, []byte{'='})
			if !ok {
				continue
			}
			x, err := parseUint(v)
			if err != nil {
				return out, fmt.Errorf("parse %s line %d: %s: %w", src, n, k, err)
			}
			switch string(k) {
			case "rbytes":
				d.rbytes = x
			case "wbytes":
				d.wbytes = x
			case "rios":
				d.rios = x
			case "wios":
				d.wios = x
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// parseBlkio parses a v1 blkio.throttle file ("8:0 Read 4096", ..., "Total 0") into ds: bytes,
// or operations when ops.
func parseBlkio(src string, data []byte, ds []cgDev, ops bool) ([]cgDev, error) {
	for n := 1; len(data) > 0; n++ {
		var line []byte
		line, data = cutLine(data)
		var fa [4][]byte
		f := fieldsOf(line, fa[:0])
		if len(f) != 3 {
			continue // "Total N", blank
		}
		maj, min, err := parseDevNum(f[0])
		if err != nil {
			return ds, fmt.Errorf("parse %s line %d: device: %w", src, n, err)
		}
		x, err := parseUint(f[2])
		if err != nil {
			return ds, fmt.Errorf("parse %s line %d: %w", src, n, err)
		}
		dev := uint64(maj)<<32 | uint64(min)
		i := slices.IndexFunc(ds, func(d cgDev) bool { return d.dev == dev })
		if i < 0 {
			ds = append(ds, cgDev{dev: dev})
			i = len(ds) - 1
		}
		d := &ds[i]
		switch string(f[1]) {
		case "Read":
			if ops {
				d.rios = x
			} else {
				d.rbytes = x
			}
		case "Write":
			if ops {
				d.wios = x
			} else {
				d.wbytes = x
			}
		}
	}
	return ds, nil
}

// mergeDevs adds ds to into, device by device (a hybrid host may report a device in v1's blkio
// and v2's io.stat; the first wins).
func mergeDevs(into, ds []cgDev) []cgDev {
	for _, d := range ds {
		if !slices.ContainsFunc(into, func(x cgDev) bool { return x.dev == d.dev }) {
			into = append(into, d)
		}
	}
	return into
}

// devName is a block device's kernel name from /sys/dev/block/MAJ:MIN/uevent, or MAJ:MIN.
func (p *cgroupProvider) devName(dev uint64) string {
	if n, ok := p.devNames[dev]; ok {
		return n
	}
	mm := fmt.Sprintf("%d:%d", dev>>32, dev&0xffffffff)
	name := mm
	if data, err := p.fr.read(filepath.Join(p.roots.sys, "dev", "block", mm, "uevent")); err == nil {
		for len(data) > 0 {
			var line []byte
			line, data = cutLine(data)
			if v, ok := bytes.CutPrefix(line, []byte("DEVNAME=")); ok && len(v) > 0 {
				name = string(v)
			}
		}
	}
	p.devNames[dev] = name
	return name
}

// containerOf finds a container id in a group's path and names the runtime by how it names its
// groups: docker-ID.scope or /docker/ID, cri-containerd-ID.scope, libpod-ID.scope, crio-ID.scope.
func containerOf(rel string) (id, runtime string) {
	for comp := range strings.SplitSeq(rel, "/") {
		base := strings.TrimSuffix(comp, ".scope")
		for _, pre := range [...]struct{ prefix, runtime string }{
			{"docker-", "docker"}, {"cri-containerd-", "containerd"}, {"libpod-", "podman"}, {"crio-", "cri-o"}, {"", ""},
		} {
			rest, ok := strings.CutPrefix(base, pre.prefix)
			if !ok || !isHexID(rest) {
				continue
			}
			rt := pre.runtime
			if rt == "" {
				rt = "docker" // /docker/ID under cgroupfs drivers
				if strings.Contains(rel, "/kubepods") {
					rt = "containerd"
				}
			}
			return rest, rt
		}
	}
	return "", ""
}

func isHexID(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// containerName reads a docker container's name from its own files (no daemon asked); for the
// other runtimes the name lives only in their daemon.
func (p *cgroupProvider) containerName(id, runtime string) ns.Raw {
	if n, ok := p.names[id]; ok {
		return ns.RawS(n)
	}
	if runtime != "docker" {
		return ns.RawNA(ns.ReasonNotSupported)
	}
	path := filepath.Join(p.roots.varDir, "lib", "docker", "containers", id, "config.v2.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return missing(err)
	}
	var cfg struct{ Name string }
	if json.Unmarshal(data, &cfg) != nil || cfg.Name == "" {
		return ns.RawNA(ns.ReasonNoValues)
	}
	name := strings.TrimPrefix(cfg.Name, "/")
	p.names[id] = name
	return ns.RawS(name)
}
