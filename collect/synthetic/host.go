// The synthetic source's host and memory: load, uptime and kernel counters; RAM, swap and paging.

package synthetic

import (
	"strconv"
	"time"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

type hostSynth struct {
	cls       *ns.Class
	specs     []ns.InstanceSpec
	ctxsw     float64
	intr      float64
	forks     float64
	delivered uint64
}

func (h *hostSynth) init(s *Synthetic) []*ns.Class {
	h.cls = schema.HostClass(s.opt.CPUs)
	return []*ns.Class{h.cls}
}

func (h *hostSynth) restart() { h.ctxsw, h.intr, h.forks = 0, 0, 0 }

func (h *hostSynth) collect(at synthTick) []collect.ClassReading {
	p, seed, tick, dt, now, req := at.p, at.seed, at.tick, at.dt, at.now, at.req
	if h.specs == nil {
		h.specs = schema.SingleSpecs()
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
	if collect.Due(req, ns.SVStatic, p.delivered(h.delivered)) {
		raw[schema.HostNameID-1] = ns.RawS("synthetic-" + strconv.FormatUint(seed, 10))
		raw[schema.HostReleaseID-1] = ns.RawS("6.0.0-synthetic")
		raw[schema.HostOSID-1] = ns.RawS("synthetic 1.0")
		raw[schema.HostArchID-1] = ns.RawS("x86_64")
		raw[schema.HostBootID-1] = ns.RawN(p.reset)
		raw[schema.HostHundredID-1] = ns.RawN(100)
	} else {
		for _, id := range [...]uint8{schema.HostNameID, schema.HostReleaseID, schema.HostOSID, schema.HostArchID, schema.HostBootID, schema.HostHundredID} {
			raw[id-1] = ns.RawSkip()
		}
	}
	raw[schema.HostUptimeID-1] = ns.RawN(uint64(max(now.Sub(p.boot), 0) / (10 * time.Millisecond)))
	l := busy * ncpu * 100
	raw[schema.HostLoad1xID-1] = ns.RawN(uint64(l))
	raw[schema.HostLoad5xID-1] = ns.RawN(uint64(l * 0.9))
	raw[schema.HostLoad15xID-1] = ns.RawN(uint64(l * 0.8))
	raw[schema.HostRunningID-1] = ns.RawN(uint64(busy*ncpu) + 1)
	raw[schema.HostBlockedID-1] = ns.RawN(uint64(r.float() * 3))
	raw[schema.HostThreadsID-1] = ns.RawN(200 + uint64(50*ncpu))
	raw[schema.HostCtxswID-1] = ns.RawN(uint64(h.ctxsw))
	raw[schema.HostIntrID-1] = ns.RawN(uint64(h.intr))
	raw[schema.HostForksID-1] = ns.RawN(uint64(h.forks))
	h.delivered = p.dl.Gen
	return []collect.ClassReading{{Class: h.cls, Specs: h.specs, Raw: raw}}
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

func (m *memSynth) init(s *Synthetic) []*ns.Class {
	m.total, m.swapTotal = 64<<30, 8<<30
	m.top, m.real, m.swap, m.virt = schema.MemClasses(m.total)
	m.specs = schema.SingleSpecs()
	up := synthBootAge.Seconds()
	m.c = [4]float64{2e6 * up, 1e6 * up, 5e4 * up, 10 * up}
	m.swapIO = [2]float64{up, 2 * up}
	return []*ns.Class{m.top, m.real, m.swap, m.virt}
}

func (m *memSynth) restart() { m.c, m.swapIO = [4]float64{}, [2]float64{} }

func (m *memSynth) collect(at synthTick) []collect.ClassReading {
	p, seed, tick, dt, req := at.p, at.seed, at.tick, at.dt, at.req
	r := newRNG(seed, rngKey(SynthMem, 0, tick))
	l := activity(0.5, &r)
	m.c[0] += dt * 20e6 * l
	m.c[1] += dt * 10e6 * l
	m.c[2] += dt * 50e3 * l
	m.c[3] += dt * 20 * l
	m.swapIO[0] += dt * 5 * l
	m.swapIO[1] += dt * 10 * l
	var out []collect.ClassReading
	if req.Wants(m.real) {
		raw := make([]ns.Raw, len(m.real.Datums))
		avail := uint64(float64(m.total) * (0.3 + 0.5*r.float()))
		raw[schema.RealTotalID-1] = ns.RawSkip()
		if collect.Due(req, ns.SVStatic, p.delivered(m.delivered[0])) {
			raw[schema.RealTotalID-1] = ns.RawN(m.total)
		}
		raw[schema.RealFreeID-1] = ns.RawN(avail / 3)
		raw[schema.RealAvailID-1] = ns.RawN(avail)
		raw[schema.RealBuffersID-1] = ns.RawN(m.total / 100)
		raw[schema.RealCachedID-1] = ns.RawN(avail / 2)
		m.delivered[0] = p.dl.Gen
		out = append(out, collect.ClassReading{Class: m.real, Specs: m.specs, Raw: raw})
	}
	if req.Wants(m.swap) {
		raw := make([]ns.Raw, len(m.swap.Datums))
		raw[schema.SwapTotalID-1] = ns.RawSkip()
		if collect.Due(req, ns.SVVariable, p.delivered(m.delivered[1])) {
			raw[schema.SwapTotalID-1] = ns.RawN(m.swapTotal)
		}
		raw[schema.SwapFreeID-1] = ns.RawN(m.swapTotal - uint64(float64(m.swapTotal)*0.1*r.float()))
		raw[schema.SwapInID-1] = ns.RawN(uint64(m.swapIO[0]))
		raw[schema.SwapOutID-1] = ns.RawN(uint64(m.swapIO[1]))
		m.delivered[1] = p.dl.Gen
		out = append(out, collect.ClassReading{Class: m.swap, Specs: m.specs, Raw: raw})
	}
	if req.Wants(m.virt) {
		raw := make([]ns.Raw, len(m.virt.Datums))
		for i, v := range m.c {
			raw[i] = ns.RawN(uint64(v))
		}
		out = append(out, collect.ClassReading{Class: m.virt, Specs: m.specs, Raw: raw})
	}
	return out
}
