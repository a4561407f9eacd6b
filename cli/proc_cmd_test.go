package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// procTree writes a /proc tree of three processes (and the host files the commands need) into
// a new directory, and returns its proc directory.
func procTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../collect/linux/testdata/basic/t0")); err != nil {
		t.Fatal(err)
	}
	write := func(rel, text string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("etc/passwd", "root:x:0:0::/root:/bin/sh\npg:x:113:120::/var/lib/postgresql:/bin/sh\n")
	for _, p := range []struct {
		pid, rss int
		comm     string
		uid      int
	}{{1, 2000, "init", 0}, {4242, 65536, "postgres", 113}, {777, 300, "sshd", 0}} {
		d := fmt.Sprintf("proc/%d/", p.pid)
		write(d+"stat", fmt.Sprintf("%d (%s) S 1 %d %d 0 -1 4194304 10 0 0 0 100 20 0 0 20 0 4 0 %d 100000000 %d 0\n", p.pid, p.comm, p.pid, p.pid, 1000+p.pid, p.rss))
		write(d+"status", fmt.Sprintf("Name:\t%s\nUid:\t%d\t%d\t%d\t%d\nVmRSS:\t%d kB\nvoluntary_ctxt_switches:\t5\nnonvoluntary_ctxt_switches:\t1\n",
			p.comm, p.uid, p.uid, p.uid, p.uid, p.rss*os.Getpagesize()/1024))
		write(d+"io", "rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\nread_bytes: 4096\nwrite_bytes: 0\ncancelled_write_bytes: 0\n")
		write(d+"cmdline", p.comm+"\x00-D\x00/data\x00")
		write(d+"cgroup", "0::/system.slice/"+p.comm+".service\n")
	}
	return filepath.Join(dir, "proc")
}

// Issue 17: `dcimon hot Proc rss --max 2` and `dcimon get 'Proc/*/rss'`, as text and JSON, on
// a tree of processes.
func TestProcCommands(t *testing.T) {
	proc := procTree(t)
	out, errOut, code := runFake(t, "hot", "Proc", "rss", "--max", "2", "--procfs", proc)
	if code != 0 {
		t.Fatalf("hot: exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 4 || !strings.Contains(lines[2], "4242 postgres") || !strings.Contains(lines[3], "1 init") {
		t.Errorf("hot Proc rss: want postgres then init first:\n%s", out)
	}
	out, errOut, code = runFake(t, "hot", "Proc", "rss", "--max", "1", "--procfs", proc, "--json")
	if code != 0 {
		t.Fatalf("hot --json: exit %d: %s", code, errOut)
	}
	var h struct {
		Sets []struct {
			Items []struct {
				Name, Label string
				Value       float64
				Units       string
			}
		}
	}
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &h); err != nil {
		t.Fatalf("hot --json: %v\n%s", err, out)
	}
	page := float64(os.Getpagesize())
	if len(h.Sets) != 1 || len(h.Sets[0].Items) != 1 || h.Sets[0].Items[0].Name != "4242" || h.Sets[0].Items[0].Label != "postgres" ||
		h.Sets[0].Items[0].Value != 65536*page || h.Sets[0].Items[0].Units != "B" {
		t.Errorf("hot --json: %+v", h)
	}
	out, errOut, code = runFake(t, "get", "Proc/*/user", "Proc/4242/cmdline", "--procfs", proc)
	if code != 0 {
		t.Fatalf("get: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Proc/4242/user", "pg", "Proc/777/user", "root", "postgres -D /data"} {
		if !strings.Contains(out, want) {
			t.Errorf("get lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = runFake(t, "list", "--procfs", proc)
	if !strings.Contains(out, "Processes (read on demand: dcimon list Proc)") || strings.Contains(out, "Proc/4242") {
		t.Errorf("list without a path reads the processes:\n%s", out)
	}
}
