package ui

// htop's forms in the process table and the overview's process block (issue 42 item 2): memory
// as htop's Row_printBytes prints it, and control characters in a command line as htop shows
// them.

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// htopBytes writes a size in bytes as htop's RES and VIRT columns do: kibibytes under 100000
// (`852`, `98304`), then mebibytes under 10000 (`512M`, `1037M`: htop does not turn 1037 MiB
// into 1.0G), then gibibytes with one decimal under 100 (`12.3G`), whole under 10000 (`512G`),
// and so on. Every step truncates, as htop's integer division does: a value is never shown
// larger than it is.
func htopBytes(dst []byte, b float64) []byte {
	if b < 0 || b != b {
		return append(dst, "n/a"...)
	}
	const k = 1024
	n := uint64(b) / k // KiB
	switch {
	case n < 100000:
		return strconv.AppendUint(dst, n, 10)
	case n < 10000*k:
		return append(strconv.AppendUint(dst, n/k, 10), 'M')
	case n < 100*k*k:
		dst = strconv.AppendUint(dst, n/(k*k), 10)
		dst = append(dst, '.')
		dst = strconv.AppendUint(dst, (n%(k*k))*10/(k*k), 10)
		return append(dst, 'G')
	case n < 10000*k*k:
		return append(strconv.AppendUint(dst, n/(k*k), 10), 'G')
	case n < 100*k*k*k:
		dst = strconv.AppendUint(dst, n/(k*k*k), 10)
		dst = append(dst, '.')
		dst = strconv.AppendUint(dst, (n%(k*k*k))*10/(k*k*k), 10)
		return append(dst, 'T')
	case n < 10000*k*k*k:
		return append(strconv.AppendUint(dst, n/(k*k*k), 10), 'T')
	}
	return append(strconv.AppendFloat(dst, float64(n)/(k*k*k*k), 'f', 1, 64), 'P')
}

// htopRate is a rate in bytes a second as htop's DISK R/W column prints it: two decimals and
// B/s, K/s, M/s, G/s, T/s (powers of 1024).
func htopRate(r float64) string {
	if r < 0 || r != r {
		return "n/a"
	}
	units := [...]string{"B/s", "K/s", "M/s", "G/s", "T/s", "P/s"}
	i := 0
	for ; r >= 1024 && i < len(units)-1; i++ {
		r /= 1024
	}
	return strconv.FormatFloat(r, 'f', 2, 64) + " " + units[i]
}

// htopCommand is a command line as htop shows it (issue 42 item 2): a newline in an argument is
// a space (htop's merged command turns it into one), and any other control character, C0, DEL
// or C1, and a byte that is not UTF-8 is `?`, as htop's RichString writes what it cannot
// print. What is left goes through safe, for the characters that reorder or hide text.
func htopCommand(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) {
			clean = false
			break
		}
	}
	if clean {
		return safe(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteByte(' ')
		case r == utf8.RuneError || unicode.IsControl(r):
			b.WriteByte('?')
		default:
			b.WriteRune(r)
		}
	}
	return safe(b.String())
}
