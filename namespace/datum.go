package namespace

import (
	"fmt"
)

// PCPDesc is the PCP view of a datum (PCPD-1): type, semantics and units. The instance domain is
// the datum's class (PCPD-16) and the pmid is its metric id.
type PCPDesc struct {
	Type  PMType
	Sem   PMSem
	Units PMUnits
	// Name is the metric's name in PCP's Linux PMDA where it has the same datum
	// (`filesys.full`, `kernel.all.pressure.cpu.some.avg`), so that a remote host's values fill
	// the same statistic; "" where PCP has none.
	Name string
	// PMID and InDom are the metric's own identifiers where the datum is a remote host's PCP
	// metric as pmcd describes it (a host's PCP name space, issue 14): "60.0.13", "60.2".
	PMID, InDom string
	// Host, when set, is the descriptor of the PCP metric the datum is read from, as pminfo -d
	// shows it (the Linux PMDA's on any host, and in any archive pmlogger wrote): describe shows
	// it (issue 39 item 8). Type, Sem and Units stay the datum's own, as dcimon converts to them.
	Host *PMDesc
}

// PMDesc is a PCP metric's type, semantics and units (a pmDesc without its identifiers).
type PMDesc struct {
	Type  PMType
	Sem   PMSem
	Units PMUnits
}

// Datum is one metric of a class, declared once by its provider with every view a person may
// want to inspect: DCI (id, type, units, flags, offset, label), SPMI (name, description, scale,
// counter or quantity, presented type), DCI4 (statistic description) and PCP (descriptor), plus a
// one-line help text and the source it is read from.
type Datum struct {
	// DCI view.
	ID     DatumID
	Type   DataType
	Units  Unit
	Flags  DatumFlags
	Offset uint32 // position in the whole-class block; assigned at registration (DCI-DATA-3)
	Label  Label  // DCI ascii label; the sanitised Name when empty

	// SPMI view.
	Name    string  // short name used in paths; may contain % (AMB-25)
	Desc    string  // description, at most 63 bytes
	Min     float64 // default scale low; for counters a rate per second (SPMI-VAL-3)
	Max     float64 // default scale high
	ValType ValType
	SiType  SiDataType // presented type: SiLong or SiFloat

	// DCI4 and PCP views.
	DCI4 DCI4Desc
	PCP  PCPDesc

	// Documentation.
	Help   string  // one line for people
	Source string  // where the value is read from ("/proc/diskstats field 13, milliseconds")
	TickHz float64 // ticks per second for UMA_TICKS units
	// MaxRate bounds a counter by what the hardware can do: the largest rise per second, in the
	// datum's units (1000 ms/s for one processor's time, 1000 ms/s for a disk's busy time). A
	// larger rise is a discontinuity, never a rate (see Impossible); 0 means no bound beyond
	// the 2^63 rule every counter has.
	MaxRate float64
	// RateBoundBy, when set, names a datum of the same instance whose valid value, times
	// RateBoundScale, bounds this counter's rise per second where it is known, tighter than
	// MaxRate (issue 41 item 10: an interface's bytes by its link speed × 1.05 / 8); where that
	// value is not valid (a virtual interface, a link down) only MaxRate holds.
	RateBoundBy    DatumID
	RateBoundScale float64
	// Aux marks an implementation datum: an argument of derived datums (`usrsys`, `hundred`,
	// `clock_ms`) that the tree, the values pane, `list` and wildcards of `get` leave out unless
	// asked for all (`list --all`); the derived datum's inspector names it (issue 12).
	Aux bool
	// Share is how many seconds per second a time counter's rate is 100% of: 1 for one
	// processor's or one disk's time, the processor count for the CPU totals (mpstat's `all`
	// row). 0 means 1. Only time counters use it (views.MeasureFor).
	Share float64
	// Part marks a time counter as one of the parts that make up the whole of its instance's
	// time (a processor's user, kern, wait, idle, nice, irq, softirq and steal; not guest, which
	// is inside user). The parts of one instance can add up to at most Share × the elapsed time,
	// plus two ticks and 2% (TickSlack, PartSlack): a reading that claims more breaks that invariant,
	// and every part is then an error, never a rate (issue 29).
	Part bool

	// Resolved at registration.
	args   [3]int // indices of a derived datum's arguments in the class, -1 when unused
	setVol bool   // the declaration chose the DCI4 volatility
	setD4  bool   // the declaration chose the DCI4 type, format and presentation
}

// IsDerived reports whether the datum is computed by the consumer (UMA_DERIVED).
func (d *Datum) IsDerived() bool { return d.Type == TypeDerived }

// IsText reports whether the datum's values are text (a string or octet string), which SPMI
// does not present as a statistic type.
func (d *Datum) IsText() bool { return d.Type == TypeTextString || d.Type == TypeOctetString }

// IsCounter reports whether the datum's values are shown as rates (PM_SEM_COUNTER ≡ SiCounter).
func (d *Datum) IsCounter() bool { return d.PCP.Sem == PMSemCounter }

// ArgIndex returns the class index of derived argument n (0..2), or -1.
func (d *Datum) ArgIndex(n int) int { return d.args[n] }

// DisplayLabel is the label to show: the ascii label, else the name, else "#id" (DCI-LBL-2).
func (d *Datum) DisplayLabel() string {
	switch {
	case d.Label.ASCII != "":
		return d.Label.ASCII
	case d.Name != "":
		return d.Name
	}
	return fmt.Sprintf("#%d", uint32(d.ID))
}

// Counter declares an integer counter: shown as a rate per second.
func Counter(id uint8, name string, t DataType, u Unit, desc, source string) Datum {
	return Datum{ID: DatumID(id), Name: name, Type: t, Units: u, Desc: desc, Source: source,
		PCP: PCPDesc{Sem: PMSemCounter}, ValType: SiCounter}
}

// Gauge declares an instantaneous level of a continuous quantity (PM_SEM_INSTANT).
func Gauge(id uint8, name string, t DataType, u Unit, desc, source string) Datum {
	return Datum{ID: DatumID(id), Name: name, Type: t, Units: u, Desc: desc, Source: source,
		PCP: PCPDesc{Sem: PMSemInstant}, ValType: SiQuantity}
}

// Discrete declares a value from a discrete domain that rarely changes (PM_SEM_DISCRETE), read
// once per supplier initialisation unless made variable.
func Discrete(id uint8, name string, t DataType, u Unit, desc, source string) Datum {
	d := Datum{ID: DatumID(id), Name: name, Type: t, Units: u, Desc: desc, Source: source,
		PCP: PCPDesc{Sem: PMSemDiscrete}, ValType: SiQuantity}
	d.DCI4.Volatility = SVStatic
	return d
}

// Text declares a text string (UMA_TEXTSTRING, ST_STRING).
func Text(id uint8, name, desc, source string) Datum {
	return Discrete(id, name, TypeTextString, UnitNone, desc, source)
}

// Derived declares a derived datum: rel is one of the Derived* units, args are the low bytes of
// the argument datums (DCI-DER-1). sem says whether the result is itself a counter (sums and
// differences of counters) or an instantaneous value (ratios).
func Derived(id uint8, name string, rel Unit, sem PMSem, desc string, args ...uint8) Datum {
	var a [3]uint8
	copy(a[:], args)
	d := Datum{ID: Derive(a[0], a[1], a[2], id), Name: name, Type: TypeDerived, Units: rel, Desc: desc,
		PCP: PCPDesc{Sem: sem}, ValType: SiQuantity, SiType: SiFloat}
	if sem == PMSemCounter {
		d.ValType = SiCounter
	}
	return d
}

// InvalidList declares the DCI_INVALIDDATUMID datum that carries an instance's invalid-data list;
// classes flagged DCI_POSSIBLEINVALIDDATA must have it (DCI-CLS-4, DCI-INV-1).
func InvalidList() Datum {
	return Datum{ID: InvalidDatumID, Type: TypeOctetString, Units: UnitNone, Name: "invalid",
		Desc: "Datums not valid for this instance", PCP: PCPDesc{Sem: PMSemDiscrete}, ValType: SiQuantity,
		Flags: DatumQueryable}
}

// WithScale sets the SPMI default scale (SPMI-VAL-3).
func (d Datum) WithScale(min, max float64) Datum { d.Min, d.Max = min, max; return d }

// WithHelp sets the one-line help text.
func (d Datum) WithHelp(h string) Datum { d.Help = h; return d }

// WithVolatility sets the DCI4 volatility.
func (d Datum) WithVolatility(v Volatility) Datum { d.DCI4.Volatility, d.setVol = v, true; return d }

// WithDCI4 sets the DCI4 type, format and presentation (size and name are completed later).
func (d Datum) WithDCI4(t DCI4Type, format, presentation uint32) Datum {
	d.DCI4.Type, d.DCI4.Format, d.DCI4.Presentation, d.setD4 = t, format, presentation, true
	return d
}

// WithTicks sets the tick rate of a UMA_TICKS datum.
func (d Datum) WithTicks(hz float64) Datum { d.TickHz = hz; return d }

// WithAux marks an implementation datum (Datum.Aux).
func (d Datum) WithAux() Datum { d.Aux = true; return d }

// Shown reports whether the datum is listed by default: not the invalid-data list, not Aux.
func (d *Datum) Shown() bool { return d.ID != InvalidDatumID && !d.Aux }

// WithPart marks a time counter as one of the parts of its instance's whole time (Datum.Part).
func (d Datum) WithPart() Datum { d.Part = true; return d }

// WithShare sets the seconds per second a time counter's rate is 100% of (Datum.Share).
func (d Datum) WithShare(n float64) Datum { d.Share = n; return d }

// ShareOrOne is Share, or 1 when it is not set.
func (d *Datum) ShareOrOne() float64 {
	if d.Share > 0 {
		return d.Share
	}
	return 1
}

// WithPCPName names the datum's PCP metric (PCPDesc.Name).
func (d Datum) WithPCPName(name string) Datum { d.PCP.Name = name; return d }

// WithMaxRate bounds a counter's rise per second by what the hardware can do (Datum.MaxRate).
func (d Datum) WithMaxRate(perSec float64) Datum { d.MaxRate = perSec; return d }

// WithRateBound bounds a counter's rise per second by another datum of the same instance, times
// scale, where that datum's value is valid (Datum.RateBoundBy).
func (d Datum) WithRateBound(by DatumID, scale float64) Datum {
	d.RateBoundBy, d.RateBoundScale = by, scale
	return d
}

// complete fills in the views the declaration left out from the cross-standard mapping of the
// checklist (X-1 types, X-2 semantics, X-8 units). It is called at registration.
func (d *Datum) complete() {
	if d.Flags == 0 && d.Type != TypeDerived && d.ID != InvalidDatumID {
		d.Flags = DatumQueryable
	}
	if d.Label.ASCII == "" && d.Name != "" {
		d.Label.ASCII = SanitizeLabel(d.Name)
	}
	if !d.setD4 {
		d.DCI4.Type, d.DCI4.Format, d.DCI4.Presentation = dci4For(d.Type)
	}
	if d.DCI4.Size == 0 {
		d.DCI4.Size = dci4Size(d.DCI4.Type)
	}
	if d.DCI4.Name == "" {
		d.DCI4.Name = d.Name
	}
	if !d.setVol && d.PCP.Sem != PMSemDiscrete {
		d.DCI4.Volatility = SVVolatile
	}
	if d.PCP.Type == 0 {
		d.PCP.Type = pcpTypeFor(d.Type)
	}
	if d.PCP.Sem == 0 { // undeclared: a level (SiCounter is SPMI's zero value, so follow PCP)
		d.PCP.Sem, d.ValType = PMSemInstant, SiQuantity
	}
	if d.PCP.Units.IsZero() {
		d.PCP.Units = PCPUnitsFor(d.Units)
	}
	if d.SiType == SiULong { // the zero value: never presented, so it means "not chosen"
		d.SiType = SiLong
		if d.Type == TypeDerived {
			d.SiType = SiFloat
		}
	}
}

// dci4For maps a UMA type to its DCI4 description.
func dci4For(t DataType) (DCI4Type, uint32, uint32) {
	switch t {
	case TypeInt4:
		return STInteger32, 0, SIPDecimal
	case TypeUint4:
		return STInteger32, SIFUnsigned, SIPDecimal
	case TypeInt8:
		return STInteger64, 0, SIPDecimal
	case TypeUint8:
		return STInteger64, SIFUnsigned, SIPDecimal
	case TypeBoolean:
		return STBoolean, SBFNormal, SBPTrueFalse
	case TypeTextString:
		return STString, SSFZeroTerm, SSPLiteral
	case TypeTimeval, TypeTimespec:
		return STTime, STFCTime, STPAbsolute
	}
	return STUnused, 0, 0
}

func dci4Size(t DCI4Type) uint32 {
	switch t {
	case STBoolean, STInteger8, STInteger16, STInteger32:
		return 4
	case STInteger64, STTime, STAddress:
		return 8
	case STString:
		return 64
	}
	return 0
}

// pcpTypeFor maps a UMA type to a PCP type (X-1, PCPD-4: narrow integers promote to 32 bits).
func pcpTypeFor(t DataType) PMType {
	switch t {
	case TypeInt4:
		return PMType32
	case TypeUint4:
		return PMTypeU32
	case TypeInt8:
		return PMType64
	case TypeUint8:
		return PMTypeU64
	case TypeBoolean:
		return PMTypeU32
	case TypeTextString:
		return PMTypeString
	case TypeOctetString:
		return PMTypeAggregate
	case TypeTimeval, TypeTimespec:
		return PMType64
	case TypeDerived:
		return PMTypeDouble
	}
	return PMTypeAggregate
}

// PCPUnitsFor maps a UMA unit to PCP units: sizes and times to their dimension and scale,
// counts to dimCount 1, UMA_NOUNITS to nothing. Picoseconds have no PCP scale and map to
// nanoseconds (values are divided by 1000 in the PCP view); ticks map to milliseconds only when
// the tick rate is known, so they are given as a count here.
func PCPUnitsFor(u Unit) PMUnits {
	switch u {
	case UnitBytes:
		return PMUnits{DimSpace: 1, ScaleSpace: PMSpaceByte}
	case UnitKBytes:
		return PMUnits{DimSpace: 1, ScaleSpace: PMSpaceKByte}
	case UnitMBytes:
		return PMUnits{DimSpace: 1, ScaleSpace: PMSpaceMByte}
	case UnitGBytes:
		return PMUnits{DimSpace: 1, ScaleSpace: PMSpaceGByte}
	case UnitTBytes:
		return PMUnits{DimSpace: 1, ScaleSpace: PMSpaceTByte}
	case UnitSecs:
		return PMUnits{DimTime: 1, ScaleTime: PMTimeSec}
	case UnitMillisecs:
		return PMUnits{DimTime: 1, ScaleTime: PMTimeMSec}
	case UnitMicrosecs:
		return PMUnits{DimTime: 1, ScaleTime: PMTimeUSec}
	case UnitNanosecs, UnitPicosecs:
		return PMUnits{DimTime: 1, ScaleTime: PMTimeNSec}
	case UnitNone, 0:
		return PMUnits{}
	case UnitMicroUnits:
		return PMUnits{DimCount: 1, ScaleCount: -6}
	}
	switch u.Kind() {
	case KindCount, KindHardware, KindTime:
		return PMUnits{DimCount: 1}
	}
	return PMUnits{}
}

// validate checks one datum on its own; class-level rules are in Class.validate.
func (d *Datum) validate() error {
	low := d.ID.Low()
	switch {
	case d.ID == 0:
		return fmt.Errorf("datum id 0 is the reserved delimiter (DCI-NS-6)")
	case d.ID == AllData:
		return fmt.Errorf("datum id 0xffffffff is the DCI_ALL wildcard (DCI-NS-6)")
	case d.ID == InvalidDatumID:
		// the invalid-data list itself
	case low == 0:
		return fmt.Errorf("datum %s: low byte 0 is not a valid id (DCI-DER-1)", d.ID)
	case low > MaxOrdinaryLow:
		return fmt.Errorf("datum %s uses reserved low byte 0x%02x (%s): ordinary metrics use 0x01-0xe7 (DCI-NS-7, AMB-19)",
			d.ID, low, DatumID(low).ReservedName())
	case d.Type != TypeDerived && d.ID > 0xff:
		return fmt.Errorf("datum %s: only derived datums may use the argument bytes (DCI-DER-1)", d.ID)
	}
	if d.Type == 0 || d.Type > TypeClassData {
		return fmt.Errorf("datum %s: unknown data type %d", d.ID, uint32(d.Type))
	}
	if d.ID != InvalidDatumID {
		if err := ValidateName(d.Name); err != nil {
			return fmt.Errorf("datum %s: %v (SPMI-HIER-3)", d.ID, err)
		}
	}
	if err := ValidateDescription(d.Desc); err != nil {
		return fmt.Errorf("datum %s (%s): %v (SPMI-HIER-3)", d.ID, d.Name, err)
	}
	if err := ValidateLabel(d.Label.ASCII); err != nil {
		return fmt.Errorf("datum %s: %v (DCI-LBL-4)", d.ID, err)
	}
	if d.Type == TypeDerived {
		if !d.Units.IsDerivation() {
			return fmt.Errorf("datum %s (%s): UMA_DERIVED needs a UMA_DERIVED_* unit, not %s (DCI-UNIT-7)", d.ID, d.Name, d.Units)
		}
	} else if d.Units.IsDerivation() {
		return fmt.Errorf("datum %s (%s): unit %s is only valid with UMA_DERIVED (DCI-UNIT-7)", d.ID, d.Name, d.Units)
	}
	if d.IsCounter() && d.Type != TypeDerived && !d.Type.IsInteger() {
		return fmt.Errorf("datum %s (%s): a counter must be an integer type, not %s (DCI-TYPE-1, AMB-30)", d.ID, d.Name, d.Type)
	}
	if d.PCP.Type == PMTypeUnknown {
		return fmt.Errorf("datum %s (%s): PM_TYPE_UNKNOWN is never valid in a descriptor (PCPD-2)", d.ID, d.Name)
	}
	if d.PCP.Sem != PMSemCounter && d.PCP.Sem != PMSemInstant && d.PCP.Sem != PMSemDiscrete {
		return fmt.Errorf("datum %s (%s): unknown semantics %d (PCPD-3)", d.ID, d.Name, d.PCP.Sem)
	}
	if (d.PCP.Sem == PMSemCounter) != (d.ValType == SiCounter) {
		return fmt.Errorf("datum %s (%s): PCP semantics %s and SPMI %s disagree (X-2)", d.ID, d.Name, d.PCP.Sem, d.ValType)
	}
	if _, err := d.PCP.Units.Pack(); err != nil {
		return fmt.Errorf("datum %s (%s): %v (PCPD-7)", d.ID, d.Name, err)
	}
	if !d.SiType.Presentable() && d.ID != InvalidDatumID && d.Type != TypeTextString && d.Type != TypeOctetString {
		return fmt.Errorf("datum %s (%s): SPMI presents only SiLong or SiFloat, not %s (SPMI-VAL-2)", d.ID, d.Name, d.SiType)
	}
	if d.DCI4.Size%4 != 0 {
		return fmt.Errorf("datum %s (%s): DCI4 size %d is not a multiple of 4 (DCI4-DESC-2)", d.ID, d.Name, d.DCI4.Size)
	}
	if w := d.DCI4.Type.IntWidth(); w > 0 && uint32(w) > d.DCI4.Size {
		return fmt.Errorf("datum %s (%s): DCI4 size %d cannot hold a %d-byte integer", d.ID, d.Name, d.DCI4.Size, w)
	}
	if d.Min > d.Max {
		return fmt.Errorf("datum %s (%s): scale min %g above max %g (SPMI-VAL-3)", d.ID, d.Name, d.Min, d.Max)
	}
	if d.Units == UnitTicks && d.TickHz <= 0 {
		return fmt.Errorf("datum %s (%s): UMA_TICKS needs a tick rate (DCI-UNIT-3)", d.ID, d.Name)
	}
	return nil
}
