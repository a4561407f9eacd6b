package ui

// Routing. The root model holds its panes as concrete fields and routes every message by three
// rules (house style rule 8):
//
//  1. Broadcast size: a tea.WindowSizeMsg recomputes the layout, a pure function of the size, and
//     every pane gets SetSize with its inner rectangle.
//  2. Address data to its owner: a collection comes back as a sampleMsg to the root, which hands
//     the snapshot to each pane through its setters (tree, values, hotsets, inspector, events);
//     a pane that wants something of another (open a path, open the hotset form) returns a
//     command whose message comes back here.
//  3. Keys go to the global bindings first and then only to the focused pane. Modal modes (the
//     hotset form, the help overlay, the filter and go-to inputs) intercept keys before both.

import (
	"context"
	"fmt"
	"io"
	"log"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"

	"dcimon/namespace"
	"dcimon/theme"
)

// modal is the mode that intercepts keys before the global bindings.
type modal int

const (
	modalNone   modal = iota // none
	modalFilter              // filter
	modalGoto                // goto
	modalHelp                // help
	modalForm                // form
)

// crashBox records a panic caught in Update or View; it is shared by every copy of the model so
// Run can return it after the terminal is restored.
type crashBox struct {
	mu   sync.Mutex
	err  error
	quit func()
}

func (c *crashBox) set(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.err = err
		if c.quit != nil {
			go c.quit()
		}
	}
}

func (c *crashBox) get() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Model is the monitor's root bubbletea model. Build it with New; Run runs it in a terminal and
// tests drive it through Update.
type Model struct {
	// goPending is a go-to path in a remote PCP name space not read that far yet; goAt is the
	// deepest part of it there is, goTries the readings since that brought nothing, goErr the
	// lookup's error (goLazy).
	goPending, goAt, goErr string
	// gotoFromOverview says the go-to line was opened on the overview: a time typed there
	// (:@03:12) comes back to it.
	gotoFromOverview bool
	goTries          int

	src  Sampler
	reg  *namespace.Registry
	opts Options
	st   *styles
	vf   valueFormat
	ov   *overview // the overview screen's state, shared by every copy of the model
	// started says the start pane and path (Options) have been opened, at the first sample.
	started bool
	// saveMode is what to do when the hotsets change (Options.SaveMode, the answer to "ask"
	// once given); askingSave says the status line asks it now.
	saveMode   string
	askingSave bool
	ctx        context.Context
	log        *log.Logger
	early      <-chan tea.Msg // the first collection, started by Run before the screen (tick.go)

	// The key maps never change once built: pointers, so a copy of the model does not copy them.
	keys   *globalKeys
	ovKeys *overlayKeys
	oKeys  *overviewKeys
	inKeys *inputKeys
	fKeys  *formKeys
	help   *help.Model // its styles; never changed after New (helpAt sets a width on a copy)

	w, h  int
	lay   layout
	focus paneID

	tree   *treePane
	values *valuesPane
	hot    *hotPane
	insp   *inspectorPane
	events *eventsPane

	modal modal
	// filterValues says the filter being typed is the values table's, not the tree's;
	// filterUser that it is the user whose processes the table keeps (u).
	filterValues, filterUser bool
	// procsByIO asks the process table, when its columns are first made, to rank by I/O (P
	// pressed on a disk).
	procsByIO bool
	helpOff   int // first line of the help overlay shown
	input     lineInput
	form      *hotForm

	interval time.Duration
	paused   bool
	// rp is the replay of PCP archives, with its time cursor (nil: live). A replay is paused
	// unless playing.
	rp       *replayState
	tickSeq  int
	inflight bool
	skipped  int
	after    func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
	now      func() time.Time

	snap      *namespace.Snapshot
	lastErr   error
	took      time.Duration
	sel       namespace.Ref
	health    healthMap
	okN, badN int
	// hostsOK of hosts remote hosts answered (a PCP source of several hosts, issue 14).
	hostsOK, hosts int
	evSeq          uint64
	host           string
	hostGen        uint64
	self           selfRefs

	flash      string
	flashErr   bool
	flashUntil time.Time

	crash *crashBox
	sub   *subscription
	// lastStart is when the latest collection started; extra says the one in flight was started
	// for a class that came on screen, not by the tick chain.
	lastStart time.Time
	extra     bool
	retried   bool // the last collection was a retry of a slow one (DCI-RET-2): never twice
	// inspStale says the tree and the inspector missed collections while the overview hid them.
	inspStale bool
	// firstAt is the end of the first collection: the instances added until then were there
	// at start-up, and the overview's events leave them out.
	firstAt time.Time

	// ver is the version of what the screen shows; Update moves it on whenever a message may
	// have changed anything visible, and View draws again only for a version it has not drawn.
	ver uint64
	fc  *frameCache
}

// New builds the monitor over src. It reads nothing yet: the first collection is the command
// Init returns. An unknown theme falls back to the default (Run reports it before starting).
func New(src Sampler, opts Options) Model {
	st, err := theme.Resolve(opts.Theme, opts.NoColor)
	if err != nil {
		st, _ = theme.Resolve("", opts.NoColor)
	}
	if opts.Interval <= 0 {
		opts.Interval = DefaultInterval
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Location == nil {
		opts.Location = time.Local
	}
	if opts.Hotsets == nil {
		opts.Hotsets = DefaultHotsets()
	}
	out := opts.Debug
	if out == nil {
		out = io.Discard
	}
	km, kerr := newKeymap(opts.Keys)
	if kerr != nil {
		km = defaultKeymap() // main checks the keys first (CheckKeys); a test may not
	}
	m := Model{
		// The styles are read-only once built: every pane shares them, so no copy of the model
		// or of a pane copies them.
		src: src, reg: src.Registry(), opts: opts, st: newStyles(st), ctx: context.Background(),
		log:  log.New(out, "dcimon ", log.LstdFlags|log.Lmicroseconds),
		keys: ptr(km.global), ovKeys: ptr(newOverlayKeys()), oKeys: ptr(km.overview), inKeys: ptr(newInputKeys()), fKeys: ptr(newFormKeys()),
		// The beats are on the clock (tea.Every: whole multiples of the interval), as sar keeps
		// its readings: a beat handled late does not move the next ones (issue 40 item 2).
		interval: opts.Interval, after: tea.Every, now: opts.Now,
		// Init starts the first collection, so the model is born with it in flight.
		inflight: true,
		crash:    &crashBox{},
		sub:      &subscription{},
		fc:       &frameCache{},
		host:     opts.Host,
		vf:       valueFormat{loc: opts.Location, netBits: opts.NetBits},
		ov:       &overview{on: opts.Overview},
	}
	hm := help.New()
	m.help = &hm
	m.help.Styles = helpStyles(st)
	m.tree = ptr(newTree(m.st, km.tree))
	m.tree.vf = m.vf
	m.values = ptr(newValues(m.st, km.values, km.procs, m.vf))
	m.hot = ptr(newHot(m.st, km.hot, m.vf))
	m.insp = ptr(newInspector(m.st, km.insp, opts.Location))
	m.events = ptr(newEvents(m.st, km.events, opts.Location))
	m.hot.SetRegistry(m.reg, src.Events(), opts.Hotsets)
	m.values.limit = m.hot.limitOf
	m.values.layouts = opts.Tables
	m.tree.SetRegistry(m.reg)
	m.tree.Focus()
	m.syncSelection()
	if r, ok := src.(replayer); ok {
		// A replay opens paused on its first reading; p plays it.
		m.rp, m.paused = newReplayState(r, opts.Location), true
		m.keys.replaying()
	}
	m.touch()
	return m
}

func ptr[T any](v T) *T { return &v }

// nextTheme switches to the next theme by name. The styles are shared by every pane through one
// pointer, so they change in place; then everything drawn with the old ones is drawn again.
// With NO_COLOR (or --theme mono forced by it) there is nothing to switch to.
func (m *Model) nextTheme() {
	if m.opts.NoColor {
		m.setFlash("NO_COLOR is set: the monochrome theme only", false)
		return
	}
	names := theme.Names()
	i := slices.Index(names, m.st.theme.Name)
	next := names[(i+1)%len(names)]
	th, err := theme.Resolve(next, false)
	if err != nil {
		m.setFlash(err.Error(), true)
		return
	}
	*m.st = *newStyles(th)
	*m.help = help.New()
	m.help.Styles = helpStyles(th)
	// Everything the frame cache kept was drawn with the old styles.
	m.fc.panes, m.fc.header, m.fc.help = [numPanes]framedPane{}, keptLine{}, keptLine{}
	m.tree.restyle()
	m.values.restyle()
	m.hot.restyle()
	m.insp.restyle()
	m.events.restyle()
	m.setFlash("theme "+next, false)
}

// hotsetsChangedMsg says a peer set was made, edited or deleted in the monitor; note, when
// set, is said on the status line before the save is started.
type hotsetsChangedMsg struct{ note string }

// hotsetsSavedMsg is the end of a save to the configuration file.
type hotsetsSavedMsg struct{ err error }

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

// openStart opens the configured pane and path once the first collection has filled the name
// space (Options.StartPane, StartPath); a path that names nothing says so, as go-to does.
func (m *Model) openStart() {
	if m.started {
		return
	}
	m.started = true
	if m.opts.StartPath != "" {
		m.ov.on = false
		m.gotoPath(m.opts.StartPath)
	}
	if p, ok := paneByName[m.opts.StartPane]; ok {
		m.ov.on = false
		m.setFocus(p)
		m.syncSelection()
	}
}

// paneByName are the panes Options.StartPane names ("overview" is Options.Overview).
var paneByName = map[string]paneID{"tree": paneTree, "values": paneValues, "hotsets": paneHot, "inspector": paneInspector, "events": paneEvents}

// Init starts the first collection and the tick chain.
func (m Model) Init() tea.Cmd {
	return tea.Batch(m.firstSampleCmd(), tickCmd(m.after, firstBeat(m.interval), m.tickSeq))
}

// firstRateAfter bounds the first beat: the first collection shows levels at once, and counters
// need a second one for a rate, so it comes after a short interval rather than a whole one.
const firstRateAfter = 250 * time.Millisecond

func firstBeat(interval time.Duration) time.Duration { return min(interval, firstRateAfter) }

// Update routes one message (see the rules at the top of this file). A panic is caught, recorded
// for Run and turned into a clean quit, so the terminal is always restored.
func (m Model) Update(msg tea.Msg) (out tea.Model, cmd tea.Cmd) {
	defer func() {
		if r := recover(); r != nil {
			m.crash.set(fmt.Errorf("dcimon: panic in update: %v\n%s", r, debug.Stack()))
			out, cmd = m, tea.Quit
		}
	}()
	if _, ok := msg.(tickMsg); ok {
		// A beat usually only schedules a collection: the frame stays unless the beat cleared
		// the message or counted a slow tick.
		flash, skipped := m.flash, m.skipped
		cmd = m.update(msg)
		if m.flash != flash || m.skipped != skipped {
			m.touch()
		}
		return m, cmd
	}
	cmd = m.update(msg)
	if m.inspStale && !m.ov.on {
		// The panes are back: the tree and the inspector, left alone while the overview hid
		// them, catch up.
		m.inspStale = false
		m.tree.SetRegistry(m.reg)
		m.tree.SetHealth(m.health)
		m.tree.SetSnapshot(m.snap)
		m.insp.SetSnapshot(m.snap)
		m.syncSelection()
	}
	m.touch() // anything else may change what is shown
	if c := m.resubscribe(); c != nil {
		cmd = tea.Batch(cmd, c)
	}
	return m, cmd
}

// goneMsg is the answer to a goAwayMsg.
type goneMsg struct {
	module string
	err    error
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return nil
	case tickMsg:
		return m.onTick(msg)
	case sampleMsg:
		return m.onSample(msg)
	case flashMsg:
		m.setFlash(msg.text, msg.isErr)
		return nil
	case goAwayMsg:
		g, ok := m.src.(goAwayer)
		if !ok {
			m.setFlash("this source has no users' suppliers to send away", true)
			return nil
		}
		return func() tea.Msg { return goneMsg{msg.module, g.GoAway(msg.module)} }
	case goneMsg:
		if msg.err != nil {
			m.setFlash(firstLine(msg.err.Error()), true)
		} else {
			m.setFlash(msg.module+" sent away: its statistics are gone until its file changes", false)
		}
		return nil
	case hotsetsChangedMsg:
		if msg.note != "" {
			m.setFlash(msg.note, false)
		}
		return m.hotsetsChanged()
	case hotsetsSavedMsg:
		if msg.err != nil {
			// Said on the status line and kept in the events, every time (issue 41 item 8): a
			// write the user asked for that failed must not pass unseen.
			text := "hotsets not saved: " + firstLine(msg.err.Error())
			m.setFlash(text, true)
			if log := m.src.Events(); log != nil {
				log.Add(namespace.Event{Time: m.now(), Kind: namespace.EvProviderError, Path: "dcimon", Text: text})
			}
		} else {
			m.setFlash("hotsets saved to "+m.opts.ConfigName, false)
		}
		return nil
	case openMsg:
		m.tree.Reveal(msg.path)
		m.setFocus(paneTree)
		m.syncSelection()
		return nil
	case formRequestMsg:
		m.openForm(msg.edit)
		return nil
	case tea.MouseMsg:
		m.onMouse(msg)
		return nil
	case tea.KeyMsg:
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
			// Keys typed faster than the terminal is read arrive as one message (":Disk"); each
			// is a key of its own, and the first may open the mode the others are typed into.
			var cmds []tea.Cmd
			for _, r := range msg.Runes {
				cmds = append(cmds, m.onKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt}))
			}
			return tea.Batch(cmds...)
		}
		return m.onKey(msg)
	}
	return nil
}

// resize broadcasts a new size: the layout is recomputed and every pane gets its rectangle.
func (m *Model) resize(w, h int) {
	m.w, m.h = w, h
	m.lay = computeLayout(w, h, m.st.theme)
	in := func(p paneID) (int, int) { return m.lay.Panes[p].Inner.W, m.lay.Panes[p].Inner.H }
	m.tree.SetSize(in(paneTree))
	m.values.SetSize(in(paneValues))
	m.hot.SetSize(in(paneHot))
	m.insp.SetSize(in(paneInspector))
	m.events.SetSize(in(paneEvents))
}

func (m *Model) onTick(msg tickMsg) tea.Cmd {
	if msg.seq != m.tickSeq {
		return nil // a beat of a chain that was replaced
	}
	if m.flash != "" && !m.flashUntil.IsZero() && !m.now().Before(m.flashUntil) && !m.askingSave {
		m.flash = "" // a question stays until it is answered
	}
	if m.paused {
		return nil // the chain stops; unpausing starts a new one
	}
	next := tickCmd(m.after, m.interval, m.tickSeq)
	if m.rp != nil {
		if m.inflight {
			return next // the play goes on from where that collection reads, at the next beat
		}
		m.inflight = true
		return tea.Batch(m.replayTick(), next)
	}
	if m.inflight {
		if m.extra {
			return next // a collection for a class that just came on screen: as fresh as this one
		}
		m.skipped++
		m.log.Printf("tick %d: the previous collection is still running; skipped", m.tickSeq)
		return next
	}
	m.inflight = true
	return tea.Batch(sampleCmd(m.ctx, m.src, m.now), next)
}

// restartTicks replaces the tick chain (a new interval, or unpausing) and collects at once.
func (m *Model) restartTicks() tea.Cmd {
	m.tickSeq++
	cmds := []tea.Cmd{tickCmd(m.after, m.interval, m.tickSeq)}
	if !m.inflight {
		m.inflight = true
		cmds = append(cmds, sampleCmd(m.ctx, m.src, m.now))
	}
	return tea.Batch(cmds...)
}

// onSample applies one collection: the snapshot goes to every pane through its setters.
func (m *Model) onSample(msg sampleMsg) tea.Cmd {
	m.inflight, m.extra = false, false
	m.took = msg.took
	m.lastStart = msg.start
	m.lastErr = msg.err
	if msg.err != nil {
		m.log.Printf("collection failed after %s: %v", msg.took, msg.err)
		m.setFlash("collection failed: "+firstLine(msg.err.Error()), true)
	}
	if msg.snap == nil {
		return nil
	}
	m.log.Printf("sample %d in %s", msg.snap.Seq, msg.took)
	m.snap = msg.snap
	if m.firstAt.IsZero() {
		m.firstAt = msg.snap.End // what is "added" until then is the start-up inventory
	}
	m.health, m.okN, m.badN, m.hostsOK, m.hosts = buildHealthHosts(m.reg, m.snap)
	m.ov.hosts.set(m.reg, m.snap) // a fleet's hosts table (hosts.go)
	if m.ov.on {
		// The overview hides the tree: its rows are made again when the panes come back, not
		// at every collection that brings a new process (issue 32 item 15).
		m.inspStale = true
	} else {
		m.tree.SetRegistry(m.reg)
		m.tree.SetHealth(m.health)
		m.tree.SetSnapshot(m.snap)
	}
	m.hot.ShowFor(m.sel.Ctx)  // the on-screen peer sets whose class had no instance yet
	m.hot.SetSnapshot(m.snap) // before reading the log: the read raises hotset exceptions
	if log := m.src.Events(); log != nil {
		if seq := log.Seq(); seq != m.evSeq {
			evs := log.Events()
			// A class whose description changed is read whole again (DCI-EVT-5).
			for _, e := range evs[:min(int(seq-m.evSeq), len(evs))] {
				if e.Kind == namespace.EvDataChanged {
					if r, ok := m.src.(refresher); ok {
						r.Refresh()
					}
					break
				}
			}
			m.evSeq = seq
			m.events.SetEvents(evs, seq)
		}
	}
	if m.ov.on {
		// The overview hides the inspector: it is described again when the panes come back,
		// not at every collection (issue 32 item 15: the overview's cost).
		m.inspStale = true
		if m.sel = m.tree.Selected(); m.sel.Ctx != nil {
			m.values.SetSelection(m.reg, m.sel)
		}
	} else {
		m.insp.SetSnapshot(m.snap)
		m.syncSelection()
	}
	m.values.SetSnapshot(m.snap)
	if m.focus == paneValues {
		// The table was sorted again with the new values: the inspector follows the row now
		// under the cursor, not the one that was there before the sort.
		if t := m.values.Selected(); t.Ctx != nil {
			m.insp.SetTarget(m.reg, t)
		}
	}
	m.openStart()
	m.goOn()
	m.findHost()
	m.findSelf()
	if m.rp != nil {
		return m.replayed() // a replay's readings are timed by the archive, not by how long they took
	}
	// DCI-RET-2, AMB-31: a collection whose start and end are far apart is flagged (status line)
	// and read again at once, once: its classes were read at different moments.
	if slowSample(m.snap.End.Sub(m.snap.Start), m.interval) && !m.retried && !m.paused {
		m.retried, m.inflight, m.extra = true, true, true
		m.log.Printf("sample %d took %s: over a quarter of the interval; read again", m.snap.Seq, m.snap.End.Sub(m.snap.Start))
		return sampleCmd(m.ctx, m.src, m.now)
	}
	m.retried = false
	return nil
}
