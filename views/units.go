package views

import (
	"math"
	"strconv"
	"strings"

	"dcimon/namespace"
)

// Kind says how a measure is scaled for display.
type Kind uint8

// Measure kinds.
const (
	KindCount   Kind = iota // counts: 1, k, M, G, T, P, E (base 1000), then an optional noun
	KindSize                // bytes: B, KiB, MiB, GiB, TiB, PiB, EiB (base 1024, AMB-29)
	KindTime                // durations: ps, ns, µs, ms, s, min, h (rates stop at s)
	KindPercent             // a fraction (×Factor) shown ×100 with one decimal (AMB-17); a time rate as a utilization
	KindOther               // not scaled: the number, then Noun (extension and unusual units)
	KindBits                // bits: bit, kbit, Mbit, Gbit, Tbit (base 1000): byte rates of interfaces, when asked
)

var kindNames = [...]string{"count", "size", "time", "percent", "other", "bits"}

// String names the kind ("size").
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Measure says how to show numbers of one datum or one PCP unit: what they measure, in which
// source unit, and per what.
type Measure struct {
	Kind Kind
	// Noun follows a count and its prefix ("830 reads/s", "12.3k pkts"); for KindOther it is
	// the whole unit text ("unit 70000 (extension)").
	Noun string
	// Per follows the unit: "/s" for rates of counters, "/op" for a time or size per operation.
	Per string
	// Factor converts a value in the source unit to the kind's base unit (bytes, seconds or
	// ones): 1024 for kilobytes, 1e-3 for milliseconds, 1/TickHz for ticks. 0 means 1.
	Factor float64
	// Res is the source's resolution in base units (1/TickHz for ticks, 0.01 for centiseconds):
	// a lone value keeps trailing zeros down to it (`2.50 s`). 0 when unknown.
	Res float64
	// Util marks a percentage that is a time counter's rate over its share of the clock (CPU
	// time as % of one processor, a disk's io_ms as %util).
	Util bool
}

type rung struct {
	f     float64
	label string
}

var (
	countLadder = []rung{{1, ""}, {1e3, "k"}, {1e6, "M"}, {1e9, "G"}, {1e12, "T"}, {1e15, "P"}, {1e18, "E"}}
	sizeLadder  = []rung{{1, "B"}, {1 << 10, "KiB"}, {1 << 20, "MiB"}, {1 << 30, "GiB"}, {1 << 40, "TiB"},
		{1 << 50, "PiB"}, {1 << 60, "EiB"}}
	bitLadder  = []rung{{1, "bit"}, {1e3, "kbit"}, {1e6, "Mbit"}, {1e9, "Gbit"}, {1e12, "Tbit"}, {1e15, "Pbit"}}
	timeLadder = []rung{{1e-12, "ps"}, {1e-9, "ns"}, {1e-6, "µs"}, {1e-3, "ms"}, {1, "s"}, {60, "min"}, {3600, "h"}}
)

// timeSecond is the index of seconds in timeLadder: the base of durations and the top for rates
// and per-operation times ("1.5 min/s" helps nobody).
const timeSecond = 4

// timeMilli is the index of milliseconds in timeLadder: the unit of iostat's awaits.
const timeMilli = 3

// Scale is a position on a measure's ladder (0 = B, ps or ones). Auto lets the value choose.
type Scale int8

// Auto chooses the natural scale of each value.
const Auto Scale = -1

func (m Measure) ladder() (r []rung, base, top int) {
	switch m.Kind {
	case KindSize:
		return sizeLadder, 0, len(sizeLadder) - 1
	case KindBits:
		return bitLadder, 0, len(bitLadder) - 1
	case KindTime:
		if m.Per != "" {
			return timeLadder, timeSecond, timeSecond
		}
		return timeLadder, timeSecond, len(timeLadder) - 1
	case KindCount:
		return countLadder, 0, len(countLadder) - 1
	}
	return nil, 0, 0
}

func (m Measure) factor() float64 {
	if m.Factor == 0 {
		return 1
	}
	return m.Factor
}

// PerSecond is the measure of the rate of a counter in m (X-8: a rate adds Time^-1).
func (m Measure) PerSecond() Measure {
	if m.Per == "" {
		m.Per = "/s"
	}
	return m
}

// Natural is the scale a lone value v (in the source unit) is shown in: the largest unit it
// reaches at least once (1024 B → 1.00 KiB, 999 → 999, 1000 → 1.00k).
func (m Measure) Natural(v float64) Scale {
	r, base, top := m.ladder()
	if r == nil {
		return Auto
	}
	x := math.Abs(v * m.factor())
	if x == 0 || math.IsNaN(x) {
		return Scale(base)
	}
	i := top
	for i > 0 && x < r[i].f {
		i--
	}
	// A value that rounds to the next unit is shown in it: 999.7 ms is `1.00 s`, never
	// `1000 ms` (issue 12: three significant digits at the boundary too).
	if i < top && x >= r[i+1].f*0.9995 {
		i++
	}
	return Scale(i)
}

// Label is the unit text after the number at scale sc: "MiB/s", "k reads/s", "%".
func (m Measure) Label(sc Scale) string {
	b := m.appendUnit(nil, sc)
	if len(b) > 0 && b[0] == ' ' {
		b = b[1:]
	}
	return string(b)
}

// ColumnScale picks one scale for a column of values (in the source unit): the natural scale
// of the largest, so every cell shows the same unit.
func ColumnScale(m Measure, vs []float64) Scale {
	max := 0.0
	for _, v := range vs {
		if a := math.Abs(v); a > max {
			max = a
		}
	}
	return m.Natural(max)
}

// Scaler remembers the scale it chose so a value hovering near a unit boundary does not make the
// unit flip every tick. Its rule: move up as soon as the value reaches 1.0× the next unit; move
// down only when it falls below 0.9× the current unit; a zero or missing value keeps the scale.
// A value drifting between 1010 KiB/s and 1030 KiB/s therefore shows `1010 KiB/s`, then
// `1.01 MiB/s`, and stays in MiB/s until it drops below 921.6 KiB/s. The zero Scaler is ready.
type Scaler struct {
	cur  Scale
	kind Kind
	per  string
	set  bool
}

// Update feeds the next value (in the source unit) and returns the scale to show it in.
func (s *Scaler) Update(m Measure, v float64) Scale {
	r, _, top := m.ladder()
	if r == nil {
		return Auto
	}
	n := m.Natural(v)
	if !s.set || s.kind != m.Kind || s.per != m.Per || int(s.cur) > top {
		s.cur, s.kind, s.per, s.set = n, m.Kind, m.Per, true
		return n
	}
	x := math.Abs(v * m.factor())
	switch {
	case x == 0 || math.IsNaN(x):
	case n > s.cur:
		s.cur = n
	case n < s.cur && x < 0.9*r[s.cur].f:
		s.cur = n
	}
	return s.cur
}

// Current is the scale last chosen, Auto before the first Update.
func (s *Scaler) Current() Scale {
	if !s.set {
		return Auto
	}
	return s.cur
}

// Reset forgets the scale (the datum's description changed, PCPD-13).
func (s *Scaler) Reset() { *s = Scaler{} }

// Format shows a lone value in its natural scale with three significant digits, trailing zeros
// dropped below the source's resolution: `1.5 µs`, `2.50 s` (ticks at 100 Hz), `12.4 MiB/s`,
// `830 reads/s`, `75.0%`.
func (m Measure) Format(v float64) string {
	var buf [32]byte
	return string(m.Append(buf[:0], v, Auto, false))
}

// Append appends v (in the source unit) at scale sc (Auto: natural). fixed keeps every trailing
// zero of the three significant digits so a column's cells line up (`1.50 µs`); otherwise zeros
// are dropped down to the source's resolution (`1.5 µs`, but `2.50 s` for 100 Hz ticks).
func (m Measure) Append(dst []byte, v float64, sc Scale, fixed bool) []byte {
	switch m.Kind {
	case KindPercent:
		dst = appendFixed1(dst, v*m.factor()*100)
		return append(dst, '%')
	}
	r, _, top := m.ladder()
	if r == nil {
		dst = appendSig(dst, v*m.factor(), fixed, 0)
		return m.appendUnit(dst, Auto)
	}
	if sc < 0 && m.Kind == KindTime && m.Per == "/op" {
		// A time per operation in milliseconds, as iostat prints its awaits (issue 32 item 4):
		// 0.125 ms/op, never 125 µs/op beside a disk's 1.20 ms/op.
		sc = timeMilli
	}
	if sc < 0 {
		sc = m.Natural(v)
	}
	if int(sc) > top {
		sc = Scale(top)
	}
	f := r[sc].f
	minDec := 0
	if m.Res > 0 {
		if rd := m.Res / f; rd < 1 {
			minDec = int(math.Ceil(-math.Log10(rd) - 1e-9))
		}
	}
	dst = appendSig(dst, v*m.factor()/f, fixed, minDec)
	return m.appendUnit(dst, sc)
}

func (m Measure) appendUnit(dst []byte, sc Scale) []byte {
	switch m.Kind {
	case KindPercent:
		return append(dst, '%')
	}
	r, _, top := m.ladder()
	if r == nil {
		if m.Noun != "" {
			dst = append(dst, ' ')
			dst = append(dst, m.Noun...)
		}
		return append(dst, m.Per...)
	}
	if sc < 0 {
		sc = 0
	}
	if int(sc) > top {
		sc = Scale(top)
	}
	if m.Kind == KindCount {
		dst = append(dst, r[sc].label...)
		if m.Noun != "" {
			dst = append(dst, ' ')
			dst = append(dst, m.Noun...)
		}
		return append(dst, m.Per...)
	}
	dst = append(dst, ' ')
	dst = append(dst, r[sc].label...)
	return append(dst, m.Per...)
}

// SigDigits is how many significant digits scaled numbers show: 1.23, 12.3, 123. Integer parts
// are never cut (1010 stays 1010 inside the hysteresis band), and at most 3 decimals are shown.
const SigDigits = 3

// appendSig appends y with SigDigits significant digits. Anything that rounds to zero is "0"
// (never "-0.000"); a non-finite number, which namespace never produces, shows as "?".
//
// Without fixed, trailing zeros are dropped down to minDec decimals (and the point when none
// are left) only when the shorter text is still the value (`1.5 µs`, `2 MiB`): zeros that stand
// for digits rounded away are digits like any other (issue 12: 1000.2 ms/s is `1.00 s/s`).
func appendSig(dst []byte, y float64, fixed bool, minDec int) []byte {
	if math.IsNaN(y) || math.IsInf(y, 0) {
		return append(dst, '?')
	}
	a := math.Abs(y)
	if a < 0.0005 {
		return append(dst, '0')
	}
	dec := 3
	switch {
	case a >= 99.95:
		dec = 0
	case a >= 9.995:
		dec = 1
	case a >= 0.9995:
		dec = 2
	}
	dst = strconv.AppendFloat(dst, y, 'f', dec, 64)
	if fixed || dec <= minDec {
		return dst
	}
	cut, kept := len(dst), dec
	for kept > minDec && dst[cut-1] == '0' {
		cut--
		kept--
	}
	if cut == len(dst) {
		return dst
	}
	// The shorter text must still be the value, to within floating-point noise.
	p := math.Pow10(kept)
	if r := math.Round(y*p) / p; math.Abs(r-y) > 1e-9*a {
		return dst
	}
	if kept == 0 {
		cut-- // the point
	}
	return dst[:cut]
}

// appendFixed1 appends y with exactly one decimal (percentages: `75.0`, `100.0`, `0.0`).
func appendFixed1(dst []byte, y float64) []byte {
	if math.IsNaN(y) || math.IsInf(y, 0) {
		return append(dst, '?')
	}
	if math.Abs(y) < 0.05 {
		return append(dst, '0', '.', '0')
	}
	return strconv.AppendFloat(dst, y, 'f', 1, 64)
}

// UnitMeasure is the measure of values in UMA unit u (DCI-UNIT-*): sizes in bytes base 1024,
// times in seconds (ticks need the tick rate, DCI-UNIT-3), counts with the unit's short noun
// ("reads", "pkts"), PERCENT as a percentage, extension units unscaled with their number
// (`unit 70000 (extension)`, DCI-UNIT-6). Other derivations have no unit of their own; see
// MeasureFor.
func UnitMeasure(u namespace.Unit, tickHz float64) Measure {
	switch {
	case u >= namespace.UnitBytes && u <= namespace.UnitTBytes:
		return Measure{Kind: KindSize, Factor: math.Pow(1024, float64(u-namespace.UnitBytes))}
	case u == namespace.UnitTicks:
		if tickHz > 0 {
			return Measure{Kind: KindTime, Factor: 1 / tickHz, Res: 1 / tickHz}
		}
		return Measure{Kind: KindCount, Noun: u.Abbrev()}
	case u >= namespace.UnitSecs && u <= namespace.UnitPicosecs:
		return Measure{Kind: KindTime, Factor: [...]float64{1, 1e-3, 1e-6, 1e-9, 1e-12}[u-namespace.UnitSecs]}
	case u == namespace.DerivedPercent:
		return Measure{Kind: KindPercent}
	case u == namespace.UnitCentiPercent:
		return Measure{Kind: KindPercent, Factor: 1e-4} // 123 is 1.23%
	case u == namespace.UnitMilliCelsius:
		return Measure{Kind: KindOther, Noun: "°C", Factor: 1e-3, Res: 1}
	case u == namespace.UnitMilliVolts:
		return Measure{Kind: KindOther, Noun: "V", Factor: 1e-3, Res: 1e-3}
	case u == namespace.UnitMicroUnits:
		return Measure{Kind: KindCount, Factor: 1e-6}
	case u == namespace.UnitRPM:
		return Measure{Kind: KindOther, Noun: "RPM", Factor: 1}
	case u == 0 || u == namespace.UnitNone || u.IsDerivation():
		return Measure{Kind: KindCount}
	}
	switch u.Kind() {
	case namespace.KindCount, namespace.KindHardware:
		return Measure{Kind: KindCount, Noun: u.Abbrev()}
	}
	return Measure{Kind: KindOther, Noun: u.Description()}
}

// MeasureFor is the measure of a datum's displayed values: a counter's rate per second, a
// level as it is, and for a derived datum the unit inferred from its arguments (DCI-UNIT-7):
// sums and differences keep the unit of their first argument, an average over a count is per
// operation (`ms/op`, PCPD-6), a percentage is `%`, products and variances have none. c is the
// datum's class, needed only for derived datums; nil gives them no unit.
//
// A time counter's rate is a utilization (issue 12): seconds per second are shown as a
// percentage of the datum's Share (`CPU/cpu0/user 12.5%` of one processor, the CPU totals of all
// of them, as mpstat's `all` row), never as `ms/s`; RateMeasure keeps the plain rate for the
// inspector.
func MeasureFor(c *namespace.Class, d *namespace.Datum) Measure {
	m := RateMeasure(c, d)
	if m.Kind == KindTime && m.Per == "/s" {
		return Measure{Kind: KindPercent, Factor: m.factor() / d.ShareOrOne(), Util: true}
	}
	return m
}

// MeasureWith is MeasureFor with the display preferences of opt: a network interface's byte
// rates in bits per second when opt.NetBits (issue 16: network administrators read links in
// bits). Text, JSON value and units all follow it.
func MeasureWith(opt Options, d *namespace.Datum) Measure {
	m := MeasureFor(opt.Class, d)
	if opt.NetBits && IsInterfaceClass(opt.Class) {
		m = m.InBits()
	}
	return m
}

// IsInterfaceClass says c is a network interface's class (NetIf's instances, "netif").
func IsInterfaceClass(c *namespace.Class) bool { return c != nil && strings.EqualFold(c.Name, "netif") }

// InBits is a byte rate as bits per second (×8, prefixes of 1000); any other measure as it is.
func (m Measure) InBits() Measure {
	if m.Kind != KindSize || m.Per != "/s" {
		return m
	}
	return Measure{Kind: KindBits, Factor: m.factor() * 8, Per: "/s"}
}

// RateMeasure is MeasureFor without the utilization rule: a time counter's rate stays a time per
// second (`9.95 ms/s`).
func RateMeasure(c *namespace.Class, d *namespace.Datum) Measure {
	m := levelMeasure(c, d, 0)
	if d.IsCounter() && m.Kind != KindPercent {
		m = m.PerSecond()
	}
	return m
}

// Base converts v (in the source unit) to the number the measure's text stands for, in the
// unit Label gives at the base scale (BaseLabel): bytes, seconds, ones, or percent for a
// percentage (0.75 → 75). It is the `value` of docs/json.md, so `value` and `units` say the
// same quantity as `text` (issue 12).
func (m Measure) Base(v float64) float64 {
	if m.Kind == KindPercent {
		return v * m.factor() * 100
	}
	return v * m.factor()
}

// BaseLabel is the unit of Base's numbers: "B/s", "s/op", "reads/s", "%".
func (m Measure) BaseLabel() string {
	r, base, _ := m.ladder()
	if r == nil {
		return m.Label(Auto)
	}
	return m.Label(Scale(base))
}

// levelMeasure is d's measure before any per-second: a derived datum takes its arguments',
// following derived arguments (CPU's busy_ms is the sum of usrsys and intsteal, themselves sums
// of milliseconds) a few levels deep.
func levelMeasure(c *namespace.Class, d *namespace.Datum, depth int) Measure {
	m := UnitMeasure(d.Units, d.TickHz)
	if !d.IsDerived() || d.Units == namespace.DerivedPercent {
		return m
	}
	m = Measure{Kind: KindCount}
	arg := func(n int) (Measure, bool) {
		if c == nil || depth >= 4 {
			return Measure{}, false
		}
		i := d.ArgIndex(n)
		if i < 0 || i >= len(c.Datums) {
			return Measure{}, false
		}
		return levelMeasure(c, &c.Datums[i], depth+1), true
	}
	switch d.Units {
	case namespace.DerivedSum2, namespace.DerivedSum3, namespace.DerivedDifference:
		if a, ok := arg(0); ok && a.Kind != KindPercent {
			m = a
			// reads + writes are neither reads nor writes (issue 12): counts of different
			// nouns add up to operations.
			if b, ok := arg(1); ok && a.Kind == KindCount && b.Kind == KindCount && a.Noun != b.Noun {
				m.Noun = "ops"
			}
		}
	case namespace.DerivedAverage:
		a, ok1 := arg(0)
		b, ok2 := arg(1)
		if ok1 && ok2 && b.Kind == KindCount && a.Kind != KindCount {
			m = a
			m.Per = "/op"
		}
	}
	return m
}

// PMMeasure is the measure of values in PCP units u (PCPD-6..PCPD-11): the value is converted
// with namespace.ConvScale to bytes, seconds and ones, then scaled like any other. Space, time
// and count alone, Space/Time and Count/Time (rates), Time/Count and Space/Count (per
// operation) are scaled; any other combination is shown unscaled in canonical units
// ("byte sec").
func PMMeasure(u namespace.PMUnits) Measure {
	canon := u
	canon.ScaleSpace, canon.ScaleTime, canon.ScaleCount = 0, 0, 0
	if u.DimTime != 0 {
		canon.ScaleTime = namespace.PMTimeSec
	}
	f, err := namespace.ConvScale(1, u, canon)
	if err != nil {
		return Measure{Kind: KindOther, Noun: u.String()}
	}
	type dims struct{ s, t, c int8 }
	switch (dims{u.DimSpace, u.DimTime, u.DimCount}) {
	case dims{0, 0, 0}, dims{0, 0, 1}:
		return Measure{Kind: KindCount, Factor: f}
	case dims{1, 0, 0}:
		return Measure{Kind: KindSize, Factor: f}
	case dims{0, 1, 0}:
		return Measure{Kind: KindTime, Factor: f}
	case dims{1, -1, 0}:
		return Measure{Kind: KindSize, Factor: f, Per: "/s"}
	case dims{0, -1, 1}, dims{0, -1, 0}:
		return Measure{Kind: KindCount, Factor: f, Per: "/s"}
	case dims{0, 1, -1}:
		return Measure{Kind: KindTime, Factor: f, Per: "/op"}
	case dims{1, 0, -1}:
		return Measure{Kind: KindSize, Factor: f, Per: "/op"}
	}
	return Measure{Kind: KindOther, Noun: canon.String(), Factor: f}
}

// FormatPM shows a value in PCP units: scaled (`2 MiB` for 2048 Kbyte), or with Raw exactly as
// given followed by the units (`2048 Kbyte`, PCPD-11).
func FormatPM(v float64, u namespace.PMUnits, opt Options) string {
	if opt.Raw {
		b := strconv.AppendFloat(nil, v, 'g', -1, 64)
		if !u.IsZero() {
			b = append(b, ' ')
			b = append(b, u.String()...)
		}
		return string(b)
	}
	return PMMeasure(u).Format(v)
}

// UnitText is the text of a UMA unit for a units column: the document's description ("tape
// marks", "I/O channels", DCI-UNIT-5), `unit 70000 (extension)` beyond the predefined range
// (DCI-UNIT-6).
func UnitText(u namespace.Unit) string { return u.Description() }

// RawUnits names the unit of a datum's raw reading and interval change for the JSON
// `raw_units` field: the unit's description ("milliseconds", "bytes", "reads"), "count" for
// plain numbers. A derived sum or difference counts in its first argument's unit; other derived
// datums have no raw unit ("").
func RawUnits(c *namespace.Class, d *namespace.Datum) string {
	for depth := 0; d.IsDerived(); depth++ {
		switch d.Units {
		case namespace.DerivedSum2, namespace.DerivedSum3, namespace.DerivedDifference:
		default:
			return ""
		}
		i := d.ArgIndex(0)
		if c == nil || depth > 4 || i < 0 || i >= len(c.Datums) {
			return ""
		}
		d = &c.Datums[i]
	}
	if n := rawNoun(d.Units); n != "" {
		return n
	}
	return "count"
}

// rawNoun is the unit shown after an exact value in raw mode (`2048 kilobytes`): the unit's
// description, nothing for plain numbers and counts.
func rawNoun(u namespace.Unit) string {
	switch u {
	case 0, namespace.UnitNone, namespace.UnitCount:
		return ""
	case namespace.UnitEvent:
		return "events"
	}
	if u.IsDerivation() {
		return ""
	}
	return u.Description()
}
