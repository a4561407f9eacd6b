// The synthetic source's network stack: counters that grow at steady rates with a little noise,
// TCP retransmitting a small share of what it sends.

package synthetic

import (
	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

type tcpipSynth struct {
	ip, tcp, udp *ns.Class
	specs        []ns.InstanceSpec
	rate         float64 // segments per second at full load
	c            map[*ns.Class][]float64
}

func (t *tcpipSynth) init(s *Synthetic) []*ns.Class {
	t.ip, t.tcp, t.udp = schema.TCPIPClasses()
	t.specs = schema.SingleSpecs()
	r := newRNG(s.opt.Seed, paramKey(SynthTCPIP, 0))
	t.rate = 1000 + 50000*r.float()
	t.restart()
	return []*ns.Class{t.ip, t.tcp, t.udp}
}

func (t *tcpipSynth) restart() {
	t.c = map[*ns.Class][]float64{t.ip: make([]float64, len(schema.IPStats)), t.tcp: make([]float64, len(schema.TCPStats)),
		t.udp: make([]float64, len(schema.UDPStats))}
}

// share is each statistic's rate as a share of the load's segments per second; a level's share
// is its level per unit of load.
var tcpipShares = map[*[]schema.StackStat][]float64{
	&schema.IPStats:  {1.02, 1.0, 0.98, 0.01, 0.0005, 0.0002, 0.00001, 0},
	&schema.TCPStats: {0.002, 0.003, 0.0002, 0.0001, 0.02, 0.9, 0.85, 0.004, 0.00001, 0.001, 0, 0, 0.01},
	&schema.UDPStats: {0.08, 0.07, 0.001, 0.0001, 0.00005, 0},
}

func (t *tcpipSynth) collect(at synthTick) []collect.ClassReading {
	seed, tick, dt, req := at.seed, at.tick, at.dt, at.req
	r := newRNG(seed, rngKey(SynthTCPIP, 0, tick))
	load := t.rate * (0.5 + r.float())
	var out []collect.ClassReading
	for _, cs := range []struct {
		c     *ns.Class
		stats *[]schema.StackStat
	}{{t.ip, &schema.IPStats}, {t.tcp, &schema.TCPStats}, {t.udp, &schema.UDPStats}} {
		shares, vals := tcpipShares[cs.stats], t.c[cs.c]
		for i, s := range *cs.stats {
			if s.Level {
				vals[i] = load * shares[i]
			} else {
				vals[i] += load * shares[i] * dt
			}
		}
		if !req.Wants(cs.c) {
			continue
		}
		raw := make([]ns.Raw, len(cs.c.Datums))
		for i, s := range *cs.stats {
			raw[s.ID-1] = ns.RawN(uint64(vals[i]))
		}
		out = append(out, collect.ClassReading{Class: cs.c, Specs: t.specs, Raw: raw})
	}
	return out
}
