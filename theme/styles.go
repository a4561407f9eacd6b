package theme

import "github.com/charmbracelet/lipgloss"

// Styles is every style the monitor draws with, built from one palette by New. Panes take it by
// value (it is a tree of lipgloss styles, cheap to copy) and never build colours of their own.
type Styles struct {
	Name string
	Mono bool

	Text   TextStyles
	Pane   PaneStyles
	Row    RowStyles
	Table  TableStyles
	Tree   TreeStyles
	Bar    BarStyles
	Spark  lipgloss.Style
	Tabs   TabStyles
	Status StatusStyles
	Help   HelpStyles
	Input  InputStyles
}

// TextStyles are the plain text roles.
type TextStyles struct {
	Normal, Muted, Accent, Bold lipgloss.Style
	OK, Warn, Crit              lipgloss.Style
}

// PaneStyles draw a pane's frame: border glyphs and colours, and the title set into the top edge.
type PaneStyles struct {
	Chars, FocusedChars   lipgloss.Border
	Border, FocusedBorder lipgloss.Style // applied to the border glyphs
	Title, FocusedTitle   lipgloss.Style
}

// RowStyles mark the selected row of a list, in the focused pane and in the others.
type RowStyles struct {
	Selected, SelectedBlur lipgloss.Style
	Match                  lipgloss.Style // the part of a row the filter matched
}

// TableStyles are the header cells of a table.
type TableStyles struct {
	Header, HeaderSorted lipgloss.Style
}

// TreeStyles are the decorations of the name space tree.
type TreeStyles struct {
	Marker, Stat, Count lipgloss.Style
	Degraded, Dead      lipgloss.Style
}

// BarStyles colour a bar by where the value sits in its SPMI scale.
type BarStyles struct {
	Fill, High, Over, Empty lipgloss.Style
}

// TabStyles draw the tab strip of the compact layout.
type TabStyles struct {
	Active, Inactive lipgloss.Style
}

// StatusStyles draw the status bar.
type StatusStyles struct {
	Bar, Key, Value        lipgloss.Style
	Paused, OK, Warn, Crit lipgloss.Style
}

// HelpStyles draw key help (mapped onto bubbles/help styles by the UI).
type HelpStyles struct {
	Key, Desc, Sep lipgloss.Style
}

// InputStyles draw the filter, go-to and form inputs.
type InputStyles struct {
	Prompt, Text, Cursor, Error, Hint lipgloss.Style
}

// New builds the styles of a palette.
func New(p Palette) Styles {
	fg := func(c lipgloss.TerminalColor) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	s := Styles{Name: p.Name, Mono: p.Mono}
	s.Text = TextStyles{
		Normal: fg(p.Fg), Muted: fg(p.Muted), Accent: fg(p.Accent), Bold: fg(p.Fg).Bold(true),
		OK: fg(p.OK), Warn: fg(p.Warn), Crit: fg(p.Crit).Bold(true),
	}
	s.Pane = PaneStyles{
		Chars: lipgloss.RoundedBorder(), FocusedChars: lipgloss.RoundedBorder(),
		Border: fg(p.Border), FocusedBorder: fg(p.FocusBorder),
		Title: fg(p.Muted).Bold(true), FocusedTitle: fg(p.FocusBorder).Bold(true),
	}
	s.Row = RowStyles{
		Selected:     lipgloss.NewStyle().Foreground(p.SelFg).Background(p.SelBg).Bold(true),
		SelectedBlur: fg(p.Accent).Underline(false).Bold(true),
		Match:        fg(p.Accent).Underline(true),
	}
	s.Table = TableStyles{Header: fg(p.Muted).Bold(true), HeaderSorted: fg(p.Accent).Bold(true).Underline(true)}
	s.Tree = TreeStyles{Marker: fg(p.Muted), Stat: fg(p.Fg), Count: fg(p.Muted), Degraded: fg(p.Warn).Bold(true), Dead: fg(p.Crit).Bold(true)}
	s.Bar = BarStyles{Fill: fg(p.OK), High: fg(p.Warn), Over: fg(p.Crit), Empty: fg(p.Border)}
	s.Spark = fg(p.Accent)
	s.Tabs = TabStyles{Active: fg(p.FocusBorder).Bold(true).Underline(true), Inactive: fg(p.Muted)}
	s.Status = StatusStyles{
		Bar: fg(p.Fg), Key: fg(p.Muted), Value: fg(p.Fg),
		Paused: fg(p.Warn).Bold(true), OK: fg(p.OK), Warn: fg(p.Warn).Bold(true), Crit: fg(p.Crit).Bold(true),
	}
	s.Help = HelpStyles{Key: fg(p.Accent), Desc: fg(p.Muted), Sep: fg(p.Border)}
	s.Input = InputStyles{Prompt: fg(p.Accent).Bold(true), Text: fg(p.Fg), Cursor: lipgloss.NewStyle().Reverse(true),
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
		s.Bar.High, s.Bar.Over = lipgloss.NewStyle().Bold(true), lipgloss.NewStyle().Bold(true)
		s.Status.Paused, s.Status.Warn, s.Status.Crit = lipgloss.NewStyle().Reverse(true), s.Text.Warn, s.Text.Crit
		s.Tabs.Active = lipgloss.NewStyle().Reverse(true)
	}
	return s
}
