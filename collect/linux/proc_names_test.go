package linux

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"dcimon/collect"
	"dcimon/collect/schema"
	"dcimon/views"
)

// nameClasses are the kinds of bytes a process may put in its name (prctl PR_SET_NAME, or the
// name of the file it runs) and in its command line: none may hide it (issue 41 item 3).
var nameClasses = []struct{ class, comm, cmdline string }{
	{"newline", "a\nb", "a\nb\x00--x\n\x00"},
	{"newline and a fake stat tail", "x) S 1 2 3\n9 (y", "x) S 1\n\x00"},
	{"parentheses", "a) (b", "(a)\x00)b(\x00"},
	{"spaces", " a  b ", " a \x00 b \x00"},
	{"escapes", "\x1b[2J\x1b]52;c;eA==\x07", "\x1b]52;c;eA==\x07\x00\x1b[2J\x00"},
	{"invalid UTF-8", "\xff\xfe\xc3", "\xff\x00\xc3\x28\x00"},
	{"empty", "", ""},
}

// Issue 41 item 3: /proc/PID/stat is parsed as procps does, up to the last ')' of the whole
// file; each class of byte in the name leaves the fields after it intact.
func TestParsePIDStatNameClasses(t *testing.T) {
	t.Parallel()
	for _, c := range nameClasses {
		line := "42 (" + c.comm + ") S 7 42 42 0 -1 4194304 1500 0 3 0 120 30 0 0 20 0 1 0 5000 10000000 900\n"
		var got pidStat
		if err := parsePIDStat("t", []byte(line), &got); err != nil {
			t.Errorf("%s: %v", c.class, err)
			continue
		}
		if string(got.comm) != c.comm || got.state != 'S' || got.ppid != 7 || got.utime != 120 || got.start != 5000 || got.rssPages != 900 {
			t.Errorf("%s: comm %q, state %c, ppid %d, utime %d, start %d, rss %d", c.class, got.comm, got.state, got.ppid, got.utime, got.start, got.rssPages)
		}
	}
}

// Issue 41 item 3: a process whose name or command line holds any class of byte is read like
// any other (no class error, its values valid), and what it chose is made safe when shown.
func TestProcNameClasses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h, _, _ := procHarness(t, dir)
	var procs []fakeProc
	for i, c := range nameClasses {
		procs = append(procs, fakeProc{pid: uint64(100 + i), comm: c.comm, start: 7, utime: 3, cmdline: c.cmdline})
	}
	writeProcTree(t, dir, procs)
	h.Step(collect.Request{Static: true, Variable: true})
	if len(h.Errs) > 0 {
		t.Fatalf("errors: %v", h.Errs)
	}
	if err := h.Reading("13.2").Err; err != nil {
		t.Fatalf("the class failed: %v", err)
	}
	for i, c := range nameClasses {
		pid := strconv.Itoa(100 + i)
		if v := h.Value("Proc/" + pid + "/utime"); v.N != 3*msPerTick {
			t.Errorf("%s: utime %+v", c.class, v)
		}
		if v := h.Value("Proc/" + pid + "/command"); v.S != c.comm {
			t.Errorf("%s: command %q, want %q", c.class, v.S, c.comm)
		}
		for _, stat := range []string{"command", "cmdline"} {
			shown := views.FormatValue(h.Datum("Proc/"+pid+"/"+stat), h.Value("Proc/"+pid+"/"+stat), views.Options{})
			if strings.ContainsAny(shown, "\x1b\x07\n") || !utf8.ValidString(shown) {
				t.Errorf("%s: %s shown raw: %q", c.class, stat, shown)
			}
		}
	}
}

// Issue 41 item 10: a long command line is cut on a character's first byte, never inside it.
func TestCmdlineCutOnCharacter(t *testing.T) {
	t.Parallel()
	for pad := range 4 {
		in := strings.Repeat("a", schema.MaxCmdline-pad) + strings.Repeat("é€𝄞", 10)
		got := cmdlineText([]byte(in))
		if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") || len(got) > schema.MaxCmdline+len("…") {
			t.Errorf("pad %d: %d bytes, valid %v, tail %q", pad, len(got), utf8.ValidString(got), got[len(got)-8:])
		}
	}
	// Bytes that are not UTF-8 are kept as they are (and escaped when shown), cut where the limit is.
	in := strings.Repeat("\x80", schema.MaxCmdline+10)
	if got := cmdlineText([]byte(in)); len(got) != schema.MaxCmdline+len("…") {
		t.Errorf("invalid bytes cut at %d", len(got))
	}
}

// Issue 41 item 3, on the real kernel: a process that runs a file named "x\ny) R 1 (z" (the
// kernel takes a program's name from its file) is found by PID with its name whole, and the
// Proc class reads without an error.
func TestProcNewlineNameLive(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	name := "x\ny) R 1 (z"
	link := filepath.Join(t.TempDir(), name)
	if err := os.Symlink(sleep, link); err != nil {
		t.Fatal(err)
	}
	c := exec.Command(link, "60")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	s := liveProcSampler(t)
	for range 20 { // the child may not have exec'd yet at the first reading
		snap, err := s.Sample(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		ref, err := s.Registry().Lookup(nil, "Proc/"+strconv.Itoa(c.Process.Pid)+"/command")
		if err != nil {
			continue
		}
		v, cv, _ := snap.Lookup(ref)
		if v.S == name[:min(len(name), 15)] { // the kernel keeps 15 bytes of a name
			if cv.Err != nil {
				t.Errorf("the class failed: %v", cv.Err)
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("process %d named %q never read", c.Process.Pid, name)
}
