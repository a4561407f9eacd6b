package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"dcimon/collect/pcp"
	"dcimon/internal/pcptest"
)

// hostileLoop starts a busy shell loop whose command name (the name it was started by, a link
// to sh) holds an escape sequence, and kills it by its PID at the end of the test.
func hostileLoop(t *testing.T) int {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	link := filepath.Join(t.TempDir(), "ev\x1b[31mil")
	if err := os.Symlink(sh, link); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(link, "-c", "while :; do :; done")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd.Process.Pid
}

// Issue 40 item 5: a fleet's overview has its top processes as one host's has, across every
// host: two pmcds whose proc PMDA serves every process (one machine under both, so the busy
// loop is a process of each) and one whose PMDA denies access. The block ranks the loop on both
// hosts, each row led by its host's name, its command made harmless for the terminal; its
// title counts the hosts that gave processes, and Enter on a row opens that host's process.
func TestFleetOverviewTopProcesses(t *testing.T) {
	a, b, denied := pcptest.StartProcPMCD(t, true), pcptest.StartProcPMCD(t, true), pcptest.StartProcPMCD(t, false)
	pid := hostileLoop(t)
	time.Sleep(300 * time.Millisecond) // the proc PMDA lists it at its next refresh
	hosts := []pcp.Host{{Name: "alpha", Spec: a.Hostspec()}, {Name: "beta", Spec: b.Hostspec()}, {Name: "gamma", Spec: denied.Hostspec()}}
	m := fleetOverview(t, fleetSampler(t, hosts), 120, 40)
	var v string
	for range 3 { // the processes are read once the hosts' Proc is on screen; rates at the second
		time.Sleep(700 * time.Millisecond)
		m = collectOnce(t, m)
		v = m.View()
	}
	plain := plainView(m)
	// Each host's processes are read, not its PCP name space with them: reading a host's Proc
	// once pulled every on-demand class of the host, the lazy nodes of its name space too,
	// which each reading then explored a level further (990 classes for two hosts, each
	// collection past its deadline, every host "busy").
	procs := 0
	for _, c := range m.sub.classes {
		if c.Lazy {
			t.Errorf("the overview reads %s, a node of a PCP name space", c.ID)
		}
		if c.Name == "Proc" || c.DatumByName("cpu") >= 0 && c.DatumByName("user") >= 0 {
			procs++
		}
	}
	if procs < 3 || len(m.sub.classes) > 200 {
		t.Errorf("the overview reads %d classes, %d of processes", len(m.sub.classes), procs)
	}
	if !strings.Contains(plain, "Processes by CPU of the fleet — top ") || !strings.Contains(plain, " on 2 of 3 hosts") {
		t.Fatalf("no fleet process block counting 2 of 3 hosts:\n%s", plain)
	}
	// The host whose PMDA will not serve its processes still answers.
	if !strings.Contains(plain, "3 of 3 hosts answer") {
		t.Errorf("a host without processes counted as not answering:\n%s", plain)
	}
	if !strings.Contains(plain, "HOST") || !strings.Contains(plain, "PID") || !strings.Contains(plain, "%CPU") {
		t.Errorf("the block's header lacks HOST, PID or %%CPU:\n%s", plain)
	}
	if strings.Contains(v, "ev\x1b[31mil") {
		t.Errorf("the hostile command name reached the terminal as it is")
	}
	on := map[string]bool{}
	for _, l := range strings.Split(plain, "\n") {
		f := strings.Fields(l)
		if len(f) > 2 && f[1] == strconv.Itoa(pid) {
			on[f[0]] = true
			if !strings.Contains(l, "ev") || !strings.Contains(l, "il") {
				t.Errorf("the loop's row lacks its command: %q", l)
			}
		}
		if _, err := strconv.Atoi(safeField(f, 1)); err == nil && f[0] == "gamma" {
			t.Errorf("a process of the host whose PMDA denies access: %q", l)
		}
	}
	if !on["alpha"] || !on["beta"] {
		t.Errorf("the busy loop %d is not ranked on both hosts (%v):\n%s", pid, on, plain)
	}
	// Enter on the loop's row opens that host's process.
	want := ""
	for i, p := range m.ov.paths {
		if strings.HasPrefix(p, "alpha/Proc/"+strconv.Itoa(pid)+"/") {
			want = "alpha/Proc/" + strconv.Itoa(pid)
			for range i - m.ov.cursor {
				m = keys(t, m, "j")
			}
			break
		}
	}
	if want == "" {
		t.Fatalf("no path of alpha's loop among the overview's %v", m.ov.paths)
	}
	m = keys(t, m, "{enter}")
	if m.sel.Ctx == nil || !strings.Contains(m.sel.Ctx.Path(), want) {
		t.Errorf("Enter opened %v, want %s", m.sel.Ctx, want)
	}
}

// safeField is f[i], "" past its end.
func safeField(f []string, i int) string {
	if i < len(f) {
		return f[i]
	}
	return ""
}

// Issue 40 item 5: the fleet's process block reads the processes of the hosts in the hosts
// table's rows on screen, not of every host (a thousand hosts' processes, some 200 a host,
// would be read at every collection); a scroll brings other hosts' in.
func TestFleetProcessesOfTheHostsOnScreen(t *testing.T) {
	m := fleetOverview(t, realFleet(t, 24), 120, 30)
	_ = plainView(m) // the table's rows on screen are known once drawn
	m = collectOnce(t, m)
	procs := func() map[string]bool {
		out := map[string]bool{}
		for _, c := range m.sub.classes {
			if c.DatumByName("cpu") >= 0 && c.DatumByName("user") >= 0 {
				out[c.ID.String()] = true
			}
		}
		return out
	}
	shown := m.ov.hosts.shown
	first := procs()
	if shown == 0 || shown >= len(m.ov.hosts.rows) || len(first) == 0 || len(first) > shown {
		t.Fatalf("%d hosts' processes read, %d of %d rows on screen", len(first), shown, len(m.ov.hosts.rows))
	}
	m = keys(t, m, "{pgdown}")
	_ = plainView(m)
	m = collectOnce(t, m)
	after := procs()
	if len(after) == 0 || len(after) > m.ov.hosts.shown {
		t.Errorf("after a page down: %d hosts' processes read, %d rows on screen", len(after), m.ov.hosts.shown)
	}
	for id := range after {
		if !first[id] {
			return // the page brought another host's processes in
		}
	}
	t.Errorf("a page down read no other host's processes: %v, before %v", after, first)
}

// Issue 40 (budgets): the classes on screen are worked out again when what is on screen
// changes, not at every reading: the hot pane's rows are drawn again at every reading, and
// its version was the subscription's key, so a fleet of 1,000 hosts worked them out (a sixth
// of a processor at 100 ms) for nothing.
func TestSubscriptionKeyStillAcrossReadings(t *testing.T) {
	m := newModel(t, newSynthSampler(t, "synthetic:disks=6,nics=3,cpus=4,seed=7"), 120, 40, 3)
	_ = m.View()
	key := m.sub.key
	for range 3 {
		m = collectOnce(t, m)
		_ = m.View()
		if m.sub.key != key {
			t.Fatalf("a reading moved the subscription's key: %+v, was %+v", m.sub.key, key)
		}
	}
}
