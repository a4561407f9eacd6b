// Hotset plans: which peers a grandparent and a statistic name, grouped by lowest-level parent,
// re-planned when the name space changes (SPMI-HOT-4, SPMI-HOT-5, AMB-37).

package namespace

import (
	"math"
	"slices"
	"strings"
)

// hasSubcontext applies the guide's rule that the grandparent must have a subcontext, with its
// exception for contexts whose subcontexts come and go during operation (the RTime contexts of
// the guide, SiContInst classes here): those are checked against the class description only, and
// the peer set fills in when peers appear (SPMI-HOT-4).
func (hs *HotSet) hasSubcontext(gp *Context, first []*Class) bool {
	for _, c := range first {
		if c.InstFreq == SiContInst {
			return true
		}
	}
	for _, c := range first {
		for _, in := range hs.reg.Instances(c) {
			if in.Context().Parent() == gp {
				return true
			}
		}
	}
	return false
}

func sameParams(a, b HotSpec) bool {
	return a.MaxResp == b.MaxResp && a.Threshold == b.Threshold && a.Frequency == b.Frequency &&
		a.Feed == b.Feed && a.Except == b.Except && a.Severity == b.Severity && a.TrapNo == b.TrapNo
}

// validate checks the parameters by the rules of SpmiAddSetHot (SPMI-HOT-6, -7, -9, -12..15,
// AMB-43).
func (sp *HotSpec) validate() *Error {
	bad := func(format string, args ...any) *Error {
		return errf(StatusInvalidArg, SiBadArgument, "hotset: "+format, args...)
	}
	switch {
	case sp.Stat == "":
		return bad("StatName is empty")
	case strings.Contains(sp.Stat, "/"):
		return bad("StatName %q must name a statistic of the peers, not a path", sp.Stat)
	case sp.Feed < SiHotNoFeed || sp.Feed > SiHotAlways:
		return bad("feed_type %d is not SiHotNoFeed (0), SiHotThreshold (1) or SiHotAlways (2) (SPMI-HOT-9)", int(sp.Feed))
	case sp.Except < SiHotNoException || sp.Except > SiHotBoth:
		return bad("except_type %d is not SiHotNoException (0), SiHotException (1), SiHotTrap (2) or SiHotBoth (3) (SPMI-HOT-12)", int(sp.Except))
	case sp.MaxResp < 0 || sp.MaxResp > maxShort:
		return bad("maxresp %d is outside 0..%d (0 returns every qualifying item, SPMI-HOT-6)", sp.MaxResp, maxShort)
	case math.IsNaN(sp.Threshold) || math.IsInf(sp.Threshold, 0):
		return bad("threshold %v is not a finite number (SPMI-HOT-7)", sp.Threshold)
	case sp.Frequency < 0 || sp.Frequency > maxShort:
		return bad("frequency %d is outside 0..%d minutes (SPMI-HOT-14)", sp.Frequency, maxShort)
	case sp.Severity < 0 || sp.Severity > maxShort:
		return bad("severity %d is outside 0..%d (SPMI-HOT-15)", sp.Severity, maxShort)
	case sp.TrapNo < 0 || sp.TrapNo > maxShort:
		return bad("trap_no %d is outside 0..%d (SPMI-HOT-15)", sp.TrapNo, maxShort)
	}
	if sp.Except != SiHotNoException {
		switch {
		case sp.MaxResp == 0:
			return bad("maxresp must be non-zero when except_type is %s (SPMI-HOT-6, SPMI-HOT-13)", sp.Except)
		case sp.Threshold == 0:
			return bad("threshold must be non-zero when except_type is %s (SPMI-HOT-7, SPMI-HOT-13)", sp.Except)
		case sp.Frequency < 5:
			return bad("frequency %d must be at least 5 minutes when except_type is %s (SPMI-HOT-13, SPMI-HOT-14)", sp.Frequency, sp.Except)
		}
	}
	switch {
	case sp.Except.Exceptions() && sp.Severity == 0:
		return bad("severity must be positive when except_type is %s (SPMI-HOT-13)", sp.Except)
	case !sp.Except.Exceptions() && sp.Severity != 0:
		return bad("severity %d must be 0 when except_type is %s, which raises no exceptions (AMB-43)", sp.Severity, sp.Except)
	case sp.Except.Traps() && sp.TrapNo == 0:
		return bad("trap_no must be positive when except_type is %s (SPMI-HOT-13)", sp.Except)
	case !sp.Except.Traps() && sp.TrapNo != 0:
		return bad("trap_no %d must be 0 when except_type is %s, which raises no traps (AMB-43)", sp.TrapNo, sp.Except)
	}
	return nil
}

// planHot works out from the class descriptions where the peers of gp carrying stat are: the
// first level of instantiable subcontexts below gp whose class has the statistic (SPMI-HOT-4,
// SPMI-HOT-5, X-9). It takes the registry's lock itself.
func planHot(reg *Registry, gp *Context, stat string) (hotPlan, *Error) {
	return planHotIn(planSet{all: reg.Classes()}, nil, gp, stat)
}

// planSet is what a plan looks in: the registry's classes, and, for a fleet's plan, those
// nested under each class by its id (nestedByHost), found for every host in one pass.
type planSet struct {
	all   []*Class
	nests map[string][]*Class
}

// nested appends to out the classes nested under host.
func (ps planSet) nested(host *Class, out []*Class) []*Class {
	if ps.nests != nil {
		return append(out, ps.nests[host.ID.String()]...)
	}
	for _, c := range ps.all {
		if len(c.NestUnder) > 0 && c.NestUnder.Equal(host.ID) {
			out = append(out, c)
		}
	}
	return out
}

// firstLevel are the classes whose instances are gp's subcontexts: peers when not nil (a
// fleet's plan finds them for every host in one pass: peersByContext).
func (ps planSet) firstLevel(gp *Context, peers []*Class) []*Class {
	switch {
	case gp.Kind == CtxInstance:
		return ps.nested(gp.Class, nil)
	case peers != nil:
		return peers
	}
	var level []*Class
	for _, c := range ps.all {
		if isPeerClass(c) && c.Context() == gp {
			level = append(level, c)
		}
	}
	return level
}

// planHotIn is planHot over ps, the peer classes of gp given when not nil.
func planHotIn(ps planSet, peers []*Class, gp *Context, stat string) (hotPlan, *Error) {
	level := ps.firstLevel(gp, peers)
	if len(level) == 0 {
		return hotPlan{}, errf(StatusInvalidArg, SiBadArgument, "hotset: GrandParent %s has no peer subcontexts: no multi-instance class has its instances there (SPMI-HOT-4)", hotCtxName(gp))
	}
	first := level
	for depth := 0; len(level) > 0; depth++ {
		p, err := ps.levelPlan(level, first, depth, gp, stat)
		if err != nil || len(p.peers) > 0 {
			return p, err
		}
		var next []*Class
		for _, c := range level {
			next = ps.nested(c, next)
		}
		level = next
	}
	return hotPlan{}, errf(StatusUnknownDatum, SiNotFound, "hotset: no peer subcontext of %s carries a statistic named %q (SPMI-HOT-4)", hotCtxName(gp), stat)
}

// levelPlan is the plan of the classes of one level (depth below the first) that carry stat,
// with the classes they are nested under when below the first.
func (ps planSet) levelPlan(level, first []*Class, depth int, gp *Context, stat string) (hotPlan, *Error) {
	p := hotPlan{first: first}
	for _, c := range level {
		i := c.DatumByName(stat)
		if i < 0 || c.Datums[i].ID == InvalidDatumID {
			continue
		}
		d := &c.Datums[i]
		if !numericDatum(d) {
			return hotPlan{}, errf(StatusInvalidArg, SiBadArgument, "hotset: StatName %q of %s is %s, not a number", stat, hotCtxName(gp), d.Type)
		}
		p.peers = append(p.peers, hotPeer{c: c, di: i})
		if p.stat == nil {
			p.stat = d
		}
		if depth == 0 {
			continue
		}
		for _, h := range ps.all {
			if h.ID.Equal(c.NestUnder) && !slices.Contains(p.parents, h) {
				p.parents = append(p.parents, h)
			}
		}
	}
	return p, nil
}

func hotCtxName(c *Context) string {
	if c.Kind == CtxTop {
		return "Top"
	}
	return c.Path()
}

// regroup makes the entry's peer groups those of the parents that exist now, in tree order,
// keeping the groups (and their exception clocks) of parents that were already there
// (SPMI-HOT-5).
func (hs *HotSet) regroup(e *HotVals) {
	var want []*Context
	for _, c := range e.plan.parents {
		for _, in := range hs.reg.Instances(c) {
			want = append(want, in.Context())
		}
	}
	hs.reg.Read(func() {
		want = slices.DeleteFunc(want, func(c *Context) bool { return c == nil || c.Deleted() || !hotBelow(c, e.grandpa) })
	})
	slices.SortFunc(want, hotTreeOrder)
	groups := make([]*HotVals, 0, len(want))
	byParent := make(map[*Context]*HotVals, len(want))
	for i, c := range want {
		g := e.byParent[c]
		if g == nil {
			g = &HotVals{hs: hs, entry: e, spec: e.spec, grandpa: c, path: c.Path(), Err: SiNoValue}
		}
		g.idx = i
		groups = append(groups, g)
		byParent[c] = g
	}
	for c, g := range e.byParent {
		if byParent[c] == nil {
			g.hs = nil
		}
	}
	e.groups, e.byParent = groups, byParent
}

func hotBelow(c, gp *Context) bool {
	for p := c.Parent(); p != nil; p = p.Parent() {
		if p == gp {
			return true
		}
	}
	return false
}

// hotTreeOrder orders contexts of one depth as the tree does: by their parents, then ASN.1
// number, then name.
func hotTreeOrder(a, b *Context) int {
	if a == b {
		return 0
	}
	if pa, pb := a.Parent(), b.Parent(); pa != pb && pa != nil && pb != nil {
		if c := hotTreeOrder(pa, pb); c != 0 {
			return c
		}
	}
	if a.ASN != b.ASN {
		return int(a.ASN) - int(b.ASN)
	}
	return strings.Compare(a.Name, b.Name)
}

// replan works the peers out again after the registry changed: classes may have come or gone,
// and parents of peer groups appear and disappear (SPMI-HOT-5).
func (hs *HotSet) replan(e *HotVals, rgen uint64) {
	e.planGen = rgen
	deleted := false
	hs.reg.Read(func() { deleted = e.grandpa.Deleted() })
	if deleted {
		return
	}
	plan, err := planHot(hs.reg, e.grandpa, e.spec.Stat)
	if e.fleet {
		plan, err = planFleet(hs.reg, e.spec.Grandpa, e.spec.Stat)
	}
	if err != nil {
		e.planErr = err
		e.plan.peers = nil
		return
	}
	e.plan, e.planErr = plan, nil
	if e.multi() {
		hs.regroup(e)
	} else if e.groups != nil {
		for _, g := range e.groups {
			g.hs = nil
		}
		e.groups, e.byParent = nil, nil
	}
	hs.reroute(e)
}

// reroute builds the routes of the entry's peer classes from the instances registered now.
func (hs *HotSet) reroute(e *HotVals) {
	multi := e.multi()
	for i := range e.plan.peers {
		pc := &e.plan.peers[i]
		pc.route = nil
		if !multi && (e.fleet || pc.c.Context() == e.grandpa) {
			continue // hosted by the grandparent (by one of a fleet's): all its instances are peers
		}
		insts := hs.reg.Instances(pc.c)
		n := 0
		for _, in := range insts {
			n = max(n, in.Slot()+1)
		}
		route := make([]hotRoute, n)
		for _, in := range insts {
			parent := in.Context().Parent()
			switch {
			case !multi && parent == e.grandpa:
				route[in.Slot()] = hotRoute{in: in}
			case multi:
				if g := e.byParent[parent]; g != nil {
					route[in.Slot()] = hotRoute{in: in, g: int32(g.idx)}
				}
			}
		}
		pc.route = route
	}
}

// isFleet says a hotset's grandparent is a pattern (`*/Disk`, `web*/NetIf`), which ranks the peers
// of every context it matches together: the busiest disks across hosts (issue 14).
func isFleet(spec HotSpec) bool {
	return spec.From == nil && strings.ContainsAny(spec.Grandpa, "*?[")
}

// planFleet plans a fleet hotset: the peers of every context the pattern matches, one heap for
// all. Contexts whose peers do not carry the statistic are left out; peers one level further
// down (partitions) are not ranked across hosts.
func planFleet(reg *Registry, pattern, stat string) (hotPlan, *Error) {
	refs, err := reg.Glob(pattern)
	if err != nil || len(refs) == 0 {
		return hotPlan{}, errf(StatusUnknownClass, SiInvalidCx, "hotset: GrandParent %q matches no context", pattern)
	}
	// The classes once for every host, not once a host: a thousand hosts' plan copied the
	// registry's 25,000 classes a thousand times, at every pending hotset's try and every
	// replan (a fleet of 1,000 hosts all down, at 100 ms, kept a processor 70% busy, issue 40).
	all := reg.Classes()
	byCtx, ps := peersByContext(all), planSet{all: all, nests: nestedByHost(all)}
	var out hotPlan
	var first *Error
	for _, r := range refs {
		if r.IsStat() {
			continue
		}
		peers := byCtx[r.Ctx]
		if peers == nil {
			peers = []*Class{}
		}
		p, perr := planHotIn(ps, peers, r.Ctx, stat)
		if perr == nil && p.parents != nil {
			perr = errf(StatusInvalidArg, SiBadArgument, "hotset: StatName %q of %s is carried one level further down: a hotset across contexts ranks one level", stat, hotCtxName(r.Ctx))
		}
		if perr != nil {
			if first == nil {
				first = perr
			}
			continue
		}
		out.peers = append(out.peers, p.peers...)
		out.first = append(out.first, p.first...)
		if out.stat == nil {
			out.stat = p.stat
		}
	}
	if len(out.peers) == 0 {
		if first != nil {
			return hotPlan{}, first
		}
		return hotPlan{}, errf(StatusUnknownClass, SiInvalidCx, "hotset: GrandParent %q matches no context with peers", pattern)
	}
	return out, nil
}

// isPeerClass says c's instances may be peers of a hotset (planHot's first level).
func isPeerClass(c *Class) bool {
	return c.Instantiated() && !c.SingleInstance() && len(c.NestUnder) == 0
}

// peersByContext groups the peer classes of all by the context their instances are under.
func peersByContext(all []*Class) map[*Context][]*Class {
	out := map[*Context][]*Class{}
	for _, c := range all {
		if isPeerClass(c) {
			out[c.Context()] = append(out[c.Context()], c)
		}
	}
	return out
}

// nestedByHost groups the classes of all nested under another class (NestUnder) by the id of
// that class.
func nestedByHost(all []*Class) map[string][]*Class {
	out := map[string][]*Class{}
	for _, c := range all {
		if len(c.NestUnder) > 0 {
			k := c.NestUnder.String()
			out[k] = append(out[k], c)
		}
	}
	return out
}

// addFleet adds a fleet peer set (see isFleet): its grandparent is Top, its path the pattern.
func (hs *HotSet) addFleet(spec HotSpec) (*HotVals, error) {
	plan, perr := planFleet(hs.reg, spec.Grandpa, spec.Stat)
	if perr != nil {
		return nil, perr
	}
	for _, e := range hs.entries {
		if e.fleet && e.path == spec.Grandpa && e.plan.stat != nil && e.plan.stat.Name == plan.stat.Name && sameParams(e.spec, spec) {
			e.refs++
			return e, nil
		}
	}
	e := &HotVals{hs: hs, spec: spec, grandpa: hs.reg.Top(), path: spec.Grandpa, fleet: true, refs: 1, idx: len(hs.entries),
		plan: plan, planGen: hs.reg.Generation(), Err: SiNoValue}
	hs.reroute(e)
	hs.entries = append(hs.entries, e)
	return e, nil
}
