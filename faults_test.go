package main

// Fault scenarios of issue 21, run through the commands' own path (runEnv): the README's fault
// table names these tests.

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dcimon/headless"
)

// copyTree copies a fixture tree (testdata/basic/t0) into a temporary directory the test may
// rewrite between samples.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// scriptedEnv is fakeEnv whose every sleep first runs the next step of a script: the way a test
// rewrites /proc between two samples.
func scriptedEnv(steps ...func()) headless.Env {
	e := fakeEnv()
	sleep := e.Sleep
	i := 0
	e.Sleep = func(ctx context.Context, d time.Duration) error {
		if i < len(steps) {
			steps[i]()
			i++
		}
		return sleep(ctx, d)
	}
	return e
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestGetVanishedInstance(t *testing.T) {
	// Issue 21 item 1 (X-5, DCI-EVT-4): a disk that drops out of /proc/diskstats for one sample
	// and comes back is n/a "instance removed" while it is gone, never a valid 0, and starts
	// again with "—" (a new instance) when it returns; its partition-less neighbours stay.
	tree := copyTree(t, "collect/testdata/basic/t0")
	stats := filepath.Join(tree, "proc", "diskstats")
	orig, err := os.ReadFile(stats)
	if err != nil {
		t.Fatal(err)
	}
	var without []string
	for _, l := range strings.Split(string(orig), "\n") {
		if !strings.Contains(l, " vda ") {
			without = append(without, l)
		}
	}
	withReads := func(n string) func() {
		return func() { writeFile(t, stats, strings.Replace(string(orig), "vda 26394 ", "vda "+n+" ", 1)) }
	}
	env := scriptedEnv(
		func() { writeFile(t, stats, strings.Join(without, "\n")) },
		withReads("26400"),
		withReads("26500"),
	)
	var out, errb bytes.Buffer
	code := runEnv(context.Background(), []string{"get", "-n", "3", "-i", "1s", "Disk/vda/reads", "Disk/*/reads",
		"--procfs", filepath.Join(tree, "proc"), "--sysfs", filepath.Join(tree, "sys")}, env, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errb.String(), out.String())
	}
	readings := strings.Split(strings.TrimSpace(out.String()), "# ")[1:]
	if len(readings) != 3 {
		t.Fatalf("%d readings:\n%s", len(readings), out.String())
	}
	vdaRows := func(r string) []string {
		var rows []string
		for _, l := range strings.Split(r, "\n") {
			if strings.HasPrefix(l, "Disk/vda/reads") {
				rows = append(rows, strings.Join(strings.Fields(l), " "))
			}
		}
		return rows
	}
	want := [][]string{
		{"Disk/vda/reads n/a (instance removed)", "Disk/vda/reads n/a (instance removed)"},
		{"Disk/vda/reads — (new instance)", "Disk/vda/reads — (new instance)"},
	}
	for i, w := range want {
		if got := vdaRows(readings[i]); strings.Join(got, "|") != strings.Join(w, "|") {
			t.Errorf("reading %d: %q, want %q\n%s", i+1, got, w, readings[i])
		}
	}
	for _, row := range vdaRows(readings[2]) {
		if strings.Contains(row, "n/a") || strings.Contains(row, "—") || strings.HasSuffix(row, " 0 reads/s") {
			t.Errorf("reading 3: %q, want a rate", row)
		}
	}
}
