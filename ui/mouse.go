// Mouse: a click focuses and selects, the wheel scrolls, in the panes, the help and the form.

package ui

import (
	tea "github.com/charmbracelet/bubbletea"
)

// onMouse focuses and selects with a click and scrolls the pane under the pointer with the wheel.
func (m *Model) onMouse(msg tea.MouseMsg) {
	ev := tea.MouseEvent(msg)
	switch m.modal {
	case modalHelp:
		if ev.IsWheel() {
			m.scrollHelp(wheelStep(ev))
		}
		return
	case modalForm:
		m.onFormMouse(ev)
		return
	case modalNone:
	default:
		return
	}
	if m.lay.Mode == modeTooSmall {
		return
	}
	if m.lay.Mode == modeCompact && ev.Action == tea.MouseActionPress && ev.Button == tea.MouseButtonLeft && m.lay.Tabs.contains(ev.X, ev.Y) {
		for p, r := range tabRanges(m.w) {
			if ev.X >= r[0] && ev.X < r[1] {
				m.setFocus(paneID(p))
				m.syncSelection()
			}
		}
		return
	}
	target := paneID(-1)
	for p := paneTree; p < numPanes; p++ {
		if m.lay.Mode == modeCompact && p != m.focus {
			continue
		}
		if m.lay.Panes[p].Outer.contains(ev.X, ev.Y) {
			target = p
			break
		}
	}
	if target < 0 {
		return
	}
	if ev.IsWheel() {
		m.scrollPane(target, wheelStep(ev))
		m.syncSelection()
		return
	}
	if ev.Action != tea.MouseActionPress || ev.Button != tea.MouseButtonLeft {
		return
	}
	m.setFocus(target)
	in := m.lay.Panes[target].Inner
	if in.contains(ev.X, ev.Y) {
		y := ev.Y - in.Y
		msg := ""
		if target == paneValues {
			msg = m.values.ClickHeader(ev.X-in.X, y) // a click on a column's header sorts (htop's)
		}
		if msg != "" {
			m.setFlash(msg, false)
		} else {
			m.pane(target).ClickRow(y)
		}
	}
	m.syncSelection()
}

// formW is the hotset form's width.
func (m *Model) formW() int { return min(m.w-2, 90) }

// wheelStep is how far a wheel notch scrolls: three lines, up or down.
func wheelStep(ev tea.MouseEvent) int {
	if ev.Button == tea.MouseButtonWheelUp || ev.Button == tea.MouseButtonWheelLeft {
		return -3
	}
	return 3
}

// onFormMouse lets the mouse work the hotset form: a click focuses a field, a click on the
// focused choice field or the wheel over a choice field steps its choice.
func (m *Model) onFormMouse(ev tea.MouseEvent) {
	if m.form == nil {
		return
	}
	box := m.form.View(m.st, m.formW(), "")
	i := ev.Y - max((m.h-len(box))/2, 0) - formFieldsTop
	if i < 0 || i >= len(m.form.fields) {
		return
	}
	switch {
	case ev.IsWheel():
		m.form.focus = i
		m.form.step(i, wheelStep(ev)/3)
	case ev.Action == tea.MouseActionPress && ev.Button == tea.MouseButtonLeft:
		if m.form.focus == i {
			m.form.step(i, 1)
		}
		m.form.focus = i
	}
}

func (m *Model) scrollPane(p paneID, n int) { m.pane(p).Scroll(n) }
