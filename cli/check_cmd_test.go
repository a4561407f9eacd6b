package cli

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// perfDatum is one performance-data item of a plugin's output.
type perfDatum struct {
	label, value, uom, warn, crit, min, max string
}

var (
	perfValue = regexp.MustCompile(`^(-?[0-9]+(?:\.[0-9]+)?)([^;0-9'"]*)$`)
	perfNum   = regexp.MustCompile(`^(-?[0-9]+(?:\.[0-9]+)?)?$`)
	// A threshold range of the guidelines: [@]start:end, start ~ for minus infinity, either side
	// left out.
	perfRangeRE = regexp.MustCompile(`^(@?(~|-?[0-9]+(\.[0-9]+)?)?(:(-?[0-9]+(\.[0-9]+)?)?)?)?$`)
	statusRE    = regexp.MustCompile(`^HOT (OK|WARNING|CRITICAL|UNKNOWN) - ([^|]+?)(?: \| (.+))?$`)
)

// parsePlugin checks a plugin's output against the Monitoring Plugins development guidelines'
// grammar: `SERVICE STATE - text | 'label'=value[UOM];[warn];[crit];[min];[max] ...`, labels
// in single quotes with a quote written twice and no `=`; it returns the state and the data.
func parsePlugin(t *testing.T, out string) (string, []perfDatum) {
	t.Helper()
	first, _, _ := strings.Cut(out, "\n")
	m := statusRE.FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("not a plugin's status line: %q", first)
	}
	var data []perfDatum
	rest := m[3]
	for rest != "" {
		var d perfDatum
		if !strings.HasPrefix(rest, "'") {
			t.Fatalf("label not quoted at %q", rest)
		}
		i := 1
		var label strings.Builder
		for {
			if i >= len(rest) {
				t.Fatalf("unterminated label in %q", m[3])
			}
			if rest[i] == '\'' {
				if i+1 < len(rest) && rest[i+1] == '\'' {
					label.WriteByte('\'')
					i += 2
					continue
				}
				i++
				break
			}
			if rest[i] == '=' {
				t.Fatalf("a label holds '=': %q", m[3])
			}
			label.WriteByte(rest[i])
			i++
		}
		d.label = label.String()
		if i >= len(rest) || rest[i] != '=' {
			t.Fatalf("no '=' after label %q", d.label)
		}
		rest = rest[i+1:]
		item, next, _ := strings.Cut(rest, " ")
		rest = next
		f := strings.Split(item, ";")
		if len(f) > 5 {
			t.Fatalf("more than five fields: %q", item)
		}
		for len(f) < 5 {
			f = append(f, "")
		}
		vm := perfValue.FindStringSubmatch(f[0])
		if vm == nil {
			t.Fatalf("value %q: not value[UOM]", f[0])
		}
		d.value, d.uom = vm[1], vm[2]
		switch d.uom {
		case "", "s", "ms", "us", "%", "B", "KB", "MB", "TB", "c":
		default:
			t.Errorf("UOM %q is none the guidelines name", d.uom)
		}
		d.warn, d.crit, d.min, d.max = f[1], f[2], f[3], f[4]
		for _, r := range []string{d.warn, d.crit} {
			if !perfRangeRE.MatchString(r) {
				t.Errorf("threshold %q is not a range", r)
			}
		}
		for _, n := range []string{d.min, d.max} {
			if !perfNum.MatchString(n) {
				t.Errorf("min/max %q is not a number", n)
			}
		}
		data = append(data, d)
	}
	return m[1], data
}

// Issue 42 item 4: `hot --check` is a monitoring plugin. The synthetic host (seed 1) is the
// fixture: its file systems are 80.0%, 36.0%, 35.9% and 32.9% used.
func TestHotCheckPlugin(t *testing.T) {
	syn := []string{"--source", "synthetic:disks=2,seed=1"}
	tests := []struct {
		name  string
		args  []string
		code  int
		state string
		text  string // in the status text
		perf  int    // performance data items
		warn  string // the first item's
	}{
		{"ok", []string{"hot", "FS", "%used", "--threshold", "85", "--check"}, 0, "OK", "none of 4 peers > 85.0% (top ∕ 80.0%)", 4, "85"},
		{"warning", []string{"hot", "FS", "%used", "--threshold", "50", "--critical", "90", "--check"}, 1, "WARNING", "1 of 4 peers > 50.0%: ∕ 80.0%", 4, "50"},
		{"critical", []string{"hot", "FS", "%used", "--threshold", "35", "--critical", "70", "--check"}, 2, "CRITICAL", "1 of 4 peers > 70.0%, 2 more > 35.0%", 4, "35"},
		{"below", []string{"hot", "FS", "%used", "--threshold", "-34", "--check", "--max", "2"}, 1, "WARNING", "1 of 4 peers < 34.0%: ∕var∕lib∕data 32.9%", 2, "34:"},
		{"no threshold", []string{"hot", "FS", "%used", "--check", "--max", "1"}, 0, "OK", "4 peers, no threshold", 1, ""},
		{"unknown path", []string{"hot", "Nope", "busy", "--check"}, 3, "UNKNOWN", "Nope", 0, ""},
		{"usage", []string{"hot", "FS", "%used", "--check", "--critical", "x"}, 3, "UNKNOWN", "--critical", 0, ""},
		{"bad flag", []string{"hot", "FS", "%used", "--check", "--nope"}, 3, "UNKNOWN", "nope", 0, ""},
		{"opposite ways", []string{"hot", "FS", "%used", "--check", "--threshold", "50", "--critical", "-5"}, 3, "UNKNOWN", "different ways", 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := runFake(t, append(tc.args, syn...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d: %s%s", code, tc.code, out, stderr)
			}
			state, perf := parsePlugin(t, out)
			if state != tc.state {
				t.Errorf("state %s, want %s: %s", state, tc.state, out)
			}
			if !strings.Contains(out, tc.text) {
				t.Errorf("%q not in %q", tc.text, out)
			}
			if len(perf) != tc.perf {
				t.Fatalf("%d performance data, want %d: %s", len(perf), tc.perf, out)
			}
			if len(perf) > 0 {
				if perf[0].warn != tc.warn || perf[0].uom != "%" {
					t.Errorf("first datum %+v, want warn %q and %%", perf[0], tc.warn)
				}
			}
		})
	}
}

// A counter's rate needs two readings: --check reads over one interval, so a disk's busy is a
// value, and a rate's unit (not one the guidelines know) is said in the label.
func TestHotCheckRates(t *testing.T) {
	out, _, code := runFake(t, "hot", "Disk", "reads", "--check", "--threshold", "1000000", "--source", "synthetic:disks=2,seed=1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	_, perf := parsePlugin(t, out)
	if len(perf) != 2 || perf[0].uom != "" || !strings.HasSuffix(perf[0].label, " reads/s") || perf[0].min != "0" {
		t.Errorf("performance data %+v, want two rates in reads/s with min 0: %s", perf, out)
	}
}

// Issue 42 item 4: `hot --watch` prints an exception's start when a disk crosses the threshold
// and its end when it is back. The synthetic host (seed 1, its clock the test's) is the fixture:
// its disk sdb's busy wanders around 30%, so over 12 readings it crosses 30% and comes back.
// (A /proc tree cannot be the fixture here: its disks' busy share is over the real clock.)
func TestHotWatchCrossesAndBack(t *testing.T) {
	args := []string{"hot", "Disk", "busy", "--threshold", "30", "--watch", "-n", "12", "-i", "1s", "--source", "synthetic:disks=3,seed=1"}
	text, stderr, code := runFake(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	js, stderr, code := runFake(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(text), "\n")
	objs := strings.Split(strings.TrimSpace(js), "\n")
	if len(lines) != len(objs) {
		t.Fatalf("%d lines, %d JSON objects:\n%s\n%s", len(lines), len(objs), text, js)
	}
	type event struct {
		Event     string   `json:"event"`
		Path      string   `json:"path"`
		Value     *float64 `json:"value"`
		Text      string   `json:"text"`
		Threshold float64  `json:"threshold"`
		Duration  float64  `json:"duration"`
		Peak      float64  `json:"peak"`
	}
	open := map[string]bool{}
	ended := 0
	for i, l := range objs {
		var ev event
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Value == nil || ev.Threshold != 30 {
			t.Fatalf("event %+v", ev)
		}
		// The text line says the same: date, time, zone, START or END, path, stat, value.
		word := map[string]string{"start": "START", "end": "END"}[ev.Event]
		if f := strings.Fields(lines[i]); len(f) < 7 || f[3] != word || f[4] != ev.Path || f[6] != ev.Text {
			t.Errorf("line %q says otherwise than %s", lines[i], l)
		}
		switch ev.Event {
		case "start":
			if open[ev.Path] || *ev.Value <= 30 {
				t.Errorf("start %+v: already open, or not past 30%%", ev)
			}
			open[ev.Path] = true
		case "end":
			if !open[ev.Path] || *ev.Value > 30 || ev.Duration <= 0 || ev.Peak <= 30 {
				t.Errorf("end %+v: not open, or not back under 30%%", ev)
			}
			delete(open, ev.Path)
			ended++
		default:
			t.Errorf("event %q", ev.Event)
		}
	}
	if ended == 0 {
		t.Fatalf("no exception ended:\n%s", text)
	}
}

func TestHotWatchUsage(t *testing.T) {
	for _, args := range [][]string{
		{"hot", "Disk", "busy", "--watch"},                                // no threshold: no exception
		{"hot", "Disk", "busy", "--watch", "--check"},                     // one at a time
		{"hot", "Disk", "busy", "--critical", "5"},                        // --check's
		{"hot", "Disk", "busy", "--threshold", "5", "--check", "-n", "3"}, // --check reads once
		{"hot", "Disk", "busy", "--threshold", "5", "--check", "--json"},  // a status line, not JSON
	} {
		out, stderr, code := runFake(t, append(args, "--source", "synthetic:disks=1,seed=1")...)
		want := 2
		if strings.Contains(strings.Join(args, " "), "--check") {
			want = 3 // a plugin's usage error is UNKNOWN
		}
		if code != want {
			t.Errorf("%v: exit %d, want %d: %s%s", args, code, want, out, stderr)
		}
	}
}

// Issue 42 item 4: SIGINT and SIGTERM end `hot --watch` as it is meant to end: exit 0.
func TestHotWatchSignals(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	bin := binaryOrSkip(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		cmd := exec.Command(bin, "hot", "FS", "%used", "--threshold", "10", "--watch", "-i", "100ms", "--source", "synthetic:disks=1,seed=1")
		if err := signalAfterFirstLine(t, cmd, sig); err != nil { // the first line: the first exception
			t.Errorf("after %v: %v, want exit status 0", sig, err)
		}
	}
}

// Issue 42 item 4: --check runs against an archive as against this host: the fixture tree
// recorded for three seconds (its disk still: 0 reads/s), then judged at its start.
func TestHotCheckArchive(t *testing.T) {
	base := filepath.Join(t.TempDir(), "a")
	if _, errs, code := runFake(t, "record", base, "--procfs", fixProc, "--sysfs", fixSys, "-i", "1s", "--duration", "3s"); code != 0 {
		t.Fatalf("record: exit %d %s", code, errs)
	}
	for _, tc := range []struct {
		threshold, state string
		code             int
	}{{"1", "OK", 0}, {"-1", "WARNING", 1}} {
		out, errs, code := runFake(t, "hot", "Disk", "reads", "--archive", base, "--check", "--threshold", tc.threshold)
		state, perf := parsePlugin(t, out)
		if code != tc.code || state != tc.state || len(perf) != 1 || perf[0].label != "vda reads reads/s" || perf[0].value != "0" {
			t.Errorf("--threshold %s: exit %d, %s, %+v: %s%s", tc.threshold, code, state, perf, out, errs)
		}
	}
}

// Issue 42 item 4: a saved hotset's own thresholds make the check: threshold its WARNING,
// critical its CRITICAL; --critical on the line beats the file's.
func TestHotCheckSavedHotset(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	writeFile(t, path, "[[hotset]]\nname = \"fs\"\npath = \"FS\"\nstat = \"%used\"\nthreshold = 35\ncritical = 70\nfeed = \"always\"\n")
	env := fakeEnv()
	env.Getenv = func(k string) string { return map[string]string{"HOME": "/nonexistent", "DCIMON_CONFIG": path}[k] }
	run := func(args ...string) (string, int) {
		var out, errb strings.Builder
		code := runEnv(t.Context(), append(args, "--source", "synthetic:disks=1,seed=1"), env, &out, &errb)
		return out.String() + errb.String(), code
	}
	if out, code := run("hot", "--name", "fs", "--check"); code != 2 || !strings.HasPrefix(out, "HOT CRITICAL - fs: 1 of 4 peers > 70.0%") {
		t.Errorf("the file's critical: exit %d %s", code, out)
	}
	if out, code := run("hot", "--name", "fs", "--check", "--critical", "85"); code != 1 || !strings.HasPrefix(out, "HOT WARNING - fs:") {
		t.Errorf("--critical beats the file's: exit %d %s", code, out)
	}
	if out, code := run("hot", "--name", "fs", "-n", "1"); code != 0 || strings.Contains(out, "HOT ") {
		t.Errorf("without --check the file's critical is not asked for: exit %d %s", code, out)
	}
}
