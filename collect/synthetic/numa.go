// The synthetic source's NUMA nodes: one per eight processors, memory shared out evenly, most
// allocations local.

package synthetic

import (
	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

type numaSynth struct {
	top, node *ns.Class
	specs     []ns.InstanceSpec
	total     float64
	c         [][6]float64 // hit, miss, foreign, local, other, interleave
}

const synthMemTotal = 64 << 30

func (n *numaSynth) init(s *Synthetic) []*ns.Class {
	nodes := max(1, s.opt.CPUs/8)
	n.top, n.node = schema.NUMAClasses(synthMemTotal)
	n.total = synthMemTotal / float64(nodes)
	n.c = make([][6]float64, nodes)
	for i := range nodes {
		n.specs = append(n.specs, ns.InstanceSpec{Levels: []uint64{uint64(i)}, OSName: "node" + itoaU(uint64(i)), ASN: uint16(i + 1)})
	}
	return []*ns.Class{n.top, n.node}
}

func itoaU(v uint64) string {
	if v < 10 {
		return string(rune('0' + v))
	}
	return itoaU(v/10) + string(rune('0'+v%10))
}

// restart keeps the nodes' counters, as the synthetic source always has.
func (n *numaSynth) restart() {}

func (n *numaSynth) collect(at synthTick) []collect.ClassReading {
	seed, tick, dt, req := at.seed, at.tick, at.dt, at.req
	if !req.Wants(n.node) {
		return nil
	}
	nd := len(n.node.Datums)
	raw := make([]ns.Raw, len(n.c)*nd)
	for i := range n.c {
		r := newRNG(seed, rngKey(SynthNUMA, uint64(i), tick))
		pages := 20000 * (0.5 + r.float()) * dt
		miss := pages * 0.02 * r.float()
		for k, v := range [6]float64{pages - miss, miss, miss * 0.8, pages - miss*0.5, miss * 0.5, pages * 0.001} {
			n.c[i][k] += v
		}
		row := raw[i*nd : (i+1)*nd]
		row[schema.NUMATotalID-1] = ns.RawN(uint64(n.total))
		row[schema.NUMAFreeID-1] = ns.RawN(uint64(n.total * (0.3 + 0.2*r.float())))
		for k := range 6 {
			row[schema.NUMAHitID-1+k] = ns.RawN(uint64(n.c[i][k]))
		}
	}
	return []collect.ClassReading{{Class: n.node, Specs: n.specs, Raw: raw}}
}
