// The synthetic source's network interfaces, added and removed by script.

package synthetic

import (
	"strconv"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

type synthNIC struct {
	index     int
	name      string
	ifindex   uint64
	base      float64
	speed     uint64 // bits per second, 0 unknown
	up        bool
	mac, ipv4 string
	pktSize   float64
	c         [schema.NetODropsID]float64
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

func (n *netSynth) init(s *Synthetic) []*ns.Class {
	n.top, n.cls = schema.NetClasses()
	for range s.opt.NICs {
		n.add(s)
	}
	return []*ns.Class{n.top, n.cls}
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
		inv = append(inv, schema.NetIPv4ID)
	}
	if nic.speed == 0 {
		inv = append(inv, schema.NetSpeedID)
	}
	nic.invalid = schema.InvalidList(inv...)
	nic.advance(&r, synthBootAge.Seconds())
	n.nics = append(n.nics, nic)
	n.dirty = true
}

func (n *netSynth) remove(i int) { n.dirty = removeAt(&n.nics, i) || n.dirty }

func (n *netSynth) restart() {
	for _, nic := range n.nics {
		nic.c = [schema.NetODropsID]float64{}
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
	nic.c[schema.NetIBytesID-1] += rx
	nic.c[schema.NetOBytesID-1] += tx
	nic.c[schema.NetIPacketsID-1] += rx / nic.pktSize
	nic.c[schema.NetOPacketsID-1] += tx / nic.pktSize
	nic.c[schema.NetIErrorsID-1] += rx / nic.pktSize * 1e-6
	nic.c[schema.NetIDropsID-1] += rx / nic.pktSize * 1e-5
	nic.c[schema.NetODropsID-1] += tx / nic.pktSize * 1e-6
}

func (n *netSynth) collect(at synthTick) []collect.ClassReading {
	p, seed, tick, dt, req := at.p, at.seed, at.tick, at.dt, at.req
	for _, nic := range n.nics {
		r := newRNG(seed, rngKey(SynthNet, uint64(nic.index), tick))
		nic.advance(&r, dt)
	}
	if n.dirty {
		n.specs = make([]ns.InstanceSpec, len(n.nics))
		for i, nic := range n.nics {
			n.specs[i] = ns.InstanceSpec{Levels: []uint64{nic.ifindex}, OSName: nic.name, ASN: schema.ASNFor(nic.ifindex),
				Desc: "Network interface " + nic.name}
		}
		n.dirty = false
	}
	if !req.Wants(n.cls) {
		return nil
	}
	nd := len(n.cls.Datums)
	raw := collect.ReuseRaw(&n.raw, len(n.nics)*nd)
	for i, nic := range n.nics {
		row := raw[i*nd : (i+1)*nd : (i+1)*nd]
		for k := range nic.c {
			row[k] = ns.RawN(uint64(nic.c[k]))
		}
		variable := collect.Due(req, ns.SVVariable, p.delivered(nic.delivered))
		static := collect.Due(req, ns.SVStatic, p.delivered(nic.delivered))
		for _, id := range [...]uint8{schema.NetMACID, schema.NetIPv4ID, schema.NetMTUID, schema.NetBroadcastID, schema.NetLoopbackID} {
			row[id-1] = ns.RawSkip()
		}
		// Link state is SV_VOLATILE, as the host provider's: at every collection.
		row[schema.NetUpID-1] = ns.RawN(boolN(nic.up))
		row[schema.NetRunningID-1] = ns.RawN(boolN(nic.up))
		row[schema.NetSpeedID-1] = ns.RawN(nic.speed)
		if variable {
			row[schema.NetMACID-1] = ns.RawS(nic.mac)
			row[schema.NetIPv4ID-1] = ns.RawS(nic.ipv4)
			row[schema.NetMTUID-1] = ns.RawN(1500)
			row[schema.NetBroadcastID-1] = ns.RawN(1)
			row[schema.NetLoopbackID-1] = ns.RawN(0)
		}
		row[schema.NetIfIndexID-1] = ns.RawSkip()
		if static {
			row[schema.NetIfIndexID-1] = ns.RawN(nic.ifindex)
		}
		if nic.ipv4 == "" {
			row[schema.NetIPv4ID-1] = ns.RawInvalidData()
		}
		if nic.speed == 0 {
			row[schema.NetSpeedID-1] = ns.RawInvalidData()
		}
		row[nd-1] = ns.RawS(nic.invalid)
		nic.delivered = p.dl.Gen
	}
	return []collect.ClassReading{{Class: n.cls, Specs: n.specs, Raw: raw}}
}
