package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// describedIDs are the pmid and instance domain describe's PCP descriptor gives a statistic in
// dcimon's name space (for a metric with identifiers of its own, the part "in dcimon's name
// space").
func describedIDs(t *testing.T, args ...string) (string, string) {
	t.Helper()
	out, errOut, code := runFake(t, append([]string{"describe"}, args...)...)
	if code != 0 {
		t.Fatalf("describe %v: exit %d: %s", args, code, errOut)
	}
	var pmid, indom string
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) >= 2 && f[0] == "pmid":
			pmid = f[1]
			if i := strings.Index(l, "(on its host; "); i >= 0 {
				pmid = strings.Fields(l[i+len("(on its host; "):])[0]
			}
		case len(f) >= 3 && f[0] == "instance" && f[1] == "domain":
			indom = f[2]
			if strings.Contains(l, "(on its host)") {
				indom = "" // the host's own; dcimon's is the pmid's domain.cluster or none
			}
		}
	}
	if pmid == "" {
		t.Fatalf("describe %v has no pmid:\n%s", args, out)
	}
	return pmid, indom
}

// Issue 39 item 8: describe's PCP descriptor of a statistic says the pmid and instance domain
// `dcimon metrics` exports it under (a user's statistic's were its class id, 5.5 or
// 99.61871.41876.1.1, no PCP identifier), for a user's family with and without labels, a
// counter, one whose # PCP5 line named identifiers of its own, and one of dcimon's own classes.
func TestDescribePCPIDsAsExported(t *testing.T) {
	dir := t.TempDir()
	user := "# HELP queue_depth Messages waiting.\n# TYPE queue_depth gauge\nqueue_depth{q=\"a\"} 12\nqueue_depth{q=\"b\"} 3\n" +
		"# TYPE jobs_done_total counter\njobs_done_total 1000\n" +
		"# PCP5 acme.cache.size 99.1.1 u64 PM_INDOM_NULL instant Kbyte\n# TYPE cache_size gauge\ncache_size 2048\n" +
		"temp_celsius 41.5\n"
	if err := os.WriteFile(filepath.Join(dir, "acme.prom"), []byte(user), 0o644); err != nil {
		t.Fatal(err)
	}
	src := []string{"--suppliers", dir, "--source", "synthetic:disks=1,nics=1,cpus=1,seed=3"}
	out, errOut, code := runFake(t, append([]string{"metrics", "DDS", "Disk"}, src...)...)
	if code != 0 {
		t.Fatalf("metrics: exit %d: %s", code, errOut)
	}
	exported := map[string][]string{} // by the # PCP5 line's metric name
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) == 8 && f[1] == "PCP5" {
			exported[f[2]] = f
		}
	}
	for _, c := range []struct{ metric, path string }{
		{"dcimon.dds.acme.temp_celsius", "DDS/acme/temp_celsius/value"},
		{"dcimon.dds.acme.queue_depth", "DDS/acme/queue_depth/a/value"},
		{"dcimon.dds.acme.jobs_done_total", "DDS/acme/jobs_done_total/value"},
		{"acme.cache.size", "DDS/acme/cache_size/value"},
		{"disk.dev.read", "Disk/sda/reads"},
	} {
		e, ok := exported[c.metric]
		if !ok {
			t.Errorf("%s: no # PCP5 line in:\n%s", c.metric, out)
			continue
		}
		pmid, indom := describedIDs(t, append([]string{c.path}, src...)...)
		if pmid != e[3] {
			t.Errorf("%s: describe says pmid %s, metrics exports %s", c.path, pmid, e[3])
		}
		if indom != "" && indom != e[5] {
			t.Errorf("%s: describe says instance domain %s, metrics exports %s", c.path, indom, e[5])
		}
	}
}
