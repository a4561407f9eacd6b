package ui

import (
	tea "github.com/charmbracelet/bubbletea"
)

// hotsetsChanged saves the hotsets to the configuration file as Options.SaveMode says: always,
// never, or ask once (y saves now and from then on in this run, n never in this run).
func (m *Model) hotsetsChanged() tea.Cmd {
	if m.opts.SaveHotsets == nil {
		return nil
	}
	if m.saveMode == "" {
		m.saveMode = m.opts.SaveMode
	}
	switch m.saveMode {
	case "always":
		return m.saveHotsetsCmd()
	case "ask":
		m.askingSave = true
		m.setFlash("save hotsets to "+m.opts.ConfigName+"? y: yes, from now on · n: not in this run", false)
	}
	return nil
}

// saveHotsetsCmd writes the hotsets off the UI goroutine.
func (m *Model) saveHotsetsCmd() tea.Cmd {
	cfgs, save := m.hot.Configs(), m.opts.SaveHotsets
	return func() tea.Msg { return hotsetsSavedMsg{save(cfgs)} }
}

// answerSave takes the key after the question: y saves, anything else does not.
func (m *Model) answerSave(km tea.KeyMsg) tea.Cmd {
	m.askingSave = false
	if km.String() == "y" || km.String() == "Y" {
		m.saveMode = "always"
		return m.saveHotsetsCmd()
	}
	m.saveMode = "never"
	m.setFlash("hotsets not saved to "+m.opts.ConfigName+" in this run", false)
	return nil
}

// hotsetSaving is what to do when the hotsets change (Options.SaveMode, the answer to "ask" once
// given); askingSave says the status line asks it now.
type hotsetSaving struct {
	saveMode   string
	askingSave bool
}
