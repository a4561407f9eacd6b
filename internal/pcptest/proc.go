package pcptest

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pmcdConf is PCP's own pmcd.conf, whose lines run its PMDAs as the package installed them.
const pmcdConf = "/etc/pcp/pmcd/pmcd.conf"

// StartProcPMCD starts a pmcd alone (no pmproxy) with the PMDAs a host's processes need: PCP's
// own lines for root, pmcd, proc and linux and its access rules, the proc PMDA run with -A (no
// access checks: any client reads every process) when open, as PCP installs it (checking
// access: a client over TCP that has not authenticated gets "No permission") when not. It
// waits until pmcd answers, and kills it at the end of the test (issue 40 item 5).
func StartProcPMCD(t testing.TB, open bool) *PCP {
	t.Helper()
	if ok, why := Installed(); !ok {
		t.Skip(why)
	}
	if err := prepare(); err != nil {
		t.Fatalf("preparing PCP: %v", err)
	}
	p := &PCP{Dir: t.TempDir(), PMCDPort: FreePort(t)}
	conf, err := procConf(open)
	if err != nil {
		t.Skipf("PCP's %s: %v", pmcdConf, err)
	}
	p.Conf = filepath.Join(p.Dir, "pmcd.conf")
	if err := os.WriteFile(p.Conf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	p.StartPMCD(t)
	deadline := time.Now().Add(15 * time.Second)
	for {
		out, err := Output("pminfo", "-h", p.Hostspec(), "-f", "proc.nprocs")
		if err == nil && strings.Contains(out, "value") {
			return p
		}
		if time.Now().After(deadline) {
			logs, _ := os.ReadFile(filepath.Join(p.Dir, "pmcd.log"))
			t.Fatalf("pmcd %s did not serve proc.nprocs within 15 s: %s\npmcd.log:\n%s", p.Hostspec(), out, logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// procConf is PCP's pmcd.conf cut to the PMDAs processes need, with its access section; the
// proc line gets -A when open, and loses it when not.
func procConf(open bool) (string, error) {
	f, err := os.Open(pmcdConf)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var b strings.Builder
	access := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "["):
			access = true
		case access || len(fields) == 0 || strings.HasPrefix(line, "#"):
		case fields[0] == "proc":
			kept := []string{}
			for _, f := range fields {
				if f != "-A" {
					kept = append(kept, f)
				}
			}
			if open {
				kept = append(kept, "-A")
			}
			line = strings.Join(kept, " ")
		case fields[0] != "root" && fields[0] != "pmcd" && fields[0] != "linux":
			continue
		}
		b.WriteString(line + "\n")
	}
	return b.String(), sc.Err()
}

// StartProxy starts a pmproxy beside p's pmcd (StartProcPMCD starts none), waits until it makes
// a context on that pmcd, and kills it at the end of the test.
func (p *PCP) StartProxy(t testing.TB) {
	t.Helper()
	p.ProxyPort = FreePort(t)
	if err := os.WriteFile(filepath.Join(p.Dir, "pmproxy.conf"), []byte(proxyConf), 0o644); err != nil {
		t.Fatal(err)
	}
	p.proxy = daemon(t, p.Dir, "pmproxy", pmproxyBin, "-f", "-A", "-i", "127.0.0.1", "-p", strconv.Itoa(p.ProxyPort),
		"-s", filepath.Join(p.Dir, "pmproxy.socket"), "-c", filepath.Join(p.Dir, "pmproxy.conf"), "-l", filepath.Join(p.Dir, "pmproxy.log"))
	p.WaitReady(t)
}
