// Package termshot turns a terminal capture (tmux capture-pane -e: text with SGR colour
// sequences) into a picture drawn as a terminal draws it: the text in a monospace font, cell by
// cell, and the block elements (█ ▌ ▁ ░...) and box-drawing lines (─ │ ╭...) as shapes that fill
// exactly their cell, so that bars of eighth blocks tile without gaps or overlaps, whatever the
// font's own glyphs for them look like. scripts/screenshots.sh renders the README's pictures
// with it (internal/cmd/termshot).
package termshot

import (
	"bufio"
	"fmt"
	"image/color"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// Attr is a cell's text attributes.
type Attr uint8

// The attributes a capture can set.
const (
	Bold Attr = 1 << iota
	Dim
	Italic
	Underline
	Reverse
)

// Cell is one character cell. A wide character's second cell has Cont set and no text.
type Cell struct {
	Text   string // a character and its combining marks; "" is a blank
	FG, BG color.Color
	Attr   Attr
	Cont   bool
}

// Screen is a grid of cells, Rows × Cols.
type Screen struct {
	Cols, Rows int
	Cells      [][]Cell
}

// maxSize bounds a screen: a capture is a terminal's, and a bad size must not size an allocation.
const maxSize = 1000

// Parse reads a capture of a cols × rows terminal. Lines beyond rows and characters beyond cols
// are dropped, as the terminal would not show them; escape sequences other than SGR are skipped.
// Colours left unset are nil: the picture's default foreground and background.
func Parse(r io.Reader, cols, rows int) (*Screen, error) {
	if cols < 1 || rows < 1 || cols > maxSize || rows > maxSize {
		return nil, fmt.Errorf("termshot: a %d×%d screen: want 1 to %d each", cols, rows, maxSize)
	}
	s := &Screen{Cols: cols, Rows: rows, Cells: make([][]Cell, rows)}
	for i := range s.Cells {
		s.Cells[i] = make([]Cell, cols)
	}
	var pen Cell
	br := bufio.NewReader(r)
	for row := 0; row < rows; row++ {
		line, err := br.ReadString('\n')
		if line == "" && err != nil {
			if err == io.EOF {
				break
			}
			return nil, fmt.Errorf("termshot: line %d: %w", row+1, err)
		}
		drawLine(s.Cells[row], strings.TrimRight(line, "\r\n"), &pen)
		if err == io.EOF {
			break
		}
	}
	return s, nil
}

// drawLine draws one line of a capture into row with pen, which the line's SGR sequences change;
// the rest of the row is blank in the colours the line ended with.
func drawLine(row []Cell, line string, pen *Cell) {
	col := 0
	for i := 0; i < len(line); {
		if line[i] == 0x1b {
			n, ok := sgr(line[i:], pen)
			if !ok {
				n = skipEscape(line[i:])
			}
			i += n
			continue
		}
		r, size := utf8.DecodeRuneInString(line[i:]) // an invalid byte is U+FFFD
		i += size
		col = drawRune(row, col, r, *pen)
	}
	for ; col < len(row); col++ {
		c := *pen
		c.Text = ""
		row[col] = c
	}
}

// drawRune draws r at column col of row in pen's colours and returns the column after it: a
// control character draws nothing, a combining mark joins the character before it, and a
// character that does not fit ends the line, as the terminal would not show it.
func drawRune(row []Cell, col int, r rune, pen Cell) int {
	w := runewidth.RuneWidth(r)
	switch {
	case r < 0x20 || r == 0x7f:
		return col
	case w == 0:
		if col > 0 && col <= len(row) {
			c := &row[col-1]
			if c.Cont && col > 1 {
				c = &row[col-2]
			}
			c.Text += string(r)
		}
		return col
	case col+w > len(row):
		return len(row)
	}
	c := pen
	c.Text = string(r)
	row[col] = c
	if w == 2 {
		cont := pen
		cont.Text, cont.Cont = "", true
		row[col+1] = cont
	}
	return col + w
}

// skipEscape returns the length of the escape sequence at the start of s: a CSI sequence to
// its final byte, or ESC and the byte after it.
func skipEscape(s string) int {
	if len(s) >= 2 && s[1] == '[' {
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	}
	return min(2, len(s))
}

// sgr applies the SGR sequence at the start of s (ESC [ params m) to pen and returns its length.
func sgr(s string, pen *Cell) (int, bool) {
	if len(s) < 3 || s[1] != '[' {
		return 0, false
	}
	end := strings.IndexByte(s, 'm')
	if end < 0 || strings.IndexFunc(s[2:end], func(r rune) bool { return (r < '0' || r > '9') && r != ';' && r != ':' }) >= 0 {
		return 0, false
	}
	params := strings.FieldsFunc(s[2:end], func(r rune) bool { return r == ';' || r == ':' })
	if len(params) == 0 {
		params = []string{"0"}
	}
	num := func(i int) int {
		if i >= len(params) {
			return -1
		}
		n, err := strconv.Atoi(params[i])
		if err != nil || n > 255 {
			return -1
		}
		return n
	}
	for i := 0; i < len(params); i++ {
		switch p := num(i); p {
		case 38, 48:
			c, skip := extendedColor(num, i)
			i += skip
			if p == 38 {
				pen.FG = c
			} else {
				pen.BG = c
			}
		default:
			setSGR(pen, p)
		}
	}
	return end + 1, true
}

// setSGR applies one SGR parameter p other than an extended colour to pen: a reset, an
// attribute set or cleared, or a colour of the palette.
func setSGR(pen *Cell, p int) {
	switch {
	case p == 0:
		*pen = Cell{}
	case p == 1:
		pen.Attr |= Bold
	case p == 2:
		pen.Attr |= Dim
	case p == 3:
		pen.Attr |= Italic
	case p == 4:
		pen.Attr |= Underline
	case p == 7:
		pen.Attr |= Reverse
	case p == 22:
		pen.Attr &^= Bold | Dim
	case p == 23:
		pen.Attr &^= Italic
	case p == 24:
		pen.Attr &^= Underline
	case p == 27:
		pen.Attr &^= Reverse
	case p >= 30 && p <= 37:
		pen.FG = Palette(p - 30)
	case p >= 90 && p <= 97:
		pen.FG = Palette(p - 90 + 8)
	case p >= 40 && p <= 47:
		pen.BG = Palette(p - 40)
	case p >= 100 && p <= 107:
		pen.BG = Palette(p - 100 + 8)
	case p == 39:
		pen.FG = nil
	case p == 49:
		pen.BG = nil
	}
}

// extendedColor reads the colour of an extended colour parameter (38 or 48) at i: 5;n from the
// palette or 2;r;g;b, nil when it is not one; skip is how many parameters after i it took.
func extendedColor(num func(int) int, i int) (c color.Color, skip int) {
	switch num(i + 1) {
	case 5:
		if n := num(i + 2); n >= 0 {
			c = Palette(n)
		}
		return c, 2
	case 2:
		if r, g, b := num(i+2), num(i+3), num(i+4); r >= 0 && g >= 0 && b >= 0 {
			c = color.RGBA{uint8(r), uint8(g), uint8(b), 0xff}
		}
		return c, 4
	}
	return nil, 0
}

// ansi16 is the 16 colours of xterm's default palette.
var ansi16 = [16]color.RGBA{
	{0x00, 0x00, 0x00, 0xff}, {0xcd, 0x00, 0x00, 0xff}, {0x00, 0xcd, 0x00, 0xff}, {0xcd, 0xcd, 0x00, 0xff},
	{0x00, 0x00, 0xee, 0xff}, {0xcd, 0x00, 0xcd, 0xff}, {0x00, 0xcd, 0xcd, 0xff}, {0xe5, 0xe5, 0xe5, 0xff},
	{0x7f, 0x7f, 0x7f, 0xff}, {0xff, 0x00, 0x00, 0xff}, {0x00, 0xff, 0x00, 0xff}, {0xff, 0xff, 0x00, 0xff},
	{0x5c, 0x5c, 0xff, 0xff}, {0xff, 0x00, 0xff, 0xff}, {0x00, 0xff, 0xff, 0xff}, {0xff, 0xff, 0xff, 0xff},
}

// Palette is colour n of xterm's 256: the 16 ANSI colours, the 6×6×6 cube, 24 greys.
func Palette(n int) color.RGBA {
	switch {
	case n < 16:
		return ansi16[max(n, 0)]
	case n < 232:
		n -= 16
		level := func(v int) uint8 {
			if v == 0 {
				return 0
			}
			return uint8(55 + 40*v)
		}
		return color.RGBA{level(n / 36), level(n / 6 % 6), level(n % 6), 0xff}
	default:
		g := uint8(8 + 10*(min(n, 255)-232))
		return color.RGBA{g, g, g, 0xff}
	}
}
