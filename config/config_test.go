package config

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

var testDefaults = Defaults{
	Keys: []KeyDefault{
		{Action: "quit", Scope: "global", Help: "quit", Keys: []string{"q", "ctrl+c"}},
		{Action: "pane.next", Scope: "global", Help: "next pane", Keys: []string{"tab"}},
		{Action: "hot.new", Scope: "hotsets", Help: "new hotset", Keys: []string{"n"}},
	},
	Hotsets: []Hotset{
		{Name: "busiest-disks", Path: "Disk", Stats: []string{"busy"}, MaxResp: 5, Feed: "always"},
		{Name: "fullest-filesystems", Path: "FS", Stats: []string{"%used"}, MaxResp: 5, Threshold: 90, Feed: "always", Exceptions: "exception", Frequency: 5, Severity: 1},
	},
}

// issue 16: every error names the file, line and column, the key, what was expected and what
// was found; unknown keys are errors with a "did you mean".
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"themes = \"dark\"\n", `c.toml:1:1: themes: unknown key (did you mean "theme"?)`},
		{"\n\n[[hotset]]\nname = \"busiest-disks\"\npath = \"Disk\"\nstat = \"busy\"\n  maxresp = -2\n", `c.toml:7:3: hotset "busiest-disks": maxresp must be >= 0, got -2`},
		{"[[hotset]]\nnmae = \"x\"\n", `c.toml:2:1: hotset.nmae: unknown key (did you mean "name"?)`},
		{"theme = 1\n", `c.toml:1:9: theme: want a theme's name in quotes, such as "dark", got 1`},
		{"interval = \"1x\"\n", `c.toml:1:12: interval:`},
		{"interval = \"10ms\"\n", `c.toml:1:1: interval: must be 100ms to 1h0m0s, got 10ms`},
		{"liveness = \"5s\"\n", `c.toml:1:1: liveness: must be 0 (off) or 15s to 600s, got 5s`},
		{"start = \"graphs\"\n", `c.toml:1:1: start: must be one of overview, tree, values, hotsets, inspector, events, got "graphs"`},
		{"net_units = \"nibbles\"\n", `c.toml:1:1: net_units: must be one of bytes, bits, got "nibbles"`},
		{"save_hotsets = \"maybe\"\n", `c.toml:1:1: save_hotsets: must be one of ask, always, never, got "maybe"`},
		{"theme = \n", `c.toml:1:9: unexpected character`},
		{"[keys]\nquit = []\n", `c.toml:2:1: keys.quit: needs at least one key`},
		{"[keys]\nquit = [1]\n", `c.toml:2:1: keys.quit: want a list of key names (strings), got 1`},
		{"[[hotset]]\npath = \"Disk\"\nstat = \"busy\"\n", `c.toml:1:1: hotset "": name is missing`},
		{"[[hotset]]\nname = \"a\"\npath = \"Disk\"\nstat = \"busy\"\n[[hotset]]\nname = \"a\"\npath = \"CPU\"\nstat = \"busy\"\n", `c.toml:6:1: hotset "a": name is used twice (hotsets 1 and 2)`},
		{"[[hotset]]\nname = \"a\"\npath = \"Disk\"\nstat = \"busy\"\nfeed = \"sometimes\"\n", `c.toml:5:1: hotset "a": feed must be none, threshold or always, got "sometimes"`},
		// SPMI-HOT-14: exceptions need a frequency of 5 minutes or more and a severity.
		{"[[hotset]]\nname = \"a\"\npath = \"Disk\"\nstat = \"busy\"\nexceptions = \"exception\"\nfrequency = 5\n", `c.toml:1:1: hotset "a": severity must be > 0 with exceptions, got 0`},
		{"[[hotset]]\nname = \"a\"\npath = \"Disk\"\nstat = \"busy\"\nexceptions = \"trap\"\nfrequency = 1\ntrap = 3\n", `c.toml:6:1: hotset "a": frequency must be at least 5 minutes`},
		{"[tables.disks]\nsort = \"r/s\"\n", `c.toml:1:1: tables.disks: unknown table "disks"`},
	} {
		_, err := Parse("c.toml", []byte(c.text))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s", c.text, err, c.want)
		}
	}
}

func TestParseGood(t *testing.T) {
	f, err := Parse("c.toml", []byte(`interval = "2s"
theme = "light"
[keys]
quit = ["x"]
pane.next = ["tab", "ctrl+n"]
"hot.new" = "N"
[[hotset]]
name = "busy"
path = "Disk"
stat = "busy"
maxresp = 3
threshold = 50
on_screen = true
`))
	if err != nil {
		t.Fatal(err)
	}
	if f.Interval.Duration != 2*time.Second || f.Theme != "light" || len(f.Hotset) != 1 || f.Hotset[0].Threshold != 50 || !f.Hotset[0].OnScreen {
		t.Fatalf("%+v", f)
	}
	if got := f.Keys; len(got) != 3 || got["quit"][0] != "x" || got["pane.next"][1] != "ctrl+n" || got["hot.new"][0] != "N" {
		t.Fatalf("keys %v", got)
	}
	if p := f.Set["hotset[0].maxresp"]; p.Line != 11 || p.Col != 1 {
		t.Fatalf("position %+v", p)
	}
}

// issue 16: flags beat the environment, which beats the file, which beats the defaults; and
// Origin says which gave each value.
func TestPrecedence(t *testing.T) {
	f, err := Parse("/etc/c.toml", []byte("theme = \"light\"\ninterval = \"2s\"\nshow_loop = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DCIMON_INTERVAL": "5s", "DCIMON_THEME": "mono"}
	getenv := func(k string) string { return env[k] }
	for _, c := range []struct {
		name     string
		file     *File
		env      bool
		flags    map[string]string
		interval time.Duration
		theme    string
		showLoop bool
		origins  map[string]string
	}{
		{"defaults", nil, false, nil, time.Second, "dark", false, map[string]string{"interval": "default", "theme": "default"}},
		{"file", f, false, nil, 2 * time.Second, "light", true, map[string]string{"interval": "c.toml:2", "theme": "c.toml:1", "show_loop": "c.toml:3", "start": "default"}},
		{"env beats file", f, true, nil, 5 * time.Second, "mono", true, map[string]string{"interval": "DCIMON_INTERVAL", "show_loop": "c.toml:3"}},
		{"flag beats env", f, true, map[string]string{"interval": "500ms", "show_loop": "false"}, 500 * time.Millisecond, "mono", false,
			map[string]string{"interval": "--interval", "theme": "DCIMON_THEME", "show_loop": "--show-loop"}},
	} {
		ge := func(string) string { return "" }
		if c.env {
			ge = getenv
		}
		e, err := Resolve(testDefaults, c.file, "/etc/c.toml", ge, c.flags)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if e.Interval != c.interval || e.Theme != c.theme || e.ShowLoop != c.showLoop {
			t.Errorf("%s: interval %v theme %s show_loop %v", c.name, e.Interval, e.Theme, e.ShowLoop)
		}
		for k, want := range c.origins {
			if e.Origin[k] != want {
				t.Errorf("%s: %s comes from %q, want %q", c.name, k, e.Origin[k], want)
			}
		}
	}
	// A bad value in the environment or a flag is an error naming it.
	if _, err := Resolve(testDefaults, nil, "", func(k string) string { return map[string]string{"DCIMON_START": "graphs"}[k] }, nil); err == nil ||
		!strings.Contains(err.Error(), "DCIMON_START") {
		t.Errorf("bad environment: %v", err)
	}
	if _, err := Resolve(testDefaults, nil, "", func(string) string { return "" }, map[string]string{"liveness": "5s"}); err == nil ||
		!strings.Contains(err.Error(), "--liveness") {
		t.Errorf("bad flag: %v", err)
	}
}

func TestLocate(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, c := range []struct {
		flag     string
		env      map[string]string
		want     string
		explicit bool
	}{
		{"/a.toml", map[string]string{"DCIMON_CONFIG": "/b.toml"}, "/a.toml", true},
		{"", map[string]string{"DCIMON_CONFIG": "/b.toml", "XDG_CONFIG_HOME": "/x"}, "/b.toml", true},
		{"", map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/dcimon/config.toml", false},
		{"", map[string]string{"XDG_CONFIG_HOME": "rel", "HOME": "/h"}, "/h/.config/dcimon/config.toml", false},
		{"", map[string]string{"HOME": "/h"}, "/h/.config/dcimon/config.toml", false},
	} {
		got, explicit := Locate(c.flag, env(c.env))
		if got != c.want || explicit != c.explicit {
			t.Errorf("Locate(%q, %v) = %s %v, want %s %v", c.flag, c.env, got, explicit, c.want, c.explicit)
		}
	}
	if f, err := Load(filepath.Join(t.TempDir(), "none.toml"), false); f != nil || err != nil {
		t.Errorf("a missing default file is no configuration: %v %v", f, err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "none.toml"), true); err == nil {
		t.Error("a missing file named by the user is an error")
	}
}

// The default file parses back to the defaults.
func TestDefaultFileParsesBack(t *testing.T) {
	var b bytes.Buffer
	if err := WriteDefault(&b, testDefaults); err != nil {
		t.Fatal(err)
	}
	f, err := Parse("default.toml", b.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	e, err := Resolve(testDefaults, f, "default.toml", func(string) string { return "" }, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := Resolve(testDefaults, nil, "", func(string) string { return "" }, nil)
	if e.Interval != d.Interval || e.Theme != d.Theme || e.Start != d.Start || e.Liveness != d.Liveness || !sameHotsets(e.Hotsets, d.Hotsets) {
		t.Fatalf("the default file says otherwise:\n%s", b.String())
	}
	for _, k := range testDefaults.Keys {
		if strings.Join(f.Keys[k.Action], ",") != strings.Join(k.Keys, ",") {
			t.Errorf("keys.%s = %v, want %v", k.Action, f.Keys[k.Action], k.Keys)
		}
	}
}

const userFile = `# my settings
theme = "light"   # easier on the eyes

# the disks I care about
[[hotset]]
name = "busiest-disks"   # keep this one
path = "Disk"
stat = "busy"
maxresp = 5
feed = "always"

# old one
[[hotset]]
name = "old"
path = "CPU"
stat = "busy"

[keys]
quit = ["x"]  # tmux eats q
`

// issue 16: a hotset saved from the monitor keeps the user's comments and order for everything
// else: a changed value is rewritten in place, a deleted hotset loses its table and the comments
// right above it, a new one is appended; the result parses back to exactly what was meant.
func TestEditHotsets(t *testing.T) {
	hs := []Hotset{
		{Name: "busiest-disks", Path: "Disk", Stats: []string{"busy"}, MaxResp: 10, Threshold: 50, Feed: "always"},
		{Name: "FS-%used", Path: "FS", Stats: []string{"%used"}, MaxResp: 3, Threshold: 90, Feed: "threshold", Exceptions: "exception", Frequency: 5, Severity: 2},
	}
	out, err := EditHotsets("c.toml", []byte(userFile), hs)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, keep := range []string{"# my settings\n", "theme = \"light\"   # easier on the eyes\n", "# the disks I care about\n",
		"name = \"busiest-disks\"   # keep this one\n", "maxresp = 10\n", "threshold = 50.0\n", "quit = [\"x\"]  # tmux eats q\n", "name = \"FS-%used\"\n"} {
		if !strings.Contains(got, keep) {
			t.Errorf("lacks %q:\n%s", keep, got)
		}
	}
	for _, gone := range []string{"# old one", "name = \"old\""} {
		if strings.Contains(got, gone) {
			t.Errorf("still has %q:\n%s", gone, got)
		}
	}
	// The lines not about the hotsets are the user's, byte for byte and in order.
	if !strings.HasPrefix(got, "# my settings\ntheme = \"light\"   # easier on the eyes\n\n# the disks I care about\n[[hotset]]\n") {
		t.Errorf("the head changed:\n%s", got)
	}
	// Saving the same again changes nothing.
	again, err := EditHotsets("c.toml", out, hs)
	if err != nil || !bytes.Equal(again, out) {
		t.Fatalf("a second save changed the file (%v):\n%s", err, again)
	}
	// A file that does not parse is never rewritten.
	if _, err := EditHotsets("c.toml", []byte("theme = \n"), hs); err == nil {
		t.Fatal("a broken file was edited")
	}
}

// issue 16: the file is written atomically: the old one stays whole until the new one is in its
// place, with the same permissions; a new file and its directory are created.
func TestSaveHotsets(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dcimon", "config.toml")
	hs := testDefaults.Hotsets
	if err := SaveHotsets(path, hs); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path, true)
	if err != nil || !sameHotsets(f.Hotset, hs) {
		t.Fatalf("%v %+v", err, f)
	}
	if err := os.WriteFile(path, []byte(userFile), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := SaveHotsets(path, hs[:1]); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode())
	}
	ents, _ := os.ReadDir(filepath.Dir(path))
	if len(ents) != 1 {
		t.Fatalf("temporary files left: %v", ents)
	}
	// A broken file is left as it is.
	if err := os.WriteFile(path, []byte("theme = \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := SaveHotsets(path, hs); err == nil {
		t.Fatal("a broken file was rewritten")
	}
	if data, _ := os.ReadFile(path); string(data) != "theme = \n" {
		t.Fatalf("the broken file changed: %q", data)
	}
}

// The parser of the user's file, and the editor, under a fuzzer: no panic, and an edit either
// fails or parses back to what was meant.
func FuzzParse(f *testing.F) {
	f.Add([]byte(userFile))
	var b bytes.Buffer
	_ = WriteDefault(&b, testDefaults)
	f.Add(b.Bytes())
	f.Add([]byte("[keys]\npane.next = [\"tab\"]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := Parse("fuzz.toml", data); err != nil {
			return
		}
		if _, err := EditHotsets("fuzz.toml", data, testDefaults.Hotsets); err != nil && !strings.Contains(err.Error(), "not") {
			t.Fatalf("an edit failed without saying it wrote nothing: %v", err)
		}
	})
}

// A stat may be a list of names to try in order; a list over several lines is rewritten whole
// when it changes, and kept, comment and all, when it does not.
func TestEditHotsetStatList(t *testing.T) {
	in := "[[hotset]]\nname = \"d\"\npath = \"Disk\"\nstat = [\n  \"busy\",  # host\n  \"%util\", # fixtures\n]\nmaxresp = 5\n"
	f, err := Parse("c.toml", []byte(in))
	if err != nil || len(f.Hotset) != 1 || strings.Join(f.Hotset[0].Stats, ",") != "busy,%util" {
		t.Fatalf("%v %+v", err, f)
	}
	same, err := EditHotsets("c.toml", []byte(in), f.Hotset)
	if err != nil || string(same) != in {
		t.Fatalf("an unchanged list was rewritten (%v):\n%s", err, same)
	}
	h := f.Hotset[0]
	h.Stats = []string{"%busy"}
	out, err := EditHotsets("c.toml", []byte(in), []Hotset{h})
	if err != nil {
		t.Fatal(err)
	}
	if want := "[[hotset]]\nname = \"d\"\npath = \"Disk\"\nstat = \"%busy\"\nmaxresp = 5\n"; string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	if _, err := Parse("c.toml", []byte("[[hotset]]\nname = \"d\"\npath = \"Disk\"\nstat = 3\n")); err == nil || err.Error() != `c.toml:4:8: hotset "d": stat: want a statistic's name in quotes, such as "busy", or a list of names to try in order, got 3` {
		t.Fatalf("a number as stat: %v", err)
	}
}

// Issue 29 item 14: a config.toml that is a symbolic link into a dotfiles directory is saved to
// the file it leads to, atomically (the temporary file beside the target, none left), the link
// stays the same link, and the target keeps its mode; a read-only target is an error that says
// so, and nothing changes.
func TestSaveHotsetsThroughSymlink(t *testing.T) {
	home := t.TempDir()
	cfgDir := filepath.Join(home, ".config", "dcimon")
	dotfiles := filepath.Join(home, "dotfiles")
	for _, d := range []string{cfgDir, dotfiles} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(cfgDir, "config.toml")
	target := filepath.Join(dotfiles, "dcimon.toml")
	if err := os.Symlink("../../dotfiles/dcimon.toml", link); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte(userFile), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(target, 0o640); err != nil {
		t.Fatal(err)
	}
	hs := testDefaults.Hotsets
	if err := SaveHotsets(link, hs); err != nil {
		t.Fatal(err)
	}
	checkLink := func() {
		t.Helper()
		if to, err := os.Readlink(link); err != nil || to != "../../dotfiles/dcimon.toml" {
			t.Fatalf("the link is no longer the same link: %q %v", to, err)
		}
	}
	checkLink()
	f, err := Load(target, true)
	if err != nil || !sameHotsets(f.Hotset, hs) {
		t.Fatalf("the target does not hold the hotsets: %v %+v", err, f)
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o640 {
		t.Errorf("target mode %v, want -rw-r-----", st.Mode())
	}
	for _, d := range []string{cfgDir, dotfiles} {
		if ents, _ := os.ReadDir(d); len(ents) != 1 {
			t.Errorf("%s: temporary files left: %v", d, ents)
		}
	}

	// A read-only target: a clear error, nothing lost.
	before, _ := os.ReadFile(target)
	if err := os.Chmod(target, 0o444); err != nil {
		t.Fatal(err)
	}
	err = SaveHotsets(link, hs[:1])
	want := "saving hotsets to " + link + " → " + target + ": the file is read-only (mode 0444); it is left as it was"
	if err == nil || err.Error() != want {
		t.Errorf("read-only target:\n got %v\nwant %s", err, want)
	}
	if after, _ := os.ReadFile(target); !bytes.Equal(before, after) {
		t.Errorf("the read-only file changed")
	}
	checkLink()

	// A directory the user may not write (not testable as root, who may).
	if os.Geteuid() != 0 {
		if err := os.Chmod(target, 0o640); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dotfiles, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(dotfiles, 0o755) })
		if err := SaveHotsets(link, hs[:1]); err == nil || !strings.Contains(err.Error(), "permission denied") || !strings.Contains(err.Error(), "left as it was") {
			t.Errorf("read-only directory: %v", err)
		}
		if after, _ := os.ReadFile(target); !bytes.Equal(before, after) {
			t.Errorf("the file in a read-only directory changed")
		}
		_ = os.Chmod(dotfiles, 0o755)
	}

	// A link to a file not yet there: the file is made where the link leads.
	if err := os.Remove(target); err != nil {
		t.Fatal(err)
	}
	if err := SaveHotsets(link, hs); err != nil {
		t.Fatal(err)
	}
	checkLink()
	if f, err := Load(link, true); err != nil || !sameHotsets(f.Hotset, hs) {
		t.Fatalf("a new target: %v", err)
	}

	// A loop of links is an error, not a hang.
	a, b := filepath.Join(home, "a"), filepath.Join(home, "b")
	_ = os.Symlink(b, a)
	_ = os.Symlink(a, b)
	if err := SaveHotsets(a, hs); err == nil || !strings.Contains(err.Error(), "more than 40 symbolic links") {
		t.Errorf("a loop of links: %v", err)
	}
}

// Issue 29 item 14 (dcimon run with sudo): root saving a user's file leaves it the user's, with
// its mode, rather than making it root's.
func TestSaveHotsetsKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file away")
	}
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(userFile), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := SaveHotsets(path, testDefaults.Hotsets); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	sys := st.Sys().(*syscall.Stat_t)
	if sys.Uid != 65534 || sys.Gid != 65534 || st.Mode().Perm() != 0o600 {
		t.Errorf("owner %d:%d mode %v, want 65534:65534 -rw-------", sys.Uid, sys.Gid, st.Mode())
	}
}
