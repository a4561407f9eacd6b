package linux

import (
	"context"
	"sync"

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
}

// Supplier is the provider's DCI4 supplier record.
func (b *base) Supplier() namespace.Supplier { return b.sup }

// Classes declares the provider's classes, parents before children.
func (b *base) Classes() []*namespace.Class { return b.decl }

// context points ctx at the provider's roots (house style rule 3).
func (b *base) context(ctx context.Context) context.Context { return b.env.with(ctx, b.roots) }
