package theme

import "github.com/charmbracelet/lipgloss"

// bubbletea v1 asks the terminal for its background colour in its package init (OSC 11 followed
// by a cursor position report), before main runs, for adaptive colours. dcimon has none (every
// palette names its colours), yet every start, headless commands included, waited a terminal
// round trip for the answer: an ssh round trip on a remote host, and termenv's whole 5-second
// timeout on a terminal that answers neither query. A late answer also ends up typed into the
// shell. Declaring the background up front stops the query: Go initialises packages in import
// path order among those whose imports are ready (Go 1.21 and later), and this package imports
// lipgloss but not bubbletea, and "dcimon/theme" sorts before "github.com/charmbracelet/bubbletea",
// so this init runs first. main's tests check that no query reaches the terminal.
func init() { lipgloss.SetHasDarkBackground(true) }
