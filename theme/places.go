package theme

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2/unstable"
)

// place is where a theme file sets a key: the key's line and column, its value's, the value's
// kind and the value as written.
type place struct {
	line, col   int
	vline, vcol int
	kind        unstable.Kind
	text        string
}

// places reads where each key of a theme file is, with go-toml's parser (which keeps every
// node's place in the input), so errors can say line:col in the file's words (issue 29 item
// 16). A syntax error is returned at its place.
func places(src string, data []byte) (map[string]place, []string, error) {
	p := &unstable.Parser{}
	p.Reset(data)
	at := newLines(data)
	out := map[string]place{}
	var order []string
	table := ""
	for p.NextExpression() {
		e := p.Expression()
		var parts []string
		var first unstable.Range
		for it := e.Key(); it.Next(); {
			if len(parts) == 0 {
				first = it.Node().Raw
			}
			parts = append(parts, string(it.Node().Data))
		}
		kl, kc := at.pos(int(first.Offset))
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = strings.Join(parts, ".")
			out[table] = place{line: kl, col: kc, kind: e.Kind}
			order = append(order, table)
		case unstable.KeyValue:
			key := strings.Join(parts, ".")
			if table != "" {
				key = table + "." + key
			}
			v := e.Value()
			off := int(v.Raw.Offset)
			text := string(data[off : off+int(v.Raw.Length)])
			switch v.Kind {
			case unstable.String:
				text = fmt.Sprintf("%q", v.Data)
				// The raw of a string is its content: its place is its opening quote's.
				for q := 0; q < 3 && off > 0 && (data[off-1] == '"' || data[off-1] == '\''); q++ {
					off--
				}
			case unstable.Array:
				text = "a list"
			case unstable.InlineTable:
				text = "a table"
			}
			vl, vc := at.pos(off)
			out[key] = place{line: kl, col: kc, vline: vl, vcol: vc, kind: v.Kind, text: text}
			order = append(order, key)
		}
	}
	if err := p.Error(); err != nil {
		var pe *unstable.ParserError
		if errors.As(err, &pe) && pe.Highlight != nil {
			sh := p.Shape(p.Range(pe.Highlight))
			return nil, nil, fmt.Errorf("%s:%d:%d: %s", src, sh.Start.Line, sh.Start.Column, pe.Message)
		}
		return nil, nil, fmt.Errorf("%s: %w", src, err)
	}
	return out, order, nil
}

// lines is where each line of a file starts, so that an offset's line and column are found by
// a binary search (issue 41 item 4): go-toml's Parser.Shape counts lines from the file's start
// at every call, which made a large file quadratic.
type lines []int

// newLines indexes data's lines.
func newLines(data []byte) lines {
	l := lines{0}
	for i, c := range data {
		if c == '\n' {
			l = append(l, i+1)
		}
	}
	return l
}

// pos is the line and column (from 1, in bytes, as go-toml counts) of the byte at off.
func (l lines) pos(off int) (line, col int) {
	i := sort.SearchInts(l, off+1) - 1 // the last line starting at or before off
	return i + 1, off - l[i] + 1
}

// maxText is how much of a key or value an error repeats (issue 41 item 10).
const maxText = 80

// cut is s cut to maxText bytes on a character's first byte, with "…" for what is left out.
func cut(s string) string {
	if len(s) <= maxText {
		return s
	}
	i := maxText
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
