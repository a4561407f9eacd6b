package headless

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"dcimon/collect"
	"dcimon/views"
)

// relUnit is one number and unit of a relative time, as PCP's tools write them (-S -1hour,
// -T -30min) and as Go does (-1h30m).
var relUnit = regexp.MustCompile(`^(\d+(?:\.\d+)?)\s*(seconds|second|secs|sec|s|minutes|minute|mins|min|m|hours|hour|hrs|hr|h|days|day|d)`)

// maxBefore bounds a relative time (a duration overflows at 292 years).
const maxBefore = 100 * 365 * 24 * time.Hour

// Relative reads a time before the end ("-5m", "-1h30m", "-90s", "-2days"): how long before
// it; ok is false when s is no relative time (a time of day, a date).
func Relative(s string) (before time.Duration, ok bool, err error) {
	rest, neg := strings.CutPrefix(strings.TrimSpace(s), "-")
	if !neg || rest == "" || rest[0] < '0' || rest[0] > '9' {
		return 0, false, nil
	}
	for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
		m := relUnit.FindStringSubmatch(rest)
		if m == nil {
			return 0, true, fmt.Errorf("%q: want a time before the end such as -5m, -1h30m, -90s or -2days", views.Safe(s))
		}
		n, _ := strconv.ParseFloat(m[1], 64)
		unit := time.Second
		switch m[2][0] {
		case 'm':
			unit = time.Minute
		case 'h':
			unit = time.Hour
		case 'd':
			unit = 24 * time.Hour
		}
		if d := n * float64(unit); d > float64(maxBefore) || before+time.Duration(d) > maxBefore {
			return 0, true, fmt.Errorf("%q: further back than %d years", views.Safe(s), maxBefore/(24*time.Hour*365))
		}
		before += time.Duration(n * float64(unit))
		rest = rest[len(m[0]):]
	}
	return before, true, nil
}

// ParseAtEnd is ParseAt with a relative time (-5m) read before end: an archive's last sample, or
// now for a live host or time series (issue 39 item 6).
func ParseAtEnd(s string, loc *time.Location, day, end time.Time) (time.Time, error) {
	if before, ok, err := Relative(s); ok {
		if err != nil {
			return time.Time{}, err
		}
		return end.Add(-before), nil
	}
	return ParseAt(s, loc, day)
}

// endOf is the end a relative time is read before: the archives' last sample, or now.
func (c Common) endOf(past collect.History, e Env) time.Time {
	if len(c.Archives) > 0 && past != nil {
		_, last := past.Span()
		return last
	}
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}
