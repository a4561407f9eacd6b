package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 29 item 16: every configuration error says the file, line and column, the key, and
// what was wanted and found in the file's words: never a Go type, and never a setting accepted
// that could not work (a key name no terminal sends). Checked through `dcimon config check`,
// the path the monitor's start takes too (loadSettings).
func TestConfigErrorsInUsersWords(t *testing.T) {
	dir := t.TempDir()
	keyForms := `: a key is one character ("q", "?", " " for space), a key's name (enter, esc, tab, backspace, delete, up, down, left, right, home, end, pgup, pgdown, f1 to f20), ctrl+ and a letter, shift+tab, or any of these after alt+`
	for _, c := range []struct {
		name, text, want string
	}{
		{"interval a number", "interval = 5\n", `:1:12: interval: want a duration in quotes with its unit, such as "5s", got 5`},
		{"liveness a boolean", "liveness = true\n", `:1:12: liveness: want a duration in quotes with its unit, such as "30s", or "0" (off), got true`},
		{"keys a number", "keys = 1\n", `:1:8: keys: want key bindings: a [keys] table with lines such as quit = ["q", "ctrl+c"], got 1`},
		{"show_loop quoted", "show_loop = \"yes\"\n", `:1:13: show_loop: want true or false (without quotes), got "yes"`},
		{"maxresp quoted", "[[hotset]]\nname = \"a\"\npath = \"Disk\"\nstat = \"busy\"\nmaxresp = \"5\"\n", `:5:11: hotset "a": maxresp: want a whole number (without quotes), got "5"`},
		{"misspelt action", "[keys]\nquitt = [\"q\"]\n", `:2:1: keys.quitt: no such action (did you mean quit?)`},
		{"no such key", "[keys]\nquit = [\"ctrl+q\", \"fooo\"]\n", `:2:1: keys.quit: "fooo" is not a key` + keyForms},
		{"misspelt key", "[keys]\nquit = [\"entr\"]\n", `:2:1: keys.quit: "entr" is not a key (did you mean "enter"?)` + keyForms},
		{"hotset single brackets", "[hotset]\nname = \"x\"\n", `:1:1: hotset: each hotset is a [[hotset]] table, with double brackets; [hotset] is not one`},
		{"keys double brackets", "[[keys]]\nquit = [\"x\"]\n", `:1:1: keys: [keys] is one table, with single brackets; [[keys]] is not one`},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".toml")
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, stderr, code := runFake(t, "config", "check", path)
			if want := "dcimon: " + path + c.want + "\n"; code != 2 || stderr != want {
				t.Errorf("exit %d\n got %q\nwant %q", code, stderr, want)
			}
			if strings.Contains(stderr, "map[") || strings.Contains(stderr, "interface") || strings.Contains(stderr, "struct") ||
				strings.Contains(stderr, "TOML integer") {
				t.Errorf("a Go type leaked: %s", stderr)
			}
		})
	}
	// A theme's file beside the configuration: accent = 214 and muted = "#zz0000" at their place.
	full := "fg = \"#000000\"\nmuted = \"240\"\naccent = \"#000000\"\nborder = \"none\"\nfocus_border = \"#000000\"\nsel_fg = \"#000000\"\nsel_bg = \"#000000\"\nok = \"#000000\"\nwarn = \"#000000\"\ncrit = \"#000000\"\n"
	for _, c := range []struct{ name, text, want string }{
		{"accent a number", strings.Replace(full, `accent = "#000000"`, "accent = 214", 1), `:3:10: accent: want "#rrggbb", a 256-colour number ("214") or "none", in quotes, got 214`},
		{"muted no colour", strings.Replace(full, `muted = "240"`, `muted = "#zz0000"`, 1), `:2:9: muted: want "#rrggbb", a 256-colour number ("214") or "none", got "#zz0000"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := filepath.Join(t.TempDir(), "config.toml")
			theme := filepath.Join(filepath.Dir(cfg), "themes", "mine.toml")
			if err := os.MkdirAll(filepath.Dir(theme), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(cfg, []byte("theme = \"mine\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(theme, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, stderr, code := runFake(t, "config", "check", cfg)
			if want := "dcimon: " + theme + c.want + "\n"; code != 2 || stderr != want {
				t.Errorf("exit %d\n got %q\nwant %q", code, stderr, want)
			}
		})
	}
}
