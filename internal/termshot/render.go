package termshot

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// Font is a typeface for the picture: the regular face first, and faces that have the glyphs it
// lacks after it. Bold may be nil (bold text is then drawn in the regular face).
type Font struct {
	Regular, Bold []*sfnt.Font
}

// Options are a picture's size, padding and default colours.
type Options struct {
	Size    float64     // the font size in pixels
	Padding int         // pixels around the cells
	FG, BG  color.Color // the terminal's default colours
}

// face is one sized font and the font it came from, to ask whether it has a glyph.
type face struct {
	font *sfnt.Font
	face font.Face
}

// renderer draws cells of one size.
type renderer struct {
	img         *image.RGBA
	cw, ch      int // cell width and height
	ascent      int
	regular     []face
	bold        []face
	fg, bg      color.RGBA
	buf         sfnt.Buffer
	thin, heavy int // line widths of light and heavy box lines
}

func faces(fs []*sfnt.Font, size float64) ([]face, error) {
	var out []face
	for _, f := range fs {
		ff, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			return nil, err
		}
		out = append(out, face{f, ff})
	}
	return out, nil
}

func rgba(c color.Color) color.RGBA {
	r, g, b, a := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}

// blend is fg over bg at alpha (0 to 1).
func blend(fg, bg color.RGBA, alpha float64) color.RGBA {
	mix := func(a, b uint8) uint8 { return uint8(math.Round(float64(a)*alpha + float64(b)*(1-alpha))) }
	return color.RGBA{mix(fg.R, bg.R), mix(fg.G, bg.G), mix(fg.B, bg.B), 0xff}
}

// Render draws the screen: each cell's background, then its character, block elements and box
// lines as shapes in the cell's own rectangle.
func Render(s *Screen, f Font, o Options) (*image.RGBA, error) {
	if len(f.Regular) == 0 {
		return nil, fmt.Errorf("termshot: no font")
	}
	reg, err := faces(f.Regular, o.Size)
	if err != nil {
		return nil, err
	}
	bold := reg
	if len(f.Bold) > 0 {
		if bold, err = faces(f.Bold, o.Size); err != nil {
			return nil, err
		}
	}
	m := reg[0].face.Metrics()
	adv, ok := reg[0].face.GlyphAdvance('0')
	if !ok {
		return nil, fmt.Errorf("termshot: the font has no digit 0")
	}
	r := &renderer{regular: reg, bold: bold, fg: rgba(o.FG), bg: rgba(o.BG),
		cw: adv.Ceil(), ch: m.Height.Ceil(), ascent: m.Ascent.Round()}
	r.thin = max(1, int(math.Round(float64(r.cw)/8)))
	r.heavy = max(r.thin+1, int(math.Round(float64(r.cw)/4)))
	r.img = image.NewRGBA(image.Rect(0, 0, s.Cols*r.cw+2*o.Padding, s.Rows*r.ch+2*o.Padding))
	draw.Draw(r.img, r.img.Bounds(), image.NewUniform(r.bg), image.Point{}, draw.Src)
	for y, row := range s.Cells {
		for x, c := range row {
			if c.Cont {
				continue
			}
			w := 1
			if x+1 < len(row) && row[x+1].Cont {
				w = 2
			}
			cell := image.Rect(o.Padding+x*r.cw, o.Padding+y*r.ch, o.Padding+(x+w)*r.cw, o.Padding+(y+1)*r.ch)
			r.cell(cell, c)
		}
	}
	return r.img, nil
}

// cell draws one cell in its rectangle.
func (r *renderer) cell(rc image.Rectangle, c Cell) {
	fg, bg := r.fg, r.bg
	if c.FG != nil {
		fg = rgba(c.FG)
	}
	if c.BG != nil {
		bg = rgba(c.BG)
	}
	if c.Attr&Reverse != 0 {
		fg, bg = bg, fg
	}
	if c.Attr&Dim != 0 {
		fg = blend(fg, bg, 0.5)
	}
	r.fill(rc, bg)
	if c.Text == "" || c.Text == " " {
		return
	}
	if ru := []rune(c.Text); len(ru) == 1 && r.shape(rc, ru[0], fg, bg) {
		return
	}
	fs := r.regular
	if c.Attr&Bold != 0 {
		fs = r.bold
	}
	d := font.Drawer{Dst: r.img, Src: image.NewUniform(fg), Dot: fixed.P(rc.Min.X, rc.Min.Y+r.ascent)}
	for _, ru := range c.Text {
		d.Face = r.faceFor(fs, ru)
		d.DrawString(string(ru))
		d.Dot.X = fixed.I(rc.Min.X) // combining marks over the same cell
	}
	if c.Attr&Underline != 0 {
		y := rc.Min.Y + r.ascent + 1
		r.fill(image.Rect(rc.Min.X, y, rc.Max.X, y+r.thin), fg)
	}
}

// faceFor is the first face that has a glyph for ru (the first face otherwise, its .notdef box).
func (r *renderer) faceFor(fs []face, ru rune) font.Face {
	for _, f := range fs {
		if i, err := f.font.GlyphIndex(&r.buf, ru); err == nil && i != 0 {
			return f.face
		}
	}
	return fs[0].face
}

func (r *renderer) fill(rc image.Rectangle, c color.RGBA) {
	draw.Draw(r.img, rc, image.NewUniform(c), image.Point{}, draw.Src)
}

// frac is the coordinate n/d of the way from a to b, rounded: cells that share an edge agree on it.
func frac(a, b, n, d int) int { return a + int(math.Round(float64((b-a)*n)/float64(d))) }

// shape draws the block elements (U+2580–U+259F), the box-drawing lines dcimon uses and the
// pause sign as a terminal does, filling the cell exactly; false for any other character.
func (r *renderer) shape(rc image.Rectangle, ru rune, fg, bg color.RGBA) bool {
	x0, y0, x1, y1 := rc.Min.X, rc.Min.Y, rc.Max.X, rc.Max.Y
	part := func(xa, xb, ya, yb int) { // a part of the cell, in eighths
		r.fill(image.Rect(frac(x0, x1, xa, 8), frac(y0, y1, ya, 8), frac(x0, x1, xb, 8), frac(y0, y1, yb, 8)), fg)
	}
	switch {
	case ru == 0x2580: // ▀ upper half
		part(0, 8, 0, 4)
	case ru >= 0x2581 && ru <= 0x2588: // ▁ … █ lower eighths
		part(0, 8, 8-int(ru-0x2580), 8)
	case ru >= 0x2589 && ru <= 0x258f: // ▉ … ▏ left eighths
		part(0, 8-int(ru-0x2588), 0, 8)
	case ru == 0x2590: // ▐ right half
		part(4, 8, 0, 8)
	case ru >= 0x2591 && ru <= 0x2593: // ░ ▒ ▓ shades: the colour at a quarter, half, three quarters
		r.fill(rc, blend(fg, bg, float64(ru-0x2590)/4))
	case ru == 0x2594: // ▔ upper eighth
		part(0, 8, 0, 1)
	case ru == 0x2595: // ▕ right eighth
		part(7, 8, 0, 8)
	case ru >= 0x2596 && ru <= 0x259f: // quadrants: upper left, upper right, lower left, lower right
		q := [...]uint8{0b0010, 0b0001, 0b1000, 0b1011, 0b1001, 0b1110, 0b1101, 0b0100, 0b0110, 0b0111}[ru-0x2596]
		for i, at := range [4][2]int{{0, 0}, {4, 0}, {0, 4}, {4, 4}} {
			if q&(0b1000>>i) != 0 {
				part(at[0], at[0]+4, at[1], at[1]+4)
			}
		}
	case ru == 0x23f8: // ⏸ pause: two bars
		part(2, 3, 2, 7)
		part(5, 6, 2, 7)
	default:
		arms, ok := boxArms[ru]
		if !ok {
			return false
		}
		r.box(rc, arms, fg)
	}
	return true
}

// Box arms: up, right, down, left; each light (1), heavy (2) or double (3), and round corners.
type arms struct {
	u, rt, d, l uint8
	round       bool
}

var boxArms = map[rune]arms{
	'─': {0, 1, 0, 1, false}, '━': {0, 2, 0, 2, false}, '│': {1, 0, 1, 0, false}, '┃': {2, 0, 2, 0, false},
	'┌': {0, 1, 1, 0, false}, '┐': {0, 0, 1, 1, false}, '└': {1, 1, 0, 0, false}, '┘': {1, 0, 0, 1, false},
	'┏': {0, 2, 2, 0, false}, '┓': {0, 0, 2, 2, false}, '┗': {2, 2, 0, 0, false}, '┛': {2, 0, 0, 2, false},
	'├': {1, 1, 1, 0, false}, '┤': {1, 0, 1, 1, false}, '┬': {0, 1, 1, 1, false}, '┴': {1, 1, 0, 1, false},
	'┼': {1, 1, 1, 1, false}, '╴': {0, 0, 0, 1, false}, '╵': {1, 0, 0, 0, false}, '╶': {0, 1, 0, 0, false},
	'╷': {0, 0, 1, 0, false}, '═': {0, 3, 0, 3, false}, '║': {3, 0, 3, 0, false}, '╔': {0, 3, 3, 0, false},
	'╗': {0, 0, 3, 3, false}, '╚': {3, 3, 0, 0, false}, '╝': {3, 0, 0, 3, false},
	'╭': {0, 1, 1, 0, true}, '╮': {0, 0, 1, 1, true}, '╯': {1, 0, 0, 1, true}, '╰': {1, 1, 0, 0, true},
}

// box draws a box-drawing character's arms from the cell's centre to its edges, so that lines
// run on from cell to cell; a round corner is a quarter circle.
func (r *renderer) box(rc image.Rectangle, a arms, fg color.RGBA) {
	x0, y0, x1, y1 := rc.Min.X, rc.Min.Y, rc.Max.X, rc.Max.Y
	cx, cy := frac(x0, x1, 1, 2), frac(y0, y1, 1, 2)
	width := func(k uint8) int {
		if k == 2 {
			return r.heavy
		}
		return r.thin
	}
	// line draws a horizontal (h) or vertical line of weight k from a to b across the centre,
	// offset by off pixels (double lines are two thin ones).
	var line func(h bool, k uint8, a, b, off int)
	line = func(h bool, k uint8, a, b, off int) {
		if k == 0 {
			return
		}
		if k == 3 {
			gap := r.thin + 1
			line(h, 1, a, b, off-gap)
			line(h, 1, a, b, off+gap)
			return
		}
		w := width(k)
		if h {
			y := cy - w/2 + off
			r.fill(image.Rect(a, y, b, y+w), fg)
		} else {
			x := cx - w/2 + off
			r.fill(image.Rect(x, a, x+w, b), fg)
		}
	}
	if a.round {
		rad := min(cx-x0, cy-y0)
		// The corner's centre is rad from the cell's centre, towards both arms.
		dx, dy := 1, 1
		if a.l != 0 {
			dx = -1
		}
		if a.u != 0 {
			dy = -1
		}
		ccx, ccy := cx+dx*rad, cy+dy*rad
		w := r.thin
		for i := 0; i <= 64; i++ {
			t := float64(i) / 64 * math.Pi / 2
			px := ccx - dx*int(math.Round(float64(rad)*math.Cos(t)))
			py := ccy - dy*int(math.Round(float64(rad)*math.Sin(t)))
			r.fill(image.Rect(px-w/2, py-w/2, px-w/2+w, py-w/2+w).Intersect(rc), fg)
		}
		// The straight rest of each arm, from the arc to the edge.
		if a.rt != 0 {
			line(true, 1, ccx, x1, 0)
		}
		if a.l != 0 {
			line(true, 1, x0, ccx+1, 0)
		}
		if a.d != 0 {
			line(false, 1, ccy, y1, 0)
		}
		if a.u != 0 {
			line(false, 1, y0, ccy+1, 0)
		}
		return
	}
	// Each arm reaches past the centre by half the widest crossing line, so corners are square.
	ext := max(width(max(a.u, a.d)), width(max(a.l, a.rt)))
	line(true, a.l, x0, cx+ext/2+ext%2, 0)
	line(true, a.rt, cx-ext/2, x1, 0)
	line(false, a.u, y0, cy+ext/2+ext%2, 0)
	line(false, a.d, cy-ext/2, y1, 0)
}
