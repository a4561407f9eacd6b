package views

import (
	"strings"
	"testing"
	"time"
)

// Issue 15: the times a user types for an archive, in one reader for the commands and the
// replay's :@.
func TestParseTime(t *testing.T) {
	utc := time.UTC
	day := time.Date(2026, 11, 23, 22, 0, 0, 0, utc)
	for _, c := range []struct {
		in    string
		want  time.Time
		clock bool
	}{
		{"2026-11-25T03:12:00Z", time.Date(2026, 11, 25, 3, 12, 0, 0, utc), false},
		{"2026-11-25T03:12:00+01:00", time.Date(2026, 11, 25, 2, 12, 0, 0, utc), false},
		{"2026-11-25 03:12", time.Date(2026, 11, 25, 3, 12, 0, 0, utc), false},
		{"2026-11-25 03:12:05", time.Date(2026, 11, 25, 3, 12, 5, 0, utc), false},
		{"2026-11-25T03:12", time.Date(2026, 11, 25, 3, 12, 0, 0, utc), false},
		{"03:12", time.Date(2026, 11, 23, 3, 12, 0, 0, utc), true}, // on day's date: the caller picks the day
		{"03:12:05.5", time.Date(2026, 11, 23, 3, 12, 5, 5e8, utc), true},
	} {
		got, clock, err := ParseTime(c.in, utc, day)
		if err != nil || !got.Equal(c.want) || clock != c.clock {
			t.Errorf("ParseTime(%q) = %v, %v, %v; want %v, %v", c.in, got, clock, err, c.want, c.clock)
		}
	}
	for _, in := range []string{"3 am", "", "25:00", "2026-13-01 00:00", "03:12 tomorrow", "\x1b[31m03:12"} {
		if _, _, err := ParseTime(in, utc, day); err == nil || strings.Contains(err.Error(), "\x1b") {
			t.Errorf("ParseTime(%q): %v, want an error with the text made safe", in, err)
		}
	}
	if _, _, err := ParseTime("03:12", utc, time.Time{}); err == nil {
		t.Error("a time of day without a day: no error")
	}
}
