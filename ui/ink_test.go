package ui

import (
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"dcimon/theme"
)

// TestInkPaintsAsLipgloss: every ink of every theme, under every colour profile, paints exactly
// what its lipgloss style renders, for plain text and for the texts lipgloss rewrites.
func TestInkPaintsAsLipgloss(t *testing.T) {
	defer lipgloss.SetColorProfile(termenv.Ascii)
	texts := []string{"", " ", "x", "sda", "  12.5 MiB/s", "▾ CPU (4)", "│█░▶—…", "名前", "a\tb", "two\nlines", "cr\r\n", "\x1b[1mnested\x1b[0m"}
	for _, prof := range []termenv.Profile{termenv.TrueColor, termenv.ANSI256, termenv.ANSI, termenv.Ascii} {
		lipgloss.SetColorProfile(prof)
		for _, name := range append(theme.Names(), "no-color") {
			ts, err := theme.Resolve(name, name == "no-color")
			if err != nil {
				t.Fatal(err)
			}
			st := newStyles(ts)
			exact := 0
			var walk func(path string, v reflect.Value)
			walk = func(path string, v reflect.Value) {
				if k, ok := v.Interface().(ink); ok {
					if k.exact {
						exact++
					}
					for _, s := range texts {
						if got, want := k.Render(s), k.Style().Render(s); got != want {
							t.Errorf("%v %s %s: Render(%q) = %q, lipgloss %q", prof, name, path, s, got, want)
						}
					}
					return
				}
				if v.Kind() == reflect.Struct {
					for i := 0; i < v.NumField(); i++ {
						if f := v.Type().Field(i); f.Name != "theme" {
							walk(path+"."+f.Name, v.Field(i))
						}
					}
				}
			}
			walk("styles", reflect.ValueOf(*st))
			if exact == 0 {
				t.Errorf("%v %s: no style is painted without lipgloss", prof, name)
			}
		}
	}
}

func TestZeroInkIsPlain(t *testing.T) {
	var k ink
	var sb strings.Builder
	k.write(&sb, "a\tb")
	k.writePad(&sb, "x", 3)
	k.writePadLeft(&sb, "y", 3)
	if got, want := sb.String()+k.Render("z"), "a\tbx    yz"; got != want {
		t.Errorf("zero ink painted %q, want %q", got, want)
	}
}
