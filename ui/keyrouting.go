// Keys: the modal modes first, then the global bindings, then the focused pane (rule 3 at the
// top of model.go).

package ui

import (
	"slices"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// onKey routes a key to the first that takes it: the save question, a modal, the process table
// with the focus, the replay's cursor, the overview, the global bindings, the keys that move the
// focus, and last the focused pane.
func (m *Model) onKey(km tea.KeyMsg) tea.Cmd {
	if m.askingSave {
		return m.answerSave(km)
	}
	if m.modal != modalNone {
		return m.modalKey(km)
	}
	if cmd, ok := m.procTableKey(km); ok {
		return cmd
	}
	if m.rp != nil {
		if cmd, ok := m.onReplayKey(km); ok {
			return cmd
		}
	}
	if cmd, ok := m.overviewKey(km); ok {
		return cmd
	}
	if cmd, ok := m.globalKey(km); ok {
		return cmd
	}
	if m.paneKey(km) {
		return nil
	}
	if m.ov.on {
		return nil // no pane is on screen to take the key
	}
	cmd := m.pane(m.focus).handleKey(km)
	m.syncSelection()
	return cmd
}

// procTableKey gives the process table with the focus htop's keys, before the global ones (issue
// 32 item 7): its P, t, /, < and > are the table's there. ok says the key was taken.
func (m *Model) procTableKey(km tea.KeyMsg) (tea.Cmd, bool) {
	if m.ov.on || m.focus != paneValues || !m.values.ProcTable() {
		return nil, false
	}
	pk := m.values.pkeys
	switch {
	case key.Matches(km, pk.Search):
		m.modal, m.filterValues, m.filterUser = modalFilter, true, false
		m.input = newLineInput(m.inKeys, m.values.Filter(), 200)
		return nil, true
	case key.Matches(km, pk.User):
		m.modal, m.filterValues, m.filterUser = modalFilter, true, true
		m.input = newLineInput(m.inKeys, m.values.User(), 64)
		return nil, true
	}
	return m.values.procKey(km)
}

// overviewKey gives the overview its keys, or opens it; a key that asks for the panes closes it
// and is not taken (ok false), so the panes then do what it asks.
func (m *Model) overviewKey(km tea.KeyMsg) (tea.Cmd, bool) {
	k := m.keys
	if !m.ov.on {
		if key.Matches(km, k.Overview) {
			m.ov.on = true
			return nil, true
		}
		return nil, false
	}
	if len(m.ov.paths) == 0 && m.lay.Mode != modeTooSmall {
		m.overviewView(m.w, max(m.lay.Status.Y-1, 0)) // the numbers on screen, for the cursor
	}
	if cmd, ok := m.hostsKey(km); ok { // a fleet's hosts table (hosts.go)
		return cmd, true
	}
	switch {
	case key.Matches(km, m.oKeys.Up):
		m.ov.cursor = max(m.ov.cursor-1, 0)
		m.touch()
		return nil, true
	case key.Matches(km, m.oKeys.Down):
		m.ov.cursor = min(m.ov.cursor+1, max(len(m.ov.paths)-1, 0))
		m.touch()
		return nil, true
	case key.Matches(km, m.oKeys.Open):
		return m.openOverviewRow(), true
	case key.Matches(km, k.Overview):
		m.ov.on = false
		return nil, true
	case m.asksForPanes(km):
		m.ov.on = false // the panes, then what the key asks there
		// A go-to of a time (:@03:12) comes back to the overview (modalGoto).
		m.gotoFromOverview = key.Matches(km, k.Goto)
	}
	return nil, false
}

// openOverviewRow leaves the overview for the row under its cursor.
func (m *Model) openOverviewRow() tea.Cmd {
	if m.ov.cursor >= len(m.ov.paths) {
		return nil
	}
	m.ov.on = false
	path := m.ov.paths[m.ov.cursor]
	return func() tea.Msg { return openMsg{path} }
}

// asksForPanes says the key is one of the panes' (filter, go-to, a pane's focus, the processes):
// from the overview it leaves for the panes.
func (m *Model) asksForPanes(km tea.KeyMsg) bool {
	k := m.keys
	return key.Matches(km, k.Filter) || key.Matches(km, k.Goto) || key.Matches(km, k.NextPane) || key.Matches(km, k.PrevPane) || key.Matches(km, k.Procs) ||
		key.Matches(km, k.Tree) || key.Matches(km, k.Values) || key.Matches(km, k.Hot) || key.Matches(km, k.Insp) || key.Matches(km, k.Evs)
}

// globalKey does what the keys that mean the same in every pane ask. ok says the key was taken.
func (m *Model) globalKey(km tea.KeyMsg) (tea.Cmd, bool) {
	k := m.keys
	switch {
	case key.Matches(km, k.Quit):
		return tea.Quit, true
	case key.Matches(km, k.Help):
		m.modal, m.helpOff = modalHelp, 0
		return nil, true
	case key.Matches(km, k.Filter):
		m.openFilter()
		return nil, true
	case key.Matches(km, k.Procs):
		return m.openProcs(), true
	case key.Matches(km, k.Goto):
		m.modal = modalGoto
		m.input = newLineInput(m.inKeys, "", 200)
		return nil, true
	case key.Matches(km, k.Theme):
		m.nextTheme()
		return nil, true
	case key.Matches(km, k.Refresh):
		return m.refreshNow(), true
	case key.Matches(km, k.Pause):
		return m.togglePause(), true
	case key.Matches(km, k.Longer), key.Matches(km, k.Shorter):
		return m.stepRefresh(km), true
	case key.Matches(km, m.inKeys.Cancel):
		return nil, m.clearAcceptedFilter()
	}
	return nil, false
}

// openProcs shows the processes, ranked by I/O when the selection is a disk, a file system or an
// interface: the table does not pretend to know which process uses that device.
func (m *Model) openProcs() tea.Cmd {
	top := ""
	for c := m.sel.Ctx; c != nil && c.Parent() != nil; c = c.Parent() {
		top = c.Name
	}
	ref, err := m.reg.Lookup(nil, "Proc")
	if err != nil {
		m.setFlash("this source has no processes", true)
		return nil
	}
	m.tree.Reveal(ref.Path())
	m.syncSelection()
	m.setFocus(paneValues)
	if top == "Disk" || top == "FS" || top == "NetIf" {
		m.procsByIO = !m.values.SortBy("io/s")
		m.setFlash("processes by storage I/O (which process uses which disk, the kernel does not say)", false)
	}
	return m.resubscribe()
}

// paneKey moves the focus to the next, the previous or a named pane; it says whether the key did.
func (m *Model) paneKey(km tea.KeyMsg) bool {
	k := m.keys
	switch {
	case key.Matches(km, k.NextPane):
		m.setFocus((m.focus + 1) % numPanes)
	case key.Matches(km, k.PrevPane):
		m.setFocus((m.focus + numPanes - 1) % numPanes)
	default:
		p := slices.IndexFunc([]key.Binding{k.Tree, k.Values, k.Hot, k.Insp, k.Evs}, func(b key.Binding) bool { return key.Matches(km, b) })
		if p < 0 {
			return false
		}
		m.setFocus(paneID(p))
	}
	m.syncSelection()
	return true
}
