package ui

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	ns "dcimon/namespace"
	"dcimon/ui/internal/fixture"
)

func TestTinySizesNeverPanic(t *testing.T) {
	src := newFixture(t, 2, 2, "eth0")
	m := newModel(t, src, 120, 40, 2)
	for _, sz := range [][2]int{{0, 0}, {1, 1}, {10, 3}, {39, 9}, {40, 10}, {41, 11}, {60, 20}, {80, 24}, {109, 27}, {110, 28}, {200, 60}, {3, 200}, {300, 2}} {
		m = send(t, m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		for _, k := range []string{"", "{tab}", "?", "{esc}", "/", "s", "{esc}", "jjj"} {
			m = keys(t, m, k)
			v := m.View()
			if err := m.crash.get(); err != nil {
				t.Fatalf("%d×%d after %q: %v", sz[0], sz[1], k, err)
			}
			lines := strings.Split(v, "\n")
			if sz[0] > 0 && sz[1] > 0 && len(lines) != sz[1] {
				t.Fatalf("%d×%d: %d lines", sz[0], sz[1], len(lines))
			}
			for i, l := range lines {
				if w := width(strings.TrimRight(stripANSI(l), "")); sz[0] > 0 && w > sz[0] {
					t.Fatalf("%d×%d: line %d is %d cells wide: %q", sz[0], sz[1], i, w, stripANSI(l))
				}
			}
		}
		if sz[0] < minW || sz[1] < minH {
			if s := plainView(m); sz[0] >= 20 && sz[1] >= 2 && !strings.Contains(s, "terminal too small") {
				t.Errorf("%d×%d: no too-small notice in %q", sz[0], sz[1], s)
			}
		}
	}
}

func TestTooSmallNotice(t *testing.T) {
	m := newModel(t, newFixture(t, 1, 1), 39, 12, 1)
	got := strings.Join(strings.Fields(plainView(m)), " ")
	if !strings.Contains(got, "terminal too small, need at least 40×10") {
		t.Errorf("notice: %q", got)
	}
}

func TestTickChain(t *testing.T) {
	src := newFixture(t, 1, 1)
	m := New(src, testOptions())
	var scheduled []time.Duration
	m.after = func(d time.Duration, f func(time.Time) tea.Msg) tea.Cmd {
		scheduled = append(scheduled, d)
		return func() tea.Msg { return f(fixtureNow) }
	}
	if !m.inflight {
		t.Fatal("the model is born with Init's collection in flight")
	}
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	// A beat while the first collection runs: the chain goes on, no second collection starts
	// (PCPD-14: one outstanding request per context; the UI never waits on it).
	m, cmd := sendCmd(t, m, tickMsg{seq: 0})
	if m.skipped != 1 || cmd == nil {
		t.Fatalf("in-flight guard: skipped %d, cmd %v", m.skipped, cmd)
	}
	if msg, ok := cmd().(tickMsg); !ok || msg.seq != 0 {
		t.Fatalf("the chain's next beat: %#v", msg)
	}
	m = collectOnce(t, m)
	if m.inflight || src.Samples != 1 {
		t.Fatalf("after the collection: inflight %v, samples %d", m.inflight, src.Samples)
	}
	// A beat now starts a collection and the next beat.
	m, cmd = sendCmd(t, m, tickMsg{seq: 0})
	if !m.inflight || cmd == nil {
		t.Fatal("a beat with nothing in flight must collect")
	}
	msgs := runBatch(cmd)
	if len(msgs) != 2 {
		t.Fatalf("want a collection and a beat, got %d messages", len(msgs))
	}
	for _, msg := range msgs {
		m = send(t, m, msg)
	}
	if src.Samples != 2 {
		t.Fatalf("samples %d, want 2", src.Samples)
	}
	// Changing the interval replaces the chain: beats of the old one are dropped.
	m = keys(t, m, "+")
	if m.interval != 2*time.Second || m.tickSeq != 1 { // + lengthens the interval
		t.Fatalf("interval %s seq %d", m.interval, m.tickSeq)
	}
	if _, cmd = sendCmd(t, m, tickMsg{seq: 0}); cmd != nil {
		t.Fatal("a stale beat must be dropped")
	}
	// Pausing stops the chain; unpausing starts a new one and collects at once.
	m = keys(t, m, "p")
	if !m.paused || !strings.Contains(plainView(m), "paused") {
		t.Fatal("p must pause and say so")
	}
	m.inflight = false
	if _, cmd = sendCmd(t, m, tickMsg{seq: m.tickSeq}); cmd != nil {
		t.Fatal("a paused monitor must not schedule beats or collect")
	}
	m, cmd = sendCmd(t, m, keyMsg("p"))
	if m.paused || cmd == nil || !m.inflight {
		t.Fatal("unpausing must restart the chain and collect")
	}
}

var fixtureNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func keyMsg(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// runBatch runs a command and, for a batch, each of its commands, returning their messages.
func runBatch(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, runBatch(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

func TestInitCollectsAndTicks(t *testing.T) {
	src := newFixture(t, 1, 1)
	m := New(src, testOptions())
	m.after = func(d time.Duration, f func(time.Time) tea.Msg) tea.Cmd {
		return func() tea.Msg { return f(fixtureNow) }
	}
	msgs := runBatch(m.Init())
	var sawSample, sawTick bool
	for _, msg := range msgs {
		switch msg.(type) {
		case sampleMsg:
			sawSample = true
		case tickMsg:
			sawTick = true
		}
	}
	if !sawSample || !sawTick {
		t.Fatalf("Init must collect and start the chain: %#v", msgs)
	}
}

func TestFocusKeys(t *testing.T) {
	m := newModel(t, newFixture(t, 2, 2, "eth0"), 80, 24, 2)
	if m.focus != paneTree {
		t.Fatal("the tree has the focus first")
	}
	m = keys(t, m, "{tab}")
	if m.focus != paneValues || !strings.Contains(plainView(m), "statistic") && m.values.Mode() == valuesStats {
		t.Fatalf("tab: focus %s", m.focus)
	}
	m = keys(t, m, "{shift+tab}{shift+tab}")
	if m.focus != paneEvents {
		t.Fatalf("shift+tab twice from values: %s", m.focus)
	}
	for i, want := range []paneID{paneTree, paneValues, paneHot, paneInspector, paneEvents} {
		m = keys(t, m, string(rune('1'+i)))
		if m.focus != want {
			t.Errorf("digit %d: focus %s, want %s", i+1, m.focus, want)
		}
		// Compact: the tab strip marks the pane shown.
		if s := plainView(m); !strings.Contains(s, want.String()) {
			t.Errorf("digit %d: %s not on screen", i+1, want)
		}
	}
	_, cmd := sendCmd(t, m, keyMsg("q"))
	if cmd == nil {
		t.Fatal("q must quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("q must quit")
	}
	_, cmd = sendCmd(t, m, tea.KeyMsg{Type: tea.KeyCtrlC})
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("ctrl+c must quit")
	}
}

func TestTreeNavigation(t *testing.T) {
	m := newModel(t, newFixture(t, 2, 2, "eth0"), 120, 40, 2)
	if got := m.tree.SelectedPath(); got != "CPU" {
		t.Fatalf("first row %q", got)
	}
	// CPU is open by default: its statistics, then its processors.
	m = keys(t, m, "j")
	if got := m.tree.SelectedPath(); got != "CPU/user" {
		t.Fatalf("j: %q", got)
	}
	if m.insp.Target().Path() != "CPU/user" || !strings.Contains(plainView(m), "Top › CPU › user") {
		t.Error("the inspector and the breadcrumbs follow the tree")
	}
	m = keys(t, m, "G")
	last := m.tree.SelectedPath()
	m = keys(t, m, "g")
	if m.tree.SelectedPath() != "CPU" || last == "CPU" {
		t.Fatalf("g/G: %q then %q", last, m.tree.SelectedPath())
	}
	m = keys(t, m, "{enter}") // collapse CPU
	if m.tree.rows[0].expanded || m.tree.Len() >= 20 {
		t.Fatalf("enter must collapse CPU: %d rows", m.tree.Len())
	}
	m = keys(t, m, "l") // expand again
	if !m.tree.rows[0].expanded {
		t.Fatal("l must expand")
	}
	m = keys(t, m, "jj")
	m = keys(t, m, "h") // from CPU/kern to its parent
	if got := m.tree.SelectedPath(); got != "CPU" {
		t.Fatalf("h goes to the parent: %q", got)
	}
	// Expanding a disk shows its statistics and its partitions.
	m = keys(t, m, ":Disk/sda{enter}")
	if got := m.tree.SelectedPath(); got != "Disk/sda" {
		t.Fatalf("go to Disk/sda: %q", got)
	}
	m = keys(t, m, "{enter}")
	if s := plainView(m); !strings.Contains(s, "sda1") || !strings.Contains(s, "· inflight") {
		t.Errorf("expanded sda must show its statistics and sda1:\n%s", s)
	}
}

func TestFilter(t *testing.T) {
	m := newModel(t, newFixture(t, 4, 3, "eth0", "lo"), 120, 40, 2)
	m = keys(t, m, "2/sd")
	if m.focus != paneTree || m.modal != modalFilter {
		t.Fatal("/ opens the filter on the tree")
	}
	var paths []string
	for _, r := range m.tree.rows {
		paths = append(paths, r.path)
	}
	got := strings.Join(paths, " ")
	if got != "Disk Disk/sda Disk/sda/sda1 Disk/sdb Disk/sdb/sdb1 Disk/sdc" {
		t.Fatalf("filter sd: %s", got)
	}
	if !strings.Contains(plainView(m), "5 matches") {
		t.Error("the match count is shown")
	}
	// Paths match with "/", descriptions and labels without.
	m = keys(t, m, "{backspace}{backspace}cpu1/k")
	if got := m.tree.SelectedPath(); got != "CPU/cpu1/kern" {
		t.Fatalf("path filter: %q, rows %d", got, m.tree.Len())
	}
	m = keys(t, m, "{esc}")
	if m.tree.Filter() != "" || m.modal != modalNone {
		t.Fatal("esc clears the filter")
	}
	if m.tree.SelectedPath() != "CPU/cpu1/kern" {
		t.Fatalf("the selection survives clearing the filter: %q", m.tree.SelectedPath())
	}
	// DCI-LBL-3, SPMI-HIER-2, X-7: idle finds every processor's idle with its full path; a
	// statistic is found by its name (%busy) and by its DCI label (pct_busy) alike.
	m = keys(t, m, "/idle")
	var idle []string
	for _, r := range m.tree.rows {
		if r.datum != nil && r.match {
			idle = append(idle, r.full())
		}
	}
	if got := strings.Join(idle, " "); got != "CPU/idle CPU/cpu0/idle CPU/cpu1/idle CPU/cpu2/idle CPU/cpu3/idle" {
		t.Fatalf("filter idle: %s", got)
	}
	count := func(text string) int {
		m = keys(t, m, "{ctrl+u}"+text)
		n := 0
		for _, r := range m.tree.rows {
			if r.datum != nil && r.match {
				n++
			}
		}
		return n
	}
	if a, b := count("%busy"), count("pct_busy"); a == 0 || a != b {
		t.Fatalf("by name %d, by label %d", a, b)
	}
	m = keys(t, m, "{esc}")
	m = keys(t, m, "/I/O wait{enter}")
	if m.modal != modalNone || m.tree.Filter() != "I/O wait" || m.tree.Matches() != 5 {
		t.Fatalf("description filter kept after enter: %q, %d matches", m.tree.Filter(), m.tree.Matches())
	}
	m = keys(t, m, "/zzz")
	if !strings.Contains(plainView(m), "nothing matches") {
		t.Error("an empty result says so")
	}
}

// TestGoto is SPMI-HIER-7's go-to prompt: full path, path relative to the selection, empty path
// (Top), and an unknown path (SiInvalidCx).
func TestGoto(t *testing.T) {
	m := newModel(t, newFixture(t, 2, 1), 120, 40, 1)
	m = keys(t, m, ":CPU/cpu0{enter}")
	if got := m.tree.SelectedPath(); got != "CPU/cpu0" {
		t.Fatalf("CPU/cpu0: %q", got)
	}
	m = keys(t, m, ":/CPU{enter}:cpu1{enter}")
	if got := m.tree.SelectedPath(); got != "CPU/cpu1" {
		t.Fatalf("cpu1 from CPU: %q", got)
	}
	m = keys(t, m, ":{enter}")
	if got := m.tree.SelectedPath(); got != "CPU" || m.tree.cursor != 0 {
		t.Fatalf("empty path goes to Top (the first row): %q", got)
	}
	m = keys(t, m, ":Nope{enter}")
	if s := plainView(m); !strings.Contains(s, "SiInvalidCx (180)") {
		t.Fatalf("unknown path: %s", s)
	}
	m = keys(t, m, ":CPU/cpu0/idle{enter}")
	if r := m.tree.Selected(); r.Datum == nil || r.Datum.Name != "idle" {
		t.Fatalf("a statistic path selects the statistic: %+v", r)
	}
	// A path as list prints it, with the host first (issue 14).
	m = keys(t, m, ":/birte/CPU/cpu1{enter}")
	if got := m.tree.SelectedPath(); got != "CPU/cpu1" {
		t.Fatalf("/birte/CPU/cpu1: %q", got)
	}
}

// TestInstanceEvents is DCI-EVT-3: an interface that appears and goes drives the tree and the
// event log within one refresh.
func TestInstanceEvents(t *testing.T) {
	src := newFixture(t, 1, 1, "eth0")
	m := newModel(t, src, 200, 60, 2)
	src.NICs = []string{"eth0", "eth9"}
	m = collectOnce(t, m)
	if s := plainView(m); !strings.Contains(s, "▸ eth9") {
		t.Fatalf("eth9 must appear in the tree:\n%s", s)
	}
	src.NICs = []string{"eth0"}
	m = collectOnce(t, m)
	s := plainView(m)
	if strings.Contains(s, "▸ eth9") {
		t.Fatal("eth9 must leave the tree")
	}
	added := strings.Index(s, "added     NetIf/eth9")
	removed := strings.Index(s, "removed   NetIf/eth9")
	if added < 0 || removed < 0 || removed > added {
		t.Fatalf("the log shows the removal above the addition (newest first):\n%s", s)
	}
	if !strings.Contains(s, "03:04:08 removed   NetIf/eth9") {
		t.Error("events carry their time")
	}
}

func TestDegradedSupplier(t *testing.T) {
	src := newFixture(t, 1, 1, "eth0")
	m := newModel(t, src, 120, 40, 1)
	src.FailNet = true
	m = collectOnce(t, m)
	m = keys(t, m, ":NetIf{enter}")
	s := plainView(m)
	if !regexp.MustCompile(`NetIf \(1\) +!`).MatchString(s) {
		t.Errorf("the tree marks the degraded supplier:\n%s", s)
	}
	if !strings.Contains(strings.Join(strings.Fields(stripANSI(m.values.View())), " "), "! supplier degraded: netif: read /proc/net/dev: permission denied") {
		t.Errorf("the values pane says why:\n%s", s)
	}
	if !strings.Contains(s, "1 degraded") {
		t.Errorf("the status bar counts it:\n%s", s)
	}
	// The values are errors, never zero.
	if !strings.Contains(s, "err") {
		t.Errorf("values of a failed provider are marked:\n%s", s)
	}
	// The NetIf hotset reports the error; the Disk one is unaffected (SPMI-HOT-19).
	if !strings.Contains(s, "NetIf bytes — top 0 of 0 — SiOtherErr") {
		t.Errorf("the NetIf hotset shows its error:\n%s", s)
	}
	src.FailNet = false
	m = collectOnce(t, m)
	if regexp.MustCompile(`NetIf \(1\) +!`).MatchString(plainView(m)) {
		t.Error("the marker goes when the supplier recovers")
	}
}

func TestValuesTableSort(t *testing.T) {
	m := newModel(t, newFixture(t, 1, 5), 120, 40, 2)
	m = keys(t, m, ":Disk{enter}2")
	if m.values.Mode() != valuesTable {
		t.Fatalf("Disk shows the disk table, got %s", m.values.Mode())
	}
	all := func() string {
		var out []string
		for _, i := range m.values.order {
			out = append(out, m.values.rows[i].name)
		}
		return strings.Join(out, " ")
	}
	// issue 12: partitions are rows too, right after their disk (iostat -x -p).
	if got := all(); got != "sda sda1 sdb sdb1 sdc sdd sde" {
		t.Fatalf("by name: %s", got)
	}
	names := func() string {
		var out []string
		for _, i := range m.values.order {
			if m.values.rows[i].depth == 0 {
				out = append(out, m.values.rows[i].name)
			}
		}
		return strings.Join(out, " ")
	}
	// Sort by %util (the column named for iostat's %util), busiest first.
	col := -1
	for i, c := range m.values.cols {
		if c.header == "%util" {
			col = i
		}
	}
	if col < 0 {
		t.Fatal("no %util column")
	}
	for m.values.sortCol != col+1 {
		m = keys(t, m, "s")
	}
	if got := names(); got != "sdc sde sdb sdd sda" {
		t.Fatalf("by %%util: %s", got)
	}
	m = keys(t, m, "S")
	if got := names(); got != "sda sdd sdb sde sdc" {
		t.Fatalf("reversed: %s", got)
	}
	// writes of sdc are invalid: they sort last both ways.
	for m.values.sortCol != 2 {
		m = keys(t, m, "s")
	}
	if got := names(); !strings.HasSuffix(got, "sdc") {
		t.Fatalf("invalid last, descending: %s", got)
	}
	m = keys(t, m, "S")
	if got := names(); !strings.HasSuffix(got, "sdc") {
		t.Fatalf("invalid last, ascending: %s", got)
	}
	// Enter opens the instance in the tree.
	m = keys(t, m, "g{enter}")
	if m.focus != paneTree || m.tree.SelectedPath() != "Disk/sda" {
		t.Fatalf("enter opens the row: focus %s path %s", m.focus, m.tree.SelectedPath())
	}
}

func TestSelectingAStatisticSortsTheTable(t *testing.T) {
	m := newModel(t, newFixture(t, 4, 1), 120, 40, 2)
	m = keys(t, m, ":CPU/idle{enter}")
	if m.values.Mode() != valuesTable || m.values.sortCol == 0 || m.values.cols[m.values.sortCol-1].header != "%idle" || !m.values.sortDesc {
		t.Fatalf("selecting CPU/idle ranks the processors by idle")
	}
}

// TestRunsOfKeys checks keys that arrive together in one message (fast typing, tmux send-keys)
// act one by one: ":" opens the go-to prompt and the rest is typed into it.
func TestRunsOfKeys(t *testing.T) {
	m := newModel(t, newFixture(t, 2, 2), 120, 40, 1)
	m = send(t, m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(":Disk/sdb")})
	m = keys(t, m, "{enter}")
	if got := m.tree.SelectedPath(); got != "Disk/sdb" {
		t.Fatalf("a run of keys: %q", got)
	}
	m = send(t, m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jj")})
	if got := m.tree.SelectedPath(); got != "Monitor" { // sdb, NetIf, Monitor
		t.Fatalf("jj in one message moves twice: %q", got)
	}
}

// TestOwnStatisticsAboveOtherInstances: Monitor's own statistics are not columns of its
// providers' table, so selecting one shows Monitor's statistics; the context shows the table.
func TestOwnStatisticsAboveOtherInstances(t *testing.T) {
	m := newModel(t, newSynthSampler(t, "synthetic:disks=1,nics=1,cpus=1"), 120, 40, 2)
	m = keys(t, m, ":Monitor{enter}")
	if m.values.Mode() != valuesTable || len(m.values.rows) == 0 || m.values.rows[0].totals {
		t.Fatalf("Monitor: mode %s, a totals row that matches nothing", m.values.Mode())
	}
	m = keys(t, m, ":/Monitor/rss{enter}")
	if m.values.Mode() != valuesStats || m.values.Selected().Datum == nil || m.values.Selected().Datum.Name != "rss" {
		t.Fatalf("Monitor/rss: mode %s", m.values.Mode())
	}
	m = keys(t, m, "k")
	if m.values.Mode() != valuesStats {
		t.Fatal("another own statistic keeps the statistics")
	}
	m = keys(t, m, ":/CPU/idle{enter}")
	if m.values.Mode() != valuesTable {
		t.Fatal("CPU's totals are columns of its processors: the table stays")
	}
}

func TestHelpOverlay(t *testing.T) {
	m := newModel(t, newFixture(t, 1, 1), 120, 40, 1)
	m = keys(t, m, "?")
	s := plainView(m)
	// Every line of the overlay comes from a key.Binding's help.
	for _, b := range []string{m.tree.keys.Toggle.Help().Desc, m.values.keys.Sort.Help().Desc, m.hot.keys.New.Help().Desc,
		m.keys.Goto.Help().Desc, m.keys.Longer.Help().Desc, m.ovKeys.Close.Help().Desc} {
		if !strings.Contains(s, b) {
			t.Errorf("help lacks %q:\n%s", b, s)
		}
	}
	m = keys(t, m, "j") // keys do nothing under the overlay
	if m.tree.SelectedPath() != "CPU" {
		t.Error("the overlay intercepts keys")
	}
	m = keys(t, m, "{esc}")
	if m.modal != modalNone {
		t.Fatal("esc closes help")
	}
}

// TestHotsetForm creates a peer set from the selected statistic, checks the SPMI-HOT-10 header,
// edits it, has a bad combination refused (SPMI-HOT-13) and deletes it.
func TestHotsetForm(t *testing.T) {
	m := newModel(t, newFixture(t, 1, 3), 200, 60, 2)
	m = keys(t, m, "3n")
	if m.modal != modalNone || !strings.Contains(plainView(m), "select a statistic") {
		t.Fatal("the form needs a statistic")
	}
	m = keys(t, m, ":Disk/sda/%util{enter}3n")
	if m.modal != modalForm {
		t.Fatal("n opens the form")
	}
	if s := plainView(m); !strings.Contains(s, "New hotset: rank Disk peers by %util") {
		t.Fatalf("form title:\n%s", s)
	}
	// threshold 25, feed threshold; max responses stays 5.
	m = keys(t, m, "{down}{ctrl+u}25{enter}")
	if m.modal != modalNone {
		t.Fatalf("submit: %s", m.form.err)
	}
	s := plainView(m)
	if !strings.Contains(s, "Disk %util > 25 — top 2 of 2") {
		t.Fatalf("header after creation:\n%s", s)
	}
	// Edit: max responses 1.
	m = keys(t, m, "e{ctrl+u}1{enter}")
	if s := plainView(m); !strings.Contains(s, "Disk %util > 25 — top 1 of 2") || strings.Contains(s, "top 2 of 2") {
		t.Fatalf("header after edit:\n%s", s)
	}
	// Exceptions without a severity are refused by the name space, with its code.
	m = keys(t, m, "e{down}{down}{down}{pgup}{enter}")
	if m.modal != modalForm || !strings.Contains(plainView(m), "SiBadArgument (187)") {
		t.Fatalf("the refusal is shown in the form:\n%s", plainView(m))
	}
	m = keys(t, m, "{esc}")
	n := len(m.hot.Entries())
	// issue 12: d asks first; any other key keeps the peer set, d again (or y) deletes it.
	m = keys(t, m, "d")
	if len(m.hot.Entries()) != n || !strings.Contains(plainView(m), "d or y deletes") {
		t.Fatal("d asks before deleting")
	}
	m = keys(t, m, "x")
	if len(m.hot.Entries()) != n || !strings.Contains(plainView(m), "hotset kept") {
		t.Fatal("another key keeps the peer set")
	}
	m = keys(t, m, "dd")
	if len(m.hot.Entries()) != n-1 {
		t.Fatal("d twice deletes the selected peer set")
	}
	if s := plainView(m); !strings.Contains(s, "deleted") || strings.Contains(s, "saved") {
		t.Fatalf("the status says deleted, not saved:\n%s", s)
	}
}

// TestPeerSetRecord is SPMI-HOT-16: the inspector of a hotset entry shows its whole record.
func TestPeerSetRecord(t *testing.T) {
	m := newModel(t, newFixture(t, 1, 3), 200, 60, 2)
	m = keys(t, m, "3g")
	if !m.hot.OnHeader() {
		t.Fatal("g puts the cursor on the first header")
	}
	m = keys(t, m, "4")
	var all strings.Builder
	for i := 0; i < 5; i++ {
		all.WriteString(stripANSI(m.insp.View()))
		m = keys(t, m, "{pgdown}")
	}
	s := all.String()
	for _, want := range []string{"hotset Disk %util", "path           Disk", "statistic      %util", "threshold      0",
		"max_responses  5", "feed_type      SiHotAlways", "except_type    SiHotNoException", "frequency      0 min",
		"severity       0", "trap_no        0", "ref_count      1", "avail_resp     3", "count          3",
		"error          SiSuccess (0)", "item 1         sdc 94 (val 94, val_change 0)", "SPMI context"} {
		if !strings.Contains(s, want) {
			t.Errorf("the peer set record lacks %q:\n%s", want, s)
		}
	}
}

// SPMI-HOT-12, SPMI-HOT-15: an exception reaches the event log with its severity first in the line.
func TestHotsetExceptions(t *testing.T) {
	src := newFixture(t, 1, 3)
	m := newModel(t, src, 200, 60, 1)
	m = keys(t, m, ":Disk/sda/%util{enter}3n")
	// threshold 50, exceptions with severity 3 every 5 minutes.
	m = keys(t, m, "{down}{ctrl+u}50{down}{down}{pgup}{down}{ctrl+u}5{down}{ctrl+u}3{enter}")
	if m.modal != modalNone {
		t.Fatalf("submit: %s", m.form.err)
	}
	m = collectOnce(t, m)
	s := plainView(m)
	if !strings.Contains(s, "exception sev 3 Disk/sdc %util 94 > 50") {
		t.Fatalf("an exception reaches the event log with its severity:\n%s", s)
	}
}

func TestMouse(t *testing.T) {
	m := newModel(t, newFixture(t, 2, 2, "eth0"), 120, 40, 2)
	vb := m.lay.Panes[paneValues].Inner
	m = send(t, m, tea.MouseMsg{X: vb.X + 2, Y: vb.Y + 3, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if m.focus != paneValues {
		t.Fatalf("a click focuses: %s", m.focus)
	}
	tb := m.lay.Panes[paneTree].Inner
	m = send(t, m, tea.MouseMsg{X: tb.X + 1, Y: tb.Y + 2, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if m.focus != paneTree || m.tree.SelectedPath() != "CPU/kern" {
		t.Fatalf("a click selects the row: %s %s", m.focus, m.tree.SelectedPath())
	}
	m = send(t, m, tea.MouseMsg{X: tb.X + 1, Y: tb.Y + 2, Action: tea.MouseActionPress, Button: tea.MouseButtonWheelDown})
	if m.tree.SelectedPath() != "CPU/busy" {
		t.Fatalf("the wheel scrolls: %s", m.tree.SelectedPath())
	}
	// Compact: a click on a tab switches to it.
	m = send(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	r := tabRanges(80)[paneEvents]
	m = send(t, m, tea.MouseMsg{X: r[0] + 1, Y: 1, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if m.focus != paneEvents {
		t.Fatalf("tab click: %s", m.focus)
	}
}

// DCI4-RD-6: values may be stale when shown, so the status line gives the time of the sample on
// screen.
func TestStatusBar(t *testing.T) {
	m := newModel(t, newFixture(t, 1, 1), 200, 60, 2)
	s := plainView(m)
	for _, want := range []string{"testhost", "sample 03:04:06", "every 1s", "▶ live", "providers 1 ok", "dcimon cpu 2"} {
		if !strings.Contains(s, want) {
			t.Errorf("status lacks %q", want)
		}
	}
	// Without a Monitor context nothing is shown: no invented numbers.
	m2 := newModel(t, bareSampler(t), 200, 60, 1)
	if strings.Contains(plainView(m2), "dcimon cpu") {
		t.Error("no Monitor, no self usage")
	}
}

// bareSampler is a name space with one class and no Monitor.
func bareSampler(t *testing.T) *stubSampler {
	r := ns.NewRegistry()
	if err := r.RegisterClass(&ns.Class{ID: ns.ClassID{5}, Name: "Thing", Flags: ns.ClassEnabled,
		Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagSingleInst, Size: 4}},
		Datums: []ns.Datum{ns.Gauge(1, "level", ns.TypeUint4, ns.UnitCount, "A level", "nowhere")}}); err != nil {
		t.Fatal(err)
	}
	return &stubSampler{reg: r, log: ns.NewEventLog(10)}
}

// stubSampler samples every class of its registry with one fixed raw value per datum.
type stubSampler struct {
	reg  *ns.Registry
	log  *ns.EventLog
	snap *ns.Snapshot
	n    int
	err  error
}

func (s *stubSampler) Registry() *ns.Registry { return s.reg }
func (s *stubSampler) Events() *ns.EventLog   { return s.log }
func (s *stubSampler) Sample(context.Context) (*ns.Snapshot, error) {
	if s.err != nil {
		return nil, s.err
	}
	s.n++
	now := fixtureNow.Add(time.Duration(s.n) * time.Second)
	sm := &ns.Sample{Start: now, End: now}
	for _, c := range s.reg.Classes() {
		if !c.Instantiated() {
			continue
		}
		insts := s.reg.Instances(c)
		cs := ns.ClassSample{Class: c, Time: now, Start: now, End: now, Insts: insts}
		for range insts {
			for range c.Datums {
				cs.Raw = append(cs.Raw, ns.Raw{N: 7})
			}
		}
		sm.Classes = append(sm.Classes, cs)
	}
	s.snap = ns.Next(s.snap, sm, nil)
	return s.snap, nil
}

func TestCollectionErrors(t *testing.T) {
	src := newFixture(t, 1, 1)
	m := newModel(t, src, 120, 40, 1)
	src.Err = errors.New("sampler: every provider timed out")
	m = collectOnce(t, m)
	if s := plainView(m); !strings.Contains(s, "collection failed: sampler: every provider timed out") {
		t.Fatalf("the failure is shown:\n%s", s)
	}
	if m.snap == nil {
		t.Fatal("the last snapshot stays on screen")
	}
	src.Err = nil
	src.PanicNext = true
	m = collectOnce(t, m)
	if m.crash.get() != nil || m.lastErr == nil || !strings.Contains(m.lastErr.Error(), "fixture panic") {
		t.Fatalf("a panicking collection is an error, not a crash: %v", m.lastErr)
	}
}

func TestPanicInUpdateAndView(t *testing.T) {
	m := newModel(t, newFixture(t, 1, 1), 120, 40, 1)
	m.modal = modalForm // with no form: a bug
	if v := m.View(); v != "" {
		t.Fatal("a panicking view draws nothing")
	}
	if err := m.crash.get(); err == nil || !strings.Contains(err.Error(), "panic in view") {
		t.Fatalf("view panic recorded: %v", err)
	}
	m2 := newModel(t, newFixture(t, 1, 1), 120, 40, 1)
	m2.modal = modalForm
	out, cmd := m2.Update(keyMsg("x"))
	if cmd == nil {
		t.Fatal("a panicking update quits")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("a panicking update quits")
	}
	if err := out.(Model).crash.get(); err == nil || !strings.Contains(err.Error(), "panic in update") {
		t.Fatalf("update panic recorded: %v", err)
	}
}

func TestResizeAtAnyMoment(t *testing.T) {
	src := newFixture(t, 4, 4, "eth0")
	m := newModel(t, src, 80, 24, 1)
	sizes := [][2]int{{200, 60}, {10, 3}, {120, 40}, {0, 0}, {80, 24}, {60, 20}}
	for i, sz := range sizes {
		m = keys(t, m, "/sd")
		m = send(t, m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		m = collectOnce(t, m)
		m = keys(t, m, "{esc}jj{tab}")
		_ = m.View()
		if want := computeLayout(sz[0], sz[1], m.st.theme).Mode; m.lay.Mode != want {
			t.Fatalf("step %d: mode %s, want %s", i, m.lay.Mode, want)
		}
	}
	if err := m.crash.get(); err != nil {
		t.Fatal(err)
	}
}

func TestNoColorIsMono(t *testing.T) {
	o := testOptions()
	o.NoColor, o.Theme = true, "dark"
	if m := New(newFixture(t, 1, 1), o); m.st.theme.Name != "mono" {
		t.Fatalf("NoColor gives mono, got %s", m.st.theme.Name)
	}
	o.NoColor, o.Theme = false, "light"
	if m := New(newFixture(t, 1, 1), o); m.st.theme.Name != "light" {
		t.Fatalf("theme light, got %s", m.st.theme.Name)
	}
}

// TestStatesAreNotZero is X-5 in the values pane: a value not valid for the instance, a counter
// with no rate yet, a value lost to a failed provider and a real zero look different, and each
// mark says why.
func TestStatesAreNotZero(t *testing.T) {
	src := newFixture(t, 1, 3, "eth0")
	m := newModel(t, src, 120, 40, 1)
	m = keys(t, m, ":Disk/sdc{enter}")
	rows := strings.Split(stripANSI(m.values.View()), "\n")
	find := func(name string) string {
		for _, r := range rows {
			if strings.HasPrefix(r, name+" ") {
				return strings.Join(strings.Fields(r), " ")
			}
		}
		t.Fatalf("no row %s in\n%s", name, strings.Join(rows, "\n"))
		return ""
	}
	if got := find("reads"); !strings.HasPrefix(got, "reads — no previous sample") {
		t.Errorf("first sample of a counter: %q", got)
	}
	m = collectOnce(t, m)
	rows = strings.Split(stripANSI(m.values.View()), "\n")
	if got := find("writes"); !strings.HasPrefix(got, "writes n/a not valid for this instance") {
		t.Errorf("invalid: %q", got)
	}
	if got := find("inflight"); !strings.HasPrefix(got, "inflight 2 ") {
		t.Errorf("a level: %q", got)
	}
	src.FailNet = true
	m = collectOnce(t, m)
	m = keys(t, m, ":/NetIf/eth0{enter}")
	rows = strings.Split(stripANSI(m.values.View()), "\n")
	if got := find("ibytes"); !strings.HasPrefix(got, "ibytes err provider error") {
		t.Errorf("failed provider: %q", got)
	}
	m = keys(t, m, ":/Disk/sda{enter}")
	rows = strings.Split(stripANSI(m.values.View()), "\n")
	if got := find("inflight"); !strings.HasPrefix(got, "inflight 0 ") {
		t.Errorf("a real zero: %q", got)
	}
}

func TestFirstBeatIsShort(t *testing.T) {
	// Issue 8: levels at once (Init collects), rates after a short first interval, then the
	// chosen interval.
	for _, tt := range []struct{ interval, want time.Duration }{
		{time.Second, 250 * time.Millisecond},
		{5 * time.Second, 250 * time.Millisecond},
		{200 * time.Millisecond, 200 * time.Millisecond},
	} {
		opts := testOptions()
		opts.Interval = tt.interval
		m := New(newFixture(t, 1, 1), opts)
		var scheduled []time.Duration
		m.after = func(d time.Duration, f func(time.Time) tea.Msg) tea.Cmd {
			scheduled = append(scheduled, d)
			return nil
		}
		m.Init()
		if len(scheduled) != 1 || scheduled[0] != tt.want {
			t.Errorf("interval %v: first beat %v, want %v", tt.interval, scheduled, tt.want)
		}
	}
}

// TestHelpOverlayShowsEveryBindingWhole: at 80 and at 120 columns (tall enough to see it all),
// every global key and its description are in the help overlay uncut.
func TestHelpOverlayShowsEveryBindingWhole(t *testing.T) {
	for _, w := range []int{80, 120, 200} {
		m := newModel(t, newFixture(t, 1, 1, "eth0"), w, 90, 1)
		m = keys(t, m, "?")
		s := plainView(m)
		for _, b := range m.keys.all() {
			h := b.Help()
			if !strings.Contains(s, h.Key) || !strings.Contains(s, h.Desc) {
				t.Errorf("%d columns: help lacks %q %q:\n%s", w, h.Key, h.Desc, s)
			}
		}
		for _, b := range m.events.FullHelp()[0] {
			if !strings.Contains(s, b.Help().Desc) {
				t.Errorf("%d columns: help lacks the events pane's %q", w, b.Help().Desc)
			}
		}
	}
}

// TestMouseInOverlays: the wheel scrolls the help overlay within its length; in the hotset form
// a click focuses a field, a click on the focused choice field or the wheel over it steps the
// choice. The rows are found on the screen itself, as a person would.
func TestMouseInOverlays(t *testing.T) {
	m := newModel(t, newFixture(t, 1, 3), 120, 30, 2)
	m = keys(t, m, "?")
	wheel := func(m Model, x, y int, b tea.MouseButton) Model {
		return send(t, m, tea.MouseMsg{X: x, Y: y, Button: b, Action: tea.MouseActionPress})
	}
	for range 100 {
		m = wheel(m, 60, 10, tea.MouseButtonWheelDown)
	}
	most := m.helpOff
	if most == 0 || most != max(len(m.helpBody())-m.helpRoom(), 0) {
		t.Fatalf("wheel scrolled the help to %d of %d lines (%d shown)", most, len(m.helpBody()), m.helpRoom())
	}
	m = wheel(m, 60, 10, tea.MouseButtonWheelUp)
	if m.helpOff != most-3 {
		t.Fatalf("wheel up: offset %d, want %d", m.helpOff, most-3)
	}
	m = keys(t, m, "{esc}:Disk/sda/%util{enter}3n")
	if m.modal != modalForm {
		t.Fatal("no form")
	}
	rowOf := func(label string) int {
		for y, l := range strings.Split(plainView(m), "\n") {
			if strings.Contains(l, " "+label+" ") {
				return y
			}
		}
		t.Fatalf("no %q on screen:\n%s", label, plainView(m))
		return 0
	}
	click := func(y int) {
		m = send(t, m, tea.MouseMsg{X: 60, Y: y, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	}
	feed := m.form.fields[2].choice
	click(rowOf("feed"))
	if m.form.focus != 2 || m.form.fields[2].choice != feed {
		t.Fatalf("a click on feed: focus %d, choice %d (want 2, unchanged %d)", m.form.focus, m.form.fields[2].choice, feed)
	}
	click(rowOf("feed"))
	if got := m.form.fields[2].choice; got != (feed+1)%len(feedChoices) {
		t.Fatalf("a second click on feed: choice %d, want %d", got, (feed+1)%len(feedChoices))
	}
	m = wheel(m, 60, rowOf("exceptions"), tea.MouseButtonWheelDown)
	if m.form.focus != 3 || m.form.fields[3].choice != 1 {
		t.Fatalf("wheel on exceptions: focus %d, choice %d", m.form.focus, m.form.fields[3].choice)
	}
	click(rowOf("threshold"))
	if m.form.focus != 1 {
		t.Fatalf("a click on threshold: focus %d", m.form.focus)
	}
}

// issue 12 (item 10): the small things a person trips over.
func TestSmallWrongs(t *testing.T) {
	// After a filter accepted with Enter, Esc clears it.
	m := newModel(t, newFixture(t, 2, 3), 120, 40, 2)
	m = keys(t, m, "/idle{enter}")
	if m.tree.Filter() != "idle" || m.modal != modalNone {
		t.Fatalf("the filter is accepted: %q modal %v", m.tree.Filter(), m.modal)
	}
	m = keys(t, m, "{esc}")
	if m.tree.Filter() != "" {
		t.Fatalf("Esc clears an accepted filter: %q", m.tree.Filter())
	}
	// Expanding the last visible row scrolls its children into view.
	m = newModel(t, newFixture(t, 2, 3), 120, 12, 2)
	m = keys(t, m, "1g")
	target := -1
	for i, r := range m.tree.rows {
		if i >= m.tree.h && r.expandable() && !r.expanded {
			target = i
			break
		}
	}
	if target < 0 {
		t.Fatal("no closed row below the first screen")
	}
	for m.tree.cursor < target {
		m = keys(t, m, "j") // the cursor drags the view: the target is the last row in view
	}
	if m.tree.cursor != m.tree.offset+m.tree.h-1 {
		t.Fatalf("the target is not the last visible row: cursor %d offset %d h %d", m.tree.cursor, m.tree.offset, m.tree.h)
	}
	m = keys(t, m, "l")
	if m.tree.cursor+1 >= m.tree.offset+m.tree.h {
		t.Fatalf("the opened row's first child is below the pane: cursor %d offset %d h %d", m.tree.cursor, m.tree.offset, m.tree.h)
	}
	// a on a statistics list says what it did.
	m = newModel(t, newFixture(t, 1, 1), 120, 40, 2)
	m = keys(t, m, ":/Disk/sda{enter}2a")
	if !strings.Contains(plainView(m), "autoscale on") {
		t.Fatalf("a gives feedback:\n%s", plainView(m))
	}
}

// refreshCounter is a sampler that counts the refreshes asked of it.
type refreshCounter struct {
	*fixture.Sampler
	n int
}

func (r *refreshCounter) Refresh() { r.n++ }

// DCI4-DESC-3 (issue 20 item 1): r re-reads SV_VARIABLE data at once, and a DATACHANGED event
// (a class whose description changed, DCI-EVT-5) asks for the same.
func TestRefreshKey(t *testing.T) {
	src := &refreshCounter{Sampler: newFixture(t, 1, 1)}
	m := newModel(t, src, 120, 40, 1)
	m, cmd := sendCmd(t, m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'r'}})
	if src.n != 1 || cmd == nil || !strings.Contains(plainView(m), "refreshing") {
		t.Fatalf("r: %d refreshes, cmd %v", src.n, cmd != nil)
	}
	m = send(t, m, cmd()) // the collection it started
	src.Events().Add(ns.Event{Kind: ns.EvDataChanged, Path: "Disk", Time: m.now()})
	m = collectOnce(t, m)
	if src.n != 2 {
		t.Fatalf("a DATACHANGED event asks for a refresh: %d", src.n)
	}
	_ = m
}

// SPMI-ERR-2 (issue 20 item 4): the error state is per call: a failed go-to's error goes with
// the next successful one.
func TestGotoErrorIsPerCall(t *testing.T) {
	m := newModel(t, newFixture(t, 1, 1), 120, 40, 1)
	m = keys(t, m, ":Bogus{enter}")
	if !strings.Contains(plainView(m), "SiInvalidCx") {
		t.Fatalf("a failed go-to shows its SPMI error:\n%s", plainView(m))
	}
	m = keys(t, m, ":/Disk{enter}")
	if s := plainView(m); strings.Contains(s, "SiInvalidCx") || m.tree.SelectedPath() != "Disk" {
		t.Fatalf("after a successful go-to the error is gone (at %s):\n%s", m.tree.SelectedPath(), s)
	}
}

// DCI-RET-2, AMB-31 (issue 20 item 5): a collection that takes over a quarter of the interval is
// flagged with its duration on the status line and read again at once, once.
func TestSlowSample(t *testing.T) {
	src := newFixture(t, 1, 1)
	m := newModel(t, src, 160, 40, 1)
	src.Took = 400 * time.Millisecond // 40% of the 1 s interval
	m, cmd := sendCmd(t, m, sampleCmd(context.Background(), m.src, m.now)())
	s := plainView(m)
	if !strings.Contains(s, "slow: took 400ms (40% of the interval)") || cmd == nil {
		t.Fatalf("a slow sample is flagged and read again (cmd %v):\n%s", cmd != nil, s)
	}
	m, cmd = sendCmd(t, m, cmd()) // the retry is slow too: not read again a second time
	if cmd != nil {
		t.Fatal("a slow retry is not retried again")
	}
	src.Took = 0
	m = collectOnce(t, m)
	if strings.Contains(plainView(m), "slow:") {
		t.Fatal("a quick sample is not flagged")
	}
}

// X-2 (issue 20 item 6): R flips the values pane between rates and raw readings: a counter shows
// its cumulative reading, a quantity is unaffected, and R again gives the rate back.
func TestRawRateToggle(t *testing.T) {
	m := newModel(t, newFixture(t, 1, 1), 160, 40, 2)
	m = keys(t, m, ":/CPU/cpu0/idle{enter}2")
	row := func() string {
		for _, l := range strings.Split(stripANSI(m.values.View()), "\n") {
			if strings.HasPrefix(l, "idle ") {
				return strings.Join(strings.Fields(l), " ")
			}
		}
		return ""
	}
	rate := row()
	if !strings.Contains(rate, "%") {
		t.Fatalf("idle as a rate (utilization): %q", rate)
	}
	m = keys(t, m, "R")
	raw := row()
	if strings.Contains(raw, "%") || !strings.Contains(raw, "1780 millisec") || !strings.Contains(plainView(m), "raw: counters") {
		t.Fatalf("idle raw: %q", raw)
	}
	m = keys(t, m, "R")
	if row() != rate {
		t.Fatalf("R again: %q, want %q", row(), rate)
	}
}

// DCI-EVT-4 (issue 20 item 7): an instance removed at a collection stays one interval in the
// table, greyed as gone, with its final values; then it goes.
func TestGoneRows(t *testing.T) {
	src := newFixture(t, 1, 3)
	m := newModel(t, src, 160, 40, 2)
	m = keys(t, m, ":/Disk{enter}2")
	src.Disks = 2
	m = collectOnce(t, m)
	var line string
	for _, l := range strings.Split(stripANSI(m.values.View()), "\n") {
		if strings.HasPrefix(l, "sdc (gone)") {
			line = l
		}
	}
	// DCI-INV-5: its final values are checked item by item: the writes sdc never had stay n/a.
	if line == "" || !strings.Contains(line, "94") || !strings.Contains(line, "n/a") {
		t.Fatalf("sdc is gone with its final %%util (94) and writes n/a:\n%s", stripANSI(m.values.View()))
	}
	m = collectOnce(t, m)
	if strings.Contains(stripANSI(m.values.View()), "sdc") {
		t.Fatalf("one interval later the gone row goes:\n%s", stripANSI(m.values.View()))
	}
}

// DCI-CLS-2: the tree marks a class that is not sampled with why.
func TestTreeMarksUnavailableClasses(t *testing.T) {
	src := newFixture(t, 1, 2)
	m := newModel(t, src, 80, 24, 1)
	m = keys(t, m, "1")
	for _, c := range m.reg.Classes() {
		if c.Name == "disk" {
			c.Flags |= ns.ClassNotImplemented
		}
	}
	m.tree.rebuild()
	m.touch()
	if s := stripANSI(m.tree.View()); !strings.Contains(s, "sda (1) (not implemented)") {
		t.Fatalf("the tree does not say the class is not implemented:\n%s", s)
	}
}

// DCI4-SUP-1: a supplier the monitor has never seen is shown from its descriptions alone.
// DCI4-DESC-4, DCI4-SUP-11, SPMI-ERR-3 through the inspector: a statistic whose DCI4 description
// departs from the document (name_tag not zero; an address type its supplier's interface 1.00
// does not have) is shown with the conformance warnings; its value is still shown, the type
// newer than the interface raw with a marker.
func TestInspectorConformance(t *testing.T) {
	r := ns.NewRegistry()
	sup := ns.Supplier{IVersion: 100, SVersion: 100, Module: "old", Title: "old supplier", Description: "interface 1.00"}
	bad := ns.Gauge(1, "tagged", ns.TypeUint4, ns.UnitCount, "A level", "nowhere")
	bad.DCI4.NameTag = 7
	addr := ns.Discrete(2, "addr", ns.TypeUint4, ns.UnitNone, "An address", "nowhere").WithDCI4(ns.STAddress, ns.SAFIP, ns.SAPNormal)
	if err := r.RegisterClass(&ns.Class{ID: ns.ClassID{5}, Name: "Thing", Flags: ns.ClassEnabled, Supplier: &sup,
		Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagSingleInst, Size: 4}}, Datums: []ns.Datum{bad, addr}}); err != nil {
		t.Fatal(err)
	}
	m := newModel(t, &stubSampler{reg: r, log: ns.NewEventLog(10)}, 200, 60, 2)
	m = keys(t, m, ":/Thing/tagged{enter}4")
	var all strings.Builder
	for i := 0; i < 4; i++ {
		all.WriteString(stripANSI(m.insp.View()))
		m = keys(t, m, "{pgdown}")
	}
	if s := all.String(); !strings.Contains(s, "name_tag is 7, must be 0 (DCI4-DESC-4)") {
		t.Fatalf("the inspector does not show the conformance warning:\n%s", s)
	}
	m = keys(t, m, ":/Thing/addr{enter}4")
	all.Reset()
	for i := 0; i < 4; i++ {
		all.WriteString(stripANSI(m.insp.View()))
		m = keys(t, m, "{pgdown}")
	}
	if s := all.String(); !strings.Contains(s, "ST_ADDRESS is not supported by interface") {
		t.Fatalf("the inspector does not show the interface warning:\n%s", s)
	}
}
