package ui

import (
	"github.com/charmbracelet/lipgloss"

	"dcimon/namespace"
	"dcimon/views"
)

// procRowMemo keeps the process block's lines of the last frame, each with what it was made of
// (issue 38 item 5): a process whose shown values did not move (most of them, from one second to
// the next) keeps its line, which is not formatted again. A line is keyed by the process's
// instance, which a new process never shares with an old one of the same PID (a new start time
// is a new instance), and by its ranking; what it was made of is compared whole, so a value
// that moved, a wider column, another width or theme makes the line again.
type procRowMemo struct {
	last, next map[procRowKey]procRowLine
	kept       int // lines kept from the last frame, in all (the tests' evidence)
}

type procRowKey struct {
	in    *namespace.Instance
	block int
}

// procRowLine is one line and what it was made of.
type procRowLine struct {
	ranked, user, rss, utime, stime, cmd, cmdline namespace.Value
	text                                          string // the ranked value as shown
	width, w                                      int
	memTotal                                      float64
	theme                                         *lipgloss.Style
	line                                          ovLine
}

// begin starts a frame: the lines made in the last one are those kept.
func (r *procRowMemo) begin() {
	r.last, r.next = r.next, r.last
	if r.next == nil {
		r.next = map[procRowKey]procRowLine{}
	}
	clear(r.next)
}

// line is the process in slot of cv as a line of block b (bi its index): the last frame's when
// nothing it shows moved, else made again by procRow.
func (r *procRowMemo) line(m *Model, cv *namespace.ClassValues, pc *procCols, bi int, b procBlock, di int, ms views.Measure, slot int, memTotal float64, w int, txt string) ovLine {
	get := func(i int) namespace.Value {
		if i < 0 {
			return namespace.Value{}
		}
		return cv.At(slot, i)
	}
	in := cv.Insts[slot]
	now := procRowLine{ranked: cv.At(slot, di), user: get(pc.user), rss: get(pc.rss), utime: get(pc.utime), stime: get(pc.stime),
		cmd: get(pc.cmd), cmdline: get(pc.cmdline), text: txt, width: b.width, w: w, memTotal: memTotal, theme: m.st.Text.Normal.style}
	k := procRowKey{in, bi}
	if old, ok := r.last[k]; ok {
		now.line = old.line
		if now == old {
			r.kept++
			r.next[k] = old
			return old.line
		}
	}
	now.line = ovLine{m.procRow(cv, pc, b, di, ms, slot, memTotal, w, txt), in.Context().Path() + "/" + b.stat}
	r.next[k] = now
	return now.line
}
