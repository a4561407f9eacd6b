package ui

// The key line (issue 42 item 1): when the hints do not fit the width, the least important go
// first, and `? help` and `q quit` stay whatever the width: bubbles' help cut the line's end,
// which is where quit was.

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
)

// keyLine is the short help of bs in w cells: the hints in order, the first ones the most
// important, dropped from the end until the line fits, with keep (help, quit) always at its end.
func keyLine(hm help.Model, bs []key.Binding, keep []key.Binding, w int) string {
	hm.Width = 0 // measured here: the help model's own cut drops the end, quit with it
	rest := make([]key.Binding, 0, len(bs))
	for _, b := range bs {
		if !kept(b, keep) {
			rest = append(rest, b)
		}
	}
	for n := len(rest); n >= 0; n-- {
		line := " " + hm.ShortHelpView(append(rest[:n:n], keep...))
		if width(line) <= w || n == 0 {
			return fitLine(line, w)
		}
	}
	return fitLine("", w)
}

// kept says whether b is one of keep (the same help text: the bindings are copies).
func kept(b key.Binding, keep []key.Binding) bool {
	for _, k := range keep {
		if b.Help() == k.Help() {
			return true
		}
	}
	return false
}
