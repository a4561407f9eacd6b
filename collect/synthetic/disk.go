// The synthetic source's block devices and partitions, added and removed by script.

package synthetic

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"golang.org/x/sys/unix"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// synthDisk is one made-up whole disk and its partitions.
type synthDisk struct {
	index     int // creation number: names, device numbers and parameters follow from it
	name      string
	devno     uint64
	base      float64 // typical utilisation
	riops     float64 // reads per second at full load
	wiops     float64
	rsize     float64 // bytes per read
	wsize     float64
	rlat      float64 // ms per read
	wlat      float64
	size      uint64
	ro        bool
	c         [schema.DiskFMsID]float64 // counters, diskCol order
	delivered uint64
	parts     []synthPart
}

type synthPart struct {
	name      string
	devno     uint64
	number    uint64
	share     float64
	c         [schema.DiskFMsID]float64
	delivered uint64
}

type diskSynth struct {
	rawDisk, rawPart []ns.Raw // reused between collections (Provider contract)
	top, disk, part  *ns.Class
	disks            []*synthDisk
	next             int
	parts            int
	diskSpecs        []ns.InstanceSpec
	partSpecs        []ns.InstanceSpec
	dirty            bool
	roList           string
}

func (d *diskSynth) init(s *Synthetic) []*ns.Class {
	d.top, d.disk, d.part = schema.DiskClasses()
	d.parts = s.opt.Parts
	ids := make([]ns.DatumID, len(schema.DiskWriteIDs))
	for i, id := range schema.DiskWriteIDs {
		ids[i] = ns.DatumID(id)
	}
	d.roList = schema.InvalidList(ids...)
	d.disks = make([]*synthDisk, 0, s.opt.Disks)
	for range s.opt.Disks {
		d.add(s)
	}
	return []*ns.Class{d.top, d.disk, d.part}
}

// sdName is the kernel's name for the n-th sd disk: sda..sdz, sdaa..sdzz, sdaaa...
func sdName(n int) string {
	var b []byte
	for n++; n > 0; n = (n - 1) / 26 {
		b = append(b, byte('a'+(n-1)%26))
	}
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return "sd" + string(b)
}

func (d *diskSynth) add(s *Synthetic) {
	i := d.next
	d.next++
	r := newRNG(s.opt.Seed, paramKey(SynthDisk, uint64(i)))
	// 16 minors per disk as sd has; 65536 disks per major, majors from 8.
	major, minor := uint32(8+i>>16), uint32(i&0xffff)*16
	sd := &synthDisk{index: i, name: sdName(i), devno: unix.Mkdev(major, minor),
		base: r.float() * r.float(), riops: 100 + 4900*r.float(), wiops: 100 + 4900*r.float(),
		rsize: 4096 * float64(uint(1)<<uint(6*r.float())), wsize: 4096 * float64(uint(1)<<uint(6*r.float())),
		rlat: 0.1 + 10*r.float(), wlat: 0.1 + 10*r.float(), size: 1 << (30 + uint(12*r.float())),
		ro: i%16 == 15}
	var wsum float64
	for k := range d.parts * b2i(i%synthPartEvery == 0) {
		w := 0.2 + r.float()
		sd.parts = append(sd.parts, synthPart{name: sd.name + strconv.Itoa(k+1), devno: unix.Mkdev(major, minor+uint32(k)+1),
			number: uint64(k + 1), share: w})
		wsum += w
	}
	for k := range sd.parts {
		sd.parts[k].share /= wsum
	}
	sd.advance(&r, 1, synthBootAge.Seconds())
	for k := range sd.parts {
		for c := range sd.c {
			sd.parts[k].c[c] = sd.c[c] * sd.parts[k].share
		}
	}
	d.disks = append(d.disks, sd)
	d.dirty = true
}

func (d *diskSynth) remove(i int) { d.dirty = removeAt(&d.disks, i) || d.dirty }

// removeAt drops (*s)[i] and reports whether there was one: a scripted removal of a device
// that is not there does nothing.
func removeAt[T any](s *[]T, i int) bool {
	if i < 0 || i >= len(*s) {
		return false
	}
	*s = append((*s)[:i], (*s)[i+1:]...)
	return true
}

func (d *diskSynth) restart() {
	for _, sd := range d.disks {
		sd.c = [schema.DiskFMsID]float64{}
		for k := range sd.parts {
			sd.parts[k].c = [schema.DiskFMsID]float64{}
		}
	}
}

// advance adds dt seconds of activity at load l (scaled by scale) and returns the deltas.
//
// The counters are those of one device that serves one request at a time and queues the rest,
// so they agree with each other the way a real disk's do (issue 12): the busy share u stays
// below 100% and spreads out (1 - e^-3l); requests complete at u times the device's capacity;
// the queue holds u/(1-u) requests on average, so weighted_ms is that many milliseconds per
// millisecond and iostat's aqu-sz is it exactly; read_ms + write_ms = weighted_ms (Little's
// law), split by the device's read and write latencies; partitions take shares of it all.
func (sd *synthDisk) advance(r *rng, scale, dt float64) (delta [schema.DiskFMsID]float64) {
	l := activity(sd.base, r) * scale
	if sd.ro {
		l *= 0.2
	}
	u := math.Min(0.99, 1-math.Exp(-3*l))
	rcap, wcap := sd.riops, sd.wiops
	if sd.ro {
		wcap = 0
	}
	iops := u * (rcap + wcap)
	reads := iops * rcap / (rcap + wcap) * dt
	writes := iops * wcap / (rcap + wcap) * dt
	aqu := math.Min(64, u/(1-u))
	weightedMs := aqu * dt * 1000
	var readMs, writeMs float64
	if rw := reads*sd.rlat + writes*sd.wlat; rw > 0 {
		readMs = weightedMs * reads * sd.rlat / rw
		writeMs = weightedMs * writes * sd.wlat / rw
	}
	delta[schema.DiskReadsID-1] = reads
	delta[schema.DiskWritesID-1] = writes
	delta[schema.DiskRMergedID-1] = reads * 0.1
	delta[schema.DiskWMergedID-1] = writes * 0.3
	delta[schema.DiskRBytesID-1] = reads * sd.rsize
	delta[schema.DiskWBytesID-1] = writes * sd.wsize
	delta[schema.DiskRMsID-1] = readMs
	delta[schema.DiskWMsID-1] = writeMs
	delta[schema.DiskIOMsID-1] = u * dt * 1000
	delta[schema.DiskWeightedMsID-1] = weightedMs
	delta[schema.DiskDiscardsID-1] = writes * 0.01
	delta[schema.DiskDBytesID-1] = writes * 0.01 * (1 << 20)
	delta[schema.DiskDMsID-1] = writes * 0.01 * 2
	delta[schema.DiskFlushesID-1] = writes * 0.05
	delta[schema.DiskFMsID-1] = writes * 0.05 * 0.5
	for c, v := range delta {
		sd.c[c] += v
	}
	sd.c[schema.DiskInFlightID-1] = math.Round(aqu)
	return delta
}

func (d *diskSynth) collect(at synthTick) []collect.ClassReading {
	p, seed, tick, dt, now, req := at.p, at.seed, at.tick, at.dt, at.now, at.req
	for _, sd := range d.disks {
		r := newRNG(seed, rngKey(SynthDisk, uint64(sd.index), tick))
		delta := sd.advance(&r, 1, dt)
		for k := range sd.parts {
			pt := &sd.parts[k]
			for c, v := range delta {
				pt.c[c] += v * pt.share
			}
			pt.c[schema.DiskIOMsID-1] -= delta[schema.DiskIOMsID-1] * pt.share
			pt.c[schema.DiskIOMsID-1] += delta[schema.DiskIOMsID-1] * math.Min(1, pt.share*1.5)
			pt.c[schema.DiskInFlightID-1] = math.Round(sd.c[schema.DiskInFlightID-1] * pt.share)
		}
	}
	if d.dirty {
		d.diskSpecs, d.partSpecs = d.specs()
		d.dirty = false
	}
	clock := uint64(max(now.Sub(p.boot), 0) / time.Millisecond) // since the synthetic boot, like CLOCK_MONOTONIC
	var out []collect.ClassReading
	if req.Wants(d.disk) {
		nd := len(d.disk.Datums)
		raw := collect.ReuseRawRows(&d.rawDisk, len(d.disks)*nd) // synthDiskRow clears each row
		for i, sd := range d.disks {
			row := raw[i*nd : (i+1)*nd : (i+1)*nd]
			synthDiskRow(row, &sd.c, clock, sd.size, sd.ro, collect.Due(req, ns.SVVariable, p.delivered(sd.delivered)), d.roList)
			sd.delivered = p.dl.Gen
		}
		out = append(out, collect.ClassReading{Class: d.disk, Specs: d.diskSpecs, Raw: raw})
	}
	if req.Wants(d.part) {
		nd := len(d.part.Datums)
		raw := collect.ReuseRawRows(&d.rawPart, len(d.partSpecs)*nd) // synthDiskRow clears each row
		k := 0
		for _, sd := range d.disks {
			for j := range sd.parts {
				pt := &sd.parts[j]
				row := raw[k*nd : (k+1)*nd : (k+1)*nd]
				synthDiskRow(row, &pt.c, clock, uint64(float64(sd.size)*pt.share)&^4095, sd.ro,
					collect.Due(req, ns.SVVariable, p.delivered(pt.delivered)), d.roList)
				pt.delivered = p.dl.Gen
				k++
			}
		}
		out = append(out, collect.ClassReading{Class: d.part, Specs: d.partSpecs, Raw: raw})
	}
	return out
}

// synthDiskRow fills one row like the host disk provider: 32-bit columns wrap as the kernel's do.
// row is freshly allocated (zero: valid 0, empty string), so only the fields that differ are
// written; at 10,000 disks the string headers' write barriers would be most of the cost.
func synthDiskRow(row []ns.Raw, c *[schema.DiskFMsID]float64, clock, size uint64, ro, variable bool, roList string) {
	clear(row)
	for i := range c {
		v := uint64(c[i])
		if schema.DiskFields[i].Bits32 {
			v = uint64(uint32(v))
		}
		row[i].N = v
	}
	row[schema.DiskClockID-1].N = clock
	if variable {
		row[schema.DiskSizeID-1].N, row[schema.DiskROID-1].N = size, boolN(ro)
	} else {
		row[schema.DiskSizeID-1].State, row[schema.DiskROID-1].State = ns.RawSkipped, ns.RawSkipped
	}
	if ro {
		for _, id := range schema.DiskWriteIDs {
			row[id-1].State = ns.RawInvalid
		}
		row[len(row)-1].S = roList
	}
}

func (d *diskSynth) specs() (disks, parts []ns.InstanceSpec) {
	disks = make([]ns.InstanceSpec, len(d.disks))
	n := 0
	for _, sd := range d.disks {
		n += len(sd.parts)
	}
	parts = make([]ns.InstanceSpec, 0, n)
	for i, sd := range d.disks {
		b := schema.DiskDevice{Name: sd.name, Devno: sd.devno, Serial: fmt.Sprintf("SYNTH-%08d", sd.index),
			SerialFrom: "synthetic", RemovableKnown: true}
		disks[i] = b.Spec(false)
		for _, pt := range sd.parts {
			pb := schema.DiskDevice{Name: pt.name, Devno: pt.devno, Parent: sd.devno, ParentName: sd.name, PartNo: pt.number}
			parts = append(parts, pb.Spec(true))
		}
	}
	return disks, parts
}
