package cli

import (
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Issue 41 item 9: under `ulimit -n 128`, with 200 more processes than the host had, the Proc
// class still reads every process (the descriptors kept are a bounded cache, the rest opened per
// reading), and so does every other class.
func TestProcUnderLowDescriptorLimit(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	if testing.Short() {
		t.Skip("builds the binary and starts 200 processes")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	bin := buildDcimon(t)
	for range 200 {
		c := exec.Command("sleep", "60")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	}
	var text string
	for _, args := range []string{`hot Proc cpu -n 3 -i 200ms`, `get CPU/busy Mem/Real/used 'Disk/*/busy' 'NetIf/*/bytes' -n 2 -i 200ms`} {
		out, err := exec.Command(sh, "-c", `ulimit -n 128 && exec "$0" `+args, bin).CombinedOutput()
		if err != nil || strings.Contains(string(out), "too many open files") || strings.Contains(string(out), " err") {
			t.Fatalf("%s under ulimit -n 128: %v\n%s", args, err, out)
		}
		text += string(out)
	}
	m := regexp.MustCompile(`top \d+ of (\d+)`).FindAllStringSubmatch(text, -1)
	if len(m) == 0 {
		t.Fatalf("no ranking:\n%s", text)
	}
	if n, _ := strconv.Atoi(m[len(m)-1][1]); n < 200 {
		t.Errorf("ranked %d processes, want the 200 started and the host's:\n%s", n, text)
	}
}
