package namespace

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"dcimon/pcpwire"
)

// PMType is a PCP metric value type (PCPD-2), with PCP's numbers.
type PMType int

// PCP types.
const (
	PMTypeNoSupport       PMType = -1
	PMType32              PMType = 0
	PMTypeU32             PMType = 1
	PMType64              PMType = 2
	PMTypeU64             PMType = 3
	PMTypeFloat           PMType = 4
	PMTypeDouble          PMType = 5
	PMTypeString          PMType = 6
	PMTypeAggregate       PMType = 7
	PMTypeAggregateStatic PMType = 8
	PMTypeUnknown         PMType = 255
)

func (t PMType) String() string {
	switch t {
	case PMTypeNoSupport:
		return "PM_TYPE_NOSUPPORT"
	case PMType32:
		return "PM_TYPE_32"
	case PMTypeU32:
		return "PM_TYPE_U32"
	case PMType64:
		return "PM_TYPE_64"
	case PMTypeU64:
		return "PM_TYPE_U64"
	case PMTypeFloat:
		return "PM_TYPE_FLOAT"
	case PMTypeDouble:
		return "PM_TYPE_DOUBLE"
	case PMTypeString:
		return "PM_TYPE_STRING"
	case PMTypeAggregate:
		return "PM_TYPE_AGGREGATE"
	case PMTypeAggregateStatic:
		return "PM_TYPE_AGGREGATE_STATIC"
	case PMTypeUnknown:
		return "PM_TYPE_UNKNOWN"
	}
	return fmt.Sprintf("PM_TYPE(%d)", int(t))
}

// PMSem is PCP metric semantics (PCPD-3); there is no value 2.
type PMSem int

// PCP semantics.
const (
	PMSemCounter  PMSem = 1
	PMSemInstant  PMSem = 3
	PMSemDiscrete PMSem = 4
)

func (s PMSem) String() string {
	switch s {
	case PMSemCounter:
		return "PM_SEM_COUNTER"
	case PMSemInstant:
		return "PM_SEM_INSTANT"
	case PMSemDiscrete:
		return "PM_SEM_DISCRETE"
	}
	return fmt.Sprintf("PM_SEM(%d)", int(s))
}

// PCP scale constants (PCPD-8, PCPD-9).
const (
	PMSpaceByte  = 0
	PMSpaceKByte = 1
	PMSpaceMByte = 2
	PMSpaceGByte = 3
	PMSpaceTByte = 4

	PMTimeNSec = 0
	PMTimeUSec = 1
	PMTimeMSec = 2
	PMTimeSec  = 3
	PMTimeMin  = 4
	PMTimeHour = 5

	PMCountOne = 0
)

// PMUnits is PCP's pmUnits: a power in each of space, time and count, and a scale for each
// (PCPD-6, PCPD-7). Each field is a 4-bit signed value, -8..7.
type PMUnits struct {
	DimSpace, DimTime, DimCount       int8
	ScaleSpace, ScaleTime, ScaleCount int8
}

// ErrUnitRange is returned when a pmUnits field does not fit in 4 signed bits.
var ErrUnitRange = errors.New("pmUnits field out of range -8..7")

// Pack encodes the six fields as PCP's pmUnits bits, through pcpwire's encoder (the one of PCP's
// wire and archives; issue 38 item 2): dimSpace in the top nibble of the low 24 bits, then
// dimTime, dimCount, scaleSpace, scaleTime, scaleCount. A field out of its range is ErrUnitRange.
func (u PMUnits) Pack() (uint32, error) {
	w, err := pcpwire.MakeUnits(int(u.DimSpace), int(u.DimTime), int(u.DimCount), int(u.ScaleSpace), int(u.ScaleTime), int(u.ScaleCount))
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrUnitRange, err)
	}
	return uint32(w) >> 8, nil
}

// UnpackPMUnits decodes what Pack encoded, through pcpwire's decoder.
func UnpackPMUnits(v uint32) PMUnits {
	w := pcpwire.Units(v << 8)
	return PMUnits{int8(w.DimSpace()), int8(w.DimTime()), int8(w.DimCount()), int8(w.ScaleSpace()), int8(w.ScaleTime()), int8(w.ScaleCount())}
}

// IsZero reports whether the units are dimensionless with no scale (UMA_NOUNITS).
func (u PMUnits) IsZero() bool { return u == PMUnits{} }

// Rate returns the units of the per-second rate of a counter with units u.
func (u PMUnits) Rate() PMUnits {
	r := u
	if r.DimTime == 0 {
		r.ScaleTime = PMTimeSec
	}
	r.DimTime--
	return r
}

// spaceFactor gives bytes per unit of a space scale.
func spaceFactor(s int8) float64 { return math.Pow(1024, float64(s)) }

// timeFactor gives nanoseconds per unit of a time scale.
func timeFactor(s int8) float64 {
	switch s {
	case PMTimeNSec:
		return 1
	case PMTimeUSec:
		return 1e3
	case PMTimeMSec:
		return 1e6
	case PMTimeSec:
		return 1e9
	case PMTimeMin:
		return 60e9
	case PMTimeHour:
		return 3600e9
	}
	return math.NaN()
}

// ErrDimension is returned when converting between units of different dimensions.
var ErrDimension = errors.New("units have different dimensions")

// ConvScale converts v from units from to units to, which must have the same dimensions
// (PCPD-12, pmConvScale).
func ConvScale(v float64, from, to PMUnits) (float64, error) {
	if from.DimSpace != to.DimSpace || from.DimTime != to.DimTime || from.DimCount != to.DimCount {
		return 0, ErrDimension
	}
	f := 1.0
	if from.DimSpace != 0 {
		f *= math.Pow(spaceFactor(from.ScaleSpace)/spaceFactor(to.ScaleSpace), float64(from.DimSpace))
	}
	if from.DimTime != 0 {
		tf, tt := timeFactor(from.ScaleTime), timeFactor(to.ScaleTime)
		if math.IsNaN(tf) || math.IsNaN(tt) {
			return 0, fmt.Errorf("time scale out of range: %w", ErrUnitRange)
		}
		f *= math.Pow(tf/tt, float64(from.DimTime))
	}
	if from.DimCount != 0 {
		f *= math.Pow(10, float64(from.ScaleCount-to.ScaleCount)*float64(from.DimCount))
	}
	return v * f, nil
}

var spaceWords = [...]string{"byte", "Kbyte", "Mbyte", "Gbyte", "Tbyte"}
var timeWords = [...]string{"nsec", "usec", "millisec", "sec", "min", "hour"}

// String formats the units the way dcimon shows them everywhere: positive dimensions joined by
// spaces, then "/" and the negative ones ("Mbyte/sec", "hour/(10^6 count)", "byte sec^-1" is never
// used). Scales of zero dimensions are ignored (PCPD-11).
func (u PMUnits) String() string {
	var num, den []string
	add := func(dim int8, word string) {
		switch {
		case dim > 0:
			num = append(num, power(word, dim))
		case dim < 0:
			den = append(den, power(word, -dim))
		}
	}
	if u.DimSpace != 0 {
		w := fmt.Sprintf("byte*1024^%d", u.ScaleSpace)
		if u.ScaleSpace >= 0 && int(u.ScaleSpace) < len(spaceWords) {
			w = spaceWords[u.ScaleSpace]
		}
		add(u.DimSpace, w)
	}
	if u.DimTime != 0 {
		w := fmt.Sprintf("time-scale-%d", u.ScaleTime)
		if u.ScaleTime >= 0 && int(u.ScaleTime) < len(timeWords) {
			w = timeWords[u.ScaleTime]
		}
		add(u.DimTime, w)
	}
	if u.DimCount != 0 {
		w := "count"
		if u.ScaleCount != 0 {
			w = fmt.Sprintf("(10^%d count)", u.ScaleCount)
		}
		add(u.DimCount, w)
	}
	switch {
	case len(num) == 0 && len(den) == 0:
		return "none"
	case len(den) == 0:
		return strings.Join(num, " ")
	case len(num) == 0:
		return "1/" + strings.Join(den, " ")
	}
	return strings.Join(num, " ") + "/" + strings.Join(den, " ")
}

func power(w string, p int8) string {
	if p == 1 {
		return w
	}
	return fmt.Sprintf("%s^%d", w, p)
}

// Dimension describes the dimensions as "Space·Time^-1" style text for the inspector.
func (u PMUnits) Dimension() string {
	var parts []string
	for _, d := range []struct {
		n string
		p int8
	}{{"Space", u.DimSpace}, {"Time", u.DimTime}, {"Count", u.DimCount}} {
		switch {
		case d.p == 1:
			parts = append(parts, d.n)
		case d.p != 0:
			parts = append(parts, fmt.Sprintf("%s^%d", d.n, d.p))
		}
	}
	if len(parts) == 0 {
		return "dimensionless"
	}
	return strings.Join(parts, "·")
}

// PMErr is a PCP error (PCPD-15, PCPF-9).
type PMErr int

// PCP errors used by dcimon (numbers as in PCP's pmapi.h).
const (
	PMErrPMID    PMErr = -12357 // PM_ERR_PMID: unknown or illegal metric identifier
	PMErrNoAgent PMErr = -12370 // PM_ERR_NOAGENT: no agent for the metric
	PMErrCtxBusy PMErr = -12393 // PM_ERR_CTXBUSY: context busy with another async call
	PMErrValue   PMErr = -12371 // PM_ERR_VALUE: missing metric value(s)
)

func (e PMErr) String() string {
	switch e {
	case PMErrPMID:
		return "PM_ERR_PMID"
	case PMErrNoAgent:
		return "PM_ERR_NOAGENT"
	case PMErrCtxBusy:
		return "PM_ERR_CTXBUSY"
	case PMErrValue:
		return "PM_ERR_VALUE"
	}
	return fmt.Sprintf("PM_ERR(%d)", int(e))
}

// Text is the English explanation of the error.
func (e PMErr) Text() string {
	switch e {
	case PMErrPMID:
		return "unknown metric id"
	case PMErrNoAgent:
		return "the agent responsible for the metric is currently unavailable"
	case PMErrCtxBusy:
		return "context is busy with another asynchronous call"
	case PMErrValue:
		return "missing metric value"
	}
	return "unknown PCP error"
}

// PCP state-change flags a fetch may report (PCPF-13).
const (
	PMCDRestartAgent = 1 << iota
	PMCDAddAgent
	PMCDDropAgent
	PMCDLabelChange
	PMCDNamesChange
	PMCDAgentChange = PMCDRestartAgent | PMCDAddAgent | PMCDDropAgent
)

// The text of PCP's descriptors, as pmproxy, pminfo and # PCP5 lines write it: one codec, used by
// the remote host, the archive replay, the users' suppliers and the export.

// Word is pmTypeStr's word for the type, as pmproxy writes it ("u32", "double"); an aggregate,
// event or unknown type is "aggregate".
func (t PMType) Word() string {
	switch t {
	case PMType32:
		return "32"
	case PMTypeU32:
		return "u32"
	case PMType64:
		return "64"
	case PMTypeU64:
		return "u64"
	case PMTypeFloat:
		return "float"
	case PMTypeDouble:
		return "double"
	case PMTypeString:
		return "string"
	}
	return "aggregate"
}

// Word is pmSemStr's word for the semantics ("counter", "instant", "discrete"); an unknown
// value reads as instant.
func (s PMSem) Word() string {
	switch s {
	case PMSemCounter:
		return "counter"
	case PMSemDiscrete:
		return "discrete"
	}
	return "instant"
}

// PCPUnits is what a PCP units text means for a datum: its DCI unit and the factor to it, PCP's
// own units where DCI has none for them, and the ladder of finer units for values with decimals.
type PCPUnits struct {
	Unit Unit
	Mult float64
	PM   PMUnits // PCP's units when DCI has no unit for them
	Note string  // what the text said of the unit, when DCI has no unit for it
	// Finer is the ladder of finer units for values with decimals (seconds to nanoseconds).
	Finer []Unit
}

// PCPUnitsOf maps pmUnitsStr's words ("Kbyte", "millisec", "count", "none") onto DCI's units; other
// units (rates such as "Kbyte / sec", scaled counts) keep PCP's own descriptor, exactly, for the
// PCP view, and are plain numbers in the others.
func PCPUnitsOf(s string) PCPUnits {
	w := strings.Join(strings.Fields(s), "")
	times := []Unit{UnitSecs, UnitMillisecs, UnitMicrosecs, UnitNanosecs}
	switch w {
	case "none", "":
		return PCPUnits{Unit: UnitNone, Mult: 1, Finer: []Unit{UnitMicroUnits}}
	case "count":
		return PCPUnits{Unit: UnitCount, Mult: 1, Finer: []Unit{UnitMicroUnits}}
	case "byte":
		return PCPUnits{Unit: UnitBytes, Mult: 1}
	case "Kbyte":
		return PCPUnits{Unit: UnitKBytes, Mult: 1}
	case "Mbyte":
		return PCPUnits{Unit: UnitMBytes, Mult: 1}
	case "Gbyte":
		return PCPUnits{Unit: UnitGBytes, Mult: 1}
	case "Tbyte":
		return PCPUnits{Unit: UnitTBytes, Mult: 1}
	case "sec":
		return PCPUnits{Unit: UnitSecs, Mult: 1, Finer: times[1:]}
	case "millisec", "msec":
		return PCPUnits{Unit: UnitMillisecs, Mult: 1, Finer: times[2:]}
	case "microsec", "usec":
		return PCPUnits{Unit: UnitMicrosecs, Mult: 1, Finer: times[3:]}
	case "nanosec", "nsec":
		return PCPUnits{Unit: UnitNanosecs, Mult: 1}
	}
	u := PCPUnits{Unit: UnitNone, Mult: 1, Note: "PCP units " + s, Finer: []Unit{UnitMicroUnits}}
	u.PM, _ = ParsePMUnits(s)
	return u
}

var (
	pmSpaceWords = map[string]int8{"byte": PMSpaceByte, "Kbyte": PMSpaceKByte, "Mbyte": PMSpaceMByte, "Gbyte": PMSpaceGByte, "Tbyte": PMSpaceTByte}
	pmTimeWords  = map[string]int8{"nsec": PMTimeNSec, "usec": PMTimeUSec, "microsec": PMTimeUSec, "millisec": PMTimeMSec,
		"msec": PMTimeMSec, "sec": PMTimeSec, "min": PMTimeMin, "hour": PMTimeHour}
)

// ParsePMUnits reads the units pmUnitsStr writes, "Kbyte / sec", "count / sec", "byte^2", "none", and
// dcimon's PMUnits.String ("Kbyte/sec", "1/sec"): each word a space, time or count scale, with
// an optional power, those after "/" negative.
func ParsePMUnits(s string) (PMUnits, bool) {
	var u PMUnits
	if strings.TrimSpace(s) == "none" { // pmUnitsStr's word for no dimension
		return u, true
	}
	sign := int8(1)
	for i, w := range strings.Fields(strings.ReplaceAll(s, "/", " / ")) {
		if w == "/" {
			sign = -1
			continue
		}
		if w == "1" && i == 0 {
			continue // "1/sec": only a denominator, as PMUnits.String writes it
		}
		p := int8(1)
		if b, e, ok := strings.Cut(w, "^"); ok {
			n, err := strconv.ParseInt(e, 10, 8)
			if err != nil || n < 1 || n > 7 {
				return PMUnits{}, false
			}
			w, p = b, int8(n)
		}
		if sc, ok := pmSpaceWords[w]; ok {
			u.DimSpace, u.ScaleSpace = u.DimSpace+sign*p, sc
		} else if sc, ok := pmTimeWords[w]; ok {
			u.DimTime, u.ScaleTime = u.DimTime+sign*p, sc
		} else if w == "count" {
			u.DimCount += sign * p
		} else {
			return PMUnits{}, false
		}
	}
	return u, true
}

// ParsePMType reads pmTypeStr's word for a type ("u32", "64", "double"), as # PCP5 lines and
// pmproxy write it; false for any other word.
func ParsePMType(w string) (PMType, bool) {
	for _, t := range []PMType{PMType32, PMTypeU32, PMType64, PMTypeU64, PMTypeFloat, PMTypeDouble, PMTypeString} {
		if t.Word() == w {
			return t, true
		}
	}
	return PMTypeUnknown, false
}

// ParsePMSem reads pmSemStr's word for semantics ("counter", "instant", "discrete"); false for
// any other word.
func ParsePMSem(w string) (PMSem, bool) {
	switch w {
	case "counter":
		return PMSemCounter, true
	case "instant":
		return PMSemInstant, true
	case "discrete":
		return PMSemDiscrete, true
	}
	return 0, false
}

// PCP identifiers are domain.cluster.item (9, 12 and 10 bits) and an instance domain is
// domain.serial (9 and 22 bits), as pmIDStr and pmInDomStr write them.
const (
	PMIDDomains  = 1 << 9
	PMIDClusters = 1 << 12
	PMIDItems    = 1 << 10
	InDomSerials = 1 << 22
)

// PMID is a PCP metric identifier.
type PMID struct{ Domain, Cluster, Item uint32 }

// Valid says every part is in range (a domain below 511, which PCP keeps for dynamic names).
func (p PMID) Valid() bool {
	return p.Domain < PMIDDomains-1 && p.Cluster < PMIDClusters && p.Item < PMIDItems
}

// String is pmIDStr's form, "60.0.4".
func (p PMID) String() string { return fmt.Sprintf("%d.%d.%d", p.Domain, p.Cluster, p.Item) }

// InDom is a PCP instance domain.
type InDom struct{ Domain, Serial uint32 }

// InDomNull is PM_INDOM_NULL, the instance domain of a metric with one value.
var InDomNull = InDom{Domain: PMIDDomains - 1, Serial: InDomSerials - 1}

// Valid says both parts are in range, or it is PM_INDOM_NULL.
func (i InDom) Valid() bool {
	return i == InDomNull || i.Domain < PMIDDomains-1 && i.Serial < InDomSerials
}

// String is pmInDomStr's form, "60.1", or "PM_INDOM_NULL".
func (i InDom) String() string {
	if i == InDomNull {
		return "PM_INDOM_NULL"
	}
	return fmt.Sprintf("%d.%d", i.Domain, i.Serial)
}

// ParsePMID reads pmIDStr's form: three parts, each in range.
func ParsePMID(s string) (PMID, bool) {
	n, ok := parseParts(s, PMIDDomains-1, PMIDClusters, PMIDItems)
	if !ok {
		return PMID{}, false
	}
	return PMID{n[0], n[1], n[2]}, true
}

// ParseInDom reads pmInDomStr's form, two parts in range, or PM_INDOM_NULL.
func ParseInDom(s string) (InDom, bool) {
	if s == "PM_INDOM_NULL" {
		return InDomNull, true
	}
	n, ok := parseParts(s, PMIDDomains-1, InDomSerials)
	if !ok {
		return InDom{}, false
	}
	return InDom{n[0], n[1]}, true
}

// parseParts reads dot-separated decimal numbers, one per limit, each below its limit.
func parseParts(s string, lims ...uint64) ([]uint32, bool) {
	parts := strings.Split(s, ".")
	if len(parts) != len(lims) {
		return nil, false
	}
	out := make([]uint32, len(parts))
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 10, 32)
		if err != nil || n >= lims[i] {
			return nil, false
		}
		out[i] = uint32(n)
	}
	return out, true
}

// PromName makes a name fit [a-zA-Z_:][a-zA-Z0-9_:]* (`%util` is `pct_util`).
func PromName(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '%':
			b.WriteString("pct_")
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_', r == ':', r >= '0' && r <= '9' && i > 0:
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}
