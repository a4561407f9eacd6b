package dds

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"dcimon/collect"
	ns "dcimon/namespace"
	"dcimon/supply"
)

// mkdir makes a directory with exactly mode m (the umask does not apply).
func mkdir(t *testing.T, p string, m os.FileMode) string {
	t.Helper()
	if err := os.MkdirAll(p, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, m); err != nil {
		t.Fatal(err)
	}
	return p
}

// Issue 29 item 11 (StrictModes): a path is trusted only when every directory from / down, the
// directories a link leads through, and the file are owned by root or the user and writable by
// nobody else; a sticky directory above (as /tmp) is accepted, not as the last one.
func TestCheckTrusted(t *testing.T) {
	uid := trustOwner()
	base := mkdir(t, filepath.Join(t.TempDir(), "base"), 0o755)
	good := mkdir(t, filepath.Join(base, "good"), 0o755)
	prog := writeProgram(t, good, "prog", "")
	open := mkdir(t, filepath.Join(base, "open"), 0o777)
	grp := mkdir(t, filepath.Join(base, "grp"), 0o775)
	sticky := mkdir(t, filepath.Join(base, "sticky"), 0o777|os.ModeSticky)
	underSticky := mkdir(t, filepath.Join(sticky, "mine"), 0o755)
	inOpen := writeProgram(t, open, "prog", "")
	writable := writeProgram(t, good, "writable", "")
	if err := os.Chmod(writable, 0o757); err != nil {
		t.Fatal(err)
	}
	linkOut := filepath.Join(good, "link-out") // a link in a good directory to a program in an open one
	linkIn := filepath.Join(good, "link-in")   // a relative link to a good program
	loop := filepath.Join(good, "loop")        // a link to itself
	for link, target := range map[string]string{linkOut: inOpen, linkIn: "prog", loop: "loop"} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		path string
		want string // "" for trusted
	}{
		{good, ""},
		{prog, ""},
		{linkIn, ""},
		{underSticky, ""},
		{open, "open is writable by others (mode 0777)"},
		{grp, "grp is writable by its group (mode 0775)"},
		{sticky, "sticky is writable by others (mode 1777)"},
		{inOpen, "open is writable by others"},
		{linkOut, "open is writable by others"},
		{writable, "writable is writable by others (mode 0757)"},
		{loop, "more than 40 symbolic links"},
	} {
		err := checkTrusted(c.path, uid)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want trusted", c.path, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.path, err, c.want)
		}
	}
	if os.Geteuid() == 0 {
		nobody := writeProgram(t, good, "nobodys", "")
		if err := os.Chown(nobody, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if err := checkTrusted(nobody, 0); err == nil || !errors.Is(err, ErrUntrusted) || !strings.Contains(err.Error(), "owned by uid 65534") {
			t.Errorf("a program owned by nobody, as root: %v", err)
		}
	}
}

// monitorRow is the Monitor state and error of a supplier.
func monitorRow(h *ddsHarness, module string) (state string, err error) {
	for _, p := range h.s.Status() {
		if p.Supplier.Module == module {
			return p.State, p.LastErr
		}
	}
	return "absent", nil
}

// Issue 29 item 11: a program others could change is never run, and a suppliers directory others
// could change is not read at all; each is listed under Monitor, failing with the reason, and the
// events say it. Once the permissions are right, they are used: the suppliers are found anew at
// each discovery.
func TestDDSRefusesWhatOthersCouldChange(t *testing.T) {
	h := programHarness(t)
	ran := filepath.Join(t.TempDir(), "ran")
	writeProgram(t, h.dir, "loose", "touch '"+ran+"'\necho 'up 1'\n")
	if err := os.Chmod(filepath.Join(h.dir, "loose"), 0o777); err != nil {
		t.Fatal(err)
	}
	open := mkdir(t, filepath.Join(t.TempDir(), "open"), 0o777)
	if err := os.WriteFile(filepath.Join(open, "data.prom"), []byte("x 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.dds.opt.Dirs = append(h.dds.opt.Dirs, open)
	h.tick(time.Second)
	time.Sleep(100 * time.Millisecond)
	h.tick(time.Second)
	if _, err := os.Stat(ran); err == nil {
		t.Fatal("a program writable by others was run")
	}
	for mod, want := range map[string]string{"dds:loose": "loose is writable by others (mode 0777)",
		"dds:open (directory)": "open is writable by others (mode 0777)"} {
		st, err := monitorRow(h, mod)
		if st != "failing" || err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "StrictModes") {
			t.Errorf("%s: %s %v, want failing with %q", mod, st, err, want)
		}
	}
	if h.exists("DDS/data") {
		t.Error("a file of a directory others could change was read")
	}
	evs := strings.Join(h.events(ns.EvProviderError), "\n")
	if !strings.Contains(evs, "dds:loose") || !strings.Contains(evs, "refused") {
		t.Errorf("no event says the program was refused:\n%s", evs)
	}
	// Fixed: used from the next discovery on.
	if err := os.Chmod(filepath.Join(h.dir, "loose"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o755); err != nil {
		t.Fatal(err)
	}
	h.tick(2 * time.Second)
	time.Sleep(200 * time.Millisecond)
	h.tick(time.Second)
	if _, err := os.Stat(ran); err != nil {
		t.Error("the program was not run once its mode was 0755")
	}
	if !h.exists("DDS/data/x/value") {
		t.Error("the directory's file was not read once its mode was 0755")
	}
}

// Issue 33 item 8: a FIFO, or a link to /dev/zero, named as a supplier's text is shown under
// Monitor with the reason, never ignored without a word; reading it never blocks.
func TestDDSNotRegularShown(t *testing.T) {
	h := newDDSHarness(t, 0)
	if err := syscall.Mkfifo(filepath.Join(h.dir, "pipe.prom"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(h.dir, "zero.om")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(h.dir, "nowhere"), filepath.Join(h.dir, "dangling.prom")); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		h.tick(time.Second)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a collection blocked on a named pipe")
	}
	for mod, want := range map[string]string{"dds:pipe.prom": "not a regular file (a named pipe)",
		"dds:zero.om": "not a regular file (a character device)", "dds:dangling.prom": "cannot be read"} {
		if st, err := monitorRow(h, mod); st != "failing" || err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %s %v, want failing with %q", mod, st, err, want)
		}
	}
}

// The refusal is checked again at each run: a program made writable by others after it was found
// is not run.
func TestRunProgramChecksTrustEachRun(t *testing.T) {
	dir := t.TempDir()
	writeProgram(t, dir, "p", "echo 'up 1'\n")
	p := filepath.Join(dir, "p")
	var r reaper
	if _, err := runProgram(context.Background(), &r, p, "dds:p", time.Second, supply.DefaultLimits); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := runProgram(context.Background(), &r, p, "dds:p", time.Second, supply.DefaultLimits); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("run of a program writable by others: %v", err)
	}
}

var _ collect.Provider = (*ddsSupplier)(nil)
var _ collect.Warner = (*ddsSupplier)(nil) // its duplicate families are said under Monitor (issue 33 item 8)

// Issue 41 item 1: a link on the way is judged itself. Root's suppliers directory holds
// evil → STICKY/prog, and user nobody makes STICKY/prog a link to a program that is itself
// trusted: refused, naming the link, its owner and the link followed to reach it. The same
// link owned by root is accepted (only root could change it in a sticky directory).
func TestCheckTrustedJudgesEveryLink(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a link to user nobody")
	}
	base := mkdir(t, filepath.Join(t.TempDir(), "base"), 0o755)
	sup := mkdir(t, filepath.Join(base, "suppliers.d"), 0o755)
	sticky := mkdir(t, filepath.Join(base, "tmp"), 0o777|os.ModeSticky)
	bin := mkdir(t, filepath.Join(base, "bin"), 0o755)
	prog := writeProgram(t, bin, "prog", "")
	evil, planted := filepath.Join(sup, "evil"), filepath.Join(sticky, "prog")
	for link, target := range map[string]string{evil: planted, planted: prog} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	if err := checkTrusted(evil, 0); err != nil {
		t.Fatalf("links owned by root: %v", err)
	}
	if err := os.Lchown(planted, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	err := checkTrusted(evil, 0)
	want := planted + " is a symbolic link owned by uid 65534"
	if err == nil || !errors.Is(err, ErrUntrusted) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), evil+" → "+planted) {
		t.Errorf("a link planted by nobody in a sticky directory: %v, want %q reached through %s", err, want, evil)
	}
	// The supplier's own link, owned by someone else, is refused the same way.
	if err := os.Lchown(planted, 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(evil, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := checkTrusted(evil, 0); err == nil || !strings.Contains(err.Error(), evil+" is a symbolic link owned by uid 65534") {
		t.Errorf("a link owned by nobody in root's directory: %v", err)
	}
}
