package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"dcimon/internal/testbin"

	"github.com/charmbracelet/x/ansi"
)

// Issue 18: a user's file in a suppliers directory is read under DDS/<vendor> by every command.
func TestSuppliersCommands(t *testing.T) {
	dir := t.TempDir()
	text := "# DCIMON vendor=acme\n# HELP queue_depth Messages waiting.\n# TYPE queue_depth gauge\n" +
		"queue_depth{queue=\"mail\"} 12\nqueue_depth{queue=\"jobs\"} 30\nqueue_depth{queue=\"idle\"} 0\n"
	if err := os.WriteFile(filepath.Join(dir, "acme.prom"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	syn := []string{"--source", "synthetic:disks=1,nics=1,cpus=1,seed=7", "--suppliers", dir}

	out, errOut, code := runFake(t, append([]string{"get", "DDS/acme/queue_depth/*/value"}, syn...)...)
	if code != 0 {
		t.Fatalf("get: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"DDS/acme/queue_depth/mail/value", "12", "DDS/acme/queue_depth/jobs/value", "30"} {
		if !strings.Contains(out, want) {
			t.Errorf("get: no %q in\n%s", want, out)
		}
	}

	out, errOut, code = runFake(t, append([]string{"list", "DDS"}, syn...)...)
	if code != 0 || !strings.Contains(out, "/DDS/acme/queue_depth/") || !strings.Contains(out, "Messages waiting.") {
		t.Errorf("list DDS: exit %d %s\n%s", code, errOut, out)
	}

	// A hotset over a user's statistic: the busiest queue first.
	out, errOut, code = runFake(t, append([]string{"hot", "DDS/acme/queue_depth", "value", "--max", "2", "--json"}, syn...)...)
	if code != 0 {
		t.Fatalf("hot: exit %d: %s", code, errOut)
	}
	var r struct {
		Sets []struct {
			Items []struct {
				Path string `json:"path"`
			} `json:"items"`
		} `json:"sets"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &r); err != nil {
		t.Fatalf("hot --json: %v\n%s", err, out)
	}
	if len(r.Sets) != 1 || len(r.Sets[0].Items) != 2 || !strings.Contains(r.Sets[0].Items[0].Path, "jobs") || !strings.Contains(r.Sets[0].Items[1].Path, "mail") {
		t.Errorf("hot: %+v, want jobs then mail\n%s", r.Sets, out)
	}

	// The suppliers setting: off reads none.
	cfgFile := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfgFile, []byte("suppliers = \"off\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, code = runFake(t, "get", "DDS/acme/queue_depth/mail/value", "--source", "synthetic:disks=1,nics=1,cpus=1,seed=7", "--config", cfgFile)
	if code == 0 {
		t.Error("suppliers = \"off\" still read the suppliers")
	}
}

// dcimon's own metrics, written by `dcimon metrics` into a suppliers directory, come back under
// DDS with the units their # PCP5 lines state: the two directions agree.
func TestMetricsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	syn := []string{"--source", "synthetic:disks=1,nics=1,cpus=1,seed=7"}
	file := filepath.Join(dir, "self.prom")
	if _, errOut, code := runFake(t, append([]string{"metrics", "Disk", "--output", file}, syn...)...); code != 0 {
		t.Fatalf("metrics: %s", errOut)
	}
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	vals := parseProm(t, string(text))
	out, errOut, code := runFake(t, append([]string{"describe", "DDS/self/dcimon_disk_read_bytes_total/sda/value"}, append(syn, "--suppliers", dir)...)...)
	if code != 0 {
		t.Fatalf("describe: exit %d: %s\n%s", code, errOut, text)
	}
	if !strings.Contains(out, "UMA_BYTES") {
		t.Errorf("read bytes not in bytes after the round trip:\n%s", out)
	}
	if _, ok := vals["dcimon_disk_read_bytes_total|disk=sda"]; !ok {
		t.Errorf("no dcimon_disk_read_bytes_total in\n%s", text)
	}
}

// A user's decimals are kept in millionths, and text, JSON value and units say the same
// quantity (issue 18, the quality bar's "text, --json value and units").
func TestSuppliersDecimalsAgree(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "acme.prom"), []byte("ratio 0.25\ntemp_celsius 41.5\nlat_seconds 0.0035\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runFake(t, "get", "DDS/acme/ratio/value", "DDS/acme/temp_celsius/value", "DDS/acme/lat_seconds/value",
		"--source", "synthetic:disks=1,nics=1,cpus=1,seed=7", "--suppliers", dir, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Values []struct {
			Path  string  `json:"path"`
			Text  string  `json:"text"`
			Value float64 `json:"value"`
			Units string  `json:"units"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &r); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		text  string
		value float64
		units string
	}{{"0.25", 0.25, ""}, {"41.5 °C", 41.5, "°C"}, {"3.5 ms", 0.0035, "s"}}
	for i, v := range r.Values {
		if v.Text != want[i].text || v.Value != want[i].value || v.Units != want[i].units {
			t.Errorf("%s: text %q value %v units %q, want %q %v %q", v.Path, v.Text, v.Value, v.Units, want[i].text, want[i].value, want[i].units)
		}
	}
}

// waitFor polls cond every 20 ms for up to d.
func waitFor(d time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// hangingSuppliers writes two programs that never answer: one that execs sleep, one that leaves a
// sleep in the background and then execs another; it returns the directory and the three sleeps'
// arguments, unique to this test.
func hangingSuppliers(t *testing.T, n int) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	args := []string{fmt.Sprintf("1000.%d%d", os.Getpid(), n), fmt.Sprintf("1001.%d%d", os.Getpid(), n), fmt.Sprintf("1002.%d%d", os.Getpid(), n)}
	for name, script := range map[string]string{
		"hang":       "exec sleep " + args[0] + "\n",
		"background": "sleep " + args[1] + " &\nexec sleep " + args[2] + "\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir, args
}

// noneLeft fails the test if a process of the sleeps is still there 5 s after dcimon ended.
func noneLeft(t *testing.T, how string, args []string) {
	t.Helper()
	for _, a := range args {
		if !waitFor(5*time.Second, func() bool { return len(testbin.ProcessesWith(a)) == 0 }) {
			t.Errorf("%s: a supplier's process survived dcimon: %q", how, testbin.ProcessesWith(a))
			for _, p := range testbin.ProcessesWith(a) {
				if pid, err := strconv.Atoi(strings.SplitN(p, ":", 2)[0]); err == nil {
					_ = syscall.Kill(pid, syscall.SIGKILL) // the test's own, by its PID
				}
			}
		}
	}
}

// sleepsStarted waits until every sleep runs, so that the test checks processes that did start.
func sleepsStarted(t *testing.T, args []string) {
	t.Helper()
	for _, a := range args {
		if !waitFor(10*time.Second, func() bool { return len(testbin.ProcessesWith(a)) > 0 }) {
			t.Fatalf("the supplier's sleep %s never started", a)
		}
	}
}

// monitorOnPTY starts the monitor on a pseudo-terminal, waits for a frame with data and for the
// suppliers' processes, ends it with end, and waits for it to exit.
func monitorOnPTY(t *testing.T, bin string, args []string, sleeps []string, end func(cmd *exec.Cmd, master *os.File)) {
	t.Helper()
	master, slave, err := openPTY(120, 40)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer master.Close()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	var mu sync.Mutex
	var out bytes.Buffer
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := master.Read(buf)
			mu.Lock()
			out.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	if !waitFor(10*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return dataShown.MatchString(ansi.Strip(out.String()))
	}) {
		_ = cmd.Process.Kill()
		t.Fatalf("no frame with data within 10 s")
	}
	sleepsStarted(t, sleeps)
	end(cmd, master)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the monitor did not exit within 10 s")
	}
}

// Issue 29 item 13: no supplier process survives dcimon, whichever way it ends: `get` returning
// (its programs still running), `q` in the monitor, SIGTERM, and SIGKILL (nothing of dcimon's
// runs then: the reaper and the leaders' death signal do it). A program that leaves a child in
// the background loses it too.
func TestSuppliersNoneSurvive(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh to write test programs in")
	}
	bin := binaryOrSkip(t)
	syn := []string{"--source", "synthetic:disks=1,nics=1,cpus=1,seed=7"}

	t.Run("get returns", func(t *testing.T) {
		dir, sleeps := hangingSuppliers(t, 1)
		out, err := exec.Command(bin, append([]string{"get", "Monitor/*/state", "-i", "1s", "--suppliers", dir}, syn...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("get: %v\n%s", err, out)
		}
		noneLeft(t, "after get", sleeps)
	})
	t.Run("get is killed", func(t *testing.T) {
		dir, sleeps := hangingSuppliers(t, 2)
		cmd := exec.Command(bin, append([]string{"get", "Monitor/*/state", "-n", "0", "-i", "1s", "--suppliers", dir}, syn...)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sleepsStarted(t, sleeps)
		_ = cmd.Process.Kill() // SIGKILL: dcimon runs no code of its own
		_ = cmd.Wait()
		noneLeft(t, "after SIGKILL", sleeps)
	})
	t.Run("q in the monitor", func(t *testing.T) {
		dir, sleeps := hangingSuppliers(t, 3)
		monitorOnPTY(t, bin, append([]string{"--suppliers", dir}, syn...), sleeps, func(_ *exec.Cmd, master *os.File) {
			_, _ = master.Write([]byte("q"))
		})
		noneLeft(t, "after q", sleeps)
	})
	t.Run("SIGTERM to the monitor", func(t *testing.T) {
		dir, sleeps := hangingSuppliers(t, 4)
		monitorOnPTY(t, bin, append([]string{"--suppliers", dir}, syn...), sleeps, func(cmd *exec.Cmd, _ *os.File) {
			_ = cmd.Process.Signal(syscall.SIGTERM)
		})
		noneLeft(t, "after SIGTERM", sleeps)
	})
}

// Issue 29 item 11, run as root as administrators do (this sandbox is root): a suppliers
// directory others can write is not read, its program never runs, and Monitor says why; a program
// owned by another user in a good directory is refused too. Issue 33 item 9: a supplier that never
// succeeded shows last_ok "never".
func TestSuppliersAsRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("runs dcimon as root: this test is not root")
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh to write test programs in")
	}
	ran := filepath.Join(t.TempDir(), "ran")
	open := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(open, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	good := t.TempDir()
	for dir, name := range map[string]string{open: "evil", good: "nobodys"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\ntouch '"+ran+"'\necho 'up 1'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chown(filepath.Join(good, "nobodys"), 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(good, "fails"), []byte("#!/bin/sh\necho broken >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runFake(t, "get", "Monitor/*/error", "Monitor/dds:fails/last_ok", "--suppliers", open, "--suppliers", good,
		"--source", "synthetic:disks=1,nics=1,cpus=1,seed=7")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("a program others could change was run as root")
	}
	for _, want := range []string{"dcimon runs nothing that anyone but root", "open is writable by others (mode 0777)",
		"nobodys is owned by uid 65534"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`Monitor/dds:fails/last_ok +n/a +\(never\)`).MatchString(out) {
		t.Errorf("last_ok of a supplier that never succeeded is not \"never\":\n%s", out)
	}
}
