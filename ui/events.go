package ui

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"dcimon/namespace"
)

// eventsPane lists the event log newest first: instances added and removed (DCI-EVT-3),
// supplier resets and deaths, hotset exceptions with their severity, provider errors. The
// selected event is shown whole in the inspector (a provider's error is longer than a row), and
// enter opens its context in the tree.
type eventsPane struct {
	st   *styles
	keys *eventsKeys
	paneBox
	loc *time.Location

	events []namespace.Event
	seq    uint64 // the log's count of events when events was read
	cursor int
	offset int

	ver   uint64 // moved on when the list changes
	cache *renderCache[listViewKey]
}

func newEvents(st *styles, keys eventsKeys, loc *time.Location) eventsPane {
	return eventsPane{st: st, keys: &keys, loc: loc, cache: newRenderCache[listViewKey]()}
}

// SetSize sets the inner size of the pane.
func (p *eventsPane) SetSize(w, h int) {
	p.w, p.h = max(w, 0), max(h, 0)
	p.scrollToCursor()
}

// SetEvents replaces the list (newest first); seq is the log's count of events ever added. At
// the top, the pane follows the newest event; moved down, it stays on the event it was on (and
// the view with it) as new ones arrive above.
func (p *eventsPane) SetEvents(evs []namespace.Event, seq uint64) {
	if fresh := int(min(seq-p.seq, uint64(len(evs)))); p.seq != 0 && (p.cursor > 0 || p.offset > 0) {
		p.cursor += fresh
		p.offset += fresh
	}
	p.events, p.seq = evs, seq
	p.ver = p.cache.next()
	p.cursor = clamp(p.cursor, 0, max(len(p.events)-1, 0))
	p.offset = clamp(p.offset, 0, max(len(p.events)-p.h, 0))
	p.scrollToCursor()
}

// Len is the number of events held.
func (p *eventsPane) Len() int { return len(p.events) }

// Selected is the event under the cursor.
func (p *eventsPane) Selected() (namespace.Event, bool) {
	if p.cursor >= len(p.events) {
		return namespace.Event{}, false
	}
	return p.events[p.cursor], true
}

// Scroll moves the view by n lines, for the mouse wheel; the cursor stays in view.
func (p *eventsPane) Scroll(n int) {
	p.offset = clamp(p.offset+n, 0, max(len(p.events)-p.h, 0))
	p.cursor = clamp(p.cursor, p.offset, max(min(p.offset+p.h, len(p.events))-1, p.offset))
}

// ClickRow selects the event on row y of the pane.
func (p *eventsPane) ClickRow(y int) {
	if i := p.offset + y; i < len(p.events) {
		p.moveTo(i)
	}
}

func (p *eventsPane) moveTo(i int) {
	p.cursor = clamp(i, 0, max(len(p.events)-1, 0))
	p.scrollToCursor()
}

func (p *eventsPane) scrollToCursor() {
	if p.h <= 0 {
		return
	}
	p.offset = keepInView(p.cursor, p.offset, p.h, len(p.events))
}

// Update handles the pane's keys: the list keys move the cursor; enter opens the selected
// event's context in the tree when it still exists.
func (p eventsPane) Update(msg tea.Msg) (eventsPane, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	k := p.keys
	if i, ok := cursorKey(k.listKeys, km, p.cursor, len(p.events), p.h-1); ok {
		p.moveTo(i)
		return p, nil
	}
	if e, ok := p.Selected(); ok && e.Path != "" && key.Matches(km, k.Open) {
		return p, openCmd(e.Path)
	}
	return p, nil
}

// kindStyle colours an event by how bad the news is.
func (p *eventsPane) kindStyle(k namespace.EventKind) ink {
	switch k {
	case namespace.EvInstanceRemoved, namespace.EvHotException, namespace.EvHotTrap, namespace.EvSupplierReset:
		return p.st.Text.Warn
	case namespace.EvSupplierDead, namespace.EvProviderError:
		return p.st.Text.Crit
	case namespace.EvInstanceAdded, namespace.EvSupplierAlive:
		return p.st.Text.OK
	}
	return p.st.Text.Muted
}

// View renders the visible events, exactly w×h.
func (p eventsPane) View() string { return joined(p.view()) }

// view is View as lines exactly w wide, h of them, with their gen (see renderCache): drawn
// again only when what it shows changed.
func (p *eventsPane) view() ([]string, uint64) {
	k := listViewKey{ver: p.ver, w: p.w, h: p.h, offset: p.offset, cursor: p.cursor, focused: p.focused}
	return p.cache.view(k, p.render)
}

func (p *eventsPane) render() []string {
	if p.w <= 0 || p.h <= 0 {
		return nil
	}
	if len(p.events) == 0 {
		return mutedBlock(p.st, "no events yet", p.w, p.h)
	}
	loc := p.loc
	if loc == nil {
		loc = time.Local
	}
	// Plain words at every width (issue 12: `added`, not `INSTANCEADDED`); the DCI name of each
	// kind is in the help overlay's legend (DCI-EVT-3).
	const kindW = 9
	lines := make([]string, 0, p.h)
	for i := p.offset; i < min(p.offset+p.h, len(p.events)); i++ {
		e := p.events[i]
		ts := e.Time.In(loc).Format("15:04:05")
		kind := shortKind(e.Kind)
		text := e.Text
		if text == "" || e.Kind == namespace.EvInstanceAdded || e.Kind == namespace.EvInstanceRemoved {
			text = e.Path
		}
		if e.Kind == namespace.EvHotException || e.Severity > 0 {
			// The severity goes first so a narrow pane never cuts it off (SPMI-HOT-15).
			sev := " severity " + strconv.Itoa(e.Severity)
			text = "sev " + strconv.Itoa(e.Severity) + " " + strings.TrimSuffix(text, sev)
		}
		rest := max(p.w-9-kindW-1, 0)
		if i == p.cursor {
			st := p.st.Row.SelectedBlur
			if p.focused {
				st = p.st.Row.Selected
			}
			lines = append(lines, st.Render(pad(ts+" "+pad(kind, kindW)+" "+safe(text), p.w)))
			continue
		}
		lines = append(lines, p.st.Text.Muted.Render(ts)+" "+p.kindStyle(e.Kind).Render(pad(kind, kindW))+" "+
			p.st.Text.Normal.Render(pad(safe(text), rest)))
	}
	return fitBlock(lines, p.w, p.h)
}

// shortKind is a word for an event kind in a narrow pane.
func shortKind(k namespace.EventKind) string {
	switch k {
	case namespace.EvInstanceAdded:
		return "added"
	case namespace.EvInstanceRemoved:
		return "removed"
	case namespace.EvSupplierReset:
		return "reset"
	case namespace.EvSupplierDead:
		return "dead"
	case namespace.EvSupplierAlive:
		return "alive"
	case namespace.EvProviderError:
		return "error"
	case namespace.EvHotException:
		return "exception"
	case namespace.EvHotTrap:
		return "trap"
	case namespace.EvDataChanged:
		return "changed"
	case namespace.EvDiscontinuity:
		return "jump"
	}
	return strings.ToLower(k.String())
}

// ShortHelp is the pane's help line.
func (p eventsPane) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.Up, p.keys.Down, p.keys.Open}
}

// FullHelp is the pane's help overlay column.
func (p eventsPane) FullHelp() [][]key.Binding {
	return [][]key.Binding{append(p.keys.all(), p.keys.Open)}
}

// restyle draws the pane again with the (changed) styles.
func (p *eventsPane) restyle() { p.ver = p.cache.next() }
