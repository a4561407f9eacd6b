package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"dcimon/namespace"
)

// gotoLine is a go-to path in a remote PCP name space not read that far yet (goLazy): goPending
// the path, goAt the deepest part of it there is, goTries the readings since that brought
// nothing, goErr the lookup's error.
type gotoLine struct {
	goPending, goAt, goErr string
	goTries                int
	// gotoFromOverview says the go-to line was opened on the overview: a time typed there
	// (:@03:12) comes back to it.
	gotoFromOverview bool
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
