// Package views turns dcimon's name space into text: DCI4 statistic values per their
// descriptions, units per UMA and PCP, value states, and the gatherer's minimum display widths.
// Everything here is a pure function of its arguments (no terminal, no clock), shared by the TUI
// panes and the headless commands.
//
// # Display rules
//
// These are the choices dcimon makes where the documents leave room (checklist §7); docs/guide.md
// quotes them.
//
// DCI4 values (checklist 2.4, 2.5), rendered by RenderDCI4 from a description and the bytes of
// the value's slot, and by FormatValue from a datum and a value laid out in the same slot:
//
//   - ST_UNUSED is never listed (Listed, Skipped); other statistics keep their numbers.
//   - Booleans look at bit 0 only (AMB-6: raw 2 is false under SBF_NORMAL) and print exactly
//     on/off, yes/no, true/false, always/never or 1/0. A datum's own UMA_BOOLEAN value is true
//     when not zero (DCI-TYPE-1) and is laid out as bit 0 accordingly.
//   - Strings end at the first NUL; one that does not end within size-1 bytes is cut there and
//     marked. Control characters, escape sequences, invalid UTF-8 and invisible reordering
//     characters are shown as `\x1b`, `\x07`, `\u202e`: no output of this package ever contains
//     a control character.
//   - Integers are read from the first 1, 2, 4 or 8 bytes of their slot, signed unless
//     SIF_UNSIGNED, little-endian unless SIF_BIGENDIAN. Hexadecimal is `0x` and two lowercase
//     digits per byte of the type (two's complement for negatives, AMB-8); dotted is every octet
//     of the type, most significant first (AMB-9).
//   - Addresses: `00:1a:2b:3c:4d:5e`, `192.168.0.1` in stored order, Econet `net.station`
//     (AMB-5).
//   - Times are little-endian (AMB-4). STF_5BYTE is the low 5 bytes, in centiseconds since
//     1900-01-01; STF_CTIME signed seconds since 1970; STF_MONOTONIC unsigned centiseconds since
//     boot (AMB-3); CTIME and MONOTONIC read 8 bytes when the size allows and 4 otherwise.
//   - Absolute times are shown in Options.Location (the TUI passes the local zone; nil is UTC)
//     as `2006-01-02 15:04:05 MST` — `2023-11-14 22:13:20 UTC` — with `.cc` centiseconds for
//     the centisecond formats: `1900-01-01 00:00:00.00 UTC` (AMB-7). STF_MONOTONIC absolute is
//     the boot time plus the value, or `2.50 seconds after boot` when the boot time is unknown.
//   - Relative times are exact: `2.50 seconds` for centiseconds, `90 seconds` for CTIME; with
//     Options.Humanize, durations of a minute or more add the two largest units: `(1h 2m)`
//     (AMB-15).
//   - Anything the document does not define is still shown, best effort, followed by a marker
//     in parentheses ending in `?`: `true (pres 7?)`, `-1 (format 0x4?)`, `12345 (pres 5?)`,
//     `de ad be ef (unknown type 9?)`, `(size 2 too small?)`, `abc (truncated?)` (AMB-13).
//     Rendered.Notes explains each for the describe pane; nothing ever panics.
//
// Units (checklist 1.8, 3):
//
//   - Sizes use base 1024 with KiB, MiB, GiB, TiB labels (AMB-29); times go ps, ns, µs, ms, s,
//     min, h (rates stop at s); counts use k, M, G, T with the unit's short noun: `830 reads/s`,
//     `12.3k pkts/s`, `830/s` for plain counts. Ticks are converted with the datum's tick rate.
//     Units beyond the predefined range print as `unit 70000 (extension)` and are not scaled.
//   - Counters show their rate per second; levels show their value; PERCENT shows the fraction
//     ×100 with one decimal (`75.0%`, AMB-17); a derived datum takes the unit of its arguments
//     (sums keep it, an average over a count is per operation: `ms/op`).
//   - Numbers show three significant digits: `1.23`, `12.3`, `123`; integer parts are never cut
//     and at most three decimals are shown. A lone value drops trailing zeros down to the
//     resolution of its source (`1.5 µs` for 1500000 ps, but `2.50 s` for 250 ticks at 100 Hz);
//     a table column keeps them all (`1.50 µs`) so its cells have stable widths.
//   - One column, one unit: a Column (or ColumnScale) picks the scale of the column's largest
//     value for every cell.
//   - Hysteresis: a Scaler moves up a unit as soon as the value reaches 1.0× the next unit and
//     moves down only when it falls below 0.9× the current unit, so a rate hovering around
//     1 MiB/s does not flip between `1010 KiB/s` and `1.00 MiB/s` every tick.
//
// Bars and gauges fill over the datum's default scale Min..Max (a rate per second for
// counters, SPMI-VAL-3) and clamp at its ends, while the text beside them shows the true value
// (BarFraction, AMB-41).
//
// Values that are not numbers are never shown as `0`: a counter without a usable previous
// reading is `—`, invalid and unavailable values are `n/a`, values lost to a failed collection
// are `err`; Why gives the reason.
//
// The gatherer contract (DCI4-SUP-7, AMB-57): supplier titles show at least 20 characters,
// descriptions 50 and statistic names 20; text that does not fit wraps onto extra lines rather
// than being cut below those lengths (FitText, SupplierText, StatName).
package views
