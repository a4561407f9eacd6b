// Package pcptest starts real Performance Co-Pilot daemons for tests: a pmcd and a pmproxy in
// the foreground on free loopback ports, Redis off, each killed by its PID when the test ends
// (never the init scripts, which kill every pmcd by name). A test that needs them is skipped,
// with the reason, only when PCP is not installed; .ci/run installs it.
package pcptest

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// Daemons where Debian's pcp puts them.
const (
	pmcdBin    = "/usr/lib/pcp/bin/pmcd"
	pcpVarDir  = "/var/lib/pcp" // PCP_VAR_DIR of Debian's pcp
	pmproxyBin = "/usr/lib/pcp/bin/pmproxy"
)

// PCP is one running pmcd and the pmproxy in front of it.
type PCP struct {
	PMCDPort  int
	ProxyPort int
	Dir       string // logs and sockets
	Conf      string // the pmcd.conf pmcd runs (StartProcPMCD), "" for PCP's own
	pmcd      *exec.Cmd
	proxy     *exec.Cmd
}

// URL is the pmproxy's address for dcimon (`pcp://127.0.0.1:PORT`).
func (p *PCP) URL() string { return fmt.Sprintf("pcp://127.0.0.1:%d", p.ProxyPort) }

// Hostspec is the pmcd's hostspec (`127.0.0.1:PORT`).
func (p *PCP) Hostspec() string { return fmt.Sprintf("127.0.0.1:%d", p.PMCDPort) }

// ProxyHostspec is the pmcd's hostspec through the pmproxy, which relays PCP's protocol
// (`127.0.0.1:PMCDPORT@127.0.0.1:PROXYPORT`), as libpcp's clients reach a host behind it.
func (p *PCP) ProxyHostspec() string {
	return fmt.Sprintf("%s@127.0.0.1:%d", p.Hostspec(), p.ProxyPort)
}

// Installed says whether the daemons are there, and if not, why.
func Installed() (bool, string) {
	for _, b := range []string{pmcdBin, pmproxyBin} {
		if _, err := os.Stat(b); err != nil {
			return false, "PCP is not installed (" + b + "): apt-get install pcp, as .ci/run does"
		}
	}
	return true, ""
}

// NeedPmrep skips t unless PCP's daemons and the python module PCP's pmrep runs on are installed.
func NeedPmrep(t testing.TB) {
	t.Helper()
	if ok, why := Installed(); !ok {
		t.Skip(why)
	}
	if _, err := os.Stat("/usr/lib/python3/dist-packages/pcp"); err != nil {
		t.Skip("pmrep needs PCP's python module, not installed: apt-get install python3-pcp, as .ci/run does")
	}
}

// FreePort is a loopback port nobody listens on now.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

const proxyConf = `[pmproxy]
pcp.enabled = true
http.enabled = true
redis.enabled = false
[redis]
enabled = false
[discover]
enabled = false
[pmseries]
enabled = false
[pmsearch]
enabled = false
`

// Start starts a pmcd and a pmproxy, waits until pmproxy answers for the pmcd, and stops both
// at the end of the test.
func Start(t testing.TB) *PCP {
	t.Helper()
	if ok, why := Installed(); !ok {
		t.Skip(why)
	}
	if err := prepare(); err != nil {
		t.Fatalf("preparing PCP: %v", err)
	}
	p := &PCP{Dir: t.TempDir(), PMCDPort: FreePort(t), ProxyPort: FreePort(t)}
	if err := os.WriteFile(filepath.Join(p.Dir, "pmproxy.conf"), []byte(proxyConf), 0o644); err != nil {
		t.Fatal(err)
	}
	p.pmcd = p.StartPMCD(t)
	p.proxy = daemon(t, p.Dir, "pmproxy", pmproxyBin, "-f", "-A", "-i", "127.0.0.1", "-p", strconv.Itoa(p.ProxyPort),
		"-s", filepath.Join(p.Dir, "pmproxy.socket"), "-c", filepath.Join(p.Dir, "pmproxy.conf"), "-l", filepath.Join(p.Dir, "pmproxy.log"))
	p.WaitReady(t)
	return p
}

// StartPMCD starts (or starts again) the pmcd on its port; it is killed at the end of the test.
// Its PMDAs have 30 s to answer, not pmcd's 5: under a loaded test run (-race, two processors)
// a slow linux PMDA must not be taken for a dead one, which pmcd would cut off ("Broken pipe").
func (p *PCP) StartPMCD(t testing.TB) *exec.Cmd {
	t.Helper()
	args := []string{"-f", "-A", "-t", "30", "-i", "127.0.0.1", "-p", strconv.Itoa(p.PMCDPort),
		"-s", filepath.Join(p.Dir, "pmcd.socket"), "-l", filepath.Join(p.Dir, "pmcd.log")}
	if p.Conf != "" {
		args = append(args, "-c", p.Conf)
	}
	p.pmcd = daemon(t, p.Dir, "pmcd", pmcdBin, args...)
	return p.pmcd
}

// StopPMCD kills the pmcd (and with it its PMDAs), as a host going down.
func (p *PCP) StopPMCD() {
	if p.pmcd != nil && p.pmcd.Process != nil {
		_ = p.pmcd.Process.Signal(syscall.SIGTERM)
		_ = p.pmcd.Wait()
		p.pmcd = nil
	}
}

// WaitReady waits until pmproxy makes a context on the pmcd (about 0.3 s from nothing).
func (p *PCP) WaitReady(t testing.TB) {
	t.Helper()
	url := fmt.Sprintf("http://127.0.0.1:%d/pmapi/context?hostspec=%s&polltimeout=1", p.ProxyPort, p.Hostspec())
	if answersOK(http.DefaultClient, url, 15*time.Second) {
		return
	}
	logs, _ := os.ReadFile(filepath.Join(p.Dir, "pmcd.log"))
	plogs, _ := os.ReadFile(filepath.Join(p.Dir, "pmproxy.log"))
	t.Fatalf("pmproxy did not answer for pmcd %s within 15 s\npmcd.log:\n%s\npmproxy.log:\n%s", p.Hostspec(), logs, plogs)
}

// answersOK asks url every 50 ms until it answers 200 OK (true) or the time is up (false).
func answersOK(cl *http.Client, url string, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		resp, err := cl.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return true
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// pcpEnv runs its arguments in the PCP environment (/etc/pcp.env), as the init scripts would.
// PCP's Python tools (pmrep) run on the system's python3, where python3-pcp is, whatever python3
// comes first on the PATH (a pyenv's has no pcp module).
const pcpEnv = `set +u; [ -f /etc/pcp.env ] && . /etc/pcp.env; [ -x /usr/bin/python3 ] && export PCP_PYTHON_PROG=/usr/bin/python3; exec "$0" "$@"`

// Run runs a PCP tool (pmlogger, pmdumplog, pmval, pmlogcheck) in the PCP environment and
// returns what it printed; a failure fails the test with its output.
func Run(t testing.TB, tool string, args ...string) string {
	t.Helper()
	out, err := exec.Command("sh", append([]string{"-c", pcpEnv, tool}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", tool, args, err, out)
	}
	return string(out)
}

// Output runs a PCP tool as Run does, and returns what it printed and how it ended, for a tool
// whose failure the test judges itself (pminfo of some names a PMDA lacks).
func Output(tool string, args ...string) (string, error) {
	out, err := exec.Command("sh", append([]string{"-c", pcpEnv, tool}, args...)...).CombinedOutput()
	return string(out), err
}

// daemon starts one PCP daemon in the foreground, in the PCP environment (/etc/pcp.env), and
// kills it by PID when the test ends.
func daemon(t testing.TB, dir, name, bin string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sh", append([]string{"-c", pcpEnv, bin}, args...)...)
	// Directories of this test's own: the tests of several packages run at once, and pmcds
	// sharing PCP's started their PMDAs through one another's pmdaroot (its socket is
	// $PCP_VAR_DIR/pmcd/root.socket), which took them down with it when its test ended
	// ("Broken pipe" in the other test's values). PCP_VAR_DIR is a directory of links to
	// PCP's own (the name space, the PMDAs, their configuration) but for pmcd/.
	tmp, run, vars := filepath.Join(dir, "pcp-tmp"), filepath.Join(dir, "pcp-run"), filepath.Join(dir, "pcp-var")
	for _, d := range []string{tmp, run, filepath.Join(vars, "pmcd")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(pcpVarDir)
	if err != nil {
		t.Fatalf("PCP's %s: %v", pcpVarDir, err)
	}
	for _, e := range entries {
		if link := filepath.Join(vars, e.Name()); e.Name() != "pmcd" {
			if err := os.Symlink(filepath.Join(pcpVarDir, e.Name()), link); err != nil && !os.IsExist(err) {
				t.Fatal(err)
			}
		}
	}
	cmd.Env = append(os.Environ(), "PCP_TMP_DIR="+tmp, "PCP_RUN_DIR="+run, "PCP_VAR_DIR="+vars)
	cmd.Dir = run
	out, err := os.Create(filepath.Join(dir, name+".out"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
			done := make(chan struct{})
			go func() { _ = cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				<-done
			}
		}
		out.Close()
	})
	return cmd
}

// prepare makes what the package's install leaves undone: the run directory and the name space.
func prepare() error {
	if err := os.MkdirAll("/run/pcp", 0o775); err != nil {
		return err
	}
	if _, err := os.Stat("/var/lib/pcp/pmns/root"); err != nil {
		cmd := exec.Command("./Rebuild", "-u")
		cmd.Dir = "/var/lib/pcp/pmns"
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("building the PCP name space: %v\n%s", err, out)
		}
	}
	return nil
}
