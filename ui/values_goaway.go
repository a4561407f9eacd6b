// X on a user's supplier: sending it away (SPMI-DDS-5).

package ui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"dcimon/namespace"
)

// goAwayMsg asks the root to tell an extension supplier to go away (SPMI-DDS-5).
type goAwayMsg struct{ module string }

// goAwayKey is X: on a user's supplier (its row under Monitor, or one of its statistics under
// DDS), the first press says what a second will do, the second sends it away. The built-in
// suppliers cannot be sent away, and a process is never signalled: dcimon is a monitor.
func (p *valuesPane) goAwayKey() tea.Cmd {
	mod := p.supplierModule()
	switch {
	case mod == "":
		p.goAway = ""
		return flashCmd("X sends a user's supplier away: select it under Monitor, or one of its statistics under DDS", false)
	case !strings.HasPrefix(mod, "dds:"):
		p.goAway = ""
		return flashCmd(mod+" is built in: only users' suppliers (dds:…) can be sent away", true)
	case p.goAway != mod:
		p.goAway = mod
		return flashCmd("X again sends "+mod+" away: its statistics go until its file changes", false)
	}
	p.goAway = ""
	return func() tea.Msg { return goAwayMsg{mod} }
}

// supplierModule is the supplier of what is selected: a provider row of the Monitor context, or
// the supplier of the class the context belongs to; "" for a context several suppliers share.
func (p *valuesPane) supplierModule() string {
	if r := p.Selected(); p.mode == valuesTable && p.class != nil && p.class.Name == "provider" && r.Ctx != nil && r.Ctx.Inst != nil &&
		r.Ctx.Parent() != nil && r.Ctx.Parent().Name == "Monitor" {
		return r.Ctx.Inst.OSName
	}
	ctx := p.ctx
	if r := p.Selected(); r.Ctx != nil {
		ctx = r.Ctx
	}
	for c := ctx; c != nil; c = c.Parent() {
		for _, cl := range []*namespace.Class{c.Stats, c.Class} {
			if cl != nil && cl.Supplier != nil {
				if cl.Shared {
					return ""
				}
				return cl.Supplier.Module
			}
		}
	}
	return ""
}
