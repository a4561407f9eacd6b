// Keys: the modal modes first, then the global bindings, then the focused pane (rule 3 at the
// top of model.go).

package ui

import (
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"dcimon/namespace"
	"dcimon/views"
)

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
	if m.procsByIO && m.values.SortBy("io/s") {
		m.procsByIO = false // the table has its columns now: ranked by I/O once, as P asked
	}
	m.hot.ShowFor(sel.Ctx)
	// What the inspector follows means something different in each pane, so this one
	// switch over pane ids stays here rather than in the pane interface.
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
	for q := range numPanes {
		m.pane(q).Blur()
	}
	m.pane(p).Focus()
}

func (m *Model) onKey(km tea.KeyMsg) tea.Cmd {
	if m.askingSave {
		return m.answerSave(km)
	}
	if m.modal != modalNone {
		return m.modalKey(km)
	}
	if cmd, ok := m.procTableKey(km); ok {
		return cmd
	}
	if m.rp != nil {
		if cmd, ok := m.onReplayKey(km); ok {
			return cmd
		}
	}
	if cmd, ok := m.overviewKey(km); ok {
		return cmd
	}
	if cmd, ok := m.globalKey(km); ok {
		return cmd
	}
	if m.paneKey(km) {
		return nil
	}
	if m.ov.on {
		return nil // no pane is on screen to take the key
	}
	cmd := m.pane(m.focus).handleKey(km)
	m.syncSelection()
	return cmd
}

// modalKey gives a key to the modal on screen (help, form, filter or go-to): a modal takes every
// key while it is open.
func (m *Model) modalKey(km tea.KeyMsg) tea.Cmd {
	switch m.modal {
	case modalHelp:
		m.helpKey(km)
	case modalForm:
		return m.formKey(km)
	case modalFilter:
		m.filterKey(km)
	case modalGoto:
		return m.gotoKey(km)
	}
	return nil
}

// helpKey closes or scrolls the help screen.
func (m *Model) helpKey(km tea.KeyMsg) {
	switch {
	case key.Matches(km, m.ovKeys.Close):
		m.modal = modalNone
	case key.Matches(km, m.ovKeys.Up):
		m.scrollHelp(-1)
	case key.Matches(km, m.ovKeys.Down):
		m.scrollHelp(1)
	}
}

// filterKey edits the filter being typed, applying it as it changes; Esc clears it.
func (m *Model) filterKey(km tea.KeyMsg) {
	switch {
	case key.Matches(km, m.inKeys.Accept):
		m.modal = modalNone
	case key.Matches(km, m.inKeys.Cancel):
		m.modal = modalNone
		m.setTypedFilter("")
	default:
		if m.input.Update(km) {
			m.setTypedFilter(m.input.Value())
		}
	}
}

// setTypedFilter applies the filter being typed where it was opened: the process table's user,
// its rows, or the tree.
func (m *Model) setTypedFilter(text string) {
	if m.filterUser {
		m.values.SetUser(text)
		return
	}
	if m.filterValues {
		m.values.SetFilter(text) // the process table's rows, not the tree's
		return
	}
	m.tree.SetFilter(text)
	m.syncSelection()
}

// gotoKey edits the go-to being typed; Enter goes to the path, or to the time after an "@".
func (m *Model) gotoKey(km tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(km, m.inKeys.Accept):
		m.modal = modalNone
		if at, ok := strings.CutPrefix(strings.TrimSpace(m.input.Value()), "@"); ok {
			// A move in time changes no screen: the overview it was typed on stays (issue 30).
			m.ov.on = m.ov.on || m.gotoFromOverview
			m.gotoFromOverview = false
			return m.gotoTime(at)
		}
		m.gotoFromOverview = false
		m.gotoPath(m.input.Value())
	case key.Matches(km, m.inKeys.Cancel):
		m.modal = modalNone
		m.ov.on = m.ov.on || m.gotoFromOverview
		m.gotoFromOverview = false
	default:
		m.input.Update(km)
	}
	return nil
}

// procTableKey gives the process table with the focus htop's keys, before the global ones (issue
// 32 item 7): its P, t, /, < and > are the table's there. ok says the key was taken.
func (m *Model) procTableKey(km tea.KeyMsg) (tea.Cmd, bool) {
	if m.ov.on || m.focus != paneValues || !m.values.ProcTable() {
		return nil, false
	}
	pk := m.values.pkeys
	switch {
	case key.Matches(km, pk.Search):
		m.modal, m.filterValues, m.filterUser = modalFilter, true, false
		m.input = newLineInput(m.inKeys, m.values.Filter(), 200)
		return nil, true
	case key.Matches(km, pk.User):
		m.modal, m.filterValues, m.filterUser = modalFilter, true, true
		m.input = newLineInput(m.inKeys, m.values.User(), 64)
		return nil, true
	}
	return m.values.procKey(km)
}

// overviewKey gives the overview its keys, or opens it; a key that asks for the panes closes it
// and is not taken (ok false), so the panes then do what it asks.
func (m *Model) overviewKey(km tea.KeyMsg) (tea.Cmd, bool) {
	k := m.keys
	if !m.ov.on {
		if key.Matches(km, k.Overview) {
			m.ov.on = true
			return nil, true
		}
		return nil, false
	}
	if len(m.ov.paths) == 0 && m.lay.Mode != modeTooSmall {
		m.overviewView(m.w, max(m.lay.Status.Y-1, 0)) // the numbers on screen, for the cursor
	}
	if cmd, ok := m.hostsKey(km); ok { // a fleet's hosts table (hosts.go)
		return cmd, true
	}
	switch {
	case key.Matches(km, m.oKeys.Up):
		m.ov.cursor = max(m.ov.cursor-1, 0)
		m.touch()
		return nil, true
	case key.Matches(km, m.oKeys.Down):
		m.ov.cursor = min(m.ov.cursor+1, max(len(m.ov.paths)-1, 0))
		m.touch()
		return nil, true
	case key.Matches(km, m.oKeys.Open):
		return m.openOverviewRow(), true
	case key.Matches(km, k.Overview):
		m.ov.on = false
		return nil, true
	case m.asksForPanes(km):
		m.ov.on = false // the panes, then what the key asks there
		// A go-to of a time (:@03:12) comes back to the overview (modalGoto).
		m.gotoFromOverview = key.Matches(km, k.Goto)
	}
	return nil, false
}

// openOverviewRow leaves the overview for the row under its cursor.
func (m *Model) openOverviewRow() tea.Cmd {
	if m.ov.cursor >= len(m.ov.paths) {
		return nil
	}
	m.ov.on = false
	path := m.ov.paths[m.ov.cursor]
	return func() tea.Msg { return openMsg{path} }
}

// asksForPanes says the key is one of the panes' (filter, go-to, a pane's focus, the processes):
// from the overview it leaves for the panes.
func (m *Model) asksForPanes(km tea.KeyMsg) bool {
	k := m.keys
	return key.Matches(km, k.Filter) || key.Matches(km, k.Goto) || key.Matches(km, k.NextPane) || key.Matches(km, k.PrevPane) || key.Matches(km, k.Procs) ||
		key.Matches(km, k.Tree) || key.Matches(km, k.Values) || key.Matches(km, k.Hot) || key.Matches(km, k.Insp) || key.Matches(km, k.Evs)
}

// globalKey does what the keys that mean the same in every pane ask. ok says the key was taken.
func (m *Model) globalKey(km tea.KeyMsg) (tea.Cmd, bool) {
	k := m.keys
	switch {
	case key.Matches(km, k.Quit):
		return tea.Quit, true
	case key.Matches(km, k.Help):
		m.modal, m.helpOff = modalHelp, 0
		return nil, true
	case key.Matches(km, k.Filter):
		m.openFilter()
		return nil, true
	case key.Matches(km, k.Procs):
		return m.openProcs(), true
	case key.Matches(km, k.Goto):
		m.modal = modalGoto
		m.input = newLineInput(m.inKeys, "", 200)
		return nil, true
	case key.Matches(km, k.Theme):
		m.nextTheme()
		return nil, true
	case key.Matches(km, k.Refresh):
		return m.refreshNow(), true
	case key.Matches(km, k.Pause):
		return m.togglePause(), true
	case key.Matches(km, k.Longer), key.Matches(km, k.Shorter):
		return m.stepRefresh(km), true
	case key.Matches(km, m.inKeys.Cancel):
		return nil, m.clearAcceptedFilter()
	}
	return nil, false
}

// openFilter opens the filter: the process table with the focus filters its own rows (by user or
// command line); from every other pane / filters the tree.
func (m *Model) openFilter() {
	m.modal, m.filterUser = modalFilter, false
	m.filterValues = m.focus == paneValues && m.values.Filterable()
	if m.filterValues {
		m.input = newLineInput(m.inKeys, m.values.Filter(), 200)
		return
	}
	m.input = newLineInput(m.inKeys, m.tree.Filter(), 200)
	m.setFocus(paneTree)
}

// openProcs shows the processes, ranked by I/O when the selection is a disk, a file system or an
// interface: the table does not pretend to know which process uses that device.
func (m *Model) openProcs() tea.Cmd {
	top := ""
	for c := m.sel.Ctx; c != nil && c.Parent() != nil; c = c.Parent() {
		top = c.Name
	}
	ref, err := m.reg.Lookup(nil, "Proc")
	if err != nil {
		m.setFlash("this source has no processes", true)
		return nil
	}
	m.tree.Reveal(ref.Path())
	m.syncSelection()
	m.setFocus(paneValues)
	if top == "Disk" || top == "FS" || top == "NetIf" {
		m.procsByIO = !m.values.SortBy("io/s")
		m.setFlash("processes by storage I/O (which process uses which disk, the kernel does not say)", false)
	}
	return m.resubscribe()
}

// refreshNow rereads the source's variable values and samples now, unless a sample is in flight
// or the live view is paused.
func (m *Model) refreshNow() tea.Cmd {
	r, ok := m.src.(refresher)
	if !ok {
		m.setFlash("this source has nothing to refresh", false)
		return nil
	}
	r.Refresh()
	m.setFlash("refreshing: addresses, MTUs, capacities and every other variable value are read now", false)
	if m.inflight || (m.paused && m.rp == nil) {
		return nil
	}
	m.inflight, m.extra = true, true
	return sampleCmd(m.ctx, m.src, m.now)
}

// togglePause pauses or resumes the ticks.
func (m *Model) togglePause() tea.Cmd {
	m.paused = !m.paused
	if m.paused {
		m.tickSeq++ // the running chain stops at its next beat
		return nil
	}
	return m.restartTicks()
}

// stepRefresh makes the refresh interval one step longer or shorter.
func (m *Model) stepRefresh(km tea.KeyMsg) tea.Cmd {
	dir := 1
	if key.Matches(km, m.keys.Shorter) {
		dir = -1
	}
	d := stepInterval(m.interval, dir)
	if d == m.interval {
		return nil
	}
	m.interval = d
	m.setFlash("refresh every "+d.String(), false)
	if !m.paused {
		return m.restartTicks()
	}
	return nil
}

// clearAcceptedFilter clears, on Esc, the first filter accepted with Enter: the process table's
// user, its rows, then the tree's (issue 12), from any pane. It says whether one was cleared.
func (m *Model) clearAcceptedFilter() bool {
	switch {
	case m.values.User() != "":
		m.values.SetUser("")
		m.setFlash("every user's processes again", false)
	case m.values.Filter() != "":
		m.values.SetFilter("")
		m.setFlash("table filter cleared", false)
	case m.tree.Filter() != "":
		m.tree.SetFilter("")
		m.syncSelection()
		m.setFlash("filter cleared", false)
	default:
		return false
	}
	return true
}

// paneKey moves the focus to the next, the previous or a named pane; it says whether the key did.
func (m *Model) paneKey(km tea.KeyMsg) bool {
	k := m.keys
	switch {
	case key.Matches(km, k.NextPane):
		m.setFocus((m.focus + 1) % numPanes)
	case key.Matches(km, k.PrevPane):
		m.setFocus((m.focus + numPanes - 1) % numPanes)
	default:
		p := slices.IndexFunc([]key.Binding{k.Tree, k.Values, k.Hot, k.Insp, k.Evs}, func(b key.Binding) bool { return key.Matches(km, b) })
		if p < 0 {
			return false
		}
		m.setFocus(paneID(p))
	}
	m.syncSelection()
	return true
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
		// A path as list prints it, `/<host>/Disk/sda`: on a single host, the host's name is not
		// a context (issue 14); on several, it is, and the lookup above found it.
		if rest, ok := strings.CutPrefix(path, "/"); err != nil && ok {
			if _, after, ok := strings.Cut(rest, "/"); ok {
				if r, e := m.reg.Lookup(nil, after); e == nil {
					ref, err = r, nil
				}
			}
		}
	}
	m.goPending = ""
	if err != nil {
		if m.goLazy(path, err) {
			return
		}
		m.setFlash(goWords(m.reg, path, err), true)
		return
	}
	if m.flashErr {
		m.flash, m.flashErr = "", false // the error state is per call (SPMI-ERR-2)
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

// goLazy goes towards a path that lies in a remote host's PCP name space, not read yet so far
// down: the cursor goes to the deepest context of it there is, which is read because it is
// selected; each reading after that takes it one level further (goOn), until the path is there
// or a reading brings nothing new. False when no part of the path is in such a name space.
func (m *Model) goLazy(path string, err error) bool {
	var cands []string
	if rest, ok := strings.CutPrefix(path, "/"); ok {
		cands = append(cands, rest)
		if _, after, ok := strings.Cut(rest, "/"); ok {
			cands = append(cands, after) // `/<host>/…` on a single host
		}
	} else {
		if m.sel.Ctx != nil && m.sel.Ctx.Path() != "" {
			cands = append(cands, m.sel.Ctx.Path()+"/"+path)
		}
		cands = append(cands, path)
	}
	for _, c := range cands {
		if at := m.lazyPrefix(c); at != "" {
			m.goPending, m.goAt, m.goTries, m.goErr = c, at, 0, err.Error()
			m.tree.Reveal(at)
			m.setFocus(paneTree)
			m.syncSelection()
			m.setFlash("reading "+at+" from PCP on the way to "+c+"…", false)
			return true
		}
	}
	return false
}

// lazyPrefix is the longest part of path that names a context of a PCP name space (a lazy
// class's), or "".
func (m *Model) lazyPrefix(path string) string {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	for k := len(parts) - 1; k > 0; k-- {
		p := strings.Join(parts[:k], "/")
		if ref, err := m.reg.Lookup(nil, p); err == nil && ref.Datum == nil && ref.Ctx != nil {
			c := ref.Ctx.Class
			if c == nil || !c.Lazy {
				return ""
			}
			return p
		}
	}
	return ""
}

// goOn takes a pending go-to one reading further: to the path once it is there, else to the
// deepest part of it there is now; after three readings that bring nothing, the lookup's error.
func (m *Model) goOn() {
	if m.goPending == "" {
		return
	}
	if m.sel.Ctx == nil || m.sel.Ctx.Path() != m.goAt {
		m.goPending = "" // the user went elsewhere meanwhile: the go-to is theirs to give up
		return
	}
	if ref, err := m.reg.Lookup(nil, m.goPending); err == nil {
		m.goPending = ""
		m.flash = ""
		m.tree.Reveal(ref.Path())
		m.syncSelection()
		return
	}
	if at := m.lazyPrefix(m.goPending); at != "" && len(at) > len(m.goAt) {
		m.goAt, m.goTries = at, 0
		m.tree.Reveal(at)
		m.syncSelection()
		return
	}
	if m.goTries++; m.goTries > 3 {
		m.setFlash(m.goErr, true)
		m.goPending = ""
	}
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
	var meas views.Measure
	if c, d, err := m.hot.hs.Statistic(nil, grandpa, stat); err == nil {
		meas = m.vf.measure(c, d)
	}
	m.form = newHotForm(m.fKeys, m.inKeys, grandpa, stat, meas, spec, edit)
	m.modal = modalForm
}

func (m *Model) formKey(km tea.KeyMsg) tea.Cmd {
	switch m.form.Update(km) {
	case formCancel:
		m.modal, m.form = modalNone, nil
	case formSubmit:
		spec, err := m.form.Spec()
		if err == nil {
			_, err = m.hot.Add(spec, m.form.edit)
		}
		if err != nil {
			m.form.err = views.PlainError(err) // the refusal in plain words (issue 32 item 4)
			return nil
		}
		m.modal, m.form = modalNone, nil
		m.setFocus(paneHot)
		m.setFlash("hotset "+spec.Grandpa+" "+spec.Stat+" saved", false)
		return m.hotsetsChanged()
	}
	return nil
}

// findHost takes the host name from the name space when Options.Host is empty (Registry.HostName,
// the rule `list` uses too); it is looked up again only when the name space changes.
func (m *Model) findHost() {
	if m.opts.Host != "" || m.snap == nil {
		return
	}
	gen := m.reg.Generation()
	if gen == m.hostGen && m.host != "" {
		return
	}
	m.hostGen = gen
	if name := m.reg.HostName(m.snap); name != "" {
		m.host = safe(name)
	}
}
