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
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

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
	src  Source
	reg  *namespace.Registry
	opts Options
	st   *styles
	vf   valueFormat
	ctx  context.Context
	log  *log.Logger

	// The key maps never change once built: pointers, so a copy of the model does not copy them.
	keys   *globalKeys
	ovKeys *overlayKeys
	inKeys *inputKeys
	fKeys  *formKeys
	help   *help.Model // its styles; never changed after New (helpAt sets a width on a copy)

	w, h  int
	lay   layout
	focus paneID

	tree   treePane
	values valuesPane
	hot    hotPane
	insp   inspectorPane
	events eventsPane

	modal   modal
	helpOff int // first line of the help overlay shown
	input   lineInput
	form    *hotForm

	interval time.Duration
	paused   bool
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
	evSeq     uint64
	host      string
	hostGen   uint64
	self      selfRefs

	flash      string
	flashErr   bool
	flashUntil time.Time

	crash *crashBox
	sub   *subscription
	// lastStart is when the latest collection started; extra says the one in flight was started
	// for a class that came on screen, not by the tick chain.
	lastStart time.Time
	extra     bool

	// ver is the version of what the screen shows; Update moves it on whenever a message may
	// have changed anything visible, and View draws again only for a version it has not drawn.
	ver uint64
	fc  *frameCache
}

// frameCache is the last frame View drew. Bubbletea models are values, so it sits behind a
// pointer every copy of the model shares; versions come from its counter, so two copies that
// went different ways never carry the same one and neither is shown the other's frame.
type frameCache struct {
	seq     uint64 // versions handed out
	ver     uint64 // the version frame was drawn for; 0 before the first frame
	frame   string
	renders int // frames drawn, for tests
	size    int // the last frame's length, to size the next one's buffer
	header  keptLine
	help    keptLine

	panes [numPanes]framedPane
}

// keptLine is a line of the screen kept with what it was drawn from.
type keptLine struct {
	focus       paneID
	w           int
	path, right string
	line        string
}

// next is a version no copy of the model has had yet.
func (c *frameCache) next() uint64 {
	c.seq++
	return c.seq
}

// touch marks the screen as changed: the next View draws a new frame.
func (m *Model) touch() {
	if m.fc != nil {
		m.ver = m.fc.next()
	}
}

// New builds the monitor over src. It reads nothing yet: the first collection is the command
// Init returns. An unknown theme falls back to the default (Run reports it before starting).
func New(src Source, opts Options) Model {
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
	m := Model{
		// The styles are read-only once built: every pane shares them, so no copy of the model
		// or of a pane copies them.
		src: src, reg: src.Registry(), opts: opts, st: newStyles(st), ctx: context.Background(),
		log:  log.New(out, "dcimon ", log.LstdFlags|log.Lmicroseconds),
		keys: ptr(newGlobalKeys()), ovKeys: ptr(newOverlayKeys()), inKeys: ptr(newInputKeys()), fKeys: ptr(newFormKeys()),
		interval: opts.Interval, after: tea.Tick, now: opts.Now,
		// Init starts the first collection, so the model is born with it in flight.
		inflight: true,
		crash:    &crashBox{},
		sub:      &subscription{},
		fc:       &frameCache{},
		host:     opts.Host,
		vf:       valueFormat{loc: opts.Location},
	}
	hm := help.New()
	m.help = &hm
	m.help.Styles = helpStyles(st)
	m.tree = newTree(m.st, newTreeKeys())
	m.tree.vf = m.vf
	m.values = newValues(m.st, newValuesKeys(), m.vf)
	m.hot = newHot(m.st, newHotKeys(), m.vf)
	m.insp = newInspector(m.st, newScrollKeys(), opts.Location)
	m.events = newEvents(m.st, newEventsKeys(), opts.Location)
	m.hot.SetSource(m.reg, src.Events(), opts.Hotsets)
	m.tree.SetRegistry(m.reg)
	m.tree.Focus()
	m.syncSelection()
	m.touch()
	return m
}

func ptr[T any](v T) *T { return &v }

func helpStyles(st theme.Styles) help.Styles {
	return help.Styles{
		ShortKey: st.Help.Key, ShortDesc: st.Help.Desc, ShortSeparator: st.Help.Sep,
		FullKey: st.Help.Key, FullDesc: st.Help.Desc, FullSeparator: st.Help.Sep, Ellipsis: st.Help.Sep,
	}
}

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

// Init starts the first collection and the tick chain.
func (m Model) Init() tea.Cmd {
	return tea.Batch(sampleCmd(m.ctx, m.src, m.now), tickCmd(m.after, firstBeat(m.interval), m.tickSeq))
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
	m.touch() // anything else may change what is shown
	if c := m.resubscribe(); c != nil {
		cmd = tea.Batch(cmd, c)
	}
	return m, cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return nil
	case tickMsg:
		return m.onTick(msg)
	case sampleMsg:
		m.onSample(msg)
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
	if m.flash != "" && !m.flashUntil.IsZero() && !m.now().Before(m.flashUntil) {
		m.flash = ""
	}
	if m.paused {
		return nil // the chain stops; unpausing starts a new one
	}
	next := tickCmd(m.after, m.interval, m.tickSeq)
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
func (m *Model) onSample(msg sampleMsg) {
	m.inflight, m.extra = false, false
	m.took = msg.took
	m.lastStart = msg.start
	m.lastErr = msg.err
	if msg.err != nil {
		m.log.Printf("collection failed after %s: %v", msg.took, msg.err)
		m.setFlash("collection failed: "+firstLine(msg.err.Error()), true)
	}
	if msg.snap == nil {
		return
	}
	m.log.Printf("sample %d in %s", msg.snap.Seq, msg.took)
	m.snap = msg.snap
	m.health, m.okN, m.badN = buildHealth(m.reg, m.snap)
	m.tree.SetRegistry(m.reg)
	m.tree.SetHealth(m.health)
	m.tree.SetSnapshot(m.snap)
	m.hot.SetSnapshot(m.snap) // before reading the log: the read raises hotset exceptions
	if log := m.src.Events(); log != nil {
		if seq := log.Seq(); seq != m.evSeq {
			m.evSeq = seq
			m.events.SetEvents(log.Events(), seq)
		}
	}
	m.insp.SetSnapshot(m.snap)
	m.syncSelection()
	m.values.SetSnapshot(m.snap)
	m.findHost()
	m.findSelf()
}

// plural is "1 match", "2 matches".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func (m *Model) setFlash(s string, isErr bool) {
	m.flash, m.flashErr = s, isErr
	m.flashUntil = m.now().Add(max(5*time.Second, 3*m.interval))
}

// syncSelection pushes the tree's selection to the values pane and the focused pane's selection
// to the inspector.
func (m *Model) syncSelection() {
	sel := m.tree.Selected()
	m.sel = sel
	if sel.Ctx != nil {
		m.values.SetSelection(m.reg, sel)
	}
	var target namespace.Ref
	switch m.focus {
	case paneTree:
		target = sel
	case paneValues:
		target = m.values.Selected()
	case paneHot:
		if e := m.hot.SelectedEntry(); e != nil && m.hot.OnHeader() {
			m.insp.SetPeerSet(m.reg, m.hot.hs, e)
			return
		}
		target = m.hot.Selected()
	case paneEvents:
		if e, ok := m.events.Selected(); ok {
			m.insp.SetEvent(m.reg, e)
		}
		return
	default:
		return // the inspector keeps what it shows
	}
	if target.Ctx == nil {
		target = sel
	}
	if target.Ctx != nil {
		m.insp.SetTarget(m.reg, target)
	}
}

func (m *Model) setFocus(p paneID) {
	if p < 0 || p >= numPanes {
		return
	}
	m.focus = p
	m.tree.Blur()
	m.values.Blur()
	m.hot.Blur()
	m.insp.Blur()
	m.events.Blur()
	switch p {
	case paneTree:
		m.tree.Focus()
	case paneValues:
		m.values.Focus()
	case paneHot:
		m.hot.Focus()
	case paneInspector:
		m.insp.Focus()
	case paneEvents:
		m.events.Focus()
	}
}

func (m *Model) onKey(km tea.KeyMsg) tea.Cmd {
	switch m.modal {
	case modalHelp:
		switch {
		case key.Matches(km, m.ovKeys.Close):
			m.modal = modalNone
		case key.Matches(km, m.ovKeys.Up):
			m.scrollHelp(-1)
		case key.Matches(km, m.ovKeys.Down):
			m.scrollHelp(1)
		}
		return nil
	case modalForm:
		m.formKey(km)
		return nil
	case modalFilter:
		switch {
		case key.Matches(km, m.inKeys.Accept):
			m.modal = modalNone
		case key.Matches(km, m.inKeys.Cancel):
			m.modal = modalNone
			m.tree.SetFilter("")
			m.syncSelection()
		default:
			if m.input.Update(km) {
				m.tree.SetFilter(m.input.Value())
				m.syncSelection()
			}
		}
		return nil
	case modalGoto:
		switch {
		case key.Matches(km, m.inKeys.Accept):
			m.modal = modalNone
			m.gotoPath(m.input.Value())
		case key.Matches(km, m.inKeys.Cancel):
			m.modal = modalNone
		default:
			m.input.Update(km)
		}
		return nil
	}
	k := m.keys
	switch {
	case key.Matches(km, k.Quit):
		return tea.Quit
	case key.Matches(km, k.Help):
		m.modal, m.helpOff = modalHelp, 0
		return nil
	case key.Matches(km, k.Filter):
		m.modal = modalFilter
		m.input = newLineInput(m.inKeys, m.tree.Filter(), 200)
		m.setFocus(paneTree)
		return nil
	case key.Matches(km, k.Goto):
		m.modal = modalGoto
		m.input = newLineInput(m.inKeys, "", 200)
		return nil
	case key.Matches(km, k.Theme):
		m.nextTheme()
		return nil
	case key.Matches(km, k.Pause):
		m.paused = !m.paused
		if m.paused {
			m.tickSeq++ // the running chain stops at its next beat
			return nil
		}
		return m.restartTicks()
	case key.Matches(km, k.Longer), key.Matches(km, k.Shorter):
		dir := 1
		if key.Matches(km, k.Shorter) {
			dir = -1
		}
		if d := stepInterval(m.interval, dir); d != m.interval {
			m.interval = d
			m.setFlash("refresh every "+d.String(), false)
			if !m.paused {
				return m.restartTicks()
			}
		}
		return nil
	case key.Matches(km, k.NextPane):
		m.setFocus((m.focus + 1) % numPanes)
		m.syncSelection()
		return nil
	case key.Matches(km, k.PrevPane):
		m.setFocus((m.focus + numPanes - 1) % numPanes)
		m.syncSelection()
		return nil
	}
	for p, b := range []key.Binding{k.Tree, k.Values, k.Hot, k.Insp, k.Evs} {
		if key.Matches(km, b) {
			m.setFocus(paneID(p))
			m.syncSelection()
			return nil
		}
	}
	var cmd tea.Cmd
	switch m.focus {
	case paneTree:
		m.tree, cmd = m.tree.Update(km)
	case paneValues:
		m.values, cmd = m.values.Update(km)
	case paneHot:
		m.hot, cmd = m.hot.Update(km)
	case paneInspector:
		m.insp, cmd = m.insp.Update(km)
	case paneEvents:
		m.events, cmd = m.events.Update(km)
	}
	m.syncSelection()
	return cmd
}

// gotoPath resolves a path relative to the selected context (SPMI-HIER-7): an empty path is the
// selected context itself, a leading "/" starts at Top; an unknown path shows the SPMI code.
func (m *Model) gotoPath(path string) {
	path = strings.TrimSpace(path)
	var ref namespace.Ref
	var err error
	if path == "" {
		ref = namespace.Ref{Ctx: m.reg.Top()} // the SPMI rule: an empty path is Top
	} else {
		// A partial path is resolved from the selected context (SPMI-HIER-7); when it names
		// nothing there, from each context above it, ending with a fully qualified path from Top.
		for from := m.sel.Ctx; ; from = from.Parent() {
			ref, err = m.reg.Lookup(from, path)
			if err == nil || from == nil || from.Kind == namespace.CtxTop {
				break
			}
		}
	}
	if err != nil {
		m.setFlash(err.Error(), true)
		return
	}
	p := ref.Path()
	if p == "" {
		m.tree.Reveal("")
		m.tree.moveTo(0)
	} else {
		m.tree.Reveal(p)
	}
	m.setFocus(paneTree)
	m.syncSelection()
}

// openForm opens the hotset form for the selected statistic, or to edit a peer set.
func (m *Model) openForm(edit *namespace.HotVals) {
	var spec namespace.HotSpec
	grandpa, stat := "", ""
	if edit != nil {
		spec = edit.Spec()
		grandpa, stat = edit.Path(), spec.Stat
	} else {
		ref := m.sel
		if m.focus == paneValues {
			ref = m.values.Selected()
		}
		if ref.Datum == nil || ref.Ctx == nil {
			m.setFlash("select a statistic to rank first (a row under a context in the tree)", true)
			return
		}
		gp := ref.Ctx
		if gp.Kind == namespace.CtxInstance && gp.Parent() != nil {
			gp = gp.Parent()
		}
		grandpa, stat = gp.Path(), ref.Datum.Name
		spec = namespace.HotSpec{MaxResp: 5, Feed: namespace.SiHotThreshold}
	}
	m.form = newHotForm(m.fKeys, m.inKeys, grandpa, stat, spec, edit)
	m.modal = modalForm
}

func (m *Model) formKey(km tea.KeyMsg) {
	switch m.form.Update(km) {
	case formCancel:
		m.modal, m.form = modalNone, nil
	case formSubmit:
		spec, err := m.form.Spec()
		if err == nil {
			_, err = m.hot.Add(spec, m.form.edit)
		}
		if err != nil {
			m.form.err = err.Error()
			return
		}
		m.modal, m.form = modalNone, nil
		m.setFocus(paneHot)
		m.setFlash("hotset "+spec.Grandpa+" "+spec.Stat+" saved", false)
	}
}

// onMouse focuses and selects with a click and scrolls the pane under the pointer with the wheel.
func (m *Model) onMouse(msg tea.MouseMsg) {
	ev := tea.MouseEvent(msg)
	switch m.modal {
	case modalHelp:
		if ev.IsWheel() {
			m.scrollHelp(wheelStep(ev))
		}
		return
	case modalForm:
		m.onFormMouse(ev)
		return
	case modalNone:
	default:
		return
	}
	if m.lay.Mode == modeTooSmall {
		return
	}
	if m.lay.Mode == modeCompact && ev.Action == tea.MouseActionPress && ev.Button == tea.MouseButtonLeft && m.lay.Tabs.contains(ev.X, ev.Y) {
		for p, r := range tabRanges(m.w) {
			if ev.X >= r[0] && ev.X < r[1] {
				m.setFocus(paneID(p))
				m.syncSelection()
			}
		}
		return
	}
	target := paneID(-1)
	for p := paneTree; p < numPanes; p++ {
		if m.lay.Mode == modeCompact && p != m.focus {
			continue
		}
		if m.lay.Panes[p].Outer.contains(ev.X, ev.Y) {
			target = p
			break
		}
	}
	if target < 0 {
		return
	}
	if ev.IsWheel() {
		m.scrollPane(target, wheelStep(ev))
		m.syncSelection()
		return
	}
	if ev.Action != tea.MouseActionPress || ev.Button != tea.MouseButtonLeft {
		return
	}
	m.setFocus(target)
	in := m.lay.Panes[target].Inner
	if in.contains(ev.X, ev.Y) {
		y := ev.Y - in.Y
		switch target {
		case paneTree:
			m.tree.ClickRow(y)
		case paneValues:
			m.values.ClickRow(y)
		case paneHot:
			m.hot.ClickRow(y)
		case paneEvents:
			m.events.ClickRow(y)
		}
	}
	m.syncSelection()
}

// wheelStep is how far a wheel notch scrolls: three lines, up or down.
func wheelStep(ev tea.MouseEvent) int {
	if ev.Button == tea.MouseButtonWheelUp || ev.Button == tea.MouseButtonWheelLeft {
		return -3
	}
	return 3
}

// formW is the hotset form's width.
func (m *Model) formW() int { return min(m.w-2, 90) }

// onFormMouse lets the mouse work the hotset form: a click focuses a field, a click on the
// focused choice field or the wheel over a choice field steps its choice.
func (m *Model) onFormMouse(ev tea.MouseEvent) {
	if m.form == nil {
		return
	}
	box := m.form.View(m.st, m.formW(), "")
	i := ev.Y - max((m.h-len(box))/2, 0) - formFieldsTop
	if i < 0 || i >= len(m.form.fields) {
		return
	}
	switch {
	case ev.IsWheel():
		m.form.focus = i
		m.form.step(i, wheelStep(ev)/3)
	case ev.Action == tea.MouseActionPress && ev.Button == tea.MouseButtonLeft:
		if m.form.focus == i {
			m.form.step(i, 1)
		}
		m.form.focus = i
	}
}

func (m *Model) scrollPane(p paneID, n int) {
	switch p {
	case paneTree:
		m.tree.Scroll(n)
	case paneValues:
		m.values.Scroll(n)
	case paneHot:
		m.hot.Scroll(n)
	case paneInspector:
		m.insp.Scroll(n)
	case paneEvents:
		m.events.Scroll(n)
	}
}

// findHost takes the host name from a `hostname` statistic when Options.Host is empty; looked
// up again only when the name space changes.
func (m *Model) findHost() {
	if m.opts.Host != "" || m.snap == nil {
		return
	}
	gen := m.reg.Generation()
	if gen == m.hostGen && m.host != "" {
		return
	}
	m.hostGen = gen
	for _, p := range []string{"Host/hostname", "Host/name", "hostname"} {
		ref, err := m.reg.Lookup(nil, p)
		if err != nil || !ref.IsStat() {
			continue
		}
		if v, _, ok := m.snap.Lookup(ref); ok && v.State == namespace.Valid && v.S != "" {
			m.host = safe(v.S)
			return
		}
	}
}

// View draws the whole screen from the current state; it does no I/O and changes nothing but
// the caches behind it: a version it has drawn already gets the same frame again.
func (m Model) View() string {
	if m.fc != nil && m.fc.ver != 0 && m.fc.ver == m.ver {
		return m.fc.frame
	}
	s, ok := m.draw()
	if ok && m.fc != nil {
		m.fc.ver, m.fc.frame = m.ver, s
		m.fc.renders++
	}
	return s
}

// draw renders a new frame; ok is false when it panicked (the frame is then empty).
func (m *Model) draw() (s string, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			m.crash.set(fmt.Errorf("dcimon: panic in view: %v\n%s", r, debug.Stack()))
			s, ok = "", false
		}
	}()
	if m.fc == nil {
		m.fc = &frameCache{} // a model not built by New: nothing is kept
	}
	return m.compose(), true
}

func (m *Model) compose() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	if m.lay.Mode == modeTooSmall {
		return tooSmall(m.st, m.w, m.h)
	}
	var panes [numPanes]*framedPane // nil for a pane not shown
	if m.lay.Mode == modeCompact {
		panes[m.focus] = m.framed(m.focus)
	} else {
		for p := paneTree; p < numPanes; p++ {
			panes[p] = m.framed(p)
		}
	}
	header, status, bottom := m.header(), m.statusLine(), m.bottomLine()
	var tabs string
	if m.lay.Mode == modeCompact {
		tabs = m.tabs()
	}
	blank := ""
	// line writes screen line y: the panes' lines side by side, left to right.
	line := func(sb *strings.Builder, y int) {
		switch {
		case y == 0:
			sb.WriteString(header)
			return
		case y == 1 && m.lay.Mode == modeCompact:
			sb.WriteString(tabs)
			return
		case y == m.lay.Status.Y:
			sb.WriteString(status)
			return
		case y == m.lay.Help.Y:
			sb.WriteString(bottom)
			return
		}
		n := sb.Len()
		for p := paneTree; p < numPanes; p++ {
			if i := y - m.lay.Panes[p].Outer.Y; panes[p] != nil && i >= 0 && i < m.lay.Panes[p].Outer.H {
				panes[p].write(sb, i)
			}
		}
		if sb.Len() == n {
			if blank == "" {
				blank = strings.Repeat(" ", m.w)
			}
			sb.WriteString(blank)
		}
	}
	var sb strings.Builder
	if m.modal != modalHelp && m.modal != modalForm {
		sb.Grow(m.fc.size)
		for y := 0; y < m.h; y++ {
			if y > 0 {
				sb.WriteByte('\n')
			}
			line(&sb, y)
		}
		m.fc.size = sb.Len()
		return sb.String()
	}
	// An overlay is drawn over whole lines.
	lines := make([]string, m.h)
	for y := range lines {
		sb.Reset()
		line(&sb, y)
		lines[y] = sb.String()
	}
	switch m.modal {
	case modalHelp:
		overlay(lines, m.helpOverlay(), m.w, m.h)
	case modalForm:
		fw := m.formW()
		hm := m.helpAt(fw - 4)
		overlay(lines, m.form.View(m.st, fw, hm.ShortHelpView(m.form.ShortHelp())), m.w, m.h)
	}
	return strings.Join(lines, "\n")
}

// tooSmall is the notice shown below the minimum size; it never panics, whatever the size.
func tooSmall(st *styles, w, h int) string {
	msg := fmt.Sprintf("terminal too small, need at least %d×%d", minW, minH)
	var out []string
	for _, l := range wrapText(msg, w) {
		out = append(out, st.Text.Warn.Render(l))
	}
	return strings.Join(block(strings.Join(out, "\n"), w, h), "\n")
}

// framedPane is a pane's lines with its frame, as last drawn: the frame is drawn again only
// when the lines (their gen), the note, the focus or the box changed. The pieces are kept
// apart and written into the screen's builder, so no line of the pane is made twice.
type framedPane struct {
	gen     uint64
	note    string
	focused bool
	b       box
	drawn   bool
	blank   bool // too small for a frame: blank cells
	top     string
	bottom  string
	left    string
	right   string
	body    []string // exactly b.Inner.W wide
}

// write writes line i of the pane's outer box.
func (f *framedPane) write(sb *strings.Builder, i int) {
	switch {
	case f.blank:
		sb.WriteString(blanks(f.b.Outer.W))
	case i == 0:
		sb.WriteString(f.top)
	case i == f.b.Outer.H-1:
		sb.WriteString(f.bottom)
	default:
		sb.WriteString(f.left)
		if i-1 < len(f.body) {
			sb.WriteString(f.body[i-1])
		} else {
			sb.WriteString(blanks(f.b.Inner.W))
		}
		sb.WriteString(f.right)
	}
}

// frameTitles are the panes' titles in their top edges: the digit that jumps to them, the name.
var frameTitles = func() (t [numPanes]string) {
	for p := range t {
		t[p] = strconv.Itoa(p+1) + " " + paneID(p).String()
	}
	return t
}()

// framed is pane p with its frame, exactly its outer box.
func (m *Model) framed(p paneID) *framedPane {
	var body []string
	var gen uint64
	var bw int // the width the pane fitted its lines to
	switch p {
	case paneTree:
		body, gen = m.tree.view()
		bw = m.tree.w
	case paneValues:
		body, gen = m.values.view()
		bw = m.values.w
	case paneHot:
		body, gen = m.hot.view()
		bw = m.hot.w
	case paneInspector:
		body, gen = m.insp.view()
		bw = m.insp.w
	case paneEvents:
		body, gen = m.events.view()
		bw = m.events.w
	}
	b, note, focused := m.lay.Panes[p], m.paneNote(p), p == m.focus
	f := &m.fc.panes[p]
	if f.drawn && gen != 0 && f.gen == gen && f.note == note && f.focused == focused && f.b == b {
		return f
	}
	// The edges depend on the note, the focus and the box only: new content keeps them.
	sameEdges := f.drawn && !f.blank && f.note == note && f.focused == focused && f.b == b
	old := *f
	*f = framedPane{gen: gen, note: note, focused: focused, b: b, drawn: true}
	w := b.Outer.W
	if w < 2 || b.Outer.H < 2 {
		f.blank = true
		return f
	}
	if sameEdges {
		f.top, f.bottom, f.left, f.right = old.top, old.bottom, old.left, old.right
	} else {
		ch, bs, ts, ns := m.st.Pane.Chars, m.st.Pane.Border, m.st.Pane.Title, m.st.Pane.Note
		if focused {
			ch, bs, ts, ns = m.st.Pane.FocusedChars, m.st.Pane.FocusedBorder, m.st.Pane.FocusedTitle, m.st.Pane.FocusedNote
		}
		f.top = topEdge(ch, bs, ts, ns, frameTitles[p], note, w)
		f.bottom = bs.Render(ch.BottomLeft + strings.Repeat(ch.Bottom, max(w-2, 0)) + ch.BottomRight)
		f.left, f.right = bs.Render(ch.Left), bs.Render(ch.Right)
	}
	f.body = body[:min(len(body), b.Inner.H)]
	if bw != b.Inner.W {
		// The pane's lines are exactly its own width (view's contract); fit them only when
		// that is not the box's.
		f.body = make([]string, len(f.body))
		for i := range f.body {
			f.body[i] = fitLine(body[i], b.Inner.W)
		}
	}
	return f
}

// paneNote is the short text in the right of a pane's top edge.
func (m *Model) paneNote(p paneID) string {
	switch p {
	case paneTree:
		if f := m.tree.Filter(); f != "" {
			return plural(m.tree.Matches(), "match", "matches")
		}
		return plural(m.tree.Len(), "row", "rows")
	case paneValues:
		switch m.values.Mode() {
		case valuesTable:
			n := len(m.values.rows)
			if n > 0 && m.values.rows[0].totals {
				n--
			}
			return plural(n, "instance", "instances")
		case valuesStats:
			return plural(len(m.values.stats), "statistic", "statistics")
		case valuesChildren:
			return plural(len(m.values.kids), "subcontext", "subcontexts")
		}
	case paneHot:
		return plural(len(m.hot.Entries()), "peer set", "peer sets")
	case paneEvents:
		return strconv.Itoa(m.events.Len())
	}
	return ""
}

// header is the top line: the name and the selected path as breadcrumbs.
func (m *Model) header() string {
	path := m.tree.SelectedPath()
	var right string
	if f := m.tree.Filter(); f != "" && m.modal != modalFilter {
		right = "filter “" + f + "” "
	}
	if h := &m.fc.header; h.line != "" && h.path == path && h.right == right && h.w == m.w {
		return h.line
	}
	line := m.drawHeader(path, right)
	m.fc.header = keptLine{path: path, right: right, w: m.w, line: line}
	return line
}

func (m *Model) drawHeader(path, right string) string {
	trail := "Top"
	if path != "" {
		trail += " › " + strings.ReplaceAll(path, "/", " › ")
	}
	left := " dcimon "
	room := m.w - width(left) - width(right) - 1
	if width(trail) > room {
		trail = ansi.TruncateLeft(trail, width(trail)-room+1, "…")
	}
	gap := max(m.w-width(left)-1-width(trail)-width(right), 0)
	return fitLine(m.st.Text.Brand.Render(left)+" "+m.st.Text.Normal.Render(trail)+blanks(gap)+m.st.Text.Muted.Render(right), m.w)
}

// tabRanges are the cell ranges of the compact layout's tabs, for clicks.
func tabRanges(w int) [numPanes][2]int {
	var r [numPanes][2]int
	x := 1
	for p := paneTree; p < numPanes; p++ {
		l := width(tabLabel(p))
		r[p] = [2]int{x, min(x+l, w)}
		x += l + 2
	}
	return r
}

func tabLabel(p paneID) string { return fmt.Sprintf(" %d %s ", int(p)+1, p) }

func (m *Model) tabs() string {
	var sb strings.Builder
	sb.WriteString(" ")
	for p := paneTree; p < numPanes; p++ {
		st := m.st.Tabs.Inactive
		if p == m.focus {
			st = m.st.Tabs.Active
		}
		sb.WriteString(st.Render(tabLabel(p)))
		sb.WriteString("  ")
	}
	return fitLine(sb.String(), m.w)
}

// bottomLine is the input line of the filter and go-to modes, or the short help.
func (m *Model) bottomLine() string {
	switch m.modal {
	case modalFilter, modalGoto:
		prompt := "/ "
		hint := fmt.Sprintf("  %s · %s · %s", plural(m.tree.Matches(), "match", "matches"), helpText(m.inKeys.Accept), helpText(m.inKeys.Cancel))
		if m.modal == modalGoto {
			prompt = ": go to "
			hint = "  path from " + orTop(m.sel.Ctx) + " · " + helpText(m.inKeys.Accept) + " · " + helpText(m.inKeys.Cancel)
		}
		iw := max(m.w-width(prompt)-width(hint), 10)
		return fitLine(m.st.Input.Prompt.Render(prompt)+m.input.View(m.st, iw, true)+m.st.Input.Hint.Render(hint), m.w)
	}
	if m.flash != "" {
		st := m.st.Text.Accent
		if m.flashErr {
			st = m.st.Input.Error
		}
		return fitLine(" "+st.Render(safe(m.flash)), m.w)
	}
	// The key help depends only on the focused pane's bindings, which never change, and the
	// width: drawn once for each.
	if h := &m.fc.help; h.line != "" && h.focus == m.focus && h.w == m.w {
		return h.line
	}
	hm := m.helpAt(m.w)
	line := fitLine(" "+hm.ShortHelpView(m.shortHelp()), m.w)
	m.fc.help = keptLine{focus: m.focus, w: m.w, line: line}
	return line
}

// helpAt is the help model for w cells.
func (m *Model) helpAt(w int) help.Model {
	hm := *m.help
	hm.Width = max(w, 0)
	return hm
}

func helpText(b key.Binding) string { return b.Help().Key + " " + b.Help().Desc }

func orTop(c *namespace.Context) string {
	if p := c.Path(); p != "" {
		return p
	}
	return "Top"
}

func (m *Model) shortHelp() []key.Binding {
	var b []key.Binding
	switch m.focus {
	case paneTree:
		b = m.tree.ShortHelp()
	case paneValues:
		b = m.values.ShortHelp()
	case paneHot:
		b = m.hot.ShortHelp()
	case paneInspector:
		b = m.insp.ShortHelp()
	case paneEvents:
		b = m.events.ShortHelp()
	}
	return append(b, m.keys.ShortHelp()...)
}

// helpOverlay is the full help, built from the key maps: the global keys and each pane's, in two
// columns when they fit, scrolled with the overlay's keys when the screen is short.
// helpW is the help overlay's width.
func (m *Model) helpW() int { return min(m.w-2, 110) }

// helpBody is every line of the help overlay: each pane's bindings under its name, in two
// columns when they fit.
func (m *Model) helpBody() []string {
	w := m.helpW()
	hm := m.helpAt(m.w)
	colW := (w - 4) / 2
	section := func(title string, groups [][]key.Binding) []string {
		out := []string{m.st.Text.Accent.Render(title)}
		body := strings.Split(hm.FullHelpView(groups), "\n")
		if colW >= 34 && slices.ContainsFunc(body, func(l string) bool { return cellWidth(l) > colW }) {
			// Side by side the groups do not fit the column: one under the other.
			body = body[:0]
			for _, g := range groups {
				body = append(body, strings.Split(hm.FullHelpView([][]key.Binding{g}), "\n")...)
			}
		}
		out = append(out, body...)
		return append(out, "")
	}
	left := append(section("Everywhere", m.keys.FullHelp()), section("Tree", m.tree.FullHelp())...)
	right := append(section("Values", m.values.FullHelp()), section("Hotsets", m.hot.FullHelp())...)
	right = append(right, section("Inspector", m.insp.FullHelp())...)
	right = append(right, section("Events", m.events.FullHelp())...)
	var lines []string
	if colW >= 34 {
		for i := 0; i < max(len(left), len(right)); i++ {
			var l, r string
			if i < len(left) {
				l = left[i]
			}
			if i < len(right) {
				r = right[i]
			}
			lines = append(lines, fitLine(l, colW)+"  "+r)
		}
	} else {
		lines = append(left, right...)
	}
	return lines
}

// helpRoom is how many lines of the help the overlay shows at once.
func (m *Model) helpRoom() int { return max(m.h-5, 1) }

// scrollHelp moves the help overlay by n lines, within its length.
func (m *Model) scrollHelp(n int) {
	m.helpOff = clamp(m.helpOff+n, 0, max(len(m.helpBody())-m.helpRoom(), 0))
}

// helpOverlay is the help box: the part of helpBody that fits, and how to close and scroll it.
func (m *Model) helpOverlay() []string {
	lines := m.helpBody()
	if room := m.helpRoom(); len(lines) > room {
		off := clamp(m.helpOff, 0, len(lines)-room)
		lines = lines[off : off+room]
	}
	lines = append(lines, m.st.Text.Muted.Render(helpText(m.ovKeys.Close)+" · "+helpText(m.ovKeys.Down)))
	return boxed(m.st, "Help", lines, m.helpW())
}

// overlay draws box lines centred over the screen lines.
func overlay(lines, box []string, w, h int) {
	if len(box) == 0 {
		return
	}
	bw := ansi.StringWidth(box[0])
	x := max((w-bw)/2, 0)
	y := max((h-len(box))/2, 0)
	for i, b := range box {
		if y+i >= len(lines) {
			break
		}
		l := fitLine(lines[y+i], w)
		lines[y+i] = ansi.Cut(l, 0, x) + fitLine(b, min(bw, w-x)) + ansi.Cut(l, x+bw, w)
	}
}
