package synthetic

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// Options configure the synthetic source: a made-up host with Disks whole disks, every
// fourth of which (sda, sde, ...) has Parts partitions — like a host whose system disks are
// partitioned and whose data LUNs are not, which keeps disks=10000 at 15,000 instances rather
// than 30,000 — NICs network interfaces and CPUs processors, whose counters grow at
// pseudo-random rates that depend only on Seed, the instance and the collection number, and
// advance by rate × the seconds elapsed on Now between two collections.
type Options struct {
	Disks, Parts, NICs, CPUs int
	// Procs is the number of processes (procs=, default 60; up to 1,000,000), and PIDStart the
	// first PID (pidstart=, to make PIDs wrap soon).
	Procs    int
	PIDStart uint64
	Seed     uint64
	// Now is the source's clock; time.Now when nil. Tests pass a fake clock so that every value
	// is reproducible.
	Now func() time.Time
}

// Defaults and limits of the synthetic source. Partitions share their disk's major number with
// 16 minors per disk, as sd does, hence at most 15.
const (
	synthDefaultDisks = 8
	synthDefaultParts = 2
	synthDefaultNICs  = 4
	synthDefaultCPUs  = 4
	synthMaxDisks     = 1_000_000
	synthMaxParts     = 15
	synthMaxNICs      = 65_000
	synthMaxCPUs      = 65_000
	synthDefaultProcs = 60
	synthMaxProcs     = 1_000_000
)

// Parse parses a --source value such as `synthetic:disks=10000,nics=64,cpus=128,seed=7`
// (the `synthetic` prefix is optional; every key is optional: disks=8, parts=2, nics=4, cpus=4,
// seed=1). Errors name the bad key or value.
func Parse(spec string) (Options, error) {
	opt := Options{Disks: synthDefaultDisks, Parts: synthDefaultParts, NICs: synthDefaultNICs,
		CPUs: synthDefaultCPUs, Procs: synthDefaultProcs, Seed: 1}
	rest := spec
	if r, ok := strings.CutPrefix(spec, "synthetic"); ok {
		rest = r
		if rest != "" {
			if rest[0] != ':' {
				return opt, fmt.Errorf("synthetic source %q: want synthetic or synthetic:key=value,key=value", spec)
			}
			rest = rest[1:]
		}
	}
	if strings.TrimSpace(rest) == "" {
		return opt, nil
	}
	seen := map[string]bool{}
	for _, item := range strings.Split(rest, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(item), "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !ok || key == "" {
			return opt, fmt.Errorf("synthetic source %q: %q is not key=value", spec, item)
		}
		if seen[key] {
			return opt, fmt.Errorf("synthetic source %q: %s given twice", spec, key)
		}
		seen[key] = true
		n, err := strconv.ParseUint(val, 10, 64)
		if err != nil {
			return opt, fmt.Errorf("synthetic source %q: %s=%q is not a non-negative integer", spec, key, val)
		}
		limit := func(dst *int, lo, hi uint64) error {
			if n < lo || n > hi {
				return fmt.Errorf("synthetic source %q: %s=%d is out of range %d..%d", spec, key, n, lo, hi)
			}
			*dst = int(n)
			return nil
		}
		switch key {
		case "disks":
			err = limit(&opt.Disks, 0, synthMaxDisks)
		case "parts":
			err = limit(&opt.Parts, 0, synthMaxParts)
		case "nics":
			err = limit(&opt.NICs, 0, synthMaxNICs)
		case "cpus":
			err = limit(&opt.CPUs, 1, synthMaxCPUs)
		case "procs":
			err = limit(&opt.Procs, 0, synthMaxProcs)
		case "pidstart":
			if n < 1 || n >= synthPIDMax {
				err = fmt.Errorf("synthetic source %q: pidstart=%d is out of range 1..%d", spec, n, synthPIDMax-1)
			}
			opt.PIDStart = n
		case "seed":
			opt.Seed = n
		default:
			err = fmt.Errorf("synthetic source %q: unknown key %q (want disks, parts, nics, cpus, procs, pidstart or seed)", spec, key)
		}
		if err != nil {
			return opt, err
		}
	}
	return opt, nil
}

// Providers returns the providers of a new synthetic source, in the same order and
// with exactly the same classes as linux.Providers.
func Providers(opt Options) []collect.Provider {
	return New(opt).Providers()
}

// SynthTarget names one of the synthetic source's providers in a scripted action.
type SynthTarget int

// Synthetic providers, in provider order; SynthAll addresses every one of them.
const (
	SynthHost SynthTarget = iota
	SynthMem
	SynthCPU
	SynthDisk
	SynthNet
	SynthPressure
	SynthTCPIP
	SynthFS
	SynthNUMA
	SynthProc
	SynthCGroup
	SynthAll
)

var synthTargetNames = [...]string{"host", "mem", "cpu", "disk", "net", "pressure", "tcpip", "fs", "numa", "proc", "cgroup", "all"}

// String names the target as the scripting API spells it ("disk").
func (t SynthTarget) String() string {
	if t >= 0 && int(t) < len(synthTargetNames) {
		return synthTargetNames[t]
	}
	return "SynthTarget(" + strconv.Itoa(int(t)) + ")"
}

// SynthKind is what a scripted action does.
type SynthKind int

// Scripted actions.
const (
	SynthFail       SynthKind = iota // Collect returns Err (or a scripted-failure error) until SynthRecover
	SynthHang                        // Collect blocks until its context ends, until SynthRecover
	SynthStop                        // the provider stops updating: same time, same values, until SynthRecover
	SynthRecover                     // undo SynthFail, SynthHang and SynthStop
	SynthReset                       // the source re-initialises: new reset value, counters start again
	SynthAddDisks                    // add N disks (partitioned like the first ones)
	SynthRemoveDisk                  // remove the disk at index N of the current list
	SynthAddNICs                     // add N interfaces
	SynthRemoveNIC                   // remove the interface at index N of the current list
)

var synthKindNames = [...]string{"fail", "hang", "stop", "recover", "reset", "add-disks", "remove-disk", "add-nics", "remove-nic"}

// String names the action ("add-disks").
func (k SynthKind) String() string {
	if k >= 0 && int(k) < len(synthKindNames) {
		return synthKindNames[k]
	}
	return "SynthKind(" + strconv.Itoa(int(k)) + ")"
}

// SynthAction is one scripted event.
type SynthAction struct {
	Kind   SynthKind
	Target SynthTarget // which provider; instance actions imply SynthDisk or SynthNet
	N      int         // how many to add, or the index to remove
	Err    error       // for SynthFail; nil means a generic scripted failure
}

// Synthetic is a deterministic, scriptable source with the same classes as the host providers,
// for tests, demos and scale. Its providers are independent suppliers; each counts its own
// collections ("ticks", from 0), and a scripted action for tick k applies at the start of the
// target provider's collection number k.
type Synthetic struct {
	opt    Options
	mu     sync.Mutex
	script map[SynthTarget]map[int][]SynthAction
	provs  [SynthAll]*synthProvider
}

// New builds a synthetic source. Zero counts are taken literally (no disks, no
// interfaces), except CPUs, of which there is at least one.
func New(opt Options) *Synthetic {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	opt.Disks = min(max(opt.Disks, 0), synthMaxDisks)
	opt.Parts = min(max(opt.Parts, 0), synthMaxParts)
	opt.NICs = min(max(opt.NICs, 0), synthMaxNICs)
	opt.CPUs = min(max(opt.CPUs, 1), synthMaxCPUs)
	s := &Synthetic{opt: opt, script: map[SynthTarget]map[int][]SynthAction{}}
	start := opt.Now()
	for k := SynthHost; k < SynthAll; k++ {
		s.provs[k] = newSynthProvider(s, k, start)
	}
	return s
}

// Providers returns the source's providers in linux.Providers' order: host, mem, cpu, disk, net.
func (s *Synthetic) Providers() []collect.Provider {
	out := make([]collect.Provider, len(s.provs))
	for i, p := range s.provs {
		out[i] = p
	}
	return out
}

// Script schedules an action for the target provider's collection number tick (0 = its first).
// Instance actions go to the disk or net provider whatever Target says.
func (s *Synthetic) Script(tick int, a SynthAction) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch a.Kind {
	case SynthAddDisks, SynthRemoveDisk:
		a.Target = SynthDisk
	case SynthAddNICs, SynthRemoveNIC:
		a.Target = SynthNet
	}
	targets := []SynthTarget{a.Target}
	if a.Target == SynthAll {
		targets = []SynthTarget{SynthHost, SynthMem, SynthCPU, SynthDisk, SynthNet}
	}
	for _, t := range targets {
		if s.script[t] == nil {
			s.script[t] = map[int][]SynthAction{}
		}
		s.script[t][tick] = append(s.script[t][tick], a)
	}
}

// Ticks is how many collections the target provider has started.
func (s *Synthetic) Ticks(t SynthTarget) int {
	p := s.provs[t]
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.tick
}

func (s *Synthetic) actions(t SynthTarget, tick int) []SynthAction {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.script[t][tick]
}

// synthPartEvery: one disk in this many has partitions.
const synthPartEvery = 4

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// boolN is a boolean datum's value.
func boolN(b bool) uint64 { return uint64(b2i(b)) }

// errScripted is the failure of a SynthFail action without an error of its own.
var errScripted = errors.New("scripted failure")

// synthBootAge is how long the synthetic host has been up at its creation: counters start at
// values a day of activity would give, so that they look like a real host's.
const synthBootAge = 24 * time.Hour

// synthProvider is one of the synthetic source's suppliers.
type synthProvider struct {
	s       *Synthetic
	kind    SynthTarget
	sup     ns.Supplier
	classes []*ns.Class

	mu      sync.Mutex
	tick    int
	last    time.Time // clock at the previous collection
	boot    time.Time
	reset   uint64 // boot time in seconds, made unique per initialisation
	failErr error
	hang    bool
	stopped bool
	prev    collect.Batch // what a stopped provider keeps returning
	dl      collect.Deliveries

	maker synthKind // which of the kinds below this provider makes up (one of its fields)
	host  hostSynth
	mem   memSynth
	cpu   cpuSynth
	disk  diskSynth
	net   netSynth
	psi   psiSynth
	tcp   tcpipSynth
	fs    fsSynth
	numa  numaSynth
	proc  procSynth
	cg    cgroupSynth
}

// synthKind is what one kind of synthetic provider makes up: its classes and how their values move.
type synthKind interface {
	// init declares the kind's classes, parents before children, and draws its fixed parameters.
	init(s *Synthetic) []*ns.Class
	// restart sets the kind's counters back as a reboot does (SynthReset).
	restart()
	// collect advances the kind by one tick and reads the classes req wants.
	collect(at synthTick) []collect.ClassReading
}

// synthTick is one collection as a kind sees it: the provider, the source's seed, the tick's
// number, the seconds elapsed since the previous one, the clock and the request.
type synthTick struct {
	p    *synthProvider
	seed uint64
	tick int
	dt   float64
	now  time.Time
	req  collect.Request
}

// makerOf is the field of p that makes up target k.
func (p *synthProvider) makerOf(k SynthTarget) synthKind {
	return [SynthAll]synthKind{SynthHost: &p.host, SynthMem: &p.mem, SynthCPU: &p.cpu, SynthDisk: &p.disk,
		SynthNet: &p.net, SynthPressure: &p.psi, SynthTCPIP: &p.tcp, SynthFS: &p.fs, SynthNUMA: &p.numa,
		SynthProc: &p.proc, SynthCGroup: &p.cg}[k]
}

// synthSuppliers is each synthetic provider's supplier record: the handle and title of the host
// provider it stands in for, what it makes up, and its DCI4 type; its module is
// "synthetic-" and the target's name.
var synthSuppliers = [SynthAll]struct {
	handle uint32
	title  string
	what   string
	typ    ns.SupplierType
}{
	SynthHost:     {schema.HandleHost, schema.HostTitle, "Made-up host identity and load", ns.SPTGeneralSupplier},
	SynthMem:      {schema.HandleMem, schema.MemTitle, "Made-up memory and paging", ns.SPTGeneralSupplier},
	SynthCPU:      {schema.HandleCPU, schema.CPUTitle, "Made-up processor times", ns.SPTGeneralSupplier},
	SynthDisk:     {schema.HandleDisk, schema.DiskTitle, "Made-up block devices and partitions", ns.SPTGeneralSupplier},
	SynthNet:      {schema.HandleNet, schema.NetTitle, "Made-up network interfaces", ns.SPTNetworkDriver},
	SynthPressure: {schema.HandlePressure, schema.PressureTitle, "Made-up pressure stalls", ns.SPTGeneralSupplier},
	SynthTCPIP:    {schema.HandleTCPIP, schema.TCPIPTitle, "Made-up network stack counters", ns.SPTNetworkProtocol},
	SynthFS:       {schema.HandleFS, schema.FSTitle, "Made-up file systems", ns.SPTGeneralSupplier},
	SynthNUMA:     {schema.HandleNUMA, schema.NUMATitle, "Made-up NUMA nodes", ns.SPTGeneralSupplier},
	SynthProc:     {schema.HandleProc, schema.ProcTitle, "Made-up processes", ns.SPTGeneralSupplier},
	SynthCGroup:   {schema.HandleCGroup, schema.CGroupTitle, "Made-up control groups", ns.SPTGeneralSupplier},
}

// newSynthProvider is the provider of target k (one below SynthAll), its clock starting at start.
func newSynthProvider(s *Synthetic, k SynthTarget, start time.Time) *synthProvider {
	p := &synthProvider{s: s, kind: k, last: start, boot: start.Add(-synthBootAge)}
	p.reset = uint64(p.boot.Unix())
	p.maker = p.makerOf(k)
	p.classes = p.maker.init(s)
	sup := synthSuppliers[k]
	desc := " (synthetic: seed " + strconv.FormatUint(s.opt.Seed, 10) + ")"
	p.sup = schema.Supplier(sup.handle, "synthetic-"+k.String(), sup.title, sup.what+desc, sup.typ, p.classes)
	return p
}

// Supplier is the DCI4 supplier record.
func (p *synthProvider) Supplier() ns.Supplier { return p.sup }

// Classes declares the same classes as the corresponding host provider.
func (p *synthProvider) Classes() []*ns.Class { return p.classes }

// Collect applies the actions scripted for this tick, then advances the counters by the time
// elapsed on the source's clock and reads them.
func (p *synthProvider) Collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	p.mu.Lock()
	tick := p.tick
	p.tick++
	p.dl.Start()
	for _, a := range p.s.actions(p.kind, tick) {
		p.apply(a)
	}
	if p.hang {
		p.mu.Unlock()
		<-ctx.Done()
		return collect.Batch{}, fmt.Errorf("synthetic-%s: %w", p.kind, ctx.Err())
	}
	defer p.mu.Unlock()
	if p.failErr != nil {
		return collect.Batch{}, fmt.Errorf("synthetic-%s: %w", p.kind, p.failErr)
	}
	if err := ctx.Err(); err != nil {
		return collect.Batch{}, err
	}
	if p.stopped && p.prev.Classes != nil {
		return p.prev, nil
	}
	now := p.s.opt.Now()
	dt := now.Sub(p.last).Seconds()
	if dt < 0 {
		dt = 0
	}
	p.last = now
	b := collect.Batch{Reset: collect.ResetOf(p.reset), Time: now}
	b.Classes = p.maker.collect(synthTick{p: p, seed: p.s.opt.Seed, tick: tick, dt: dt, now: now, req: req})
	p.prev = b
	p.dl.Done(ctx)
	return b, nil
}

func (p *synthProvider) apply(a SynthAction) {
	switch a.Kind {
	case SynthFail:
		p.failErr = a.Err
		if p.failErr == nil {
			p.failErr = errScripted
		}
	case SynthHang:
		p.hang = true
	case SynthStop:
		p.stopped = true
	case SynthRecover:
		p.failErr, p.hang, p.stopped = nil, false, false
	case SynthReset:
		now := p.s.opt.Now()
		p.boot = now
		r := uint64(now.Unix())
		if r <= p.reset {
			r = p.reset + 1 // two resets in one second still differ (DCI4-SUP-8)
		}
		p.reset = r
		p.maker.restart()
	case SynthAddDisks:
		for range max(a.N, 0) {
			p.disk.add(p.s)
		}
	case SynthRemoveDisk:
		p.disk.remove(a.N)
	case SynthAddNICs:
		for range max(a.N, 0) {
			p.net.add(p.s)
		}
	case SynthRemoveNIC:
		p.net.remove(a.N)
	}
}

// delivered reports whether an instance delivered at collection dg has its slow datums in the
// name space already: only if the previous collection delivered it in time.
func (p *synthProvider) delivered(dg uint64) bool { return p.dl.Had(dg) }

// rng is the source's randomness: a PCG seeded with the source's seed and a key that names the
// instance, the quantity and the tick, so a value depends on nothing else.
type rng struct{ pcg rand.PCG }

func newRNG(seed, key uint64) rng {
	var r rng
	r.pcg.Seed(seed, key*0x9e3779b97f4a7c15+1)
	return r
}

// float is uniform in [0, 1).
func (r *rng) float() float64 { return float64(r.pcg.Uint64()>>11) / (1 << 53) }

// Keys of the rng: kind in the top byte, then the instance, then the tick.
func rngKey(kind SynthTarget, inst uint64, tick int) uint64 {
	return uint64(kind+1)<<56 ^ inst<<24 ^ uint64(uint32(tick))
}

// paramKey keys an instance's fixed parameters (tick -1).
func paramKey(kind SynthTarget, inst uint64) uint64 { return rngKey(kind, inst, -1) }

// activity is an instance's activity in one tick: its typical level modulated by the tick's draw.
func activity(base float64, r *rng) float64 { return math.Min(1, base*(0.5+r.float())) }
