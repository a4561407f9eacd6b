package linux

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// cpuColumn maps a raw CPU datum (index id-1) to its /proc/stat column.
var cpuColumn = [...]cpuTime{cpuUser, cpuSystem, cpuIowait, cpuIdle, cpuNice, cpuIRQ, cpuSoftIRQ, cpuSteal, cpuGuest, cpuGuestNice}

// msPerTick converts USER_HZ ticks to milliseconds at the edge (house style rule 4): exact, since
// USER_HZ is 100.
const msPerTick = 1000 / schema.UserHZ

// cpuProvider reads /proc/stat's cpu lines.
type cpuProvider struct {
	base
	top, total, per *ns.Class
	st              procStat
	totalSpecs      []ns.InstanceSpec
	specs           []ns.InstanceSpec // cached while the processor list is unchanged
	// ncpu is the processor count the totals are declared with: their share (100% is ncpu
	// processors busy) and hardware bound. When the kernel lists another count (a processor
	// hot-plugged or taken off-line, common in VMs), the totals are declared again with the
	// processors present now, and redeclared counts those declarations: it is part of the
	// reset value, so no rate is taken across the change (issue 29).
	ncpu       int
	redeclared uint8
}

func newCPUProvider(r roots, boot *bootClock, ncpu int) *cpuProvider {
	p := &cpuProvider{base: base{roots: r, now: time.Now, boot: boot}, totalSpecs: schema.SingleSpecs(), ncpu: max(ncpu, 1)}
	p.top, p.total, p.per = schema.CPUClasses(p.ncpu)
	p.declare(schema.HandleCPU, schema.CPUModule, schema.CPUTitle,
		"Time each processor spent in user, kernel, interrupt, wait and idle states, from /proc/stat",
		ns.SPTGeneralSupplier, p.top, p.total, p.per)
	return p
}

// Collect reads /proc/stat once for both classes, so that totals and per-processor times come
// from the same instant (DCI-MTH-11).
func (p *cpuProvider) Collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	ctx = p.context(ctx)
	p.st = procStat{cpus: p.st.cpus[:0]} // a read that fails before parsing must not leave the last values
	err := readStat(ctx, &p.fr, &p.st)
	t := p.now()
	if err != nil && p.st.total.columns == 0 && len(p.st.cpus) == 0 {
		return collect.Batch{}, err
	}
	if b, ok := p.st.get(statBtime); ok && plausibleBoot(b, t) {
		p.boot.set(b)
	}
	var classErr error
	if p.st.badCPU {
		classErr = err
	}
	if n := len(p.st.cpus); !p.st.cut && n > 0 && n != p.ncpu {
		p.redeclare(n)
	}
	b := p.batch(t)
	b.Reset[7] ^= p.redeclared
	if req.Wants(p.total) {
		raw := make([]ns.Raw, len(p.total.Datums))
		cerr := classErr
		if p.st.total.columns == 0 && !p.st.badTotal {
			cerr = fmt.Errorf("cpu: %s has no \"cpu\" line: %w", p.roots.proc+"/stat", errNoData)
		}
		fillCPURow(raw, &p.st.total, p.st.badTotal)
		raw[schema.CPUNumID-1] = ns.RawN(uint64(len(p.st.cpus)))
		if p.st.cut {
			raw[schema.CPUNumID-1] = ns.RawNA(ns.ReasonProviderError) // the list may not be whole
		}
		b.Classes = append(b.Classes, collect.ClassReading{Class: p.total, Specs: p.totalSpecs, Raw: raw, Err: cerr})
	}
	if req.Wants(p.per) {
		nd := len(p.per.Datums)
		if p.st.cut {
			// A file cut short inside its cpu lines: the processors it does not list are not
			// gone, they were not read. Those it lists are kept, the rest are errors.
			raw := make([]ns.Raw, len(p.specs)*nd)
			for i, sp := range p.specs {
				t := cpuTimes{bad: true}
				for j := range p.st.cpus {
					if uint64(p.st.cpus[j].cpu) == sp.Levels[0] {
						t = p.st.cpus[j]
					}
				}
				fillCPURow(raw[i*nd:(i+1)*nd], &t, t.bad)
			}
			b.Classes = append(b.Classes, collect.ClassReading{Class: p.per, Specs: p.specs, Raw: raw, Err: classErr})
			return b, nil
		}
		p.syncSpecs()
		raw := make([]ns.Raw, len(p.st.cpus)*nd)
		for i := range p.st.cpus {
			fillCPURow(raw[i*nd:(i+1)*nd], &p.st.cpus[i], p.st.cpus[i].bad)
		}
		b.Classes = append(b.Classes, collect.ClassReading{Class: p.per, Specs: p.specs, Raw: raw, Err: classErr})
	}
	return b, nil
}

// fillCPURow fills the raw datums of one cpu line; a column the kernel does not print (an old
// kernel without steal or guest) is not supported, never 0; a line that is there but could
// not be read is an error in every column.
func fillCPURow(row []ns.Raw, t *cpuTimes, bad bool) {
	for i, col := range cpuColumn {
		switch {
		case bad:
			row[i] = ns.RawNA(ns.ReasonProviderError)
		case t.has(col) && t.ticks[col] > math.MaxUint64/msPerTick:
			// 2^64−1 ticks would wrap when made milliseconds: no such time, never a small one.
			row[i] = ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonOverflow}
		case t.has(col):
			row[i] = ns.RawN(t.ticks[col] * msPerTick)
		default:
			row[i] = ns.RawNA(ns.ReasonNotSupported)
		}
	}
}

// syncSpecs rebuilds the cached instance list only when the processors changed (hot-plug).
func (p *cpuProvider) syncSpecs() {
	same := len(p.specs) == len(p.st.cpus)
	for i := 0; same && i < len(p.specs); i++ {
		same = p.specs[i].Levels[0] == uint64(p.st.cpus[i].cpu)
	}
	if same {
		return
	}
	nums := make([]int, len(p.st.cpus))
	for i := range p.st.cpus {
		nums[i] = p.st.cpus[i].cpu
	}
	p.specs = schema.CPUSpecs(nums)
}

// redeclare declares the classes again for n processors: the totals' share and bound follow the
// processors present now (the per-processor class does not change), and the reset value moves on
// so the sampler registers them anew and takes no rate across the change (issue 29).
func (p *cpuProvider) redeclare(n int) {
	p.ncpu = n
	top, total, per := schema.CPUClasses(n)
	for _, c := range []*ns.Class{top, total, per} {
		c.Supplier = p.total.Supplier
	}
	if !ns.ClassDiffers(p.top, top) {
		top = p.top
	}
	if !ns.ClassDiffers(p.per, per) {
		per = p.per
	}
	p.top, p.total, p.per = top, total, per
	p.decl = []*ns.Class{p.top, p.total, p.per}
	p.redeclared++
}

// Describe declares the classes as they are now (collect.Describer).
func (p *cpuProvider) Describe() []*ns.Class {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.decl)
}
