// Command termshot renders a terminal capture (tmux capture-pane -e) as a PNG, the cells drawn
// as a terminal draws them (package termshot). scripts/screenshots.sh runs it.
//
// Usage: termshot -cols 120 -rows 40 -o shot.png shot.ansi
package main

import (
	"flag"
	"fmt"
	"image/color"
	"image/png"
	"os"
	"path/filepath"

	"golang.org/x/image/font/sfnt"

	"dcimon/internal/termshot"
)

func main() {
	cols := flag.Int("cols", 80, "the terminal's `COLUMNS`")
	rows := flag.Int("rows", 24, "the terminal's `ROWS`")
	out := flag.String("o", "", "write the PNG to `FILE`")
	size := flag.Float64("size", 15, "the font size in `PIXELS`")
	fonts := flag.String("fonts", "/usr/share/fonts/truetype/dejavu", "the `DIR` of DejaVu's fonts (Debian's fonts-dejavu-core)")
	flag.Parse()
	if flag.NArg() != 1 || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: termshot -cols N -rows N -o FILE.png CAPTURE.ansi")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *out, *fonts, *cols, *rows, *size); err != nil {
		fmt.Fprintln(os.Stderr, "termshot:", err)
		os.Exit(1)
	}
}

func load(dir string, names ...string) ([]*sfnt.Font, error) {
	var fs []*sfnt.Font
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		f, err := sfnt.Parse(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		fs = append(fs, f)
	}
	return fs, nil
}

func run(in, out, dir string, cols, rows int, size float64) error {
	reg, err := load(dir, "DejaVuSansMono.ttf", "DejaVuSans.ttf")
	if err != nil {
		return err
	}
	bold, err := load(dir, "DejaVuSansMono-Bold.ttf", "DejaVuSans-Bold.ttf")
	if err != nil {
		return err
	}
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	s, err := termshot.Parse(f, cols, rows)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	img, err := termshot.Render(s, termshot.Font{Regular: reg, Bold: bold}, termshot.Options{Size: size, Padding: 16,
		FG: color.RGBA{0xc9, 0xd1, 0xd9, 0xff}, BG: color.RGBA{0x0d, 0x11, 0x17, 0xff}})
	if err != nil {
		return err
	}
	tmp := out + ".tmp"
	w, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := png.Encode(w, img); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, out)
}
