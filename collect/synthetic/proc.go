// The synthetic source's processes and control groups: a made-up process table whose processes
// come and go (each collection a few exit and as many start, their PIDs counting up and
// wrapping at pid_max as the kernel's do), and a small hierarchy of services.

package synthetic

import (
	"slices"
	"strconv"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// synthPIDMax is the kernel's default pid_max on 64-bit hosts: new PIDs wrap to 300 past it.
const synthPIDMax = 4194304

type synthProc struct {
	pid, start     uint64
	levels         []uint64
	name, comm     string
	cmd, user      string
	uid            uint64
	base           float64 // typical share of a processor
	ut, st, rb, wb float64
	faults, ctx    float64
}

type procSynth struct {
	top, cls *ns.Class
	procs    []*synthProc
	nextPID  uint64
	specs    []ns.InstanceSpec
	raw      []ns.Raw
	born     int
}

var synthComms = [...]string{"postgres", "nginx", "java", "python3", "sshd", "bash", "systemd", "cron", "redis-server", "node"}

func (p *procSynth) init(s *Synthetic) []*ns.Class {
	p.top, p.cls = schema.ProcClasses(s.opt.CPUs, synthMemTotal)
	p.nextPID = 300
	if s.opt.PIDStart > 0 {
		p.nextPID = s.opt.PIDStart
	}
	for range s.opt.Procs {
		p.spawn(s.opt.Seed, 0)
	}
	return []*ns.Class{p.top, p.cls}
}

func (p *procSynth) spawn(seed uint64, ticks uint64) {
	pid := p.nextPID
	p.nextPID++
	if p.nextPID >= synthPIDMax {
		p.nextPID = 300
	}
	p.born++
	r := newRNG(seed, paramKey(SynthProc, uint64(p.born)))
	comm := synthComms[int(r.float()*float64(len(synthComms)))]
	name := strconv.FormatUint(pid, 10)
	sp := &synthProc{pid: pid, start: 500 + ticks, name: name, comm: comm, cmd: "/usr/bin/" + comm + " --worker " + name,
		user: "app", uid: 1000, base: 0.3 * r.float() * r.float() * r.float()}
	if r.float() < 0.3 {
		sp.user, sp.uid = "root", 0
	}
	sp.levels = []uint64{sp.pid, sp.start}
	p.procs = append(p.procs, sp)
}

func (p *procSynth) restart() {
	for _, sp := range p.procs {
		sp.ut, sp.st, sp.rb, sp.wb, sp.faults, sp.ctx = 0, 0, 0, 0, 0, 0
	}
}

func (p *procSynth) collect(at synthTick) []collect.ClassReading {
	pr, seed, tick, dt, req := at.p, at.seed, at.tick, at.dt, at.req
	// Churn: one process in fifty exits and as many start, at each collection.
	if tick > 0 && len(p.procs) > 0 {
		r := newRNG(seed, rngKey(SynthProc, 0, tick))
		n := max(1, len(p.procs)/50)
		for range n {
			i := int(r.float() * float64(len(p.procs)))
			p.procs = slices.Delete(p.procs, i, i+1)
		}
		for range n {
			p.spawn(seed, uint64(tick)*100)
		}
	}
	for i, sp := range p.procs {
		r := newRNG(seed, rngKey(SynthProc, uint64(i+1), tick))
		cpu := activity(sp.base, &r) * dt
		sp.ut += cpu * 700
		sp.st += cpu * 300
		sp.rb += cpu * 2e6 * r.float()
		sp.wb += cpu * 1e6 * r.float()
		sp.faults += cpu * 1000
		sp.ctx += dt*10 + cpu*500
	}
	if !req.Wants(p.cls) {
		return nil
	}
	nd := len(p.cls.Datums)
	p.specs = p.specs[:0]
	raw := collect.ReuseRawRows(&p.raw, len(p.procs)*nd)
	for i, sp := range p.procs {
		p.specs = append(p.specs, ns.InstanceSpec{Levels: sp.levels, OSName: sp.name, Desc: "Process " + sp.name, Label: sp.comm})
		row := raw[i*nd : (i+1)*nd]
		clear(row)
		state := "S"
		if sp.base > 0.1 {
			state = "R"
		}
		row[schema.ProcStateID-1], row[schema.ProcPPIDID-1], row[schema.ProcUserID-1], row[schema.ProcUIDID-1] = ns.RawS(state), ns.RawN(1), ns.RawS(sp.user), ns.RawN(sp.uid)
		row[schema.ProcThreadsID-1], row[schema.ProcPriorityID-1], row[schema.ProcNiceID-1] = ns.RawN(1+uint64(sp.base*40)), ns.RawN(20), ns.RawN(0)
		row[schema.ProcStartID-1] = ns.RawN(pr.reset + sp.start/schema.UserHZ)
		row[schema.ProcUtimeID-1], row[schema.ProcStimeID-1] = ns.RawN(uint64(sp.ut)), ns.RawN(uint64(sp.st))
		row[schema.ProcRSSID-1], row[schema.ProcVSizeID-1] = ns.RawN(uint64(4<<20+sp.base*2e9)), ns.RawN(uint64(100<<20+sp.base*8e9))
		row[schema.ProcMinfltID-1], row[schema.ProcMajfltID-1] = ns.RawN(uint64(sp.faults)), ns.RawN(uint64(sp.faults/100))
		row[schema.ProcRcharID-1], row[schema.ProcWcharID-1] = ns.RawN(uint64(sp.rb*1.5)), ns.RawN(uint64(sp.wb*1.5))
		row[schema.ProcSyscrID-1], row[schema.ProcSyscwID-1] = ns.RawN(uint64(sp.rb/4096)), ns.RawN(uint64(sp.wb/4096))
		row[schema.ProcReadBytesID-1], row[schema.ProcWriteBytesID-1] = ns.RawN(uint64(sp.rb)), ns.RawN(uint64(sp.wb))
		if sp.uid == 0 {
			// An unprivileged reader's view of root's processes: their I/O is not for it.
			for id := schema.ProcRcharID; id <= schema.ProcWriteBytesID; id++ {
				row[id-1] = ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonAccessDenied}
			}
		}
		row[schema.ProcVCtxID-1], row[schema.ProcNVCtxID-1] = ns.RawN(uint64(sp.ctx)), ns.RawN(uint64(sp.ctx/10))
		row[schema.ProcCommandID-1], row[schema.ProcCmdlineID-1], row[schema.ProcCgroupID-1] = ns.RawS(sp.comm), ns.RawS(sp.cmd), ns.RawS("/system.slice/"+sp.comm+".service")
	}
	return []collect.ClassReading{{Class: p.cls, Specs: p.specs, Raw: raw}}
}

type cgroupSynth struct {
	top, grp, dev *ns.Class
	names         []string
	specs         []ns.InstanceSpec
	dspecs        []ns.InstanceSpec
	cpu, io       []float64
}

func (g *cgroupSynth) init(s *Synthetic) []*ns.Class {
	g.top, g.grp, g.dev = schema.CGroupClasses(s.opt.CPUs)
	g.names = []string{"/system.slice", "/system.slice/nginx.service", "/system.slice/postgresql.service", "/system.slice/sshd.service",
		"/user.slice", "/user.slice/user-1000.slice"}
	byName := map[string][]uint64{}
	for i, n := range g.names {
		lv := []uint64{uint64(i + 1), uint64(1000 + i)}
		byName[n] = lv
		parent := byName[n[:max(0, lastSlash(n))]]
		g.specs = append(g.specs, ns.InstanceSpec{Levels: lv, Parent: parent, OSName: n[lastSlash(n)+1:], Desc: "Control group " + n})
		g.dspecs = append(g.dspecs, ns.InstanceSpec{Levels: []uint64{lv[0], 8 << 32}, OSName: "sda", Desc: "I/O of " + n + " on one device"})
	}
	g.cpu, g.io = make([]float64, len(g.names)), make([]float64, len(g.names))
	return []*ns.Class{g.top, g.grp, g.dev}
}

func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}

func (g *cgroupSynth) restart() { clear(g.cpu); clear(g.io) }

func (g *cgroupSynth) collect(at synthTick) []collect.ClassReading {
	seed, tick, dt, req := at.seed, at.tick, at.dt, at.req
	for i := range g.names {
		r := newRNG(seed, rngKey(SynthCGroup, uint64(i), tick))
		g.cpu[i] += activity(0.2, &r) * dt * 1e6
		g.io[i] += activity(0.1, &r) * dt * 5e6
	}
	if !req.Wants(g.grp) && !req.Wants(g.dev) {
		return nil
	}
	nd := len(g.grp.Datums)
	raw := make([]ns.Raw, len(g.names)*nd)
	draw := make([]ns.Raw, 0, len(g.names)*len(g.dev.Datums))
	for i := range g.names {
		row := raw[i*nd : (i+1)*nd]
		for k := range row {
			row[k] = ns.RawNA(ns.ReasonNotPresent)
		}
		row[schema.CGCPUUsageID-1], row[schema.CGCPUUserID-1], row[schema.CGCPUSystemID-1] = ns.RawN(uint64(g.cpu[i])), ns.RawN(uint64(g.cpu[i]*0.7)), ns.RawN(uint64(g.cpu[i]*0.3))
		row[schema.CGThrottledID-1], row[schema.CGNrThrottledID-1] = ns.RawN(0), ns.RawN(0)
		row[schema.CGMemCurrentID-1], row[schema.CGSwapCurrentID-1] = ns.RawN(uint64(100<<20*(i+1))), ns.RawN(0)
		rb, wb := uint64(g.io[i]*0.6), uint64(g.io[i]*0.4)
		row[schema.CGIORBytesID-1], row[schema.CGIOWBytesID-1], row[schema.CGIORIOsID-1], row[schema.CGIOWIOsID-1] = ns.RawN(rb), ns.RawN(wb), ns.RawN(rb/4096), ns.RawN(wb/4096)
		row[schema.CGProcsID-1], row[schema.CGVersionID-1] = ns.RawN(uint64(i%3)), ns.RawS("v2")
		row[schema.CGIOBytesID-1] = ns.Raw{}
		draw = append(draw, ns.RawN(rb), ns.RawN(wb), ns.RawN(rb/4096), ns.RawN(wb/4096))
	}
	return []collect.ClassReading{{Class: g.grp, Specs: g.specs, Raw: raw}, {Class: g.dev, Specs: g.dspecs, Raw: draw}}
}
