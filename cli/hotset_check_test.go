package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 29 item 17, SPMI-HOT-4: `config check` resolves the file's hotsets as `hot --name`
// does: a misspelt statistic or path fails with the hotset's name, its line and a
// did-you-mean; a path that may appear later (a supplier's) is a note; a list of statistics
// passes when one is there.
func TestConfigCheckHotsets(t *testing.T) {
	dir := t.TempDir()
	fixture := []string{"--procfs", fixProc, "--sysfs", fixSys}
	for _, c := range []struct {
		name, text string
		code       int
		out, err   string
	}{
		{"misspelt stat", "[[hotset]]\nname = \"d\"\npath = \"Disk\"\nstat = \"bussy\"\n", 2, "",
			`:4:1: hotset "d": stat "bussy": no peer of Disk has such a statistic (did you mean "busy"?)`},
		{"misspelt path", "[[hotset]]\nname = \"n\"\npath = \"Dsk\"\nstat = \"busy\"\n", 2, "",
			`:3:1: hotset "n": path "Dsk": Top has no context "Dsk" (did you mean "Disk"?)`},
		{"no such path", "[[hotset]]\nname = \"n\"\npath = \"Nope\"\nstat = \"busy\"\n", 2, "",
			`:3:1: hotset "n": path "Nope": Top has no context "Nope" (it has CPU, Disk, NetIf, Mem, Host, FS,`},
		{"a statistic as path", "[[hotset]]\nname = \"c\"\npath = \"CPU/user\"\nstat = \"x\"\n", 2, "",
			`:3:1: hotset "c": path "CPU/user" names a statistic`},
		{"one of a list", "[[hotset]]\nname = \"ok\"\npath = \"Disk\"\nstat = [\"bussy\", \"busy\"]\n", 0, ": ok (4 settings, 0 key bindings, 1 hotsets)", ""},
		{"a supplier's path", "[[hotset]]\nname = \"x\"\npath = \"DDS/acme\"\nstat = \"q\"\n", 0,
			`:3:1: hotset "x": path "DDS/acme" is not in the name space now; a supplier's or a remote host's context may appear later`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".toml")
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			out, stderr, code := runFake(t, append([]string{"config", "check", path}, fixture...)...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, c.code, out, stderr)
			}
			if c.err != "" && !strings.HasPrefix(stderr, "dcimon: "+path+c.err) {
				t.Errorf("\n got %q\nwant %q", stderr, "dcimon: "+path+c.err)
			}
			if c.out != "" && !strings.Contains(out, path+c.out) {
				t.Errorf("\n got %q\nwant it to contain %q", out, path+c.out)
			}
		})
	}
}

// Issue 29 item 17: the monitor does not start without a hotset the file asks for: it says
// which hotset is wrong and exits 2, before it takes the terminal.
func TestMonitorRefusesAMisspeltHotset(t *testing.T) {
	old := stdoutIsTerminal
	stdoutIsTerminal = func() bool { return true }
	defer func() { stdoutIsTerminal = old }()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte("[[hotset]]\nname = \"d\"\npath = \"Disk\"\nstat = \"bussy\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runFake(t, "--config", path, "--procfs", fixProc, "--sysfs", fixSys)
	want := "dcimon: " + path + `:4:1: hotset "d": stat "bussy": no peer of Disk has such a statistic (did you mean "busy"?)` + "\n"
	if code != 2 || stderr != want {
		t.Errorf("exit %d\n got %q\nwant %q", code, stderr, want)
	}
}
