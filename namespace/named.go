package namespace

import (
	"path"
	"slices"
)

// ClassesNamed returns the classes whose statistics the patterns (Glob's paths) can name,
// whatever instances those classes come to have: a component where a class's instances hang
// matches every instance, known or not yet read. A class whose instances nest under another
// class's (NestUnder) brings that class too, since its instances need theirs. A command that
// reads only what it names (`dcimon get Disk/*/busy` reads no partition) reads these before any
// instance is known; nil when the patterns name no class's statistic. Contexts a pattern names
// are not statistics, and bring no class.
func (r *Registry) ClassesNamed(patterns ...string) []*Class {
	var out []*Class
	r.Read(func() {
		n := namer{r: r}
		for _, p := range patterns {
			if n.parts = splitPath(p); len(n.parts) > 0 {
				n.walk(r.Top(), nil, 0)
			}
		}
		for i := 0; i < len(n.out); i++ { // n.out grows as hosts are added
			if c := n.out[i]; len(c.NestUnder) > 0 {
				if h := r.classes[c.NestUnder.String()]; h != nil {
					n.add(h)
				}
			}
		}
		out = n.out
	})
	return out
}

// namer walks the tree for ClassesNamed, inside r.Read: real contexts as they are, and each
// class's instances as one stand-in that any name matches.
type namer struct {
	r     *Registry
	parts []pathSeg
	out   []*Class
}

func (n *namer) add(c *Class) {
	if !slices.Contains(n.out, c) {
		n.out = append(n.out, c)
	}
}

// walk matches component i below a context (ctx), or below a stand-in for an instance of class
// inst (ctx nil).
func (n *namer) walk(ctx *Context, inst *Class, i int) {
	seg, last := n.parts[i], i == len(n.parts)-1
	if inst != nil {
		if last {
			if anyDatum(inst, seg) {
				n.add(inst)
			}
			return
		}
		// Below an instance: an instance of the same class (a control group's children) and
		// those of the classes nested under it.
		n.walk(nil, inst, i+1)
		for _, c := range n.r.ordered {
			if c != nil && len(c.NestUnder) > 0 && c.NestUnder.Equal(inst.ID) {
				n.walk(nil, c, i+1)
			}
		}
		return
	}
	if last && ctx.Stats != nil && anyDatum(ctx.Stats, seg) {
		n.add(ctx.Stats)
	}
	if last {
		// The instances' stand-ins and the contexts here are contexts: no statistic.
		return
	}
	if match := n.r.componentMatcher(ctx, seg, false); match != nil {
		for _, k := range ctx.Children() {
			// An instance's context is walked as its class's stand-in, below: so the walk
			// costs the same before the first reading as with 10,000 disks known.
			if k.Kind != CtxInstance && match(k.Name) {
				n.walk(k, nil, i+1)
			}
		}
	}
	for _, h := range ctx.k().hosted {
		if !h.SingleInstance() {
			n.walk(nil, h, i+1)
		}
	}
}

// anyDatum says a last component names a datum of c: by its name, or as a pattern.
func anyDatum(c *Class, seg pathSeg) bool {
	if c.DatumByName(seg.raw) >= 0 || c.DatumByName(seg.name) >= 0 {
		return true
	}
	if seg.quoted {
		return false
	}
	for j := range c.Datums {
		if ok, _ := path.Match(seg.raw, c.Datums[j].Name); ok && c.Datums[j].ID != InvalidDatumID {
			return true
		}
	}
	return false
}
