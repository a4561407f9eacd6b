package screen

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// vt is a minimal terminal for the Painter's tests: a w×h grid of cells, a cursor, and the few
// sequences the Painter and the monitor's modes use (CUP, EL, ED, SGR and DEC private modes,
// which it ignores). Auto-wrap is off, as the monitor sets it: text past the last column
// overwrites the last cell. Anything else it does not know is an error, so the Painter cannot
// start writing sequences the tests do not check.
type vt struct {
	w, h     int
	cells    [][]rune
	row, col int
}

func newVT(w, h int) *vt {
	v := &vt{w: w, h: h}
	v.cells = make([][]rune, h)
	for i := range v.cells {
		v.cells[i] = []rune(strings.Repeat(" ", w))
	}
	return v
}

// write interprets b.
func (v *vt) write(b []byte) error {
	for i := 0; i < len(b); {
		if b[i] == 0x1b {
			if i+1 >= len(b) || b[i+1] != '[' {
				return fmt.Errorf("offset %d: escape without CSI", i)
			}
			j := i + 2
			for j < len(b) && (b[j] >= 0x30 && b[j] <= 0x3f) {
				j++
			}
			if j >= len(b) {
				return fmt.Errorf("offset %d: unterminated CSI", i)
			}
			if err := v.csi(string(b[i+2:j]), b[j]); err != nil {
				return fmt.Errorf("offset %d: %w", i, err)
			}
			i = j + 1
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r < 0x20 {
			return fmt.Errorf("offset %d: control character %q", i, r)
		}
		v.put(r)
		i += n
	}
	return nil
}

func (v *vt) put(r rune) {
	if v.row >= v.h {
		return
	}
	c := min(v.col, v.w-1)
	v.cells[v.row][c] = r
	if v.col < v.w {
		v.col++
	}
}

func (v *vt) csi(params string, final byte) error {
	if strings.HasPrefix(params, "?") {
		if final != 'h' && final != 'l' {
			return fmt.Errorf("private mode ending in %q", final)
		}
		return nil
	}
	num := func(k, def int) int {
		parts := strings.Split(params, ";")
		if k >= len(parts) || parts[k] == "" {
			return def
		}
		n, _ := strconv.Atoi(parts[k])
		return n
	}
	switch final {
	case 'm':
	case 'H':
		v.row, v.col = min(num(0, 1), v.h)-1, min(num(1, 1), v.w)-1
	case 'K':
		if num(0, 0) != 0 {
			return fmt.Errorf("EL %s", params)
		}
		for c := v.col; c < v.w; c++ {
			v.cells[v.row][c] = ' '
		}
	case 'J':
		switch num(0, 0) {
		case 0:
			for c := v.col; c < v.w; c++ {
				v.cells[v.row][c] = ' '
			}
			for r := v.row + 1; r < v.h; r++ {
				v.cells[r] = []rune(strings.Repeat(" ", v.w))
			}
		case 2:
			for r := range v.cells {
				v.cells[r] = []rune(strings.Repeat(" ", v.w))
			}
		default:
			return fmt.Errorf("ED %s", params)
		}
	default:
		return fmt.Errorf("unknown CSI %q%c", params, final)
	}
	return nil
}

// text is the grid with trailing blanks trimmed from each row.
func (v *vt) text() string {
	rows := make([]string, v.h)
	for i, r := range v.cells {
		rows[i] = strings.TrimRight(string(r), " ")
	}
	return strings.Join(rows, "\n")
}

// shown is what a frame should look like on a w×h terminal: its first h lines, unstyled, cut at w.
func shown(frame string, w, h int) string {
	lines := strings.Split(frame, "\n")
	rows := make([]string, h)
	for i := range rows {
		if i < len(lines) {
			rows[i] = strings.TrimRight(ansi.Truncate(ansi.Strip(lines[i]), w, ""), " ")
		}
	}
	return strings.Join(rows, "\n")
}
