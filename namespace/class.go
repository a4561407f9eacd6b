package namespace

import (
	"fmt"
	"slices"
	"sync/atomic"
	"time"
)

// InstLevel is one level of a class's instance identifier (DCIInstLevel, DCI-NS-5).
type InstLevel struct {
	Type DataType // UMA_UINT4 or UMA_UINT8 in practice
	Tag  InstTag
	Size uint32 // bytes, a multiple of 4
}

// Method is a provider method descriptor (DCI-MTH-1); a zero Method is "no method" (DCI-CLS-6).
type Method struct {
	Type MethodType
	Ops  Operation // operations the provider answers (DCI-MTH-2, DCI-MTH-3)
}

// EventDataAttr describes one piece of event data (DCIEventDataAttr, DCI-EVT-8).
type EventDataAttr struct {
	Type   DataType
	Units  Unit
	Offset uint32
	Label  Label
}

// EventAttr describes an event a class may raise (DCI-CLS-1, DCI-EVT-*).
type EventAttr struct {
	ID    DatumID
	Flags EventHdrFlags // the provider's capability mask (DCI-EVT-6)
	Label Label
	Data  []EventDataAttr
}

// Attr is a named attribute for people (an instance's device number, serial or label, a class
// extension such as a format string, DCI-CLS-7).
type Attr struct {
	Key, Value string
}

// Class is a DCI class: an uninstantiated position in the tree (no levels, no data) or an
// instantiated class with instance levels, datums and instances (DCI-NS-3). Its SPMI view is a
// context; see Registry for the mapping (AMB-51).
type Class struct {
	ID         ClassID
	Name       string // SPMI context name (≤31 bytes)
	Desc       string // SPMI description (≤63 bytes)
	Help       string
	Label      Label // DCI label; the sanitised Name when empty
	Flags      ClassFlags
	Access     string // access descriptor, "" = none (DCI-CLS-8)
	Method     Method
	Levels     []InstLevel
	Datums     []Datum
	Events     []EventAttr
	Extensions []Attr
	// Labels are the labels every value of the class has, as its supplier gave them (a user's
	// series of one label set, `hostname="web1"`), any bytes: the export writes them back; every
	// view escapes them. An instance's own are Instance.Labels.
	Labels   []Attr
	Supplier *Supplier

	// InstFreq is how the instances of an instantiated class change (SPMI-INST-3).
	InstFreq InstFreq
	// Totals puts the statistics of a single-instance class into its parent's SPMI context
	// (CPU totals are statistics of `CPU`, whose subcontexts are the processors, AMB-51).
	Totals bool
	// NestUnder places each instance of a multi-level class, in the SPMI view, under the
	// instance of the named class whose level-0 value is the same (partitions under disks).
	NestUnder ClassID
	// OnDemand classes are read only while someone subscribes to them (a pane on screen, a
	// hotset, a command naming them): never in the sampler's slow read of everything else
	// (SPMI-DDS-6). A host's processes cost milliseconds to read; nobody pays that unasked.
	OnDemand bool
	// Lazy marks a class of a name space read as it is explored (a remote host's PCP name
	// space): it is OnDemand too, and is read alone, never with the rest of its family. An
	// uninstantiated lazy class is subscribed to as well: its provider then lists what lies
	// below it, and the classes it finds are registered after that collection (collect.Grower).
	Lazy bool
	// Churn marks a class whose instances come and go too often for each to be an event
	// (processes): they are added and removed as any other, but the event log is not told, so
	// a busy build host's short-lived processes do not push everything else out of it.
	Churn bool
	// Shared marks a context (an uninstantiated class) that several suppliers may declare, such
	// as `DDS` and a vendor's `DDS/<vendor>`: the sampler registers it with the first supplier
	// that declares it and removes it with the last (SPMI-DDS-2: adding a vendor context is
	// idempotent). Two suppliers declaring any other class is SiDuplicate.
	Shared bool

	// What the datums compile to (tables), shared by every class of the same declaration
	// (CloneDecl), and the registry-owned state.
	*tables
	// sharesTables says the tables are a compiled declaration's, shared (CloneDecl).
	sharesTables bool
	reg          *Registry
	index        int
	ctx          *Context // where this class's instances (or its own context) hang in the SPMI tree
	slots        []*Instance
	free         []int
	// An instance is found by its levels: in byOne when it has one (most classes: a map of 8-byte
	// keys, not of instKey's 40), else in byKey, made when first needed.
	byOne map[uint64]*Instance
	byKey map[instKey]*Instance
}

// tables are what a class's datums compile to (Compile): the lookups by low byte and name, the
// derived datums' order, the parts, the block size and how Next treats each datum. They depend on
// the datums alone, so the classes that share one declaration's datums (a fleet's hosts) share
// them too (issue 38 item 1: declared once).
type tables struct {
	datums   *Datum // the first of the datums compiled; with n, says which slice they are of
	n        int
	byLow    [256]int16
	byName   map[string]int
	derivOrd []int
	parts    []int // the Part datums, whose interval deltas add up to at most the elapsed time
	block    uint32
	steps    []datumStep // how Next treats each datum (cells.go)
	derivs   []derivStep // the derived datums' formulas, in derivOrd's order
	textAt   []int       // each datum's place among the text datums (planString), -1 for the others
	nText    int         // how many text datums
	// textDatums are the text datums' indices, in their order among them.
	textDatums []int
	// hasInvalid says a datum is DCI_INVALIDDATUMID, the instance's invalid-data list.
	hasInvalid bool
}

// noTables are a class's before it is compiled: zero, as the tables were before they were shared
// (every low byte then reads as the first datum's; collect/pcp's archive reading of dcimon's own
// names relies on it before registration, see issue 38's report).
var noTables = &tables{}

// emptyTables are the tables of every class without datums (an uninstantiated class), never
// written to.
var emptyTables = func() *tables {
	t := &tables{}
	for i := range t.byLow {
		t.byLow[i] = -1
	}
	return t
}()

// datumPlan is the per-datum decision Next would otherwise re-derive for every value.
type datumPlan uint8

const (
	planDerived datumPlan = iota
	planNotQueryable
	planString
	planLevel
	planCounterU32
	planCounterI32
	planCounterI64
	planCounterU64
)

func planFor(d *Datum) datumPlan {
	switch {
	case d.IsDerived():
		return planDerived
	case d.Flags&DatumQueryable == 0 && d.ID != InvalidDatumID:
		return planNotQueryable
	case !d.Type.IsNumeric():
		return planString
	case !d.IsCounter():
		return planLevel
	case d.Type == TypeUint4:
		return planCounterU32
	case d.Type == TypeInt4:
		return planCounterI32
	case d.Type == TypeInt8:
		return planCounterI64
	}
	return planCounterU64
}

// Index is the class's dense index in its registry, used to address snapshot values.
func (c *Class) Index() int { return c.index }

// Instantiated reports whether the class has instances and data (DCI-NS-3).
func (c *Class) Instantiated() bool { return len(c.Levels) > 0 }

// SingleInstance reports whether the class has exactly one instance of value 0 (DCI-NS-4).
func (c *Class) SingleInstance() bool { return len(c.Levels) == 1 && c.Levels[0].Tag == TagSingleInst }

// InstanceSize is the byte size of an instance id: the sum of level sizes (DCI-NS-5).
func (c *Class) InstanceSize() uint32 {
	var n uint32
	for _, l := range c.Levels {
		n += l.Size
	}
	return n
}

// BlockSize is the size of the whole-class data block of one instance (DCI-DATA-3).
func (c *Class) BlockSize() uint32 { return c.tab().block }

// tab is the class's compiled tables, or noTables before it is compiled.
func (c *Class) tab() *tables {
	if c.tables == nil {
		return noTables
	}
	return c.tables
}

// Datum returns the datum with the given low byte, or nil.
func (c *Class) Datum(low uint8) *Datum {
	if i := c.tab().byLow[low]; i >= 0 {
		return &c.Datums[i]
	}
	return nil
}

// DatumIndex returns the index of the datum with the given id, or -1. A bare low byte names a
// derived datum too, since low bytes are unique in the class (DCI-DER-1). Only a compiled
// class (registered, or Compile) answers truly.
func (c *Class) DatumIndex(id DatumID) int {
	i := int(c.tab().byLow[id.Low()])
	if i >= 0 && c.Datums[i].ID != id && id > 0xff {
		return -1
	}
	return i
}

// DatumByName returns the index of the datum whose SPMI name or DCI label is s, or -1
// (search accepts either form, X-7).
func (c *Class) DatumByName(s string) int {
	if i, ok := c.tab().byName[s]; ok {
		return i
	}
	return -1
}

// Context is the class's SPMI context: its own for an uninstantiated or stand-alone class,
// the parent's for totals and for multi-instance classes.
func (c *Class) Context() *Context { return c.ctx }

// Unavailable reports why the class is not sampled, or "" (DCI-CLS-2).
func (c *Class) Unavailable() string { return c.Flags.Unavailable() }

// Instance is one instance of an instantiated class.
type Instance struct {
	Class  *Class
	Levels []uint64 // one value per class level
	Name   string   // SPMI name: the OS name made safe and short (InstanceName)
	OSName string   // the name the operating system uses, any bytes
	Label  Label
	Flags  InstFlags
	// removed sits in the 4 bytes Flags leaves before the next word: 240 bytes an instance, not 248
	// and the allocator's 256.
	removed atomic.Bool // read by the UI without the registry lock (handles see SiDeleted)
	Access  string
	Desc    string
	Attrs   []Attr
	// Labels are the instance's labels as its supplier gave them (a user's series: its label
	// set, `v="slash/path"`), any bytes: the export writes them back unchanged, and every view
	// escapes them.
	Labels []Attr
	Added  time.Time

	slot int
	ctx  *Context
	seen uint64
}

// Slot is the instance's position in its class's snapshot values, stable while it lives.
func (in *Instance) Slot() int { return in.slot }

// ID is the concrete instance identifier.
func (in *Instance) ID() InstanceID { return Inst(in.Levels...) }

// Context is the instance's SPMI context (for a single-instance class, the class's context).
func (in *Instance) Context() *Context { return in.ctx }

// Removed reports whether the instance has gone (SPMI-HIER-11: handles to it see SiDeleted).
func (in *Instance) Removed() bool { return in.removed.Load() }

// Path is the SPMI path of the instance's context.
func (in *Instance) Path() string {
	if in.ctx == nil {
		return in.Name
	}
	return in.ctx.Path()
}

// InstanceSpec is what a provider says about an instance it sees.
type InstanceSpec struct {
	Levels []uint64
	OSName string
	ASN    uint16 // preferred SPMI number (OS index + 1); 0 = allocate (AMB-45)
	Desc   string
	Flags  InstFlags
	Attrs  []Attr
	// Labels are the supplier's own labels of the instance (Instance.Labels), any bytes. The
	// registry keeps the slice given, not a copy (a large text's label sets are kept once, issue
	// 38 item 3): it must never be changed afterwards.
	Labels []Attr
	// Label is the instance's DCI label when it is not its name (a process's command name,
	// while its name is its PID); sanitised like any label.
	Label string
	// Parent, when set, is the level values of an instance of the same class under which this
	// one hangs in the SPMI tree (a control group under its parent group). A spec comes after
	// its parent's in the provider's list; an instance whose parent is not there is an error.
	Parent []uint64
}

type instKey struct {
	n int
	v [4]uint64
}

// lookup is the instance with these levels, or one whose levels fold to the same key (the caller
// compares them), or nil.
func (c *Class) lookup(levels []uint64) *Instance {
	if len(levels) == 1 {
		return c.byOne[levels[0]]
	}
	return c.byKey[keyOf(levels)]
}

// keep makes the instance found by its levels.
func (c *Class) keep(in *Instance) {
	if len(in.Levels) == 1 {
		c.byOne[in.Levels[0]] = in
		return
	}
	if c.byKey == nil {
		c.byKey = map[instKey]*Instance{}
	}
	c.byKey[keyOf(in.Levels)] = in
}

// drop forgets the instance of these levels.
func (c *Class) drop(levels []uint64) {
	if len(levels) == 1 {
		delete(c.byOne, levels[0])
		return
	}
	delete(c.byKey, keyOf(levels))
}

func keyOf(levels []uint64) instKey {
	k := instKey{n: len(levels)}
	for i, v := range levels {
		if i < 3 || len(levels) == 4 {
			k.v[i] = v
			continue
		}
		k.v[3] = k.v[3]*1099511628211 ^ v // FNV-style fold of levels 4..n; hits are re-checked
	}
	return k
}

// validate checks the class-level rules before registration.
func (c *Class) validate() error {
	if len(c.ID) == 0 {
		return fmt.Errorf("class has an empty id")
	}
	if c.ID.IsQuery() {
		return fmt.Errorf("class id %s contains DCI_ALL, which is only valid in queries (DCI-WC-1)", c.ID)
	}
	if err := ValidateName(c.Name); err != nil {
		return fmt.Errorf("class %s: %v (SPMI-HIER-3)", c.ID, err)
	}
	if err := ValidateDescription(c.Desc); err != nil {
		return fmt.Errorf("class %s: %v", c.ID, err)
	}
	if err := ValidateLabel(c.Label.ASCII); err != nil {
		return fmt.Errorf("class %s: %v (DCI-LBL-4)", c.ID, err)
	}
	if last := c.ID[len(c.ID)-1]; last == 0 || last > 0xffff {
		return fmt.Errorf("class %s: last level %d must be 1..65535, it is the SPMI ASN.1 number (SPMI-ASN-1)", c.ID, last)
	}
	if !c.Instantiated() {
		if len(c.Datums) > 0 || len(c.Events) > 0 {
			return fmt.Errorf("class %s has data but no instance levels: uninstantiated classes are positions only (DCI-NS-3)", c.ID)
		}
		return nil
	}
	if len(c.Levels) > MaxInstLevels {
		return fmt.Errorf("class %s has %d instance levels, at most %d (DCI-NS-5)", c.ID, len(c.Levels), MaxInstLevels)
	}
	for i, l := range c.Levels {
		if l.Size == 0 || l.Size%4 != 0 {
			return fmt.Errorf("class %s level %d: size %d is not a positive multiple of 4 (DCI-NS-5)", c.ID, i, l.Size)
		}
		if l.Tag == TagSingleInst && len(c.Levels) != 1 {
			return fmt.Errorf("class %s: UMA_SINGLEINST must be the only level (DCI-NS-4)", c.ID)
		}
	}
	if c.Flags&ClassProviderInstance != 0 && c.Method.Type == MethodNone {
		return fmt.Errorf("class %s: DCI_PROVIDER_INSTANCE needs a class method (DCI-CLS-3)", c.ID)
	}
	if c.Method.Type > MethodCallback {
		return fmt.Errorf("class %s: unknown method type %d (DCI-MTH-1)", c.ID, uint32(c.Method.Type))
	}
	if bad := c.Method.Ops &^ c.Method.Type.ValidOps(); c.Method.Type != MethodNone && bad != 0 {
		return &Error{Status: StatusMethodOpUnavailable, Msg: fmt.Sprintf("class %s: method %s cannot offer %s (DCI-MTH-3)", c.ID, c.Method.Type, bad)}
	}
	if len(c.Datums) == 0 {
		return fmt.Errorf("class %s is instantiated but declares no datums", c.ID)
	}
	if c.Totals && !c.SingleInstance() {
		return fmt.Errorf("class %s: only a single-instance class can hold its parent's totals", c.ID)
	}
	return nil
}

// DescriptorsDiffer reports whether a class declared again by its supplier (fresh, the same
// class id) describes its datums otherwise than the registered one (old): another type width,
// unit, scale, semantics or DCI4 description (PCPD-13: descriptors can change at run time, a
// consumer must follow). fresh is not changed; its datums are completed on a copy first.
func DescriptorsDiffer(old, fresh *Class) bool {
	if len(old.Datums) != len(fresh.Datums) {
		return true
	}
	for i := range fresh.Datums {
		d := fresh.Datums[i]
		d.complete()
		o := &old.Datums[i]
		if d.ID != o.ID || d.Name != o.Name || d.Type != o.Type || d.Units != o.Units || d.PCP != o.PCP ||
			d.DCI4 != o.DCI4 || d.TickHz != o.TickHz || d.Min != o.Min || d.Max != o.Max || d.Share != o.Share {
			return true
		}
	}
	return false
}

// Compile completes and validates the class's datums and builds its tables (lookups by low byte
// and name, the derived datums' order, the data block), as registration does. A declaration that
// many classes share (CloneDecl: a fleet's hosts) is compiled once, before it is cloned, by one
// goroutine; its clones are then registered without writing to the datums they share.
func (c *Class) Compile() error { return c.prepare() }

// CloneDecl is another class of c's declaration, for another place in the tree (another host's
// CPU): its datums, their compiled tables, levels, events and labels shared with c, not copied;
// its id, nesting and extensions its own; none of a registry's state. c must be compiled
// (Compile) and its datums must not change after; the clone is not compiled again when it is
// registered (issue 38 item 1: a class is declared once per schema).
func (c *Class) CloneDecl() *Class {
	n := &Class{ID: slices.Clone(c.ID), Name: c.Name, Desc: c.Desc, Help: c.Help, Label: c.Label, Flags: c.Flags,
		Access: c.Access, Method: c.Method, Levels: c.Levels, Datums: c.Datums, Events: c.Events,
		Extensions: slices.Clone(c.Extensions), Labels: c.Labels, Supplier: c.Supplier, InstFreq: c.InstFreq,
		Totals: c.Totals, NestUnder: slices.Clone(c.NestUnder), OnDemand: c.OnDemand, Lazy: c.Lazy, Churn: c.Churn,
		Shared: c.Shared}
	if c.compiledFor() {
		n.tables, n.sharesTables = c.tables, true
	}
	return n
}

// compiledFor says the class's tables are those of its datums as they are now.
func (c *Class) compiledFor() bool {
	t := c.tables
	return t != nil && len(c.Datums) > 0 && t.datums == &c.Datums[0] && t.n == len(c.Datums)
}

// prepare completes and validates the datums and builds the lookup tables; a clone of a compiled
// declaration keeps the tables it shares (its datums are complete already) and checks only what
// is its own.
func (c *Class) prepare() error {
	if c.Label.ASCII == "" {
		c.Label.ASCII = SanitizeLabel(c.Name)
	}
	if !c.sharesTables || !c.compiledFor() {
		c.sharesTables = false
		if err := c.compile(); err != nil {
			return err
		}
	}
	for _, e := range c.Events {
		if c.byLow[e.ID.Low()] >= 0 {
			return fmt.Errorf("class %s: event %s shares its id with a polled datum (DCI-NS-6)", c.ID, e.ID)
		}
	}
	if c.Flags&ClassPossibleInvalidData != 0 && !c.hasInvalid {
		return fmt.Errorf("class %s: DCI_POSSIBLEINVALIDDATA needs the DCI_INVALIDDATUMID datum (DCI-CLS-4)", c.ID)
	}
	return nil
}

// compile completes and validates the datums and builds the tables of them.
func (c *Class) compile() error {
	if len(c.Datums) == 0 {
		c.tables = emptyTables // a position only (or a class that validate refuses)
		return nil
	}
	t := &tables{datums: &c.Datums[0], n: len(c.Datums), byName: make(map[string]int, 2*len(c.Datums))}
	c.tables = t
	for i := range t.byLow {
		t.byLow[i] = -1
	}
	var off uint32
	for i := range c.Datums {
		d := &c.Datums[i]
		d.complete()
		if err := d.validate(); err != nil {
			return fmt.Errorf("class %s: %w", c.ID, err)
		}
		low := d.ID.Low()
		if t.byLow[low] >= 0 {
			return fmt.Errorf("class %s: datum %s repeats low byte 0x%02x of %s (DCI-NS-6, DCI-DER-1)", c.ID, d.ID, low, c.Datums[t.byLow[low]].ID)
		}
		t.byLow[low] = int16(i)
		if d.ID == InvalidDatumID {
			t.hasInvalid = true
		}
		if d.Name != "" {
			if _, dup := t.byName[d.Name]; dup {
				return &Error{Status: StatusDuplicate, Si: SiDuplicate, Msg: fmt.Sprintf("class %s: two statistics named %q (SPMI-HIER-10)", c.ID, d.Name)}
			}
			t.byName[d.Name] = i
		}
		if d.Type != TypeDerived {
			d.Offset = off
			sz := d.DCI4.Size
			if s := d.Type.Size(); s > 0 {
				sz = uint32(s)
			}
			off += (sz + 3) &^ 3
		}
	}
	for i := range c.Datums {
		if l := c.Datums[i].Label.ASCII; l != "" {
			if _, taken := t.byName[l]; !taken {
				t.byName[l] = i
			}
		}
	}
	t.block = off
	t.steps = make([]datumStep, len(c.Datums))
	t.textAt, t.nText = make([]int, len(c.Datums)), 0
	for i := range c.Datums {
		t.steps[i] = stepFor(&c.Datums[i])
		t.textAt[i] = -1
		if t.steps[i].plan == planString {
			t.textAt[i], t.nText = t.nText, t.nText+1
			t.textDatums = append(t.textDatums, i)
		}
	}
	if err := c.resolveDerived(); err != nil {
		return err
	}
	t.derivs = derivSteps(c.Datums, c.derivOrd)
	return nil
}

// resolveDerived resolves every derived datum's arguments to class indices and orders the
// derived datums so arguments that are themselves derived come first (DCI-DER-1, DCI-DER-5).
func (c *Class) resolveDerived() error {
	state := make([]uint8, len(c.Datums)) // 0 new, 1 visiting, 2 done
	c.derivOrd = c.derivOrd[:0]
	c.parts = c.parts[:0]
	for i := range c.Datums {
		if c.Datums[i].Part && c.Datums[i].IsCounter() && !c.Datums[i].IsDerived() {
			c.parts = append(c.parts, i)
		}
	}
	var visit func(i int) error
	visit = func(i int) error {
		d := &c.Datums[i]
		switch state[i] {
		case 1:
			return fmt.Errorf("class %s: derived datum %s (%s) depends on itself", c.ID, d.ID, d.Name)
		case 2:
			return nil
		}
		state[i] = 1
		a1, a2, a3 := d.ID.Args()
		d.args = [3]int{-1, -1, -1}
		for n, a := range [3]uint8{a1, a2, a3} {
			if n >= d.Units.Args() {
				if a != 0 {
					return fmt.Errorf("class %s: derived datum %s (%s): %s takes %d arguments, argument %d is set", c.ID, d.ID, d.Name, d.Units, d.Units.Args(), n+1)
				}
				continue
			}
			j := int(c.byLow[a])
			if a == 0 || j < 0 || c.Datums[j].ID == InvalidDatumID {
				return fmt.Errorf("class %s: derived datum %s (%s): argument %d low byte 0x%02x names no datum of the class: invalid derivation (DCI-DER-5)", c.ID, d.ID, d.Name, n+1, a)
			}
			arg := &c.Datums[j]
			if !arg.Type.IsNumeric() && !arg.IsDerived() {
				return fmt.Errorf("class %s: derived datum %s (%s): argument %s is %s, not a number", c.ID, d.ID, d.Name, arg.Name, arg.Type)
			}
			if arg.IsDerived() {
				if err := visit(j); err != nil {
					return err
				}
			}
			d.args[n] = j
		}
		state[i] = 2
		c.derivOrd = append(c.derivOrd, i)
		return nil
	}
	for i := range c.Datums {
		if c.Datums[i].IsDerived() {
			if err := visit(i); err != nil {
				return err
			}
		}
	}
	return nil
}

// ClassDiffers says a class declared again is not the registered one: its datums are described
// otherwise, or its name, description or way of being instantiated changed.
func ClassDiffers(old, fresh *Class) bool {
	return old.Name != fresh.Name || old.Desc != fresh.Desc || old.Help != fresh.Help ||
		old.Instantiated() != fresh.Instantiated() || old.SingleInstance() != fresh.SingleInstance() ||
		!slices.Equal(old.Labels, fresh.Labels) || DescriptorsDiffer(old, fresh)
}
