// The synthetic source's file systems: a root, a home and a data volume filling at their own
// pace, and a tmpfs.

package synthetic

import (
	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

type synthFS struct {
	point, dev, typ string
	size, used      float64 // bytes
	inodes, iused   float64
	growth          float64 // bytes per second
}

type fsSynth struct {
	top, fsc *ns.Class
	specs    []ns.InstanceSpec
	fss      []synthFS
}

func (f *fsSynth) init(s *Synthetic) []*ns.Class {
	f.top, f.fsc = schema.FSClasses()
	r := newRNG(s.opt.Seed, paramKey(SynthFS, 0))
	f.fss = []synthFS{
		{point: "/", dev: "/dev/sda2", typ: "ext4", size: 100 << 30},
		{point: "/home", dev: "/dev/sdb1", typ: "xfs", size: 2 << 40},
		{point: "/var/lib/data", dev: "/dev/sdc1", typ: "xfs", size: 8 << 40},
		{point: "/run", dev: "tmpfs", typ: "tmpfs", size: 4 << 30},
	}
	for i := range f.fss {
		fs := &f.fss[i]
		fs.used = fs.size * (0.3 + 0.65*r.float()*r.float())
		fs.inodes = fs.size / 16384
		fs.iused = fs.inodes * 0.2 * r.float()
		fs.growth = fs.size * 1e-7 * r.float()
		f.specs = append(f.specs, ns.InstanceSpec{Levels: []uint64{uint64(20 + i)}, OSName: schema.FSName(fs.point),
			Desc: "File system mounted on " + fs.point})
	}
	return []*ns.Class{f.top, f.fsc}
}

// restart keeps the file systems as they are: their sizes are levels, not counters since boot.
func (f *fsSynth) restart() {}

func (f *fsSynth) collect(at synthTick) []collect.ClassReading {
	seed, tick, dt, req := at.seed, at.tick, at.dt, at.req
	if !req.Wants(f.fsc) {
		return nil
	}
	nd := len(f.fsc.Datums)
	raw := make([]ns.Raw, len(f.fss)*nd)
	for i := range f.fss {
		fs := &f.fss[i]
		r := newRNG(seed, rngKey(SynthFS, uint64(i), tick))
		fs.used = min(fs.size*0.999, fs.used+fs.growth*dt*(0.5+r.float()))
		row := raw[i*nd : (i+1)*nd]
		reserve := fs.size * 0.05 // the root's reserve, as ext4 keeps it
		if fs.typ != "ext4" {
			reserve = 0
		}
		row[schema.FSSizeID-1] = ns.RawN(uint64(fs.size))
		row[schema.FSUsedID-1] = ns.RawN(uint64(fs.used))
		row[schema.FSAvailID-1] = ns.RawN(uint64(max(0, fs.size-fs.used-reserve)))
		row[schema.FSInodesID-1] = ns.RawN(uint64(fs.inodes))
		row[schema.FSIUsedID-1] = ns.RawN(uint64(fs.iused))
		row[schema.FSIFreeID-1] = ns.RawN(uint64(fs.inodes - fs.iused))
		row[schema.FSROID-1] = ns.RawN(0)
		row[schema.FSDeviceID-1], row[schema.FSTypeID-1], row[schema.FSOptionsID-1] = ns.RawS(fs.dev), ns.RawS(fs.typ), ns.RawS("rw,relatime")
	}
	return []collect.ClassReading{{Class: f.fsc, Specs: f.specs, Raw: raw}}
}
