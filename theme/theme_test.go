package theme

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func TestLookup(t *testing.T) {
	tests := []struct {
		name    string
		want    string
		wantErr bool
	}{
		{"", Default, false},
		{"dark", "dark", false},
		{"Light", "light", false},
		{"high-contrast", "high-contrast", false},
		{"mono", "mono", false},
		{"solarized", "", true},
	}
	for _, tt := range tests {
		p, err := Lookup(tt.name)
		if (err != nil) != tt.wantErr {
			t.Fatalf("Lookup(%q) error = %v, want error %v", tt.name, err, tt.wantErr)
		}
		if err == nil && p.Name != tt.want {
			t.Errorf("Lookup(%q) = %s, want %s", tt.name, p.Name, tt.want)
		}
		if err != nil && !strings.Contains(err.Error(), "high-contrast") {
			t.Errorf("error %q should list the known themes", err)
		}
	}
}

func TestResolveNoColor(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    string
		wantErr bool
	}{
		{"dark", nil, "dark", false},
		{"dark", map[string]string{"NO_COLOR": "1"}, "mono", false},
		{"nope", map[string]string{"NO_COLOR": "yes"}, "mono", false}, // NO_COLOR wins over a bad name
		{"dark", map[string]string{"NO_COLOR": ""}, "dark", false},    // set but empty: colour stays
		{"nope", nil, "", true},
	}
	for _, tt := range tests {
		nc := NoColor(func(k string) string { return tt.env[k] })
		s, err := Resolve(tt.name, nc)
		if (err != nil) != tt.wantErr {
			t.Fatalf("Resolve(%q, %v) error = %v", tt.name, nc, err)
		}
		if err == nil && s.Name != tt.want {
			t.Errorf("Resolve(%q, env %v) = %s, want %s", tt.name, tt.env, s.Name, tt.want)
		}
	}
}

// TestMonoHasNoColour renders every style of the mono theme under a true-colour profile and
// checks no colour sequence appears: NO_COLOR must mean no colour, not fewer colours.
func TestMonoHasNoColour(t *testing.T) {
	lipgloss.SetColorProfile(termenv.TrueColor)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	s := New(palettes["mono"])
	for _, st := range []lipgloss.Style{s.Text.Normal, s.Text.Muted, s.Text.Accent, s.Text.Warn, s.Text.Crit,
		s.Row.Selected, s.Row.SelectedBlur, s.Bar.Fill, s.Bar.Over, s.Status.Paused, s.Pane.Border, s.Pane.FocusedTitle} {
		out := st.Render("x")
		if strings.Contains(out, "38;") || strings.Contains(out, "48;") {
			t.Errorf("mono style renders colour: %q", out)
		}
	}
	if s.Pane.FocusedChars == s.Pane.Chars {
		t.Error("mono: the focused frame must differ from the others without colour")
	}
	d := New(palettes["dark"])
	if out := d.Text.Crit.Render("x"); !strings.Contains(out, "38;2;") {
		t.Errorf("dark crit should be coloured under true colour, got %q", out)
	}
}

func TestNames(t *testing.T) {
	got := strings.Join(Names(), ",")
	if got != "dark,high-contrast,light,mono" {
		t.Errorf("Names() = %s", got)
	}
}

func TestForProfile(t *testing.T) {
	p, _ := Lookup("dark")
	for _, tt := range []struct {
		prof termenv.Profile
		want lipgloss.TerminalColor
	}{
		{termenv.TrueColor, lipgloss.Color("#58a6ff")},
		{termenv.ANSI256, lipgloss.Color("75")},
		{termenv.ANSI, lipgloss.Color("12")},
		{termenv.Ascii, lipgloss.NoColor{}},
	} {
		got := ForProfile(p, tt.prof).FocusBorder
		if got != tt.want {
			t.Errorf("%v: %#v, want %#v", tt.prof, got, tt.want)
		}
		// A converted colour renders exactly as lipgloss would have rendered the original.
		if tt.prof != termenv.Ascii {
			orig := tt.prof.Color(string(p.FocusBorder.(lipgloss.Color)))
			conv := tt.prof.Color(string(got.(lipgloss.Color)))
			if orig.Sequence(false) != conv.Sequence(false) {
				t.Errorf("%v: %q vs %q", tt.prof, orig.Sequence(false), conv.Sequence(false))
			}
		}
	}
}

// TestConvertReachesEveryRole: Convert gives every role of the tree its converted form (a role
// added to Set needs no change elsewhere), and keeps the name, mono flag and border glyphs.
func TestConvertReachesEveryRole(t *testing.T) {
	st, err := Resolve("dark", false)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	out := Convert(st, func(lipgloss.Style) int { n++; return n })
	var seen []int
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Int:
			if v.Int() == 0 {
				t.Errorf("%s was not converted", path)
			}
			seen = append(seen, int(v.Int()))
		case reflect.Struct:
			if v.Type() == reflect.TypeOf(lipgloss.Border{}) {
				return
			}
			for i := 0; i < v.NumField(); i++ {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		}
	}
	walk(reflect.ValueOf(out), "Set")
	if len(seen) != n || n < 40 {
		t.Errorf("%d roles converted, %d int fields seen", n, len(seen))
	}
	if out.Name != st.Name || out.Mono != st.Mono || out.Pane.FocusedChars != st.Pane.FocusedChars {
		t.Errorf("name, mono or border glyphs not kept: %q %v", out.Name, out.Mono)
	}
}

// TestDerivedRolesFollowMono: the derived roles are built after the mono overrides, so the note
// beside a mono title is the mono title without bold.
func TestDerivedRolesFollowMono(t *testing.T) {
	st, err := Resolve("mono", false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := st.Pane.FocusedNote.GetReverse(), st.Pane.FocusedTitle.GetReverse(); got != want || st.Pane.FocusedNote.GetBold() {
		t.Errorf("mono focused note: reverse %v (title %v), bold %v", got, want, st.Pane.FocusedNote.GetBold())
	}
	if !st.Text.Brand.GetBold() || !st.Status.Host.GetBold() {
		t.Error("brand and host are not bold")
	}
}

// issue 16: the built-in themes are theme files a user can copy; they read back to the colours
// the monitor always had, with the value states taking their roles when left out.
func TestBuiltinThemeFiles(t *testing.T) {
	for _, n := range []string{"dark", "light", "high-contrast", "mono"} {
		data, err := Builtin(n)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Parse(n, n+".toml", data)
		if err != nil {
			t.Fatal(err)
		}
		if p.Invalid == nil || p.Unavailable == nil || p.Error == nil {
			t.Errorf("%s: value states unset: %+v", n, p)
		}
	}
	d, _ := Lookup("dark")
	if d.Fg != lipgloss.Color("#c9d1d9") || d.Crit != lipgloss.Color("#f85149") || d.Unavailable != lipgloss.Color("#d29922") {
		t.Errorf("dark: %+v", d)
	}
	if m, _ := Lookup("mono"); !m.Mono {
		t.Error("mono is not mono")
	}
	if _, err := Builtin("pink"); err == nil {
		t.Error("a built-in pink")
	}
}

func TestParseThemeErrors(t *testing.T) {
	full := "fg = \"#000000\"\nbg = \"#ffffff\"\nmuted = \"240\"\naccent = \"#000000\"\nborder = \"none\"\nfocus_border = \"#000000\"\nsel_fg = \"#000000\"\nsel_bg = \"#000000\"\nok = \"#000000\"\nwarn = \"#000000\"\ncrit = \"#000000\"\n"
	p, err := Parse("x", "x.toml", []byte(full))
	if err != nil || p.Muted != lipgloss.Color("240") || p.Invalid != p.Muted {
		t.Fatalf("%v %+v", err, p)
	}
	for _, c := range []struct{ text, want string }{
		{strings.Replace(full, "fg = \"#000000\"", "fg = \"greenish\"", 1), `x.toml:1:6: fg: want "#rrggbb", a 256-colour number ("214") or "none", got "greenish"`},
		// Issue 29 item 16: a value of the wrong kind, or a colour that is none, at its line and
		// column in the file's words, never a Go type.
		{strings.Replace(full, "accent = \"#000000\"", "accent = 214", 1), `x.toml:4:10: accent: want "#rrggbb", a 256-colour number ("214") or "none", in quotes, got 214`},
		{strings.Replace(full, "muted = \"240\"", "muted = \"#zz0000\"", 1), `x.toml:3:9: muted: want "#rrggbb", a 256-colour number ("214") or "none", got "#zz0000"`},
		{full + "mono = \"yes\"\n", `x.toml:12:8: mono: want true or false, got "yes"`},
		{full + "[colours]\n", `x.toml:12:2: colours: unknown key (a theme's keys: fg,`},
		{strings.Replace(full, "crit = \"#000000\"\n", "", 1), `x.toml: crit is missing`},
		{full + "colour = \"#000000\"\n", `x.toml:12:1: colour: unknown key`},
		{strings.Replace(full, "240", "256", 1), `x.toml:3:9: muted: want "#rrggbb", a 256-colour number ("214") or "none", got "256"`},
		// issue 32 item 10: a text colour without a background, or the other way round.
		{strings.Replace(full, "bg = \"#ffffff\"\n", "", 1), `x.toml: fg is "#000000" but bg is "none": set both`},
		{strings.Replace(full, "fg = \"#000000\"", "fg = \"none\"", 1), `x.toml: fg is "none" but bg is "#ffffff"`},
		{strings.Replace(full, "sel_bg = \"#000000\"", "sel_bg = \"none\"", 1), `x.toml: sel_fg is "#000000" but sel_bg is "none"`},
	} {
		if _, err := Parse("x", "x.toml", []byte(c.text)); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v, want %s", err, c.want)
		}
	}
	// A directory of themes: a theme by its file's name; one that does not parse names its file.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Sunset.toml"), []byte(full), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		mu.Lock()
		delete(palettes, "sunset")
		mu.Unlock()
	})
	if err := LoadDir(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := Lookup("sunset"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "broken.toml"), []byte("fg = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := LoadDir(dir); err == nil || !strings.Contains(err.Error(), "broken.toml:1:") {
		t.Fatalf("a broken theme: %v", err)
	}
	if err := LoadDir(filepath.Join(dir, "none")); err != nil {
		t.Fatalf("no themes directory: %v", err)
	}
}

// A user's theme file is outside data: its parser (places, the kinds, the colours) never panics,
// and whatever it accepts gives a palette with every role set (issue 29 item 16).
func FuzzParseTheme(f *testing.F) {
	for _, n := range []string{"dark", "light", "mono", "high-contrast"} {
		if data, err := Builtin(n); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("accent = 214\n"))
	f.Add([]byte("muted = \"#zz0000\"\n[colours]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("fuzz", "fuzz.toml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.toml") {
				t.Fatalf("an error that does not name the file: %v", err)
			}
			return
		}
		if p.Fg == nil || p.Muted == nil || p.Accent == nil || p.Crit == nil || p.Invalid == nil || p.Error == nil {
			t.Fatalf("a palette with a role unset: %+v", p)
		}
	})
}

// issue 32 item 10: every built-in theme sets both the text colour and the background, or
// neither, for ordinary text and for the selection; one that sets them paints its ground.
func TestBuiltinThemesSetForegroundWithBackground(t *testing.T) {
	for _, n := range builtinNames() {
		p, err := Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, pair := range [][2]lipgloss.TerminalColor{{p.Fg, p.Bg}, {p.SelFg, p.SelBg}} {
			if isNone(pair[0]) != isNone(pair[1]) {
				t.Errorf("%s: foreground %v with background %v", n, pair[0], pair[1])
			}
		}
		st := New(ForProfile(p, termenv.TrueColor))
		_, hasBg := st.Screen.GetBackground().(lipgloss.NoColor)
		if hasBg == !isNone(p.Bg) {
			t.Errorf("%s: the screen's ground does not follow bg %v: %v", n, p.Bg, st.Screen.GetBackground())
		}
	}
	if l, _ := Lookup("light"); isNone(l.Bg) {
		t.Error("light has no background: near-black text on a dark terminal")
	}
}
