package ui

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/pcp"
	"dcimon/internal/pcptest"
	ns "dcimon/namespace"
	"dcimon/views"
)

// realFleet is a sampler of n hosts on one real pmcd (every fourth relayed by its pmproxy) and
// one that is down.
func realFleet(t *testing.T, n int) *collect.Sampler {
	t.Helper()
	p := pcptest.Start(t)
	var hosts []pcp.Host
	for i := range n {
		spec := p.Hostspec()
		if i%4 == 3 {
			spec = p.ProxyHostspec()
		}
		hosts = append(hosts, pcp.Host{Name: fmt.Sprintf("web%02d", i), Spec: spec})
	}
	hosts = append(hosts, pcp.Host{Name: "down", Spec: fmt.Sprintf("127.0.0.1:%d", pcptest.FreePort(t))})
	return fleetSampler(t, hosts)
}

// fleetSampler is a sampler of hosts' pmcds, with the deadlines a test on a loaded machine allows.
func fleetSampler(t *testing.T, hosts []pcp.Host) *collect.Sampler {
	t.Helper()
	provs, err := pcp.Fleet(pcp.Options{Interval: time.Second, Deadline: 10 * time.Second, ProbeDeadline: 10 * time.Second}, hosts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := collect.NewSampler(ns.NewRegistry(), provs, collect.Options{Deadline: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fleetOverview is the monitor as it opens a fleet (the overview first, the default hotsets over
// every host's peers), sized w×h, after one collection.
func fleetOverview(t *testing.T, s Sampler, w, h int) Model {
	t.Helper()
	opts := testOptions()
	opts.Overview = true
	for _, hs := range DefaultHotsets() {
		hs.Grandpa = "*/" + hs.Grandpa
		opts.Hotsets = append(opts.Hotsets, hs)
	}
	return newModelWith(t, s, opts, w, h, 1)
}

// Issue 40 item 4: a fleet's overview begins with its hosts table: a row per host with its
// figures, the host that is down with its state and why; P sorts it by CPU (the host without
// figures last), S turns it round, ↓ past the last row on screen scrolls it, and Enter opens
// the host under the cursor.
func TestHostsTableOnTheOverview(t *testing.T) {
	m := fleetOverview(t, realFleet(t, 12), 120, 30)
	time.Sleep(300 * time.Millisecond)
	m = collectOnce(t, m)
	v := plainView(m)
	wantAll(t, "the fleet's overview", v, "HOST▴", "STATE", "CPU%", "MEM%", "LOAD1", "DISK%", "NET", "AGE", "down", "failing", "web00", "below")
	rows := m.ov.hosts.rows
	if len(rows) != 13 || rows[0].Name != "down" || m.ov.hosts.shown >= len(rows) {
		t.Fatalf("%d rows, first %q, %d shown", len(rows), rows[0].Name, m.ov.hosts.shown)
	}
	// Issue 38: sorted by name, only the rows on screen have had their figures read.
	for i, r := range rows {
		if drawn := i < m.ov.hosts.top+m.ov.hosts.shown; r.Pending() == drawn {
			t.Errorf("row %d (%s): figures pending %v, %d rows drawn", i, r.Name, r.Pending(), m.ov.hosts.shown)
		}
	}
	m = keys(t, m, "P")
	// Sorted by CPU, every row has its figures.
	for _, r := range m.ov.hosts.rows {
		if r.Name == "down" {
			continue
		}
		if r.Pending() || r.State != "ok" || r.CPU != r.CPU || r.Mem != r.Mem || r.Load1 != r.Load1 { // NaN ≠ itself
			t.Errorf("%s: %+v", r.Name, r)
		}
	}
	if rows := m.ov.hosts.rows; rows[len(rows)-1].Name != "down" || m.ov.hosts.key != "cpu" || !m.ov.hosts.desc {
		t.Errorf("P: sorted by %s desc=%v, last %s", m.ov.hosts.key, m.ov.hosts.desc, rows[len(rows)-1].Name)
	}
	if !strings.Contains(plainView(m), "CPU%▾") {
		t.Errorf("P: the sort column is not marked:\n%s", plainView(m))
	}
	m = keys(t, m, "S")
	if m.ov.hosts.desc {
		t.Error("S did not turn the order round")
	}
	// Down to the last row on screen, and one more: the table scrolls, the cursor stays on it.
	shown := m.ov.hosts.shown
	for range shown - 1 {
		m = keys(t, m, "j")
	}
	if m.ov.hosts.top != 0 {
		t.Fatalf("scrolled before the last row: top %d", m.ov.hosts.top)
	}
	m = keys(t, m, "j")
	if m.ov.hosts.top != 1 {
		t.Errorf("↓ on the last row on screen: top %d, want 1", m.ov.hosts.top)
	}
	want := m.ov.hosts.rows[m.ov.hosts.top+shown-1].Path
	m = keys(t, m, "{enter}")
	if m.ov.on || m.sel.Ctx == nil || m.sel.Ctx.Path() != want {
		got := ""
		if m.sel.Ctx != nil {
			got = m.sel.Ctx.Path()
		}
		t.Errorf("Enter opened %q, want the host %q", got, want)
	}
}

// BenchmarkHostsTableKey is issue 40's budget for the hosts table of 1,000 hosts: a key press
// that sorts it again (by the next column each time) and the table drawn at 200x60 (30 rows).
// The budget is 16 ms.
func BenchmarkHostsTableKey(b *testing.B) {
	m := New(newFixture(b, 2, 1, "eth0"), testOptions())
	rows := make([]views.HostRow, 1000)
	for i := range rows {
		rows[i] = views.HostRow{Name: fmt.Sprintf("web%04d.example.com", i), Path: fmt.Sprintf("web%04d", i), State: "ok",
			CPU: float64(i%97) + 0.5, Mem: float64(i%53) + 0.25, Load1: float64(i%7) / 3, Disk: float64(i % 89), DiskName: "nvme0n1",
			Net: float64(i) * 12345, Age: time.Duration(i%13) * time.Millisecond}
		if i%10 == 0 {
			rows[i].State, rows[i].Why = "failing", "pmcd web: connect: no answer in time"
			rows[i].CPU, rows[i].Mem, rows[i].Load1, rows[i].Disk, rows[i].Net, rows[i].Age = nan, nan, nan, nan, nan, -1
		}
	}
	m.ov.hosts.rows = rows
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.ov.hosts.sortBy(views.HostKeys[i%len(views.HostKeys)])
		if len(m.hostsLines(198, 30)) == 0 {
			b.Fatal("no table")
		}
		i++
	}
}

var nan = math.NaN()
