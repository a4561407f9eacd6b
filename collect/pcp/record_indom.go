package pcp

import (
	"slices"
	"strings"
	"time"

	ns "dcimon/namespace"
	"dcimon/pcparchive"
)

// recInDom is a class's instance domain: its number in dcimon's domain, its number in the PMDA's
// where the class is the PMDA's (the disks' 60.1: a metric's pmid and instance domain are of one
// domain, pmlogcheck says), and the instances last written, by name, the same in both.
type recInDom struct {
	device int // > 0: the datum whose value names an instance (a file system's device; never the first)
	indom  uint32
	pmda   uint32 // 0: none
	// partial says the PMDA's domain has only some of the class's instances: the file systems
	// of a device ("/dev/vda1"), not tmpfs or a server's export; outside are the others now.
	// The class is written whole under dcimon's names too.
	partial   bool
	outside   map[string]bool
	pmdaNames string // the last set written in the PMDA's domain
	ids       map[string]int32
	next      int32
	names     string // the last written set, to write it again only when it changes
	// seen says names is of the instances of registry generation gen: a domain whose set
	// depends on nothing else (not named by a value, not partial: every domain but the file
	// systems') is not made again until that changes (issue 38 item 4).
	seen bool
	gen  uint64
}

// writeDomain writes class c's instance domain, dcimon's and the PMDA's, at t when its instances
// changed since they were last written.
func (r *Recorder) writeDomain(reg *ns.Registry, snap *ns.Snapshot, c *ns.Class, dm *recInDom, t time.Time) error {
	insts, ok := r.instances(reg, c)
	if !ok {
		return nil // the class has gone
	}
	if dm.seen && dm.gen == r.liveGen {
		return nil // the same instances as last time, written then
	}
	ids, names, pids, pnames := dm.number(insts, snap.Class(c))
	if joined := strings.Join(names, "\x00"); joined != dm.names {
		dm.names = joined
		if err := r.w.PutInDom(pcparchive.InDom{Time: t, InDom: dm.indom, Instances: ids, Names: names}); err != nil {
			return err
		}
	}
	if joined := strings.Join(pnames, "\x00"); dm.pmda != 0 && joined != dm.pmdaNames {
		dm.pmdaNames = joined
		if err := r.w.PutInDom(pcparchive.InDom{Time: t, InDom: dm.pmda, Instances: pids, Names: pnames}); err != nil {
			return err
		}
	}
	dm.seen, dm.gen = dm.device == 0 && !dm.partial, r.liveGen
	return nil
}

// number gives each instance its number in dcimon's domain (kept from the first time it was
// seen) and, where the class has a PMDA domain, the instances and names the PMDA would give:
// named by their device (a device mounted twice by both), file systems that are no device's
// left out as the PMDA's filesys leaves them.
func (dm *recInDom) number(insts []*ns.Instance, cv *ns.ClassValues) (ids []int32, names []string, pids []int32, pnames []string) {
	if dm.partial {
		clear(dm.outside)
		if dm.outside == nil {
			dm.outside = map[string]bool{}
		}
	}
	for _, in := range insts {
		id, ok := dm.ids[in.Name]
		if !ok {
			id = dm.next
			dm.next++
			dm.ids[in.Name] = id
		}
		ids, names = append(ids, id), append(names, in.Name)
		if dm.pmda == 0 {
			continue
		}
		name := in.Name
		if dm.device > 0 {
			if v, ok := cv.Value(in, dm.device); ok && v.State == ns.Valid && v.S != "" {
				name = v.S
				if slices.Contains(pnames, name) {
					name += " " + strings.ReplaceAll(in.Name, "∕", "/")
				}
			}
		}
		if dm.partial && !strings.HasPrefix(name, "/") {
			dm.outside[in.Name] = true // not a device's: the PMDA's filesys has it not
			continue
		}
		pids, pnames = append(pids, id), append(pnames, name)
	}
	return ids, names, pids, pnames
}
