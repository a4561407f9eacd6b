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
func (k ink) writePad(sb *strings.Builder, s string, w int) {
	if k.style != nil && (!k.exact || needsLipgloss(s)) {
		sb.WriteString(k.style.Render(pad(s, w)))
		return
	}
	sb.WriteString(k.pre)
	writePad(sb, s, w)
	sb.WriteString(k.suf)
}

func (k ink) writePadLeft(sb *strings.Builder, s string, w int) {
	if k.style != nil && (!k.exact || needsLipgloss(s)) {
		sb.WriteString(k.style.Render(padLeft(s, w)))
		return
	}
	sb.WriteString(k.pre)
	writePadLeft(sb, s, w)
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
// theme decides every colour; this only makes painting with them cheap), with the variants
// the monitor derives from them.
type styles struct {
	theme theme.Styles

	Text struct{ Normal, Muted, Accent, Bold, OK, Warn, Crit ink }
	Pane struct {
		Chars, FocusedChars   lipgloss.Border
		Border, FocusedBorder ink
		Title, FocusedTitle   ink
		Note, FocusedNote     ink // the title without bold, for the note at the right
	}
	Row    struct{ Selected, SelectedBlur, Match ink }
	Table  struct{ Header, HeaderSorted ink }
	Tree   struct{ Marker, Stat, Count, Degraded, Dead ink }
	Bar    struct{ Fill, High, Over, Empty ink }
	Spark  ink
	Tabs   struct{ Active, Inactive ink }
	Status struct {
		Bar, Key, Value, Host  ink // Host: the value in bold
		Paused, OK, Warn, Crit ink
	}
	Help  struct{ Key, Desc, Sep ink }
	Input struct{ Prompt, Text, Cursor, Error, Hint ink }
	Name  ink // the monitor's name in the header: the accent in bold
}

// newStyles turns the theme's styles into inks.
func newStyles(t theme.Styles) *styles {
	s := &styles{theme: t}
	s.Text.Normal, s.Text.Muted, s.Text.Accent, s.Text.Bold = newInk(t.Text.Normal), newInk(t.Text.Muted), newInk(t.Text.Accent), newInk(t.Text.Bold)
	s.Text.OK, s.Text.Warn, s.Text.Crit = newInk(t.Text.OK), newInk(t.Text.Warn), newInk(t.Text.Crit)
	s.Pane.Chars, s.Pane.FocusedChars = t.Pane.Chars, t.Pane.FocusedChars
	s.Pane.Border, s.Pane.FocusedBorder = newInk(t.Pane.Border), newInk(t.Pane.FocusedBorder)
	s.Pane.Title, s.Pane.FocusedTitle = newInk(t.Pane.Title), newInk(t.Pane.FocusedTitle)
	s.Pane.Note, s.Pane.FocusedNote = newInk(t.Pane.Title.UnsetBold()), newInk(t.Pane.FocusedTitle.UnsetBold())
	s.Row.Selected, s.Row.SelectedBlur, s.Row.Match = newInk(t.Row.Selected), newInk(t.Row.SelectedBlur), newInk(t.Row.Match)
	s.Table.Header, s.Table.HeaderSorted = newInk(t.Table.Header), newInk(t.Table.HeaderSorted)
	s.Tree.Marker, s.Tree.Stat, s.Tree.Count = newInk(t.Tree.Marker), newInk(t.Tree.Stat), newInk(t.Tree.Count)
	s.Tree.Degraded, s.Tree.Dead = newInk(t.Tree.Degraded), newInk(t.Tree.Dead)
	s.Bar.Fill, s.Bar.High, s.Bar.Over, s.Bar.Empty = newInk(t.Bar.Fill), newInk(t.Bar.High), newInk(t.Bar.Over), newInk(t.Bar.Empty)
	s.Spark = newInk(t.Spark)
	s.Tabs.Active, s.Tabs.Inactive = newInk(t.Tabs.Active), newInk(t.Tabs.Inactive)
	s.Status.Bar, s.Status.Key, s.Status.Value = newInk(t.Status.Bar), newInk(t.Status.Key), newInk(t.Status.Value)
	s.Status.Host = newInk(t.Status.Value.Bold(true))
	s.Status.Paused, s.Status.OK, s.Status.Warn, s.Status.Crit = newInk(t.Status.Paused), newInk(t.Status.OK), newInk(t.Status.Warn), newInk(t.Status.Crit)
	s.Help.Key, s.Help.Desc, s.Help.Sep = newInk(t.Help.Key), newInk(t.Help.Desc), newInk(t.Help.Sep)
	s.Input.Prompt, s.Input.Text, s.Input.Cursor = newInk(t.Input.Prompt), newInk(t.Input.Text), newInk(t.Input.Cursor)
	s.Input.Error, s.Input.Hint = newInk(t.Input.Error), newInk(t.Input.Hint)
	s.Name = newInk(t.Text.Accent.Bold(true))
	return s
}
