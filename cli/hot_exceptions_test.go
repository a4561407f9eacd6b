package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// Issue 29 item 18, SPMI-HOT-12, SPMI-HOT-14, SPMI-HOT-15: headless `hot` on a level statistic
// (a file system's %used, valid from the first reading) prints the exceptions that reading
// raises, with their severity, as `!` lines and as the JSON line's events; with a frequency of
// 5 minutes the next reading raises none again. The synthetic host (seed 1) is the fixture: its
// / is 80.0% used.
func TestHotPrintsExceptionsOnLevelStatistics(t *testing.T) {
	args := []string{"hot", "FS", "%used", "--threshold", "10", "--exceptions", "exception", "--frequency", "5",
		"--severity", "2", "-n", "2", "--source", "synthetic:disks=2,seed=1"}
	out, stderr, code := runFake(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	readings := strings.Split(out, "# ")
	if len(readings) != 3 {
		t.Fatalf("want two readings:\n%s", out)
	}
	const want = "! 12:00:00 EXCEPTION FS/∕ %used 80.0% > 10.0% severity 2\n"
	if !strings.Contains(readings[1], want) {
		t.Errorf("the first reading has no exception line %q:\n%s", want, readings[1])
	}
	if strings.Contains(readings[2], "EXCEPTION") {
		t.Errorf("an exception again within its frequency:\n%s", readings[2])
	}

	out, stderr, code = runFake(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("--json: want two lines:\n%s", out)
	}
	var first, second struct {
		Events []struct {
			Kind     string `json:"kind"`
			Text     string `json:"text"`
			Severity int    `json:"severity"`
		} `json:"events"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &second); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, ev := range first.Events {
		found = found || (ev.Kind == "EXCEPTION" && ev.Text == "FS/∕ %used 80.0% > 10.0% severity 2" && ev.Severity == 2)
	}
	if !found || len(first.Events) != 4 {
		t.Errorf("the first JSON line's events: %+v, want the four file systems' exceptions", first.Events)
	}
	if len(second.Events) != 0 {
		t.Errorf("the second JSON line's events: %+v, want none", second.Events)
	}
}
