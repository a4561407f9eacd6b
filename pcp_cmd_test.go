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
		{"get", "CPU/busy", "--source", p.URL(), "--hosts", "a,b"},
		{"get", "CPU/busy", "--hosts", "a"},
	} {
		if _, errOut, code := runFake(t, args...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", args, code, errOut)
		} else if strings.Contains(errOut, "pw@") {
			t.Errorf("%v: the password is shown: %s", args, errOut)
		}
	}
}
