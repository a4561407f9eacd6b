package theme

import (
	"reflect"

	"github.com/charmbracelet/lipgloss"
)

// Styles is every style the monitor draws with, built from one palette by New. Panes take it by
// value (it is a tree of lipgloss styles, cheap to copy) and never build colours of their own.
type Styles = Set[lipgloss.Style]

// Set is the tree of colour roles, with S the form a role takes: lipgloss styles here, the
// monitor's cheaper pre-rendered form in the UI (Convert). A new role is added once, in this
// tree and in New; every form of it follows.
type Set[S any] struct {
	Name string
	Mono bool

	// Screen is the ground every frame is drawn on: the theme's fg on its bg, or nothing when
	// the theme leaves both to the terminal. The monitor paints it under every cell.
	Screen S
	Text   TextStyles[S]
	Value  ValueStyles[S]
	Pane   PaneStyles[S]
	Row    RowStyles[S]
	Table  TableStyles[S]
	Tree   TreeStyles[S]
	Bar    BarStyles[S]
	Spark  S
	Tabs   TabStyles[S]
	Status StatusStyles[S]
	Help   HelpStyles[S]
	Input  InputStyles[S]
}

// TextStyles are the plain text roles; Brand is the monitor's name in the header.
type TextStyles[S any] struct {
	Normal, Muted, Accent, Bold S
	OK, Warn, Crit              S
	Brand                       S
}

// ValueStyles colour a value by its state.
type ValueStyles[S any] struct {
	Valid, Invalid, Unavailable, Error S
}

// PaneStyles draw a pane's frame: border glyphs and colours, and the title set into the top edge
// (Note: the title's colour without bold, for the note at the right of the edge).
type PaneStyles[S any] struct {
	Chars, FocusedChars   lipgloss.Border
	Border, FocusedBorder S // applied to the border glyphs
	Title, FocusedTitle   S
	Note, FocusedNote     S
}

// RowStyles mark the selected row of a list, in the focused pane and in the others.
type RowStyles[S any] struct {
	Selected, SelectedBlur S
	Match                  S // the part of a row the filter matched
}

// TableStyles are the header cells of a table.
type TableStyles[S any] struct {
	Header, HeaderSorted S
}

// TreeStyles are the decorations of the name space tree.
type TreeStyles[S any] struct {
	Marker, Stat, Count S
	Degraded, Dead      S
}

// BarStyles colour a bar by where the value sits in its SPMI scale.
type BarStyles[S any] struct {
	Fill, High, Over, Empty S
}

// TabStyles draw the tab strip of the compact layout.
type TabStyles[S any] struct {
	Active, Inactive S
}

// StatusStyles draw the status bar; Host is the host's name, the value's colour in bold.
type StatusStyles[S any] struct {
	Bar, Key, Value, Host  S
	Paused, OK, Warn, Crit S
}

// HelpStyles draw key help (mapped onto bubbles/help styles by the UI).
type HelpStyles[S any] struct {
	Key, Desc, Sep S
}

// InputStyles draw the filter, go-to and form inputs.
type InputStyles[S any] struct {
	Prompt, Text, Cursor, Error, Hint S
}

// Convert turns every role of s into another form with f, keeping the names, the mono flag and
// the border glyphs. It walks the tree by reflection, so it never needs to be told of a new role.
func Convert[T any](s Styles, f func(lipgloss.Style) T) Set[T] {
	var out Set[T]
	convert(reflect.ValueOf(s), reflect.ValueOf(&out).Elem(), func(v reflect.Value) reflect.Value {
		return reflect.ValueOf(f(v.Interface().(lipgloss.Style)))
	})
	return out
}

var styleType = reflect.TypeOf(lipgloss.Style{})

func convert(in, out reflect.Value, f func(reflect.Value) reflect.Value) {
	switch {
	case in.Type() == styleType:
		out.Set(f(in))
	case in.Kind() == reflect.Struct && in.Type() != out.Type():
		for i := 0; i < in.NumField(); i++ {
			convert(in.Field(i), out.Field(i), f)
		}
	default:
		out.Set(in)
	}
}

// New builds the styles of a palette.
func New(p Palette) Styles {
	fg := func(c lipgloss.TerminalColor) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	s := Styles{Name: p.Name, Mono: p.Mono}
	if p.Bg != nil && p.Fg != nil {
		s.Screen = lipgloss.NewStyle().Foreground(p.Fg).Background(p.Bg)
	}
	s.Text = TextStyles[lipgloss.Style]{
		Normal: fg(p.Fg), Muted: fg(p.Muted), Accent: fg(p.Accent), Bold: fg(p.Fg).Bold(true),
		OK: fg(p.OK), Warn: fg(p.Warn), Crit: fg(p.Crit).Bold(true),
	}
	s.Value = ValueStyles[lipgloss.Style]{Valid: fg(p.Fg), Invalid: fg(p.Invalid), Unavailable: fg(p.Unavailable), Error: fg(p.Error).Bold(true)}
	s.Pane = PaneStyles[lipgloss.Style]{
		Chars: lipgloss.RoundedBorder(), FocusedChars: lipgloss.RoundedBorder(),
		Border: fg(p.Border), FocusedBorder: fg(p.FocusBorder),
		Title: fg(p.Muted).Bold(true), FocusedTitle: fg(p.FocusBorder).Bold(true),
	}
	s.Row = RowStyles[lipgloss.Style]{
		Selected:     lipgloss.NewStyle().Foreground(p.SelFg).Background(p.SelBg).Bold(true),
		SelectedBlur: fg(p.Accent).Underline(false).Bold(true),
		Match:        fg(p.Accent).Underline(true),
	}
	s.Table = TableStyles[lipgloss.Style]{Header: fg(p.Muted).Bold(true), HeaderSorted: fg(p.Accent).Bold(true).Underline(true)}
	s.Tree = TreeStyles[lipgloss.Style]{Marker: fg(p.Muted), Stat: fg(p.Fg), Count: fg(p.Muted), Degraded: fg(p.Warn).Bold(true), Dead: fg(p.Crit).Bold(true)}
	s.Bar = BarStyles[lipgloss.Style]{Fill: fg(p.OK), High: fg(p.Warn), Over: fg(p.Crit), Empty: fg(p.Border)}
	s.Spark = fg(p.Accent)
	s.Tabs = TabStyles[lipgloss.Style]{Active: fg(p.FocusBorder).Bold(true).Underline(true), Inactive: fg(p.Muted)}
	s.Status = StatusStyles[lipgloss.Style]{
		Bar: fg(p.Fg), Key: fg(p.Muted), Value: fg(p.Fg),
		Paused: fg(p.Warn).Bold(true), OK: fg(p.OK), Warn: fg(p.Warn).Bold(true), Crit: fg(p.Crit).Bold(true),
	}
	s.Help = HelpStyles[lipgloss.Style]{Key: fg(p.Accent), Desc: fg(p.Muted), Sep: fg(p.Border)}
	s.Input = InputStyles[lipgloss.Style]{Prompt: fg(p.Accent).Bold(true), Text: fg(p.Fg), Cursor: lipgloss.NewStyle().Reverse(true),
		Error: fg(p.Crit).Bold(true), Hint: fg(p.Muted)}
	if p.Mono {
		// Without colour every distinction is an attribute: the focused pane gets a thick frame
		// and a reversed title, the selection is reversed, warnings are bold, errors underlined.
		s.Pane.FocusedChars = lipgloss.ThickBorder()
		s.Pane.FocusedTitle = lipgloss.NewStyle().Bold(true).Reverse(true)
		s.Pane.Title = lipgloss.NewStyle().Bold(true)
		s.Row.Selected = lipgloss.NewStyle().Reverse(true)
		s.Row.SelectedBlur = lipgloss.NewStyle().Underline(true)
		s.Text.Warn = lipgloss.NewStyle().Bold(true)
		s.Text.Crit = lipgloss.NewStyle().Bold(true).Underline(true)
		s.Tree.Degraded, s.Tree.Dead = s.Text.Warn, s.Text.Crit
		s.Value.Unavailable, s.Value.Error = s.Text.Warn, s.Text.Crit
		s.Bar.High, s.Bar.Over = lipgloss.NewStyle().Bold(true), lipgloss.NewStyle().Bold(true)
		s.Status.Paused, s.Status.Warn, s.Status.Crit = lipgloss.NewStyle().Reverse(true), s.Text.Warn, s.Text.Crit
		s.Tabs.Active = lipgloss.NewStyle().Reverse(true)
	}
	// Roles derived from others, after the mono ones are settled.
	s.Text.Brand = s.Text.Accent.Bold(true)
	s.Pane.Note, s.Pane.FocusedNote = s.Pane.Title.UnsetBold(), s.Pane.FocusedTitle.UnsetBold()
	s.Status.Host = s.Status.Value.Bold(true)
	return s
}
