package termshot

import (
	"image"
	"image/color"
	"strings"
	"testing"

	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/sfnt"
)

var (
	red   = color.RGBA{0xff, 0, 0, 0xff}
	blue  = color.RGBA{0, 0, 0xff, 0xff}
	defFG = color.RGBA{0xc0, 0xc0, 0xc0, 0xff}
	defBG = color.RGBA{0x10, 0x10, 0x10, 0xff}
)

func TestParse(t *testing.T) {
	in := "\x1b[1m\x1b[38;2;121;192;255m dcimon \x1b[0m x\x1b[48;5;196mé\u0301\n" +
		"\x1b[31m日本\x1b[39m!\x1b[?25lZ\n" +
		"too long for the screen\n" +
		"a fourth line the screen has no room for\n"
	s, err := Parse(strings.NewReader(in), 12, 3)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Cells[0][1]
	if c.Text != "d" || c.Attr != Bold || c.FG != (color.RGBA{121, 192, 255, 255}) || c.BG != nil {
		t.Errorf("bold truecolour d: %+v", c)
	}
	if c := s.Cells[0][9]; c.Text != "x" || c.FG != nil || c.Attr != 0 {
		t.Errorf("after SGR 0: %+v", c)
	}
	if c := s.Cells[0][10]; c.Text != "é\u0301" || c.BG != Palette(196) {
		t.Errorf("combining mark and 256-colour background: %+v", c)
	}
	// A wide character takes two cells; non-SGR sequences draw nothing.
	if r := s.Cells[1]; r[0].Text != "日" || !r[1].Cont || r[2].Text != "本" || r[0].FG != Palette(1) || r[4].Text != "!" || r[5].Text != "Z" {
		t.Errorf("row 1: %+v", r[:6])
	}
	if got := s.Cells[2][11].Text; got != "r" {
		t.Errorf("row 2 cut at 12 columns: last cell %q", got)
	}
	if _, err := Parse(strings.NewReader(""), 0, 10); err == nil {
		t.Error("a screen of no columns")
	}
	if _, err := Parse(strings.NewReader(""), 100000, 100000); err == nil {
		t.Error("a screen of 10^10 cells")
	}
}

func TestPalette(t *testing.T) {
	for n, want := range map[int]color.RGBA{1: {0xcd, 0, 0, 0xff}, 16: {0, 0, 0, 0xff}, 196: {0xff, 0, 0, 0xff}, 231: {0xff, 0xff, 0xff, 0xff}, 232: {8, 8, 8, 0xff}, 255: {238, 238, 238, 0xff}} {
		if got := Palette(n); got != want {
			t.Errorf("Palette(%d) = %v, want %v", n, got, want)
		}
	}
}

// render draws a screen in Go Mono, which x/image carries, at 16 px without padding.
func render(t *testing.T, s *Screen) (*image.RGBA, int, int) {
	t.Helper()
	f, err := sfnt.Parse(gomono.TTF)
	if err != nil {
		t.Fatal(err)
	}
	img, err := Render(s, Font{Regular: []*sfnt.Font{f}}, Options{Size: 16, FG: defFG, BG: defBG})
	if err != nil {
		t.Fatal(err)
	}
	return img, img.Bounds().Dx() / s.Cols, img.Bounds().Dy() / s.Rows
}

func screen(rows ...[]Cell) *Screen {
	return &Screen{Cols: len(rows[0]), Rows: len(rows), Cells: rows}
}

// count is how many pixels of r have colour c.
func count(img *image.RGBA, r image.Rectangle, c color.RGBA) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if img.RGBAAt(x, y) == c {
				n++
			}
		}
	}
	return n
}

// Issue 32 item 14: a block element fills its own cell as the terminal draws it, exactly: a full
// block all of it, a left half the left half, an eighth an eighth; a shade the colour at its
// share; nothing spills into the next row or column, so bars of adjacent rows never overlap.
func TestBlocksFillTheirCell(t *testing.T) {
	fg := func(s string) Cell { return Cell{Text: s, FG: red} }
	blank := Cell{BG: blue}
	s := screen(
		[]Cell{fg("█"), fg("▌"), fg("░"), fg("▁"), fg("▏"), blank},
		[]Cell{blank, blank, blank, blank, blank, blank},
	)
	img, cw, ch := render(t, s)
	cell := func(x, y int) image.Rectangle { return image.Rect(x*cw, y*ch, (x+1)*cw, (y+1)*ch) }
	area := cw * ch
	if n := count(img, cell(0, 0), red); n != area {
		t.Errorf("█: %d of %d pixels", n, area)
	}
	half := image.Rect(cw, 0, cw+frac(0, cw, 4, 8), ch)
	if n := count(img, half, red); n != half.Dx()*ch || count(img, cell(1, 0), red) != n {
		t.Errorf("▌: %d red in the left half (%d), %d in the cell", n, half.Dx()*ch, count(img, cell(1, 0), red))
	}
	if shade := blend(red, defBG, 0.25); count(img, cell(2, 0), shade) != area {
		t.Errorf("░: not the colour at a quarter everywhere")
	}
	if n, want := count(img, cell(3, 0), red), cw*(ch-frac(0, ch, 7, 8)); n != want {
		t.Errorf("▁: %d red pixels, want %d (the bottom eighth)", n, want)
	}
	if n, want := count(img, cell(4, 0), red), ch*frac(0, cw, 1, 8); n != want || want == 0 {
		t.Errorf("▏: %d red pixels, want %d (the left eighth)", n, want)
	}
	for x := 0; x < 6; x++ {
		if n := count(img, cell(x, 1), blue); n != area {
			t.Errorf("row 1 cell %d: %d of %d pixels its own blue: row 0 spilled into it", x, n, area)
		}
	}
	if n := count(img, cell(5, 0), blue); n != area {
		t.Errorf("cell 5: the ▏ before it spilled: %d of %d", n, area)
	}
}

// Box-drawing lines run from cell to cell: a │ column is unbroken down the rows, a ─ row across
// the columns, and a ╭ corner meets both.
func TestBoxLinesJoin(t *testing.T) {
	c := func(s string) Cell { return Cell{Text: s, FG: red} }
	s := screen(
		[]Cell{c("╭"), c("─"), c("─")},
		[]Cell{c("│"), {}, {}},
		[]Cell{c("│"), {}, {}},
	)
	img, cw, ch := render(t, s)
	cx := frac(0, cw, 1, 2)
	for y := ch; y < 3*ch; y++ {
		if count(img, image.Rect(0, y, cw, y+1), red) == 0 {
			t.Fatalf("│ broken at y=%d", y)
		}
	}
	cy := frac(0, ch, 1, 2)
	for x := cw; x < 3*cw; x++ {
		if count(img, image.Rect(x, 0, x+1, ch), red) == 0 {
			t.Fatalf("─ broken at x=%d", x)
		}
	}
	// The corner reaches the right edge on the line's row and the bottom edge on the column's.
	if img.RGBAAt(cw-1, cy) != red && img.RGBAAt(cw-1, cy-1) != red {
		t.Error("╭ does not meet the ─ beside it")
	}
	if img.RGBAAt(cx, ch-1) != red && img.RGBAAt(cx-1, ch-1) != red {
		t.Error("╭ does not meet the │ below it")
	}
	if img.RGBAAt(0, 0) == red {
		t.Error("╭ fills its cell's outer corner")
	}
}

func FuzzParse(f *testing.F) {
	f.Add("\x1b[1m\x1b[38;2;1;2;3mab\x1b[0m\n\x1b[48;5;300mc\x1b[38;5m\x1b[38;2;1m日\u0301\n")
	f.Add("\x1b[\x1b]0;title\x07\x1b[99999999999999999999m\xff\xfe")
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(strings.NewReader(in), 8, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Cells) != 3 {
			t.Fatalf("%d rows", len(s.Cells))
		}
		for _, row := range s.Cells {
			if len(row) != 8 {
				t.Fatalf("%d columns", len(row))
			}
			if row[0].Cont {
				t.Fatal("a row starts with the second half of a wide character")
			}
		}
	})
}
