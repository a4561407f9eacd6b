package linux

// NUMA nodes (/sys/devices/system/node/nodeN): each node's memory and where its allocations were
// served (numastat), the answer to "is memory local?".

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// numaNode is one node's figures.
type numaNode struct {
	total, free                                  uint64 // bytes
	hit, miss, foreign, local, other, interleave uint64 // pages allocated
	haveMem, haveStat                            bool
}

// parseNodeMeminfo parses a node's meminfo (read from src): "Node 0 MemTotal:  5204172 kB".
func parseNodeMeminfo(src string, data []byte, n *numaNode) error {
	for i := 1; len(data) > 0; i++ {
		var line []byte
		line, data = cutLine(data)
		var fa [8][]byte
		f := fieldsOf(line, fa[:0])
		if len(f) == 0 {
			continue
		}
		if len(f) < 4 || string(f[0]) != "Node" {
			return fmt.Errorf("numa: parse %s line %d: %w: want Node N Key: value kB (line %q)", src, i, errTooFewFields, line)
		}
		var dst *uint64
		switch string(f[2]) {
		case "MemTotal:":
			dst = &n.total
		case "MemFree:":
			dst = &n.free
		default:
			continue
		}
		v, err := parseUint(f[3])
		if err != nil || v > 1<<54 {
			return fmt.Errorf("numa: parse %s line %d: %s %w (line %q)", src, i, f[2], errNotNumber, line)
		}
		*dst = v << 10
	}
	if n.total == 0 {
		return fmt.Errorf("numa: parse %s: no MemTotal: %w", src, errNoData)
	}
	n.haveMem = true
	return nil
}

// parseNumastat parses a node's numastat (read from src): "numa_hit 64120692" lines.
func parseNumastat(src string, data []byte, n *numaNode) error {
	got := 0
	for i := 1; len(data) > 0; i++ {
		var line []byte
		line, data = cutLine(data)
		k, rest := nextField(line)
		if len(k) == 0 {
			continue
		}
		v, _ := nextField(rest)
		var dst *uint64
		switch string(k) {
		case "numa_hit":
			dst = &n.hit
		case "numa_miss":
			dst = &n.miss
		case "numa_foreign":
			dst = &n.foreign
		case "local_node":
			dst = &n.local
		case "other_node":
			dst = &n.other
		case "interleave_hit":
			dst = &n.interleave
		default:
			continue
		}
		x, err := parseUint(v)
		if err != nil {
			return fmt.Errorf("numa: parse %s line %d: %s: %w (line %q)", src, i, k, err, line)
		}
		*dst = x
		got++
	}
	if got == 0 {
		return fmt.Errorf("numa: parse %s: %w", src, errNoData)
	}
	n.haveStat = true
	return nil
}

// numaProvider reads /sys/devices/system/node.
type numaProvider struct {
	base
	top, node *ns.Class
	specs     []ns.InstanceSpec
	files     map[uint64]*[2]attrFile // each node's meminfo and numastat, kept open
	buf       [8192]byte
	ids       []uint64  // the nodes, listed again every nodeListEvery
	listed    time.Time // when
}

// nodeListEvery is how often the nodes are listed again: they come and go only with memory
// hot-plug.
const nodeListEvery = 10 * time.Second

func newNUMAProvider(r roots, boot *bootClock, memTotal uint64, absent string) *numaProvider {
	p := &numaProvider{base: base{roots: r, now: time.Now, boot: boot}, files: map[uint64]*[2]attrFile{}}
	p.collectLocked = p.collect
	p.top, p.node = schema.NUMAClasses(memTotal)
	notApplicable(absent, p.top, p.node)
	p.declare(schema.HandleNUMA, schema.NUMAModule, schema.NUMATitle, "Memory and allocations per NUMA node, from /sys/devices/system/node",
		ns.SPTGeneralSupplier, p.top, p.node)
	return p
}

// collect lists the nodes and reads each one's two files. A host without the directory (no
// NUMA support) has no nodes, which is not an error.
func (p *numaProvider) collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	b := p.batch(p.now())
	if !req.Wants(p.node) {
		return b, nil
	}
	dir := filepath.Join(rootsFrom(ctx).sys, "devices", "system", "node")
	now := p.now()
	if p.listed.IsZero() || req.Variable || now.Sub(p.listed) >= nodeListEvery || !p.roots.live() {
		ents, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			b.Classes = []collect.ClassReading{{Class: p.node}}
			return b, nil
		}
		if err != nil {
			return collect.Batch{}, fmt.Errorf("numa: %w", err)
		}
		p.relist(ents, now)
	}
	ids := p.ids
	nd := len(p.node.Datums)
	raw := make([]ns.Raw, len(ids)*nd)
	p.specs = p.specs[:0]
	var errs []error
	for i, id := range ids {
		if err := ctx.Err(); err != nil {
			return collect.Batch{}, err
		}
		name := "node" + strconv.FormatUint(id, 10)
		var n numaNode
		files := p.files[id]
		if files == nil {
			files = &[2]attrFile{}
			p.files[id] = files
		}
		merr := p.readNodeFile(&files[0], filepath.Join(dir, name, "meminfo"), &n, parseNodeMeminfo)
		serr := p.readNodeFile(&files[1], filepath.Join(dir, name, "numastat"), &n, parseNumastat)
		row := raw[i*nd : (i+1)*nd]
		set := func(idx int, v uint64, ok bool, err error) {
			switch {
			case ok:
				row[idx-1] = ns.RawN(v)
			default:
				row[idx-1] = missing(err)
			}
		}
		set(schema.NUMATotalID, n.total, n.haveMem, merr)
		set(schema.NUMAFreeID, n.free, n.haveMem, merr)
		for _, s := range []struct {
			id int
			v  uint64
		}{{schema.NUMAHitID, n.hit}, {schema.NUMAMissID, n.miss}, {schema.NUMAForeignID, n.foreign}, {schema.NUMALocalID, n.local}, {schema.NUMAOtherID, n.other}, {schema.NUMAInterleaveID, n.interleave}} {
			set(s.id, s.v, n.haveStat, serr)
		}
		for _, e := range []error{merr, serr} {
			if e != nil && !errors.Is(e, fs.ErrNotExist) {
				errs = append(errs, e)
			}
		}
		p.specs = append(p.specs, ns.InstanceSpec{Levels: []uint64{id}, OSName: name, ASN: uint16(id + 1)})
	}
	b.Classes = []collect.ClassReading{{Class: p.node, Specs: p.specs, Raw: raw, Err: errors.Join(errs...)}}
	return b, nil
}

// relist takes the nodes (nodeN) from the entries of the node directory, read at now, and
// closes the files of the nodes gone.
func (p *numaProvider) relist(ents []os.DirEntry, now time.Time) {
	p.ids, p.listed = p.ids[:0], now
	for _, e := range ents {
		if v, ok := numbered(e.Name(), "node", ""); ok {
			p.ids = append(p.ids, uint64(v))
		}
	}
	slices.Sort(p.ids)
	for id, f := range p.files {
		if !slices.Contains(p.ids, id) {
			f[0].close()
			f[1].close()
			delete(p.files, id)
		}
	}
}

// readNodeFile reads one of a node's files (kept open in f) at path into n with parse.
func (p *numaProvider) readNodeFile(f *attrFile, path string, n *numaNode, parse func(string, []byte, *numaNode) error) error {
	data, err := f.read(path, p.buf[:])
	if err != nil {
		return fmt.Errorf("numa: %w", err)
	}
	return parse(path, data, n)
}
