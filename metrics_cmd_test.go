package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	for _, key := range []string{"dcimon_disk_reads_total|disk=sda", "dcimon_disk_busy|disk=sda", "dcimon_cpu_total_busy",
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
	if !strings.Contains(out, "# PCP5 dcimon.disk.reads 2.2.1 u64 2.2 counter count\n") {
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
