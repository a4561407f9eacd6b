package ui

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"dcimon/internal/testbin"
	"dcimon/theme"
	"dcimon/ui/internal/fixture"
)

func TestMain(m *testing.M) {
	// Pin what the output depends on: no colour, UTC (house style rule 14, checklist §0.4).
	lipgloss.SetColorProfile(termenv.Ascii)
	time.Local = time.UTC
	os.Setenv("TZ", "UTC")
	code := m.Run()
	testbin.Cleanup()
	os.Exit(code)
}

// strip removes styling and trailing blanks, the form goldens keep.
func strip(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

func newFixture(t testing.TB, ncpu, ndisk int, nics ...string) *fixture.Sampler {
	t.Helper()
	f, err := fixture.New(ncpu, ndisk, nics...)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// testOptions pin the clock, zone and host.
func testOptions() Options {
	return Options{Location: time.UTC, Now: func() time.Time { return fixture.T0 }, Host: "testhost"}
}

// newModel builds the model, sizes it and feeds it n collections, as the program would.
func newModel(t testing.TB, src Sampler, w, h, n int) Model {
	t.Helper()
	return newModelWith(t, src, testOptions(), w, h, n)
}

// newModelWith is newModel with opts instead of testOptions.
func newModelWith(t testing.TB, src Sampler, opts Options, w, h, n int) Model {
	t.Helper()
	m := New(src, opts)
	m.after = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil } // no real timers
	m = send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	for i := 0; i < n; i++ {
		m = collectOnce(t, m)
	}
	return m
}

// netFailed is the fixture's monitor (ncpu processors, one disk, eth0) at 120x40 after a good
// collection and then one in which the network provider fails, with the fixture.
func netFailed(t testing.TB, ncpu int) (Model, *fixture.Sampler) {
	t.Helper()
	src := newFixture(t, ncpu, 1, "eth0")
	m := newModel(t, src, 120, 40, 1)
	src.FailNet = true
	return collectOnce(t, m), src
}

// pressSelects presses ks and fails t unless the tree then selects want.
func pressSelects(t testing.TB, m Model, ks, want string) Model {
	t.Helper()
	m = keys(t, m, ks)
	if got := m.tree.SelectedPath(); got != want {
		t.Fatalf("%s selects %q, want %q", ks, got, want)
	}
	return m
}

// columnTitles is the titles of the values table's first n columns (all of them when there are
// fewer), separated by spaces.
func columnTitles(m Model, n int) string {
	var got []string
	for _, c := range m.values.cols[:min(n, len(m.values.cols))] {
		got = append(got, c.title())
	}
	return strings.Join(got, " ")
}

// wantAll fails t for each of wants that s, which is what, lacks.
func wantAll(t testing.TB, what, s string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, s)
		}
	}
}

// send runs one message through Update.
func send(t testing.TB, m Model, msg tea.Msg) Model {
	t.Helper()
	out, _ := m.Update(msg)
	return out.(Model)
}

// sendCmd runs one message through Update and returns the command too.
func sendCmd(t testing.TB, m Model, msg tea.Msg) (Model, tea.Cmd) {
	t.Helper()
	out, cmd := m.Update(msg)
	return out.(Model), cmd
}

// collectOnce runs one collection the way the collection command does and delivers its message.
func collectOnce(t testing.TB, m Model) Model {
	t.Helper()
	msg := sampleCmd(context.Background(), m.src, m.now)()
	return send(t, m, msg)
}

// keys types a string, one key per rune; names in braces are special keys: {enter} {esc} {tab}.
func keys(t testing.TB, m Model, s string) Model {
	t.Helper()
	for s != "" {
		var msg tea.KeyMsg
		if strings.HasPrefix(s, "{") {
			end := strings.IndexByte(s, '}')
			name := s[1:end]
			s = s[end+1:]
			msg = specialKey(t, name)
		} else {
			r := []rune(s)[0]
			s = s[len(string(r)):]
			if r == ' ' {
				msg = tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
			} else {
				msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}
			}
		}
		var cmd tea.Cmd
		m, cmd = sendCmd(t, m, msg)
		m = runCmd(t, m, cmd)
	}
	return m
}

// runCmd delivers the messages of commands that answer at once (open a path, open the form);
// ticks and collections are left to the tests that want them.
func runCmd(t testing.TB, m Model, cmd tea.Cmd) Model {
	t.Helper()
	if cmd == nil {
		return m
	}
	switch msg := cmd().(type) {
	case openMsg, formRequestMsg, sampleMsg, flashMsg, hotsetsSavedMsg:
		m = send(t, m, msg)
	case hotsetsChangedMsg:
		var next tea.Cmd
		m, next = sendCmd(t, m, msg)
		m = runCmd(t, m, next)
	case tea.BatchMsg:
		for _, c := range msg {
			m = runCmd(t, m, c)
		}
	}
	return m
}

func specialKey(t testing.TB, name string) tea.KeyMsg {
	t.Helper()
	types := map[string]tea.KeyType{
		"enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "backspace": tea.KeyBackspace, "ctrl+c": tea.KeyCtrlC,
		"home": tea.KeyHome, "end": tea.KeyEnd, "ctrl+u": tea.KeyCtrlU,
		"f1": tea.KeyF1, "f3": tea.KeyF3, "f5": tea.KeyF5, "f6": tea.KeyF6, "f9": tea.KeyF9, "f10": tea.KeyF10,
	}
	k, ok := types[name]
	if !ok {
		t.Fatalf("unknown key %q", name)
	}
	return tea.KeyMsg{Type: k}
}

// plainView is the model's whole view without styling.
func plainView(m Model) string { return ansi.Strip(m.View()) }

func mustDur(t testing.TB, s string) time.Duration {
	t.Helper()
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func stripANSI(s string) string { return ansi.Strip(s) }

func testStyles() *styles {
	st, _ := theme.Resolve("dark", false)
	return newStyles(st)
}
