package views

import (
	"strconv"

	"dcimon/namespace"
)

// Marks shown instead of a number for values that are not valid: never `0`. The reason
// is available separately through Why.
const (
	MarkNoRate = "—"   // a counter with no usable previous reading (SPMI-SET-15, X-3, DCI4-SUP-8)
	MarkNA     = "n/a" // invalid for the instance (DCI-INV-4) or unavailable (PCPF-7)
	MarkError  = "err" // collection failed (provider error, timeout, dead supplier), or the numbers broke an invariant
)

// Mark is the text shown in place of a value that is not valid, or "" for a valid one.
func Mark(v namespace.Value) string {
	switch v.State {
	case namespace.Valid:
		return ""
	case namespace.NoRate:
		return MarkNoRate
	case namespace.Unavailable:
		switch v.Reason {
		// Access denied is n/a, not an error: another user's process keeps its I/O counters
		// from an unprivileged reader by design (issue 17).
		case namespace.ReasonProviderError, namespace.ReasonTimeout, namespace.ReasonAssumedDead:
			return MarkError
		}
		if v.Reason.Invariant() {
			return MarkError // numbers that cannot all be true (issue 29)
		}
	}
	return MarkNA
}

// Why says why a value is shown as a mark ("no previous sample", "off-line / not present"), or
// "" for a valid value.
func Why(v namespace.Value) string {
	if v.State == namespace.Valid {
		return ""
	}
	if v.Reason == namespace.ReasonNone {
		if v.State == namespace.Invalid {
			return namespace.ReasonInvalidData.String()
		}
		return namespace.ReasonNoValues.String()
	}
	return v.Reason.String()
}

// FormatValue renders one datum's value the way every pane shows it: marks for values that are
// not valid; counters as a rate per second with the unit (`12.4 MiB/s`, `830 reads/s`);
// derived values with the unit of their arguments (`75.0%`); decimal integer levels with a
// unit scaled (`8 GiB`); everything else through its DCI4 description, so booleans, strings,
// addresses, times and hexadecimal or dotted integers show exactly as the description says.
// With opt.Raw, counters show their cumulative reading and values their exact number with the
// unit's description (`2048 kilobytes`).
func FormatValue(d *namespace.Datum, v namespace.Value, opt Options) string {
	var buf [48]byte
	return string(AppendValue(buf[:0], d, v, &opt))
}

// AppendValue is FormatValue appending to dst.
func AppendValue(dst []byte, d *namespace.Datum, v namespace.Value, opt *Options) []byte {
	if v.State != namespace.Valid {
		return append(dst, Mark(v)...)
	}
	m, scaled := measureOf(d, opt)
	if scaled {
		return m.Append(dst, v.V, Auto, false)
	}
	return appendExact(dst, d, v, m, opt)
}

// measureOf says how a datum's valid values are shown: through a measure (scaled) or exactly.
func measureOf(d *namespace.Datum, opt *Options) (Measure, bool) {
	m := MeasureWith(*opt, d)
	switch {
	case d.IsDerived():
		return m, !opt.Raw
	case opt.Raw:
		return m, false
	case d.IsCounter():
		return m, true
	}
	// A level: scaled when it is a decimal integer with a unit that scales.
	if !d.Type.IsInteger() || d.DCI4.Type.IntWidth() == 0 || d.DCI4.Presentation != namespace.SIPDecimal {
		return m, false
	}
	// dcimon's extension units (hundredths of a percent, millidegrees, millionths) carry a
	// factor: scaled.
	return m, m.Kind == KindSize || m.Kind == KindBits || m.Kind == KindTime || m.Kind == KindPercent || (m.Kind == KindCount && m.Noun != "") ||
		(m.Kind == KindOther && m.Factor != 0) || (m.Kind == KindCount && m.Factor != 0)
}

// appendExact renders a value through the datum's DCI4 description: its N or S is laid out in
// a DCI4 slot exactly as a supplier would, then decoded by the same code as RenderDCI4.
func appendExact(dst []byte, d *namespace.Datum, v namespace.Value, m Measure, opt *Options) []byte {
	if d.IsDerived() { // raw mode: the computed number itself (PERCENT as the fraction, AMB-17)
		return strconv.AppendFloat(dst, v.V, 'g', -1, 64)
	}
	dd := d.DCI4
	switch dd.Type {
	case namespace.STString:
		dst, _ = renderStringValue(dst, dd, v.S)
		return dst
	case namespace.STAddress:
		var buf [16]byte
		n := copy(buf[:], v.S)
		dst, _ = renderDCI4(dst, dd, buf[:n], opt, nil)
		return dst
	case namespace.STUnused: // no DCI4 view: octet strings, or a datum declared without one
		switch {
		case d.Type == namespace.TypeOctetString:
			return appendHexDumpString(dst, v.S)
		case !d.Type.IsNumeric():
			dst, _ = AppendSafe(dst, v.S)
			return dst
		case d.Type.IsSigned():
			dst = strconv.AppendInt(dst, signed(d.Type, v.N), 10)
		default:
			dst = strconv.AppendUint(dst, v.N, 10)
		}
		return appendRawNoun(dst, d, m, opt)
	}
	var buf [16]byte
	n := v.N
	if dd.Type == namespace.STBoolean { // DCI truth is "not zero" (DCI-TYPE-1); DCI4 reads bit 0
		n = 0
		if (v.N != 0) != (dd.Format == namespace.SBFInverted) {
			n = 1
		}
	}
	putSlot(buf[:], dd, n)
	size := int(min(dd.Size, uint32(len(buf))))
	dst, _ = renderDCI4(dst, dd, buf[:size], opt, nil)
	if dd.Type.IntWidth() > 0 {
		return appendRawNoun(dst, d, m, opt)
	}
	return dst
}

func signed(t namespace.DataType, n uint64) int64 {
	if t == namespace.TypeInt4 {
		return int64(int32(n))
	}
	return int64(n)
}

// appendRawNoun follows an exact number with its unit: the description in raw mode
// (`2048 kilobytes`), the unit text for units that do not scale (`42 unit 70000 (extension)`).
func appendRawNoun(dst []byte, d *namespace.Datum, m Measure, opt *Options) []byte {
	var noun string
	switch {
	case opt.Raw:
		noun = rawNoun(d.Units)
	case m.Kind == KindOther:
		noun = m.Noun
	}
	if noun != "" {
		dst = append(dst, ' ')
		dst = append(dst, noun...)
	}
	return dst
}

func appendHexDumpString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if i == maxDump {
			return append(dst, " …"...)
		}
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, hexDigits[s[i]>>4], hexDigits[s[i]&0xf])
	}
	return dst
}

// Column renders one datum's values down a table column: every cell in one unit (the scale of
// the largest value, with the Scaler's hysteresis across ticks) and with fixed digits, so the
// cells line up and do not jitter. Keep one Column per datum and table for as long as the table
// lives; call Fit (or Observe and Settle) with the column's values each tick before appending its
// cells.
type Column struct {
	datum  *namespace.Datum
	opt    Options
	m      Measure
	scaled bool
	scaler Scaler
	scale  Scale
	max    float64 // largest valid magnitude observed since the last Settle
	seen   bool
	// The unit text at unitAt: a table asks for it for every cell of every frame, and it only
	// changes with the scale.
	unit    string
	unitAt  Scale
	hasUnit bool
}

// NewColumn prepares a column for datum d; opt.Class lets derived datums find their units.
func NewColumn(d *namespace.Datum, opt Options) Column {
	m, scaled := measureOf(d, &opt)
	return Column{datum: d, opt: opt, m: m, scaled: scaled, scale: Auto}
}

// Measure is how the column's numbers are shown.
func (c *Column) Measure() Measure { return c.m }

// Scaled reports whether the column's cells are numbers in one shared unit (rates, derived
// values, scaled levels) rather than exact DCI4 text.
func (c *Column) Scaled() bool { return c.scaled }

// Observe feeds one of the column's values for this tick; Settle then chooses the unit. Values
// that are not valid do not count. Observe and Settle suit values that are not in one slice
// (a class's values are stored instance by instance).
func (c *Column) Observe(v namespace.Value) {
	if v.State != namespace.Valid {
		return
	}
	c.seen = true
	if a := abs(v.V); a > c.max {
		c.max = a
	}
}

// Settle chooses the column's unit for this tick from the values observed since the last
// Settle: the scale of the largest, moved with hysteresis (see Scaler). With no valid value the
// unit stays.
func (c *Column) Settle() Scale {
	if c.scaled && c.seen {
		c.scale = c.scaler.Update(c.m, c.max)
	}
	c.max, c.seen = 0, false
	return c.scale
}

// Fit is Observe for each value then Settle.
func (c *Column) Fit(vals []namespace.Value) Scale {
	for _, v := range vals {
		c.Observe(v)
	}
	return c.Settle()
}

// Unit is the unit text the column's cells carry at the current scale ("MiB/s"), or "" when the
// cells are exact DCI4 text.
func (c *Column) Unit() string {
	if !c.scaled {
		return ""
	}
	if !c.hasUnit || c.unitAt != c.scale {
		c.unit, c.unitAt, c.hasUnit = c.m.Label(c.scale), c.scale, true
	}
	return c.unit
}

// Append appends one cell: a mark, a number in the column's unit with fixed digits, or the
// exact DCI4 text.
func (c *Column) Append(dst []byte, v namespace.Value) []byte {
	if v.State != namespace.Valid {
		return append(dst, Mark(v)...)
	}
	if c.scaled {
		return c.m.Append(dst, v.V, c.scale, true)
	}
	return appendExact(dst, c.datum, v, c.m, &c.opt)
}

// Format is Append returning a string.
func (c *Column) Format(v namespace.Value) string {
	var buf [48]byte
	return string(c.Append(buf[:0], v))
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
