package ui

import (
	"strconv"
	"strings"

	"dcimon/namespace"
)

// PLACEHOLDER: the views package (DCI4 presentation and unit formatting) is being written. Every
// value the monitor shows goes through the three call sites in this file, so swapping in
// views.FormatValue, views.Why and views.Column is a change here only. Until then values are
// shown as plain numbers with no unit scaling.

// valueText is a value as text: a number, or a mark for a value that is not valid (never 0, X-5).
func valueText(c *namespace.Class, d *namespace.Datum, v namespace.Value) string {
	switch v.State {
	case namespace.Valid:
	case namespace.NoRate:
		return "—"
	default:
		if v.Reason == namespace.ReasonProviderError || v.Reason == namespace.ReasonTimeout || v.Reason == namespace.ReasonAssumedDead {
			return "err"
		}
		return "n/a"
	}
	if !d.IsDerived() && !d.Type.IsNumeric() {
		return safe(v.S)
	}
	return strconv.FormatFloat(v.V, 'g', 4, 64)
}

// whyText says why a value is shown as a mark, or "" for a valid value.
func whyText(v namespace.Value) string {
	if v.State == namespace.Valid {
		return ""
	}
	if v.Reason == namespace.ReasonNone {
		return v.State.String()
	}
	return v.Reason.String()
}

// column formats one datum's values down a table column in one unit.
type column struct {
	class *namespace.Class
	datum *namespace.Datum
}

func newColumn(c *namespace.Class, d *namespace.Datum) column { return column{class: c, datum: d} }

// fit chooses the column's unit for this tick from its values.
func (c *column) fit(vals []namespace.Value) { _ = vals }

// unit is the unit the column's cells are in, or "".
func (c *column) unit() string { return "" }

// format is one cell.
func (c *column) format(v namespace.Value) string { return valueText(c.class, c.datum, v) }

// unitText is the unit of a single value shown on its own.
func unitText(c *namespace.Class, d *namespace.Datum) string { return "" }

// safe makes supplier text harmless for a terminal: control characters become visible escapes.
func safe(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			var b strings.Builder
			for _, r := range s {
				if r < 0x20 || r == 0x7f {
					b.WriteString(`\x` + strconv.FormatInt(int64(r)|0x100, 16)[1:])
					continue
				}
				b.WriteRune(r)
			}
			return b.String()
		}
	}
	return s
}
