package headless

import (
	"testing"
	"time"
)

// Issue 39 item 6: relative times as PCP's tools and Go write them; anything else is no
// relative time (a time of day) or an error that says what is wanted.
func TestRelative(t *testing.T) {
	for _, c := range []struct {
		in     string
		want   time.Duration
		ok     bool
		hasErr bool
	}{
		{"-5m", 5 * time.Minute, true, false},
		{"-1h30m", 90 * time.Minute, true, false},
		{"-90s", 90 * time.Second, true, false},
		{"-2days", 48 * time.Hour, true, false},
		{"-1hour", time.Hour, true, false},
		{"-30min", 30 * time.Minute, true, false},
		{"-1.5h", 90 * time.Minute, true, false},
		{"-5x", 0, true, true},
		{"-5m garbage", 0, true, true},
		{"03:12", 0, false, false},
		{"2026-11-25 03:12", 0, false, false},
		{"-", 0, false, false},
		{"", 0, false, false},
	} {
		got, ok, err := Relative(c.in)
		if ok != c.ok || (err != nil) != c.hasErr || (err == nil && got != c.want) {
			t.Errorf("Relative(%q) = %v, %v, %v; want %v, %v, error %v", c.in, got, ok, err, c.want, c.ok, c.hasErr)
		}
	}
	end := time.Date(2026, 11, 25, 4, 0, 0, 0, time.UTC)
	if got, err := ParseAtEnd("-5m", time.UTC, end, end); err != nil || !got.Equal(end.Add(-5*time.Minute)) {
		t.Errorf("ParseAtEnd(-5m) = %v, %v", got, err)
	}
}

// FuzzRelative: any text is a relative time within its bound, no relative time, or an error.
func FuzzRelative(f *testing.F) {
	for _, s := range []string{"-5m", "-1h30m", "-2days", "-999999999999d", "-1.5e9h", "03:12", "-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok, err := Relative(s)
		if err == nil && (d < 0 || d > maxBefore || (!ok && d != 0)) {
			t.Errorf("Relative(%q) = %v, %v", s, d, ok)
		}
	})
}
