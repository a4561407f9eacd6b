package cli

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	ns "dcimon/namespace"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// parseProm parses Prometheus text as node_exporter's textfile collector does (expfmt's text
// parser), failing the test on any error.
func parseProm(t *testing.T, text string) map[string]float64 {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		t.Fatalf("expfmt refuses dcimon metrics: %v\n%s", err, text)
	}
	out := map[string]float64{}
	for name, f := range fams {
		for _, m := range f.GetMetric() {
			key := name
			for _, l := range m.GetLabel() {
				key += "|" + l.GetName() + "=" + l.GetValue()
			}
			switch {
			case m.GetCounter() != nil:
				out[key] = m.GetCounter().GetValue()
			case m.GetGauge() != nil:
				out[key] = m.GetGauge().GetValue()
			default:
				out[key] = math.NaN()
			}
		}
	}
	return out
}

// Issue 18: `dcimon metrics` writes the name space as Prometheus text that expfmt accepts,
// with # PCP5 lines; counters cumulative, derived statistics as dcimon shows them, texts as
// _info gauges, nothing for a value that is not there.
func TestMetricsCommand(t *testing.T) {
	out, errOut, code := runFake(t, "metrics", "--source", "synthetic:disks=2,nics=1,cpus=2,procs=5,seed=7")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	vals := parseProm(t, out)
	for _, key := range []string{"dcimon_disk_reads_total|disk=sda", "dcimon_disk_busy_ratio|disk=sda", "dcimon_cpu_total_busy_ratio",
		"dcimon_host_hostname_info|value=synthetic-7", "dcimon_disk_part_reads_total|disk=sda|part=sda1"} {
		if _, ok := vals[key]; !ok {
			t.Errorf("no %s in:\n%s", key, out)
		}
	}
	if v := vals["dcimon_host_hostname_info|value=synthetic-7"]; v != 1 {
		t.Errorf("an _info gauge of %v", v)
	}
	if _, ok := vals["dcimon_proc_rss|proc=300"]; ok {
		t.Error("the processes were read without being named")
	}
	// Every family has its # PCP5 line (but _info texts), before its HELP.
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "# HELP ") && !strings.HasSuffix(strings.Fields(l)[2], "_info") {
			if i == 0 || !strings.HasPrefix(lines[i-1], "# PCP5 ") || len(strings.Fields(lines[i-1])) < 8 {
				t.Fatalf("%q has no # PCP5 name pmid type indom sem units line before it", l)
			}
		}
	}
	// The Linux PMDA's name where the datum is its metric (issue 37: as through pmcd).
	if !strings.Contains(out, "# PCP5 disk.dev.read 510.66.1 u64 510.66 counter count\n") {
		t.Errorf("the PCP5 line of disk reads:\n%s", out)
	}
	// The processes when named; a counter is exact (no float rounding).
	out, _, code = runFake(t, "metrics", "Proc/*/rss", "Disk/sda/read_bytes", "--source", "synthetic:disks=2,procs=5,seed=7")
	if code != 0 {
		t.Fatal(out)
	}
	vals = parseProm(t, out)
	if len(vals) != 6 {
		t.Errorf("%d samples for 5 processes and a disk:\n%s", len(vals), out)
	}
}

// --output writes each reading whole through a rename: the file is replaced, never half-written.
func TestMetricsOutputFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "dcimon.prom")
	if err := os.WriteFile(file, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runFake(t, "metrics", "CPU", "-n", "3", "--output", file, "--source", "synthetic:cpus=2,seed=7")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("old")) || len(parseProm(t, string(data))) == 0 {
		t.Errorf("the file holds:\n%s", data)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("%d files left in the directory (temporary files?)", len(ents))
	}
}

// Hostile names and texts come out escaped and valid UTF-8.
func TestMetricsHostileText(t *testing.T) {
	proc := procTree(t)
	if err := os.WriteFile(filepath.Join(proc, "777", "cmdline"), []byte("evil\x00\"quote\"\x00back\\slash\x00new\nline\x00\xff\xfe"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runFake(t, "metrics", "Proc/777/cmdline", "--procfs", proc)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	vals := parseProm(t, out)
	if len(vals) != 1 {
		t.Fatalf("%v", vals)
	}
	for k := range vals {
		if !strings.Contains(k, `evil "quote" back\slash new`+"\n"+"line \uFFFD") {
			t.Errorf("label value %q", k)
		}
	}
}

// metricsEverything writes every kind of statistic dcimon has, in format: the synthetic host's
// classes, its processes and control groups, and a suppliers directory with a user's hostile
// labels, a summary, a counter, units from a # PCP5 line and pmproxy's real /metrics.
func metricsEverything(t *testing.T, format string, seed int) string {
	t.Helper()
	dir := t.TempDir()
	user := "# HELP queue_depth Messages \"waiting\" \\\\ in each queue.\n# TYPE queue_depth gauge\n" +
		"queue_depth{v=\"slash/path\",q=\"a\\\"b\"} 12\nqueue_depth{v=\"x\\ny\",q=\"ünï\"} 0.25\n" +
		"# TYPE jobs_done_total counter\njobs_done_total 1000\n" +
		"# TYPE latency_seconds summary\nlatency_seconds_sum 2.5\nlatency_seconds_count 10\n" +
		"# PCP5 acme.cache.size 99.1.1 u64 PM_INDOM_NULL instant Kbyte\n# TYPE cache_size gauge\ncache_size 2048\n" +
		"temp_celsius 41.5\n"
	if err := os.WriteFile(filepath.Join(dir, "acme.prom"), []byte(user), 0o644); err != nil {
		t.Fatal(err)
	}
	pmproxy, err := os.ReadFile("../collect/dds/testdata/pmproxy/metrics.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pmproxy.prom"), pmproxy, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runFake(t, "metrics", "--format", format, "", "Proc/*", "CGroup", "--suppliers", dir,
		"--source", fmt.Sprintf("synthetic:disks=2,parts=2,nics=2,cpus=2,procs=4,seed=%d", seed))
	if code != 0 {
		t.Fatalf("metrics --format %s: exit %d: %s", format, code, errOut)
	}
	return out
}

// python3 is a Python with prometheus_client (Debian's python3-prometheus-client, which .ci/run
// installs), or "" and why not.
func python3() (string, string) {
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if p, err := exec.LookPath(py); err == nil && exec.Command(p, "-c", "import prometheus_client").Run() == nil {
			return p, ""
		}
	}
	return "", "no python3 with prometheus_client: apt-get install python3-prometheus-client, as .ci/run does"
}

// promtool is Prometheus's promtool (from Debian's prometheus package, which .ci/run unpacks), or
// "" and why not.
func promtool() (string, string) {
	if p, err := exec.LookPath("promtool"); err == nil {
		return p, ""
	}
	return "", "no promtool on PATH: .ci/run unpacks it from Debian's prometheus package"
}

// pyParse parses text with one of prometheus_client's parsers, "text" (Prometheus text format)
// or "openmetrics", and returns the number of samples or the parser's error.
func pyParse(t *testing.T, py, parser, text string) (int, error) {
	t.Helper()
	mod := "prometheus_client.parser"
	if parser == "openmetrics" {
		mod = "prometheus_client.openmetrics.parser"
	}
	script := "import sys\nfrom " + mod + " import text_string_to_metric_families as p\n" +
		"print(sum(len(f.samples) for f in p(sys.stdin.read())))\n"
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(text)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("%v: %s", err, out)
	}
	return strconv.Atoi(strings.TrimSpace(string(out)))
}

// Issue 33 item 3: each format is accepted by the reference parsers that read it. The Prometheus
// text format by prometheus_client's text parser and by promtool (`check metrics`, which also
// lints the names: item 4, no warning); OpenMetrics by prometheus_client's OpenMetrics parser
// (and its text parser, which reads OpenMetrics too). promtool 2.42 reads no OpenMetrics (it knows
// no `info` type), and the OpenMetrics parser takes no free comment, so no # PCP5 line: each
// format is what its readers read.
func TestMetricsReferenceParsers(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	py, why := python3()
	if py == "" {
		t.Skip(why)
	}
	tool, why := promtool()
	if tool == "" {
		t.Skip(why)
	}
	prom := metricsEverything(t, "prometheus", 7)
	om := metricsEverything(t, "openmetrics", 7)
	if !strings.HasSuffix(om, "# EOF\n") || strings.Contains(om, "# PCP5") {
		t.Error("OpenMetrics without # EOF at its end, or with # PCP5 lines")
	}
	parseProm(t, prom) // expfmt, node_exporter's parser, too
	for _, c := range []struct{ text, parser string }{{prom, "text"}, {om, "openmetrics"}, {om, "text"}} {
		n := 0 // the sample lines
		for _, l := range strings.Split(c.text, "\n") {
			if l != "" && l[0] != '#' {
				n++
			}
		}
		got, err := pyParse(t, py, c.parser, c.text)
		if err != nil {
			t.Errorf("prometheus_client's %s parser refuses dcimon's output: %v", c.parser, err)
			continue
		}
		if got != n {
			t.Errorf("prometheus_client's %s parser read %d samples of %d", c.parser, got, n)
		}
	}
	cmd := exec.Command(tool, "check", "metrics")
	cmd.Stdin = strings.NewReader(prom)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
}

// pcp5Lines are the # PCP5 lines of a text by the family they describe (the next HELP's).
func pcp5Lines(t *testing.T, text string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "# PCP5 ") && i+1 < len(lines) {
			f := strings.Fields(lines[i+1])
			out[f[2]] = strings.Fields(l)
		}
	}
	return out
}

// Issue 33 items 4 and 6 (PCPD-1, X-8): names follow Prometheus's conventions (base units in the
// name, `_total` on counters only, no unit abbreviations) and the # PCP5 line's units are the
// written values' (sec, byte, none for a ratio), and every # PCP5 line's pmid and
// instance domain are valid PCP identifiers (domain < 511, cluster < 4096, item < 1024), no two
// families sharing a pmid, and the same from one run to the next, whatever the values.
func TestMetricsNamesAndPCPIdentifiers(t *testing.T) {
	out := metricsEverything(t, "prometheus", 7)
	fams := pcp5Lines(t, out)
	if len(fams) < 100 {
		t.Fatalf("only %d families with # PCP5 lines", len(fams))
	}
	types := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) == 4 && f[1] == "TYPE" {
			types[f[2]] = f[3]
		}
	}
	abbrev := regexp.MustCompile(`_(ms|us|ns|s|sec|kb|mb|gb|b|pct)(_|$)`)
	pmids := map[string]string{}
	for name, l := range fams {
		typ := types[name]
		if (typ == "counter") != strings.HasSuffix(name, "_total") {
			t.Errorf("%s: a %s, named with _total %v", name, typ, strings.HasSuffix(name, "_total"))
		}
		if abbrev.MatchString(strings.TrimPrefix(name, "dcimon_dds_")) && !strings.HasPrefix(name, "dcimon_dds_") {
			t.Errorf("%s: an abbreviated unit in the name", name)
		}
		switch {
		case l[7] == "sec" && !strings.Contains(name, "_seconds"):
			t.Errorf("%s: in seconds, not named so", name)
		case l[7] == "byte" && !strings.Contains(name, "bytes"):
			t.Errorf("%s: in bytes, not named so", name)
		case strings.HasSuffix(name, "_ratio") && l[7] != "none":
			t.Errorf("%s: a ratio in %s", name, l[7])
		}
		p, ok := ns.ParsePMID(l[3])
		if !ok || !p.Valid() {
			t.Errorf("%s: pmid %q is not PCP's domain.cluster.item in range", name, l[3])
		}
		if _, ok := ns.ParseInDom(l[5]); !ok {
			t.Errorf("%s: instance domain %q is not PCP's", name, l[5])
		}
		if o, dup := pmids[l[3]]; dup {
			t.Errorf("%s and %s share pmid %s", name, o, l[3])
		}
		pmids[l[3]] = name
	}
	// Another run, other values (another seed): the same identifiers.
	again := pcp5Lines(t, metricsEverything(t, "prometheus", 8))
	for name, l := range fams {
		if a, ok := again[name]; ok && (a[3] != l[3] || a[5] != l[5]) {
			t.Errorf("%s: pmid %s indom %s, then %s %s", name, l[3], l[5], a[3], a[5])
		}
	}
	if !strings.Contains(out, "# PCP5 kernel.all.boottime 510.160.5 u64 PM_INDOM_NULL discrete sec\n") {
		t.Errorf("Host's boottime is not 510.160.5 (Host is class 5):\n%s", out)
	}
}

// Issue 33 item 5: a user's series come back out with their own label names and values (`v`
// stays `v`, "slash/path" stays "slash/path", a quote and a newline stay themselves) and their
// own values in base units, or in the units their # PCP5 line declared.
func TestMetricsUsersSeriesExact(t *testing.T) {
	vals := parseProm(t, metricsEverything(t, "prometheus", 7))
	for key, want := range map[string]float64{
		"dcimon_dds_acme_queue_depth|q=a\"b|v=slash/path": 12,
		"dcimon_dds_acme_queue_depth|q=ünï|v=x\ny":        0.25,
		"dcimon_dds_acme_jobs_done_total":                 1000,
		"dcimon_dds_acme_cache_size":                      2048, // Kbyte, as its # PCP5 line says (issue 39 item 8)
		"dcimon_dds_acme_temp_celsius":                    41.5,
		"dcimon_dds_pmproxy_kernel_all_load|domainname=localdomain|hostname=host1|instid=1|instname=1 minute|machineid=0123456789abcdef0123456789abcdef": 2.45,
	} {
		if got, ok := vals[key]; !ok || got != want {
			t.Errorf("%s = %v (there %v), want %v", key, got, ok, want)
		}
	}
}
