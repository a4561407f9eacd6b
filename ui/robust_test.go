package ui

import (
	"context"
	ns "dcimon/namespace"
	"dcimon/ui/internal/fixture"
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
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
	m = wheel(m, 60, rowOf("alerts"), tea.MouseButtonWheelDown)
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

// SPMI-HIER-11: the inspector of an instance that goes says "deleted yes" at the next reading,
// whatever pane has the focus, not when the selection moves (issue 29 item 8).
func TestInspectorShowsDeletion(t *testing.T) {
	for _, focus := range []string{"4", "1", "2"} {
		t.Run("focus "+focus, func(t *testing.T) {
			src := newFixture(t, 1, 1, "eth0", "eth1")
			m := newModel(t, src, 160, 50, 2)
			// The fixture numbers interfaces by place: the last one is the one that goes.
			m = keys(t, m, ":NetIf/eth1{enter}"+focus)
			if got := stripANSI(m.insp.View()); !strings.HasPrefix(got, "NetIf/eth1") || strings.Contains(got, "yes — ") {
				t.Fatalf("before: the inspector of eth1:\n%s", got)
			}
			src.NICs = []string{"eth0"}
			for range 3 {
				m = collectOnce(t, m)
			}
			if got := stripANSI(m.insp.View()); strings.HasPrefix(got, "NetIf/eth1") && !strings.Contains(got, "yes — ") {
				t.Fatalf("after eth1 went, the inspector still describes it as there:\n%s", got)
			}
		})
	}
}
