package theme

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/charmbracelet/lipgloss"
	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"dcimon/internal/regular"
	"dcimon/internal/tomlmsg"
)

// maxFileSize bounds a user's theme file, as config.MaxFileSize bounds the configuration.
const maxFileSize = 1 << 20

// The built-in themes are theme files like a user's, embedded: `dcimon config theme dark`
// prints one to copy.
//
//go:embed builtin/*.toml
var builtin embed.FS

// themeFile is a theme file's keys: the palette's roles, and the value states.
type themeFile struct {
	Fg               string `toml:"fg"`
	Bg               string `toml:"bg"`
	Muted            string `toml:"muted"`
	Accent           string `toml:"accent"`
	Border           string `toml:"border"`
	FocusBorder      string `toml:"focus_border"`
	SelFg            string `toml:"sel_fg"`
	SelBg            string `toml:"sel_bg"`
	OK               string `toml:"ok"`
	Warn             string `toml:"warn"`
	Crit             string `toml:"crit"`
	ValueInvalid     string `toml:"value_invalid"`
	ValueUnavailable string `toml:"value_unavailable"`
	ValueError       string `toml:"value_error"`
	Mono             bool   `toml:"mono"`
}

var hexColour = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// colourForms are the ways a colour is written, for messages.
const colourForms = `"#rrggbb", a 256-colour number ("214") or "none"`

// roleKeys are a theme file's keys, in the order its messages list them; roleKinds their kinds.
var (
	roleKeys = []string{"fg", "bg", "muted", "accent", "border", "focus_border", "sel_fg", "sel_bg", "ok", "warn", "crit",
		"value_invalid", "value_unavailable", "value_error", "mono"}
	roleKinds = map[string]unstable.Kind{"fg": unstable.String, "bg": unstable.String, "muted": unstable.String, "accent": unstable.String,
		"border": unstable.String, "focus_border": unstable.String, "sel_fg": unstable.String, "sel_bg": unstable.String,
		"ok": unstable.String, "warn": unstable.String, "crit": unstable.String, "value_invalid": unstable.String,
		"value_unavailable": unstable.String, "value_error": unstable.String, "mono": unstable.Bool}
)

// colour reads one colour: "#rrggbb", a 256-colour number, or "none".
func colour(v string) (lipgloss.TerminalColor, bool) {
	switch {
	case v == "none":
		return lipgloss.NoColor{}, true
	case hexColour.MatchString(v):
		return lipgloss.Color(strings.ToLower(v)), true
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 && n <= 255 {
		return lipgloss.Color(v), true
	}
	return nil, false
}

// Parse reads a theme file (src names it in errors): every role is required but the value
// states; unknown keys are errors; an error says file:line:col, the key and what was wrong.
func Parse(name, src string, data []byte) (Palette, error) {
	// A UTF-8 byte order mark is no part of the text (issue 41 item 10).
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	at, order, err := places(src, data)
	if err != nil {
		return Palette{}, err
	}
	// Each key's kind is checked first, so a wrong one is said in the file's words at its
	// place, never in the decoder's (a Go struct field).
	for _, k := range order {
		pl := at[k]
		want, known := roleKinds[k]
		switch {
		case !known:
			return Palette{}, fmt.Errorf("%s:%d:%d: %s: unknown key (a theme's keys: %s)", src, pl.line, pl.col, tomlmsg.Cut(k), strings.Join(roleKeys, ", "))
		case pl.kind != want && want == unstable.String:
			return Palette{}, fmt.Errorf("%s:%d:%d: %s: want %s, in quotes, got %s", src, pl.vline, pl.vcol, tomlmsg.Cut(k), colourForms, tomlmsg.Cut(pl.text))
		case pl.kind != want:
			return Palette{}, fmt.Errorf("%s:%d:%d: %s: want true or false, got %s", src, pl.vline, pl.vcol, tomlmsg.Cut(k), tomlmsg.Cut(pl.text))
		}
	}
	var tf themeFile
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&tf); err != nil {
		var strict *toml.StrictMissingError
		if errors.As(err, &strict) && len(strict.Errors) > 0 {
			l, c := strict.Errors[0].Position()
			return Palette{}, fmt.Errorf("%s:%d:%d: %s: unknown key", src, l, c, tomlmsg.Cut(strings.Join(strict.Errors[0].Key(), ".")))
		}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			l, c := de.Position()
			return Palette{}, fmt.Errorf("%s:%d:%d: %s", src, l, c, strings.TrimPrefix(de.Error(), "toml: "))
		}
		return Palette{}, fmt.Errorf("%s: %w", src, err)
	}
	p := Palette{Name: name, Mono: tf.Mono}
	for _, r := range []struct {
		key      string
		v        string
		dst      *lipgloss.TerminalColor
		optional bool
	}{
		{"fg", tf.Fg, &p.Fg, false}, {"bg", tf.Bg, &p.Bg, true}, {"muted", tf.Muted, &p.Muted, false}, {"accent", tf.Accent, &p.Accent, false},
		{"border", tf.Border, &p.Border, false}, {"focus_border", tf.FocusBorder, &p.FocusBorder, false},
		{"sel_fg", tf.SelFg, &p.SelFg, false}, {"sel_bg", tf.SelBg, &p.SelBg, false},
		{"ok", tf.OK, &p.OK, false}, {"warn", tf.Warn, &p.Warn, false}, {"crit", tf.Crit, &p.Crit, false},
		{"value_invalid", tf.ValueInvalid, &p.Invalid, true}, {"value_unavailable", tf.ValueUnavailable, &p.Unavailable, true},
		{"value_error", tf.ValueError, &p.Error, true},
	} {
		if r.v == "" {
			if r.optional {
				continue
			}
			return Palette{}, fmt.Errorf("%s: %s is missing: every role needs a colour (\"#rrggbb\", \"0\"-\"255\" or \"none\")", src, r.key)
		}
		c, ok := colour(r.v)
		if !ok {
			pl := at[r.key]
			return Palette{}, fmt.Errorf("%s:%d:%d: %s: want %s, got %q", src, pl.vline, pl.vcol, r.key, colourForms, tomlmsg.Cut(r.v))
		}
		*r.dst = c
	}
	if p.Bg == nil {
		p.Bg = lipgloss.NoColor{}
	}
	if isNone(p.Fg) != isNone(p.Bg) {
		return Palette{}, fmt.Errorf("%s: fg is %q but bg is %q: set both (text of a set colour on the terminal's own background is unreadable on a terminal of the other shade) or make both \"none\"", src, tf.Fg, orNone(tf.Bg))
	}
	if isNone(p.SelFg) != isNone(p.SelBg) {
		return Palette{}, fmt.Errorf("%s: sel_fg is %q but sel_bg is %q: set both or make both \"none\"", src, tf.SelFg, tf.SelBg)
	}
	if p.Invalid == nil {
		p.Invalid = p.Muted
	}
	if p.Unavailable == nil {
		p.Unavailable = p.Warn
	}
	if p.Error == nil {
		p.Error = p.Crit
	}
	return p, nil
}

func isNone(c lipgloss.TerminalColor) bool {
	_, ok := c.(lipgloss.NoColor)
	return ok
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// Builtin is the text of a built-in theme's file, to copy.
func Builtin(name string) ([]byte, error) {
	data, err := builtin.ReadFile("builtin/" + strings.ToLower(name) + ".toml")
	if err != nil {
		return nil, fmt.Errorf("theme: no built-in theme %q (built in: %s)", name, strings.Join(builtinNames(), ", "))
	}
	return data, nil
}

func builtinNames() []string {
	ents, _ := builtin.ReadDir("builtin")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".toml"))
	}
	return out
}

var (
	mu       sync.RWMutex
	palettes = map[string]Palette{}
)

func init() {
	for _, n := range builtinNames() {
		data, _ := builtin.ReadFile("builtin/" + n + ".toml")
		p, err := Parse(n, "builtin/"+n+".toml", data)
		if err != nil {
			panic(err) // a test parses every built-in theme
		}
		palettes[n] = p
	}
}

// LoadDir adds the themes of dir (NAME.toml, the directory themes/ beside config.toml); a user
// theme may replace a built-in one of its name. A directory that does not exist has none; a
// theme file that does not parse is an error naming it.
func LoadDir(dir string) error {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range ents {
		if e.IsDir() || filepath.Ext(e.Name()) != ".toml" {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := regular.ReadFile(context.Background(), path, maxFileSize)
		if err != nil {
			return err
		}
		name := strings.ToLower(strings.TrimSuffix(e.Name(), ".toml"))
		p, err := Parse(name, path, data)
		if err != nil {
			return err
		}
		mu.Lock()
		palettes[name] = p
		mu.Unlock()
	}
	return nil
}
