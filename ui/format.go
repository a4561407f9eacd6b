package ui

import (
	"time"

	"dcimon/namespace"
	"dcimon/views"
)

// Every value the monitor shows goes through the views package, so the panes, the headless
// commands and the tests agree on DCI4 presentation, units, scales and the marks of values that
// are not valid. This file is the one place the UI calls it for values.

// valueFormat renders values with the monitor's display options.
type valueFormat struct {
	loc *time.Location // absolute DCI4 times are shown in this zone
	// raw shows counters as their cumulative readings and every value exactly in its declared
	// unit (X-2: the raw/rate toggle of the values pane).
	raw bool
	// netBits shows interfaces' byte rates in bits per second (Options.NetBits).
	netBits bool
}

func (f valueFormat) opts(c *namespace.Class) views.Options {
	return views.Options{Location: f.loc, Class: c, Humanize: true, Raw: f.raw, Interface: views.SupplierInterface(c), NetBits: f.netBits}
}

// measure is how d's values are shown: its unit and scale, with the display preferences.
func (f valueFormat) measure(c *namespace.Class, d *namespace.Datum) views.Measure {
	return views.MeasureWith(f.opts(c), d)
}

// text is one value as text with its unit (`12.4 MiB/s`, `75.0%`), or its mark (`—`, `n/a`,
// `err`): never a 0 for a value that is not valid.
func (f valueFormat) text(c *namespace.Class, d *namespace.Datum, v namespace.Value) string {
	return views.FormatValue(d, v, f.opts(c))
}

// column formats one datum's values down a table column: one unit per column, chosen each tick
// from the column's largest value with hysteresis.
func (f valueFormat) column(c *namespace.Class, d *namespace.Datum) views.Column {
	return views.NewColumn(d, f.opts(c))
}

// whyText says why a value is shown as a mark, or "" for a valid value.
func whyText(v namespace.Value) string { return views.Why(v) }

// isErrorMark reports whether a value is lost to a failed collection (shown as `err`).
func isErrorMark(v namespace.Value) bool { return views.Mark(v) == views.MarkError }

// valueInk paints a value by its state, so that every state a cell can be in looks different in
// every theme, mono included: a number plainly; "—" (no rate yet) and "n/a" for a value
// invalid for its instance (not applicable: a read-only disk's writes, DCI-INV-4) muted; "n/a"
// for an unavailable value as a warning; "err" as critical.
func valueInk(st *styles, v namespace.Value) ink {
	switch {
	case v.State == namespace.Valid:
		return st.Value.Valid
	case v.State == namespace.NoRate, v.State == namespace.Invalid:
		return st.Value.Invalid
	case isErrorMark(v):
		return st.Value.Error
	}
	return st.Value.Unavailable
}

// safe makes supplier text harmless for a terminal: control characters become visible escapes.
func safe(s string) string { return views.Safe(s) }

// datumBar is how full a bar for the value is over the datum's SPMI default scale, clamped at
// its ends (SPMI-VAL-3, AMB-41); over says it was clamped at the top.
func datumBar(d *namespace.Datum, v namespace.Value) (frac float64, over, ok bool) {
	frac, clamped, ok := views.BarFraction(d, v)
	return frac, clamped && frac >= 1, ok
}
