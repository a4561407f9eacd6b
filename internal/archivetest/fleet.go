package archivetest

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	ns "dcimon/namespace"
	"dcimon/pcparchive"
)

// Fleet describes the archives of a fleet of hosts as pmloggers would write them (issue 34's
// budget: 500 hosts × 16 disks, 5 minutes at 10 s): each host's disks under the Linux PMDA's
// names, with values that differ by host, disk and sample, so that every host's busiest disk is
// known and changes with time.
type Fleet struct {
	Hosts, Disks int
	Start        time.Time     // the first sample's; Start when zero
	Step         time.Duration // between samples; 10 s when zero
	Samples      int           // per host; 31 (5 minutes at 10 s) when zero
	Version      int           // archive format, 2 or 3; 3 when zero
	// Gap leaves samples [Gap[0], Gap[1]) out of every host's archive (a pmlogger that was down);
	// Restart starts every counter again from nothing at that sample (the host rebooted). Both
	// off when zero.
	Gap     [2]int
	Restart int
}

// FleetHostName is host i's name (and hostname label) in a Fleet's archives.
func FleetHostName(i int) string { return fmt.Sprintf("node%03d", i) }

// FleetBusy is the busy share (per cent) of disk d of host h over the interval that ends at sample
// k (from 1): what `hot Disk busy` ranks. It differs by host and disk, and changes with time.
func FleetBusy(h, d, k int) int { return (h*31 + d*17 + k*7) % 97 }

// fleet's metrics: the Linux PMDA's pmids, types, semantics and units.
var fleetMetrics = []struct {
	name  string
	item  uint32
	typ   int32
	sem   int32
	units ns.PMUnits
	// per is what the counter rises by over one step of s seconds, for host h, disk d and sample k.
	per func(h, d, k int, s float64) uint64
}{
	// Context switches: a counter without an instance domain, as pmlogger's default
	// configuration logs kernel.all.* (the host's clock in the series: one value a sample).
	{"kernel.all.pswitch", 13, pcparchive.TypeU64, 1, ns.PMUnits{DimCount: 1}, func(h, d, k int, s float64) uint64 { return uint64(1000+h+k) * uint64(s) }},
	{"disk.dev.read", 4, pcparchive.TypeU64, 1, ns.PMUnits{DimCount: 1}, func(h, d, k int, s float64) uint64 { return uint64((h+3*d+k)%50) * uint64(s) }},
	{"disk.dev.write", 5, pcparchive.TypeU64, 1, ns.PMUnits{DimCount: 1}, func(h, d, k int, s float64) uint64 { return uint64((2*h+d+5*k)%70) * uint64(s) }},
	{"disk.dev.read_bytes", 38, pcparchive.TypeU64, 1, ns.PMUnits{DimSpace: 1, ScaleSpace: ns.PMSpaceKByte}, func(h, d, k int, s float64) uint64 { return uint64((h+3*d+k)%50) * 4 * uint64(s) }},
	{"disk.dev.write_bytes", 39, pcparchive.TypeU64, 1, ns.PMUnits{DimSpace: 1, ScaleSpace: ns.PMSpaceKByte}, func(h, d, k int, s float64) uint64 { return uint64((2*h+d+5*k)%70) * 8 * uint64(s) }},
	// Busy time: milliseconds with I/O in flight, FleetBusy per cent of the step.
	{"disk.dev.avactive", 46, pcparchive.TypeU32, 1, ns.PMUnits{DimTime: 1, ScaleTime: ns.PMTimeMSec}, func(h, d, k int, s float64) uint64 { return uint64(FleetBusy(h, d, k)) * uint64(s*1000) / 100 }},
	{"disk.dev.aveq", 47, pcparchive.TypeU32, 1, ns.PMUnits{DimTime: 1, ScaleTime: ns.PMTimeMSec}, func(h, d, k int, s float64) uint64 { return uint64(FleetBusy(h, d, k)) * uint64(s*1000) / 50 }},
}

// WriteFleet writes the fleet's archives in dir, one a host (named FleetHostName), and returns
// their base names. It is the generator of the series tests and of scripts/series-bench.sh.
func WriteFleet(dir string, f Fleet) ([]string, error) {
	if f.Start.IsZero() {
		f.Start = Start
	}
	if f.Step <= 0 {
		f.Step = 10 * time.Second
	}
	if f.Samples <= 0 {
		f.Samples = 31
	}
	if f.Version == 0 {
		f.Version = 3
	}
	var bases []string
	for h := range f.Hosts {
		b, err := writeFleetHost(dir, f, h)
		if err != nil {
			return nil, err
		}
		bases = append(bases, b)
	}
	return bases, nil
}

// The Linux PMDA's identifiers of a fleet host's archive: its disks' instance domain, the
// processor count and the memory size.
var (
	fleetDiskInDom      = uint32(60<<22 | 1) // 60.1
	fleetNCPU, fleetMem = pcparchive.PMID(60, 0, 32), pcparchive.PMID(60, 1, 0)
)

// writeFleetHost writes host h's archive of fleet f in dir and returns its base name.
func writeFleetHost(dir string, f Fleet, h int) (string, error) {
	host := FleetHostName(h)
	base := filepath.Join(dir, host)
	// Hosts start a little apart, as pmloggers started by hand would.
	start := f.Start.Add(time.Duration(h%7) * 10 * time.Millisecond)
	w, err := pcparchive.Create(base, f.Version, pcparchive.Label{Host: host, TZ: "UTC", Start: start, PID: int32(1000 + h)})
	if err != nil {
		return "", err
	}
	if err := writeFleetMeta(w, f, h, start); err != nil {
		return "", fmt.Errorf("archive %s: %w", base, err)
	}
	c := newFleetCounters(f, h)
	var at time.Time
	for k := range f.Samples {
		at = start.Add(time.Duration(k) * f.Step)
		c.advance(k)
		if k >= f.Gap[0] && k < f.Gap[1] {
			continue
		}
		if err := w.PutResult(at, c.sets(k)); err != nil {
			return "", fmt.Errorf("archive %s: %w", base, err)
		}
	}
	if err := w.CloseAt(at); err != nil {
		return "", fmt.Errorf("archive %s: %w", base, err)
	}
	return base, nil
}

// writeFleetMeta writes host h's metadata: the metrics' descriptors, the disks' instance domain
// and the labels pmlogger records of pmcd.
func writeFleetMeta(w *pcparchive.Writer, f Fleet, h int, start time.Time) error {
	units := func(u ns.PMUnits) uint32 {
		p, _ := u.Pack()
		return p << 8
	}
	descs := []pcparchive.Desc{
		{PMID: fleetNCPU, Type: pcparchive.TypeU32, InDom: pcparchive.InDomNull, Sem: 4, Names: []string{"hinv.ncpu"}},
		{PMID: fleetMem, Type: pcparchive.TypeU64, InDom: pcparchive.InDomNull, Sem: 4, Units: units(ns.PMUnits{DimSpace: 1, ScaleSpace: ns.PMSpaceKByte}), Names: []string{"mem.physmem"}},
	}
	for _, m := range fleetMetrics {
		in := fleetDiskInDom
		if singular(m.name) {
			in = pcparchive.InDomNull
		}
		descs = append(descs, pcparchive.Desc{PMID: pcparchive.PMID(60, 0, m.item), Type: m.typ, InDom: in, Sem: m.sem, Units: units(m.units), Names: []string{m.name}})
	}
	for _, d := range descs {
		if err := w.PutDesc(d); err != nil {
			return err
		}
	}
	in := pcparchive.InDom{Time: start, InDom: fleetDiskInDom}
	for d := range f.Disks {
		in.Instances = append(in.Instances, int32(d))
		in.Names = append(in.Names, diskName(d))
	}
	if err := w.PutInDom(in); err != nil {
		return err
	}
	// The context's labels, as pmlogger records pmcd's: hosts differ by hostname and machine id
	// (pmseries names a source by them).
	host := FleetHostName(h)
	if err := w.PutLabels(start, pcparchive.LabelContext, 0, map[string]string{"hostname": host, "machineid": fmt.Sprintf("%032x", 0xdc1000+h)}); err != nil {
		return err
	}
	return w.PutLabels(start, pcparchive.LabelDomain, 60, map[string]string{"agent": "linux"})
}

// fleetCounters are host h's counters of fleet f, by metric (fleetMetrics) and disk.
type fleetCounters struct {
	f Fleet
	h int
	n [][]uint64
}

// newFleetCounters starts host h's counters, not from zero: a host up for a while.
func newFleetCounters(f Fleet, h int) *fleetCounters {
	c := &fleetCounters{f: f, h: h, n: make([][]uint64, len(fleetMetrics))}
	for i := range c.n {
		c.n[i] = make([]uint64, max(f.Disks, 1))
		for d := range c.n[i] {
			c.n[i][d] = uint64(1_000_000*(h+1) + 1000*d)
		}
	}
	return c
}

// advance moves the counters to sample k: each by its metric's rate over a step, and back to
// nearly nothing at the fleet's restart (the host rebooted).
func (c *fleetCounters) advance(k int) {
	if k > 0 {
		secs := c.f.Step.Seconds()
		for i, m := range fleetMetrics {
			for d := range c.n[i] {
				c.n[i][d] += m.per(c.h, d, k, secs)
			}
		}
	}
	if c.f.Restart > 0 && k == c.f.Restart {
		for i := range c.n {
			for d := range c.n[i] {
				c.n[i][d] = uint64(10 * d)
			}
		}
	}
}

// sets are sample k's values: every metric's, and the processor count and memory size in the
// first sample only, as pmlogger logs what does not change.
func (c *fleetCounters) sets(k int) []pcparchive.OutSet {
	var sets []pcparchive.OutSet
	for i, m := range fleetMetrics {
		s := pcparchive.OutSet{PMID: pcparchive.PMID(60, 0, m.item)}
		if singular(m.name) {
			s.Values = []pcparchive.OutValue{{Inst: -1, N: c.n[i][0]}}
		}
		for d := 0; d < c.f.Disks && !singular(m.name); d++ {
			v := c.n[i][d]
			if m.typ == pcparchive.TypeU32 {
				v = uint64(uint32(v))
			}
			s.Values = append(s.Values, pcparchive.OutValue{Inst: int32(d), N: v})
		}
		sets = append(sets, s)
	}
	if k == 0 {
		h := c.h
		sets = append(sets, pcparchive.OutSet{PMID: fleetNCPU, Values: []pcparchive.OutValue{{Inst: -1, N: uint64(4 + h%4)}}},
			pcparchive.OutSet{PMID: fleetMem, Values: []pcparchive.OutValue{{Inst: -1, N: uint64(8+h%8) << 20}}})
	}
	return sets
}

// diskName is disk d's name as Linux gives it: sda to sdz, then sdaa, sdab...
func diskName(d int) string {
	if d < 26 {
		return "sd" + string(rune('a'+d))
	}
	return "sd" + string(rune('a'+d/26-1)) + string(rune('a'+d%26))
}

// singular says the fleet's metric has no instance domain (kernel.all.*).
func singular(name string) bool { return strings.HasPrefix(name, "kernel.all.") }
