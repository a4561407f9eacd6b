package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"dcimon/namespace"
)

// runCmdReversed is runCmd delivering a batch's messages last first: the order bubbletea gives
// concurrent commands is not theirs.
func runCmdReversed(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	if cmd == nil {
		return m
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		for i := len(b) - 1; i >= 0; i-- {
			m = runCmdReversed(t, m, b[i])
		}
		return m
	}
	switch msg.(type) {
	case hotsetsChangedMsg:
		var next tea.Cmd
		m, next = sendCmd(t, m, msg)
		return runCmdReversed(t, m, next)
	case flashMsg, hotsetsSavedMsg, openMsg, formRequestMsg, sampleMsg:
		return send(t, m, msg)
	}
	return m
}

// Issue 41 item 8: a hotset save that fails (a read-only dotfile) is said on the status line
// and kept in the events every time, whatever order the commands answer in: the deletion's note
// never hides it.
func TestHotsetSaveFailureAlwaysSaid(t *testing.T) {
	opts := testOptions()
	opts.SaveMode, opts.ConfigName = "always", "config.toml"
	opts.SaveHotsets = func([]HotsetConfig) error { return errors.New("open config.toml: read-only file system") }
	fx := newFixture(t, 1, 3)
	m := New(fx, opts)
	m.after = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	m = send(t, m, tea.WindowSizeMsg{Width: 200, Height: 60})
	m = collectOnce(t, collectOnce(t, m))
	typeKeys := func(s string) {
		for _, r := range s {
			var cmd tea.Cmd
			m, cmd = sendCmd(t, m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
			m = runCmdReversed(t, m, cmd)
		}
	}
	m = keys(t, m, ":Disk/sda/%util{enter}3n{enter}")
	typeKeys("dd")
	if v := plainView(m); !strings.Contains(v, "hotsets not saved: open config.toml: read-only file system") {
		t.Errorf("the failed save after a deletion is not on the status line:\n%s", v)
	}
	n := 0
	for _, e := range fx.Events().Events() {
		if e.Kind == namespace.EvProviderError && strings.Contains(e.Text, "hotsets not saved") {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d failed saves in the events, want 2 (the creation's and the deletion's)", n)
	}
}
