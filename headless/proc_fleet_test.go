package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"dcimon/collect/pcp"
	"dcimon/internal/pcptest"
)

// busyLoop starts a shell that spins, stopped when stopped is true; it is killed at the end of
// the test, by its PID.
func busyLoop(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("sh", "-c", "while :; do :; done")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd.Process.Pid
}

// procCPUms is the process's proc.psinfo.utime + stime as pminfo reads them from the pmcd, in
// milliseconds.
func procCPUms(t *testing.T, hostspec string, pid int) uint64 {
	t.Helper()
	out := pcptest.Run(t, "pminfo", "-h", hostspec, "-f", "proc.psinfo.utime", "proc.psinfo.stime")
	re := regexp.MustCompile(`inst \[` + strconv.Itoa(pid) + ` or "[^"]*"\] value (\d+)`)
	ms := re.FindAllStringSubmatch(out, -1)
	if len(ms) != 2 {
		t.Fatalf("pminfo has %d values of process %d:\n%s", len(ms), pid, out)
	}
	var sum uint64
	for _, m := range ms {
		n, _ := strconv.ParseUint(m[1], 10, 64)
		sum += n
	}
	return sum
}

// lineWriter is a writer that says on lines when a reading (a line of JSON) was written.
type lineWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	lines chan string
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	for {
		line, err := w.buf.ReadString('\n')
		if err != nil {
			w.buf.WriteString(line) // not a whole line yet
			break
		}
		w.lines <- line
	}
	return len(p), nil
}

// Issue 40 item 5: the processes of a fleet from pmcd's proc PMDA. A host whose proc PMDA runs
// with -A has its processes: a busy one is ranked by `hot '*/Proc' cpu`, and its CPU % is
// the rate of proc.psinfo.utime + stime as pminfo reads them (the process is stopped at both
// readings, so the counters pminfo reads are the very ones the readings took). A host whose
// proc PMDA checks access says what is missing and the ways in, never an empty class.
func TestFleetProcesses(t *testing.T) {
	open, closed := pcptest.StartProcPMCD(t, true), pcptest.StartProcPMCD(t, false)
	hosts := []pcp.Host{{Name: "open", Spec: open.Hostspec()}, {Name: "closed", Spec: closed.Hostspec()}}
	pid := busyLoop(t)
	time.Sleep(300 * time.Millisecond) // the proc PMDA lists it at its next refresh

	// The ranking, while the loop spins.
	set, last := hotProcesses(t, Common{HostList: hosts, Fleet: true, JSON: true}, 50, 3)
	want := fmt.Sprintf("open/Proc/%d", pid)
	// The machine is shared (go test runs other packages' tests beside this one, a compiler may
	// run with more than one thread), so how much processor the loop gets, and so its rank, is
	// the machine's to decide: the loop is ranked with its command and a share of a processor,
	// and the list is in order. What it is worth is checked exactly below, against pminfo.
	at := -1
	for i, it := range set.Items {
		if it.Name == want {
			at = i
		}
		if i > 0 && (it.Value == nil || set.Items[i-1].Value == nil || *it.Value > *set.Items[i-1].Value) {
			t.Errorf("not in order at %d: %s", i, last)
		}
		if strings.HasPrefix(strings.TrimPrefix(it.Path, "/"), "closed/") {
			t.Errorf("a process of the host that denies access: %+v", it)
		}
	}
	if at < 0 || set.Items[at].Label != "sh" || set.Items[at].Value == nil || *set.Items[at].Value <= 0 {
		t.Errorf("the busy loop %s is not ranked: %s", want, last)
	}
	for _, s := range []string{"No permission", "PM_ERR_PERMISSION", "pmdaproc with -A", closed.Hostspec()} {
		if !strings.Contains(set.Error, s) {
			t.Errorf("the error does not say %q: %q", s, set.Error)
		}
	}

	// The truth: CPU % against pminfo's counters, the loop stopped at each reading.
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	c0 := procCPUms(t, open.Hostspec(), pid)
	w := &lineWriter{lines: make(chan string, 4)}
	paths := []string{want + "/cpu", want + "/utime", want + "/stime", "/closed/Proc/*/cpu"}
	done := make(chan error, 1)
	go func() {
		done <- Get(context.Background(), GetOptions{Common: Common{HostList: hosts, Fleet: true, JSON: true}, Paths: paths,
			Interval: 3 * time.Second, Count: 2}, RealEnv(), w)
	}()
	var readings []string
	var c1 uint64
	for len(readings) < 2 {
		select {
		case line := <-w.lines:
			readings = append(readings, line)
			if len(readings) == 1 {
				_ = syscall.Kill(pid, syscall.SIGCONT)
				time.Sleep(1200 * time.Millisecond)
				_ = syscall.Kill(pid, syscall.SIGSTOP)
				time.Sleep(100 * time.Millisecond) // stopped, its counters still
				c1 = procCPUms(t, open.Hostspec(), pid)
			}
		case err := <-done:
			t.Fatalf("get ended after %d readings: %v", len(readings), err)
		}
	}
	// The closed host's path matches nothing, and get says why: its proc PMDA's answer.
	if gerr := <-done; gerr == nil || !strings.Contains(gerr.Error(), "PM_ERR_PERMISSION") || !strings.Contains(gerr.Error(), "pmdaproc with -A") {
		t.Errorf("get of the closed host's processes: %v", gerr)
	}
	var g struct {
		Elapsed float64     `json:"elapsed"`
		Values  []jsonValue `json:"values"`
	}
	if err := json.Unmarshal([]byte(readings[1]), &g); err != nil || len(g.Values) < 3 {
		t.Fatalf("%v: %s", err, readings[1])
	}
	cpu, ut, st := g.Values[0], g.Values[1], g.Values[2]
	if cpu.Value == nil || ut.Change == nil || st.Change == nil {
		t.Fatalf("no rate: %s", readings[1])
	}
	if d := *ut.Change + *st.Change; d != float64(c1-c0) {
		t.Errorf("utime+stime changed by %.0f ms, pminfo says %d ms", d, c1-c0)
	}
	truth := float64(c1-c0) / 10 / g.Elapsed // ms over the interval as % of one processor
	if math.Abs(*cpu.Value-truth) > max(0.01*truth, 1/g.Elapsed) {
		t.Errorf("cpu %.2f%%, pminfo's counters %.2f%% (%d ms over %.3f s)", *cpu.Value, truth, c1-c0, g.Elapsed)
	}
	t.Logf("cpu %.3f%%; pminfo: %d ms over %.3f s = %.3f%%", *cpu.Value, c1-c0, g.Elapsed, truth)
	if c1-c0 < 20 {
		t.Errorf("the loop ran %d ms, under two ticks: the test measured nothing", c1-c0)
	}
	if !strings.Contains(readings[1], "closed/Proc") {
		t.Errorf("the closed host's processes: %s", readings[1])
	}
}

// Issue 40 item 5: the same through pmproxy's REST API: the busy loop is ranked,
// and the host whose proc PMDA checks access says so (pmproxy answers its metrics with no
// instances and no error: "no values", with the ways in).
func TestFleetProcessesThroughProxy(t *testing.T) {
	open, closed := pcptest.StartProcPMCD(t, true), pcptest.StartProcPMCD(t, false)
	open.StartProxy(t)
	hosts := []pcp.Host{{Name: "open", Spec: open.Hostspec()}, {Name: "closed", Spec: closed.Hostspec()}}
	pid := busyLoop(t)
	time.Sleep(300 * time.Millisecond)
	set, last := hotProcesses(t, Common{Source: open.URL(), HostList: hosts, Fleet: true, JSON: true}, 50, 4)
	want, at := fmt.Sprintf("open/Proc/%d", pid), -1
	for i, it := range set.Items {
		if it.Name == want {
			at = i
		}
	}
	if at < 0 || set.Items[at].Value == nil || *set.Items[at].Value <= 0 {
		t.Errorf("the busy loop %s is not ranked (a loaded machine decides its share, not its presence): %s", want, last)
	}
	for _, s := range []string{"no values", "pmdaproc with -A", closed.Hostspec()} {
		if !strings.Contains(set.Error, s) {
			t.Errorf("the error does not say %q: %q", s, set.Error)
		}
	}
}

// hotProcesses ranks the processes of common's hosts by CPU as `hot '*/Proc' cpu --json` does,
// at a 1 s interval for count readings of max responses each, and returns the last reading's
// one set and its line.
func hotProcesses(t *testing.T, common Common, max, count int) (hotJSON, string) {
	t.Helper()
	var out bytes.Buffer
	err := Hot(context.Background(), HotOptions{Common: common, Grandparent: "*/Proc", Stat: "cpu",
		Max: max, Feed: "threshold", Interval: time.Second, Count: count}, RealEnv(), &out)
	if err != nil {
		t.Fatalf("hot: %v\n%s", err, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := lines[len(lines)-1]
	var r struct {
		Sets []hotJSON `json:"sets"`
	}
	if err := json.Unmarshal([]byte(last), &r); err != nil || len(r.Sets) != 1 {
		t.Fatalf("%v: %s", err, last)
	}
	return r.Sets[0], last
}
