package collect

import (
	"context"
	"runtime"
	"time"

	"golang.org/x/sys/unix"

	ns "dcimon/namespace"
)

// Monitor class ids: the SPMI context `Monitor` (ASN.1 90) with dcimon's own cost as its
// statistics and one subcontext per provider.
var (
	MonitorID      = ns.ClassID{90}
	monitorSelfID  = ns.ClassID{90, 1}
	monitorProvsID = ns.ClassID{90, 2}
)

// Datum low bytes of the Monitor classes.
const (
	monDuration = 1 + iota
	monSuccesses
	monFailures
	monState
	monError
	monLastOK
)

const (
	selfCPUUs = 1 + iota
	selfRSS
	selfClockUs
	selfThreads
	selfVM
	selfOtherUs
	selfCPU
)

// monitor is the self-monitoring supplier. It is part of the sampler, not a Provider, because
// what it reports is the sampler's own bookkeeping.
type monitor struct {
	s     *Sampler
	self  *ns.Class
	provs *ns.Class
	specs []ns.InstanceSpec
	insts []*ns.Instance
	reset [8]byte
}

var monitorSupplier = ns.Supplier{IVersion: 101, SVersion: 100, Type: ns.SPTGeneralSupplier,
	Module: "dcimon-monitor", Title: "dcimon self-monitoring",
	Description: "What each provider's collection costs and whether it succeeds, and what dcimon itself costs"}

func newMonitor(reg *ns.Registry, s *Sampler) (*monitor, error) {
	m := &monitor{s: s}
	start := s.opt.Now()
	putUint64(m.reset[:], uint64(start.UnixNano()))
	sup := monitorSupplier
	sup.Reset = m.reset
	top := &ns.Class{ID: MonitorID, Name: "Monitor", Desc: "dcimon self-monitoring", Flags: ns.ClassEnabled, Supplier: &sup}
	m.self = &ns.Class{ID: monitorSelfID, Name: "self", Desc: "What dcimon itself costs", Flags: ns.ClassEnabled,
		Totals: true, Supplier: &sup, Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagSingleInst, Size: 4}},
		Datums: []ns.Datum{
			// getrusage, not /proc/self/stat: the stat file counts in 10 ms ticks, and dcimon uses
			// about a millisecond a second, so its share would read 0% or 1% by chance.
			ns.Counter(selfCPUUs, "cpu_us", ns.TypeUint8, ns.UnitMicrosecs, "CPU time used by dcimon", "getrusage(RUSAGE_SELF) user + system time, microseconds").WithScale(0, 1e6).
				WithMaxRate(1e6 * float64(runtime.NumCPU())),
			ns.Gauge(selfRSS, "rss", ns.TypeUint8, ns.UnitBytes, "Resident memory of dcimon", "/proc/self/statm field 2 × page size").WithScale(0, 64<<20),
			ns.Counter(selfClockUs, "clock_us", ns.TypeUint8, ns.UnitMicrosecs, "Sampler clock at the reading", "the sampler's clock, microseconds").WithScale(0, 1e6).WithMaxRate(1e6).WithAux(),
			ns.Gauge(selfThreads, "threads", ns.TypeUint8, ns.UnitThreads, "Threads of dcimon", "/proc/self/stat field 20").WithScale(0, 64),
			ns.Gauge(selfVM, "vsize", ns.TypeUint8, ns.UnitBytes, "Virtual memory of dcimon", "/proc/self/statm field 1 × page size").WithScale(0, 4<<30),
			ns.Derived(selfOtherUs, "other_us", ns.DerivedDifference, ns.PMSemCounter, "Clock time dcimon did not use", selfClockUs, selfCPUUs).WithAux(),
			ns.Derived(selfCPU, "cpu", ns.DerivedPercent, ns.PMSemInstant, "CPU used by dcimon (share of one CPU)", selfCPUUs, selfOtherUs).WithScale(0, 1),
		}}
	m.provs = &ns.Class{ID: monitorProvsID, Name: "provider", Desc: "One provider of dcimon", Flags: ns.ClassEnabled,
		InstFreq: ns.SiCfgInst, Supplier: &sup, Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagEnumeration, Size: 4}},
		Datums: []ns.Datum{
			ns.Gauge(monDuration, "duration", ns.TypeUint8, ns.UnitMicrosecs, "Duration of the last collection", "the sampler's clock around Collect").WithScale(0, 100000),
			ns.Counter(monSuccesses, "successes", ns.TypeUint8, ns.UnitCount, "Successful collections", "the sampler").WithScale(0, 10),
			ns.Counter(monFailures, "failures", ns.TypeUint8, ns.UnitCount, "Failed collections", "the sampler").WithScale(0, 10),
			ns.Text(monState, "state", "ok, failing, busy, dead or idle", "the sampler").WithVolatility(ns.SVVolatile),
			monErrorDatum(),
			ns.Gauge(monLastOK, "last_ok", ns.TypeUint8, ns.UnitSecs, "When the provider last updated", "the sampler's clock").
				WithDCI4(ns.STTime, ns.STFCTime, ns.STPAbsolute),
		}}
	for _, c := range []*ns.Class{top, m.self, m.provs} {
		if err := reg.RegisterClass(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// sample reads the Monitor classes: dcimon's own process (always the real one, whatever tree
// the providers read) and each provider's health, both with the same timestamp.
func (m *monitor) sample(ctx context.Context, start, end time.Time) []ns.ClassSample {
	var su SelfUsage
	var err error
	if m.s.opt.Self != nil {
		su, err = m.s.opt.Self(ctx)
	}
	row := make([]ns.Raw, len(m.self.Datums))
	row[selfCPUUs-1] = ns.RawNA(ns.ReasonNotSupported)
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) == nil {
		row[selfCPUUs-1] = ns.Raw{N: uint64(ru.Utime.Nano()/1e3 + ru.Stime.Nano()/1e3)}
	}
	row[selfRSS-1] = ns.Raw{N: su.RSS}
	row[selfClockUs-1] = ns.Raw{N: uint64(end.UnixMicro())}
	row[selfThreads-1] = ns.Raw{N: su.Threads}
	row[selfVM-1] = ns.Raw{N: su.VM}
	if m.s.opt.Self == nil {
		// A sampler of no live host (a replay, a test) has no reader of the process.
		row[selfRSS-1], row[selfThreads-1], row[selfVM-1] = ns.RawNA(ns.ReasonNotSupported), ns.RawNA(ns.ReasonNotSupported), ns.RawNA(ns.ReasonNotSupported)
	}
	selfSample := ns.ClassSample{Class: m.self, Reset: m.reset, Time: end, Start: start, End: end,
		Insts: []*ns.Instance{m.s.reg.Instances(m.self)[0]}, Raw: row, Err: err}
	if err != nil {
		selfSample.ErrReason = ns.ReasonAccessDenied
	}

	st2 := m.s.Status()
	raw := make([]ns.Raw, len(m.provs.Datums)*len(st2))
	// One instance per supplier, numbered by its id: users' suppliers come and go (issue 18).
	// The list is made again only when they did.
	same := len(m.specs) == len(st2)
	for i := 0; same && i < len(st2); i++ {
		same = m.specs[i].Levels[0] == uint64(st2[i].ID-1)
	}
	if !same {
		m.specs = m.specs[:0]
		for _, p := range st2 {
			sp := ns.InstanceSpec{Levels: []uint64{uint64(p.ID - 1)}, OSName: p.Supplier.Module, Desc: p.Supplier.Title}
			if p.ID <= 0xffff {
				sp.ASN = uint16(p.ID)
			}
			m.specs = append(m.specs, sp)
		}
	}
	for i, p := range st2 {
		r := raw[i*len(m.provs.Datums):]
		r[monDuration-1] = ns.Raw{N: uint64(p.LastDur / time.Microsecond)}
		if p.State == "idle" {
			r[monDuration-1] = ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonNotSampled}
		}
		r[monSuccesses-1] = ns.Raw{N: p.Successes}
		r[monFailures-1] = ns.Raw{N: p.Failures}
		r[monState-1] = ns.Raw{S: p.State}
		if p.LastErr != nil {
			r[monError-1] = ns.Raw{S: ns.Clip(p.LastErr.Error(), monErrorSize-1)}
		} else if p.Warning != nil {
			r[monError-1] = ns.Raw{S: ns.Clip("warning: "+p.Warning.Error(), monErrorSize-1)}
		}
		switch {
		case p.Successes == 0 && p.Failures > 0:
			// The sampler counts liveness from the first attempt, but nothing ever succeeded:
			// "never", not the start time (issue 33).
			r[monLastOK-1] = ns.RawNA(ns.ReasonNever)
		case p.LastOK.IsZero():
			r[monLastOK-1] = ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonNotSampled}
		default:
			r[monLastOK-1] = ns.Raw{N: uint64(p.LastOK.Unix())}
		}
	}
	insts, evs, _ := m.s.reg.Sync(m.provs, m.specs, end, m.insts)
	m.insts = insts
	m.s.log.Add(evs...)
	provSample := ns.ClassSample{Class: m.provs, Reset: m.reset, Time: end, Start: start, End: end, Insts: insts, Raw: raw}
	return []ns.ClassSample{selfSample, provSample}
}

func putUint64(b []byte, v uint64) {
	for i := range 8 {
		b[i] = byte(v >> (8 * i))
	}
}

// monErrorSize is the DCI4 size of a provider's last error: room for the error of a file under a
// long tree path with its reason (DCI4-TYPE-2: the supplier bounds the string).
const monErrorSize = 512

// monErrorDatum declares a provider's last error.
func monErrorDatum() ns.Datum {
	d := ns.Text(monError, "error", "The last error, empty when ok", "the sampler").WithVolatility(ns.SVVolatile).
		WithHelp("Why the provider's last collection failed: the file and what was wrong with it.")
	d.DCI4.Size = monErrorSize
	return d
}
