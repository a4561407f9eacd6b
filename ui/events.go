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
// supplier resets and deaths, hotset exceptions with their severity, provider errors.
type eventsPane struct {
	st      *styles
	keys    *scrollKeys
	focused bool
	w, h    int
	loc     *time.Location

	events []namespace.Event
	offset int

	ver   uint64 // moved on when the list changes
	cache *renderCache[eventsKey]
}

// eventsKey is what the events pane's View reads besides the list (ver).
type eventsKey struct {
	ver          uint64
	w, h, offset int
}

func newEvents(st *styles, keys scrollKeys, loc *time.Location) eventsPane {
	return eventsPane{st: st, keys: &keys, loc: loc, cache: newRenderCache[eventsKey]()}
}

// SetSize sets the inner size of the pane.
func (p *eventsPane) SetSize(w, h int) {
	p.w, p.h = max(w, 0), max(h, 0)
	p.offset = clamp(p.offset, 0, max(len(p.events)-p.h, 0))
}

// Focus gives the pane the keyboard.
func (p *eventsPane) Focus() { p.focused = true }

// Blur takes the keyboard away.
func (p *eventsPane) Blur() { p.focused = false }

// SetEvents replaces the list (newest first). When the view was scrolled down, it stays on the
// same events as new ones arrive on top.
func (p *eventsPane) SetEvents(evs []namespace.Event) {
	if p.offset > 0 {
		p.offset += max(len(evs)-len(p.events), 0)
	}
	p.events = evs
	p.ver = p.cache.next()
	p.offset = clamp(p.offset, 0, max(len(p.events)-p.h, 0))
}

// Len is the number of events held.
func (p *eventsPane) Len() int { return len(p.events) }

// Scroll moves the list by n lines, for the mouse wheel.
func (p *eventsPane) Scroll(n int) { p.offset = clamp(p.offset+n, 0, max(len(p.events)-p.h, 0)) }

// Update handles the pane's keys.
func (p eventsPane) Update(msg tea.Msg) (eventsPane, tea.Cmd) {
	if km, ok := msg.(tea.KeyMsg); ok {
		p.offset = scrollKey(p.keys.listKeys, km, p.offset, len(p.events), p.h)
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
func (p eventsPane) View() string {
	lines, _ := p.view()
	return strings.Join(lines, "\n")
}

// view is View as lines exactly w wide, h of them, with their gen (see renderCache): drawn
// again only when what it shows changed.
func (p *eventsPane) view() ([]string, uint64) {
	k := eventsKey{ver: p.ver, w: p.w, h: p.h, offset: p.offset}
	if s, gen, ok := p.cache.get(k); ok {
		return s, gen
	}
	return p.cache.put(k, p.render())
}

func (p *eventsPane) render() []string {
	if p.w <= 0 || p.h <= 0 {
		return nil
	}
	if len(p.events) == 0 {
		return fitBlock([]string{p.st.Text.Muted.Render("no events yet")}, p.w, p.h)
	}
	loc := p.loc
	if loc == nil {
		loc = time.Local
	}
	// The DCI names when there is room (`INSTANCEADDED NetIf/eth9`, DCI-EVT-3), short words otherwise.
	kindW, short := 15, p.w < 56
	if short {
		kindW = 9
	}
	lines := make([]string, 0, p.h)
	for i := p.offset; i < min(p.offset+p.h, len(p.events)); i++ {
		e := p.events[i]
		ts := e.Time.In(loc).Format("15:04:05")
		kind := e.Kind.String()
		if short {
			kind = shortKind(e.Kind)
		}
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
	}
	return strings.ToLower(k.String())
}

// ShortHelp is the pane's help line.
func (p eventsPane) ShortHelp() []key.Binding { return []key.Binding{p.keys.Up, p.keys.Down} }

// FullHelp is the pane's help overlay column.
func (p eventsPane) FullHelp() [][]key.Binding { return [][]key.Binding{p.keys.all()} }
