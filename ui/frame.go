package ui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// frame draws a pane's border around its content (exactly inner-sized lines) with the title set
// into the top edge and an optional note at the right of it. It returns the outer lines.
func frame(st *styles, b box, title, note string, focused bool, content []string) []string {
	ch, bs, ts, ns := st.Pane.Chars, st.Pane.Border, st.Pane.Title, st.Pane.Note
	if focused {
		ch, bs, ts, ns = st.Pane.FocusedChars, st.Pane.FocusedBorder, st.Pane.FocusedTitle, st.Pane.FocusedNote
	}
	w, iw := b.Outer.W, b.Inner.W
	if w < 2 || b.Outer.H < 2 {
		return block("", w, b.Outer.H)
	}
	out := make([]string, 0, b.Outer.H)
	out = append(out, topEdge(ch, bs, ts, ns, title, note, w))
	left, right := bs.Render(ch.Left), bs.Render(ch.Right)
	for i := 0; i < b.Inner.H; i++ {
		line := ""
		if i < len(content) {
			line = content[i]
		}
		out = append(out, left+fitLine(line, iw)+right)
	}
	out = append(out, bs.Render(ch.BottomLeft+strings.Repeat(ch.Bottom, max(w-2, 0))+ch.BottomRight))
	return out
}

// topEdge is "╭─ Title ─── note ─╮" exactly w cells wide; the note goes first when space runs out.
func topEdge(ch lipgloss.Border, bs, ts, ns ink, title, note string, w int) string {
	avail := w - 2
	t := ""
	if title != "" && avail >= 5 {
		t = " " + cut(title, avail-3) + " "
	}
	n := ""
	if note != "" && avail-width(t)-4 >= 3 {
		n = " " + cut(note, avail-width(t)-4) + " "
	}
	fill := avail - width(t) - width(n)
	var sb strings.Builder
	sb.WriteString(bs.Render(ch.TopLeft))
	if t != "" {
		sb.WriteString(bs.Render(ch.Top))
		sb.WriteString(ts.Render(t))
		fill--
	}
	if n != "" {
		sb.WriteString(bs.Render(strings.Repeat(ch.Top, max(fill-1, 0))))
		sb.WriteString(ns.Render(n))
		sb.WriteString(bs.Render(ch.Top))
	} else {
		sb.WriteString(bs.Render(strings.Repeat(ch.Top, max(fill, 0))))
	}
	sb.WriteString(bs.Render(ch.TopRight))
	return sb.String()
}
