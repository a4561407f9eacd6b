package main

import (
	"fmt"
	"strings"
	"testing"

	"dcimon/internal/pcptest"
)

// Issue 14: the headless commands read a remote host through a real pmproxy, and a pmproxy that
// is not there is a clear error naming its URL, exit status 1.
func TestPCPSourceCommands(t *testing.T) {
	p := pcptest.Start(t)
	src := []string{"--source", p.URL(), "--hosts", p.Hostspec()}
	out, errOut, code := runFake(t, append([]string{"get", "CPU/busy", "Mem/Real/total"}, src...)...)
	if code != 0 || !strings.Contains(out, "CPU/busy") || !strings.Contains(out, "GiB") {
		t.Errorf("get: exit %d %s\n%s", code, errOut, out)
	}
	out, _, code = runFake(t, append([]string{"list", "CPU"}, src...)...)
	if code != 0 || !strings.Contains(out, "/"+p.Hostspec()+"/CPU/") {
		t.Errorf("list names the host by its hostspec: exit %d\n%s", code, out)
	}
	out, _, code = runFake(t, append([]string{"describe", "CPU/cpu0/idle"}, src...)...)
	if code != 0 || !strings.Contains(out, "kernel.percpu.cpu.idle") {
		t.Errorf("describe names the PCP metric: exit %d\n%s", code, out)
	}

	down := fmt.Sprintf("pcp://127.0.0.1:%d", pcptest.FreePort(t))
	_, errOut, code = runFake(t, "get", "CPU/busy", "--source", down)
	if code != 1 || !strings.Contains(errOut, strings.TrimPrefix(down, "pcp://")) {
		t.Errorf("pmproxy down: exit %d, stderr %q; want 1 naming the URL", code, errOut)
	}
	for _, args := range [][]string{
		{"get", "CPU/busy", "--source", "pcp://a:b:c"},
		{"get", "CPU/busy", "--source", "pcp://u:pw@proxy"},
		{"get", "CPU/busy", "--source", p.URL(), "--hosts", "a,a"},
		{"get", "CPU/busy", "--source", p.URL(), "--hosts", "x/y=a"},
		{"get", "CPU/busy", "--hosts", "a"},
	} {
		if _, errOut, code := runFake(t, args...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", args, code, errOut)
		} else if strings.Contains(errOut, "pw@") {
			t.Errorf("%v: the password is shown: %s", args, errOut)
		}
	}
}

// Several hosts through one pmproxy (issue 14): each host's classes under its own context,
// named by its hostspec or alias; a path without a host means every host; a host that is down
// degrades only its own classes, with pmproxy's reason.
func TestPCPSeveralHosts(t *testing.T) {
	p1 := pcptest.Start(t)
	p2 := pcptest.Start(t)
	down := fmt.Sprintf("127.0.0.1:%d", pcptest.FreePort(t))
	hosts := fmt.Sprintf("%s,db=%s,gone=%s", p1.Hostspec(), p2.Hostspec(), down)
	src := []string{"--source", p1.URL(), "--hosts", hosts}
	out, errOut, code := runFake(t, append([]string{"get", "CPU/busy", "/db/Mem/Real/total"}, src...)...)
	if code != 0 {
		t.Fatalf("get: exit %d: %s\n%s", code, errOut, out)
	}
	for _, want := range []string{p1.Hostspec() + "/CPU/busy", "db/CPU/busy", "db/Mem/Real/total", "GiB", "gone/CPU/busy", "cannot connect to PMCD"} {
		if !strings.Contains(out, want) {
			t.Errorf("get: no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "db/CPU/busy                err") {
		t.Errorf("a host that answers is degraded by one that does not:\n%s", out)
	}
	out, _, code = runFake(t, append([]string{"list", "db/CPU"}, src...)...)
	if code != 0 || !strings.Contains(out, "/db/CPU/cpu0/") {
		t.Errorf("list db/CPU: exit %d\n%s", code, out)
	}
	out, _, code = runFake(t, append([]string{"hot", "/db/Disk", "busy"}, src...)...)
	if code != 0 || !strings.Contains(out, "db/Disk busy") {
		t.Errorf("hot /db/Disk busy: exit %d\n%s", code, out)
	}
	// A fleet hotset: the disks of every host ranked together, named host/Disk/disk, with the
	// SPMI rules holding across hosts: every disk is below 101% busy, so with a negative
	// threshold each qualifies and raises its exception (SPMI-HOT-7, SPMI-HOT-12).
	out, errOut, code = runFake(t, append([]string{"hot", "Disk", "busy", "--threshold", "-101", "--exceptions", "exception",
		"--severity", "2", "--max", "10"}, src...)...)
	if code != 0 {
		t.Fatalf("hot Disk busy across hosts: exit %d %s\n%s", code, errOut, out)
	}
	for _, want := range []string{"*/Disk busy", p1.Hostspec() + "/Disk/", "db/Disk/", "severity 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("fleet hotset: no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "gone/Disk") {
		t.Errorf("a host that is down has disks in the ranking:\n%s", out)
	}
}
