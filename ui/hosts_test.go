package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"dcimon/collect"
	"dcimon/collect/pcp"
	"dcimon/internal/pcptest"
	ns "dcimon/namespace"
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

// Issue 40 item 4: a fleet's overview begins with its hosts table: a row per host with its
// figures, the host that is down with its state and why; P sorts it by CPU (the host without
// figures last), S turns it round, ↓ past the last row on screen scrolls it, and Enter opens
// the host under the cursor.
func TestHostsTableOnTheOverview(t *testing.T) {
	s := realFleet(t, 12)
	opts := testOptions()
	opts.Overview = true
	for _, h := range DefaultHotsets() { // as the monitor opens a fleet
		h.Grandpa = "*/" + h.Grandpa
		opts.Hotsets = append(opts.Hotsets, h)
	}
	m := New(s, opts)
	m.after = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 30})
	m = collectOnce(t, m)
	time.Sleep(300 * time.Millisecond)
	m = collectOnce(t, m)
	v := plainView(m)
	for _, want := range []string{"HOST▴", "STATE", "CPU%", "MEM%", "LOAD1", "DISK%", "NET", "AGE", "down", "failing", "web00", "below"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q on the fleet's overview:\n%s", want, v)
		}
	}
	rows := m.ov.hosts.rows
	if len(rows) != 13 || rows[0].Name != "down" || m.ov.hosts.shown >= len(rows) {
		t.Fatalf("%d rows, first %q, %d shown", len(rows), rows[0].Name, m.ov.hosts.shown)
	}
	for _, r := range rows[1:] {
		if r.State != "ok" || r.CPU != r.CPU || r.Mem != r.Mem || r.Load1 != r.Load1 { // NaN ≠ itself
			t.Errorf("%s: %+v", r.Name, r)
		}
	}
	m = keys(t, m, "P")
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
