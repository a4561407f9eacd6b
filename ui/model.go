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
	src  Sampler
	reg  *namespace.Registry
	opts Options
	st   *styles
	vf   valueFormat
	ov   *overview // the overview screen's state, shared by every copy of the model
	// started says the start pane and path (Options) have been opened, at the first sample.
	started bool
	ctx     context.Context
	log     *log.Logger
	crash   *crashBox
	sub     *subscription

	keyMaps      // the key bindings (keymap.go)
	modalState   // the mode that takes the keys first, and what it holds (modal.go)
	gotoLine     // a go-to on its way down a remote name space (goto.go)
	tickChain    // the beats and the collections they start (tick.go)
	statusState  // what the status line says of the collections (status.go)
	hostTitle    // the host named in the title (hostname.go)
	hotsetSaving // whether changed hotsets are saved, and the question (hotsave.go)

	// The screen: its size, where the panes are, which has the focus, and the panes.
	w, h   int
	lay    layout
	focus  paneID
	tree   *treePane
	values *valuesPane
	hot    *hotPane
	insp   *inspectorPane
	events *eventsPane
	// procsByIO asks the process table, when its columns are first made, to rank by I/O (P
	// pressed on a disk).
	procsByIO bool

	// The latest reading: its snapshot, the selection in it, the events seen, and when the
	// first collection ended (the instances added until then were there at start-up, and the
	// overview's events leave them out).
	snap    *namespace.Snapshot
	sel     namespace.Ref
	evSeq   uint64
	firstAt time.Time
	// inspStale says the tree and the inspector missed collections while the overview hid them.
	inspStale bool

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
		log:     log.New(out, "dcimon ", log.LstdFlags|log.Lmicroseconds),
		keyMaps: keyMaps{keys: ptr(km.global), ovKeys: ptr(newOverlayKeys()), oKeys: ptr(km.overview), inKeys: ptr(newInputKeys()), fKeys: ptr(newFormKeys())},
		// The beats are on the clock (tea.Every: whole multiples of the interval), as sar keeps
		// its readings: a beat handled late does not move the next ones (issue 40 item 2).
		// Init starts the first collection, so the model is born with it in flight.
		tickChain: tickChain{interval: opts.Interval, after: tea.Every, now: opts.Now, inflight: true},
		crash:     &crashBox{},
		sub:       &subscription{},
		fc:        &frameCache{},
		hostTitle: hostTitle{host: opts.Host},
		vf:        valueFormat{loc: opts.Location, netBits: opts.NetBits},
		ov:        &overview{on: opts.Overview},
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
	return tea.Batch(sampleCmd(m.ctx, m.src, m.now), tickCmd(m.after, firstBeat(m.interval), m.tickSeq))
}

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
