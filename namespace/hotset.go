package namespace

import (
	"strconv"
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
	src        *Reading
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
	// Format, when set, writes a value or threshold of the statistic the way the monitor shows
	// it (`94.0%`, `12.4 MiB/s`) in exception and trap texts; nil writes the bare number. It is
	// presentation only: it takes no part in comparing specifications.
	Format func(v float64) string
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
	// fleet marks a peer set whose grandparent path has a wildcard (`*/Disk`): the peers of every
	// matching context are ranked together, across hosts (issue 14); grandpa is then Top.
	fleet bool
	refs  int
	idx   int      // position among the hotset's entries; for a group, among its entry's groups
	entry *HotVals // the entry a group belongs to; nil for an entry
	gen   uint64   // the source reading the entry was last evaluated on

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
func NewHotSet(reg *Registry, src *Reading, log *EventLog) *HotSet {
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

// StatClass is the class of the first peers carrying the statistic (nil before a plan): the
// class a derived statistic's units come from.
func (v *HotVals) StatClass() *Class {
	if p := v.owner().plan.peers; len(p) > 0 {
		return p[0].c
	}
	return nil
}

// PeerClasses are the classes whose instances are ranked (a fleet peer set's span hosts); the
// slice is new.
func (v *HotVals) PeerClasses() []*Class {
	peers := v.owner().plan.peers
	out := make([]*Class, 0, len(peers))
	for _, p := range peers {
		out = append(out, p.c)
	}
	return out
}

// Fleet reports whether the peer set ranks the peers of several contexts together (a grandparent
// path with a wildcard, `*/Disk`).
func (v *HotVals) Fleet() bool { return v.owner().fleet }

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
	if isFleet(spec) {
		return hs.addFleet(spec)
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
		if !e.fleet && e.grandpa == gp && e.plan.stat != nil && e.plan.stat.Name == plan.stat.Name && sameParams(e.spec, spec) {
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

// Statistic resolves what Add would rank without adding anything: the statistic named stat in
// the peers below grandpa (relative to from), and the class of the first peers that carry it.
// The commands and the monitor use it to take a threshold in the units the statistic is shown in
// (issue 12). Its errors are Add's.
func (hs *HotSet) Statistic(from *Context, grandpa, stat string) (*Class, *Datum, error) {
	if isFleet(HotSpec{Grandpa: grandpa, From: from}) {
		plan, perr := planFleet(hs.reg, grandpa, stat)
		if perr != nil {
			return nil, nil, perr
		}
		return plan.peers[0].c, plan.stat, nil
	}
	ref, err := hs.reg.Lookup(from, grandpa)
	if err != nil {
		return nil, nil, err
	}
	if ref.IsStat() {
		return nil, nil, errf(StatusInvalidArg, SiBadArgument, "hotset: GrandParent %q names a statistic, not a context", grandpa)
	}
	plan, perr := planHot(hs.reg, ref.Ctx, stat)
	if perr != nil {
		return nil, nil, perr
	}
	return plan.peers[0].c, plan.stat, nil
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
