package ui

import (
	"dcimon/namespace"
)

// syncSelection pushes the tree's selection to the values pane and the focused pane's selection
// to the inspector.
func (m *Model) syncSelection() {
	sel := m.tree.Selected()
	m.sel = sel
	if sel.Ctx != nil {
		m.values.SetSelection(m.reg, sel)
	}
	if m.procsByIO && m.values.SortBy("io/s") {
		m.procsByIO = false // the table has its columns now: ranked by I/O once, as P asked
	}
	m.hot.ShowFor(sel.Ctx)
	// What the inspector follows means something different in each pane, so this one
	// switch over pane ids stays here rather than in the pane interface.
	var target namespace.Ref
	switch m.focus {
	case paneTree:
		target = sel
	case paneValues:
		target = m.values.Selected()
	case paneHot:
		if e := m.hot.SelectedEntry(); e != nil && m.hot.OnHeader() {
			m.insp.SetPeerSet(m.reg, m.hot.hs, e)
			return
		}
		target = m.hot.Selected()
	case paneEvents:
		if e, ok := m.events.Selected(); ok {
			m.insp.SetEvent(m.reg, e)
		}
		return
	default:
		return // the inspector keeps what it shows
	}
	if target.Ctx == nil {
		target = sel
	}
	if target.Ctx != nil {
		m.insp.SetTarget(m.reg, target)
	}
}

// setFocus gives pane p the focus, taking it from every other.
func (m *Model) setFocus(p paneID) {
	if p < 0 || p >= numPanes {
		return
	}
	m.focus = p
	for q := range numPanes {
		m.pane(q).Blur()
	}
	m.pane(p).Focus()
}
