package linux

import (
	"context"
	"fmt"
	"math"
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
}

func newCPUProvider(r roots, boot *bootClock, ncpu int) *cpuProvider {
	p := &cpuProvider{base: base{roots: r, now: time.Now, boot: boot}, totalSpecs: schema.SingleSpecs()}
	p.top, p.total, p.per = schema.CPUClasses(ncpu)
	p.decl = []*ns.Class{p.top, p.total, p.per}
	p.sup = schema.Supplier(schema.HandleCPU, schema.CPUModule, schema.CPUTitle,
		"Time each processor spent in user, kernel, interrupt, wait and idle states, from /proc/stat",
		ns.SPTGeneralSupplier, p.Classes())
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
	b := p.batch(t)
	if req.Wants(p.total) {
		raw := make([]ns.Raw, len(p.total.Datums))
		cerr := classErr
		if p.st.total.columns == 0 {
			cerr = fmt.Errorf("cpu: %s has no \"cpu\" line: %w", p.roots.proc+"/stat", errNoData)
		}
		fillCPURow(raw, &p.st.total)
		raw[schema.CPUNumID-1] = ns.RawN(uint64(len(p.st.cpus)))
		b.Classes = append(b.Classes, collect.ClassReading{Class: p.total, Specs: p.totalSpecs, Raw: raw, Err: cerr})
	}
	if req.Wants(p.per) {
		p.syncSpecs()
		nd := len(p.per.Datums)
		raw := make([]ns.Raw, len(p.st.cpus)*nd)
		for i := range p.st.cpus {
			fillCPURow(raw[i*nd:(i+1)*nd], &p.st.cpus[i])
		}
		b.Classes = append(b.Classes, collect.ClassReading{Class: p.per, Specs: p.specs, Raw: raw, Err: classErr})
	}
	return b, nil
}

// fillCPURow fills the raw datums of one cpu line; a column the kernel does not print (an old
// kernel without steal or guest) is not supported, never 0.
func fillCPURow(row []ns.Raw, t *cpuTimes) {
	for i, col := range cpuColumn {
		switch {
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
