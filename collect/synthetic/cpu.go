// The synthetic source's processors: times that add up to the interval on every CPU.

package synthetic

import (
	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

type cpuSynth struct {
	rawPer          []ns.Raw // reused between collections (Provider contract)
	top, total, per *ns.Class
	totalSpecs      []ns.InstanceSpec
	specs           []ns.InstanceSpec
	base            []float64   // typical busy share per processor
	ms              [][]float64 // per processor, the ten time counters in ms (datum order)
}

func (c *cpuSynth) init(s *Synthetic) []*ns.Class {
	n := s.opt.CPUs
	c.top, c.total, c.per = schema.CPUClasses(n)
	c.totalSpecs = schema.SingleSpecs()
	cpus := make([]int, n)
	for i := range cpus {
		cpus[i] = i
	}
	c.specs = schema.CPUSpecs(cpus)
	c.base = make([]float64, n)
	c.ms = make([][]float64, n)
	for i := range n {
		r := newRNG(s.opt.Seed, paramKey(SynthCPU, uint64(i)))
		c.base[i] = 0.05 + 0.9*r.float()*r.float()
		c.ms[i] = make([]float64, schema.CPUTimeDatums)
	}
	c.advance(s.opt.Seed, -1, synthBootAge.Seconds())
	return []*ns.Class{c.top, c.total, c.per}
}

func (c *cpuSynth) restart() {
	for _, m := range c.ms {
		clear(m)
	}
}

// cpuShares splits busy time over user, kern, nice, irq, softirq and steal, and idle time over
// wait and idle (datum order); guest time is part of user, as the kernel counts it.
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

func (c *cpuSynth) collect(at synthTick) []collect.ClassReading {
	seed, tick, dt, req := at.seed, at.tick, at.dt, at.req
	c.advance(seed, tick, dt)
	var out []collect.ClassReading
	if req.Wants(c.total) {
		raw := make([]ns.Raw, len(c.total.Datums))
		for k := range schema.CPUTimeDatums {
			var sum uint64
			for _, m := range c.ms {
				sum += uint64(m[k])
			}
			raw[k] = ns.RawN(sum)
		}
		raw[schema.CPUNumID-1] = ns.RawN(uint64(len(c.ms)))
		out = append(out, collect.ClassReading{Class: c.total, Specs: c.totalSpecs, Raw: raw})
	}
	if req.Wants(c.per) {
		nd := len(c.per.Datums)
		raw := collect.ReuseRaw(&c.rawPer, len(c.ms)*nd)
		for i, m := range c.ms {
			for k := range schema.CPUTimeDatums {
				raw[i*nd+k] = ns.RawN(uint64(m[k]))
			}
		}
		out = append(out, collect.ClassReading{Class: c.per, Specs: c.specs, Raw: raw})
	}
	return out
}
