package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dcimon/internal/golden"
)

// runConf runs a command with a configuration file of text (none when text is "") and the
// environment env.
func runConf(t *testing.T, text string, env map[string]string, args ...string) (string, string, int, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "dcimon", "config.toml")
	if text != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := fakeEnv()
	e.Getenv = func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return dir
		}
		return env[k]
	}
	var out, errb bytes.Buffer
	code := runEnv(context.Background(), args, e, &out, &errb)
	return out.String(), errb.String(), code, path
}

// issue 16: the annotated default file, as `dcimon config default` prints it; it checks clean.
func TestConfigDefaultGolden(t *testing.T) {
	out, errs, code, _ := runConf(t, "", nil, "config", "default")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden.Check(t, "config_default", out)
	got, errs, code, _ := runConf(t, out, nil, "config", "check")
	if code != 0 || !strings.Contains(got, ": ok (") {
		t.Fatalf("the default file does not check: %d %s %s", code, got, errs)
	}
}

// issue 16: `dcimon config` says where each value comes from: a flag beats the environment,
// which beats the file, which beats the defaults.
func TestConfigOrigins(t *testing.T) {
	file := "theme = \"light\"\ninterval = \"2s\"\nstart = \"values\"\n\n[keys]\nquit = [\"x\"]\n"
	out, errs, code, _ := runConf(t, file, map[string]string{"DCIMON_INTERVAL": "5s", "DCIMON_START": "tree"}, "config", "--theme", "mono")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{`theme = "mono"`, "# --theme", `interval = "5s"`, "# DCIMON_INTERVAL", `start = "tree"`, "# DCIMON_START",
		`save_hotsets = "ask"`, "# default", `quit = ["x"]`, "# config.toml", `name = "busiest-disks"`} {
		if !strings.Contains(out, want) {
			t.Errorf("config lacks %q:\n%s", want, out)
		}
	}
}

// issue 16: a bad file stops every command with file:line:col, the key, what was wanted and
// what was found; nothing runs half-configured.
func TestConfigErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[[hotset]]\nname = \"busiest-disks\"\npath = \"Disk\"\nstat = \"busy\"\nmaxresp = -2\n", `config.toml:5:1: hotset "busiest-disks": maxresp must be >= 0, got -2`},
		{"themes = \"dark\"\n", `config.toml:1:1: themes: unknown key (did you mean "theme"?)`},
		{"theme = \"solarized\"\n", `theme "solarized" (config.toml:1): want dark, high-contrast, light`},
		{"[keys]\nquit = [\"n\"]\n", `config.toml:2:1: keys: "n" is bound to both quit and hot.new (scope hotsets)`},
		{"[keys]\nqiut = [\"x\"]\n", `config.toml:2:1: keys.qiut: no such action`},
		{"[tables.disk]\ncolumns = [\"r/s\", \"util\"]\n", `config.toml:2:1: tables.disk.columns: no column "util"`},
	} {
		for _, cmd := range [][]string{{"get", "CPU/busy"}, {"config", "check"}} {
			_, errs, code, _ := runConf(t, c.text, nil, append(cmd, "--source", "synthetic:cpus=2")...)
			if cmd[0] == "config" {
				_, errs, code, _ = runConf(t, c.text, nil, cmd...)
			}
			if code != 2 || !strings.Contains(errs, c.want) {
				t.Errorf("%v on %q: exit %d, %q; want 2 and %s", cmd, c.text, code, errs, c.want)
			}
		}
	}
	// A file named on the command line must exist; the default one need not.
	if _, errs, code, _ := runConf(t, "", nil, "get", "CPU/busy", "--config", "/nonexistent/c.toml", "--source", "synthetic:cpus=2"); code != 2 || !strings.Contains(errs, "/nonexistent/c.toml: cannot read") {
		t.Errorf("a missing --config: %d %s", code, errs)
	}
	if _, errs, code, _ := runConf(t, "", nil, "get", "CPU/busy", "--source", "synthetic:cpus=2"); code != 0 {
		t.Errorf("no configuration file: %d %s", code, errs)
	}
}

// issue 16: `hot --name` reads a hotset of the file; a flag given beats its field.
func TestHotByName(t *testing.T) {
	file := "[[hotset]]\nname = \"two-busiest\"\npath = \"Disk\"\nstat = [\"%util\", \"busy\"]\nmaxresp = 2\nthreshold = 10\nfeed = \"threshold\"\n"
	syn := []string{"--source", "synthetic:disks=5,seed=7"}
	out, errs, code, _ := runConf(t, file, nil, append([]string{"hot", "--name", "two-busiest"}, syn...)...)
	if code != 0 || !strings.Contains(out, "Disk busy  threshold > 10.0%  max 2") {
		t.Fatalf("exit %d %s:\n%s", code, errs, out)
	}
	out, _, code, _ = runConf(t, file, nil, append([]string{"hot", "--name", "two-busiest", "--max", "4"}, syn...)...)
	if code != 0 || !strings.Contains(out, "max 4") {
		t.Fatalf("--max beats the file:\n%s", out)
	}
	_, errs, code, _ = runConf(t, file, nil, append([]string{"hot", "--name", "nope"}, syn...)...)
	if code != 2 || !strings.Contains(errs, "no such hotset") || !strings.Contains(errs, "two-busiest") {
		t.Fatalf("an unknown name: %d %s", code, errs)
	}
	// With no [[hotset]] in the file, the defaults have names too.
	out, errs, code, _ = runConf(t, "", nil, append([]string{"hot", "--name", "busiest-disks"}, syn...)...)
	if code != 0 || !strings.Contains(out, "Disk busy") {
		t.Fatalf("a default by name: %d %s\n%s", code, errs, out)
	}
}

// issue 16: themes are files: the built-in ones print as files to copy, a user's themes/NAME.toml
// beside config.toml is a theme (of any name), and a bad theme name or file is an error with
// its place.
func TestThemeFiles(t *testing.T) {
	out, errs, code, _ := runConf(t, "", nil, "config", "theme", "dark")
	if code != 0 || !strings.Contains(out, "fg = \"#c9d1d9\"") {
		t.Fatalf("config theme dark: %d %s\n%s", code, errs, out)
	}
	dir := t.TempDir()
	themes := filepath.Join(dir, "dcimon", "themes")
	if err := os.MkdirAll(themes, 0o755); err != nil {
		t.Fatal(err)
	}
	mine := strings.Replace(out, "#c9d1d9", "#ffaf00", 1)
	if err := os.WriteFile(filepath.Join(themes, "mine.toml"), []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return dir
		}
		return ""
	}
	e := fakeEnv()
	e.Getenv = env
	var o, eb bytes.Buffer
	if code := runEnv(context.Background(), []string{"config", "--theme", "mine"}, e, &o, &eb); code != 0 || !strings.Contains(o.String(), `theme = "mine"`) {
		t.Fatalf("a user theme: %d %s\n%s", code, eb.String(), o.String())
	}
	o.Reset()
	eb.Reset()
	if code := runEnv(context.Background(), []string{"config", "--theme", "pink"}, e, &o, &eb); code == 0 ||
		!strings.Contains(eb.String(), `theme "pink"`) || !strings.Contains(eb.String(), "mine") {
		t.Fatalf("an unknown theme: %d %s", code, eb.String())
	}
	if err := os.WriteFile(filepath.Join(themes, "bad.toml"), []byte("fg = \"#c9d1d9\"\nok = \"greenish\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eb.Reset()
	if code := runEnv(context.Background(), []string{"config", "check"}, e, &o, &eb); code != 2 || !strings.Contains(eb.String(), "bad.toml") {
		t.Fatalf("a bad theme file: %d %s", code, eb.String())
	}
}

// issue 16: net_units = "bits" shows interfaces' byte rates in bits per second, in the text,
// the JSON value and its units alike, and takes thresholds in bits; disks stay in bytes.
func TestNetUnitsBits(t *testing.T) {
	syn := []string{"--source", "synthetic:disks=2,nics=2,seed=3", "-n", "1"}
	bytesOut, _, code, _ := runConf(t, "", nil, append([]string{"get", "NetIf/eth0/bytes", "Disk/sda/bytes", "--json"}, syn...)...)
	if code != 0 {
		t.Fatal(code)
	}
	bitsOut, errs, code, _ := runConf(t, "net_units = \"bits\"\n", nil, append([]string{"get", "NetIf/eth0/bytes", "Disk/sda/bytes", "--json"}, syn...)...)
	if code != 0 {
		t.Fatalf("%d %s", code, errs)
	}
	var b, x struct {
		Values []struct {
			Path  string  `json:"path"`
			Value float64 `json:"value"`
			Units string  `json:"units"`
			Text  string  `json:"text"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(bytesOut), &b); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(bitsOut), &x); err != nil {
		t.Fatal(err)
	}
	if x.Values[0].Units != "bit/s" || b.Values[0].Units != "B/s" || x.Values[0].Value != 8*b.Values[0].Value || !strings.Contains(x.Values[0].Text, "bit/s") {
		t.Fatalf("NetIf in bits: %+v, in bytes: %+v", x.Values[0], b.Values[0])
	}
	if x.Values[1].Units != "B/s" || x.Values[1].Value != b.Values[1].Value {
		t.Fatalf("a disk stays in bytes: %+v", x.Values[1])
	}
	out, errs, code, _ := runConf(t, "net_units = \"bits\"\n", nil, append([]string{"hot", "NetIf", "bytes", "--threshold", "1M"}, syn...)...)
	if code != 0 || !strings.Contains(out, "threshold > 1 Mbit/s") {
		t.Fatalf("a threshold in bits: %d %s\n%s", code, errs, out)
	}
}
