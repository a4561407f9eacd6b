package ui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"

	"dcimon/theme"
)

// ink is a lipgloss style reduced to the escape sequences it puts around a line of text,
// worked out once when the monitor starts. lipgloss resolves every property of a style at
// every Render (colours, borders, margins, widths) even when it only sets a colour; a frame
// paints hundreds of cells, so painting is two concatenations instead. A style that does more
// than colours and attributes (underlined styles paint each character on its own, widths and
// padding move text) keeps lipgloss, as does text with tabs or line breaks, which lipgloss
// rewrites: Render returns exactly what lipgloss would.
type ink struct {
	pre, suf string
	exact    bool            // pre+text+suf is what lipgloss renders for a line of text
	style    *lipgloss.Style // a pointer: an ink is copied freely, a style is 552 bytes
}

// inkProbes are texts lipgloss must paint as pre+text+suf for a style to be reduced: empty,
// with spaces (which underlined styles paint apart) and wide or box-drawing characters.
var inkProbes = [...]string{"", " ", "x", "ab c", "  —│█  ", "名前"}

// The zero ink paints text as it is: a plain ink, exact with nothing around the text.

// newInk reduces st under the colour profile lipgloss renders with now: the monitor's for the
// whole run (the theme is resolved for it at the same moment).
func newInk(st lipgloss.Style) ink {
	k := ink{style: &st}
	r := st.Render("x")
	i := strings.IndexByte(r, 'x')
	if i < 0 || strings.IndexByte(r[i+1:], 'x') >= 0 {
		return k
	}
	k.pre, k.suf = r[:i], r[i+1:]
	for _, p := range inkProbes {
		if st.Render(p) != k.pre+p+k.suf {
			return k
		}
	}
	k.exact = true
	return k
}

// Render paints s as the style's lipgloss Render does.
func (k ink) Render(s string) string {
	if k.style != nil && (!k.exact || needsLipgloss(s)) {
		return k.style.Render(s)
	}
	if k.pre == "" && k.suf == "" {
		return s
	}
	return k.pre + s + k.suf
}

// write paints s onto sb without making a string of it first.
func (k ink) write(sb *strings.Builder, s string) {
	if k.style != nil && (!k.exact || needsLipgloss(s)) {
		sb.WriteString(k.style.Render(s))
		return
	}
	sb.WriteString(k.pre)
	sb.WriteString(s)
	sb.WriteString(k.suf)
}

// writePad paints pad(s, w) onto sb; writePadLeft paints padLeft(s, w). Neither makes a string
// of the padded text first.
func (k ink) writePad(sb *strings.Builder, s string, w int) { k.writePadded(sb, s, w, false) }

func (k ink) writePadLeft(sb *strings.Builder, s string, w int) { k.writePadded(sb, s, w, true) }

// writePadded is writePadLeft when left is set, else writePad. (A padding function as an argument
// would have every caller's builder escape to the heap.)
func (k ink) writePadded(sb *strings.Builder, s string, w int, left bool) {
	if k.style != nil && (!k.exact || needsLipgloss(s)) {
		if left {
			sb.WriteString(k.style.Render(padLeft(s, w)))
		} else {
			sb.WriteString(k.style.Render(pad(s, w)))
		}
		return
	}
	sb.WriteString(k.pre)
	if left {
		writePadLeft(sb, s, w)
	} else {
		writePad(sb, s, w)
	}
	sb.WriteString(k.suf)
}

// Style is the lipgloss style the ink was made from.
func (k ink) Style() lipgloss.Style { return *k.style }

// needsLipgloss reports whether lipgloss rewrites s before painting it (tabs become spaces,
// line breaks are painted line by line).
func needsLipgloss(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\t' || c == '\n' || c == '\r' {
			return true
		}
	}
	return false
}

// styles are the theme's styles as inks, in the theme's own shape (house style rule 12: the
// theme decides every colour; this only makes painting with them cheap). A role added to the
// theme is here without a change: theme.Convert walks the whole tree.
type styles struct {
	theme theme.Styles
	theme.Set[ink]
}

// newStyles turns the theme's styles into inks.
func newStyles(t theme.Styles) *styles {
	return &styles{theme: t, Set: theme.Convert(t, newInk)}
}
