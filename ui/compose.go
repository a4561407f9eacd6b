// Composition: the frame the monitor draws, from the layout and the panes' views, kept while
// nothing changed.

package ui

import (
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
)

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
	return paintGround(m.compose(), m.st.Screen.pre), true
}

// paintGround lays the theme's ground (its fg on its bg, issue 32 item 10) under every cell of
// frame: at the start of each line and again after every reset, so that padding and the text of
// styles that set only a foreground are drawn on the theme's background rather than the
// terminal's. A theme that leaves both to the terminal has no ground: the frame is unchanged.
func paintGround(frame, ground string) string {
	if ground == "" || frame == "" {
		return frame
	}
	var sb strings.Builder
	sb.Grow(len(frame) + len(frame)/8)
	sb.WriteString(ground)
	for i := 0; i < len(frame); {
		j := strings.IndexAny(frame[i:], "\x1b\n")
		if j < 0 {
			sb.WriteString(frame[i:])
			break
		}
		sb.WriteString(frame[i : i+j])
		i += j
		switch {
		case frame[i] == '\n':
			sb.WriteString(resetSGR + "\n" + ground)
			i++
		case strings.HasPrefix(frame[i:], "\x1b[0m"):
			sb.WriteString("\x1b[0m" + ground)
			i += 4
		case strings.HasPrefix(frame[i:], "\x1b[m"):
			sb.WriteString("\x1b[m" + ground)
			i += 3
		default:
			sb.WriteByte(frame[i])
			i++
		}
	}
	sb.WriteString(resetSGR)
	return sb.String()
}

// resetSGR gives the terminal back its own colours at the end of a line.
const resetSGR = "\x1b[m"

// compose is the frame of the panes: each screen line the header, the tabs, the status line,
// the key help or the panes' lines side by side, with the help or the form over it when open.
func (m *Model) compose() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	if m.lay.Mode == modeTooSmall {
		return tooSmall(m.st, m.w, m.h)
	}
	if m.ov.on {
		return m.composeOverview()
	}
	f := m.panesFrame()
	var sb strings.Builder
	if m.modal != modalHelp && m.modal != modalForm {
		sb.Grow(m.fc.size)
		for y := 0; y < m.h; y++ {
			if y > 0 {
				sb.WriteByte('\n')
			}
			f.line(&sb, y)
		}
		m.fc.size = sb.Len()
		return sb.String()
	}
	// An overlay is drawn over whole lines.
	lines := make([]string, m.h)
	for y := range lines {
		sb.Reset()
		f.line(&sb, y)
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

// panesFrame is what the lines of the panes' frame are made of: the panes shown (the focused
// one alone when compact) and the lines of their own.
func (m *Model) panesFrame() panesFrame {
	f := panesFrame{lay: &m.lay, w: m.w}
	if m.lay.Mode == modeCompact {
		f.panes[m.focus] = m.framed(m.focus)
	} else {
		for p := paneTree; p < numPanes; p++ {
			f.panes[p] = m.framed(p)
		}
	}
	f.header, f.status, f.bottom = m.header(), m.statusLine(), m.bottomLine()
	if m.lay.Mode == modeCompact {
		f.tabs = m.tabs()
	}
	return f
}

// panesFrame is the panes' frame being drawn.
type panesFrame struct {
	lay                          *layout
	w                            int
	panes                        [numPanes]*framedPane // nil for a pane not shown
	header, tabs, status, bottom string
	blank                        string // a line of spaces, made when first needed
}

// line writes screen line y: a line of its own, or the panes' lines side by side, left to right.
func (f *panesFrame) line(sb *strings.Builder, y int) {
	switch {
	case y == 0:
		sb.WriteString(f.header)
		return
	case y == 1 && f.lay.Mode == modeCompact:
		sb.WriteString(f.tabs)
		return
	case y == f.lay.Status.Y:
		sb.WriteString(f.status)
		return
	case y == f.lay.Help.Y:
		sb.WriteString(f.bottom)
		return
	}
	n := sb.Len()
	for p := paneTree; p < numPanes; p++ {
		if i := y - f.lay.Panes[p].Outer.Y; f.panes[p] != nil && i >= 0 && i < f.lay.Panes[p].Outer.H {
			f.panes[p].write(sb, i)
		}
	}
	if sb.Len() == n {
		if f.blank == "" {
			f.blank = strings.Repeat(" ", f.w)
		}
		sb.WriteString(f.blank)
	}
}

// composeOverview is the overview screen: the header, the overview's body, the status line and
// the key help, with the help overlay over it when it is open.
func (m *Model) composeOverview() string {
	bodyTop, bodyEnd := 1, m.lay.Status.Y
	body := m.overviewView(m.w, max(bodyEnd-bodyTop, 0))
	lines := make([]string, m.h)
	for y := range lines {
		switch {
		case y == 0:
			right := "o: the panes "
			if m.rp != nil {
				right = m.rp.title()
			}
			lines[y] = m.drawHeaderTrail("Overview", right)
		case y >= bodyTop && y < bodyEnd:
			lines[y] = body[y-bodyTop]
		case y == m.lay.Status.Y:
			lines[y] = m.statusLine()
		case y == m.lay.Help.Y:
			lines[y] = m.overviewHelpLine()
		default:
			lines[y] = blanks(m.w)
		}
	}
	if m.modal == modalHelp {
		overlay(lines, m.helpOverlay(), m.w, m.h)
	}
	return strings.Join(lines, "\n")
}

// overviewHelpLine is the overview's key help, or the flash when there is one.
func (m *Model) overviewHelpLine() string {
	if m.flash != "" || m.modal == modalFilter || m.modal == modalGoto {
		return m.bottomLine()
	}
	hm := m.helpAt(m.w)
	k := m.keys
	return keyLine(hm, []key.Binding{m.oKeys.Up, m.oKeys.Down, m.oKeys.Open, k.Tree, k.Overview}, []key.Binding{k.Help, k.Quit}, m.w)
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
	pn := m.pane(p)
	body, gen := pn.view()
	bw := pn.width() // the width the pane fitted its lines to
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
func (m *Model) paneNote(p paneID) string { return m.pane(p).note() }

// header is the top line: the name and the selected path as breadcrumbs.
func (m *Model) header() string {
	path := m.tree.SelectedPath()
	var right string
	if f := m.tree.Filter(); f != "" && m.modal != modalFilter {
		right = "filter “" + f + "” "
	}
	if f := m.values.Filter(); f != "" && m.modal != modalFilter {
		right += "table filter “" + safe(f) + "” "
	}
	if u := m.values.User(); u != "" && m.modal != modalFilter {
		right += "user “" + safe(u) + "” "
	}
	if m.rp != nil && right == "" {
		right = m.rp.title()
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
	return fitLine(m.st.Text.Brand.Render(left)+" "+m.st.Text.Normal.Render(trail)+blanks(gap)+m.headerRight(right), m.w)
}

// headerRight draws the header's right part: a replay's title stands out, anything else is muted.
func (m *Model) headerRight(right string) string {
	if m.rp != nil && right == m.rp.title() {
		return m.st.Text.Accent.Render(right)
	}
	return m.st.Text.Muted.Render(right)
}

// drawHeaderTrail is drawHeader for a screen that is not a path (the overview).
func (m *Model) drawHeaderTrail(trail, right string) string {
	left := " dcimon "
	gap := max(m.w-width(left)-1-width(trail)-width(right), 0)
	return fitLine(m.st.Text.Brand.Render(left)+" "+m.st.Text.Normal.Render(trail)+blanks(gap)+m.headerRight(right), m.w)
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
		switch {
		case m.modal == modalFilter && m.filterUser:
			prompt = "u user "
			hint = "  " + strings.Join(m.values.Users(), " ") + " · " + helpText(m.inKeys.Accept) + " · empty: every user"
		case m.modal == modalFilter && m.filterValues:
			hint = "  user or command · " + helpText(m.inKeys.Accept) + " · " + helpText(m.inKeys.Cancel)
		case m.modal == modalGoto:
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
	line := keyLine(hm, m.shortHelp(), []key.Binding{m.keys.Help, m.keys.Quit}, m.w)
	m.fc.help = keptLine{focus: m.focus, w: m.w, line: line}
	return line
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
