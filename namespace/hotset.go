package namespace

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// HotSet is an SPMI hotset (SpmiHotSet): peer sets that each rank one statistic across the peer
// contexts below a grandparent context, all read at the same time from one reading of a shared
// Source (SPMI-HOT-1..23, X-9). A HotSet is not safe for concurrent use; give each one a single
// owner.
//
// The peers are the instances of the multi-instance classes whose contexts hang below the
// grandparent; the statistic is a datum of their class, named by its SPMI name or DCI label; an
// item's name is the peer context's name. Decisions the SPMI guide leaves open:
//
//   - multi-level peers (SPMI-HOT-5): the statistic is looked for at the first level below the
//     grandparent whose subcontexts carry it. When the grandparent's own subcontexts carry it the
//     peer set is an ordinary single-level one, so with disks and partitions sharing statistic
//     names `Disk busy` ranks the disks and `Disk/sda busy` ranks sda's partitions; a statistic
//     found only at a lower level gives one internal peer group per parent at the level above
//     (`Disk part_busy`: one group per disk), created when the peer set is added and whenever a
//     new parent appears, each ranked and capped separately; the groups of a parent that goes
//     away go with it. The guide's "only at the lowest level" would make `Disk busy` rank
//     partitions whenever partitions exist, which no one asking for the busiest disks means;
//   - the entry Add returns stands for the whole request: for a multi-level peer set it is a
//     header with no items of its own (AvailResp and Count are the sums of its groups), the walk
//     (First, Next, NextItem) yields the groups, and only the entry can be deleted (AMB-37,
//     SPMI-HOT-22);
//   - adding a request identical to one the hotset holds (same grandparent, statistic and
//     parameters) raises its ref_count (SPMI-HOT-18); a request that differs in any parameter is a
//     peer set of its own;
//   - maxresp 0 returns every qualifying item (AMB-35); a negative threshold qualifies values
//     strictly below its magnitude and sorts ascending (AMB-36); SiHotAlways ignores the threshold
//     for feeds but its sign still sets the order, SiHotNoFeed returns no items but computes
//     avail_resp (AMB-38); ties rank by peer name (AMB-39); thresholds compare as float64 and are
//     displayed as given (AMB-59); avail_resp counts the peers meeting the feed's criteria (all
//     valid values for SiHotAlways);
//   - values are ranked as the snapshot decodes them: a counter by its rate per second over the
//     reading's interval, a quantity by its level (SPMI-HOT-23). When the hotset reads every
//     snapshot, as the TUI does, that interval is the hotset's time_change (AMB-49); peers without
//     a valid value (invalid, unavailable, no rate yet) are neither ranked nor counted;
//   - exceptions and traps go to the hotset's EventLog as EvHotException and EvHotTrap events; no
//     SNMP trap is sent (SPMI-HOT-12). They use the threshold even with SiHotAlways, at most
//     maxresp per firing, and fire at most once every frequency minutes per peer set (per group
//     for multi-level peer sets, SPMI-HOT-14);
//   - parameters are checked strictly: a value the guide says to "specify as zero" must be zero
//     (AMB-43), and the short fields of SpmiHotVals bound maxresp, frequency, severity and trap_no
//     to 0..32767.
type HotSet struct {
	reg        *Registry
	src        *Source
	log        *EventLog
	entries    []*HotVals // in order of addition
	gen        uint64     // the source reading the hotset last read
	read       bool
	freed      bool
	time       time.Time
	timeChange time.Duration
}

// HotSpec holds the parameters of a peer set (SpmiAddSetHot, SPMI-HOT-4..15).
type HotSpec struct {
	// Stat is StatName: the statistic, named as in every peer (`busy`).
	Stat string
	// Grandpa is the GrandParent path, resolved relative to From (nil: from Top).
	Grandpa string
	From    *Context
	// MaxResp caps the items returned (and exceptions raised); 0 returns every qualifying item.
	MaxResp int
	// Threshold is compared with each peer's value, a rate per second for counters: positive
	// values qualify above it, negative ones below its magnitude, 0 qualifies everything.
	Threshold float64
	// Frequency is the minimum number of minutes between two exceptions or traps (≥ 5 with them).
	Frequency int
	Feed      HotFeed
	Except    HotExcept
	// Severity is attached to exceptions; it must be positive with them and 0 without.
	Severity int
	// TrapNo is the trap number; it must be positive with traps and 0 without.
	TrapNo int
}

// HotItem is one ranked peer (SpmiHotItems, SPMI-HOT-11).
type HotItem struct {
	Name string    // the peer context's name
	Inst *Instance // the peer
	// Val is the peer's value: Val.N is `val`, Val.Change `val_change`, Val.V the decoded value
	// (a rate per second for counters, the level for quantities) the ranking used.
	Val Value
}

// HotVals is one peer set of a hotset (SpmiHotVals, SPMI-HOT-16): its parameters, available
// through Spec, and the results of the hotset's last read. The exported fields are results,
// rewritten by every read; Items is reused from read to read, so copy it to keep it.
type HotVals struct {
	AvailResp int       // peers meeting the selection criteria, before the cap (SPMI-HOT-10)
	Count     int       // items returned: AvailResp capped at maxresp (SPMI-HOT-10)
	Items     []HotItem // Count items, best first (SPMI-HOT-8, SPMI-HOT-11)
	Err       SiErr     // SiSuccess, or why the peer set could not be read in full (SPMI-HOT-19)
	ErrReason Reason    // the reason behind Err, when a provider gave one

	hs      *HotSet
	spec    HotSpec
	grandpa *Context
	path    string
	refs    int
	idx     int      // position among the hotset's entries; for a group, among its entry's groups
	entry   *HotVals // the entry a group belongs to; nil for an entry
	gen     uint64   // the source reading the entry was last evaluated on

	// The peers, worked out from the class descriptions; rebuilt when the registry changes.
	plan     hotPlan
	planGen  uint64
	planErr  *Error
	groups   []*HotVals
	byParent map[*Context]*HotVals

	feed, exc hotTop
	excDue    bool
	excFired  bool
	lastExc   time.Time
}

// hotPeer is a class whose instances are peers, with the statistic's index in it.
type hotPeer struct {
	c  *Class
	di int
	// route says, by instance slot, which instances are peers and of which group, for classes
	// whose instances are not all peers of the entry itself (nested classes, multi-level peer
	// sets). Built when the registry changes, it spares each read a walk up the tree per peer.
	// nil: every instance of the class is a peer of the entry.
	route []hotRoute
}

// hotRoute is one slot of a route: the instance it was built for, and its group.
type hotRoute struct {
	in *Instance
	g  int32
}

// hotPlan says where the peers of a peer set are.
type hotPlan struct {
	peers   []hotPeer
	parents []*Class // classes whose instances are the peer groups' parents; nil when single-level
	stat    *Datum
	first   []*Class // the classes whose instances are the grandparent's own subcontexts
}

const maxShort = 32767 // the SpmiHotVals fields maxresp, frequency, severity and trap_no are shorts

// NewHotSet returns an empty hotset of the registry's statistics, read from src, that records its
// exceptions and traps in log (which may be nil) (SpmiCreateHotSet, SPMI-HOT-2).
func NewHotSet(reg *Registry, src *Source, log *EventLog) *HotSet {
	return &HotSet{reg: reg, src: src, log: log}
}

// Time is the time of the hotset's current read (SPMI-HOT-3); zero before the first.
func (hs *HotSet) Time() time.Time { return hs.time }

// TimeChange is the time elapsed between the hotset's previous read and the current one
// (SPMI-HOT-3).
func (hs *HotSet) TimeChange() time.Duration { return hs.timeChange }

// Entries returns the peer sets as added, one per request (multi-level ones as their header
// entries), for a display that shows each request once. The slice must not be modified.
func (hs *HotSet) Entries() []*HotVals { return hs.entries }

// Spec returns the parameters the peer set was added with (SPMI-HOT-16).
func (v *HotVals) Spec() HotSpec { return v.spec }

// Grandpa is the parent of the peers: the grandparent context, or for a peer group its parent at
// the level above the peers.
func (v *HotVals) Grandpa() *Context { return v.grandpa }

// Path is the path of Grandpa (`Disk`, or `Disk/sda` for a peer group).
func (v *HotVals) Path() string { return v.path }

// Stat is the statistic ranked (the stat handle), or nil when it no longer exists.
func (v *HotVals) Stat() *Datum { return v.owner().plan.stat }

// RefCount is how many times the peer set has been added and not deleted (SPMI-HOT-18).
func (v *HotVals) RefCount() int { return v.owner().refs }

// IsGroup reports whether the peer set is an internal peer group of a multi-level entry.
func (v *HotVals) IsGroup() bool { return v.entry != nil }

// Entry is the entry the peer set belongs to: itself for an entry.
func (v *HotVals) Entry() *HotVals { return v.owner() }

// Groups are the peer groups of a multi-level entry, in tree order; nil for a single-level peer
// set. The slice must not be modified.
func (v *HotVals) Groups() []*HotVals { return v.groups }

// ThresholdText is the threshold as given, for display (AMB-59).
func (v *HotVals) ThresholdText() string { return strconv.FormatFloat(v.spec.Threshold, 'f', -1, 64) }

func (v *HotVals) owner() *HotVals {
	if v.entry != nil {
		return v.entry
	}
	return v
}

func (v *HotVals) multi() bool { return v.entry == nil && v.plan.parents != nil }

// Add adds a peer set and returns its entry (SpmiAddSetHot, SPMI-HOT-2). The parameters are
// checked first, each refusal naming the parameter: malformed or inconsistent values are
// SiBadArgument, an unknown grandparent SiInvalidCx, a deleted one SiDeleted, a grandparent with
// no peer subcontexts SiBadArgument and a statistic no peer carries SiNotFound (SPMI-HOT-4,
// AMB-44). A grandparent whose peers come and go may have none yet: the statistic is checked
// against the class descriptions and the peer set fills in when peers appear.
func (hs *HotSet) Add(spec HotSpec) (*HotVals, error) {
	if hs.freed {
		return nil, errf(StatusInvalidArg, SiBadArgument, "hotset: the hotset has been freed")
	}
	if err := spec.validate(); err != nil {
		return nil, err
	}
	ref, err := hs.reg.Lookup(spec.From, spec.Grandpa)
	if err != nil {
		return nil, err
	}
	if ref.IsStat() {
		return nil, errf(StatusInvalidArg, SiBadArgument, "hotset: GrandParent %q names a statistic, not a context", spec.Grandpa)
	}
	gp := ref.Ctx
	rgen := hs.reg.Generation()
	plan, perr := planHot(hs.reg, gp, spec.Stat)
	if perr != nil {
		return nil, perr
	}
	if !hs.hasSubcontext(gp, plan.first) {
		return nil, errf(StatusInvalidArg, SiBadArgument, "hotset: GrandParent %s has no subcontexts, and its subcontexts are not created on the fly (SiContInst) (SPMI-HOT-4)", hotCtxName(gp))
	}
	for _, e := range hs.entries {
		if e.grandpa == gp && e.plan.stat != nil && e.plan.stat.Name == plan.stat.Name && sameParams(e.spec, spec) {
			e.refs++
			return e, nil
		}
	}
	e := &HotVals{hs: hs, spec: spec, grandpa: gp, path: gp.Path(), refs: 1, idx: len(hs.entries),
		plan: plan, planGen: rgen, Err: SiNoValue}
	if e.multi() {
		hs.regroup(e)
	}
	hs.reroute(e)
	hs.entries = append(hs.entries, e)
	return e, nil
}

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
	all := reg.Classes()
	nested := func(host *Class, out []*Class) []*Class {
		for _, c := range all {
			if len(c.NestUnder) > 0 && c.NestUnder.Equal(host.ID) {
				out = append(out, c)
			}
		}
		return out
	}
	var level []*Class
	if gp.Kind == CtxInstance {
		level = nested(gp.Class, nil)
	} else {
		for _, c := range all {
			if c.Instantiated() && !c.SingleInstance() && len(c.NestUnder) == 0 && c.Context() == gp {
				level = append(level, c)
			}
		}
	}
	if len(level) == 0 {
		return hotPlan{}, errf(StatusInvalidArg, SiBadArgument, "hotset: GrandParent %s has no peer subcontexts: no multi-instance class has its instances there (SPMI-HOT-4)", hotCtxName(gp))
	}
	first := level
	for depth := 0; len(level) > 0; depth++ {
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
			if depth > 0 {
				for _, h := range all {
					if h.ID.Equal(c.NestUnder) && !slices.Contains(p.parents, h) {
						p.parents = append(p.parents, h)
					}
				}
			}
		}
		if len(p.peers) > 0 {
			return p, nil
		}
		var next []*Class
		for _, c := range level {
			next = nested(c, next)
		}
		level = next
	}
	return hotPlan{}, errf(StatusUnknownDatum, SiNotFound, "hotset: no peer subcontext of %s carries a statistic named %q (SPMI-HOT-4)", hotCtxName(gp), stat)
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

// Del removes one reference to a peer set; it goes, with its groups, when its ref_count reaches
// zero (SpmiDelSetHot, SPMI-HOT-2, SPMI-HOT-18). An internal peer group cannot be deleted on its
// own (SPMI-HOT-22): delete its entry. A peer set not in the hotset is SiNotFound.
func (hs *HotSet) Del(v *HotVals) error {
	if v == nil || v.hs != hs {
		return errf(StatusInvalidArg, SiNotFound, "hotset: the peer set is not in this hotset")
	}
	if v.entry != nil {
		return errf(StatusInvalidArg, SiBadArgument, "hotset: %s is an internal peer group of %s %s: delete the entry instead (SPMI-HOT-22)",
			v.path, v.entry.path, v.entry.spec.Stat)
	}
	v.refs--
	if v.refs > 0 {
		return nil
	}
	i := v.idx
	hs.entries = append(hs.entries[:i], hs.entries[i+1:]...)
	for j := i; j < len(hs.entries); j++ {
		hs.entries[j].idx = j
	}
	v.detach()
	return nil
}

func (v *HotVals) detach() {
	for _, g := range v.groups {
		g.hs = nil
	}
	v.hs, v.refs = nil, 0
}

// Clear deletes every peer set of the hotset; the hotset stays usable.
func (hs *HotSet) Clear() {
	for _, e := range hs.entries {
		e.detach()
	}
	hs.entries = nil
}

// Free erases the hotset: it deletes every peer set first, then the hotset itself, which refuses
// any further use with SiBadArgument (SpmiFreeHotSet, SPMI-HOT-2).
func (hs *HotSet) Free() {
	hs.Clear()
	hs.freed = true
}

// Read reads every peer set of the hotset at the same time, from one reading of the source
// (SpmiGetHotSet, SPMI-HOT-17). Force works as for statsets (SPMI-HOT-20, SPMI-SET-13): with it
// the source takes a new reading first; without, the hotset ranks the source's current reading if
// it has not yet, and otherwise keeps its results. Exceptions and traps are raised while ranking a
// new reading. Per peer set problems are in each peer set's Err (SPMI-HOT-19); the returned error
// reports only that the source has no reading or could not take one.
func (hs *HotSet) Read(force bool) error {
	if hs.freed {
		return errf(StatusInvalidArg, SiBadArgument, "hotset: the hotset has been freed")
	}
	snap, gen, err := hs.src.acquire(force)
	if err != nil {
		return err
	}
	if snap == nil {
		return errf(StatusNotInitialized, SiNoValue, "hotset: the source has no reading yet")
	}
	if !hs.read || gen != hs.gen {
		t := readingTime(snap)
		if hs.read {
			hs.timeChange = t.Sub(hs.time)
		}
		hs.time, hs.gen, hs.read = t, gen, true
	}
	rgen := hs.reg.Generation()
	for _, e := range hs.entries {
		if e.gen != gen && e.planGen != rgen {
			hs.replan(e, rgen)
		}
	}
	var evs []Event
	hs.reg.Read(func() {
		for _, e := range hs.entries {
			if e.gen != gen {
				evs = hs.evaluate(e, snap, evs)
				e.gen = gen
			}
		}
	})
	if len(evs) > 0 && hs.log != nil {
		hs.log.Add(evs...)
	}
	return nil
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
		if !multi && pc.c.Context() == e.grandpa {
			continue // hosted by the grandparent: all its instances are peers
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

// evaluate ranks one entry on a reading: one pass over the peers' values in the snapshot, in slot
// order, with a bounded selection per peer set. It runs under the registry's read lock.
func (hs *HotSet) evaluate(e *HotVals, snap *Snapshot, evs []Event) []Event {
	t := hs.time
	multi := e.multi()
	e.begin(t)
	for _, g := range e.groups {
		g.begin(t)
	}
	switch {
	case e.grandpa.Deleted(): // begin left the entry and its groups without results
		e.note(SiDeleted, ReasonNone)
		return evs
	case e.planErr != nil:
		e.note(e.planErr.Si, ReasonNone)
		return evs
	}
	for i := range e.plan.peers {
		pc := &e.plan.peers[i]
		cv := snap.Class(pc.c)
		if cv == nil || !cv.Sampled {
			e.note(SiNoValue, ReasonNotSampled)
			continue
		}
		if why := classFailure(cv); why != ReasonNone {
			e.note(why.SiErr(), why)
		}
		// The hot loop: the snapshot's rows in slot order. An instance is dereferenced only when
		// its value ranks among the kept ones (for its name, on ties) or becomes an item.
		nd, di := len(pc.c.Datums), pc.di
		insts, vals, route := cv.Insts, cv.Vals, pc.route
		if route == nil {
			for slot, in := range insts {
				if in == nil {
					continue // a free slot
				}
				if v := &vals[slot*nd+di]; v.State == Valid {
					e.consider(in, v)
				}
			}
			continue
		}
		for slot, in := range insts {
			if in == nil || slot >= len(route) || route[slot].in != in {
				continue // a free slot, not a peer, or an instance newer than the route
			}
			v := &vals[slot*nd+di]
			if v.State != Valid {
				continue
			}
			if multi {
				e.groups[route[slot].g].consider(in, v)
			} else {
				e.consider(in, v)
			}
		}
	}
	if !multi {
		return e.finish(hs, evs)
	}
	for _, g := range e.groups {
		evs = g.finish(hs, evs)
		e.AvailResp += g.AvailResp
		e.Count += g.Count
	}
	return evs
}

// classFailure says why a class's reading failed as a whole, or ReasonNone.
func classFailure(cv *ClassValues) Reason {
	switch {
	case cv.ErrReason != ReasonNone:
		return cv.ErrReason
	case cv.Err != nil:
		return ReasonProviderError
	case cv.Class.Unavailable() != "":
		return ReasonClassUnavailable
	}
	return ReasonNone
}

// begin clears the results before a new ranking and decides whether exceptions may fire now.
func (v *HotVals) begin(t time.Time) {
	v.AvailResp, v.Count, v.Err, v.ErrReason = 0, 0, SiSuccess, ReasonNone
	clear(v.Items) // drop string and instance references of the previous read
	v.Items = v.Items[:0]
	if v.multi() {
		return
	}
	asc := v.spec.Threshold < 0
	v.feed.reset(asc, v.spec.MaxResp)
	v.excDue = v.spec.Except != SiHotNoException &&
		(!v.excFired || t.Sub(v.lastExc) >= time.Duration(v.spec.Frequency)*time.Minute)
	v.exc.reset(asc, v.spec.MaxResp)
}

// note records the first error of a reading on the entry and its groups (SPMI-HOT-19).
func (v *HotVals) note(code SiErr, why Reason) {
	if v.Err == SiSuccess {
		v.Err, v.ErrReason = code, why
	}
	for _, g := range v.groups {
		g.note(code, why)
	}
}

// qualifies applies the threshold (SPMI-HOT-7, AMB-36): strictly above a positive one, strictly
// below the magnitude of a negative one; zero admits every value.
func (v *HotVals) qualifies(x float64) bool {
	switch thr := v.spec.Threshold; {
	case thr > 0:
		return x > thr
	case thr < 0:
		return x < -thr
	}
	return true
}

// consider offers one peer's valid value to the peer set (SPMI-HOT-9, SPMI-HOT-10).
func (v *HotVals) consider(in *Instance, val *Value) {
	x := val.V
	if x != x { // NaN never ranks
		return
	}
	q := v.qualifies(x)
	switch v.spec.Feed {
	case SiHotThreshold:
		if q {
			v.AvailResp++
			if v.feed.wants(x) {
				v.feed.push(hotCand{v: x, in: in, val: val})
			}
		}
	case SiHotAlways:
		v.AvailResp++
		if v.feed.wants(x) {
			v.feed.push(hotCand{v: x, in: in, val: val})
		}
	default:
		if q {
			v.AvailResp++
		}
	}
	if v.excDue && q && v.exc.wants(x) {
		v.exc.push(hotCand{v: x, in: in, val: val})
	}
}

// finish turns the selections into items and events.
func (v *HotVals) finish(hs *HotSet, evs []Event) []Event {
	if v.spec.Feed != SiHotNoFeed {
		for _, c := range v.feed.sorted() {
			v.Items = append(v.Items, HotItem{Name: c.in.Name, Inst: c.in, Val: *c.val})
		}
	}
	v.Count = len(v.Items)
	if v.excDue && len(v.exc.h) > 0 {
		evs = v.raise(hs.time, v.exc.sorted(), evs)
		v.lastExc, v.excFired = hs.time, true
	}
	return evs
}

// raise turns the qualifying peers into exception and trap events (SPMI-HOT-12, SPMI-HOT-15):
// `Disk/sdb busy 50.0/s > 25 severity 3`, and `trap 7: Disk/sdb busy 50.0/s > 25` for traps,
// which are recorded only: no SNMP is sent.
func (v *HotVals) raise(t time.Time, cands []hotCand, evs []Event) []Event {
	stat := v.owner().plan.stat
	op, thr := ">", v.spec.Threshold
	if thr < 0 {
		op, thr = "<", -thr
	}
	for _, c := range cands {
		path := c.in.Path()
		val := strconv.FormatFloat(c.v, 'f', 1, 64)
		if stat.IsCounter() {
			val += "/s"
		}
		text := fmt.Sprintf("%s %s %s %s %s", path, stat.Name, val, op, strconv.FormatFloat(thr, 'f', -1, 64))
		ev := Event{Time: t, Path: path + "/" + stat.Name, Class: c.in.Class.ID, Inst: c.in.ID()}
		if v.spec.Except.Exceptions() {
			ev.Kind, ev.Severity, ev.TrapNo = EvHotException, v.spec.Severity, 0
			ev.Text = fmt.Sprintf("%s severity %d", text, v.spec.Severity)
			evs = append(evs, ev)
		}
		if v.spec.Except.Traps() {
			ev.Kind, ev.Severity, ev.TrapNo = EvHotTrap, 0, v.spec.TrapNo
			ev.Text = fmt.Sprintf("trap %d: %s", v.spec.TrapNo, text)
			evs = append(evs, ev)
		}
	}
	return evs
}

// First returns the first peer set of the hotset, expanding multi-level entries into their peer
// groups (SpmiFirstHot, SPMI-HOT-21, AMB-37), or nil before the first read or when there is none.
func (hs *HotSet) First() *HotVals {
	if !hs.read {
		return nil
	}
	return hs.firstFrom(0)
}

// Next returns the peer set after v in the walk (SpmiNextHot), or nil at the end. Given a
// multi-level entry, it returns the entry's first group.
func (hs *HotSet) Next(v *HotVals) *HotVals {
	if v == nil || v.hs != hs || !hs.read {
		return nil
	}
	if e := v.entry; e != nil {
		if v.idx+1 < len(e.groups) && e.groups[v.idx] == v {
			return e.groups[v.idx+1]
		}
		return hs.firstFrom(e.idx + 1)
	}
	if v.multi() && len(v.groups) > 0 {
		return v.groups[0]
	}
	return hs.firstFrom(v.idx + 1)
}

func (hs *HotSet) firstFrom(i int) *HotVals {
	for ; i < len(hs.entries); i++ {
		e := hs.entries[i]
		switch {
		case !e.multi():
			return e
		case len(e.groups) > 0:
			return e.groups[0]
		}
	}
	return nil
}

// NextItem walks every item of every peer set (SpmiNextHotItem, SPMI-HOT-21): pass a nil peer set
// to start at the first one (index ignored), then feed back the peer set and index it returns.
// It returns the peer set owning the item, the index of the following item in that set, and the
// item, whose Val.V is the decoded value and Name the peer's name; after a set's last item the
// next call moves on to the first item of the next set with items. At the end, or before the
// first read, the peer set is nil.
func (hs *HotSet) NextItem(v *HotVals, index int) (*HotVals, int, *HotItem) {
	if !hs.read {
		return nil, 0, nil
	}
	if v == nil {
		v, index = hs.First(), 0
	} else if v.hs != hs {
		return nil, 0, nil
	}
	for v != nil {
		if index >= 0 && index < len(v.Items) {
			return v, index + 1, &v.Items[index]
		}
		v, index = hs.Next(v), 0
	}
	return nil, 0, nil
}
