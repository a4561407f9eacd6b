package cli

// Fault scenarios of issue 21, run through the commands' own path (runEnv): the user guide's fault
// table (docs/guide.md) names these tests.

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"dcimon/headless"
	"dcimon/views"
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

// basicDiskstats copies the basic fixture tree for a test that rewrites its /proc/diskstats: the
// tree, that file's path and what it holds.
func basicDiskstats(t *testing.T) (tree, stats string, orig []byte) {
	t.Helper()
	tree = copyTree(t, "../collect/linux/testdata/basic/t0")
	stats = filepath.Join(tree, "proc", "diskstats")
	orig, err := os.ReadFile(stats)
	if err != nil {
		t.Fatal(err)
	}
	return tree, stats, orig
}

func TestGetVanishedInstance(t *testing.T) {
	// Issue 21 item 1 (X-5, DCI-EVT-4): a disk that drops out of /proc/diskstats for one sample
	// and comes back is n/a "instance removed" while it is gone, never a valid 0, and starts
	// again with "—" (a new instance) when it returns; its partition-less neighbours stay.
	tree, stats, orig := basicDiskstats(t)
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

// mkfifo puts a named pipe in place of file rel of tree: opening it for reading blocks until a
// writer comes, which none does.
func mkfifo(t *testing.T, tree, rel string) {
	t.Helper()
	p := filepath.Join(tree, rel)
	_ = os.Remove(p)
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBlockingFiles(t *testing.T) {
	t.Parallel()
	// Issue 21 item 4: named pipes in place of /proc/stat, /proc/meminfo and /proc/diskstats
	// never hang a command: the real binary answers at once, with the classes they feed in
	// error (the reason given) and every other class valid.
	bin := binaryOrSkip(t)
	tree := copyTree(t, "../collect/linux/testdata/basic/t0")
	for _, rel := range []string{"proc/stat", "proc/meminfo", "proc/diskstats"} {
		mkfifo(t, tree, rel)
	}
	args := []string{"get", "CPU/idle", "Mem/Real/free", "Disk/vda/reads", "Host/uptime", "NetIf/lo/ibytes", "Monitor/*/error",
		"--procfs", filepath.Join(tree, "proc"), "--sysfs", filepath.Join(tree, "sys"), "-i", "100ms"}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("dcimon get hung on a named pipe (killed after %v)", time.Since(start))
	}
	if err != nil {
		t.Fatalf("exit %v: %s\n%s", err, errb.String(), out.String())
	}
	rows := getRows(out.String())
	for _, path := range []string{"CPU/idle", "Mem/Real/free", "Disk/vda/reads"} {
		if v := rows[path]; !strings.HasPrefix(v, "err (provider error: ") || !strings.Contains(v, "not a regular file (a named pipe)") {
			t.Errorf("%s: %q, want err with the reason", path, v)
		}
	}
	for _, path := range []string{"Host/uptime", "NetIf/lo/ibytes"} {
		if v := rows[path]; v == "" || strings.Contains(v, "err") || strings.Contains(v, "n/a") {
			t.Errorf("%s: %q, want a value: a named pipe fails only the classes it feeds", path, v)
		}
	}
	// The reason is visible: each provider's error says what the file is.
	for _, prov := range []string{"cpu"} {
		if !strings.Contains(rows["Monitor/dcimon-"+prov+"/error"], "not a regular file") {
			t.Errorf("Monitor/dcimon-%s/error: %q, want the reason", prov, rows["Monitor/dcimon-"+prov+"/error"])
		}
	}
}

func TestSignalExitStatus(t *testing.T) {
	t.Parallel()
	// Issue 21 item 7, SPMI-INIT-2: a command ended by SIGTERM, SIGHUP, SIGINT or SIGQUIT exits
	// as a signalled program does, 128+n, and promptly, even while its tree holds a named pipe.
	bin := binaryOrSkip(t)
	tree := copyTree(t, "../collect/linux/testdata/basic/t0")
	mkfifo(t, tree, "proc/stat")
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(bin, "get", "CPU/idle", "-n", "0", "-i", "100ms",
				"--procfs", filepath.Join(tree, "proc"), "--sysfs", filepath.Join(tree, "sys"))
			err := signalAfterFirstLine(t, cmd, sig)
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != 128+int(sig) {
				t.Errorf("after %v: %v, want exit status %d", sig, err, 128+int(sig))
			}
		})
	}
}

func TestHostileNamesRoundTrip(t *testing.T) {
	// Issue 21 item 6: every path list prints can be given to get as printed (hostile interface
	// names holding escape sequences, invalid UTF-8, a bidi override), and list's description
	// column is aligned in terminal cells.
	tree := copyTree(t, "../collect/linux/testdata/hostile_names/t0")
	dev := filepath.Join(tree, "proc", "net", "dev")
	b, err := os.ReadFile(dev)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dev, string(b)+"  网卡0: 1 1 0 0 0 0 0 0 1 1 0 0 0 0 0 0\n") // wide characters: 2 cells each
	fix := []string{"--procfs", filepath.Join(tree, "proc"), "--sysfs", filepath.Join(tree, "sys")}
	out, errs, code := runFake(t, append([]string{"list", "NetIf"}, fix...)...)
	if code != 0 {
		t.Fatalf("list: exit %d: %s", code, errs)
	}
	var paths []string
	col := -1
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		gap := strings.LastIndex(l, "  ") // names here hold single spaces at most
		if gap < 0 {
			t.Fatalf("no description column: %q", l)
		}
		path, desc := strings.TrimRight(l[:gap], " "), strings.TrimLeft(l[gap:], " ")
		if c := views.Width(l) - views.Width(desc); col < 0 {
			col = c
		} else if c != col {
			t.Errorf("description at cell %d, want %d: %q", c, col, l)
		}
		if strings.HasSuffix(path, "/ifindex") {
			_, rest, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/") // without the host
			paths = append(paths, rest)
		}
	}
	if len(paths) < 4 {
		t.Fatalf("only %d interfaces listed:\n%s", len(paths), out)
	}
	got, errs, code := runFake(t, append(append([]string{"get"}, paths...), fix...)...)
	if code != 0 || strings.Contains(got, "error") {
		t.Fatalf("get of the printed paths: exit %d %s\n%s", code, errs, got)
	}
	for _, p := range paths {
		if !strings.Contains(got, p+" ") {
			t.Errorf("get did not print %q:\n%s", p, got)
		}
	}
}

func TestBlockingSysfsAttribute(t *testing.T) {
	// Issue 21 item 5: a named pipe in place of one sysfs attribute fails only that datum of
	// that instance, "err" with the reason; the instance and its counters stay (an MTU that
	// cannot be read was a valid 0 before).
	tree := copyTree(t, "../collect/linux/testdata/basic/t0")
	mkfifo(t, tree, "sys/block/vda/size")
	mkfifo(t, tree, "sys/class/net/lo/mtu")
	out, errs, code := runFake(t, "get", "Disk/vda/size", "Disk/vda/reads", "NetIf/lo/mtu", "NetIf/lo/ibytes",
		"--procfs", filepath.Join(tree, "proc"), "--sysfs", filepath.Join(tree, "sys"))
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	rows := getRows(out)
	for _, p := range []string{"Disk/vda/size", "NetIf/lo/mtu"} {
		if v := rows[p]; !strings.HasPrefix(v, "err (provider error: ") || !strings.Contains(v, "not a regular file (a named pipe)") {
			t.Errorf("%s: %q, want err with the reason", p, v)
		}
	}
	for _, p := range []string{"Disk/vda/reads", "NetIf/lo/ibytes"} {
		if v := rows[p]; v == "" || strings.Contains(v, "err") || strings.Contains(v, "n/a") {
			t.Errorf("%s: %q, want a value", p, v)
		}
	}
}

func TestBadLinesKeepTheirInstances(t *testing.T) {
	// Issue 21 item 5: one bad line in /proc/diskstats (vda with major 2^64−1) makes vda "err"
	// with the line's number, not vanish; the other lines' disks stay valid. A whole file that
	// cannot be read (a named pipe) leaves every disk and interface sysfs knows "err", from the
	// first reading on, rather than "no subcontext vda".
	tree, stats, orig := basicDiskstats(t)
	env := scriptedEnv(func() {
		writeFile(t, stats, strings.Replace(string(orig), " 254       0 vda ", "18446744073709551615 0 vda ", 1))
	})
	var out, errb bytes.Buffer
	code := runEnv(context.Background(), []string{"get", "-n", "1", "-i", "1s", "Disk/vda/reads", "Disk/loop0/reads", "--show-loop",
		"--procfs", filepath.Join(tree, "proc"), "--sysfs", filepath.Join(tree, "sys")}, env, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errb.String(), out.String())
	}
	text := squash(out.String())
	if !strings.Contains(text, "Disk/vda/reads err (provider error: disk: parse ") || !strings.Contains(text, "line 12") {
		t.Errorf("vda on a bad line:\n%s", out.String())
	}
	if !strings.Contains(text, "Disk/loop0/reads 0 reads/s") {
		t.Errorf("loop0 on a good line:\n%s", out.String())
	}

	tree = copyTree(t, "../collect/linux/testdata/basic/t0")
	mkfifo(t, tree, "proc/diskstats")
	mkfifo(t, tree, "proc/net/dev")
	got, errs, code := runFake(t, "get", "Disk/vda/reads", "NetIf/eth0/ibytes", "NetIf/eth0/mtu",
		"--procfs", filepath.Join(tree, "proc"), "--sysfs", filepath.Join(tree, "sys"))
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, got)
	}
	for _, want := range []string{"Disk/vda/reads err (provider error: disk: open ", "NetIf/eth0/ibytes err (provider error: net: open ",
		"not a regular file (a named pipe)", "NetIf/eth0/mtu 1400"} {
		if !strings.Contains(squash(got), want) {
			t.Errorf("unreadable diskstats and net/dev: no %q in\n%s", want, got)
		}
	}
}

// squash collapses every run of white space to one space, so a test can look for a row without
// depending on the column widths.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// getRows maps each path of get's text output to the rest of its row, white space squashed.
func getRows(out string) map[string]string {
	rows := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 1 && !strings.HasPrefix(l, "#") {
			rows[f[0]] = strings.Join(f[1:], " ")
		}
	}
	return rows
}

// issue 12 (item 9): a command that could read nothing says why, with the provider's own error
// (file, line, what was wrong), and exits non-zero; get and hot alike.
func TestNothingReadSaysWhy(t *testing.T) {
	tree := copyTree(t, "../collect/linux/testdata/basic/t0")
	writeFile(t, tree+"/proc/diskstats", "garbage line here\n")
	writeFile(t, tree+"/proc/stat", "cpu  1 2 3 zz\ncpu0 1 2\n")
	src := []string{"--procfs", tree + "/proc", "--sysfs", tree + "/sys"}
	for _, args := range [][]string{
		{"hot", "Disk", "busy"},
		{"hot", "Disk", "busy", "--json"},
		{"get", "CPU/user"},
	} {
		out, errs, code := runFake(t, append(args, src...)...)
		if code != 1 {
			t.Errorf("%v: exit %d, want 1\n%s%s", args, code, out, errs)
		}
		if !strings.Contains(errs, "nothing could be read") || !strings.Contains(out+errs, "line 1") {
			t.Errorf("%v: the provider's error is not shown:\n%s%s", args, out, errs)
		}
	}
}

// PCPD-15: describe of an unknown metric says PM_ERR_PMID; a metric whose provider failed says
// PM_ERR_NOAGENT, in describe and in get --json.
func TestPCPErrors(t *testing.T) {
	_, errs, code := runFake(t, "describe", "Nothing/here", "--procfs", fixProc, "--sysfs", fixSys)
	if code != 1 || !strings.Contains(errs, "PM_ERR_PMID: unknown metric id") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	tree := copyTree(t, "../collect/linux/testdata/basic/t0")
	writeFile(t, tree+"/proc/diskstats", "garbage line here\n")
	src := []string{"--procfs", tree + "/proc", "--sysfs", tree + "/sys"}
	out, _, _ := runFake(t, append([]string{"describe", "Disk/vda/reads"}, src...)...)
	if !strings.Contains(out, "PM_ERR_NOAGENT") {
		t.Fatalf("describe of a failed provider's metric:\n%s", out)
	}
	out, _, _ = runFake(t, append([]string{"get", "Disk/vda/reads", "CPU/user", "--json"}, src...)...)
	if !strings.Contains(out, `"path":"Disk/vda/reads","state":"unavailable"`) || !strings.Contains(out, `"pcp_error":"PM_ERR_NOAGENT"`) {
		t.Fatalf("get --json of a failed provider's metric:\n%s", out)
	}
}

// SPMI-INIT-1: a source that cannot be opened stops the command before anything is shown: the
// error on standard error and a non-zero exit, never a half-working monitor or listing.
func TestSourceThatCannotOpen(t *testing.T) {
	for _, args := range [][]string{
		{"get", "CPU/user", "--procfs", "/nonexistent/proc"},
		{"list", "--source", "synthetic:disks=x"},
	} {
		out, errs, code := runFake(t, args...)
		if code == 0 || out != "" || errs == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}
