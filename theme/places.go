package theme

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"

	"dcimon/internal/tomlmsg"
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
	at := tomlmsg.NewLines(data)
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
		kl, kc := at.Pos(int(first.Offset))
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
			vl, vc := at.Pos(off)
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
