package cli

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dcimon/headless"
	"dcimon/internal/golden"
)

// commandTree is the command tree parseArgs builds, for tests that walk every command and flag.
func commandTree(t *testing.T) *cobra.Command {
	t.Helper()
	cfg := &config{}
	return newCommands(cfg, completer{ctx: context.Background(), cfg: cfg, env: fakeEnv()})
}

// Issue 32 item 13: help is GNU-style, one line per flag with its short form beside its long
// one, grouped, with examples; the goldens lock its layout (go test -update rewrites them).
func TestHelpGolden(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"root", []string{"--help"}},
		{"get", []string{"get", "--help"}},
		{"hot", []string{"hot", "-h"}},
		{"record", []string{"help", "record"}},
		{"completion", []string{"completion", "--help"}},
	} {
		out, errs, code := runFake(t, tt.args...)
		if code != 0 || errs != "" {
			t.Fatalf("%v: exit %d, stderr %q", tt.args, code, errs)
		}
		golden.Check(t, tt.name, out)
	}
}

// Issue 32 item 13: every command's help lists each of its flags once, `-i, --interval` on one
// line rather than -i and -interval apart, no long flag with a single dash, and examples.
func TestHelpListsEachFlagOnce(t *testing.T) {
	singleDashLong := regexp.MustCompile(`(^|\s)-[a-z][a-z-]+\b`)
	root := commandTree(t)
	for _, c := range append([]*cobra.Command{root}, root.Commands()...) {
		if c.Name() == "help" {
			continue
		}
		args := []string{"--help"}
		if c.HasParent() {
			args = []string{c.Name(), "--help"}
		}
		out, _, code := runFake(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			// A flag's line starts its synopsis: "-i, --interval D" or "--json".
			line := regexp.MustCompile(`(?m)^  (-[a-z], )?    --` + regexp.QuoteMeta(f.Name) + `\b|^  -[a-z], --` + regexp.QuoteMeta(f.Name) + `\b`)
			if n := len(line.FindAllString(out, -1)); n != 1 {
				t.Errorf("%v: --%s listed %d times:\n%s", args, f.Name, n, out)
			}
			if f.Shorthand != "" && !strings.Contains(out, "-"+f.Shorthand+", --"+f.Name) {
				t.Errorf("%v: -%s is not beside --%s", args, f.Shorthand, f.Name)
			}
		})
		for _, l := range strings.Split(out, "\n") {
			if m := singleDashLong.FindString(l); m != "" && !strings.Contains(l, "pmlogger -v") {
				t.Errorf("%v: single-dash long flag %q in %q", args, m, l)
			}
		}
		if !regexp.MustCompile(`\nExamples:\n  .*dcimon `).MatchString(out) {
			t.Errorf("%v: no examples", args)
		}
	}
}

// Issue 32 item 13: a long flag written the old way, with one dash, is a usage error that names
// the right spelling, not a short flag with a strange value; a flag's bad value is "invalid
// value" as it was; flags still follow positional arguments.
func TestFlagSpelling(t *testing.T) {
	syn := "--source=synthetic:cpus=2,seed=7"
	for _, tt := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"get", "CPU/busy", "-interval", "2s", syn}, 2, "-interval: a long flag takes two dashes: --interval"},
		{[]string{"-version"}, 2, "--version"},
		{[]string{"list", "CPU", "-json", syn}, 2, "--json"},
		{[]string{"get", "CPU/busy", "-i", "fast", syn}, 2, `invalid value "fast" for -i, --interval`},
		{[]string{"get", "CPU/busy", "--count", "x", syn}, 2, `invalid value "x" for -n, --count`},
		{[]string{"lst"}, 2, "did you mean list?"},
		{[]string{"get", "--from", "03:00", syn}, 2, ""},
		{[]string{"list", "--from", "03:00", syn}, 2, "unknown flag: --from"},
		{[]string{"man", "extra"}, 2, "man takes no argument"},
		{[]string{"completion"}, 2, "bash, zsh or fish"},
		{[]string{"completion", "tcsh"}, 2, `completion "tcsh"`},
		{[]string{"get", "CPU/busy", "-n2", "-i=500ms", syn}, 0, ""},
	} {
		_, errs, code := runFake(t, tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.msg) {
			t.Errorf("%v: exit %d, %q; want %d and %q", tt.args, code, errs, tt.code, tt.msg)
		}
	}
}

// Issue 32 item 13: the completion scripts parse in their shells (bash -n, zsh -n, fish -n),
// and call dcimon back for what they complete.
func TestCompletionScriptsParse(t *testing.T) {
	for _, sh := range []struct{ shell, check string }{{"bash", "-n"}, {"zsh", "-n"}, {"fish", "--no-execute"}} {
		t.Run(sh.shell, func(t *testing.T) {
			out, errs, code := runFake(t, "completion", sh.shell)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if !strings.Contains(out, "__complete") {
				t.Fatalf("%s script never asks dcimon __complete:\n%.400s", sh.shell, out)
			}
			path, err := exec.LookPath(sh.shell)
			if err != nil {
				if os.Getenv("CI") != "" {
					t.Fatalf("%s is not installed: .ci/run installs it", sh.shell)
				}
				t.Skipf("%s is not installed", sh.shell)
			}
			f := filepath.Join(t.TempDir(), "dcimon."+sh.shell)
			if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			if b, err := exec.Command(path, sh.check, f).CombinedOutput(); err != nil {
				t.Fatalf("%s %s: %v\n%s", sh.shell, sh.check, err, b)
			}
		})
	}
}

// complete asks dcimon for completions as a shell does (cobra's __complete) and returns them,
// without their descriptions, and the directive.
func complete(t *testing.T, args ...string) ([]string, string) {
	t.Helper()
	out, errs, code := runFake(t, append([]string{"__complete"}, args...)...)
	if code != 0 {
		t.Fatalf("__complete %v: exit %d, %s", args, code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var names []string
	for _, l := range lines[:len(lines)-1] {
		name, _, _ := strings.Cut(l, "\t")
		names = append(names, name)
	}
	return names, lines[len(lines)-1]
}

// Issue 32 item 13: a path argument completes its children from the source the other flags
// name, here the fixture tree: a level at a time, contexts ending in "/" with no space after
// them (directive 6: no space, no file names).
func TestCompletePathsFromTheSource(t *testing.T) {
	fix := []string{"--procfs", fixProc, "--sysfs", fixSys}
	for _, tt := range []struct {
		args      []string
		want, not []string
		directive string
	}{
		{append(append([]string{"get"}, fix...), "CPU/"), []string{"CPU/cpu0/", "CPU/cpu1/", "CPU/idle", "CPU/busy"}, []string{"CPU/", "Disk/"}, ":6"},
		{append(append([]string{"list"}, fix...), "CPU/cpu0/i"), []string{"CPU/cpu0/idle", "CPU/cpu0/irq"}, []string{"CPU/cpu1/idle"}, ":4"},
		{append(append([]string{"describe"}, fix...), ""), []string{"CPU/", "Disk/", "NetIf/"}, []string{"CPU/idle"}, ":6"},
		{append(append([]string{"get"}, fix...), "Disk/"), []string{"Disk/vda/"}, nil, ":6"},
		// hot: GRANDPARENT is a context, STAT a statistic of its children.
		{append(append([]string{"hot"}, fix...), ""), []string{"CPU/", "Disk/"}, nil, ":6"},
		{append(append([]string{"hot"}, fix...), "Disk", ""), []string{"busy", "reads"}, []string{"Disk/sda/"}, ":4"},
		{append(append([]string{"hot"}, fix...), "Disk", "busy", ""), nil, []string{"busy"}, ":4"},
		// describe takes one PATH: nothing after it.
		{append(append([]string{"describe"}, fix...), "CPU", ""), nil, []string{"CPU/"}, ":4"},
	} {
		got, dir := complete(t, tt.args...)
		for _, w := range tt.want {
			if !contains(got, w) {
				t.Errorf("%v: no %q in %v", tt.args, w, got)
			}
		}
		for _, n := range tt.not {
			if contains(got, n) {
				t.Errorf("%v: %q offered: %v", tt.args, n, got)
			}
		}
		if dir != tt.directive {
			t.Errorf("%v: directive %s, want %s", tt.args, dir, tt.directive)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Issue 32 item 13: the flags' values complete too: --source's kinds, --archive's archives by
// their base name (never BASE.meta, which --archive does not take), the hotset fields' words.
func TestCompleteFlagValues(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"20261125.meta", "20261125.index", "20261125.0", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "db1"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, d := complete(t, "get", "--archive", dir+"/")
	if want := []string{dir + "/20261125", dir + "/db1/"}; strings.Join(got, " ") != strings.Join(want, " ") || d != ":6" {
		t.Errorf("--archive: %v %s, want %v :6", got, d, want)
	}
	if got, _ := complete(t, "--source", ""); !contains(got, "host") || !contains(got, "pcp://") || !contains(got, "synthetic:") {
		t.Errorf("--source: %v", got)
	}
	if got, _ := complete(t, "hot", "--feed", ""); strings.Join(got, " ") != "none threshold always" {
		t.Errorf("--feed: %v", got)
	}
	if got, _ := complete(t, "hot", "--name", ""); !contains(got, "busiest-disks") {
		t.Errorf("--name: %v (the default hotsets)", got)
	}
	if got, d := complete(t, "get", "--procfs", ""); len(got) != 0 || d != ":16" {
		t.Errorf("--procfs: %v %s, want directories (:16)", got, d)
	}
	if got, _ := complete(t, ""); !contains(got, "get") || !contains(got, "completion") || contains(got, "__complete") {
		t.Errorf("commands: %v", got)
	}
}

// Issue 32 item 13: completing against a source that never answers gives up within the
// deadline rather than holding the shell.
func TestCompleteNeverHangs(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() { // accept and never answer
		var held []net.Conn
		for {
			c, err := l.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	start := time.Now()
	got, dir := complete(t, "get", "--source", "pcp://"+l.Addr().String(), "CPU/")
	if took := time.Since(start); took > completeTimeout+2*time.Second {
		t.Errorf("completion took %v, deadline %v", took, completeTimeout)
	}
	// A fleet's host is declared from the Linux PMDA's mapping before it answers (issue 40:
	// dials off the collection path), so the names completed, if any came by the deadline, are
	// the declared statistics under CPU/; never anything else, and never a wait past the deadline.
	if dir != ":4" {
		t.Errorf("completion directive %s from a source that does not answer, want :4", dir)
	}
	for _, c := range got {
		if !strings.HasPrefix(c, "CPU/") {
			t.Errorf("completion %q of CPU/ from a source that does not answer", c)
		}
	}
}

// Issue 32 item 13: the completion bash loads calls the real binary back: typing
// `dcimon get CPU/` offers CPU's children. bash runs the completion function as it does on Tab.
func TestBashCompletesThroughTheBinary(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	// dcimon's script, as cobra's every bash script, uses the bash-completion package's
	// functions, as the shell of a user with completion set up has them.
	const bashCompletion = "/usr/share/bash-completion/bash_completion"
	if _, err := os.Stat(bashCompletion); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("bash-completion is not installed: .ci/run installs it")
		}
		t.Skip("bash-completion is not installed")
	}
	bin := buildDcimon(t)
	script := `source ` + bashCompletion + `
source <("$DCIMON" completion bash)
COMP_WORDS=(dcimon get --procfs "$PROCFS" --sysfs "$SYSFS" CPU/cpu0/i)
COMP_CWORD=6
COMP_LINE="${COMP_WORDS[*]}"
COMP_POINT=${#COMP_LINE}
__start_dcimon
printf '%s\n' "${COMPREPLY[@]}"`
	cmd := exec.Command("bash", "--norc", "--noprofile", "-c", script)
	cmd.Env = append(os.Environ(), "DCIMON="+bin, "PROCFS="+fixProc, "SYSFS="+fixSys, "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"))
	offersCPU0I(t, "bash", cmd)
}

// offersCPU0I runs shell's cmd, which completes CPU/cpu0/i against the fixture tree, and fails
// t unless it offers CPU/cpu0/idle and CPU/cpu0/irq and not CPU/cpu0/user.
func offersCPU0I(t *testing.T, shell string, cmd *exec.Cmd) {
	t.Helper()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := strings.Fields(string(out))
	if !contains(got, "CPU/cpu0/idle") || !contains(got, "CPU/cpu0/irq") || contains(got, "CPU/cpu0/user") {
		t.Errorf("%s offers %v for CPU/cpu0/i", shell, got)
	}
}

// Issue 32 item 13: dcimon(1) is made from the command tree: man reads it without a warning,
// and it names every command and every flag.
func TestManPage(t *testing.T) {
	out, errs, code := runFake(t, "man")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	root := commandTree(t)
	for _, c := range root.Commands() {
		if c.Name() != "help" && !strings.Contains(out, ".B dcimon "+roff(c.Name())) {
			t.Errorf("no synopsis of %s", c.Name())
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name != "help" && !strings.Contains(out, `\fB\-\-`+roff(f.Name)+`\fR`) {
				t.Errorf("%s: --%s is not in the page", c.Name(), f.Name)
			}
		})
	}
	man, err := exec.LookPath("man")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("man is not installed: .ci/run installs man-db")
		}
		t.Skip("man is not installed")
	}
	f := filepath.Join(t.TempDir(), "dcimon.1")
	if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(man, "--warnings", "-E", "UTF-8", "-l", f)
	cmd.Env = append(os.Environ(), "MANWIDTH=80", "MANPAGER=cat", "PAGER=cat")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("man --warnings: %v\n%s", err, stderr.String())
	}
	// Issue 42 item 3: KEYS (from the monitor's own bindings), FILES, ENVIRONMENT, EXIT STATUS.
	for _, want := range []string{"SYNOPSIS", "dcimon get PATH...", "-i, --interval D", "EXIT STATUS", "DCIMON_SHOW_LOOP",
		"\nKEYS\n", "\nFILES\n", "\nENVIRONMENT\n", "(proc.sort.cpu)", "config.toml", "3 UNKNOWN"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the formatted page lacks %q", want)
		}
	}
}

// Issue 32 item 13: the version line is the build information's: the module version, then the
// revision, its time and the modified flag when the go command stamped them, never "dev" alone.
func TestVersionText(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	info := func(v string, s []debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "dcimon", Version: v}, Settings: s}
	}
	for _, tt := range []struct {
		name     string
		info     *debug.BuildInfo
		override string
		want     string
	}{
		{"go install @v1.2.3", info("v1.2.3", nil), "", "dcimon v1.2.3; go1.26.8 linux/amd64"},
		{"a checkout", info("v0.0.0-20261125031200-37020e6bceeb+dirty", vcs("vcs", "git", "vcs.revision", "37020e6bceeb7282fed463e627ba8810c419ea31",
			"vcs.time", "2026-11-25T03:12:00Z", "vcs.modified", "true")), "",
			"dcimon v0.0.0-20261125031200-37020e6bceeb+dirty, revision 37020e6bceeb7282fed463e627ba8810c419ea31, committed 2026-11-25T03:12:00Z, modified; go1.26.8 linux/amd64"},
		{"clean checkout", info("(devel)", vcs("vcs.revision", "abc", "vcs.modified", "false")), "", "dcimon (devel), revision abc; go1.26.8 linux/amd64"},
		{"no stamping", info("(devel)", nil), "", "dcimon (devel), no VCS information (built outside a checkout or with -buildvcs=false); go1.26.8 linux/amd64"},
		{"a packager's -X main.version", info("(devel)", vcs("vcs.revision", "abc")), "1.2.3-1", "dcimon 1.2.3-1, revision abc; go1.26.8 linux/amd64"},
	} {
		if got := versionText(tt.info, tt.override, "linux/amd64"); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
	// The binary says what it was built from: --version and version agree, and name the toolchain.
	for _, args := range [][]string{{"--version"}, {"-v"}, {"version"}} {
		out, _, code := runFake(t, args...)
		if code != 0 || out != buildVersion()+"\n" || !strings.Contains(out, "; go1.") || strings.TrimSpace(out) == "dcimon dev" {
			t.Errorf("%v: exit %d, %q", args, code, out)
		}
	}
}

// Issue 32 item 13: a binary built in a git checkout reports the checkout's revision. The go
// command does not stamp a git worktree (its .git is a file), so there the test is skipped.
func TestVersionFromCheckout(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "dcimon")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, "..")
	build.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat("../.git"); err == nil && !st.IsDir() && !strings.Contains(string(out), "revision") {
		t.Skipf("a git worktree: go build stamps no VCS information here (%s)", strings.TrimSpace(string(out)))
	}
	if want := "revision " + strings.TrimSpace(string(head)); !strings.Contains(string(out), want) {
		t.Errorf("--version %q lacks %q", out, want)
	}
	dirty, _ := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output()
	if got := strings.Contains(string(out), ", modified"); got != (len(dirty) > 0) {
		t.Errorf("--version %q: modified %v, git status says %q", out, got, dirty)
	}
}

// A usage error from the command line is a headless.UsageError, exit status 2, whatever part
// of parsing found it (pflag, cobra or validate).
func TestParseErrorsAreUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"--nope"}, {"get", "-n"}, {"frob"}, {"-json"}, {"--interval", "1s", "extra"}} {
		_, err := parseArgs(context.Background(), args, fakeEnv(), &bytes.Buffer{}, &bytes.Buffer{})
		if _, ok := err.(*headless.UsageError); !ok {
			t.Errorf("%v: %T %v, want a usage error", args, err, err)
		}
	}
}

// Issue 32 item 13: fish completes through the binary too: `complete -C` asks what fish would
// offer after the line typed.
func TestFishCompletesThroughTheBinary(t *testing.T) {
	fish, err := exec.LookPath("fish")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("fish is not installed: .ci/run installs it")
		}
		t.Skip("fish is not installed")
	}
	bin := buildDcimon(t)
	cmd := exec.Command(fish, "--no-config", "-c", `dcimon completion fish | source
complete -C "dcimon get --procfs $PROCFS --sysfs $SYSFS CPU/cpu0/i"`)
	cmd.Env = append(os.Environ(), "PROCFS="+fixProc, "SYSFS="+fixSys, "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"))
	offersCPU0I(t, "fish", cmd)
}
