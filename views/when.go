package views

import (
	"fmt"
	"time"
)

// ParseTime reads a time a user types for an archive (--at, --from, --to, the replay's :@): RFC
// 3339, a date and time in loc (2026-11-25 03:12, 2026-11-25 03:12:05, or with a T), or a time of
// day (03:12, 03:12:05), which is put on day's date in loc and reported with clock true: the
// caller knows which day an archive means. A time of day without a day is an error.
func ParseTime(s string, loc *time.Location, day time.Time) (t time.Time, clock bool, err error) {
	if loc == nil {
		loc = time.Local
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, false, nil
	}
	for _, f := range []string{"2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02T15:04:05", "2006-01-02T15:04"} {
		if t, err := time.ParseInLocation(f, s, loc); err == nil {
			return t, false, nil
		}
	}
	for _, f := range []string{"15:04:05", "15:04"} {
		if c, err := time.ParseInLocation(f, s, loc); err == nil && !day.IsZero() {
			d := day.In(loc)
			return time.Date(d.Year(), d.Month(), d.Day(), c.Hour(), c.Minute(), c.Second(), c.Nanosecond(), loc), true, nil
		}
	}
	return time.Time{}, false, fmt.Errorf("%q: want a time of day (03:12, 03:12:05), a date and time (2026-11-25 03:12, local time) or RFC 3339 (2026-11-25T03:12:00Z)", Safe(s))
}
