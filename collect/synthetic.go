package collect

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

	ns "dcimon/namespace"
)

// SyntheticOptions configure the synthetic source: a made-up host with Disks whole disks, every
// fourth of which (sda, sde, ...) has Parts partitions — like a host whose system disks are
// partitioned and whose data LUNs are not, which keeps disks=10000 at 15,000 instances rather
// than 30,000 — NICs network interfaces and CPUs processors, whose counters grow at
// pseudo-random rates that depend only on Seed, the instance and the collection number, and
// advance by rate × the seconds elapsed on Now between two collections.
type SyntheticOptions struct {
	Disks, Parts, NICs, CPUs int
	Seed                     uint64
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
)

// ParseSynthetic parses a --source value such as `synthetic:disks=10000,nics=64,cpus=128,seed=7`
// (the `synthetic` prefix is optional; every key is optional: disks=8, parts=2, nics=4, cpus=4,
// seed=1). Errors name the bad key or value.
func ParseSynthetic(spec string) (SyntheticOptions, error) {
	opt := SyntheticOptions{Disks: synthDefaultDisks, Parts: synthDefaultParts, NICs: synthDefaultNICs,
		CPUs: synthDefaultCPUs, Seed: 1}
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
		case "seed":
			opt.Seed = n
		default:
			err = fmt.Errorf("synthetic source %q: unknown key %q (want disks, parts, nics, cpus or seed)", spec, key)
		}
		if err != nil {
			return opt, err
		}
	}
	return opt, nil
}

// SyntheticProviders returns the providers of a new synthetic source, in the same order and
// with exactly the same classes as HostProviders.
func SyntheticProviders(opt SyntheticOptions) []Provider { return NewSynthetic(opt).Providers() }

// SynthTarget names one of the synthetic source's providers in a scripted action.
type SynthTarget int

// Synthetic providers, in provider order; SynthAll addresses every one of them.
const (
	SynthHost SynthTarget = iota
	SynthMem
	SynthCPU
	SynthDisk
	SynthNet
	SynthAll
)

var synthTargetNames = [...]string{"host", "mem", "cpu", "disk", "net", "all"}

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
	opt    SyntheticOptions
	mu     sync.Mutex
	script map[SynthTarget]map[int][]SynthAction
	provs  [SynthAll]*synthProvider
}

// NewSynthetic builds a synthetic source. Zero counts are taken literally (no disks, no
// interfaces), except CPUs, of which there is at least one.
func NewSynthetic(opt SyntheticOptions) *Synthetic {
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

// Providers returns the source's providers in HostProviders' order: host, mem, cpu, disk, net.
func (s *Synthetic) Providers() []Provider {
	out := make([]Provider, len(s.provs))
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
	prev    Batch // what a stopped provider keeps returning
	dl      deliveries

	host hostSynth
	mem  memSynth
	cpu  cpuSynth
	disk diskSynth
	net  netSynth
}

func newSynthProvider(s *Synthetic, k SynthTarget, start time.Time) *synthProvider {
	p := &synthProvider{s: s, kind: k, last: start, boot: start.Add(-synthBootAge)}
	p.reset = uint64(p.boot.Unix())
	desc := " (synthetic: seed " + strconv.FormatUint(s.opt.Seed, 10) + ")"
	switch k {
	case SynthHost:
		p.host.cls = hostClass(s.opt.CPUs)
		p.classes = []*ns.Class{p.host.cls}
		p.sup = supplier(handleHost, "synthetic-host", hostTitle, "Made-up host identity and load"+desc, ns.SPTGeneralSupplier, p.classes)
	case SynthMem:
		p.mem.init(s)
		p.classes = []*ns.Class{p.mem.top, p.mem.real, p.mem.swap, p.mem.virt}
		p.sup = supplier(handleMem, "synthetic-mem", memTitle, "Made-up memory and paging"+desc, ns.SPTGeneralSupplier, p.classes)
	case SynthCPU:
		p.cpu.init(s)
		p.classes = []*ns.Class{p.cpu.top, p.cpu.total, p.cpu.per}
		p.sup = supplier(handleCPU, "synthetic-cpu", cpuTitle, "Made-up processor times"+desc, ns.SPTGeneralSupplier, p.classes)
	case SynthDisk:
		p.disk.init(s)
		p.classes = []*ns.Class{p.disk.top, p.disk.disk, p.disk.part}
		p.sup = supplier(handleDisk, "synthetic-disk", diskTitle, "Made-up block devices and partitions"+desc, ns.SPTGeneralSupplier, p.classes)
	case SynthNet:
		p.net.init(s)
		p.classes = []*ns.Class{p.net.top, p.net.cls}
		p.sup = supplier(handleNet, "synthetic-net", netTitle, "Made-up network interfaces"+desc, ns.SPTNetworkDriver, p.classes)
	}
	return p
}

// Supplier is the DCI4 supplier record.
func (p *synthProvider) Supplier() ns.Supplier { return p.sup }

// Classes declares the same classes as the corresponding host provider.
func (p *synthProvider) Classes() []*ns.Class { return p.classes }

// Collect applies the actions scripted for this tick, then advances the counters by the time
// elapsed on the source's clock and reads them.
func (p *synthProvider) Collect(ctx context.Context, req Request) (Batch, error) {
	p.mu.Lock()
	tick := p.tick
	p.tick++
	p.dl.start()
	for _, a := range p.s.actions(p.kind, tick) {
		p.apply(a)
	}
	if p.hang {
		p.mu.Unlock()
		<-ctx.Done()
		return Batch{}, fmt.Errorf("synthetic-%s: %w", p.kind, ctx.Err())
	}
	defer p.mu.Unlock()
	if p.failErr != nil {
		return Batch{}, fmt.Errorf("synthetic-%s: %w", p.kind, p.failErr)
	}
	if err := ctx.Err(); err != nil {
		return Batch{}, err
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
	b := Batch{Reset: resetOf(p.reset), Time: now}
	seed := p.s.opt.Seed
	switch p.kind {
	case SynthHost:
		b.Classes = p.host.collect(p, seed, tick, dt, now, req)
	case SynthMem:
		b.Classes = p.mem.collect(p, seed, tick, dt, req)
	case SynthCPU:
		b.Classes = p.cpu.collect(seed, tick, dt, req)
	case SynthDisk:
		b.Classes = p.disk.collect(p, seed, tick, dt, now, req)
	case SynthNet:
		b.Classes = p.net.collect(p, seed, tick, dt, req)
	}
	p.prev = b
	p.dl.done(ctx)
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
		switch p.kind {
		case SynthHost:
			p.host.restart()
		case SynthMem:
			p.mem.restart()
		case SynthCPU:
			p.cpu.restart()
		case SynthDisk:
			p.disk.restart()
		case SynthNet:
			p.net.restart()
		}
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
func (p *synthProvider) delivered(dg uint64) bool { return p.dl.had(dg) }

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

// --- host ---

type hostSynth struct {
	cls       *ns.Class
	specs     []ns.InstanceSpec
	ctxsw     float64
	intr      float64
	forks     float64
	delivered uint64
}

func (h *hostSynth) restart() { h.ctxsw, h.intr, h.forks = 0, 0, 0 }

func (h *hostSynth) collect(p *synthProvider, seed uint64, tick int, dt float64, now time.Time, req Request) []ClassReading {
	if h.specs == nil {
		h.specs = singleSpecs()
		up := now.Sub(p.boot).Seconds()
		h.ctxsw, h.intr, h.forks = 5000*up, 2000*up, 2*up
	}
	r := newRNG(seed, rngKey(SynthHost, 0, tick))
	ncpu := float64(p.s.opt.CPUs)
	busy := activity(0.4, &r)
	h.ctxsw += dt * 5000 * ncpu * busy
	h.intr += dt * 2000 * ncpu * busy
	h.forks += dt * 20 * busy
	if !req.Wants(h.cls) {
		return nil
	}
	raw := make([]ns.Raw, len(h.cls.Datums))
	if due(req, ns.SVStatic, p.delivered(h.delivered)) {
		raw[hostNameID-1] = rawS("synthetic-" + strconv.FormatUint(seed, 10))
		raw[hostReleaseID-1] = rawS("6.0.0-synthetic")
		raw[hostOSID-1] = rawS("synthetic 1.0")
		raw[hostArchID-1] = rawS("x86_64")
		raw[hostBootID-1] = rawN(p.reset)
		raw[hostHundredID-1] = rawN(100)
	} else {
		for _, id := range [...]uint8{hostNameID, hostReleaseID, hostOSID, hostArchID, hostBootID, hostHundredID} {
			raw[id-1] = rawSkipped()
		}
	}
	raw[hostUptimeID-1] = rawN(uint64(max(now.Sub(p.boot), 0) / (10 * time.Millisecond)))
	l := busy * ncpu * 100
	raw[hostLoad1xID-1] = rawN(uint64(l))
	raw[hostLoad5xID-1] = rawN(uint64(l * 0.9))
	raw[hostLoad15xID-1] = rawN(uint64(l * 0.8))
	raw[hostRunningID-1] = rawN(uint64(busy*ncpu) + 1)
	raw[hostBlockedID-1] = rawN(uint64(r.float() * 3))
	raw[hostThreadsID-1] = rawN(200 + uint64(50*ncpu))
	raw[hostCtxswID-1] = rawN(uint64(h.ctxsw))
	raw[hostIntrID-1] = rawN(uint64(h.intr))
	raw[hostForksID-1] = rawN(uint64(h.forks))
	h.delivered = p.dl.gen
	return []ClassReading{{Class: h.cls, Specs: h.specs, Raw: raw}}
}

// --- memory ---

type memSynth struct {
	top, real, swap, virt *ns.Class
	specs                 []ns.InstanceSpec
	total, swapTotal      uint64
	c                     [4]float64 // pagein, pageout, faults, majfaults
	swapIO                [2]float64 // swapin, swapout
	delivered             [2]uint64
}

func (m *memSynth) init(s *Synthetic) {
	m.total, m.swapTotal = 64<<30, 8<<30
	m.top, m.real, m.swap, m.virt = memClasses(m.total)
	m.specs = singleSpecs()
	up := synthBootAge.Seconds()
	m.c = [4]float64{2e6 * up, 1e6 * up, 5e4 * up, 10 * up}
	m.swapIO = [2]float64{up, 2 * up}
}

func (m *memSynth) restart() { m.c, m.swapIO = [4]float64{}, [2]float64{} }

func (m *memSynth) collect(p *synthProvider, seed uint64, tick int, dt float64, req Request) []ClassReading {
	r := newRNG(seed, rngKey(SynthMem, 0, tick))
	l := activity(0.5, &r)
	m.c[0] += dt * 20e6 * l
	m.c[1] += dt * 10e6 * l
	m.c[2] += dt * 50e3 * l
	m.c[3] += dt * 20 * l
	m.swapIO[0] += dt * 5 * l
	m.swapIO[1] += dt * 10 * l
	var out []ClassReading
	if req.Wants(m.real) {
		raw := make([]ns.Raw, len(m.real.Datums))
		avail := uint64(float64(m.total) * (0.3 + 0.5*r.float()))
		raw[realTotalID-1] = rawSkipped()
		if due(req, ns.SVStatic, p.delivered(m.delivered[0])) {
			raw[realTotalID-1] = rawN(m.total)
		}
		raw[realFreeID-1] = rawN(avail / 3)
		raw[realAvailID-1] = rawN(avail)
		raw[realBuffersID-1] = rawN(m.total / 100)
		raw[realCachedID-1] = rawN(avail / 2)
		m.delivered[0] = p.dl.gen
		out = append(out, ClassReading{Class: m.real, Specs: m.specs, Raw: raw})
	}
	if req.Wants(m.swap) {
		raw := make([]ns.Raw, len(m.swap.Datums))
		raw[swapTotalID-1] = rawSkipped()
		if due(req, ns.SVVariable, p.delivered(m.delivered[1])) {
			raw[swapTotalID-1] = rawN(m.swapTotal)
		}
		raw[swapFreeID-1] = rawN(m.swapTotal - uint64(float64(m.swapTotal)*0.1*r.float()))
		raw[swapInID-1] = rawN(uint64(m.swapIO[0]))
		raw[swapOutID-1] = rawN(uint64(m.swapIO[1]))
		m.delivered[1] = p.dl.gen
		out = append(out, ClassReading{Class: m.swap, Specs: m.specs, Raw: raw})
	}
	if req.Wants(m.virt) {
		raw := make([]ns.Raw, len(m.virt.Datums))
		for i, v := range m.c {
			raw[i] = rawN(uint64(v))
		}
		out = append(out, ClassReading{Class: m.virt, Specs: m.specs, Raw: raw})
	}
	return out
}

// --- processors ---

type cpuSynth struct {
	rawPer          []ns.Raw // reused between collections (Provider contract)
	top, total, per *ns.Class
	totalSpecs      []ns.InstanceSpec
	specs           []ns.InstanceSpec
	base            []float64   // typical busy share per processor
	ms              [][]float64 // per processor, the ten time counters in ms (cpuColumn order)
}

func (c *cpuSynth) init(s *Synthetic) {
	n := s.opt.CPUs
	c.top, c.total, c.per = cpuClasses(n)
	c.totalSpecs = singleSpecs()
	cpus := make([]cpuTimes, n)
	for i := range cpus {
		cpus[i].cpu = i
	}
	c.specs = cpuSpecs(cpus)
	c.base = make([]float64, n)
	c.ms = make([][]float64, n)
	for i := range n {
		r := newRNG(s.opt.Seed, paramKey(SynthCPU, uint64(i)))
		c.base[i] = 0.05 + 0.9*r.float()*r.float()
		c.ms[i] = make([]float64, len(cpuColumn))
	}
	c.advance(s.opt.Seed, -1, synthBootAge.Seconds())
}

func (c *cpuSynth) restart() {
	for _, m := range c.ms {
		clear(m)
	}
}

// cpuShares splits busy time over user, kern, nice, irq, softirq and steal, and idle time over
// wait and idle (cpuColumn order); guest time is part of user, as the kernel counts it.
var cpuShares = [...]float64{0.55, 0.25, 0, 0, 0.06, 0.02, 0.08, 0.04, 0.05, 0}

// advance adds dt seconds of activity to every processor.
func (c *cpuSynth) advance(seed uint64, tick int, dt float64) {
	for i, m := range c.ms {
		r := newRNG(seed, rngKey(SynthCPU, uint64(i), tick))
		busy := activity(c.base[i], &r) * dt * 1000
		idle := dt*1000 - busy
		for k, share := range cpuShares {
			m[k] += busy * share
		}
		m[2] += idle * 0.05 // wait
		m[3] += idle * 0.95 // idle
	}
}

func (c *cpuSynth) collect(seed uint64, tick int, dt float64, req Request) []ClassReading {
	c.advance(seed, tick, dt)
	var out []ClassReading
	if req.Wants(c.total) {
		raw := make([]ns.Raw, len(c.total.Datums))
		for k := range cpuColumn {
			var sum uint64
			for _, m := range c.ms {
				sum += uint64(m[k])
			}
			raw[k] = rawN(sum)
		}
		raw[cpuNumID-1] = rawN(uint64(len(c.ms)))
		out = append(out, ClassReading{Class: c.total, Specs: c.totalSpecs, Raw: raw})
	}
	if req.Wants(c.per) {
		nd := len(c.per.Datums)
		raw := reuseRaw(&c.rawPer, len(c.ms)*nd)
		for i, m := range c.ms {
			for k := range cpuColumn {
				raw[i*nd+k] = rawN(uint64(m[k]))
			}
		}
		out = append(out, ClassReading{Class: c.per, Specs: c.specs, Raw: raw})
	}
	return out
}

// --- disks ---

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
	c         [numDiskCols]float64 // counters, diskCol order
	delivered uint64
	parts     []synthPart
}

type synthPart struct {
	name      string
	devno     uint64
	number    uint64
	share     float64
	c         [numDiskCols]float64
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

func (d *diskSynth) init(s *Synthetic) {
	d.top, d.disk, d.part = diskClasses()
	d.parts = s.opt.Parts
	ids := make([]ns.DatumID, len(diskWriteIDs))
	for i, id := range diskWriteIDs {
		ids[i] = ns.DatumID(id)
	}
	d.roList = invalidList(ids...)
	d.disks = make([]*synthDisk, 0, s.opt.Disks)
	for range s.opt.Disks {
		d.add(s)
	}
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
	sd := &synthDisk{index: i, name: sdName(i), devno: mkdev(major, minor),
		base: r.float() * r.float(), riops: 100 + 4900*r.float(), wiops: 100 + 4900*r.float(),
		rsize: 4096 * float64(uint(1)<<uint(6*r.float())), wsize: 4096 * float64(uint(1)<<uint(6*r.float())),
		rlat: 0.1 + 10*r.float(), wlat: 0.1 + 10*r.float(), size: 1 << (30 + uint(12*r.float())),
		ro: i%16 == 15}
	var wsum float64
	for k := range d.parts * b2i(i%synthPartEvery == 0) {
		w := 0.2 + r.float()
		sd.parts = append(sd.parts, synthPart{name: sd.name + strconv.Itoa(k+1), devno: mkdev(major, minor+uint32(k)+1),
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

func (d *diskSynth) remove(i int) {
	if i < 0 || i >= len(d.disks) {
		return
	}
	d.disks = append(d.disks[:i], d.disks[i+1:]...)
	d.dirty = true
}

func (d *diskSynth) restart() {
	for _, sd := range d.disks {
		sd.c = [numDiskCols]float64{}
		for k := range sd.parts {
			sd.parts[k].c = [numDiskCols]float64{}
		}
	}
}

// advance adds dt seconds of activity at load l (scaled by scale) and returns the deltas.
func (sd *synthDisk) advance(r *rng, scale, dt float64) (delta [numDiskCols]float64) {
	l := activity(sd.base, r) * scale
	if sd.ro {
		l *= 0.2
	}
	reads := sd.riops * l * dt
	writes := sd.wiops * l * dt
	if sd.ro {
		writes = 0
	}
	busyMs := math.Min(1, l*1.2) * dt * 1000
	delta[diskReads] = reads
	delta[diskWrites] = writes
	delta[diskReadsMerged] = reads * 0.1
	delta[diskWritesMerged] = writes * 0.3
	delta[diskReadBytes] = reads * sd.rsize
	delta[diskWriteBytes] = writes * sd.wsize
	delta[diskReadMs] = reads * sd.rlat
	delta[diskWriteMs] = writes * sd.wlat
	delta[diskIOMs] = busyMs
	delta[diskWeightedMs] = busyMs * (1 + 8*l)
	delta[diskDiscards] = writes * 0.01
	delta[diskDiscardBytes] = writes * 0.01 * (1 << 20)
	delta[diskDiscardMs] = writes * 0.01 * 2
	delta[diskFlushes] = writes * 0.05
	delta[diskFlushMs] = writes * 0.05 * 0.5
	for c, v := range delta {
		sd.c[c] += v
	}
	sd.c[diskInFlight] = math.Round(l * 8)
	return delta
}

func (d *diskSynth) collect(p *synthProvider, seed uint64, tick int, dt float64, now time.Time, req Request) []ClassReading {
	for _, sd := range d.disks {
		r := newRNG(seed, rngKey(SynthDisk, uint64(sd.index), tick))
		delta := sd.advance(&r, 1, dt)
		for k := range sd.parts {
			pt := &sd.parts[k]
			for c, v := range delta {
				pt.c[c] += v * pt.share
			}
			pt.c[diskIOMs] -= delta[diskIOMs] * pt.share
			pt.c[diskIOMs] += delta[diskIOMs] * math.Min(1, pt.share*1.5)
			pt.c[diskInFlight] = math.Round(sd.c[diskInFlight] * pt.share)
		}
	}
	if d.dirty {
		d.diskSpecs, d.partSpecs = d.specs()
		d.dirty = false
	}
	clock := uint64(max(now.Sub(p.boot), 0) / time.Millisecond) // since the synthetic boot, like CLOCK_MONOTONIC
	var out []ClassReading
	if req.Wants(d.disk) {
		nd := len(d.disk.Datums)
		raw := reuseRawRows(&d.rawDisk, len(d.disks)*nd) // synthDiskRow clears each row
		for i, sd := range d.disks {
			row := raw[i*nd : (i+1)*nd : (i+1)*nd]
			synthDiskRow(row, &sd.c, clock, sd.size, sd.ro, due(req, ns.SVVariable, p.delivered(sd.delivered)), d.roList)
			sd.delivered = p.dl.gen
		}
		out = append(out, ClassReading{Class: d.disk, Specs: d.diskSpecs, Raw: raw})
	}
	if req.Wants(d.part) {
		nd := len(d.part.Datums)
		raw := reuseRawRows(&d.rawPart, len(d.partSpecs)*nd) // synthDiskRow clears each row
		k := 0
		for _, sd := range d.disks {
			for j := range sd.parts {
				pt := &sd.parts[j]
				row := raw[k*nd : (k+1)*nd : (k+1)*nd]
				synthDiskRow(row, &pt.c, clock, uint64(float64(sd.size)*pt.share)&^4095, sd.ro,
					due(req, ns.SVVariable, p.delivered(pt.delivered)), d.roList)
				pt.delivered = p.dl.gen
				k++
			}
		}
		out = append(out, ClassReading{Class: d.part, Specs: d.partSpecs, Raw: raw})
	}
	return out
}

// synthDiskRow fills one row like the host disk provider: 32-bit columns wrap as the kernel's do.
// row is freshly allocated (zero: valid 0, empty string), so only the fields that differ are
// written; at 10,000 disks the string headers' write barriers would be most of the cost.
func synthDiskRow(row []ns.Raw, c *[numDiskCols]float64, clock, size uint64, ro, variable bool, roList string) {
	clear(row)
	for i, col := range diskRawCol {
		v := uint64(c[col])
		if diskColInfo[col].bits == 32 {
			v = uint64(uint32(v))
		}
		row[i].N = v
	}
	row[diskClockID-1].N = clock
	if variable {
		row[diskSizeID-1].N, row[diskROID-1].N = size, b2u(ro)
	} else {
		row[diskSizeID-1].State, row[diskROID-1].State = ns.RawSkipped, ns.RawSkipped
	}
	if ro {
		for _, id := range diskWriteIDs {
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
		b := blockInfo{name: sd.name, devno: sd.devno, serial: fmt.Sprintf("SYNTH-%08d", sd.index),
			serialFrom: "synthetic", have: blockHave{removable: true}}
		disks[i] = b.spec(false)
		for _, pt := range sd.parts {
			pb := blockInfo{name: pt.name, devno: pt.devno, part: true, parent: sd.devno, parentName: sd.name, partNo: pt.number}
			parts = append(parts, pb.spec(true))
		}
	}
	return disks, parts
}

// --- network interfaces ---

type synthNIC struct {
	index     int
	name      string
	ifindex   uint64
	base      float64
	speed     uint64 // bits per second, 0 unknown
	up        bool
	mac, ipv4 string
	pktSize   float64
	c         [numNetCols]float64
	delivered uint64
	invalid   string
}

type netSynth struct {
	raw      []ns.Raw // reused between collections (Provider contract)
	top, cls *ns.Class
	nics     []*synthNIC
	next     int
	specs    []ns.InstanceSpec
	dirty    bool
}

func (n *netSynth) init(s *Synthetic) {
	n.top, n.cls = netClasses()
	for range s.opt.NICs {
		n.add(s)
	}
}

func (n *netSynth) add(s *Synthetic) {
	i := n.next
	n.next++
	r := newRNG(s.opt.Seed, paramKey(SynthNet, uint64(i)))
	nic := &synthNIC{index: i, name: "eth" + strconv.Itoa(i), ifindex: uint64(i) + 2, base: r.float() * r.float(),
		up: i%5 != 4, pktSize: 200 + 1300*r.float()}
	switch {
	case i%8 == 7:
		nic.speed = 0 // a virtual interface: speed unknown
	default:
		nic.speed = [...]uint64{1e9, 10e9, 25e9}[int(3*r.float())]
	}
	nic.mac = string([]byte{0x02, 0x53, 0x59, byte(i >> 16), byte(i >> 8), byte(i)})
	if nic.up {
		nic.ipv4 = string([]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})
	}
	var inv []ns.DatumID
	if nic.ipv4 == "" {
		inv = append(inv, netIPv4ID)
	}
	if nic.speed == 0 {
		inv = append(inv, netSpeedID)
	}
	nic.invalid = invalidList(inv...)
	nic.advance(&r, synthBootAge.Seconds())
	n.nics = append(n.nics, nic)
	n.dirty = true
}

func (n *netSynth) remove(i int) {
	if i < 0 || i >= len(n.nics) {
		return
	}
	n.nics = append(n.nics[:i], n.nics[i+1:]...)
	n.dirty = true
}

func (n *netSynth) restart() {
	for _, nic := range n.nics {
		nic.c = [numNetCols]float64{}
	}
}

func (nic *synthNIC) advance(r *rng, dt float64) {
	if !nic.up {
		return
	}
	speed := float64(nic.speed)
	if speed == 0 {
		speed = 1e9
	}
	l := activity(nic.base, r)
	rx := speed / 8 * 0.6 * l * dt
	tx := speed / 8 * 0.4 * l * dt * (0.5 + r.float())
	nic.c[netRxBytes] += rx
	nic.c[netTxBytes] += tx
	nic.c[netRxPackets] += rx / nic.pktSize
	nic.c[netTxPackets] += tx / nic.pktSize
	nic.c[netRxErrs] += rx / nic.pktSize * 1e-6
	nic.c[netRxDrop] += rx / nic.pktSize * 1e-5
	nic.c[netTxDrop] += tx / nic.pktSize * 1e-6
}

func (n *netSynth) collect(p *synthProvider, seed uint64, tick int, dt float64, req Request) []ClassReading {
	for _, nic := range n.nics {
		r := newRNG(seed, rngKey(SynthNet, uint64(nic.index), tick))
		nic.advance(&r, dt)
	}
	if n.dirty {
		n.specs = make([]ns.InstanceSpec, len(n.nics))
		for i, nic := range n.nics {
			n.specs[i] = ns.InstanceSpec{Levels: []uint64{nic.ifindex}, OSName: nic.name, ASN: asnFor(nic.ifindex),
				Desc: "Network interface " + nic.name}
		}
		n.dirty = false
	}
	if !req.Wants(n.cls) {
		return nil
	}
	nd := len(n.cls.Datums)
	raw := reuseRaw(&n.raw, len(n.nics)*nd)
	for i, nic := range n.nics {
		row := raw[i*nd : (i+1)*nd : (i+1)*nd]
		for k, c := range netRawCol {
			row[k] = rawN(uint64(nic.c[c]))
		}
		variable := due(req, ns.SVVariable, p.delivered(nic.delivered))
		static := due(req, ns.SVStatic, p.delivered(nic.delivered))
		for _, id := range [...]uint8{netMACID, netIPv4ID, netMTUID, netUpID, netBroadcastID, netLoopbackID, netRunningID, netSpeedID} {
			row[id-1] = rawSkipped()
		}
		if variable {
			row[netMACID-1] = rawS(nic.mac)
			row[netIPv4ID-1] = rawS(nic.ipv4)
			row[netMTUID-1] = rawN(1500)
			row[netUpID-1] = rawN(b2u(nic.up))
			row[netBroadcastID-1] = rawN(1)
			row[netLoopbackID-1] = rawN(0)
			row[netRunningID-1] = rawN(b2u(nic.up))
			row[netSpeedID-1] = rawN(nic.speed)
		}
		row[netIfIndexID-1] = rawSkipped()
		if static {
			row[netIfIndexID-1] = rawN(nic.ifindex)
		}
		if nic.ipv4 == "" {
			row[netIPv4ID-1] = rawInvalid()
		}
		if nic.speed == 0 {
			row[netSpeedID-1] = rawInvalid()
		}
		row[nd-1] = rawS(nic.invalid)
		nic.delivered = p.dl.gen
	}
	return []ClassReading{{Class: n.cls, Specs: n.specs, Raw: raw}}
}
