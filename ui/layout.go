package ui

import (
	"fmt"

	"github.com/charmbracelet/lipgloss"

	"dcimon/theme"
)

// paneID names a pane; the order is the focus order and the digit that jumps to it.
type paneID int

const (
	paneTree paneID = iota
	paneValues
	paneHot
	paneInspector
	paneEvents
	numPanes
)

var paneTitles = [numPanes]string{"Tree", "Values", "Hotsets", "Inspector", "Events"}

func (p paneID) String() string {
	if p >= 0 && p < numPanes {
		return paneTitles[p]
	}
	return fmt.Sprintf("pane(%d)", int(p))
}

// layoutMode is how much of the monitor fits: too-small (only a notice), compact (one pane at
// a time behind tabs) or full (every pane at once).
type layoutMode int

const (
	modeTooSmall layoutMode = iota // too-small
	modeCompact                    // compact
	modeFull                       // full
)

// Size thresholds. Below minW×minH nothing useful fits (AMB-57's absolute minimum); from
// fullW×fullH every pane is shown at once.
const (
	minW, minH   = 40, 10
	fullW, fullH = 110, 28
)

// rect is a rectangle of terminal cells.
type rect struct{ X, Y, W, H int }

// contains reports whether the cell (x, y) is inside r.
func (r rect) contains(x, y int) bool { return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H }

// box is a pane's place: its outer rectangle with the frame, and the inner one its View fills.
type box struct{ Outer, Inner rect }

// layout is where everything goes for one terminal size. In compact mode every pane has the
// same box (only the focused one is drawn); in too-small mode only W, H, NeedW and NeedH mean
// anything.
type layout struct {
	Mode   layoutMode
	W, H   int
	NeedW  int
	NeedH  int
	Header rect
	Tabs   rect
	Panes  [numPanes]box
	Status rect
	Help   rect
}

// computeLayout is a pure function of the terminal size and the frame the styles draw around a
// pane; it returns the rectangles with the frame already subtracted (house style rule 9).
func computeLayout(w, h int, st theme.Styles) layout {
	l := layout{W: max(w, 0), H: max(h, 0), NeedW: minW, NeedH: minH}
	if w < minW || h < minH {
		l.Mode = modeTooSmall
		return l
	}
	fs := lipgloss.NewStyle().Border(st.Pane.Chars)
	fw, fh := fs.GetHorizontalFrameSize(), fs.GetVerticalFrameSize()
	top := fs.GetBorderTopSize()
	left := fs.GetBorderLeftSize()
	mk := func(x, y, bw, bh int) box {
		in := rect{X: x + left, Y: y + top, W: max(bw-fw, 0), H: max(bh-fh, 0)}
		return box{Outer: rect{x, y, bw, bh}, Inner: in}
	}
	l.Header = rect{0, 0, w, 1}
	l.Status = rect{0, h - 2, w, 1}
	l.Help = rect{0, h - 1, w, 1}
	if w < fullW || h < fullH {
		l.Mode = modeCompact
		l.Tabs = rect{0, 1, w, 1}
		b := mk(0, 2, w, h-4)
		for i := range l.Panes {
			l.Panes[i] = b
		}
		return l
	}
	l.Mode = modeFull
	bodyY, bodyH := 1, h-3
	treeW := clamp(w/5, 24, 44)
	rightW := clamp(w*3/10, 36, 64)
	midW := w - treeW - rightW
	topH := bodyH * 3 / 5
	l.Panes[paneTree] = mk(0, bodyY, treeW, bodyH)
	l.Panes[paneValues] = mk(treeW, bodyY, midW, topH)
	l.Panes[paneHot] = mk(treeW, bodyY+topH, midW, bodyH-topH)
	l.Panes[paneInspector] = mk(treeW+midW, bodyY, rightW, topH)
	l.Panes[paneEvents] = mk(treeW+midW, bodyY+topH, rightW, bodyH-topH)
	return l
}

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
