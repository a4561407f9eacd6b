package pcptest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Series is a key-value server (Redis, or Valkey where installed) on a private loopback port and
// directory, and a pmproxy whose [pmseries] and [keys] use it: PCP's scalable time series
// (issue 34), the recipe of ../shared/notes/pcp.md. Both are killed by their PIDs when the test
// ends.
type Series struct {
	KVPort    int
	ProxyPort int
	Dir       string
	kvBin     string
	kv        *exec.Cmd
	proxy     *exec.Cmd
}

// kvServers are the key-value servers pmproxy can use, the first installed taken.
var kvServers = []string{"/usr/bin/valkey-server", "/usr/bin/redis-server"}

// pmseriesBin loads archives into the key-value server.
const pmseriesBin = "/usr/bin/pmseries"

// SeriesInstalled says whether a key-value server, pmproxy and pmseries are there, and if not,
// why.
func SeriesInstalled() (string, bool, string) {
	if ok, why := Installed(); !ok {
		return "", false, why
	}
	if _, err := os.Stat(pmseriesBin); err != nil {
		return "", false, "pmseries is not installed (" + pmseriesBin + "): apt-get install pcp, as .ci/run does"
	}
	for _, b := range kvServers {
		if _, err := os.Stat(b); err == nil {
			return b, true, ""
		}
	}
	return "", false, "no key-value server (valkey-server or redis-server) is installed: apt-get install redis-server, as .ci/run does"
}

func seriesConf(kvPort int) string {
	return fmt.Sprintf(`[pmproxy]
pcp.enabled = false
http.enabled = true
redis.enabled = true
[keys]
enabled = true
servers = 127.0.0.1:%[1]d
[redis]
enabled = true
servers = 127.0.0.1:%[1]d
[discover]
enabled = false
[pmseries]
enabled = true
servers = 127.0.0.1:%[1]d
[pmsearch]
enabled = false
`, kvPort)
}

// StartSeries starts a key-value server and a pmproxy in front of it, and waits until pmproxy
// answers a series query. The test is skipped, with the reason, only when one is not installed.
func StartSeries(t testing.TB) *Series {
	t.Helper()
	bin, ok, why := SeriesInstalled()
	if !ok {
		t.Skip(why)
	}
	if err := prepare(); err != nil {
		t.Fatalf("preparing PCP: %v", err)
	}
	s := &Series{Dir: t.TempDir(), KVPort: FreePort(t), ProxyPort: FreePort(t), kvBin: bin}
	s.StartKV(t)
	if err := os.WriteFile(filepath.Join(s.Dir, "pmproxy.conf"), []byte(seriesConf(s.KVPort)), 0o644); err != nil {
		t.Fatal(err)
	}
	s.proxy = daemon(t, s.Dir, "pmproxy", pmproxyBin, "-f", "-A", "-i", "127.0.0.1", "-p", strconv.Itoa(s.ProxyPort),
		"-s", filepath.Join(s.Dir, "pmproxy.socket"), "-c", filepath.Join(s.Dir, "pmproxy.conf"), "-l", filepath.Join(s.Dir, "pmproxy.log"))
	s.waitQuery(t)
	return s
}

// URL is the pmproxy's address for dcimon (`pcp://127.0.0.1:PORT`).
func (s *Series) URL() string { return fmt.Sprintf("pcp://127.0.0.1:%d", s.ProxyPort) }

// StartKV starts (or starts again) the key-value server on its port, its data in the test's
// directory and never saved, and waits until it answers PING; it is killed at the end of the test.
func (s *Series) StartKV(t testing.TB) {
	t.Helper()
	cmd := exec.Command(s.kvBin, "--port", strconv.Itoa(s.KVPort), "--bind", "127.0.0.1", "--dir", s.Dir,
		"--save", "", "--appendonly", "no", "--protected-mode", "yes")
	out, err := os.OpenFile(filepath.Join(s.Dir, "kv.out"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", s.kvBin, err)
	}
	s.kv = cmd
	t.Cleanup(func() {
		s.stopKV(cmd)
		out.Close()
	})
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", s.KVPort), time.Second); err == nil {
			_ = c.SetDeadline(time.Now().Add(time.Second))
			fmt.Fprint(c, "PING\r\n")
			line, _ := bufio.NewReader(c).ReadString('\n')
			c.Close()
			if strings.HasPrefix(line, "+PONG") {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	logs, _ := os.ReadFile(filepath.Join(s.Dir, "kv.out"))
	t.Fatalf("%s did not answer on port %d within 10 s:\n%s", s.kvBin, s.KVPort, logs)
}

// StopKV kills the key-value server, as one going down behind pmproxy.
func (s *Series) StopKV() { s.stopKV(s.kv) }

func (s *Series) stopKV(cmd *exec.Cmd) {
	if cmd == nil || cmd.Process == nil || cmd.ProcessState != nil {
		return
	}
	_ = syscall.Kill(cmd.Process.Pid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
}

// waitQuery waits until pmproxy answers a series query (it has set up its key-value server).
func (s *Series) waitQuery(t testing.TB) {
	t.Helper()
	url := fmt.Sprintf("http://127.0.0.1:%d/series/query?expr=pmcd.pid", s.ProxyPort)
	if answersOK(&http.Client{Timeout: 2 * time.Second}, url, 15*time.Second) {
		return
	}
	plogs, _ := os.ReadFile(filepath.Join(s.Dir, "pmproxy.log"))
	t.Fatalf("pmproxy did not answer a series query within 15 s\npmproxy.log:\n%s", plogs)
}

// Load loads archives (their base names) into the key-value server with pmseries, as an
// administrator would, up to 8 at once, and waits until pmproxy names each as a source.
func (s *Series) Load(t testing.TB, bases ...string) {
	t.Helper()
	s.load(t, nil, bases)
}

// LoadProcesses loads archives as Load does, their processes too: PCP's own pmseries.conf
// leaves proc.* and acct.* out of what it loads ([discover] exclude.metrics), so a site that
// keeps its processes' history loads with a configuration that leaves out acct.* only, as this
// does (issue 40 item 5).
func (s *Series) LoadProcesses(t testing.TB, bases ...string) {
	t.Helper()
	conf := filepath.Join(s.Dir, "pmseries-proc.conf")
	text := fmt.Sprintf("[pmseries]\nenabled = true\nservers = 127.0.0.1:%[1]d\n[redis]\nenabled = true\nservers = 127.0.0.1:%[1]d\n"+
		"[discover]\nexclude.metrics = acct.*\n", s.KVPort)
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s.load(t, []string{"-c", conf}, bases)
}

func (s *Series) load(t testing.TB, conf []string, bases []string) {
	t.Helper()
	errs := make(chan error, len(bases))
	sem := make(chan struct{}, 8)
	for _, b := range bases {
		abs, err := filepath.Abs(b)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			q, _ := json.Marshal(abs)
			args := append(slices.Clone(conf), "-p", strconv.Itoa(s.KVPort), "--load", "{source.path: "+string(q)+"}")
			// pmseries sometimes ends an archive pmlogger wrote a moment ago after its first
			// record ("time window end", nothing processed): loaded again a second later, all of it.
			var out string
			var err error
			for try := 0; try < 3; try++ {
				out, err = Output(pmseriesBin, args...)
				if err == nil && !strings.Contains(out, "processed") {
					err = fmt.Errorf("nothing processed")
				}
				if err == nil || !strings.Contains(err.Error(), "nothing processed") {
					break
				}
				time.Sleep(time.Second)
			}
			if err != nil {
				err = fmt.Errorf("pmseries --load %s: %v\n%s", abs, err, out)
			}
			errs <- err
		}()
	}
	for range bases {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/series/sources?match=*", s.ProxyPort)
	cl := &http.Client{Timeout: 5 * time.Second}
	deadline := time.Now().Add(15 * time.Second)
	var names []string
	for time.Now().Before(deadline) {
		names = nil
		if resp, err := cl.Get(url); err == nil {
			_ = json.NewDecoder(resp.Body).Decode(&names)
			resp.Body.Close()
		}
		all := true
		for _, b := range bases {
			abs, _ := filepath.Abs(b)
			all = all && slices.Contains(names, abs)
		}
		if all {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("pmproxy does not name the archives loaded as sources within 15 s: it names %d", len(names))
}
