package cli

import (
	"bufio"
	"bytes"
	"context"
	"dcimon/headless"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"dcimon/internal/golden"
)

const (
	fixProc = "../collect/linux/testdata/basic/t0/proc"
	fixSys  = "../collect/linux/testdata/basic/t0/sys"
)

// fakeEnv is a deterministic environment: a fixed clock that sleeping advances, and UTC.
func fakeEnv() headless.Env {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	return headless.Env{
		Now:   func() time.Time { return now },
		Sleep: func(ctx context.Context, d time.Duration) error { now = now.Add(d); return ctx.Err() },
		Loc:   time.UTC,
		// No configuration but what a test gives: HOME is a directory with none.
		Getenv: func(k string) string { return map[string]string{"HOME": "/nonexistent"}[k] },
	}
}

func runFake(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runEnv(context.Background(), args, fakeEnv(), &out, &errb)
	return out.String(), errb.String(), code
}

// TestCommandsGolden locks the commands' output. Its listings show SPMI-HIER-1 (list starts at
// Top; CPU holds statistics and subcontexts, both listed), SPMI-OUT-1 (one line per context and
// statistic, `/<host>/` first, contexts ending in `/`, descriptions aligned; --host birte),
// SPMI-INST-1 and SPMI-FEAT-4 (cpu0 and cpu1 from one template, the same statistics) and
// SPMI-FEAT-3 (the tree is what traversal finds: the fixture's classes, nothing hard-coded).
func TestCommandsGolden(t *testing.T) {
	fix := []string{"--procfs", fixProc, "--sysfs", fixSys}
	syn := []string{"--source", "synthetic:disks=3,nics=2,cpus=2,seed=7"}
	tests := []struct {
		name string
		args []string
	}{
		{"list_fixture", append([]string{"list"}, fix...)},
		{"list_fixture_cpu_types", append([]string{"list", "CPU", "--types"}, fix...)},
		{"list_fixture_ids", append([]string{"list", "NetIf", "--ids"}, fix...)},
		{"list_synthetic_host", append([]string{"list", "Disk", "--host", "birte"}, syn...)},
		{"describe_fixture_idle", append([]string{"describe", "CPU/cpu0/idle"}, fix...)},
		{"describe_fixture_disk", append([]string{"describe", "Disk"}, fix...)},
		{"get_fixture", append([]string{"get", "CPU/idle", "Disk/*/reads", "NetIf/lo/mtu"}, fix...)},
		{"get_synthetic", append([]string{"get", "Disk/*/busy", "NetIf/*/bytes", "CPU/busy", "-n", "2"}, syn...)},
		{"get_synthetic_json", append([]string{"get", "Disk/*/busy", "CPU/cpu0/idle", "--json"}, syn...)},
		{"hot_synthetic", append([]string{"hot", "Disk", "busy", "--max", "2", "-n", "2"}, syn...)},
		{"hot_synthetic_json", append([]string{"hot", "NetIf", "bytes", "--max", "1", "--json"}, syn...)},
		{"describe_synthetic_json", append([]string{"describe", "Disk", "--json"}, syn...)},
		// issue 12: implementation datums are listed only with --all.
		{"list_fixture_cpu_all", append([]string{"list", "CPU/cpu0", "--all"}, fix...)},
		// issue 12: a threshold is in the statistic's display units, 50 is 50%.
		{"hot_synthetic_threshold", []string{"hot", "CPU", "busy", "--threshold", "50", "--source", "synthetic:cpus=64,seed=7"}},
		{"hot_synthetic_threshold_below", append([]string{"hot", "Disk", "busy", "--threshold", "-5", "--max", "0"}, syn...)},
		// issue 12: a wildcard expands to statistics, not to errors for contexts.
		{"get_synthetic_cpu_wildcard", append([]string{"get", "CPU/*"}, syn...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := runFake(t, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if strings.Contains(tt.name, "json") {
				checkJSON(t, out)
			}
			golden.Check(t, tt.name, out)
		})
	}
}

// checkJSON decodes every line (or the one indented object) of JSON output.
func checkJSON(t *testing.T, out string) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	n := 0
	for dec.More() {
		var v map[string]any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("invalid JSON after %d objects: %v", n, err)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no JSON objects")
	}
}

func TestListJSONAndIDs(t *testing.T) {
	out, errs, code := runFake(t, "list", "CPU", "--json", "--ids", "--procfs", fixProc, "--sysfs", fixSys)
	if code != 0 {
		t.Fatal(errs)
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	found := false
	for sc.Scan() {
		// The fields of docs/json.md this test reads.
		var l struct {
			Path, Kind, Datum, ASN string
			ValueType              string `json:"value_type"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(l.Path, "/CPU/cpu0/idle") {
			found = true
			// SPMI-ASN-1 and DCI-NS-1 through the command line.
			if l.ASN != "1.1.4" || l.Datum != "4" || l.ValueType != "Counter" || l.Kind != "statistic" {
				t.Fatalf("cpu0/idle: %+v", l)
			}
		}
	}
	if !found {
		t.Fatal("CPU/cpu0/idle not listed")
	}
}

func TestCommandErrors(t *testing.T) {
	fix := []string{"--procfs", fixProc, "--sysfs", fixSys}
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{append([]string{"describe", "Nope"}, fix...), 1, "no context or statistic Nope (see `dcimon list`) (SiInvalidCx (180)"},
		{append([]string{"describe", "CPU/cpu0/nosuch"}, fix...), 1, "SiNotFound (188)"},
		{append([]string{"get", "Nope/*/x"}, fix...), 1, "no statistic Nope/*/x (see `dcimon list`)"},
		{append([]string{"hot", "CPU/cpu0", "idle"}, fix...), 2, "has no peer subcontexts"},
		{append([]string{"hot", "Disk", "nosuchstat"}, fix...), 1, "no peer of Disk has a statistic nosuchstat (see `dcimon list Disk`)"},
		{append([]string{"hot", "Dsk", "busy"}, fix...), 1, "no context Dsk (see `dcimon list`); did you mean Disk?"},
		{append([]string{"list", "CPU/cpuO"}, fix...), 1, "no context or statistic CPU/cpuO (see `dcimon list CPU`); did you mean CPU/cpu0?"},
		{append([]string{"hot", "Disk", "busy", "--exceptions", "exception", "--threshold", "10"}, fix...), 2, "severity"},
		{[]string{"list", "--procfs", "/nonexistent"}, 2, "--procfs /nonexistent"},
		{[]string{"get", "CPU/user", "-n", "x"}, 2, "invalid value"},
		{[]string{"--source", "synthetic:disks=many"}, 2, "disks"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[:2], " "), func(t *testing.T) {
			out, errs, code := runFake(t, tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.msg) {
				t.Fatalf("exit %d, stderr %q; want %d and %q (stdout %q)", code, errs, tt.code, tt.msg, out)
			}
		})
	}
}

func TestGetUnknownPathStillPrintsTheOthers(t *testing.T) {
	// PCPF-11 / DCI-RET-1: one value set per request in order; the bad one carries its error.
	out, errs, code := runFake(t, "get", "CPU/user", "Nope", "CPU/idle", "--procfs", fixProc, "--sysfs", fixSys)
	if code != 1 || !strings.Contains(errs, "no statistic Nope (see `dcimon list`)") {
		t.Fatalf("exit %d %q", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[1], "CPU/user") || !strings.HasPrefix(lines[2], "Nope") || !strings.HasPrefix(lines[3], "CPU/idle") {
		t.Fatalf("output:\n%s", out)
	}
}

func TestMonitorNeedsATerminal(t *testing.T) {
	old := stdoutIsTerminal
	stdoutIsTerminal = func() bool { return false }
	defer func() { stdoutIsTerminal = old }()
	_, errs, code := runFake(t, "--procfs", fixProc, "--sysfs", fixSys)
	if code != 1 || !strings.Contains(errs, "dcimon get PATH") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// TestBinaryEndToEnd builds the real binary and runs a headless command against the fixture tree,
// comparing with the same golden file as the in-process test (house style 16).
func TestBinaryEndToEnd(t *testing.T) {
	bin := binaryOrSkip(t)
	cmd := exec.Command(bin, "list", "--procfs", fixProc, "--sysfs", fixSys)
	cmd.Env = append(os.Environ(), "TZ=UTC")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	golden.Check(t, "list_fixture", string(out))
	// Not a terminal: the monitor refuses with a pointer to the headless commands, exit 1.
	cmd = exec.Command(bin, "--procfs", fixProc, "--sysfs", fixSys)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(errb.String(), "not a terminal") {
		t.Fatalf("monitor without a terminal: %v %q", err, errb.String())
	}
}

// DCI-RET-1, DCI-INV-3, PCPF-11 (issue 20 item 2): every value of get carries its own DCI status;
// a datum named exactly and invalid is DCI_INVALIDDATA and the command exits 1 after printing
// every value; a request that matches nothing keeps its place among the values.
func TestGetStatuses(t *testing.T) {
	fix := []string{"--procfs", fixProc, "--sysfs", fixSys}
	out, errs, code := runFake(t, append([]string{"get", "Disk/vda/reads", "NetIf/lo/speed", "NetIf/*/speed"}, fix...)...)
	if code != 1 || !strings.Contains(errs, "summary DCI_INVALIDDATA") {
		t.Fatalf("exit %d, stderr %q: an invalid datum named exactly is an error", code, errs)
	}
	sq := squash(out)
	if !strings.Contains(sq, "NetIf/lo/speed n/a (not valid for this instance; DCI_INVALIDDATA)") ||
		!strings.HasSuffix(sq, "NetIf/eth0/speed n/a (not valid for this instance)") ||
		!strings.Contains(sq, "Disk/vda/reads 0 reads/s") {
		t.Fatalf("per-value statuses:\n%s", out)
	}
	out, _, code = runFake(t, append([]string{"get", "Disk/vda/reads", "bogus", "Disk/vda/writes", "--json"}, fix...)...)
	if code != 1 {
		t.Fatalf("exit %d for an unknown path", code)
	}
	var r struct {
		Status string
		Values []struct{ Path, State, Status, PCPError string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, v := range r.Values {
		order = append(order, v.Path+":"+v.Status)
	}
	if got := strings.Join(order, " "); got != "Disk/vda/reads:DCI_SUCCESS bogus:DCI_UNKNOWNCLASS Disk/vda/writes:DCI_SUCCESS" || r.Status != "DCI_UNKNOWNCLASS" {
		t.Fatalf("values in request order with their statuses: %s (summary %s)", got, r.Status)
	}
}

// DCI4-SUP-3 (issue 20 item 3): describe shows the supplier's reset value as last read, not the
// zeros of the registered record.
func TestDescribeLiveReset(t *testing.T) {
	out, errs, code := runFake(t, "describe", "Disk/vda", "--procfs", fixProc, "--sysfs", fixSys)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "reset") || strings.Contains(out, "0000000000000000") {
		t.Fatalf("the supplier's reset is not the one read:\n%s", out)
	}
}

// DCI-CLS-1 (issue 20 item 8): describe of a class lists every datum with its id, type, units,
// flags and label, and each instance level.
func TestDescribeClassDatums(t *testing.T) {
	out, errs, code := runFake(t, "describe", "Disk/vda", "--procfs", fixProc, "--sysfs", fixSys)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// DCI-INST-1: the instance's own attributes too: label, flags, access. DCI-CLS-6: a class
	// method descriptor of size 0 is no method.
	for _, want := range []string{"method                         none", "label                          vda", "access                         none", "instance level 0", "itype UMA_DISKID", "datum 9", "io_ms: UMA_UINT4, UMA_MILLISECS, DCI_QUERYABLE",
		"r_await: UMA_DERIVED, UMA_DERIVED_AVERAGE", "flags                          DCI_ENABLED|DCI_POSSIBLEINVALIDDATA"} {
		if !strings.Contains(out, want) {
			t.Errorf("describe lacks %q:\n%s", want, out)
		}
	}
}

// SPMI-OUT-2: in the traversal format a top-level context's description starts at column 30, a
// nested context's at 35 (also when the listing starts below Top), a statistic's at 40, with the
// type line under each statistic; the audit of issue 20 found nested contexts at 30 with a PATH.
func TestListTypesColumns(t *testing.T) {
	out, errs, code := runFake(t, "list", "CPU", "--types", "--procfs", fixProc, "--sysfs", fixSys)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	col := func(prefix string) int {
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, prefix+" ") {
				return len(l) - len(strings.TrimLeft(l[len(prefix):], " "))
			}
		}
		t.Fatalf("no line %q:\n%s", prefix, out)
		return 0
	}
	if c := col("CPU/"); c != 30 {
		t.Errorf("CPU/ description at column %d, want 30", c)
	}
	if c := col("CPU/cpu0/"); c != 35 {
		t.Errorf("CPU/cpu0/ description at column %d, want 35", c)
	}
	if c := col("CPU/user"); c != 40 {
		t.Errorf("CPU/user description at column %d, want 40", c)
	}
	if !strings.Contains(out, "CPU/user                                Time in user mode (guest time included)\n        Data Type(Long)   Value Type(Counter)\n") {
		t.Errorf("no type line under a statistic:\n%s", out)
	}
}

// a hotset named in the DCI view (class id, datum id) gives what the SPMI names give.
func TestHotByDCIIds(t *testing.T) {
	syn := []string{"--source", "synthetic:disks=5,seed=3"}
	byName, _, c1 := runFake(t, append([]string{"hot", "Disk", "busy", "--max", "3"}, syn...)...)
	byID, errs, c2 := runFake(t, append([]string{"hot", "2.2", "28", "--max", "3"}, syn...)...)
	if c1 != 0 || c2 != 0 || byName != byID || !strings.Contains(byID, "top 3 of") {
		t.Fatalf("by name (exit %d):\n%s\nby id (exit %d, %s):\n%s", c1, byName, c2, errs, byID)
	}
}
