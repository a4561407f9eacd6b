package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"dcimon/headless"
	"dcimon/internal/pcptest"
	"dcimon/pcparchive"
)

// Issue 14: the headless commands read a remote host through a real pmproxy, and a pmproxy that
// is not there is a clear error naming its URL, exit status 1.
func TestPCPSourceCommands(t *testing.T) {
	p := pcptest.Start(t)
	src := []string{"--source", p.URL(), "--hosts", p.Hostspec()}
	out, errOut, code := runFake(t, append([]string{"get", "CPU/busy", "Mem/Real/total"}, src...)...)
	if code != 0 || !strings.Contains(out, "CPU/busy") || !strings.Contains(out, "GiB") {
		t.Errorf("get: exit %d %s\n%s", code, errOut, out)
	}
	out, _, code = runFake(t, append([]string{"list", "CPU"}, src...)...)
	if code != 0 || !strings.Contains(out, "/"+p.Hostspec()+"/CPU/") {
		t.Errorf("list names the host by its hostspec: exit %d\n%s", code, out)
	}
	out, _, code = runFake(t, append([]string{"describe", "CPU/cpu0/idle"}, src...)...)
	if code != 0 || !strings.Contains(out, "kernel.percpu.cpu.idle") {
		t.Errorf("describe names the PCP metric: exit %d\n%s", code, out)
	}

	// Issue 31: --hosts alone reads the host's pmcd natively; one that does not exist is a
	// runtime failure naming it, not a usage error.
	out, _, code = runFake(t, "get", "CPU/ncpu", "--hosts", p.Hostspec())
	if code != 0 || !strings.Contains(out, "CPU/ncpu") {
		t.Errorf("--hosts %s: exit %d\n%s", p.Hostspec(), code, out)
	}
	if _, errOut, code := runFake(t, "get", "CPU/busy", "--hosts", "nosuchhost.invalid"); code != 1 || !strings.Contains(errOut, "nosuchhost.invalid") {
		t.Errorf("--hosts nosuchhost.invalid: exit %d, stderr %q; want 1 naming it", code, errOut)
	}
	down := fmt.Sprintf("pcp://127.0.0.1:%d", pcptest.FreePort(t))
	_, errOut, code = runFake(t, "get", "CPU/busy", "--source", down)
	if code != 1 || !strings.Contains(errOut, strings.TrimPrefix(down, "pcp://")) {
		t.Errorf("pmproxy down: exit %d, stderr %q; want 1 naming the URL", code, errOut)
	}
	for _, args := range [][]string{
		{"get", "CPU/busy", "--source", "pcp://a:b:c"},
		{"get", "CPU/busy", "--source", "pcp://u:pw@proxy"},
		{"get", "CPU/busy", "--source", p.URL(), "--hosts", "a,a"},
		{"get", "CPU/busy", "--source", p.URL(), "--hosts", "x/y=a"},
		{"get", "CPU/busy", "--hosts", "a:b"},                        // no such port
		{"get", "CPU/busy", "--hosts", "a?compress"},                 // hostspec attributes: not spoken
		{"get", "CPU/busy", "--hosts", "a@b@c"},                      // two proxies
		{"get", "CPU/busy", "--source", "synthetic", "--hosts", "a"}, // hosts of no PCP source
	} {
		if _, errOut, code := runFake(t, args...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", args, code, errOut)
		} else if strings.Contains(errOut, "pw@") {
			t.Errorf("%v: the password is shown: %s", args, errOut)
		}
	}
}

// Several hosts through one pmproxy (issue 14): each host's classes under its own context,
// named by its hostspec or alias; a path without a host means every host; a host that is down
// degrades only its own classes, with pmproxy's reason.
func TestPCPSeveralHosts(t *testing.T) {
	// Not in parallel: on the fake clock a reading follows the last at once, so beside the
	// others' pmcds and pmloggers a loaded pmcd was "still busy with an earlier collection".
	p1 := pcptest.Start(t)
	p2 := pcptest.Start(t)
	down := fmt.Sprintf("127.0.0.1:%d", pcptest.FreePort(t))
	hosts := fmt.Sprintf("%s,db=%s,gone=%s", p1.Hostspec(), p2.Hostspec(), down)
	src := []string{"--source", p1.URL(), "--hosts", hosts}
	out, errOut, code := runFake(t, append([]string{"get", "CPU/busy", "/db/Mem/Real/total"}, src...)...)
	if code != 0 {
		t.Fatalf("get: exit %d: %s\n%s", code, errOut, out)
	}
	for _, want := range []string{p1.Hostspec() + "/CPU/busy", "db/CPU/busy", "db/Mem/Real/total", "GiB", "gone/CPU/busy", "cannot connect to PMCD"} {
		if !strings.Contains(out, want) {
			t.Errorf("get: no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "db/CPU/busy                err") {
		t.Errorf("a host that answers is degraded by one that does not:\n%s", out)
	}
	// The host's own name, machine id and labels, as its pmcd gave them, are attributes of its
	// context; a host that did not answer at start says so.
	out, _, code = runFake(t, append([]string{"describe", "/db"}, src...)...)
	if code != 0 || !strings.Contains(out, "pcp label machineid") || !strings.Contains(out, "pcp hostname") {
		t.Errorf("describe /db: exit %d, no labels\n%s", code, out)
	}
	out, _, _ = runFake(t, append([]string{"describe", "/gone"}, src...)...)
	if !strings.Contains(out, "did not answer") {
		t.Errorf("describe /gone: no word of its labels\n%s", out)
	}
	out, _, code = runFake(t, append([]string{"list", "db/CPU"}, src...)...)
	if code != 0 || !strings.Contains(out, "/db/CPU/cpu0/") {
		t.Errorf("list db/CPU: exit %d\n%s", code, out)
	}
	out, _, code = runFake(t, append([]string{"hot", "/db/Disk", "busy"}, src...)...)
	if code != 0 || !strings.Contains(out, "db/Disk busy") {
		t.Errorf("hot /db/Disk busy: exit %d\n%s", code, out)
	}
	// A fleet hotset: the disks of every host ranked together, named host/Disk/disk, with the
	// SPMI rules holding across hosts: every disk is below 101% busy, so with a negative
	// threshold each qualifies and raises its exception (SPMI-HOT-7, SPMI-HOT-12).
	out, errOut, code = runFake(t, append([]string{"hot", "Disk", "busy", "--threshold", "-101", "--exceptions", "exception",
		"--severity", "2", "--max", "10"}, src...)...)
	if code != 0 {
		t.Fatalf("hot Disk busy across hosts: exit %d %s\n%s", code, errOut, out)
	}
	for _, want := range []string{"*/Disk busy", p1.Hostspec() + "/Disk/", "db/Disk/", "severity 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("fleet hotset: no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "gone/Disk") {
		t.Errorf("a host that is down has disks in the ranking:\n%s", out)
	}
	// Issue 42 item 4: --check on the fleet: every disk is below 101% busy, so each is past the
	// negative threshold: WARNING, the performance data labelled by host and disk.
	out, errOut, code = runFake(t, append([]string{"hot", "Disk", "busy", "--threshold", "-101", "--check", "--max", "10"}, src...)...)
	state, perf := parsePlugin(t, out)
	if code != 1 || state != "WARNING" || len(perf) == 0 || !strings.Contains(perf[0].label, "/Disk/") || perf[0].warn != "101:" {
		t.Errorf("hot --check across hosts: exit %d, %s, %+v: %s%s", code, state, perf, out, errOut)
	}
}

// pmval prints one value of metric read from pmcd hostspec by PCP's own client, as its last line.
func pmval(t *testing.T, hostspec, metric string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(pcptest.Run(t, "pmval", "-h", hostspec, "-s", "1", metric)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// Issue 14: the whole PCP name space of a host is browsable under PCP with the commands (list,
// get, describe reach a path a level at a time), and dcimon's values agree with PCP's own pmval
// reading the same pmcd: through the mapped classes and through the name space alike.
func TestPCPNameSpaceCommands(t *testing.T) {
	p := pcptest.Start(t)
	src := []string{"--source", p.URL(), "--hosts", p.Hostspec()}
	out, errOut, code := runFake(t, append([]string{"list", "PCP/hinv"}, src...)...)
	if code != 0 || !strings.Contains(out, "/PCP/hinv/ncpu ") || !strings.Contains(out, "/PCP/hinv/cpu/") {
		t.Errorf("list PCP/hinv: exit %d %s\n%s", code, errOut, out)
	}
	out, errOut, code = runFake(t, append([]string{"get", "PCP/hinv/ncpu", "PCP/mem/physmem", "Mem/Real/total", "--json"}, src...)...)
	if code != 0 {
		t.Fatalf("get: exit %d %s\n%s", code, errOut, out)
	}
	var r struct {
		Values []struct {
			Path string  `json:"path"`
			Raw  *uint64 `json:"raw"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &r); err != nil || len(r.Values) != 3 {
		t.Fatalf("get --json: %v\n%s", err, out)
	}
	ncpu, physmem := pmval(t, p.Hostspec(), "hinv.ncpu"), pmval(t, p.Hostspec(), "mem.physmem")
	for i, want := range []string{ncpu, physmem, physmem + " KiB"} {
		v := r.Values[i]
		if v.Raw == nil {
			t.Errorf("%s: no value\n%s", v.Path, out)
			continue
		}
		got := strconv.FormatUint(*v.Raw, 10)
		if strings.HasSuffix(want, " KiB") {
			n, _ := strconv.ParseUint(strings.TrimSuffix(want, " KiB"), 10, 64)
			want = strconv.FormatUint(n*1024, 10) // Mem/Real/total is in bytes
		}
		if got != want {
			t.Errorf("%s = %s, pmval says %s", v.Path, got, want)
		}
	}
	out, errOut, code = runFake(t, append([]string{"describe", "PCP/kernel/all/load/1 minute/value"}, src...)...)
	if code != 0 || !strings.Contains(out, "kernel.all.load") || !strings.Contains(out, "60.2 (on its host)") {
		t.Errorf("describe a PCP metric: exit %d %s\n%s", code, errOut, out)
	}
	// Several hosts: a path without a host reaches every host's name space.
	two := []string{"--source", p.URL(), "--hosts", "a=" + p.Hostspec() + ",b=" + p.Hostspec()}
	out, errOut, code = runFake(t, append([]string{"get", "PCP/hinv/ncpu", "/b/PCP/mem/physmem"}, two...)...)
	for _, want := range []string{"a/PCP/hinv/ncpu", "b/PCP/hinv/ncpu", "b/PCP/mem/physmem"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("get across two hosts: exit %d %s: no %q in\n%s", code, errOut, want, out)
		}
	}
	out, errOut, code = runFake(t, append([]string{"get", "PCP/no/such/metric"}, src...)...)
	if code != 1 || !strings.Contains(out+errOut, "no") {
		t.Errorf("a path PCP does not have: exit %d %s\n%s", code, errOut, out)
	}
}

// Issue 15: the headless commands read a pmlogger archive through the same mapping as a live
// host, at a time given with --at: the rate get prints is the one PCP's own pmdumplog values
// give over the archive's timestamps, timed as the archive was; a time outside the archive is an
// error that says what it covers; an archive is a source of its own.
func TestArchiveCommands(t *testing.T) {
	t.Parallel() // it waits on daemons and real clocks: beside the other tests that do (issue 37)
	p := pcptest.Start(t)
	base := p.Log(t, "kernel.all.pswitch hinv.ncpu mem.physmem disk.dev kernel.uname", 5)
	dump := pcptest.Run(t, "pmdumplog", "-a", base, "kernel.all.pswitch")
	re := regexp.MustCompile(`(?m)^(\d\d:\d\d:\d\d\.\d+) 1 metric\n\s+60\.0\.13 \(kernel\.all\.pswitch\): value (\d+)`)
	m := re.FindAllStringSubmatch(dump, -1)
	if len(m) < 2 {
		t.Fatalf("pmdumplog shows %d samples:\n%s", len(m), dump)
	}
	a, err := pcparchive.Open(base) // the day pmdumplog's times are on: the archive's start
	if err != nil {
		t.Fatal(err)
	}
	day := a.Label.Start.UTC().Format("2006-01-02")
	at := func(i int) (time.Time, float64) {
		tm, err := time.Parse("2006-01-02 15:04:05.000000", day+" "+m[i][1])
		if err != nil {
			t.Fatal(err)
		}
		v, _ := strconv.ParseFloat(m[i][2], 64)
		return tm, v
	}
	// The last two samples a second apart (a machine under load may leave one without a value).
	k := len(m) - 1
	for ; k > 1; k-- {
		a, _ := at(k - 1)
		b, _ := at(k)
		if d := b.Sub(a); d > 500*time.Millisecond && d < 1500*time.Millisecond {
			break
		}
	}
	t2, v2 := at(k - 1)
	t3, v3 := at(k)
	want := (v3 - v2) / t3.Sub(t2).Seconds()
	out, errOut, code := runFake(t, "get", "Host/ctxsw", "--archive", base, "--at", t3.Format(time.RFC3339Nano), "--json")
	if code != 0 {
		t.Fatalf("get --archive: exit %d %s\n%s", code, errOut, out)
	}
	var r struct {
		Time   time.Time `json:"time"`
		Values []struct {
			Value *float64 `json:"value"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &r); err != nil || len(r.Values) != 1 || r.Values[0].Value == nil {
		t.Fatalf("get --json: %v\n%s", err, out)
	}
	if got := *r.Values[0].Value; math.Abs(got-want) > 1e-6*math.Max(1, want) {
		t.Errorf("Host/ctxsw at %s = %v/s, pmdumplog's values give %v/s", t3.Format(time.RFC3339Nano), got, want)
	}
	if !r.Time.Equal(t3) {
		t.Errorf("the reading is timed %s, the archive's sample %s", r.Time, t3)
	}
	// A time of day is on the archive's day: the second the last sample is in reads the one
	// before it.
	if sec := t3.Truncate(time.Second); !t2.After(sec) {
		clock := sec.UTC().Format("15:04:05")
		out, errOut, code = runFake(t, "get", "Host/ctxsw", "--archive", base, "--at", clock, "--json")
		if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &r); code != 0 || err != nil || !r.Time.Equal(t2) {
			t.Errorf("--at %s: exit %d %s, the reading at %s, want %s\n%s", clock, code, errOut, r.Time, t2, out)
		}
	}
	// A series: from before the archive (its start) to the sample before the last, a reading a
	// sample, in order.
	out, errOut, code = runFake(t, "get", "Host/ctxsw", "--archive", base, "--from", t2.Add(-time.Hour).Format(time.RFC3339),
		"--to", t2.Format(time.RFC3339Nano))
	readings := regexp.MustCompile(`(?m)^# (\S+ \S+) UTC`).FindAllStringSubmatch(out, -1)
	if code != 0 || len(readings) < 1 {
		t.Errorf("get --from --to: exit %d %s\n%s", code, errOut, out)
	}
	for i := 1; i < len(readings); i++ {
		if readings[i][1] <= readings[i-1][1] {
			t.Errorf("readings out of order:\n%s", out)
		}
	}
	if strings.Contains(out, t3.UTC().Format("15:04:05")) {
		t.Errorf("a reading after --to:\n%s", out)
	}
	out, _, code = runFake(t, "list", "Disk", "--archive", base)
	if code != 0 || !strings.Contains(out, "/Disk/") {
		t.Errorf("list --archive: exit %d\n%s", code, out)
	}
	_, errOut, code = runFake(t, "get", "Host/ctxsw", "--archive", base, "--at", "2001-01-01 00:00")
	if code != 1 || !strings.Contains(errOut, "outside it") || !strings.Contains(errOut, t2.Format("2006-01-02")) {
		t.Errorf("--at outside: exit %d, %q", code, errOut)
	}
	for _, args := range [][]string{
		{"get", "Host/ctxsw", "--archive", base, "--source", p.URL()},
		{"get", "Host/ctxsw", "--at", "2026-11-25 03:12"},
		{"get", "Host/ctxsw", "--archive", base, "--at", "3 in the morning"},
		{"get", "Host/ctxsw", "--archive", base, "--at", "2026-11-25 03:12", "--from", "2026-11-25 03:00"},
		{"get", "Host/ctxsw", "--from", "2026-11-25 03:00"},
		{"--archive", base, "--from", "2026-11-25 03:00"},
	} {
		if _, errOut, code := runFake(t, args...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", args, code, errOut)
		}
	}
}

// Issue 15: dcimon record writes this host as an archive PCP's own tools read: pmlogcheck finds
// nothing wrong, pmdumplog shows the Linux PMDA's names for what the mapping reads (and dcimon.*
// names for the rest), its values are the ones dcimon replays from it, and an archive that is
// there is never written over.
func TestRecordReadByPCP(t *testing.T) {
	if ok, why := pcptest.Installed(); !ok {
		t.Skip(why)
	}
	base := filepath.Join(t.TempDir(), "rec")
	_, errOut, code := runFake(t, "record", base, "-i", "1s", "--duration", "3s")
	if code != 0 || !strings.Contains(errOut, "recorded 4 samples") { // at 0, 1, 2 and 3 s: 3 s of recording
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	if out := pcptest.Run(t, "pmlogcheck", base); strings.TrimSpace(out) != "" {
		t.Errorf("pmlogcheck:\n%s", out)
	}
	dump := pcptest.Run(t, "pmdumplog", "-a", base)
	for _, want := range []string{"(kernel.all.cpu.user)", "(mem.physmem)", "(kernel.all.pswitch)", "(dcimon."} {
		if !strings.Contains(dump, want) {
			t.Errorf("pmdumplog shows no %s", want)
		}
	}
	// The context's labels, as pmlogger records its pmcd's: PCP reads them, and so does the replay.
	if labels := pcptest.Run(t, "pmdumplog", "-e", base); !strings.Contains(labels, `Context labels`) || !strings.Contains(labels, `"hostname":`) {
		t.Errorf("pmdumplog -e shows no context labels:\n%s", labels)
	}
	if desc, errOut, code := runFake(t, "describe", "Host", "--archive", base); code != 0 || !strings.Contains(desc, "hostname") {
		t.Errorf("describe Host --archive: exit %d %s\n%s", code, errOut, desc)
	}
	if strings.Contains(dump, "no name in PMNS") {
		t.Errorf("a metric without its name:\n%s", dump)
	}
	m := regexp.MustCompile(`\(mem\.physmem\): value (\d+)`).FindStringSubmatch(dump)
	if m == nil {
		t.Fatalf("no mem.physmem value in\n%s", dump)
	}
	out, errOut, code := runFake(t, "get", "Mem/Real/total", "--archive", base, "--json")
	if code != 0 {
		t.Fatalf("get --archive of the recording: exit %d %s", code, errOut)
	}
	var r struct {
		Values []struct {
			Raw *uint64 `json:"raw"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &r); err != nil || len(r.Values) != 1 || r.Values[0].Raw == nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// mem.physmem is in Kbyte, as the Linux PMDA has it (issue 30); the datum in bytes.
	if kb, _ := strconv.ParseUint(m[1], 10, 64); *r.Values[0].Raw != kb*1024 {
		t.Errorf("Mem/Real/total replayed %d bytes, pmdumplog says mem.physmem %s Kbyte", *r.Values[0].Raw, m[1])
	}
	// What the mapping does not read from the Linux PMDA replays from dcimon's own names: the
	// replay of static datums (addresses, file system types, the OS) reads as this host does.
	static := []string{"get", "Host/os", "NetIf/*/mac", "NetIf/*/ipv4", "FS/*/type", "Disk/*/ro"}
	live, _, code1 := runFake(t, static...)
	replayed, errOut2, code2 := runFake(t, append(static, "--archive", base)...)
	body := func(s string) string { _, rest, _ := strings.Cut(s, "\n"); return rest } // past the time line
	if code1 != 0 || code2 != 0 || body(live) != body(replayed) {
		t.Errorf("live (exit %d):\n%s\nreplayed (exit %d %s):\n%s", code1, live, code2, errOut2, replayed)
	}
	if _, errOut, code := runFake(t, "record", base, "--duration", "1s"); code != 1 || !strings.Contains(errOut, "exists") {
		t.Errorf("recording over an archive that is there: exit %d %s", code, errOut)
	}
}

// Issue 15: dcimon record writes a host it reads through pmproxy (the remote source) as it
// writes this one: PCP's tools read the archive, and its replay has the host's values.
func TestRecordRemoteHost(t *testing.T) {
	p := pcptest.Start(t)
	base := filepath.Join(t.TempDir(), "remote")
	_, errOut, code := runFake(t, "record", base, "--source", p.URL(), "--hosts", p.Hostspec(), "-i", "1s", "--duration", "2s")
	if code != 0 {
		t.Fatalf("record --source: exit %d %s", code, errOut)
	}
	if out := pcptest.Run(t, "pmlogcheck", base); strings.TrimSpace(out) != "" {
		t.Errorf("pmlogcheck:\n%s", out)
	}
	want := regexp.MustCompile(`(?m)^\s+(\d+)\s*$`).FindStringSubmatch(pcptest.Run(t, "pmval", "-h", p.Hostspec(), "-s", "1", "mem.physmem"))
	out, errOut, code := runFake(t, "get", "Mem/Real/total", "--archive", base, "--json")
	var r struct {
		Values []struct {
			Raw *uint64 `json:"raw"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &r); code != 0 || err != nil || len(r.Values) != 1 || r.Values[0].Raw == nil || want == nil {
		t.Fatalf("get --archive: exit %d %s %v\n%s", code, errOut, err, out)
	}
	if got := strconv.FormatUint(*r.Values[0].Raw/1024, 10); got != want[1] {
		t.Errorf("the recording's Mem/Real/total is %s KiB, pmval's mem.physmem %s", got, want[1])
	}
	if _, errOut, code := runFake(t, "record", base+"2", "--source", p.URL(), "--hosts", p.Hostspec()+","+p.Hostspec()); code != 2 {
		t.Errorf("record of two hosts: exit %d (%s), want 2", code, errOut)
	}
}

// Issue 15: PCP's own pmrep and pmval compute from dcimon's recording the same rates and values
// dcimon's replay of it gives: counters as rates over the recorded timestamps, the load averages
// and the uptime written as the Linux PMDA has them (kernel.all.load's "1 minute" instance).
func TestReplayAgreesWithPCPTools(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	pcptest.NeedPmrep(t)
	base := filepath.Join(t.TempDir(), "rec")
	if _, errOut, code := runFake(t, "record", base, "-i", "1s", "--duration", "4s"); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	// pmrep without interpolation: a line a record, counters as rates between records.
	csv := pcptest.Run(t, "pmrep", "-a", base, "-u", "-o", "csv", "-P", "6", "-Z", "UTC",
		"kernel.all.pswitch", "kernel.all.load", "kernel.all.uptime", "disk.dev.read_bytes")
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if len(lines) < 4 {
		t.Fatalf("pmrep:\n%s", csv)
	}
	head := strings.Split(lines[0], ",")
	col := func(name string) int {
		for i, h := range head {
			if strings.Trim(h, `"`) == name {
				return i
			}
		}
		t.Fatalf("pmrep has no column %s: %s", name, lines[0])
		return 0
	}
	cSw, cLoad, cUp := col("kernel.all.pswitch"), col("kernel.all.load-1 minute"), col("kernel.all.uptime")
	out, errOut, code := runFake(t, "get", "Host/ctxsw", "Host/load1", "Host/uptime", "--archive", base, "--from", "2000-01-01 00:00", "--json")
	if code != 0 {
		t.Fatalf("get --archive: exit %d %s", code, errOut)
	}
	type reading struct {
		Time   time.Time `json:"time"`
		Values []struct {
			Path  string   `json:"path"`
			Value *float64 `json:"value"`
		} `json:"values"`
	}
	byTime := map[string]reading{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var r reading
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		byTime[r.Time.UTC().Format("2006-01-02 15:04:05")] = r
	}
	checked := 0
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		r, ok := byTime[f[0]]
		if !ok || f[cSw] == "" {
			continue // the first record: no rate in pmrep either
		}
		for i, want := range map[int]string{0: f[cSw], 1: f[cLoad], 2: f[cUp]} {
			w, err := strconv.ParseFloat(want, 64)
			if err != nil || r.Values[i].Value == nil {
				t.Errorf("%s %s: pmrep %q, dcimon %v", f[0], r.Values[i].Path, want, r.Values[i].Value)
				continue
			}
			got := *r.Values[i].Value // --json values are in their units' base: seconds for the uptime
			if math.Abs(got-w) > 1e-6*math.Max(1, math.Abs(w)) {
				t.Errorf("%s %s: dcimon %v, pmrep %v", f[0], r.Values[i].Path, got, w)
			}
		}
		checked++
	}
	if checked < 3 {
		t.Errorf("only %d readings compared:\npmrep:\n%s\ndcimon:\n%s", checked, csv, out)
	}
	// pmval interpolates at its interval from the archive's start: the records are a second
	// apart from it, so its rates are the records' too.
	pv := pcptest.Run(t, "pmval", "-a", base, "-t", "1", "-f", "6", "-Z", "UTC", "kernel.all.pswitch")
	rates := regexp.MustCompile(`(?m)^(\d\d:\d\d:\d\d)\.\d+\s+([0-9.]+)\s*$`).FindAllStringSubmatch(pv, -1)
	n := 0
	for _, m := range rates {
		for k, r := range byTime {
			if strings.HasSuffix(k, m[1]) && r.Values[0].Value != nil {
				w, _ := strconv.ParseFloat(m[2], 64)
				if got := *r.Values[0].Value; math.Abs(got-w) > 1e-3*math.Max(1, w) {
					t.Errorf("%s kernel.all.pswitch: dcimon %v/s, pmval %v/s", m[1], got, w)
				}
				n++
			}
		}
	}
	if n < 2 {
		t.Errorf("pmval's rates matched %d readings:\n%s", n, pv)
	}
}

// Issue 15: a recording with --size begins a new volume when one is full, as pmlogger -v does,
// and with --keep removes the volumes older than that. What is left is one archive that
// pmlogcheck passes (noting the removed volumes) and pmdumplog and dcimon read from its first
// remaining sample to its last; no volume is left empty.
func TestRecordVolumesAndRetention(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	if ok, why := pcptest.Installed(); !ok {
		t.Skip(why)
	}
	base := filepath.Join(t.TempDir(), "rec")
	_, errOut, code := runFake(t, "record", base, "-i", "1s", "--duration", "12s", "--size", "8KiB", "--keep", "4s")
	if code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	a, err := pcparchive.Open(base)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Volumes) < 2 || a.Volumes[0] == 0 {
		t.Fatalf("volumes %v: want several, the first ones removed", a.Volumes)
	}
	for _, v := range a.Volumes {
		if st, err := os.Stat(fmt.Sprintf("%s.%d", base, v)); err != nil || st.Size() <= 132 {
			t.Errorf("volume %d: %v, %v bytes (a label alone is 132)", v, err, st)
		}
	}
	out := pcptest.Run(t, "pmlogcheck", base)
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l != "" && !strings.Contains(l, "file missing for log volume") {
			t.Errorf("pmlogcheck: %s", l)
		}
	}
	dump := pcptest.Run(t, "pmdumplog", "-a", base, "kernel.all.pswitch")
	n := strings.Count(dump, "(kernel.all.pswitch): value")
	// A rate for each value after the first, from the first sample of the first volume left.
	got, errOut, code := runFake(t, "get", "Host/ctxsw", "--archive", base, "--from", "2000-01-01 00:00")
	if readings := strings.Count("\n"+got, "\n# "); code != 0 || n < 3 || readings != n-1 {
		t.Errorf("pmdumplog has %d values, dcimon %d rates (exit %d %s)\n%s", n, readings, code, errOut, got)
	}
	for _, bad := range [][]string{{"--size", "10"}, {"--size", "1 lot"}, {"--keep", "7 days"}, {"--keep", "1d"}} {
		args := append([]string{"record", filepath.Join(t.TempDir(), "x")}, bad...)
		if _, errOut, code := runFake(t, args...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", bad, code, errOut)
		}
	}
}

// Issue 15: a recording killed with SIGKILL (no chance to close anything) leaves an archive that
// pmlogcheck passes and that pmdumplog and dcimon read to its last complete sample.
func TestRecordSurvivesKill9(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	if ok, why := pcptest.Installed(); !ok {
		t.Skip(why)
	}
	bin := buildDcimon(t)
	base := filepath.Join(t.TempDir(), "killed")
	cmd := exec.Command(bin, "record", base, "-i", "200ms")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) { // until a few samples are written
		if a, err := pcparchive.Open(base); err == nil {
			if rs, _ := a.ReadVolume(0); len(rs) >= 4 {
				break
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if out := pcptest.Run(t, "pmlogcheck", base); strings.TrimSpace(out) != "" {
		t.Errorf("pmlogcheck after kill -9:\n%s", out)
	}
	n := strings.Count(pcptest.Run(t, "pmdumplog", "-a", base, "kernel.all.pswitch"), "(kernel.all.pswitch): value")
	out, errOut, code := runFake(t, "get", "Host/ctxsw", "--archive", base, "--from", "2000-01-01 00:00")
	if readings := strings.Count("\n"+out, "\n# "); code != 0 || n < 4 || readings != n-1 {
		t.Errorf("pmdumplog reads %d values, dcimon %d rates (exit %d %s)", n, readings, code, errOut)
	}
}

// Issue 15: a recording that runs out of room (a file size limit here, as a full disk) or is
// killed leaves an archive whose every complete record reads, and a torn last one, if any, is
// an error at the end, never a wrong value: dcimon replays it up to there.
func TestRecordSurvivesAFullDisk(t *testing.T) {
	t.Parallel() // it waits on daemons and real clocks: beside the other tests that do (issue 37)
	bin := buildDcimon(t)
	base := filepath.Join(t.TempDir(), "full")
	// 200 blocks of 512 bytes a file: room for the metadata and some samples, then the limit.
	cmd := exec.Command("sh", "-c", `ulimit -f 200; exec "$0" record "$1" -i 100ms --duration 1h`, bin, base)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("a recording past its room ended without an error:\n%s", out)
	}
	a, err := pcparchive.Open(base)
	if err != nil {
		t.Fatalf("the archive left behind does not open: %v", err)
	}
	c, err := a.Cursor(time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	var last time.Time
	for {
		r, err := c.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) && !strings.Contains(err.Error(), "cut short") {
				t.Errorf("after %d records: %v", n, err)
			}
			break
		}
		if !r.Time.After(last) {
			t.Errorf("record %d at %v, not after %v", n, r.Time, last)
		}
		last = r.Time
		n++
	}
	if n < 2 {
		t.Fatalf("%d complete records before the limit", n)
	}
	// The replay reads what is there and stops at the end.
	out2, errOut, code := runFake(t, "get", "Mem/Real/total", "--archive", base, "-n", "0")
	if code != 0 || !strings.Contains(out2, "Mem/Real/total") {
		t.Errorf("get --archive of a recording cut short: exit %d %s\n%s", code, errOut, out2)
	}
}

// Issue 29 item 15: a record whose source refuses its credentials says so, exits 1 and writes
// nothing, where it used to write only marks and say "recorded 3 samples".
func TestRecordRefusedCredentials(t *testing.T) {
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", `Basic realm="pmproxy"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer proxy.Close()
	dir := t.TempDir()
	base := filepath.Join(dir, "rec")
	url := strings.Replace(proxy.URL, "http://", "pcp://alice@", 1)
	t.Setenv("DCIMON_PCP_PASSWORD", "wrong")
	_, errOut, code := runFake(t, "record", base, "--source", url, "--hosts", "web1", "-i", "1s", "--duration", "2s")
	if code != 1 || !strings.Contains(errOut, "authentication failed") || !strings.Contains(errOut, "nothing") {
		t.Errorf("record with refused credentials: exit %d, %q; want 1 naming the refusal", code, errOut)
	}
	if left, _ := filepath.Glob(base + "*"); len(left) != 0 {
		t.Errorf("files left: %v", left)
	}
}

// Issue 30 item 1: every metric dcimon writes under a PCP name is described as this machine's
// pmcd describes it (pmid, type, semantics, units, instance domain), its instances are named as
// the pmcd names them, dcimon's own metrics stay in dcimon's domain, and pmlogextract merges a
// dcimon recording with a pmlogger archive of the same host.
func TestRecordIsWhatPMLoggerWrites(t *testing.T) {
	t.Parallel() // it waits on daemons and real clocks: beside the other tests that do (issue 37)
	p := pcptest.Start(t)
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec")
	if _, errOut, code := runFake(t, "record", rec, "-i", "1s", "--duration", "2s"); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	// What the recording says of each metric, and what the pmcd says.
	type desc struct{ pmid, rest string }
	parse := func(out string) map[string]desc {
		m := map[string]desc{}
		var name string
		for _, l := range strings.Split(out, "\n") {
			if f := strings.Fields(l); len(f) == 3 && f[1] == "PMID:" {
				name = f[0]
				m[name] = desc{pmid: f[2]}
			} else if name != "" && strings.HasPrefix(l, "    ") && !strings.Contains(l, "inst [") && !strings.Contains(l, "value") {
				d := m[name]
				d.rest += strings.Join(strings.Fields(strings.Split(l, " 0x")[0]), " ") + "; "
				m[name] = d
			}
		}
		return m
	}
	recorded := parse(pcptest.Run(t, "pminfo", "-a", rec, "-dm"))
	var pcpNames []string
	for name, d := range recorded {
		if strings.HasPrefix(name, "dcimon.") {
			if !strings.HasPrefix(d.pmid, "510.") {
				t.Errorf("%s: pmid %s, not in dcimon's domain 510", name, d.pmid)
			}
			continue
		}
		pcpNames = append(pcpNames, name)
	}
	if len(pcpNames) < 100 {
		t.Fatalf("%d metrics under PCP names in the recording, want the mapping's (over 100)", len(pcpNames))
	}
	sort.Strings(pcpNames)
	live := parse(pcptest.Run(t, "pminfo", append([]string{"-h", p.Hostspec(), "-dm"}, pcpNames...)...))
	for _, name := range pcpNames {
		if recorded[name] != live[name] {
			t.Errorf("%s: the recording says %+v, the pmcd %+v", name, recorded[name], live[name])
		}
	}
	// Instance names: each one the recording has is one the pmcd has.
	insts := func(out string) map[string]map[string]bool {
		m := map[string]map[string]bool{}
		var name string
		for _, l := range strings.Split(out, "\n") {
			if f := strings.TrimSpace(l); f != "" && !strings.HasPrefix(l, " ") {
				name = f
				m[name] = map[string]bool{}
			} else if i := strings.Index(l, `or "`); i >= 0 && name != "" {
				m[name][l[i+4:i+4+strings.Index(l[i+4:], `"`)]] = true
			}
		}
		return m
	}
	recI := insts(pcptest.Run(t, "pminfo", append([]string{"-a", rec, "-f"}, pcpNames...)...))
	liveI := insts(pcptest.Run(t, "pminfo", append([]string{"-h", p.Hostspec(), "-f"}, pcpNames...)...))
	for _, name := range pcpNames {
		for in := range recI[name] {
			if !liveI[name][in] {
				t.Errorf("%s: instance %q of the recording is not one the pmcd names (%v)", name, in, liveI[name])
			}
		}
	}
	// pmlogextract merges the recording with pmlogger's archive of the same host.
	conf := filepath.Join(dir, "conf")
	if err := os.WriteFile(conf, []byte("log mandatory on 1 sec {\n kernel.all.cpu.user\n disk.dev.read\n mem.util.free\n kernel.all.load\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pl := filepath.Join(dir, "pl")
	pcptest.Run(t, "pmlogger", "-h", p.Hostspec(), "-c", conf, "-s", "2", "-t", "1", "-l", filepath.Join(dir, "log"), pl)
	merged := filepath.Join(dir, "merged")
	if out, err := pcptest.Output("pmlogextract", rec, pl, merged); err != nil {
		t.Fatalf("pmlogextract of the recording and pmlogger's archive: %v\n%s", err, out)
	}
	if out := pcptest.Run(t, "pmlogcheck", merged); strings.TrimSpace(out) != "" {
		t.Errorf("pmlogcheck of the merged archive:\n%s", out)
	}
}

// Issue 30 item 6: --from T1 includes the sample at or before T1 as its first reading, and the
// readings off an archive are timed to the millisecond.
func TestArchiveFromIncludesTheSampleBefore(t *testing.T) {
	t.Parallel() // it waits on daemons and real clocks: beside the other tests that do (issue 37)
	base := pcptest.Start(t).Log(t, "kernel.all.pswitch", 5)
	times := regexp.MustCompile(`(?m)^(\d\d:\d\d:\d\d\.\d{3})\d* 1 metric`).FindAllStringSubmatch(pcptest.Run(t, "pmdumplog", "-z", "-a", base, "kernel.all.pswitch"), -1)
	if len(times) < 4 {
		t.Fatalf("%d samples", len(times))
	}
	third, _ := time.Parse("15:04:05.000", times[2][1])
	from := third.Add(400 * time.Millisecond).Format("15:04:05.000")
	out, errOut, code := runFake(t, "get", "Host/ctxsw", "--archive", base, "--from", from, "--to", times[3][1])
	heads := regexp.MustCompile(`(?m)^# \S+ (\d\d:\d\d:\d\d\.\d{3}) `).FindAllStringSubmatch(out, -1)
	if code != 0 || len(heads) == 0 || heads[0][1] != times[2][1] {
		t.Errorf("get --from %s (after the sample at %s): exit %d %s\n%s", from, times[2][1], code, errOut, out)
	}
}

// Issue 31: a reading interval longer than pmproxy's default polltimeout (5 s), with a host
// that accepts and never answers: the good host has its rate at every reading, on both paths
// (REST through pmproxy, and each pmcd on its own connection at a 10 s interval). pmproxy's
// contexts expire on its own clock, so the REST path waits its 6 s for real; pmcd keeps no such
// clock, so the native path's interval passes on a clock that skips ahead when dcimon sleeps
// (issue 37: the test waited 28 s), while each hung read still takes its real deadline.
func TestFleetLongIntervalAndHungHost(t *testing.T) {
	t.Parallel() // it waits on daemons and real clocks: beside the other tests that do (issue 37)
	p := pcptest.Start(t)
	hung := pcptest.Hung(t)
	for _, tt := range []struct {
		name string
		args []string
		env  headless.Env
	}{
		{"rest", []string{"--source", p.URL(), "--hosts", "good=" + p.Hostspec() + ",hung=" + hung, "-i", "6s"}, headless.RealEnv()},
		{"native", []string{"--hosts", "good=" + p.Hostspec() + ",hung=" + hung, "-i", "10s"}, skippingEnv()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out, errb bytes.Buffer
			code := runEnv(context.Background(), append([]string{"get", "CPU/busy", "-n", "2", "--json"}, tt.args...), tt.env, &out, &errb)
			var readings []struct {
				Values []struct {
					Path, State, Reason string
				} `json:"values"`
			}
			for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				var r struct {
					Values []struct {
						Path, State, Reason string
					} `json:"values"`
				}
				if err := json.Unmarshal([]byte(l), &r); err != nil {
					t.Fatalf("%v: %s (exit %d, %s)", err, l, code, errb.String())
				}
				readings = append(readings, r)
			}
			if len(readings) != 2 {
				t.Fatalf("%d readings, want 2 (exit %d): %s\n%s", len(readings), code, errb.String(), out.String())
			}
			for i, r := range readings {
				for _, v := range r.Values {
					good := strings.HasPrefix(v.Path, "good/")
					if good && v.State != "valid" {
						t.Errorf("reading %d: %s %s (%s), want a rate beside a hung host", i, v.Path, v.State, v.Reason)
					}
					if !good && v.State == "valid" {
						t.Errorf("reading %d: %s valid from a host that never answers", i, v.Path)
					}
				}
			}
		})
	}
}

// skippingEnv is the process's environment but for its clock, which starts at the real time and
// moves only when dcimon sleeps, by the time it sleeps. A sleep takes a second at most for real,
// so that the counters pmcd reads move between readings (a rate over no tick of the processors
// has no denominator), while the deadlines of reads (contexts, on the real clock) hold as they do.
func skippingEnv() headless.Env {
	e := headless.RealEnv()
	sleep := e.Sleep
	var mu sync.Mutex
	now := time.Now()
	e.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	e.Sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		now = now.Add(d)
		mu.Unlock()
		return sleep(ctx, min(d, time.Second))
	}
	return e
}
