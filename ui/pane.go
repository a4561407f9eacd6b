package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// pane is what the root asks of every pane alike: focus, keys, scrolling, clicks, help, its
// lines and the note in its top edge. The root still holds the panes as concrete fields (house
// style rule 8) and sets each one's data through its own setters; m.pane(id) is the one place
// that turns a pane id into a pane, so nothing else switches over pane ids for plumbing.
type pane interface {
	Focus()
	Blur()
	// handleKey runs the pane's Update with a key, keeping the updated pane.
	handleKey(tea.KeyMsg) tea.Cmd
	Scroll(n int)
	// ClickRow selects the row y lines below the pane's top (a pane without rows ignores it).
	ClickRow(y int)
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
	// view is the pane's lines, each exactly width() cells, and a generation that changes when
	// they do.
	view() ([]string, uint64)
	width() int
	// note is the short text at the right of the pane's top edge.
	note() string
}

// pane is the pane with id p.
func (m *Model) pane(p paneID) pane {
	switch p {
	case paneTree:
		return m.tree
	case paneValues:
		return m.values
	case paneHot:
		return m.hot
	case paneInspector:
		return m.insp
	case paneEvents:
		return m.events
	}
	panic("ui: no pane " + strconv.Itoa(int(p)))
}

func (p *treePane) handleKey(km tea.KeyMsg) (cmd tea.Cmd)      { *p, cmd = p.Update(km); return cmd }
func (p *valuesPane) handleKey(km tea.KeyMsg) (cmd tea.Cmd)    { *p, cmd = p.Update(km); return cmd }
func (p *hotPane) handleKey(km tea.KeyMsg) (cmd tea.Cmd)       { *p, cmd = p.Update(km); return cmd }
func (p *inspectorPane) handleKey(km tea.KeyMsg) (cmd tea.Cmd) { *p, cmd = p.Update(km); return cmd }
func (p *eventsPane) handleKey(km tea.KeyMsg) (cmd tea.Cmd)    { *p, cmd = p.Update(km); return cmd }

// ClickRow does nothing: the inspector has no rows to select.
func (p *inspectorPane) ClickRow(int) {}

func (p *treePane) note() string {
	if p.Filter() != "" {
		return plural(p.Matches(), "match", "matches")
	}
	return plural(p.Len(), "row", "rows")
}

func (p *valuesPane) note() string {
	switch p.Mode() {
	case valuesTable:
		n := len(p.rows)
		if n > 0 && p.rows[0].totals {
			n--
		}
		return plural(n, "instance", "instances")
	case valuesStats:
		return plural(len(p.stats), "statistic", "statistics")
	case valuesChildren:
		return plural(len(p.kids), "subcontext", "subcontexts")
	}
	return ""
}

func (p *hotPane) note() string       { return plural(len(p.Entries()), "peer set", "peer sets") }
func (p *inspectorPane) note() string { return "" }
func (p *eventsPane) note() string    { return strconv.Itoa(p.Len()) }

// paneBox is what every pane has alike: its inner size and whether it has the keyboard.
type paneBox struct {
	w, h    int
	focused bool
}

// Focus gives the pane the keyboard.
func (b *paneBox) Focus() { b.focused = true }

// Blur takes the keyboard away.
func (b *paneBox) Blur() { b.focused = false }

func (b *paneBox) width() int { return b.w }

// joined is a pane's View from its view: the lines as one string.
func joined(lines []string, _ uint64) string { return strings.Join(lines, "\n") }
