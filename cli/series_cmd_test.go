package cli

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"dcimon/internal/archivetest"
	"dcimon/internal/pcptest"
)

// runBin runs the real dcimon binary with args in UTC, and returns its output and exit status.
func runBin(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(buildDcimon(t), args...)
	cmd.Env = append(cmd.Environ(), "TZ=UTC", "XDG_CONFIG_HOME="+t.TempDir(), "DCIMON_CONFIG=", "NO_COLOR=1")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// Issue 34: `hot '/*/Disk' busy --series pcp://PROXY --at 03:12` ranks every host's disks at that
// time, through the real binary, as the same ranking from the hosts' archives read directly does.
func TestSeriesHotBinary(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	p := pcptest.StartSeries(t)
	bases, err := archivetest.WriteFleet(t.TempDir(), archivetest.Fleet{Hosts: 4, Disks: 3, Samples: 31})
	if err != nil {
		t.Fatal(err)
	}
	p.Load(t, bases...)
	var archives []string
	for _, b := range bases {
		archives = append(archives, "--archive", b)
	}
	hot := []string{"hot", "/*/Disk", "busy", "--max", "5", "--at", "03:02"}
	out, errOut, code := runBin(t, append(hot, "--series", p.URL())...)
	want, werr, wcode := runBin(t, append(hot, archives...)...)
	if code != 0 || wcode != 0 {
		t.Fatalf("exit %d (%s), archives' %d (%s)", code, errOut, wcode, werr)
	}
	if out != want {
		t.Errorf("the series' ranking:\n%s\nthe archives':\n%s", out, want)
	}
	// The busiest is what was written: at 03:02 each host's last sample is its 12th (node000,
	// at 03:02:00.000) or, for hosts that began a little later, its 11th.
	best, bestHost, bestDisk := -1, 0, 0
	for h := range 4 {
		k := 12
		if h > 0 {
			k = 11
		}
		for d := range 3 {
			if b := archivetest.FleetBusy(h, d, k); b > best {
				best, bestHost, bestDisk = b, h, d
			}
		}
	}
	first := fmt.Sprintf("1  %s/Disk/sd%c  %d.0%%", archivetest.FleetHostName(bestHost), 'a'+bestDisk, best)
	if !strings.Contains(out, first) {
		t.Errorf("want %q first:\n%s", first, out)
	}

	// --from and --to: a ranking for each interval (03:01:00 to 03:01:40, five), as the
	// archives give.
	series := []string{"hot", "/*/Disk", "busy", "--max", "3", "--from", "03:01", "--to", "03:01:40"}
	out, errOut, code = runBin(t, append(series, "--series", p.URL())...)
	want, _, _ = runBin(t, append(series, archives...)...)
	if code != 0 || out != want || strings.Count(out, "# 2026-11-25") != 5 {
		t.Errorf("--from --to: exit %d (%s)\n%s\nthe archives':\n%s", code, errOut, out, want)
	}

	// --hosts: globs on the host names; list and get read them as the archives.
	out, errOut, code = runBin(t, "get", "Disk/sdb/busy", "--series", p.URL(), "--hosts", "node00[13]", "--at", "03:04:10")
	if code != 0 || strings.Count(out, "/Disk/sdb/busy") != 2 || !strings.Contains(out, "node001/Disk/sdb/busy") || strings.Contains(out, "node000") {
		t.Errorf("get --hosts node00[13]: exit %d (%s)\n%s", code, errOut, out)
	}
	out, _, code = runBin(t, "list", "/node002/Disk", "--series", p.URL())
	if code != 0 || !strings.Contains(out, "/node002/Disk/sdc/") {
		t.Errorf("list: exit %d\n%s", code, out)
	}

	// Usage errors, exit 2; pmproxy or its key-value server down, exit 1 saying which.
	for _, args := range [][]string{
		{"get", "Disk/sda/busy", "--series", "pcp://u:pw@proxy"},
		{"get", "Disk/sda/busy", "--series", p.URL(), "--archive", bases[0]},
		{"get", "Disk/sda/busy", "--series", p.URL(), "--source", "synthetic"},
		{"get", "Disk/sda/busy", "--series", p.URL(), "--hosts", "node[0"},
		{"record", "x", "--series", p.URL()},
	} {
		if _, errOut, code := runBin(t, args...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", args, code, errOut)
		}
	}
	down := fmt.Sprintf("pcp://127.0.0.1:%d", pcptest.FreePort(t))
	if _, errOut, code := runBin(t, "hot", "/*/Disk", "busy", "--series", down); code != 1 || !strings.Contains(errOut, "does not answer (is it running?)") {
		t.Errorf("pmproxy down: exit %d: %s", code, errOut)
	}
	p.StopKV()
	if _, errOut, code := runBin(t, "hot", "/*/Disk", "busy", "--series", p.URL()); code != 1 || !strings.Contains(errOut, "key-value server (Redis or Valkey)") {
		t.Errorf("key-value server down: exit %d: %s", code, errOut)
	}
}
