// The synthetic source's pressure stalls: a level per resource that wanders, its averages and
// the total stall time that the averages imply.

package synthetic

import (
	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

type psiSynth struct {
	top, res *ns.Class
	specs    []ns.InstanceSpec
	base     [len(schema.PSIResources)]float64 // typical share of time stalled, 0..1
	total    [len(schema.PSIResources)][2]float64
	avg      [len(schema.PSIResources)][2][3]float64 // some/full × avg10, avg60, avg300, 0..1
}

func (p *psiSynth) init(s *Synthetic) []*ns.Class {
	p.top, p.res = schema.PressureClasses()
	for i, name := range schema.PSIResources {
		p.specs = append(p.specs, ns.InstanceSpec{Levels: []uint64{uint64(i)}, OSName: name, ASN: uint16(i + 1)})
		r := newRNG(s.opt.Seed, paramKey(SynthPressure, uint64(i)))
		p.base[i] = 0.2 * r.float() * r.float()
	}
	return []*ns.Class{p.top, p.res}
}

func (p *psiSynth) restart() { p.total = [len(schema.PSIResources)][2]float64{} }

func (p *psiSynth) collect(at synthTick) []collect.ClassReading {
	seed, tick, dt, req := at.seed, at.tick, at.dt, at.req
	if !req.Wants(p.res) {
		return nil
	}
	nd := len(p.res.Datums)
	raw := make([]ns.Raw, len(schema.PSIResources)*nd)
	for i := range schema.PSIResources {
		r := newRNG(seed, rngKey(SynthPressure, uint64(i), tick))
		some := activity(p.base[i], &r)
		full := some * 0.4 * r.float()
		for k, share := range [2]float64{some, full} {
			p.total[i][k] += share * dt * 1e6
			// The kernel's averages decay exponentially over 10, 60 and 300 seconds.
			for w, win := range [3]float64{10, 60, 300} {
				a := min(1, dt/win)
				p.avg[i][k][w] += a * (share - p.avg[i][k][w])
			}
		}
		row := raw[i*nd : (i+1)*nd]
		for k := range 2 {
			off := k * 4
			for w := range 3 {
				row[off+w] = ns.RawN(uint64(p.avg[i][k][w]*10000 + 0.5))
			}
			row[off+3] = ns.RawN(uint64(p.total[i][k]))
		}
	}
	return []collect.ClassReading{{Class: p.res, Specs: p.specs, Raw: raw}}
}
