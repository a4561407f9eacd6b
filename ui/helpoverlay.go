// Help: the short help line and the help overlay, built from the same key bindings.

package ui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"

	"dcimon/namespace"
	"dcimon/theme"
)

func helpStyles(st theme.Styles) help.Styles {
	return help.Styles{
		ShortKey: st.Help.Key, ShortDesc: st.Help.Desc, ShortSeparator: st.Help.Sep,
		FullKey: st.Help.Key, FullDesc: st.Help.Desc, FullSeparator: st.Help.Sep, Ellipsis: st.Help.Sep,
	}
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
	b := m.pane(m.focus).ShortHelp()
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
	// htop's keys: while the process table has the focus they come before the keys above, so
	// there P sorts by CPU, t is the tree, / searches the table and < > choose the sort column.
	procs := section("Process table (htop's keys; while it has the focus they win over the keys above)", [][]key.Binding{m.values.pkeys.all()})
	procs = append(procs[:len(procs)-1], m.st.Text.Muted.Render("no kill, no renice: dcimon never changes a process"), "")
	left = append(left, procs...)
	right := append(section("Values", m.values.FullHelp()), section("Hotsets", m.hot.FullHelp())...)
	right = append(right, section("Inspector", m.insp.FullHelp())...)
	right = append(right, section("Events", m.events.FullHelp())...)
	var lines []string
	// First what the focused pane shows (issue 12: `?` explains the columns, not only keys).
	if ex := m.explain(); len(ex) > 0 {
		lines = append(lines, m.st.Text.Accent.Render(ex[0]))
		for _, l := range ex[1:] {
			lines = append(lines, fitLine(l, w-4))
		}
		lines = append(lines, "")
	}
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

// explain is what the focused pane's columns and words mean: a title, then one line each.
func (m *Model) explain() []string {
	if m.ov.on {
		return []string{"Overview: is this host all right, and what is busiest?",
			"CPU        busy share of all processors: mpstat's usr, nice, sys, irq, soft, steal and other add up to it; iowait is idle time; a bar per processor",
			"Processes  the busiest by CPU (and by memory and I/O where there is room): PID, USER, %CPU, %MEM, TIME+ and the command, as htop",
			"Mem, Swap  share in use, with used, total, available and cached memory",
			"hotsets    the busiest peers of each open hotset, ranked, on their statistic's scale",
			"every number is a statistic: j/k choose one, Enter opens it in the tree and the inspector"}
	}
	switch m.focus {
	case paneValues:
		return m.values.explain()
	case paneEvents:
		out := []string{"Events: what each word means (DCI name)"}
		for k := namespace.EvInstanceAdded; k <= namespace.EvDiscontinuity; k++ {
			out = append(out, pad(shortKind(k), 10)+k.String()+": "+k.Meaning())
		}
		return out
	case paneHot:
		return []string{"Hotsets: the busiest peers of a context by one statistic (SPMI hotsets)",
			"threshold  only values above it qualify (below |T| when negative), in the statistic's units",
			"max        how many peers are listed; feed: none, threshold or always; exceptions go to Events",
			"top N of M N listed of the M peers that qualify"}
	}
	return nil
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
