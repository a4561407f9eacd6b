package screen

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Terminal sequences the Painter writes. Each frame is wrapped in synchronized output (DEC mode
// 2026), so terminals that know it show the whole frame at once and the others ignore it.
const (
	syncBegin   = "\x1b[?2026h"
	syncEnd     = "\x1b[?2026l"
	eraseLine   = "\x1b[m\x1b[K" // default colours first, so the erased cells are not painted
	eraseBelow  = "\x1b[m\x1b[J"
	eraseScreen = "\x1b[m\x1b[2J"
)

// Painter turns frames into the bytes that bring the terminal from the previous frame to the next:
// only rows that differ are written, each from its first column after erasing what was there. It
// remembers what each row shows, so it must see every byte it returns written. It allocates
// nothing once its buffers have grown to a frame's size.
type Painter struct {
	rows  []string // what each terminal row shows: the frame's line, cut if it was too wide
	buf   []byte
	clear bool // the screen's content is unknown (start, resize): erase it and write every row
}

// Invalidate makes the next paint erase the screen and write every row: after a resize the
// terminal may have reflowed, moved or dropped what it showed.
func (p *Painter) Invalidate() { p.clear = true }

// Paint returns the bytes that show frame on a w×h terminal, or nil when the terminal already
// shows it. frame's lines are separated by '\n'; fw is the width it was laid out for: lines are
// cut to w only when the terminal has become narrower than that (a frame drawn before a resize
// arrived), so the common case measures nothing. Rows past the frame's last line are erased;
// lines past the terminal's last row are dropped. The returned slice is valid until the next
// call.
func (p *Painter) Paint(frame string, fw, w, h int) []byte {
	b := p.buf[:0]
	b = append(b, syncBegin...)
	start := len(b)
	if p.clear {
		b = append(b, eraseScreen...)
		p.rows = p.rows[:0]
		p.clear = false
	}
	row := 0
	for rest, more := frame, true; more && row < h; row++ {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			more = false
		}
		if row < len(p.rows) && p.rows[row] == line {
			continue
		}
		b = cursorTo(b, row)
		b = append(b, eraseLine...)
		if fw > w {
			// Remember what the row shows, so a later line equal to it is not written again.
			line = ansi.Truncate(line, w, "")
		}
		b = append(b, line...)
		if row < len(p.rows) {
			p.rows[row] = line
		} else {
			p.rows = append(p.rows, line)
		}
	}
	if row < len(p.rows) {
		// The new frame is shorter: erase what the old one showed below it.
		b = cursorTo(b, row)
		b = append(b, eraseBelow...)
		clear(p.rows[row:])
		p.rows = p.rows[:row]
	}
	if len(b) == start {
		p.buf = b
		return nil
	}
	p.buf = append(b, syncEnd...)
	return p.buf
}

// cursorTo moves the cursor to the first column of row (0-based).
func cursorTo(b []byte, row int) []byte {
	b = append(b, "\x1b["...)
	b = strconv.AppendInt(b, int64(row+1), 10)
	return append(b, ";1H"...)
}
