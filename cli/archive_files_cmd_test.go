package cli

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"dcimon/internal/pcptest"
	"dcimon/pcparchive"
)

// pswitchRates are the context-switch rates between an archive's consecutive samples, from
// pmdumplog's records of kernel.all.pswitch: the time of each later sample and the rate over the
// interval that ends there.
func pswitchRates(t *testing.T, base string) ([]time.Time, []float64) {
	t.Helper()
	dump := pcptest.Run(t, "pmdumplog", "-a", base, "kernel.all.pswitch")
	re := regexp.MustCompile(`(?m)^(\d\d:\d\d:\d\d\.\d+) 1 metric\n\s+60\.0\.13 \(kernel\.all\.pswitch\): value (\d+)`)
	m := re.FindAllStringSubmatch(dump, -1)
	l, err := pcparchive.ReadLabel(base)
	if err != nil {
		t.Fatal(err)
	}
	day := l.Start.UTC().Format("2006-01-02")
	var ts []time.Time
	var vs []float64
	for _, x := range m {
		tm, err := time.Parse("2006-01-02 15:04:05.999999999", day+" "+x[1])
		if err != nil {
			t.Fatal(err)
		}
		v, _ := strconv.ParseFloat(x[2], 64)
		ts, vs = append(ts, tm), append(vs, v)
	}
	if len(ts) < 3 {
		t.Fatalf("pmdumplog shows %d samples:\n%s", len(ts), dump)
	}
	var at []time.Time
	var rates []float64
	for i := 1; i < len(ts); i++ {
		at, rates = append(at, ts[i]), append(rates, (vs[i]-vs[i-1])/ts[i].Sub(ts[i-1]).Seconds())
	}
	return at, rates
}

// Issue 39 items 2 and 3: the headless commands read archives as pmlogger_daily leaves them: a
// base with dots (20261127.09.54), volumes and metadata compressed with xz -0
// --block-size=10MiB, the index as it was, named by the base or by any of its files; and the
// host's folder of such archives as one timeline. Each rate is the one pmdumplog's records give
// (1e-9 relative), and describe says the archive is compressed and what a seek costs.
func TestArchivesAsPMLoggerDailyLeavesThem(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	if _, err := exec.LookPath("xz"); err != nil {
		t.Skip("xz is not installed (Debian: xz-utils)")
	}
	p := pcptest.Start(t)
	dir := t.TempDir()
	conf := filepath.Join(dir, "config")
	if err := os.WriteFile(conf, []byte("log mandatory on every 1 second {\n\tkernel.all.pswitch hinv.ncpu mem.physmem disk.dev kernel.uname\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	host := filepath.Join(dir, "pmlogger", "db1")
	if err := os.MkdirAll(host, 0o755); err != nil {
		t.Fatal(err)
	}
	older, newer := filepath.Join(host, "20261127.09.54"), filepath.Join(host, "20261127.10.54")
	for _, base := range []string{older, newer} {
		pcptest.Run(t, "pmlogger", "-h", p.Hostspec(), "-c", conf, "-s", "4", "-t", "1", "-l", filepath.Join(dir, "log"), base)
	}
	if out, err := exec.Command("xz", "-0", "--block-size=10MiB", older+".0", older+".meta").CombinedOutput(); err != nil {
		t.Fatalf("xz: %v %s", err, out)
	}
	os.WriteFile(filepath.Join(host, "Latest"), []byte("PCPFolio\nVersion: 1\nArchive:\tdb1\t"+newer+"\n"), 0o644)
	get := func(archive string, at time.Time) (float64, time.Time) {
		t.Helper()
		out, errOut, code := runFake(t, "get", "Host/ctxsw", "--archive", archive, "--at", at.Format(time.RFC3339Nano), "--json")
		var r struct {
			Time   time.Time `json:"time"`
			Values []struct {
				Value *float64 `json:"value"`
			} `json:"values"`
		}
		if code != 0 || json.Unmarshal([]byte(strings.TrimSpace(out)), &r) != nil || len(r.Values) != 1 || r.Values[0].Value == nil {
			t.Fatalf("get --archive %s --at %s: exit %d %s\n%s", archive, at, code, errOut, out)
		}
		return *r.Values[0].Value, r.Time
	}
	check := func(archive string, at time.Time, want float64) {
		t.Helper()
		got, when := get(archive, at)
		if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) || !when.Equal(at) {
			t.Errorf("--archive %s --at %s: %v/s at %s, pmdumplog's records give %v/s", archive, at.Format(time.RFC3339Nano), got, when, want)
		}
	}
	oldAt, oldRates := pswitchRates(t, older) // pmdumplog reads the compressed files itself
	newAt, newRates := pswitchRates(t, newer)
	last := len(oldAt) - 1
	for _, name := range []string{older, older + ".meta.xz", older + ".0.xz", older + ".index"} {
		check(name, oldAt[last], oldRates[last])
	}
	// The folder: both archives, one timeline; a time in each reads that archive's sample.
	check(host, oldAt[last], oldRates[last])
	check(host, newAt[len(newAt)-1], newRates[len(newRates)-1])
	out, errOut, code := runFake(t, "describe", "Host", "--archive", older)
	if code != 0 || !strings.Contains(out, "compressed: 20261127.09.54.meta.xz, 20261127.09.54.0.xz; 20261127.09.54.0.xz: a seek backwards decompresses from the start") {
		t.Errorf("describe --archive (compressed): exit %d %s\n%s", code, errOut, out)
	}
}
