package ui

import (
	"bytes"
	"dcimon/internal/pcptest"
	"dcimon/internal/testbin"
	"dcimon/pcparchive"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Smoke tests of the real program in a real terminal (tmux): they wait for text, move the focus,
// filter, resize, and quit by key and by SIGTERM, checking the terminal is given back (alternate
// screen left, cursor visible) and the exit status. Program-level behaviour beyond that is tested
// through Update (house style rule 15).

// program builds dcimon (once per run) and returns it with the arguments that run it on its synthetic source.
func program(t *testing.T) (string, []string) {
	t.Helper()
	if testing.Short() {
		t.Skip("smoke tests of the binary are skipped with -short")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	return testbin.Dcimon(t, ".."), []string{"--source", "synthetic:disks=4,nics=2,cpus=4,seed=1"}
}

// tmuxTerm is one tmux session running the program.
type tmuxTerm struct {
	t        *testing.T
	name     string
	dir      string
	redirect string // shell redirections for the program, e.g. "< /dev/null"
}

func startTerm(t *testing.T, w, h int, bin string, args ...string) *tmuxTerm {
	t.Helper()
	return startTermRedirected(t, w, h, "", bin, args...)
}

// startOnPanes starts the program on its synthetic source with extra arguments, input from
// redirect ("" for the terminal), and waits for the panes and their first sample.
func startOnPanes(t *testing.T, w, h int, redirect string, extra ...string) *tmuxTerm {
	t.Helper()
	bin, args := program(t)
	tm := startTermRedirected(t, w, h, redirect, bin, append(args, extra...)...)
	tm.waitFor("1 Tree", "sample ")
	return tm
}

func startTermRedirected(t *testing.T, w, h int, redirect, bin string, args ...string) *tmuxTerm {
	t.Helper()
	// The monitor opens on the overview (issue 12); the panes are one key away.
	return startTermFor(t, w, h, redirect, []string{"Overview", "CPU ", "Mem ", "providers "}, bin, args...)
}

// startTermFor starts the program as startTermRedirected does, waiting for first to be on its
// first screen before it goes to the panes.
func startTermFor(t *testing.T, w, h int, redirect string, first []string, bin string, args ...string) *tmuxTerm {
	t.Helper()
	dir := t.TempDir()
	tm := &tmuxTerm{t: t, name: fmt.Sprintf("dcimon-e2e-%d-%d", os.Getpid(), time.Now().UnixNano()), dir: dir, redirect: redirect}
	// The inner shell records the program's pid and becomes the program; the outer one prints
	// its exit status and keeps the window open so the test can look at the restored terminal.
	script := filepath.Join(dir, "run.sh")
	// stty -g records the line discipline before and after, so the test can see raw mode undone.
	stty := func(name string) string { return "stty -g > " + shq(filepath.Join(dir, name)) + " 2>&1" }
	body := fmt.Sprintf("%s\nsh -c %s\necho \"EXIT=$?\"\n%s\nsleep 60\n", stty("stty.before"),
		shq("echo $$ > "+shq(filepath.Join(dir, "pid"))+"; exec "+shellWords(bin, args...)+" "+tm.redirect), stty("stty.after"))
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := tm.tmux("new-session", "-d", "-s", tm.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "sh "+shq(script))
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "TZ=UTC")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	t.Cleanup(func() { _ = tm.tmux("kill-server").Run() })
	tm.waitFor(first...)
	tm.keys("1")
	return tm
}

// tmux is a tmux command on the terminal's own server (-L, a socket named for the test): tests
// that shared the default server raced with its exit when one killed its last session just as
// the next started one ("server exited unexpectedly").
func (tm *tmuxTerm) tmux(args ...string) *exec.Cmd {
	return exec.Command("tmux", append([]string{"-L", tm.name}, args...)...)
}

// shq quotes s for a POSIX shell.
// shellWords is bin and its arguments as a shell command line, each word quoted.
func shellWords(bin string, args ...string) string {
	quoted := make([]string, 0, len(args)+1)
	for _, a := range append([]string{bin}, args...) {
		quoted = append(quoted, shq(a))
	}
	return strings.Join(quoted, " ")
}

func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func (tm *tmuxTerm) capture() string {
	out, err := tm.tmux("capture-pane", "-p", "-t", tm.name).Output()
	if err != nil {
		tm.t.Fatalf("capture-pane: %v", err)
	}
	return string(out)
}

func (tm *tmuxTerm) display(format string) string {
	out, _ := tm.tmux("display-message", "-p", "-t", tm.name, format).Output()
	return strings.TrimSpace(string(out))
}

// waitFor waits until the screen contains every text, or fails showing the screen.
func (tm *tmuxTerm) waitFor(texts ...string) string {
	tm.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := tm.capture()
		ok := true
		for _, x := range texts {
			ok = ok && strings.Contains(s, x)
		}
		if ok {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("timed out waiting for %q; the screen:\n%s", texts, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (tm *tmuxTerm) keys(k ...string) {
	tm.t.Helper()
	if out, err := tm.tmux(append([]string{"send-keys", "-t", tm.name}, k...)...).CombinedOutput(); err != nil {
		tm.t.Fatalf("send-keys: %v\n%s", err, out)
	}
}

// press sends the key k and waits for texts, its answer, to be on the screen, which it returns.
func (tm *tmuxTerm) press(k string, texts ...string) string {
	tm.t.Helper()
	tm.keys(k)
	return tm.waitFor(texts...)
}

func (tm *tmuxTerm) literal(s string) {
	tm.t.Helper()
	if out, err := tm.tmux("send-keys", "-t", tm.name, "-l", s).CombinedOutput(); err != nil {
		tm.t.Fatalf("send-keys: %v\n%s", err, out)
	}
}

// restored checks the program left the alternate screen, showed the cursor and exited with
// status: 0 after a quit, 128+n after signal n (issue 21).
func (tm *tmuxTerm) restored(status int) {
	tm.t.Helper()
	tm.waitFor(fmt.Sprintf("EXIT=%d", status))
	if alt := tm.display("#{alternate_on}"); alt != "0" {
		tm.t.Errorf("the alternate screen is still on (%q)", alt)
	}
	if cur := tm.display("#{cursor_flag}"); cur != "1" {
		tm.t.Errorf("the cursor is hidden (%q)", cur)
	}
	if s := tm.capture(); strings.Contains(s, "1 Tree") {
		tm.t.Errorf("the monitor's screen is still shown:\n%s", s)
	}
	for flag, want := range map[string]string{"mouse_button_flag": "0", "mouse_sgr_flag": "0", "mouse_any_flag": "0", "wrap_flag": "1"} {
		if got := tm.display("#{" + flag + "}"); got != want {
			tm.t.Errorf("%s is %q after exit, want %q", flag, got, want)
		}
	}
	var before, after []byte
	deadline := time.Now().Add(5 * time.Second)
	for len(after) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		before, _ = os.ReadFile(filepath.Join(tm.dir, "stty.before"))
		after, _ = os.ReadFile(filepath.Join(tm.dir, "stty.after"))
	}
	if len(before) == 0 || !bytes.Equal(before, after) {
		tm.t.Errorf("the line discipline is not restored: stty -g before %q, after %q", before, after)
	}
}

func TestSmokeFullLayout(t *testing.T) {
	bin, args := program(t)
	tm := startTerm(t, 120, 40, bin, args...)
	tm.waitFor("1 Tree", "2 Values", "3 Hotsets", "4 Inspector", "5 Events", "▾ CPU", "sample ")
	tm.press("Tab", "sort by next column") // the values pane's help: it has the focus
	tm.keys("/")
	tm.literal("sdb")
	s := tm.waitFor("/ sdb ", " match", "sdb ") // "1 match", or "2 matches" with a partition sdb1
	if strings.Contains(s, "▸ sda") || strings.Contains(s, "▾ sda") {
		t.Errorf("the filter leaves sda in the tree:\n%s", s)
	}
	tm.press("Enter", "Top › Disk › sdb")
	tm.keys("q")
	tm.restored(0)
}

func TestSmokeCompactAndResize(t *testing.T) {
	bin, args := program(t)
	tm := startTerm(t, 80, 24, bin, args...)
	tm.waitFor("1 Tree", "2 Values", "5 Events", "▾ CPU")
	tm.press("5", "╭─ 5 Events", "added")
	if out, err := tm.tmux("resize-window", "-t", tm.name, "-x", "30", "-y", "8").CombinedOutput(); err != nil {
		t.Fatalf("resize: %v\n%s", err, out)
	}
	tm.waitFor("terminal too small")
	if out, err := tm.tmux("resize-window", "-t", tm.name, "-x", "200", "-y", "60").CombinedOutput(); err != nil {
		t.Fatalf("resize: %v\n%s", err, out)
	}
	tm.waitFor("╭─ 1 Tree", "╭─ 3 Hotsets")
	tm.keys("C-c")
	tm.restored(0)
}

// TestSmokeKeyAnswered: the monitor answers a key, and q then gives the terminal back as it
// found it: with standard input from /dev/null (it reads its keys from /dev/tty instead), and
// run by something that cannot continue a stopped job (here tmux itself), where Ctrl-Z says so
// instead of stopping dcimon for good.
func TestSmokeKeyAnswered(t *testing.T) {
	for _, c := range []struct{ name, redirect, key, answer string }{
		{"input not a terminal", "< /dev/null", "2", "sort by next column"},
		{"suspend without job control", "", "C-z", "no shell job control"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tm := startOnPanes(t, 100, 30, c.redirect)
			tm.press(c.key, c.answer)
			tm.keys("q")
			tm.restored(0)
		})
	}
}

// TestSmokeFirstFrameLogged checks the debug log records when the first frame with data reached
// the terminal (scripts/overhead.sh reports it; the figure itself is not tested).
func TestSmokeFirstFrameLogged(t *testing.T) {
	logf := filepath.Join(t.TempDir(), "debug.log")
	tm := startOnPanes(t, 100, 30, "", "--debug", logf)
	tm.keys("q")
	tm.restored(0)
	b, err := os.ReadFile(logf)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`first frame with data on the terminal [0-9.]+ ms after start`).Match(b) {
		t.Errorf("the debug log has no first-frame line:\n%s", b)
	}
}

func TestSmokeSIGTERM(t *testing.T) {
	tm := startOnPanes(t, 100, 30, "")
	pid, err := os.ReadFile(filepath.Join(tm.dir, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("kill", "-TERM", strings.TrimSpace(string(pid))).CombinedOutput(); err != nil {
		t.Fatalf("kill: %v\n%s", err, out)
	}
	tm.restored(128 + 15) // as a program ended by SIGTERM
}

// TestSmokeSuspend: in an interactive shell, Ctrl-Z gives the terminal back and stops dcimon as
// a job; fg takes the terminal back and redraws, keys work, and q still exits cleanly. Also when
// dcimon is not the job's first process (sh -c 'dcimon; ...', as sudo would run it).
func TestSmokeSuspend(t *testing.T) {
	bin, args := program(t)
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	direct := shellWords(bin, args...)
	for name, line := range map[string]string{"direct": direct, "under sh": "sh -c " + shq(direct+"; exit $?")} {
		t.Run(name, func(t *testing.T) { suspendIn(t, line) })
	}
}

func suspendIn(t *testing.T, line string) {
	tm := startShell(t)
	tm.literal(line) // alone: a stopped job of a list lets the list go on
	tm.press("Enter", "Overview", "sample ")
	tm.press("1", "1 Tree", "sample ")
	tm.press("C-z", "Stopped")
	if alt := tm.display("#{alternate_on}"); alt != "0" {
		t.Errorf("stopped with the alternate screen on (%q)", alt)
	}
	if cur := tm.display("#{cursor_flag}"); cur != "1" {
		t.Errorf("stopped with the cursor hidden (%q)", cur)
	}
	tm.literal("fg")
	tm.press("Enter", "1 Tree", "sample ")
	if alt := tm.display("#{alternate_on}"); alt != "1" {
		t.Errorf("resumed without the alternate screen (%q)", alt)
	}
	tm.press("2", "sort by next column") // keys work again
	tm.quitToShell()
}

// issue 16: the real program with a configuration file: q rebound to x (q no longer quits), a
// hotset made in the monitor is saved to the file, comments kept, and `dcimon hot --name`
// reads it back.
func TestSmokeConfig(t *testing.T) {
	bin, args := program(t) // for `dcimon hot` at the end
	path := filepath.Join(t.TempDir(), "config.toml")
	text := "save_hotsets = \"always\"\n# tmux eats q here\n[keys]\nquit = [\"x\"]  # not q\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	tm := startOnPanes(t, 120, 40, "", "--config", path)
	tm.keys(":")
	tm.literal("Disk/sdb/busy")
	tm.press("Enter", "Top › Disk › sdb › busy")
	tm.keys("3", "n")
	tm.waitFor("New hotset: rank Disk peers by busy")
	tm.press("Enter", "hotsets saved to "+path)
	tm.keys("q")
	time.Sleep(300 * time.Millisecond)
	if s := tm.capture(); strings.Contains(s, "EXIT=") || !strings.Contains(s, "3 Hotsets") {
		t.Fatalf("q quit although quit is bound to x:\n%s", s)
	}
	tm.keys("x")
	tm.restored(0)

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# tmux eats q here\n", "quit = [\"x\"]  # not q\n", "name = \"Disk-busy\"\n", "name = \"busiest-disks\"\n"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the saved file lacks %q:\n%s", want, data)
		}
	}
	out, err := exec.Command(bin, append([]string{"hot", "--name", "Disk-busy", "--config", path}, args...)...).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Disk busy") || !strings.Contains(string(out), "max 5") {
		t.Fatalf("hot --name Disk-busy: %v\n%s", err, out)
	}
}

// SPMI-DDS-5 in the real program: a user's file read under DDS, sent away with X X from the
// values pane, and gone from the tree.
func TestSmokeUsersSupplierGoAway(t *testing.T) {
	bin, args := program(t)
	dir := t.TempDir()
	text := "# DCIMON vendor=acme\n# HELP queue_depth Messages waiting.\n# TYPE queue_depth gauge\nqueue_depth{queue=\"mail\"} 12\n"
	if err := os.WriteFile(filepath.Join(dir, "acme.prom"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	tm := startTerm(t, 120, 40, bin, append(args, "--suppliers", dir, "--liveness", "0")...)
	tm.waitFor("1 Tree", "▾ CPU")
	tm.keys(":")
	tm.literal("DDS/acme/queue_depth")
	tm.press("Enter", "Top › DDS › acme › queue_depth", "mail")
	tm.keys("2", "X")
	tm.waitFor("X again sends dds:acme.prom away")
	tm.press("X", "dds:acme.prom sent away")
	tm.keys(":")
	tm.literal("DDS/acme")
	tm.press("Enter", "no context or statistic DDS/acme — SiInvalidCx (180)") // people's words first (issue 42 item 3)
	tm.keys("q")
	tm.restored(0)
}

// Issue 14 in the real program: the monitor on a host read through a real pmproxy and pmcd,
// its processors and memory on the overview, the host named by its hostspec; the disk table
// with iostat's columns from PCP's disk.dev metrics.
func TestSmokeRemoteHost(t *testing.T) {
	bin, _ := program(t)
	p := pcptest.Start(t)
	tm := startTerm(t, 120, 40, bin, "--source", p.URL(), "--hosts", p.Hostspec())
	tm.waitFor("CPU", "Mem", p.Hostspec(), "providers")
	tm.keys(":")
	tm.literal("Disk")
	tm.press("Enter", "Top › Disk", "%util")
	// The host's whole PCP name space: a go-to deeper than what has been read follows the
	// readings down, and the load averages are there with their instances.
	tm.downToLoad()
}

// Issue 15: the real program records this host, then replays the recording with its time
// cursor: the header says replay and of which host, a key steps a sample, a time typed after :
// goes there, play runs to the end and says so, and the recorded PCP name space is there.
func TestSmokeReplay(t *testing.T) {
	bin, _ := program(t)
	base := filepath.Join(t.TempDir(), "rec")
	if out, err := exec.Command(bin, "record", base, "-i", "1s", "--duration", "3s").CombinedOutput(); err != nil {
		t.Fatalf("record: %v\n%s", err, out)
	}
	a, err := pcparchive.Open(base)
	if err != nil {
		t.Fatal(err)
	}
	tm := startTerm(t, 120, 40, bin, "--archive", base)
	tm.waitFor("REPLAY", "replay of "+a.Label.Host, "paused")
	cursor := func() string {
		s := tm.capture()
		i := strings.Index(s, "@ 20")
		if i < 0 {
			t.Fatalf("no time cursor:\n%s", s)
		}
		return s[i+2 : i+21]
	}
	first := cursor()
	tm.keys(".")
	deadline := time.Now().Add(10 * time.Second)
	for cursor() == first && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if next := cursor(); next <= first {
		t.Errorf(". did not step forward: %s, then %s", first, next)
	}
	// A time typed: the cursor goes to the last sample at or before it.
	c, err := a.Cursor(time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var times []time.Time
	for {
		r, err := c.Next()
		if err != nil {
			break
		}
		times = append(times, r.Time)
	}
	c.Close()
	if len(times) < 3 {
		t.Fatalf("%d records", len(times))
	}
	typed := times[1].Truncate(time.Second).Add(time.Second)
	want := times[0]
	for _, x := range times {
		if !x.After(typed) {
			want = x
		}
	}
	tm.keys(":")
	tm.literal("@" + typed.UTC().Format("15:04:05"))
	tm.press("Enter", "@ "+want.UTC().Format("2006-01-02 15:04:05"))
	tm.press("p", "end of the archive")
	tm.downToLoad()
}

// downToLoad goes down a host's PCP name space to its load averages with :, which follows the
// readings down a level at a time, sees their instances, and quits.
func (tm *tmuxTerm) downToLoad() {
	tm.t.Helper()
	tm.keys(":")
	tm.literal("PCP/kernel/all/load")
	tm.press("Enter", "Top › PCP › kernel › all › load", "1 minute", "15 minute")
	tm.keys("q")
	tm.restored(0)
}

// issue 32 item 7: htop's keys in the process table of the real program, in a real terminal:
// P from the tree opens the processes; there P, M and T sort by %CPU, %MEM and TIME+, t and F5
// toggle the tree (not the theme), F6 and < move the sort column, / and F3 search, u keeps one
// user's processes, H says threads are not listed.
func TestSmokeHtopKeys(t *testing.T) {
	bin, _ := program(t)
	tm := startTerm(t, 160, 45, bin, "--source", "synthetic:disks=2,nics=1,cpus=2,procs=30,seed=3")
	tm.press("P", "Top › Proc", "%CPU▼", "COMMAND")
	tm.press("M", "%MEM▼")
	tm.press("T", "TIME+▼")
	tm.press("P", "%CPU▼")
	s := tm.press("t", "COMMAND (tree)", "processes as a tree by parent")
	if strings.Contains(s, "theme ") {
		t.Errorf("t changed the theme in the process table:\n%s", s)
	}
	tm.press("F5", "processes as a list")
	tm.press("F6", "sorted by %MEM", "%MEM▼")
	tm.press("<", "sorted by %CPU", "%CPU▼")
	tm.keys("F3")
	tm.literal("nginx")
	tm.press("Enter", "table filter “nginx”")
	// Escape alone, then the next key: sent together they read as alt+/.
	tm.press("Escape", "table filter cleared")
	tm.keys("/")
	tm.literal("python3")
	tm.press("Enter", "table filter “python3”")
	tm.press("Escape", "table filter cleared")
	tm.press("u", "u user", "app", "root")
	tm.literal("root")
	s = tm.press("Enter", "user “root”")
	if strings.Contains(s, " app ") {
		t.Errorf("u root still lists app's processes:\n%s", s)
	}
	tm.press("Escape", "every user's processes again")
	tm.press("H", "not their threads")
	tm.keys("q")
	tm.restored(0)
}
