package namespace

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
)

// CtxKind says what a context stands for in the SPMI view.
type CtxKind uint8

// Context kinds.
const (
	CtxTop      CtxKind = iota // the Top context
	CtxClass                   // an uninstantiated class, or a stand-alone single-instance class
	CtxInstance                // one instance of a multi-instance class
)

// TotalsASNBase offsets the ASN.1 numbers of statistics folded into a context from a totals
// class, so they never collide with the numbers of the context's instance subcontexts, which
// start at 1 (SPMI-ASN-2; `CPU/cpu0` = 1.1 keeps the guide's example, `CPU/user` = 1.65281).
// Instance subcontexts are numbered 1..TotalsASNBase-1.
const TotalsASNBase = 0xFF00

// Context is an SPMI context: a node of the name space tree that may hold subcontexts and
// statistics (SPMI-HIER-1, SPMI-HIER-4). Contexts are built by the Registry from classes and
// instances; read them while holding no assumptions beyond the Registry's lock rules.
type Context struct {
	Name  string
	Desc  string
	Kind  CtxKind
	ASN   uint16
	Class *Class    // the class the context stands for (nil for Top)
	Inst  *Instance // the instance, for CtxInstance and single-instance contexts

	// Stats is the class whose datums are this context's statistics, with StatsInst its
	// instance; nil when the context has no statistics.
	Stats     *Class
	StatsInst *Instance

	parent  *Context
	kids    *ctxKids    // nil until the context has a subcontext or hosts a class (most instances never)
	deleted atomic.Bool // read by the UI without the registry lock
	path    string      // kept by addChild: contexts never move, and the UI asks for paths per row
}

// ctxKids is what a context with subcontexts has: an instance's context, the most numerous, has
// none, and is 72 bytes smaller without them (issue 38 item 3).
type ctxKids struct {
	children []*Context
	byName   map[string]*Context
	byASN    map[uint16]*Context
	hosted   []*Class // multi-instance classes whose instances hang here
	nextASN  uint16
	// While a Sync runs, the children it adds wait in added and those it removes stay in
	// children marked deleted; settle puts children in order once at its end (unsettled).
	added     []*Context
	unsettled bool
}

// noKids is what a context without subcontexts reads; never written.
var noKids ctxKids

// k is the context's subcontexts, to read.
func (c *Context) k() *ctxKids {
	if c.kids == nil {
		return &noKids
	}
	return c.kids
}

// own is the context's subcontexts, to change.
func (c *Context) own() *ctxKids {
	if c.kids == nil {
		c.kids = &ctxKids{}
	}
	return c.kids
}

// Parent is the parent context, nil for Top (the guide's "NULL when the parent is Top" is
// expressed by Parent().Kind == CtxTop).
func (c *Context) Parent() *Context { return c.parent }

// Deleted reports whether the context has been removed (SPMI-HIER-11).
func (c *Context) Deleted() bool { return c.deleted.Load() }

// InstFreq is the context's instantiability: the most dynamic of the classes whose instances
// are its subcontexts; SiNoInst when it has none (SPMI-INST-2, SPMI-INST-3).
func (c *Context) InstFreq() InstFreq {
	f := SiNoInst
	for _, h := range c.k().hosted {
		if h.InstFreq > f {
			f = h.InstFreq
		}
		if h.InstFreq == SiNoInst && f == SiNoInst {
			f = SiCfgInst
		}
	}
	return f
}

// Instantiable reports whether the context has subcontexts that can exist in several copies.
func (c *Context) Instantiable() bool { return len(c.k().hosted) > 0 }

// Path is the context's path from Top ("CPU/cpu0"); Top's path is "".
func (c *Context) Path() string {
	if c == nil || c.Kind == CtxTop {
		return ""
	}
	if c.path != "" {
		return c.path
	}
	return c.joinPath()
}

func (c *Context) joinPath() string {
	if c.parent == nil || c.parent.Kind == CtxTop {
		return c.Name
	}
	return c.parent.Path() + "/" + c.Name
}

// keepPath records the paths of c and everything under it, once c has its parent.
func (c *Context) keepPath() {
	c.path = c.joinPath()
	for _, g := range c.k().children {
		g.keepPath()
	}
}

// PathLevels returns at most max trailing components of the path; 0 = the whole path
// (SPMI-HIER-9, AMB-40).
func (c *Context) PathLevels(max int) string {
	p := c.Path()
	if max <= 0 {
		return p
	}
	parts := strings.Split(p, "/")
	if len(parts) > max {
		parts = parts[len(parts)-max:]
	}
	return strings.Join(parts, "/")
}

// ASNPath is the relative dotted ASN.1 identifier of the context ("1.1") (SPMI-ASN-1); "" for
// Top and for a context (or a descendant of one) that has no number.
func (c *Context) ASNPath() string {
	if c == nil || c.Kind == CtxTop || c.ASN == 0 {
		return ""
	}
	if c.parent == nil || c.parent.Kind == CtxTop {
		return strconv.Itoa(int(c.ASN))
	}
	p := c.parent.ASNPath()
	if p == "" {
		return ""
	}
	return p + "." + strconv.Itoa(int(c.ASN))
}

// Children are the subcontexts ordered by ASN.1 number, then name. The slice must not be
// modified; hold the registry's read lock (Registry.Read) while using it if instances may change.
func (c *Context) Children() []*Context { return c.k().children }

// Child returns the subcontext with the given name, or nil.
func (c *Context) Child(name string) *Context { return c.k().byName[name] }

// NumStats is the number of statistics the context holds (derived datums included, the
// invalid-data list excluded).
func (c *Context) NumStats() int {
	if c.Stats == nil {
		return 0
	}
	n := 0
	for i := range c.Stats.Datums {
		if c.Stats.Datums[i].ID != InvalidDatumID {
			n++
		}
	}
	return n
}

// StatASN is the ASN.1 number of datum d as a statistic of this context.
func (c *Context) StatASN(d *Datum) uint16 {
	if c.Stats != nil && c.Stats.Totals && c.Stats.ctx == c && c.Kind != CtxInstance && len(c.k().hosted) > 0 {
		return TotalsASNBase + uint16(d.ID.Low())
	}
	return uint16(d.ID.Low())
}

// addChild makes k a subcontext of c, in its place among the children.
func (c *Context) addChild(k *Context) {
	ks := c.adopt(k)
	i, _ := slices.BinarySearchFunc(ks.children, k, childOrder)
	ks.children = slices.Insert(ks.children, i, k)
}

// adopt gives k c as its parent and puts it in c's names and numbers; its place among c's
// ordered children is addChild's or settle's to give.
func (c *Context) adopt(k *Context) *ctxKids {
	k.parent = c
	k.keepPath()
	ks := c.own()
	if ks.byName == nil {
		ks.byName = map[string]*Context{}
		ks.byASN = map[uint16]*Context{}
	}
	ks.byName[k.Name] = k
	if k.ASN != 0 {
		ks.byASN[k.ASN] = k
	}
	return ks
}

// removeChild takes k from c's subcontexts at once.
func (c *Context) removeChild(k *Context) {
	ks := c.forget(k)
	if i, found := slices.BinarySearchFunc(ks.children, k, childOrder); found && ks.children[i] == k {
		ks.children = slices.Delete(ks.children, i, i+1)
	}
}

// forget takes k out of c's names and numbers and marks it deleted; it stays in c's ordered
// children until removeChild or settle takes it out.
func (c *Context) forget(k *Context) *ctxKids {
	ks := c.own()
	delete(ks.byName, k.Name)
	if ks.byASN[k.ASN] == k {
		delete(ks.byASN, k.ASN)
	}
	if k.ASN != 0 && (k.ASN < ks.nextASN || ks.nextASN == 0) {
		ks.nextASN = k.ASN
	}
	k.deleted.Store(true)
	return ks
}

// childOrder is the order of a context's subcontexts: by ASN.1 number, then name.
func childOrder(a, b *Context) int {
	if a.ASN != b.ASN {
		return cmp.Compare(a.ASN, b.ASN)
	}
	return strings.Compare(a.Name, b.Name)
}

// addChildLater is addChild for a Sync: k has its names and number at once, and its place among
// the children when settle runs. It reports whether c had no change waiting before.
func (c *Context) addChildLater(k *Context) (first bool) {
	ks := c.adopt(k)
	ks.added = append(ks.added, k)
	first, ks.unsettled = !ks.unsettled, true
	return first
}

// removeChildLater is removeChild for a Sync; it reports whether c had no change waiting before.
func (c *Context) removeChildLater(k *Context) (first bool) {
	ks := c.forget(k)
	first, ks.unsettled = !ks.unsettled, true
	return first
}

// settle puts a Sync's changes to c's children in place: one pass drops the deleted, and the
// added, sorted among themselves, are merged in from the end. A Sync of k changes among n
// siblings costs O(n + k log k), where a change at a time cost O(n) each (issue 38: 1,000
// processes coming and going among 100,000).
func (c *Context) settle() {
	ks := c.own()
	kept := slices.DeleteFunc(ks.children, (*Context).Deleted)
	added := slices.DeleteFunc(ks.added, (*Context).Deleted)
	slices.SortFunc(added, childOrder)
	n := len(kept)
	out := slices.Grow(kept, len(added))[:n+len(added)]
	for i, j, w := n-1, len(added)-1, len(out)-1; j >= 0; w-- {
		if i >= 0 && childOrder(out[i], added[j]) > 0 {
			out[w], i = out[i], i-1
		} else {
			out[w], j = added[j], j-1
		}
	}
	ks.children = out
	clear(ks.added[:cap(ks.added)])
	ks.added = ks.added[:0]
	ks.unsettled = false
}

// freeASN returns the preferred number when free, else the lowest free one at or after the
// allocation hint (AMB-45).
func (c *Context) freeASN(preferred uint16) uint16 {
	// Subcontexts and statistics share one numbering (SPMI-ASN-2).
	taken := func(n uint16) bool {
		return c.k().byASN[n] != nil || (c.Stats != nil && n < 256 && c.Stats.byLow[n] >= 0 && c.Stats.Datums[c.Stats.byLow[n]].ID != InvalidDatumID && c.StatASN(&c.Stats.Datums[c.Stats.byLow[n]]) == n)
	}
	if preferred != 0 && preferred < TotalsASNBase && !taken(preferred) {
		return preferred
	}
	n := c.k().nextASN
	if n == 0 {
		n = 1
	}
	for ; n < TotalsASNBase; n++ {
		if !taken(n) {
			c.own().nextASN = n + 1
			return n
		}
	}
	c.own().nextASN = TotalsASNBase // exhausted: later additions get no number without rescanning
	return 0
}
