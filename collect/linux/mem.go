package linux

import (
	"context"
	"errors"
	"time"

	"dcimon/collect"
	"dcimon/collect/schema"
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
}

func newMemProvider(r roots, boot *bootClock, total uint64) *memProvider {
	p := &memProvider{base: base{roots: r, now: time.Now, boot: boot}, specs: schema.SingleSpecs()}
	p.top, p.real, p.swap, p.virt = schema.MemClasses(total)
	p.declare(schema.HandleMem, schema.MemModule, schema.MemTitle,
		"Physical memory, swap space, paging and page faults, from /proc/meminfo and /proc/vmstat",
		ns.SPTGeneralSupplier, p.top, p.real, p.swap, p.virt)
	return p
}

// Collect reads both files; a file that cannot be read fails the classes it feeds.
func (p *memProvider) Collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	ctx = p.context(ctx)
	p.mi, p.vm = memInfo{}, vmStat{} // a read that fails before parsing must not leave the last values
	miErr := readMeminfo(ctx, &p.fr, &p.mi)
	vmErr := readVMStat(ctx, &p.fr, &p.vm)
	t := p.now()
	miOK, vmOK := miErr == nil || p.mi.present != 0, vmErr == nil || p.vm.present != 0
	if !miOK && !vmOK {
		return collect.Batch{}, errors.Join(miErr, vmErr)
	}
	if !p.started || req.Static {
		refreshBoot(ctx, &p.fr, p.boot, p.now())
		p.started = true
	}
	b := p.batch(t)
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
		// The total is read with the rest: a balloon or hot-unplug changes it (issue 29).
		raw[schema.RealTotalID-1] = mem(memTotal)
		raw[schema.RealFreeID-1] = mem(memFree)
		raw[schema.RealAvailID-1] = mem(memAvailable)
		raw[schema.RealBuffersID-1] = mem(memBuffers)
		raw[schema.RealCachedID-1] = mem(memCached)
		b.Classes = append(b.Classes, collect.ClassReading{Class: p.real, Specs: p.specs, Raw: raw, Err: miErr})
	}
	if req.Wants(p.swap) {
		raw := make([]ns.Raw, len(p.swap.Datums))
		raw[schema.SwapTotalID-1] = mem(memSwapTotal) // swapon and swapoff change it
		raw[schema.SwapFreeID-1] = mem(memSwapFree)
		raw[schema.SwapInID-1] = vm(vmPswpin)
		raw[schema.SwapOutID-1] = vm(vmPswpout)
		b.Classes = append(b.Classes, collect.ClassReading{Class: p.swap, Specs: p.specs, Raw: raw, Err: miErr})
	}
	if req.Wants(p.virt) {
		raw := make([]ns.Raw, len(p.virt.Datums))
		raw[schema.VirtPageInID-1] = vm(vmPgpgin)
		raw[schema.VirtPageOutID-1] = vm(vmPgpgout)
		raw[schema.VirtFaultsID-1] = vm(vmPgfault)
		raw[schema.VirtMajFaultsID-1] = vm(vmPgmajfault)
		b.Classes = append(b.Classes, collect.ClassReading{Class: p.virt, Specs: p.specs, Raw: raw, Err: vmErr})
	}
	return b, nil
}
