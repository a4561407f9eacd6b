package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"dcimon/collect"
	"dcimon/collect/linux"
	"dcimon/collect/pcp"
	"dcimon/internal/archivetest"
	"dcimon/internal/golden"
	"dcimon/namespace"
)

// newReplayModel is the monitor on an archive of 600 samples a second apart (archivetest), as
// dcimon --archive opens it, with its first collection read.
func newReplayModel(t *testing.T, w, h int, at time.Time) (Model, *collect.Replay) {
	t.Helper()
	base := archivetest.Write(t, t.TempDir(), "db1", 600, 0)
	provs, as, err := pcp.ArchiveProviders([]string{base}, time.Time{}, false)
	if err != nil {
		t.Fatal(err)
	}
	s, err := collect.NewSampler(namespace.NewRegistry(), provs, collect.Options{Now: as.Clock, Deadline: 10 * time.Second, Self: (&linux.SelfReader{}).Read})
	if err != nil {
		t.Fatal(err)
	}
	r := collect.NewReplay(s, as, at)
	o := testOptions()
	o.Host, o.Overview = "", true
	m := New(r, o)
	m.after = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	m = send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	return collectOnce(t, m), r
}

// cursorAt is the time cursor as the status bar shows it.
func cursorAt(t *testing.T, m Model) string {
	t.Helper()
	st := stripANSI(m.statusLine())
	i := strings.Index(st, "@ ")
	if i < 0 {
		t.Fatalf("no time cursor in the status bar: %q", st)
	}
	return st[i+2 : i+2+len("2006-01-02 15:04:05")]
}

// Issue 15: the monitor on an archive says it is a replay, of which host and period, shows the
// time cursor in the status bar, and moves it with its keys: a sample, a minute, an hour, a
// time typed after : as @03:12; p plays and pauses, + and - set the speed.
func TestReplayKeys(t *testing.T) {
	m, _ := newReplayModel(t, 120, 40, time.Time{})
	view := plainView(m)
	if !strings.Contains(view, "replay of db1 · 2026-11-25 03:00:00 – 03:09:59") {
		t.Errorf("the header does not say it is a replay of db1 and when:\n%s", view)
	}
	if st := stripANSI(m.statusLine()); !strings.Contains(st, "REPLAY") || !strings.Contains(st, "paused") {
		t.Errorf("status bar %q: want REPLAY, paused", st)
	}
	for _, c := range []struct{ keys, want string }{
		{"", "2026-11-25 03:00:01"}, // opened where the first rates are
		{".", "2026-11-25 03:00:02"},
		{"...", "2026-11-25 03:00:05"},
		{",", "2026-11-25 03:00:04"},
		{">", "2026-11-25 03:01:04"},
		{"<<", "2026-11-25 03:00:00"}, // not before the start
		{"]", "2026-11-25 03:09:59"},  // nor past the end
		{"[", "2026-11-25 03:00:00"},
		{":@03:05{enter}", "2026-11-25 03:05:00"},
		{":@3 am{enter}", "2026-11-25 03:05:00"}, // not a time: said, and the cursor stays
		{":@2026-11-25 03:08:09{enter}", "2026-11-25 03:08:09"},
		{":@04:00{enter}", "2026-11-25 03:08:09"}, // outside the archive: said
	} {
		m = keys(t, m, c.keys)
		if got := cursorAt(t, m); got != c.want {
			t.Errorf("after %q the cursor is at %s, want %s", c.keys, got, c.want)
		}
	}
	if !strings.Contains(m.flash, "outside the archive") || !strings.Contains(m.flash, "03:09:59") {
		t.Errorf("a time outside the archive: flash %q", m.flash)
	}
	// The values are the archive's: kernel.all.pswitch rose by (2i-1)×100 to sample i.
	ref, err := m.reg.Lookup(nil, "Host/ctxsw")
	if err != nil {
		t.Fatal(err)
	}
	if v, _, _ := m.snap.Lookup(ref); v.State != namespace.Valid || v.V != float64(2*489-1)*100 {
		t.Errorf("Host/ctxsw at 03:08:09 = %+v, want %v", v, float64(2*489-1)*100)
	}
	// Play: archive time runs at the speed times the wall's.
	wall := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	m.now = func() time.Time { return wall }
	m = keys(t, m, "p")
	if m.paused || !strings.Contains(stripANSI(m.statusLine()), "▶ ×1") {
		t.Fatalf("p did not play: %q", stripANSI(m.statusLine()))
	}
	beat := func() {
		t.Helper()
		var cmd tea.Cmd
		m, cmd = sendCmd(t, m, tickMsg{seq: m.tickSeq, at: wall})
		m = runCmd(t, m, cmd)
	}
	wall = wall.Add(time.Second)
	beat()
	if got := cursorAt(t, m); got != "2026-11-25 03:08:10" {
		t.Errorf("a second of play at ×1: %s", got)
	}
	m = keys(t, m, "[+")
	if !strings.Contains(m.flash, "×10") {
		t.Errorf("+: flash %q, want ×10", m.flash)
	}
	wall = wall.Add(2 * time.Second)
	beat()
	if got := cursorAt(t, m); got != "2026-11-25 03:00:20" {
		t.Errorf("two seconds at ×10 from the start: %s, want 03:00:20", got)
	}
	// Playing into the end stops there, and says so.
	wall = wall.Add(time.Hour)
	beat()
	if got := cursorAt(t, m); got != "2026-11-25 03:09:59" || !m.paused || !strings.Contains(m.flash, "end of the archive") {
		t.Errorf("played past the end: at %s, paused %v, flash %q", got, m.paused, m.flash)
	}
	m = keys(t, m, "?")
	if view := plainView(m); !strings.Contains(view, "one sample back") || !strings.Contains(view, "play / pause") {
		t.Errorf("the help does not show the replay's keys:\n%s", view)
	}
}

// ownUsage is the test process's own CPU and memory in the status bar, which no golden can hold.
var ownUsage = regexp.MustCompile(`dcimon cpu \S+ mem \S+ MiB`)

// The replay's screens at the sizes people use, goldens: the header says replay, of which host
// and when; the status bar has the time cursor, paused, and where in the archive it is.
func TestReplayGolden(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}, {200, 60}} {
		m, _ := newReplayModel(t, sz.w, sz.h, archivetest.Start.Add(5*time.Minute))
		name := fmt.Sprintf("%dx%d", sz.w, sz.h)
		golden.Check(t, "overview-"+name, ownUsage.ReplaceAllString(strip(m.View()), "dcimon cpu … mem …"))
		m = keys(t, m, "2")
		golden.Check(t, "values-"+name, ownUsage.ReplaceAllString(strip(m.View()), "dcimon cpu … mem …"))
	}
}

// Issue 30 item 8: a move in time has no side effects: :@TIME typed on the overview leaves the
// overview on screen, and a jump starts the sparklines' history afresh.
func TestReplaySeekHasNoSideEffects(t *testing.T) {
	m, _ := newReplayModel(t, 120, 40, time.Time{})
	if !m.ov.on {
		t.Fatal("the replay does not open on the overview")
	}
	m = keys(t, m, ":@03:05{enter}")
	m = collectOnce(t, m)
	if !m.ov.on {
		t.Errorf(":@03:05 on the overview left it for the panes:\n%s", plainView(m))
	}
	if got := cursorAt(t, m); got != "2026-11-25 03:05:00" {
		t.Errorf("cursor at %s", got)
	}
	// The history of a statistic on screen: fed by steps, dropped by a jump.
	m = keys(t, m, "2")
	for range 3 {
		m = keys(t, m, ".")
		m = collectOnce(t, m)
	}
	longest := func() int {
		n := 0
		for _, r := range m.values.rings.rings {
			n = max(n, r.n)
		}
		return n
	}
	if longest() < 3 {
		t.Fatalf("a sparkline history of %d values after three steps", longest())
	}
	m = keys(t, m, "[")
	m = collectOnce(t, m)
	if n := longest(); n > 2 { // the jump's reading, and the one read again at the same place
		t.Errorf("a sparkline history of %d values across an hour's jump, want only the reading after it", n)
	}
}
