package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"dcimon/namespace"
	"dcimon/views"
)

// modalKey gives a key to the modal on screen (help, form, filter or go-to): a modal takes every
// key while it is open.
func (m *Model) modalKey(km tea.KeyMsg) tea.Cmd {
	switch m.modal {
	case modalHelp:
		m.helpKey(km)
	case modalForm:
		return m.formKey(km)
	case modalFilter:
		m.filterKey(km)
	case modalGoto:
		return m.gotoKey(km)
	}
	return nil
}

// helpKey closes or scrolls the help screen.
func (m *Model) helpKey(km tea.KeyMsg) {
	switch {
	case key.Matches(km, m.ovKeys.Close):
		m.modal = modalNone
	case key.Matches(km, m.ovKeys.Up):
		m.scrollHelp(-1)
	case key.Matches(km, m.ovKeys.Down):
		m.scrollHelp(1)
	}
}

// filterKey edits the filter being typed, applying it as it changes; Esc clears it.
func (m *Model) filterKey(km tea.KeyMsg) {
	switch {
	case key.Matches(km, m.inKeys.Accept):
		m.modal = modalNone
	case key.Matches(km, m.inKeys.Cancel):
		m.modal = modalNone
		m.setTypedFilter("")
	default:
		if m.input.Update(km) {
			m.setTypedFilter(m.input.Value())
		}
	}
}

// setTypedFilter applies the filter being typed where it was opened: the process table's user,
// its rows, or the tree.
func (m *Model) setTypedFilter(text string) {
	if m.filterUser {
		m.values.SetUser(text)
		return
	}
	if m.filterValues {
		m.values.SetFilter(text) // the process table's rows, not the tree's
		return
	}
	m.tree.SetFilter(text)
	m.syncSelection()
}

// openFilter opens the filter: the process table with the focus filters its own rows (by user or
// command line); from every other pane / filters the tree.
func (m *Model) openFilter() {
	m.modal, m.filterUser = modalFilter, false
	m.filterValues = m.focus == paneValues && m.values.Filterable()
	if m.filterValues {
		m.input = newLineInput(m.inKeys, m.values.Filter(), 200)
		return
	}
	m.input = newLineInput(m.inKeys, m.tree.Filter(), 200)
	m.setFocus(paneTree)
}

// clearAcceptedFilter clears, on Esc, the first filter accepted with Enter: the process table's
// user, its rows, then the tree's (issue 12), from any pane. It says whether one was cleared.
func (m *Model) clearAcceptedFilter() bool {
	switch {
	case m.values.User() != "":
		m.values.SetUser("")
		m.setFlash("every user's processes again", false)
	case m.values.Filter() != "":
		m.values.SetFilter("")
		m.setFlash("table filter cleared", false)
	case m.tree.Filter() != "":
		m.tree.SetFilter("")
		m.syncSelection()
		m.setFlash("filter cleared", false)
	default:
		return false
	}
	return true
}

// openForm opens the hotset form for the selected statistic, or to edit a peer set.
func (m *Model) openForm(edit *namespace.HotVals) {
	var spec namespace.HotSpec
	grandpa, stat := "", ""
	if edit != nil {
		spec = edit.Spec()
		grandpa, stat = edit.Path(), spec.Stat
	} else {
		ref := m.sel
		if m.focus == paneValues {
			ref = m.values.Selected()
		}
		if ref.Datum == nil || ref.Ctx == nil {
			m.setFlash("select a statistic to rank first (a row under a context in the tree)", true)
			return
		}
		gp := ref.Ctx
		if gp.Kind == namespace.CtxInstance && gp.Parent() != nil {
			gp = gp.Parent()
		}
		grandpa, stat = gp.Path(), ref.Datum.Name
		spec = namespace.HotSpec{MaxResp: 5, Feed: namespace.SiHotThreshold}
	}
	var meas views.Measure
	if c, d, err := m.hot.hs.Statistic(nil, grandpa, stat); err == nil {
		meas = m.vf.measure(c, d)
	}
	m.form = newHotForm(m.fKeys, m.inKeys, grandpa, stat, meas, spec, edit)
	m.modal = modalForm
}

// modalState is the mode that takes the keys before the global bindings, and what it holds.
type modalState struct {
	modal modal
	// filterValues says the filter being typed is the values table's, not the tree's;
	// filterUser that it is the user whose processes the table keeps (u).
	filterValues, filterUser bool
	helpOff                  int // first line of the help overlay shown
	input                    lineInput
	form                     *hotForm
}

// modal is the mode that intercepts keys before the global bindings.
type modal int

const (
	modalNone   modal = iota // none
	modalFilter              // filter
	modalGoto                // goto
	modalHelp                // help
	modalForm                // form
)

// formKey gives a key to the hotset form: Esc closes it, and a submitted form saves its hotset.
func (m *Model) formKey(km tea.KeyMsg) tea.Cmd {
	switch m.form.Update(km) {
	case formCancel:
		m.modal, m.form = modalNone, nil
	case formSubmit:
		spec, err := m.form.Spec()
		if err == nil {
			_, err = m.hot.Add(spec, m.form.edit)
		}
		if err != nil {
			m.form.err = views.PlainError(err) // the refusal in plain words (issue 32 item 4)
			return nil
		}
		m.modal, m.form = modalNone, nil
		m.setFocus(paneHot)
		m.setFlash("hotset "+spec.Grandpa+" "+spec.Stat+" saved", false)
		return m.hotsetsChanged()
	}
	return nil
}
