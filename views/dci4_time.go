// DCI4 times: 5-byte centiseconds, C times and monotonic times, absolute and relative (checklist 2.5).

package views

import (
	"strconv"
	"time"

	"dcimon/namespace"
)

// renderTime decodes the three time formats little-endian (AMB-4): STF_5BYTE from the low 5
// bytes (top 3 ignored), STF_CTIME signed and STF_MONOTONIC unsigned, each from 8 bytes when the
// size allows and 4 otherwise.
func renderTime(dst []byte, d namespace.DCI4Desc, slot []byte, opt *Options, notes *[]string) ([]byte, Issue) {
	n := timeBytes(d)
	if n == 0 {
		dst = appendHexDump(dst, slot)
		return unknownFormat(dst, d, notes), IssueUnknownFormat
	}
	dst, is, ok := need(dst, d, slot, n, notes)
	if !ok {
		return dst, is
	}
	var v uint64
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | uint64(slot[i])
	}
	ctime := d.Format == namespace.STFCTime
	var sec int64
	if ctime {
		sec = int64(v)
		if n == 4 {
			sec = int64(int32(uint32(v)))
		}
	}
	if d.Presentation == namespace.STPRelative {
		return appendRelativeTime(dst, ctime, sec, v, opt.Humanize), is
	}
	dst, abs := appendAbsoluteTime(dst, d.Format, sec, v, opt, notes)
	is |= abs
	if d.Presentation != namespace.STPAbsolute {
		dst = unknownPresentation(dst, d, notes)
		is |= IssueUnknownPresentation
	}
	return dst, is
}

// timeBytes is how many bytes of the slot a time of d's format is read from, 0 for a format
// that is not a time's.
func timeBytes(d namespace.DCI4Desc) int {
	switch d.Format {
	case namespace.STF5Byte:
		return 5
	case namespace.STFCTime, namespace.STFMonotonic:
		if d.Size >= 8 {
			return 8
		}
		return 4
	}
	return 0
}

// appendRelativeTime appends a duration: a C time's seconds, or the centiseconds v of the other
// formats, with the two largest units after it when humanize is set.
func appendRelativeTime(dst []byte, ctime bool, sec int64, v uint64, humanize bool) []byte {
	if !ctime {
		dst = appendCentiseconds(dst, v)
		if humanize {
			dst = appendHuman(dst, false, v/100)
		}
		return dst
	}
	dst = strconv.AppendInt(dst, sec, 10)
	if sec == 1 || sec == -1 {
		dst = append(dst, " second"...)
	} else {
		dst = append(dst, " seconds"...)
	}
	if humanize {
		dst = appendHuman(dst, sec < 0, absInt(sec))
	}
	return dst
}

// appendAbsoluteTime appends a point in time: seconds since 1970 and a fraction, checked against
// years 1..9999 before a time.Time is made of them (int64 seconds near the limits would wrap
// inside time). A monotonic time with no boot time to count from is shown after boot.
func appendAbsoluteTime(dst []byte, format uint32, sec int64, v uint64, opt *Options, notes *[]string) ([]byte, Issue) {
	var unix, nsec int64
	layout := LayoutCentiseconds
	switch format {
	case namespace.STF5Byte:
		unix, nsec = int64(v/100)-epoch1900, int64(v%100)*1e7
	case namespace.STFCTime:
		unix, layout = sec, LayoutSeconds
	case namespace.STFMonotonic:
		if opt.Boot.IsZero() {
			dst = appendCentiseconds(dst, v)
			dst = append(dst, " after boot"...)
			note(notes, "the boot time is unknown, so the time is shown relative to it")
			return dst, IssueBootUnknown
		}
		unix = maxUnix + 1
		if v/100 <= maxUnix {
			unix, nsec = opt.Boot.Unix()+int64(v/100), int64(opt.Boot.Nanosecond())+int64(v%100)*1e7
		}
	}
	if t, ok := timeInRange(unix, nsec, opt.Location); ok {
		return t.AppendFormat(dst, layout), 0
	}
	if format == namespace.STFCTime {
		dst = strconv.AppendInt(dst, sec, 10)
	} else {
		dst = strconv.AppendUint(dst, v, 10)
	}
	dst = append(dst, " (out of range?)"...)
	note(notes, "the time is outside the years 1-9999")
	return dst, IssueOutOfRange
}

// timeInRange is the time unix seconds and nsec nanoseconds after 1970 in loc (UTC when nil),
// and whether it falls in the years 1 to 9999.
func timeInRange(unix, nsec int64, loc *time.Location) (time.Time, bool) {
	if unix < minUnix || unix > maxUnix {
		return time.Time{}, false
	}
	if loc == nil {
		loc = time.UTC
	}
	t := time.Unix(unix, nsec).In(loc)
	return t, t.Year() >= 1 && t.Year() <= 9999
}

func absInt(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

// appendCentiseconds appends a centisecond count as `N.NN seconds`, exactly (AMB-15).
func appendCentiseconds(dst []byte, cs uint64) []byte {
	dst = strconv.AppendUint(dst, cs/100, 10)
	f := cs % 100
	return append(dst, '.', byte('0'+f/10), byte('0'+f%10), ' ', 's', 'e', 'c', 'o', 'n', 'd', 's')
}

// appendHuman appends ` (1h 2m)`: the two largest non-zero units of days, hours, minutes and
// seconds, for durations of a minute or more (AMB-15).
func appendHuman(dst []byte, neg bool, sec uint64) []byte {
	if sec < 60 {
		return dst
	}
	parts := [4]uint64{sec / 86400, sec / 3600 % 24, sec / 60 % 60, sec % 60}
	const names = "dhms"
	dst = append(dst, " ("...)
	if neg {
		dst = append(dst, '-')
	}
	shown := 0
	for i, p := range parts {
		if shown == 2 || (shown > 0 && p == 0) {
			break
		}
		if p == 0 {
			continue
		}
		if shown > 0 {
			dst = append(dst, ' ')
		}
		dst = strconv.AppendUint(dst, p, 10)
		dst = append(dst, names[i])
		shown++
	}
	return append(dst, ')')
}
