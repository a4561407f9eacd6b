package headless

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dcimon/collect/pcp"
	"dcimon/internal/pcptest"
)

// Issue 40 item 5: the local host read over pmcd's Unix domain socket, as pcp-htop reads it. A
// private pmcd whose proc PMDA checks access (no -A) answers a client over TCP "No permission"
// for every process, and the same pmcd over its socket (unix:PATH, local:PATH), where the kernel
// tells it who the client is, every process: the busy loop ranks there, with its command.
func TestProcessesOverTheUnixSocket(t *testing.T) {
	p := pcptest.StartProcPMCD(t, false)
	sock := filepath.Join(p.Dir, "pmcd.socket")
	pid := busyLoop(t)
	time.Sleep(300 * time.Millisecond) // the proc PMDA lists it at its next refresh
	hosts := []pcp.Host{{Name: "tcp", Spec: p.Hostspec()}, {Name: "sock", Spec: "unix:" + sock}, {Name: "local", Spec: "local:" + sock}}
	set, last := hotProcesses(t, Common{HostList: hosts, Fleet: true, JSON: true}, 200, 2)
	found := map[string]bool{}
	for _, it := range set.Items {
		host, _, _ := strings.Cut(strings.TrimPrefix(it.Path, "/"), "/")
		if host == "tcp" {
			t.Errorf("a process read over TCP from a proc PMDA that checks access: %+v", it)
		}
		if it.Name == fmt.Sprintf("%s/Proc/%d", host, pid) && it.Label == "sh" && it.Value != nil && *it.Value > 0 {
			found[host] = true
		}
	}
	if !found["sock"] || !found["local"] {
		t.Errorf("the busy loop %d is not ranked over the socket (%v): %s", pid, found, last)
	}
	for _, s := range []string{"pcp:tcp:", "No permission"} {
		if !strings.Contains(set.Error, s) {
			t.Errorf("the TCP host's error does not say %q: %q", s, set.Error)
		}
	}
	if strings.Contains(set.Error, "pcp:sock:") || strings.Contains(set.Error, "pcp:local:") {
		t.Errorf("the socket's host has an error: %q", set.Error)
	}
}

// Issue 40 item 5: a socket that is not there says so, naming it; local: then tries pmcd on
// localhost's port.
func TestUnixSocketNotThere(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "pmcd.socket")
	var out bytes.Buffer
	err := Get(context.Background(), GetOptions{Common: Common{HostList: []pcp.Host{{Name: "a", Spec: "unix:" + gone}, {Name: "b", Spec: "local:" + gone}},
		Fleet: true, JSON: true}, Paths: []string{"/Monitor/*/error"}, Interval: 300 * time.Millisecond, Count: 1}, RealEnv(), &out)
	if err != nil {
		t.Fatalf("get: %v\n%s", err, out.String())
	}
	s := out.String()
	for _, want := range []string{"unix:" + gone, "local:" + gone, "no such file", "and localhost"} {
		if !strings.Contains(s, want) {
			t.Errorf("the errors do not say %q:\n%s", want, s)
		}
	}
}
