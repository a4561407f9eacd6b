package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"dcimon/internal/pcptest"
)

// groupsArchive has a real pmlogger log a once group, context switches every second and disks
// every three seconds for span, and returns the archive and its data records' times (UTC).
func groupsArchive(t *testing.T, span string) (string, []time.Time) {
	t.Helper()
	p := pcptest.Start(t)
	dir := t.TempDir()
	conf := filepath.Join(dir, "config")
	if err := os.WriteFile(conf, []byte("log mandatory on once { hinv.ncpu kernel.uname mem.physmem }\n"+
		"log mandatory on every 1 second { kernel.all.pswitch }\n"+
		"log mandatory on every 3 seconds { disk.dev.read disk.dev.write }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "g")
	pcptest.Run(t, "pmlogger", "-h", p.Hostspec(), "-c", conf, "-T", span, "-l", filepath.Join(dir, "log"), base)
	day := regexp.MustCompile(`commencing \w+ (\w+ +\d+) [\d:.]+ (\d+)`).FindStringSubmatch(pcptest.Run(t, "pmdumplog", "-Z", "UTC", "-l", base))
	if day == nil {
		t.Fatal("pmdumplog -l shows no start")
	}
	d0, err := time.Parse("Jan 2 2006", strings.Join(strings.Fields(day[1]), " ")+" "+day[2])
	if err != nil {
		t.Fatal(err)
	}
	var times []time.Time
	for _, m := range regexp.MustCompile(`(?m)^(\d\d:\d\d:\d\d\.\d+) \d+ metrics?$`).FindAllStringSubmatch(
		pcptest.Run(t, "pmdumplog", "-Z", "UTC", base, "kernel.all.pswitch", "disk.dev.read"), -1) {
		c, _ := time.Parse("15:04:05.000000", m[1])
		times = append(times, d0.Add(c.Sub(c.Truncate(24*time.Hour))))
	}
	if len(times) < 8 {
		t.Fatalf("%d records", len(times))
	}
	return base, times
}

var headRe = regexp.MustCompile(`(?m)^# (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) UTC`)

// heads are the times of a get's readings.
func heads(out string) []string {
	var hs []string
	for _, m := range headRe.FindAllStringSubmatch(out, -1) {
		hs = append(hs, m[1])
	}
	return hs
}

const ms = "2006-01-02 15:04:05.000"

// Issue 39 item 6: the time rules of --at, --from and --to on a real pmlogger's archive. A
// PCP/ path costs no sample (each level of the name space took one: a short archive printed
// nothing, a long one landed late); --at is the last sample at or before it, the first when it
// is within one interval before it; the last sample reads; a relative time is before the
// archive's end.
func TestArchiveTimeRules(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	base, times := groupsArchive(t, "9sec")
	at := func(args ...string) (string, string, int) {
		return runFake(t, append(append([]string{"get"}, args...), "--archive", base)...)
	}
	mid := times[len(times)/2].Add(400 * time.Millisecond)
	want := ""
	for _, r := range times {
		if !r.After(mid) {
			want = r.Format(ms)
		}
	}
	out, errOut, code := at("Host/ctxsw", "PCP/kernel/all/pswitch", "--at", mid.Format(ms))
	if h := heads(out); code != 0 || len(h) != 1 || h[0] != want {
		t.Errorf("--at %s: exit %d %s\n%s\nwant one reading at %s", mid.Format(ms), code, errOut, out, want)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || strings.TrimSuffix(strings.Fields(lines[1])[1], "/s") != strings.TrimSuffix(strings.Fields(lines[2])[1], "/s") {
		t.Errorf("Host/ctxsw and PCP/kernel/all/pswitch differ at the same time:\n%s", out)
	}
	// The PCP path alone, on the default time: the same reading as a mapped statistic.
	a, _, _ := at("PCP/kernel/all/pswitch")
	b, _, _ := at("Host/ctxsw")
	if ha, hb := heads(a), heads(b); len(ha) != 1 || len(hb) != 1 || ha[0] != hb[0] {
		t.Errorf("default time: PCP/kernel/all/pswitch at %v, Host/ctxsw at %v", ha, hb)
	}
	// The last sample, and half a second before the first.
	last := times[len(times)-1]
	if out, errOut, code := at("Host/ctxsw", "--at", last.Format(time.RFC3339Nano)); code != 0 || len(heads(out)) != 1 || heads(out)[0] != last.Format(ms) {
		t.Errorf("--at the last sample %s: exit %d %s\n%s", last.Format(ms), code, errOut, out)
	}
	if out, errOut, code := at("PCP/hinv/ncpu", "--at", times[0].Add(-500*time.Millisecond).Format(ms)); code != 0 || len(heads(out)) != 1 {
		t.Errorf("--at 0.5 s before the first sample: exit %d %s\n%s", code, errOut, out)
	}
	// Relative: -3s is three seconds before the last sample.
	rel, _, code1 := at("Host/ctxsw", "--at", "-3s")
	abs, _, code2 := at("Host/ctxsw", "--at", last.Add(-3*time.Second).Format(time.RFC3339Nano))
	if code1 != 0 || code2 != 0 || rel != abs || len(heads(rel)) != 1 {
		t.Errorf("--at -3s:\n%s\n--at %s:\n%s", rel, last.Add(-3*time.Second).Format(ms), abs)
	}
}

// Issue 39 item 5: an archive that holds none of the Linux PMDA's metrics (here xfs.* and
// mmv.*, as archives of sample.* or mysql.* do) shows its whole name space under PCP/ with help
// texts, and a command with nothing to print says why and exits 1 (get printed n/a, or nothing,
// and hot "top 0 of 0", exiting 0).
func TestArchiveWithoutLinuxMetrics(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	p := pcptest.Start(t)
	dir := t.TempDir()
	conf := filepath.Join(dir, "config")
	if err := os.WriteFile(conf, []byte("log mandatory on every 1 second { xfs.log.writes xfs.write_bytes mmv }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "x")
	pcptest.Run(t, "pmlogger", "-h", p.Hostspec(), "-c", conf, "-T", "3sec", "-l", filepath.Join(dir, "log"), base)
	for _, args := range [][]string{{"get", "CPU/user"}, {"hot", "Disk", "busy"}, {"get", "Disk/*/reads"}} {
		out, errOut, code := runFake(t, append(args, "--archive", base)...)
		if code != 1 || !strings.Contains(errOut, "archive") {
			t.Errorf("%v: exit %d %q\n%s", args, code, errOut, out)
		}
	}
	out, errOut, code := runFake(t, "list", "PCP/xfs", "--archive", base)
	help := strings.TrimSpace(strings.SplitN(pcptest.Run(t, "pminfo", "-t", "-a", base, "xfs.write_bytes"), "[", 2)[1])
	help = strings.TrimSuffix(help, "]")
	if code != 0 || !strings.Contains(out, "/PCP/xfs/write_bytes") || !strings.Contains(out, help) || !strings.Contains(out, "/PCP/xfs/log/") {
		t.Errorf("list PCP/xfs: exit %d %s\n%s\nwant write_bytes with %q", code, errOut, out, help)
	}
}

// Issue 39 item 8: describe's PCP descriptor of a statistic read from a pmlogger archive is the
// one pminfo -d gives for its metric: pmid, type, instance domain, semantics and units with their
// scale (Kbyte showed as "byte", dcimon's conversion; it is said apart now).
func TestDescribeArchiveIsPminfos(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	base, _ := groupsArchive(t, "6sec")
	types := map[string]string{"32-bit unsigned int": "PM_TYPE_U32", "64-bit unsigned int": "PM_TYPE_U64",
		"32-bit int": "PM_TYPE_32", "64-bit int": "PM_TYPE_64", "float": "PM_TYPE_FLOAT", "double": "PM_TYPE_DOUBLE"}
	pmRe := regexp.MustCompile(`PMID: (\S+)\n\s+Data Type: (.+?)  InDom: (\S+) \S+\n\s+Semantics: (\S+)  Units: (.+)`)
	list, _, _ := runFake(t, "list", "Disk", "--archive", base)
	disk := regexp.MustCompile(`/Disk/([^/]+)/reads`).FindStringSubmatch(list)
	if disk == nil {
		t.Fatalf("no disk in the archive:\n%s", list)
	}
	for _, c := range []struct{ path, metric string }{{"Host/ctxsw", "kernel.all.pswitch"}, {"CPU/ncpu", "hinv.ncpu"}, {"Mem/Real/total", "mem.physmem"}, {"Disk/" + disk[1] + "/reads", "disk.dev.read"}} {
		m := pmRe.FindStringSubmatch(pcptest.Run(t, "pminfo", "-d", "-m", "-a", base, c.metric))
		if m == nil {
			t.Fatalf("pminfo -d -m %s: no descriptor", c.metric)
		}
		out, errOut, code := runFake(t, "describe", c.path, "--archive", base)
		if code != 0 {
			t.Fatalf("describe %s: exit %d %s", c.path, code, errOut)
		}
		field := func(name string) string {
			f := regexp.MustCompile(`(?m)^  ` + name + ` +(.+)$`).FindStringSubmatch(out[strings.Index(out, "PCP descriptor"):])
			if f == nil {
				return ""
			}
			return f[1]
		}
		indom := m[3]
		if indom == "PM_INDOM_NULL" {
			indom = "PM_INDOM_NULL"
		} else {
			indom += " (on its host)"
		}
		if got := field("pmid"); !strings.HasPrefix(got, m[1]+" ") {
			t.Errorf("%s: pmid %q, pminfo %s", c.path, got, m[1])
		}
		if got := field("type"); got != types[m[2]] {
			t.Errorf("%s: type %q, pminfo %q", c.path, got, m[2])
		}
		if got := field("semantics"); got != "PM_SEM_"+strings.ToUpper(m[4]) {
			t.Errorf("%s: semantics %q, pminfo %q", c.path, got, m[4])
		}
		if got := field("units"); !strings.HasPrefix(got, m[5]+" (") {
			t.Errorf("%s: units %q, pminfo %q", c.path, got, m[5])
		}
		if got := field("instance domain"); got != indom {
			t.Errorf("%s: instance domain %q, pminfo %q", c.path, got, indom)
		}
	}
}
