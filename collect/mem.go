package collect

import (
	"context"
	"errors"
	"time"

	ns "dcimon/namespace"
)

// memProvider reads /proc/meminfo and /proc/vmstat.
type memProvider struct {
	base
	top, real, swap, virt *ns.Class
	specs                 []ns.InstanceSpec
	mi                    memInfo
	vm                    vmStat
	started               bool
	dl                    deliveries
	delivered             [2]uint64 // real, swap: the collection that last delivered their slow datums
}

func newMemProvider(r roots, boot *bootClock, total uint64) *memProvider {
	p := &memProvider{base: base{roots: r, now: time.Now, boot: boot}, specs: singleSpecs()}
	p.top, p.real, p.swap, p.virt = memClasses(total)
	p.decl = []*ns.Class{p.top, p.real, p.swap, p.virt}
	p.sup = supplier(handleMem, memModule, memTitle,
		"Physical memory, swap space, paging and page faults, from /proc/meminfo and /proc/vmstat",
		ns.SPTGeneralSupplier, p.Classes())
	return p
}

// Collect reads both files; a file that cannot be read fails the classes it feeds.
func (p *memProvider) Collect(ctx context.Context, req Request) (Batch, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dl.start()
	ctx = p.context(ctx)
	p.mi, p.vm = memInfo{}, vmStat{} // a read that fails before parsing must not leave the last values
	miErr := readMeminfo(ctx, &p.fr, &p.mi)
	vmErr := readVMStat(ctx, &p.fr, &p.vm)
	t := p.now()
	miOK, vmOK := miErr == nil || p.mi.present != 0, vmErr == nil || p.vm.present != 0
	if !miOK && !vmOK {
		return Batch{}, errors.Join(miErr, vmErr)
	}
	if !p.started || req.Static {
		refreshBoot(ctx, &p.fr, p.boot, p.now())
		p.started = true
	}
	b := Batch{Reset: resetOf(p.boot.get()), Time: t}
	mem := func(k memKey) ns.Raw {
		if !miOK {
			return missing(miErr) // unreadable, never "not supported" (issue 21)
		}
		if v, ok := p.mi.get(k); ok {
			return ns.RawN(v)
		}
		return ns.RawNA(ns.ReasonNotSupported) // MemAvailable before Linux 3.14, for example
	}
	vm := func(k vmKey) ns.Raw {
		if !vmOK {
			return missing(vmErr)
		}
		if v, ok := p.vm.get(k); ok {
			return ns.RawN(v)
		}
		return ns.RawNA(ns.ReasonNotSupported)
	}
	if req.Wants(p.real) {
		raw := make([]ns.Raw, len(p.real.Datums))
		raw[realTotalID-1] = ns.RawSkip()
		if due(req, ns.SVStatic, p.dl.had(p.delivered[0])) {
			raw[realTotalID-1] = mem(memTotal)
		}
		raw[realFreeID-1] = mem(memFree)
		raw[realAvailID-1] = mem(memAvailable)
		raw[realBuffersID-1] = mem(memBuffers)
		raw[realCachedID-1] = mem(memCached)
		if miErr == nil {
			p.delivered[0] = p.dl.gen
		}
		b.Classes = append(b.Classes, ClassReading{Class: p.real, Specs: p.specs, Raw: raw, Err: miErr})
	}
	if req.Wants(p.swap) {
		raw := make([]ns.Raw, len(p.swap.Datums))
		raw[swapTotalID-1] = ns.RawSkip()
		if due(req, ns.SVVariable, p.dl.had(p.delivered[1])) {
			raw[swapTotalID-1] = mem(memSwapTotal)
		}
		raw[swapFreeID-1] = mem(memSwapFree)
		raw[swapInID-1] = vm(vmPswpin)
		raw[swapOutID-1] = vm(vmPswpout)
		if miErr == nil {
			p.delivered[1] = p.dl.gen
		}
		b.Classes = append(b.Classes, ClassReading{Class: p.swap, Specs: p.specs, Raw: raw, Err: miErr})
	}
	if req.Wants(p.virt) {
		raw := make([]ns.Raw, len(p.virt.Datums))
		raw[virtPageInID-1] = vm(vmPgpgin)
		raw[virtPageOutID-1] = vm(vmPgpgout)
		raw[virtFaultsID-1] = vm(vmPgfault)
		raw[virtMajFaultsID-1] = vm(vmPgmajfault)
		b.Classes = append(b.Classes, ClassReading{Class: p.virt, Specs: p.specs, Raw: raw, Err: vmErr})
	}
	p.dl.done(ctx)
	return b, nil
}
