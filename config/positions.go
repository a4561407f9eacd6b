package config

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"

	"dcimon/internal/tomlmsg"
)

// parseErr is a syntax error at a position, before the file's name is known.
type parseErr struct {
	pos Pos
	msg string
}

func (e *parseErr) withFile(name string) error { return &Error{File: name, Pos: e.pos, Msg: e.msg} }

// span is one expression of the file: a table header or a key/value line, with the byte range
// of its value (key/values only) and of its whole line.
type span struct {
	kind       unstable.Kind
	key        string // the dotted path, arrays of tables indexed: "hotset[1].maxresp"
	table      string // the table it belongs to ("hotset[1]", "" for the top)
	start, end int    // the expression's line: from its first byte to the end of its line (newline included)
	vstart     int    // the value's bytes, key/values only
	vend       int
	vkind      unstable.Kind // the value's kind, key/values only
}

// scan walks the file's expressions with go-toml's parser, which gives every node's place in
// the input: the positions of keys for messages, and the spans SaveHotsets edits.
func scan(data []byte) ([]span, *unstable.Parser, *parseErr) {
	p := &unstable.Parser{}
	p.Reset(data)
	var out []span
	table := ""
	arrays := map[string]int{}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			name, first := keyOf(e.Key())
			if e.Kind == unstable.ArrayTable {
				table = fmt.Sprintf("%s[%d]", name, arrays[name])
				arrays[name]++
			} else {
				table = name
			}
			start := lineStart(data, int(first.Offset))
			out = append(out, span{kind: e.Kind, key: table, table: table, start: start, end: lineEnd(data, int(first.Offset))})
		case unstable.KeyValue:
			name, first := keyOf(e.Key())
			full := name
			if table != "" {
				full = table + "." + name
			}
			v := e.Value()
			vs, ve := int(v.Raw.Offset), int(v.Raw.Offset+v.Raw.Length)
			switch {
			case v.Kind == unstable.String && ve < len(data):
				// The raw of a string is its content: widen it to its quotes.
				q := quoteLen(data, vs)
				vs, ve = vs-q, ve+q
			case v.Kind == unstable.Array || v.Kind == unstable.InlineTable:
				// An array's raw is not its extent: from the = to its closing bracket.
				vs, ve = bracketed(data, int(first.Offset))
			}
			out = append(out, span{kind: e.Kind, key: full, table: table, start: lineStart(data, int(first.Offset)),
				end: lineEnd(data, max(ve, int(first.Offset))), vstart: vs, vend: ve, vkind: v.Kind})
		}
	}
	if err := p.Error(); err != nil {
		var pe *unstable.ParserError
		if errors.As(err, &pe) && pe.Highlight != nil {
			sh := p.Shape(p.Range(pe.Highlight))
			return nil, nil, &parseErr{Pos{sh.Start.Line, sh.Start.Column}, pe.Message}
		}
		return nil, nil, &parseErr{Pos{}, err.Error()}
	}
	return out, p, nil
}

// quoteLen is the length of the quotes before a string's content at off: 3 for """ or ”', 1
// for " or ', 0 when there are none (a bare value).
func quoteLen(data []byte, off int) int {
	if off >= 3 && (string(data[off-3:off]) == `"""` || string(data[off-3:off]) == "'''") {
		return 3
	}
	if off >= 1 && (data[off-1] == '"' || data[off-1] == '\'') {
		return 1
	}
	return 0
}

// bracketed is the extent of the array or inline table that follows the = after off: from its
// opening bracket to its closing one, strings and comments skipped. A file the parser accepted
// always has one.
func bracketed(data []byte, off int) (start, end int) {
	i := off
	for i < len(data) && data[i] != '=' {
		i++
	}
	for i < len(data) && data[i] != '[' && data[i] != '{' {
		i++
	}
	start, depth := i, 0
	for ; i < len(data); i++ {
		switch c := data[i]; c {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				return start, i + 1
			}
		case '#':
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case '"', '\'':
			q := []byte{c}
			if i+2 < len(data) && data[i+1] == c && data[i+2] == c {
				q = []byte{c, c, c}
			}
			i += len(q)
			for i < len(data) && !(string(data[i:min(i+len(q), len(data))]) == string(q)) {
				if c == '"' && data[i] == '\\' {
					i++
				}
				i++
			}
			i += len(q) - 1
		}
	}
	return start, len(data)
}

// keyOf is a dotted key and the range of its first part.
func keyOf(it unstable.Iterator) (string, unstable.Range) {
	var parts []string
	var first unstable.Range
	for it.Next() {
		n := it.Node()
		if len(parts) == 0 {
			first = n.Raw
		}
		parts = append(parts, string(n.Data))
	}
	return strings.Join(parts, "."), first
}

func lineStart(data []byte, off int) int {
	for off > 0 && data[off-1] != '\n' {
		off--
	}
	return off
}

func lineEnd(data []byte, off int) int {
	for off < len(data) && data[off] != '\n' {
		off++
	}
	if off < len(data) {
		off++
	}
	return off
}

// positions is where every key and table of the file is, and the shape of each (checkShapes).
func positions(data []byte) (map[string]Pos, []shape, *parseErr) {
	spans, _, err := scan(data)
	if err != nil {
		return nil, nil, err
	}
	at := tomlmsg.NewLines(data)
	pos := func(off int) Pos {
		l, c := at.Pos(off)
		return Pos{l, c}
	}
	shapes := make([]shape, 0, len(spans))
	for _, s := range spans {
		sh := shape{kind: s.kind, key: s.key, table: s.table}
		if s.kind == unstable.KeyValue {
			sh.vkind, sh.text, sh.vpos = s.vkind, string(data[s.vstart:s.vend]), pos(s.vstart)
		} else {
			sh.vpos = pos(s.start)
		}
		shapes = append(shapes, sh)
	}
	set := make(map[string]Pos, len(spans))
	for _, s := range spans {
		off := s.start
		for off < len(data) && (data[off] == ' ' || data[off] == '\t') {
			off++
		}
		set[s.key] = pos(off)
	}
	return set, shapes, nil
}
