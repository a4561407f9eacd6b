package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"dcimon/collect/pcp"
	"dcimon/internal/archivetest"
	"dcimon/internal/pcptest"
)

// Issue 40 item 4: `hosts` reads a fleet of real pmcds as the monitor's hosts table does: a
// host that answers has its CPU, memory used, load and age figures; a host that does not answer
// is there with its state and why, its figures null, never 0; the hosts sort as asked.
func TestHostsOfARealFleet(t *testing.T) {
	p := pcptest.Start(t)
	down := fmt.Sprintf("127.0.0.1:%d", pcptest.FreePort(t))
	// A host named by a long hostspec: its Monitor instance's name is made short, and the
	// table finds it all the same.
	hosts := []pcp.Host{{Name: "good", Spec: p.Hostspec()}, {Name: "relayed", Spec: p.ProxyHostspec()}, {Name: "down", Spec: down},
		{Name: p.ProxyHostspec(), Spec: p.ProxyHostspec()}}
	var out bytes.Buffer
	err := Hosts(context.Background(), HostsOptions{Common: Common{HostList: hosts, Fleet: true, JSON: true}, Interval: 500 * time.Millisecond,
		Count: 2, Sort: "cpu"}, RealEnv(), &out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d readings, want 2:\n%s", len(lines), out.String())
	}
	var r hostsReading
	if err := json.Unmarshal([]byte(lines[1]), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Hosts) != 4 || r.Answer != 3 {
		t.Fatalf("%d hosts, %d answering: %s", len(r.Hosts), r.Answer, lines[1])
	}
	if r.Hosts[3].Name != "down" {
		t.Errorf("a host without figures sorts last by cpu: %s", lines[1])
	}
	for _, h := range r.Hosts {
		switch h.Name {
		case "down":
			if h.State != "failing" || !strings.Contains(h.Why, "refused") || h.CPU != nil || h.Mem != nil || h.Net != nil || h.Age != nil {
				t.Errorf("the host that is down: %+v", h)
			}
		default:
			if h.State != "ok" || h.CPU == nil || h.Mem == nil || h.Load1 == nil || h.Age == nil || *h.CPU < 0 || *h.CPU > 100.5 || *h.Mem <= 0 || *h.Mem > 100 {
				t.Errorf("%s: %s", h.Name, lines[1])
			}
		}
	}
	// The text table: a heading, a row a host, the reason of the one down.
	out.Reset()
	if err := Hosts(context.Background(), HostsOptions{Common: Common{HostList: hosts, Fleet: true}, Interval: 300 * time.Millisecond,
		Count: 1, Sort: "name"}, RealEnv(), &out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !strings.Contains(text, "3 of 4 hosts answer") || !strings.Contains(text, "HOST") || !strings.Contains(text, "refused") ||
		strings.Index(text, "\ndown") > strings.Index(text, "\ngood") {
		t.Errorf("the text table:\n%s", text)
	}
	if err := Hosts(context.Background(), HostsOptions{Common: Common{HostList: hosts, Fleet: true}, Sort: "nope", Count: 1}, RealEnv(), &out); err == nil {
		t.Error("--sort nope: no error")
	}
}

// Issue 40 item 4: the hosts of several archives have the same table, read a sample at a time
// without waiting: each host's CPU, memory, load and busiest disk from its archive.
func TestHostsOfArchives(t *testing.T) {
	bases, err := archivetest.WriteFleet(t.TempDir(), archivetest.Fleet{Hosts: 3, Disks: 2, Samples: 6})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	slept := 0
	env := RealEnv()
	env.Sleep = func(context.Context, time.Duration) error { slept++; return nil }
	if err := Hosts(context.Background(), HostsOptions{Common: Common{Archives: bases, Fleet: true, JSON: true}, Count: 2, Sort: "disk"}, env, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || slept != 0 {
		t.Fatalf("%d readings after %d waits:\n%s", len(lines), slept, out.String())
	}
	var r hostsReading
	if err := json.Unmarshal([]byte(lines[1]), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Hosts) != 3 {
		t.Fatalf("%d hosts: %s", len(r.Hosts), lines[1])
	}
	for i, h := range r.Hosts {
		if h.State != "ok" || h.Disk == nil || h.DiskName == "" {
			t.Errorf("%s: %s", h.Name, lines[1])
		}
		if i > 0 && h.Disk != nil && r.Hosts[i-1].Disk != nil && *h.Disk > *r.Hosts[i-1].Disk {
			t.Errorf("not sorted by the busiest disk: %s", lines[1])
		}
	}
}
