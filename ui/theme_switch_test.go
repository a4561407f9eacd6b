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

// issue 32 item 10: a theme that sets a background paints it under every cell of the frame:
// each line starts on the ground and every reset inside a line returns to it, so no cell is
// left with the terminal's own background (light text on a light terminal, dark on a dark one).
// A theme without one (mono) leaves the frame as it is.
func TestThemeGroundUnderEveryCell(t *testing.T) {
	lipgloss.SetColorProfile(termenv.TrueColor)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	for _, name := range []string{"light", "dark", "high-contrast", "mono"} {
		opts := testOptions()
		opts.Theme = name
		m := New(newFixture(t, 2, 2, "eth0"), opts)
		m.after = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
		m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
		m = collectOnce(t, m)
		m = collectOnce(t, m)
		for _, ov := range []bool{false, true} {
			m.ov.on = ov
			m.touch()
			frame := m.View()
			ground := m.st.Screen.pre
			if name == "mono" {
				if ground != "" || strings.Contains(frame, "48;") {
					t.Fatalf("mono paints a background: %q", ground)
				}
				continue
			}
			if !strings.Contains(ground, "48;2;") {
				t.Fatalf("%s: the ground sets no background: %q", name, ground)
			}
			for i, line := range strings.Split(frame, "\n") {
				if !strings.HasPrefix(line, ground) {
					t.Fatalf("%s: line %d does not start on the ground: %q", name, i, line)
				}
				body := strings.TrimSuffix(line, "\x1b[m")
				for _, reset := range []string{"\x1b[0m", "\x1b[m"} {
					for j := strings.Index(body, reset); j >= 0; j = nextIndex(body, reset, j) {
						if !strings.HasPrefix(body[j+len(reset):], ground) {
							t.Fatalf("%s: line %d: a reset at byte %d leaves the ground: %q", name, i, j, body)
						}
					}
				}
			}
		}
	}
}

func nextIndex(s, sub string, after int) int {
	k := strings.Index(s[after+len(sub):], sub)
	if k < 0 {
		return -1
	}
	return after + len(sub) + k
}
