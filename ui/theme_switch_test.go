package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// TestThemeSwitchRedrawsEverything: after t, every cell of the frame is painted as a monitor
// started with the new theme paints it; nothing drawn with the old theme survives in a cache.
func TestThemeSwitchRedrawsEverything(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	build := func(theme string) Model {
		opts := testOptions()
		opts.Theme = theme
		m := New(newFixture(t, 2, 2, "eth0"), opts)
		m.after = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
		m = send(t, m, tea.WindowSizeMsg{Width: 160, Height: 48})
		for range 2 {
			m = collectOnce(t, m)
		}
		return keys(t, m, "3") // a pane other than the tree has the focus
	}
	body := func(m Model) string { // the frame without its last line, where the message is
		lines := strings.Split(m.View(), "\n")
		return strings.Join(lines[:len(lines)-1], "\n")
	}
	m := build("dark")
	before := body(m)
	m = keys(t, m, "t")
	if !strings.Contains(plainView(m), "theme high-contrast") {
		t.Fatalf("no message naming the new theme:\n%s", plainView(m))
	}
	got, want := body(m), body(build("high-contrast"))
	if got == before {
		t.Fatal("the frame did not change")
	}
	if got != want {
		g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
		for i := range min(len(g), len(w)) {
			if g[i] != w[i] {
				t.Fatalf("line %d after switching differs from a monitor started with the theme:\n got %q\nwant %q", i, g[i], w[i])
			}
		}
		t.Fatalf("%d lines after switching, %d started with the theme", len(g), len(w))
	}
}

// TestThemeSwitchWithNoColor: NO_COLOR allows the monochrome theme only.
func TestThemeSwitchWithNoColor(t *testing.T) {
	opts := testOptions()
	opts.NoColor = true
	m := New(newFixture(t, 1, 1, "eth0"), opts)
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m = keys(t, m, "t")
	if m.st.theme.Name != "mono" || !strings.Contains(plainView(m), "NO_COLOR") {
		t.Fatalf("theme %s after t with NO_COLOR", m.st.theme.Name)
	}
}
