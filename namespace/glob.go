package namespace

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Glob resolves a path that may hold wildcards (`Disk/*/busy`, `CPU/cpu[01]/idle`, as path.Match
// reads them) in each component, in tree order. A path without wildcards resolves exactly, as
// Lookup does from Top (SPMI-HIER-7/8).
//
// The quoting rule (issue 21): a component that is exactly the name of something at its place in
// the tree means that thing, whatever characters it holds, so every name `list` prints can be
// given back as it was printed (`NetIf/e\x1b[31m/ifindex`); any other component is a path.Match
// pattern, in which a backslash quotes the next character (`\[`, `\*`, `\\`).
func (r *Registry) Glob(pattern string) ([]Ref, error) {
	if !strings.ContainsAny(pattern, "*?[") {
		ref, err := r.Lookup(nil, pattern)
		if err != nil {
			return nil, err
		}
		return []Ref{ref}, nil
	}
	g := globber{r: r, parts: splitPath(pattern)}
	r.Read(func() { g.walk(r.Top(), 0) })
	out := g.out
	if len(out) == 0 && g.bad {
		return nil, &Error{Status: StatusInvalidArg, Si: SiBadArgument, Msg: fmt.Sprintf("bad pattern %q: %v", pattern, path.ErrBadPattern)}
	}
	if len(out) == 0 {
		return nil, &Error{Status: StatusNoInstances, Si: SiNotFound, Msg: fmt.Sprintf("nothing matches %q", pattern)}
	}
	return out, nil
}

// globber walks the tree for Glob, a component of the pattern a level, inside r.Read.
type globber struct {
	r     *Registry
	parts []pathSeg
	out   []Ref
	bad   bool // a component was neither a name where it stands nor a valid pattern
}

// walk matches component i of the pattern below c: the contexts it names, and on the last
// component the statistics of c too; it goes on below each context a middle component names.
func (g *globber) walk(c *Context, i int) {
	last := i == len(g.parts)-1
	match := g.r.componentMatcher(c, g.parts[i], last)
	if match == nil {
		g.bad = true
		return
	}
	for _, k := range c.Children() {
		switch {
		case !match(k.Name):
		case last:
			g.out = append(g.out, Ref{Ctx: k})
		default:
			g.walk(k, i+1)
		}
	}
	if !last || c.Stats == nil {
		return
	}
	for j := range c.Stats.Datums {
		if d := &c.Stats.Datums[j]; d.ID != InvalidDatumID && match(d.Name) {
			g.out = append(g.out, Ref{Ctx: c, Datum: d})
		}
	}
}

// componentMatcher is how component seg matches names below c: exactly, when something there
// has that very name (the quoting rule of Glob) or the component is in double quotes (a quoted
// name is never a pattern), else as a path.Match pattern; nil when it is neither a name there nor
// a valid pattern. Call it inside r.Read.
func (r *Registry) componentMatcher(c *Context, seg pathSeg, last bool) func(string) bool {
	if k := c.child(seg); k != nil {
		return func(name string) bool { return name == k.Name }
	}
	if last && c.Stats != nil {
		for _, n := range []string{seg.raw, seg.name} {
			if c.Stats.DatumByName(n) >= 0 {
				return func(name string) bool { return name == n }
			}
		}
	}
	if seg.quoted {
		return func(string) bool { return false }
	}
	part := seg.raw
	if _, err := path.Match(part, ""); err != nil {
		return nil
	}
	return func(name string) bool {
		ok, _ := path.Match(part, name)
		return ok
	}
}

// HostName is the host's name as the name space has it: the value of a "hostname" statistic of a
// top-level single-instance class (Host/hostname), or "" when there is none or it has no valid
// value. The monitor's status bar and the headless commands both take the host's name from here.
func (r *Registry) HostName(snap *Snapshot) string {
	name := ""
	r.Read(func() {
		for _, c := range r.Top().Children() {
			if c.Stats == nil || c.StatsInst == nil || name != "" {
				continue
			}
			if i := c.Stats.DatumByName("hostname"); i >= 0 {
				if cv := snap.Class(c.Stats); cv != nil {
					if v, ok := cv.Value(c.StatsInst, i); ok && v.State == Valid && v.S != "" {
						name = v.S
					}
				}
			}
		}
	})
	return name
}

// OnDemand returns the on-demand classes (Class.OnDemand) a path reaches: those under the
// top-level contexts its first component names or matches (`Proc/*/rss` reaches the processes).
// A command subscribes to them before its first reading, so that they have instances to match.
func (r *Registry) OnDemand(pattern string) []*Class {
	segs := splitPath(pattern)
	if len(segs) == 0 {
		return nil
	}
	// The first numbers of the top-level classes matched: a class below one of them is reached.
	// A set, not a walk over the matches for every class: a fleet of 10,000 hosts has 10,000
	// top-level contexts and 300,000 classes (issue 38).
	// Each number maps to the shortest id of a match that starts with it.
	tops := map[uint32]int{}
	r.Read(func() {
		match := r.componentMatcher(r.Top(), segs[0], false)
		if match == nil {
			return
		}
		for _, k := range r.Top().Children() {
			if k.Class == nil || len(k.Class.ID) == 0 || !match(k.Name) {
				continue
			}
			if n, ok := tops[k.Class.ID[0]]; !ok || len(k.Class.ID) < n {
				tops[k.Class.ID[0]] = len(k.Class.ID)
			}
		}
	})
	if len(tops) == 0 {
		return nil
	}
	var out []*Class
	for _, c := range r.Classes() {
		if !c.OnDemand || c.Lazy {
			continue // a lazy class is reached along its path (LazyAlong), not by its family
		}
		if n, ok := tops[c.ID[0]]; ok && len(c.ID) > n { // a class id is never empty
			out = append(out, c)
		}
	}
	return out
}

// LazyAlong returns the lazy classes (Class.Lazy) whose contexts lie along pattern: each
// component of such a context's path matches the pattern's component at its depth, so that
// `web1/PCP/kernel/all/load` reaches PCP, PCP/kernel, PCP/kernel/all and PCP/kernel/all/load
// (as far as they are known). A command subscribes to them and reads again, a level at a
// time, until no new one is reached (headless.firstReading).
func (r *Registry) LazyAlong(pattern string) []*Class {
	parts := splitPath(pattern)
	var out []*Class
	r.Read(func() {
		var walk func(c *Context, i int)
		walk = func(c *Context, i int) {
			if i >= len(parts) {
				return
			}
			match := r.componentMatcher(c, parts[i], i == len(parts)-1)
			if match == nil {
				return
			}
			for _, k := range c.Children() {
				if !match(k.Name) {
					continue
				}
				// The context's own class, the class of its statistics and those of its
				// instances (which have no context of their own until they have instances).
				for _, c := range append([]*Class{k.Class, k.Stats}, k.k().hosted...) {
					if c != nil && c.Lazy && !slices.Contains(out, c) {
						out = append(out, c)
					}
				}
				walk(k, i+1)
			}
		}
		walk(r.Top(), 0)
	})
	return out
}
