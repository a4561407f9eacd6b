package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"dcimon/namespace"
)

// Issue 42 item 3: two saved hotsets on one statistic are told apart by their names and
// thresholds; item 1: a block's title counts only the rows the height lets it show.
func TestOverviewHotsetTitles(t *testing.T) {
	opts := testOptions()
	opts.Hotsets = []HotsetConfig{
		{Name: "disks-all", Grandpa: "Disk", Stats: []string{"%util"}, MaxResp: 5, Feed: namespace.SiHotAlways},
		{Name: "disks-hot", Grandpa: "Disk", Stats: []string{"%util"}, MaxResp: 5, Threshold: 50, Feed: namespace.SiHotThreshold},
	}
	m := New(newFixture(t, 1, 3), opts)
	m.after = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m = collectOnce(t, collectOnce(t, m))
	lines := m.overviewHotsets(120, 40)
	var text strings.Builder
	for _, l := range lines {
		text.WriteString(stripANSI(l.text) + "\n")
	}
	s := text.String()
	for _, want := range []string{"disks-all: Disk %util — top 3 of 3", "disks-hot: Disk %util > 50 — top 2 of 2"} {
		if !strings.Contains(s, want) {
			t.Errorf("no block titled %q:\n%s", want, s)
		}
	}
	// Two lines of height: the title and one row, and the title says one.
	lines = m.overviewHotsets(120, 2)
	if len(lines) != 2 || !strings.Contains(stripANSI(lines[0].text), "disks-all: Disk %util — top 1 of 3") {
		t.Errorf("at two lines: %q", lines)
	}
}
