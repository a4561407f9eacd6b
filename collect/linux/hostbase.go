package linux

import (
	"context"
	"sync"
	"time"

	"dcimon/collect"
	"dcimon/collect/schema"
	"dcimon/namespace"
)

// base is what every host provider has in common: the roots it reads, its clock, the host's boot
// time (every host supplier's reset value), its supplier record and declared classes, and a file
// reader whose buffer is kept from one collection to the next. A provider embeds it and guards
// its own state with mu in Collect.
type base struct {
	mu    sync.Mutex
	roots roots
	env   rootsEnv
	now   clockFunc
	boot  *bootClock
	sup   namespace.Supplier
	decl  []*namespace.Class // parents before children (Provider.Classes)
	fr    fileReader

	// collectLocked is the provider's own reading, which Collect calls under begin's terms.
	collectLocked func(context.Context, collect.Request) (collect.Batch, error)
}

// Supplier is the provider's DCI4 supplier record.
func (b *base) Supplier() namespace.Supplier { return b.sup }

// Classes declares the provider's classes, parents before children.
func (b *base) Classes() []*namespace.Class { return b.decl }

// declare records the provider's classes, parents before children, and its supplier record
// (schema.Supplier) over them: what every provider's constructor ends with.
func (b *base) declare(handle uint32, module, title, desc string, typ namespace.SupplierType, classes ...*namespace.Class) {
	b.decl = classes
	b.sup = schema.Supplier(handle, module, title, desc, typ, classes)
}

// context points ctx at the provider's roots (house style rule 3).
func (b *base) context(ctx context.Context) context.Context { return b.env.with(ctx, b.roots) }

// begin starts a collection: it takes the provider's lock, which the caller releases when the
// collection ends, and points ctx at the provider's roots. A collection whose deadline has
// already passed does not start.
func (b *base) begin(ctx context.Context) (context.Context, error) {
	b.mu.Lock()
	ctx = b.context(ctx)
	if err := ctx.Err(); err != nil {
		b.mu.Unlock()
		return ctx, err
	}
	return ctx, nil
}

// Collect is one collection under begin's terms: the provider's lock held, ctx pointed at its
// roots, and nothing started past the deadline; collectLocked is the provider's own reading. The CPU,
// disk, network, memory and host providers have a Collect of their own, which reads even a
// collection already late (the sampler keeps what arrives in time).
func (b *base) Collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	ctx, err := b.begin(ctx)
	if err != nil {
		return collect.Batch{}, err
	}
	defer b.mu.Unlock()
	return b.collectLocked(ctx, req)
}

// batch is an empty reading at t (zero: when Collect returns) with the provider's reset value,
// the host's boot time.
func (b *base) batch(t time.Time) collect.Batch {
	return collect.Batch{Reset: collect.ResetOf(b.boot.get()), Time: t}
}
