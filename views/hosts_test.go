package views

import (
	"math"
	"testing"
	"time"
)

// Issue 40 item 4: relayed hosts are told apart however narrow the column: the pmcd's part is
// kept before the relay's (before, both read "127.0…57073").
func TestHostName(t *testing.T) {
	a, b := "127.0.0.1:44321@127.0.0.1:57073", "127.0.0.1:44322@127.0.0.1:57073"
	for _, w := range []int{8, 12, 16, 20, 24, 40} {
		na, nb := HostName(a, w), HostName(b, w)
		if na == nb {
			t.Errorf("width %d: both %q", w, na)
		}
		if Width(na) > w || Width(nb) > w {
			t.Errorf("width %d: %q, %q wider", w, na, nb)
		}
	}
	if got := HostName("db1", 10); got != "db1" {
		t.Errorf("a short name: %q", got)
	}
	if got := HostName("db1@gateway.example.com", 12); got != "db1@gatew…om" && Width(got) != 12 {
		t.Errorf("a relayed name: %q", got)
	}
}

// Issue 40 item 4: the hosts table sorts with n/a last either way and ties in name order.
func TestSortHosts(t *testing.T) {
	nan := math.NaN()
	rows := []HostRow{
		{Name: "c", CPU: 5, Age: time.Second},
		{Name: "a", CPU: nan, Age: -1},
		{Name: "b", CPU: 5, Age: 2 * time.Second},
		{Name: "d", CPU: 90, Age: 0},
	}
	names := func() string {
		s := ""
		for _, r := range rows {
			s += r.Name
		}
		return s
	}
	for _, tt := range []struct {
		key  string
		desc bool
		want string
	}{
		{"cpu", true, "dbca"}, {"cpu", false, "bcda"}, {"name", false, "abcd"}, {"age", false, "dcba"}, {"age", true, "bcda"},
	} {
		SortHosts(rows, tt.key, tt.desc)
		if got := names(); got != tt.want {
			t.Errorf("by %s desc=%v: %s, want %s", tt.key, tt.desc, got, tt.want)
		}
	}
	if got := HostFigure("cpu", HostRow{CPU: nan}); got != "n/a" {
		t.Errorf("an unread figure: %q", got)
	}
	if got := BytesRate(1234567); got != "1.23 MB/s" {
		t.Errorf("BytesRate: %q", got)
	}
}
