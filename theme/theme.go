// Package theme turns a palette of semantic colours into the one Styles struct every pane of the
// monitor draws with, so that no pane ever declares a colour (house style rule 12).
//
// A palette names roles, not hues: text, muted text, accent, borders, selection, and the three
// health levels ok, warn and crit. Four palettes are built in (dark, light, high-contrast and
// mono); mono uses no colour at all and carries every distinction by attribute (bold, underline,
// reverse), which is also what NO_COLOR selects (https://no-color.org).
package theme

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Palette is the set of semantic colour roles a theme fills in.
type Palette struct {
	Name string
	Fg   lipgloss.TerminalColor // ordinary text
	// Bg is the screen's background. A theme sets Fg and Bg both, or neither ("none"): text of a
	// set colour on the terminal's own background is unreadable on a terminal of the other shade
	// (issue 32 item 10).
	Bg          lipgloss.TerminalColor
	Muted       lipgloss.TerminalColor // secondary text: units, descriptions, empty bar cells
	Accent      lipgloss.TerminalColor // titles, headers, the sorted column, sparklines
	Border      lipgloss.TerminalColor // pane borders
	FocusBorder lipgloss.TerminalColor // the focused pane's border and title
	SelFg       lipgloss.TerminalColor // selected row text
	SelBg       lipgloss.TerminalColor // selected row background
	OK          lipgloss.TerminalColor // healthy suppliers, bars within range
	Warn        lipgloss.TerminalColor // degraded suppliers, values near the top of their scale
	Crit        lipgloss.TerminalColor // dead suppliers, errors, values above their scale
	// The states of a value: invalid (no rate yet, not valid for the instance), unavailable
	// (n/a), an error; a valid value is Fg.
	Invalid, Unavailable, Error lipgloss.TerminalColor
	// Mono says the palette has no colours: distinctions are made by attribute only.
	Mono bool
}

// Default is the theme used when none is named.
const Default = "dark"

// Names lists the themes, built in and the user's, in alphabetical order.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]string, 0, len(palettes))
	for n := range palettes {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Lookup returns the named built-in palette; the name is case-insensitive and "" is Default.
func Lookup(name string) (Palette, error) {
	if name == "" {
		name = Default
	}
	mu.RLock()
	p, ok := palettes[strings.ToLower(name)]
	mu.RUnlock()
	if !ok {
		return Palette{}, fmt.Errorf("theme: unknown theme %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return p, nil
}

// Resolve returns the styles of the named theme, or of mono when noColor is set (the caller reads
// NO_COLOR from the environment; a set NO_COLOR overrides any theme name, even an unknown one).
// The colours are converted once to the terminal's colour profile (ForProfile).
func Resolve(name string, noColor bool) (Styles, error) {
	if noColor {
		p, _ := Lookup("mono")
		return New(p), nil
	}
	p, err := Lookup(name)
	if err != nil {
		return Styles{}, err
	}
	return New(ForProfile(p, lipgloss.ColorProfile())), nil
}

// ForProfile converts every colour of the palette to what the terminal profile can show (the
// nearest of 256 or 16 colours, or none), once. lipgloss would otherwise convert each hex colour
// on every render, which was a quarter of the monitor's CPU time on a 256-colour terminal.
func ForProfile(p Palette, prof termenv.Profile) Palette {
	conv := func(c lipgloss.TerminalColor) lipgloss.TerminalColor {
		hex, ok := c.(lipgloss.Color)
		if !ok {
			return c
		}
		switch tc := prof.Color(string(hex)).(type) {
		case termenv.ANSI256Color:
			return lipgloss.Color(strconv.Itoa(int(tc)))
		case termenv.ANSIColor:
			return lipgloss.Color(strconv.Itoa(int(tc)))
		case termenv.RGBColor:
			return lipgloss.Color(string(tc))
		}
		return lipgloss.NoColor{}
	}
	for _, c := range []*lipgloss.TerminalColor{&p.Fg, &p.Bg, &p.Muted, &p.Accent, &p.Border, &p.FocusBorder,
		&p.SelFg, &p.SelBg, &p.OK, &p.Warn, &p.Crit, &p.Invalid, &p.Unavailable, &p.Error} {
		*c = conv(*c)
	}
	return p
}

// NoColor reports whether the NO_COLOR convention asks for no colour: the variable is set and
// not empty. getenv is os.Getenv in the program and a map in tests.
func NoColor(getenv func(string) string) bool { return getenv("NO_COLOR") != "" }
