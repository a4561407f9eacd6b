package namespace

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Registry is the DCI name space: registered classes and their instances, and the SPMI context
// tree built from them. It is safe for concurrent use (SPMI-FEAT-6).
//
// The SPMI view of the DCI classes (AMB-51), written down once:
//   - an uninstantiated class is a context named by the class, numbered by its last id level;
//   - a single-instance class flagged Totals puts its datums into its parent's context as
//     statistics (numbered TotalsASNBase + datum low byte); any other single-instance class is a
//     context of its own whose statistics are its datums;
//   - each instance of a multi-instance class is a subcontext of the parent class's context (or,
//     with NestUnder, of the matching instance's context) named by its instance name and numbered
//     by the provider's preferred number (OS index + 1) or the lowest free one (AMB-45); its
//     statistics are the class's datums, numbered by datum low byte (`CPU/cpu0/idle` = 1.1.4).
type Registry struct {
	mu      sync.RWMutex
	classes map[string]*Class
	ordered []*Class // by index
	top     *Context
	gen     uint64 // bumped on every change of names (PCPF-13 NAMES_CHANGE)
	sweep   uint64
	pcpIDs  pcpNumbering // PCPID's clusters, by generation
	// syncing is set while a Sync changes instances; unsettled are the contexts whose children
	// it changed, put in order at its end (Context.settle).
	syncing   bool
	unsettled []*Context
	// ASNPrefix, when set, is prepended to relative ASN.1 ids ("1.3.6.1.4.1.2.3.1.2.2", SPMI-ASN-3).
	ASNPrefix string
}

// NewRegistry returns an empty name space holding only Top.
func NewRegistry() *Registry {
	return &Registry{classes: map[string]*Class{}, top: &Context{Name: "Top", Desc: "Top of the name space", Kind: CtxTop}}
}

// Read runs f while holding the registry's read lock, so the tree cannot change under it.
func (r *Registry) Read(f func()) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	f()
}

// Top is the root context (SPMI-HIER-1).
func (r *Registry) Top() *Context { return r.top }

// Generation changes whenever classes or instances are added or removed.
func (r *Registry) Generation() uint64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.gen
}

// Classes returns the registered classes in registration order.
func (r *Registry) Classes() []*Class {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Class, 0, len(r.ordered))
	for _, c := range r.ordered {
		if c != nil {
			out = append(out, c)
		}
	}
	return out
}

// Class returns the class with the given id, or nil.
func (r *Registry) Class(id ClassID) *Class {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.classes[id.String()]
}

// DDSASN is the SPMI number of the `DDS` context, where extension suppliers add their vendors'
// contexts (SPMI-ASN-4, SPMI-DDS-1).
const DDSASN = 99

// RegisterClass validates and registers a class. The parent class (the id minus its last level)
// must be registered and uninstantiated; an instantiated class cannot have subclasses (DCI-NS-3).
// Class attributes must not change while registered (DCI-CLS-5).
func (r *Registry) RegisterClass(c *Class) error {
	if err := c.validate(); err != nil {
		return errf(StatusInvalidArg, SiBadArgument, "%v", err)
	}
	if c.ID[0] == DDSASN && len(c.ID) <= 2 && c.Instantiated() {
		return errf(StatusInvalidArg, SiBadArgument, "class %s: an extension's statistics go in a subcontext of its vendor's context, never in DDS or DDS/<vendor> itself (SPMI-DDS-1)", c.ID)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	key := c.ID.String()
	if _, dup := r.classes[key]; dup {
		return errf(StatusDuplicate, SiDuplicate, "class %s is already registered", c.ID)
	}
	parent, parentCtx, err := r.parentOf(c)
	if err != nil {
		return err
	}
	if err := c.prepare(); err != nil {
		return errf(StatusInvalidArg, SiBadArgument, "%v", err)
	}
	if err := r.place(c, parent, parentCtx); err != nil {
		return err
	}
	c.reg = r
	c.index = len(r.ordered)
	c.byOne, c.byKey = map[uint64]*Instance{}, nil
	r.classes[key] = c
	r.ordered = append(r.ordered, c)
	r.gen++
	if c.SingleInstance() {
		c.addSoleInstance()
	}
	return nil
}

// parentOf is c's parent class, registered and uninstantiated (DCI-NS-3), and the context c goes
// under: the parent's, or the top for a top-level class (no parent).
func (r *Registry) parentOf(c *Class) (*Class, *Context, error) {
	p := c.ID.Parent()
	if p == nil {
		return nil, r.top, nil
	}
	parent := r.classes[p.String()]
	if parent == nil {
		return nil, nil, errf(StatusUnknownClass, SiInvalidCx, "class %s: parent class %s is not registered", c.ID, p)
	}
	if parent.Instantiated() {
		return nil, nil, errf(StatusInvalidArg, SiBadArgument, "class %s: parent %s is instantiated and cannot have subclasses (DCI-NS-3)", c.ID, p)
	}
	return parent, parent.ctx, nil
}

// place puts c in the name space under parentCtx: an uninstantiated or single-instance class in
// a context of its own; a totals class as the statistics of its parent's context; a
// multi-instance class's instances in its parent's context, or nested under a sibling's.
func (r *Registry) place(c, parent *Class, parentCtx *Context) error {
	switch {
	case !c.Instantiated() || (c.SingleInstance() && !c.Totals):
		return c.placeOwnContext(parentCtx)
	case c.SingleInstance():
		if parent == nil {
			return errf(StatusInvalidArg, SiBadArgument, "class %s: a totals class needs a parent class", c.ID)
		}
		if parentCtx.Stats != nil {
			return errf(StatusDuplicate, SiDuplicate, "class %s: context %s already holds the statistics of class %s", c.ID, parentCtx.Path(), parentCtx.Stats.ID)
		}
		c.ctx = parentCtx
		parentCtx.Stats = c
		return nil
	}
	return r.placeInstances(c, parent, parentCtx)
}

// placeOwnContext gives c a context of its own under parentCtx, whose name and ASN.1 number (the
// last of its id) must be free there (SPMI-HIER-10, SPMI-ASN-2).
func (c *Class) placeOwnContext(parentCtx *Context) error {
	asn := uint16(c.ID[len(c.ID)-1])
	if o := parentCtx.k().byName[c.Name]; o != nil {
		return errf(StatusDuplicate, SiDuplicate, "class %s: %s already holds a context named %q (SPMI-HIER-10)", c.ID, parentCtx.Path(), c.Name)
	}
	if o := parentCtx.k().byASN[asn]; o != nil {
		return errf(StatusDuplicate, SiDuplicate, "class %s: ASN.1 number %d is taken by %s (SPMI-ASN-2)", c.ID, asn, o.Path())
	}
	c.ctx = &Context{Name: c.Name, Desc: c.Desc, Kind: CtxClass, ASN: asn, Class: c}
	parentCtx.addChild(c.ctx)
	if c.Instantiated() {
		c.ctx.Stats = c
	}
	return nil
}

// placeInstances makes parentCtx, the parent class's context, the home of multi-instance class
// c's instances, or, with NestUnder, the instances of a registered multi-instance sibling class.
func (r *Registry) placeInstances(c, parent *Class, parentCtx *Context) error {
	if len(c.NestUnder) > 0 {
		host := r.classes[c.NestUnder.String()]
		if host == nil || !host.Instantiated() || host.SingleInstance() {
			return errf(StatusInvalidArg, SiBadArgument, "class %s: NestUnder %s is not a registered multi-instance class", c.ID, c.NestUnder)
		}
		hostParent := host.ID.Parent()
		if parent == nil || hostParent == nil || !hostParent.Equal(c.ID.Parent()) {
			return errf(StatusInvalidArg, SiBadArgument, "class %s: NestUnder %s must be a sibling class", c.ID, c.NestUnder)
		}
	} else if parent == nil {
		return errf(StatusInvalidArg, SiBadArgument, "class %s: a multi-instance class needs an uninstantiated parent class whose context holds its instances", c.ID)
	}
	c.ctx = parentCtx
	if len(c.NestUnder) == 0 {
		parentCtx.own().hosted = append(parentCtx.k().hosted, c)
	}
	return nil
}

// addSoleInstance makes a single-instance class's one instance: the statistics of its context,
// and the instance its context stands for unless it is a totals class.
func (c *Class) addSoleInstance() {
	in := &Instance{Class: c, Levels: []uint64{0}, Name: c.Name, OSName: c.Name, Label: c.Label, ctx: c.ctx}
	c.slots = append(c.slots, in)
	c.keep(in)
	if c.ctx.Stats == c {
		c.ctx.StatsInst = in
	}
	if !c.Totals {
		c.ctx.Inst = in
	}
}

// UnregisterClass removes a class with no subclasses, its instances and its contexts.
func (r *Registry) UnregisterClass(id ClassID, t time.Time) ([]Event, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.classes[id.String()]
	if c == nil {
		return nil, errf(StatusUnknownClass, SiInvalidCx, "class %s is not registered", id)
	}
	for _, o := range r.ordered {
		if o == nil {
			continue
		}
		if o != c && len(o.ID) == len(id)+1 && id.Equal(o.ID.Parent()) {
			return nil, errf(StatusInvalidArg, SiBadArgument, "class %s still has subclass %s", id, o.ID)
		}
		if len(o.NestUnder) > 0 && o.NestUnder.Equal(id) {
			return nil, errf(StatusInvalidArg, SiBadArgument, "class %s still hosts the instances of %s", id, o.ID)
		}
	}
	var evs []Event
	if !c.SingleInstance() {
		for _, in := range c.slots {
			if in != nil && !in.removed.Load() {
				evs = r.removeLocked(in, t, evs)
			}
		}
	}
	switch {
	case c.ctx != nil && c.ctx.Class == c:
		if c.ctx.parent != nil {
			c.ctx.parent.removeChild(c.ctx)
		}
	case c.ctx != nil && c.ctx.Stats == c:
		c.ctx.Stats, c.ctx.StatsInst = nil, nil
	case c.ctx != nil:
		c.ctx.own().hosted = slices.DeleteFunc(c.ctx.k().hosted, func(h *Class) bool { return h == c })
	}
	delete(r.classes, id.String())
	// Keep indices dense and stable for the others: leave a hole the snapshot code skips.
	r.ordered[c.index] = nil
	c.reg = nil
	r.gen++
	return evs, nil
}

// ClassAt returns the class with the given index, or nil when it was unregistered.
func (r *Registry) ClassAt(i int) *Class {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if i < 0 || i >= len(r.ordered) {
		return nil
	}
	return r.ordered[i]
}

// Instances returns the class's current instances in slot order.
func (r *Registry) Instances(c *Class) []*Instance {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Instance, 0, len(c.slots))
	for _, in := range c.slots {
		if in != nil {
			out = append(out, in)
		}
	}
	return out
}

// ListClasses expands a class id query with DCI_ALL levels into registered ids (DCI-WC-1).
func (r *Registry) ListClasses(q ClassID) []ClassID {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []ClassID
	for _, c := range r.ordered {
		if c != nil && c.ID.Matches(q) {
			out = append(out, c.ID)
		}
	}
	slices.SortFunc(out, func(a, b ClassID) int { return slices.Compare(a, b) })
	return out
}

// ListInstances expands an instance query of the class (DCI-WC-2, DCI-WC-3). A query matching
// nothing is DCI_NOINSTANCES, never an empty success (DCI-WC-5).
func (r *Registry) ListInstances(c *Class, q InstanceID) ([]*Instance, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if bitLen(q.Mask) > len(c.Levels) {
		return nil, errf(StatusInvalidArg, SiBadArgument, "instance query %s has more levels than class %s (%d)", q, c.ID, len(c.Levels))
	}
	var out []*Instance
	for _, in := range c.slots {
		if in != nil && q.Matches(in.Levels) {
			out = append(out, in)
		}
	}
	if len(out) == 0 {
		return nil, errf(StatusNoInstances, SiNotFound, "class %s: no instance matches %s", c.ID, q)
	}
	slices.SortFunc(out, func(a, b *Instance) int { return slices.Compare(a.Levels, b.Levels) })
	return out, nil
}

// Ref is what a path or ASN.1 id resolves to: a context, or a statistic of a context.
type Ref struct {
	Ctx   *Context
	Datum *Datum // nil for a context
}

// IsStat reports whether the reference names a statistic.
func (r Ref) IsStat() bool { return r.Datum != nil }

// Path is the full SPMI path of the reference.
func (r Ref) Path() string {
	if r.Datum == nil {
		return r.Ctx.Path()
	}
	if p := r.Ctx.Path(); p != "" {
		return p + "/" + r.Datum.Name
	}
	return r.Datum.Name
}

// ASN is the relative dotted ASN.1 id of the reference (SPMI-ASN-1), "" when it has none.
func (r Ref) ASN() string {
	p := r.Ctx.ASNPath()
	if r.Datum == nil || (p == "" && r.Ctx.Kind != CtxTop) {
		return p
	}
	n := strconv.Itoa(int(r.Ctx.StatASN(r.Datum)))
	if p == "" {
		return n
	}
	return p + "." + n
}

// FullASN is the ASN.1 id with the registry's prefix, when one is set (SPMI-ASN-3).
func (r *Registry) FullASN(ref Ref) string {
	if r.ASNPrefix == "" || ref.ASN() == "" {
		return ref.ASN()
	}
	return r.ASNPrefix + "." + ref.ASN()
}

// Lookup resolves a path relative to from (nil = Top). "" resolves to from itself. A leading "/"
// makes the path absolute. The cost is proportional to the depth of the path (SPMI-HIER-7,
// SPMI-HIER-8). Unknown contexts are SiInvalidCx, unknown statistics SiNotFound (AMB-44).
//
// A path from the top that is a dotted ASN.1 id ("1.1.4", or the registry's full id) names
// what LookupASN names when no context or statistic has that name (DCI-LBL-5: statistics are
// named by SPMI path or by ASN.1 id), so get, describe, list, hot and the monitor's `:` take
// both.
func (r *Registry) Lookup(from *Context, path string) (Ref, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	ref, err := r.lookupLocked(from, path)
	if err != nil && (from == nil || from == r.top || strings.HasPrefix(path, "/")) && isASNID(strings.TrimPrefix(path, "/")) {
		return r.lookupASNLocked(strings.TrimPrefix(path, "/"))
	}
	return ref, err
}

// isASNID reports whether s is written as a dotted ASN.1 id: numbers separated by dots.
func isASNID(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if (s[i] < '0' || s[i] > '9') && s[i] != '.' {
			return false
		}
	}
	return true
}

func (r *Registry) lookupLocked(from *Context, path string) (Ref, error) {
	cur := from
	if cur == nil || strings.HasPrefix(path, "/") {
		cur = r.top
	}
	if cur.deleted.Load() {
		return Ref{}, errf(StatusInvalidArg, SiDeleted, "context %s has been deleted", cur.Path())
	}
	segs := splitPath(path)
	for i, s := range segs {
		if k := cur.child(s); k != nil {
			cur = k
			continue
		}
		last := i == len(segs)-1
		if last && cur.Stats != nil {
			for _, name := range []string{s.raw, s.name} {
				if j := cur.Stats.DatumByName(name); j >= 0 && cur.Stats.Datums[j].ID != InvalidDatumID {
					return Ref{Ctx: cur, Datum: &cur.Stats.Datums[j]}, nil
				}
			}
		}
		// A mount point written with its slashes (FS//home): say how to write it (issue 32
		// item 11).
		hint := slashHint(cur, segs, i)
		if hint != "" {
			hint = "; " + hint
		}
		if last && cur.Stats != nil {
			e := errf(StatusUnknownDatum, SiNotFound, "%s has no statistic or subcontext %q%s", ctxName(cur), s.raw, hint)
			e.At, e.Name = cur, s.name
			return Ref{}, e
		}
		e := errf(StatusUnknownClass, SiInvalidCx, "%s has no subcontext %q%s", ctxName(cur), s.raw, hint)
		e.At, e.Name = cur, s.name
		return Ref{}, e
	}
	return Ref{Ctx: cur}, nil
}

func ctxName(c *Context) string {
	if c.Kind == CtxTop {
		return "Top"
	}
	return c.Path()
}

// LookupASN resolves a relative dotted ASN.1 id ("1.1.4"), or a full one carrying the
// registry's prefix (SPMI-ASN-1, SPMI-ASN-3).
func (r *Registry) LookupASN(id string) (Ref, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.lookupASNLocked(id)
}

func (r *Registry) lookupASNLocked(id string) (Ref, error) {
	if r.ASNPrefix != "" && strings.HasPrefix(id, r.ASNPrefix+".") {
		id = strings.TrimPrefix(id, r.ASNPrefix+".")
	}
	cur := r.top
	parts := strings.Split(id, ".")
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil || n == 0 {
			return Ref{}, errf(StatusInvalidArg, SiBadArgument, "ASN.1 id %q: component %q is not 1..65535", id, p)
		}
		if k := cur.k().byASN[uint16(n)]; k != nil {
			cur = k
			continue
		}
		if i == len(parts)-1 && cur.Stats != nil {
			for j := range cur.Stats.Datums {
				d := &cur.Stats.Datums[j]
				if d.ID != InvalidDatumID && cur.StatASN(d) == uint16(n) {
					return Ref{Ctx: cur, Datum: d}, nil
				}
			}
			return Ref{}, errf(StatusUnknownDatum, SiNotFound, "ASN.1 id %s: %s has no statistic %d", id, ctxName(cur), n)
		}
		return Ref{}, errf(StatusUnknownClass, SiInvalidCx, "ASN.1 id %s: %s has no subcontext %d", id, ctxName(cur), n)
	}
	return Ref{Ctx: cur}, nil
}

// Walk visits every context depth first, parents before children, in tree order (SPMI-HIER-6).
// Returning false from f skips the context's subtree.
func (r *Registry) Walk(f func(c *Context, depth int) bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var walk func(c *Context, d int)
	walk = func(c *Context, d int) {
		if !f(c, d) {
			return
		}
		for _, k := range c.k().children {
			walk(k, d+1)
		}
	}
	walk(r.top, 0)
}
