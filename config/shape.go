package config

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// shape is one key or table of the file as written: what kind of value it holds and where, so
// that a value of the wrong kind is reported in the file's words, at its place, before the
// decoder would report it in Go's (issue 29 item 16).
type shape struct {
	kind  unstable.Kind // KeyValue, Table or ArrayTable
	key   string        // the dotted path, arrays of tables indexed: "hotset[1].maxresp"
	table string
	vkind unstable.Kind // the value's kind, key/values only
	text  string        // the value as written, key/values only
	vpos  Pos           // the value's place (a table's: its header's)
}

// expectation is what a key's value must be: the kinds allowed and, in the user's words, what
// that is.
type expectation struct {
	kinds []unstable.Kind
	what  string
}

var (
	kString  = []unstable.Kind{unstable.String}
	kBool    = []unstable.Kind{unstable.Bool}
	kInt     = []unstable.Kind{unstable.Integer}
	kNumber  = []unstable.Kind{unstable.Integer, unstable.Float}
	kList    = []unstable.Kind{unstable.Array}
	kTable   = []unstable.Kind{unstable.InlineTable}
	kKeyList = []unstable.Kind{unstable.String, unstable.Array, unstable.InlineTable}
	kStat    = []unstable.Kind{unstable.String, unstable.Array}
)

// expectations are the value each key of the file must have, by its path without indexes
// ("hotset.maxresp"); "tables.*" is any table's layout, "keys.*" any action. The top-level
// settings' are in their rows of settings.
var expectations = map[string]expectation{
	"tables":              {kTable, `table layouts: [tables.disk] with columns, sort and descending`},
	"tables.*":            {kTable, `a table layout: columns, sort and descending`},
	"tables.*.columns":    {kList, `a list of column headers in quotes, such as ["dev", "r/s"]`},
	"tables.*.sort":       {kString, `a column header in quotes, such as "r/s"`},
	"tables.*.descending": {kBool, `true or false`},
	"keys":                {kTable, `key bindings: a [keys] table with lines such as quit = ["q", "ctrl+c"]`},
	"keys.*":              {kKeyList, `a list of keys in quotes, such as ["q", "ctrl+c"]`},
	"hotset":              {kList, `[[hotset]] tables, one for each hotset`},
	"hotset.name":         {kString, `a name in quotes, such as "busiest-disks"`},
	"hotset.path":         {kString, `a context's path in quotes, such as "Disk"`},
	"hotset.stat":         {kStat, `a statistic's name in quotes, such as "busy", or a list of names to try in order`},
	"hotset.maxresp":      {kInt, `a whole number`},
	"hotset.threshold":    {kNumber, `a number`},
	"hotset.critical":     {kNumber, `a number`},
	"hotset.feed":         {kString, quoted(Feeds)},
	"hotset.exceptions":   {kString, quoted(Exceptions)},
	"hotset.frequency":    {kInt, `a whole number of minutes`},
	"hotset.severity":     {kInt, `a whole number`},
	"hotset.trap":         {kInt, `a whole number`},
	"hotset.on_screen":    {kBool, `true or false`},
}

// quoted is choices as the file writes them: "a", "b" or "c".
func quoted(choices []string) string {
	q := make([]string, len(choices))
	for i, c := range choices {
		q[i] = `"` + c + `"`
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

var index = regexp.MustCompile(`\[\d+\]`)

// expected is what the value at key must be; ok false for a key the file may not have (the
// decoder calls it unknown, with a did-you-mean).
func expected(key string) (expectation, bool) {
	k := index.ReplaceAllString(key, "")
	if s, ok := settingOf(k); ok {
		return s.expect, true
	}
	if e, ok := expectations[k]; ok {
		return e, true
	}
	parts := strings.Split(k, ".")
	switch {
	case parts[0] == "keys" && len(parts) > 1:
		return expectations["keys.*"], true
	case parts[0] == "tables" && len(parts) == 2:
		return expectations["tables.*"], true
	case parts[0] == "tables" && len(parts) == 3:
		e, ok := expectations["tables.*."+parts[2]]
		return e, ok
	}
	return expectation{}, false
}

// exampleOf is how the top-level setting key is written ("" for a key that is none), for a
// header that makes it a table.
func exampleOf(key string) string {
	s, _ := settingOf(key)
	return s.example
}

// checkShapes reports the first key whose value is of the wrong kind, and the first table
// header with the wrong brackets, at its place and in the file's words.
func checkShapes(name string, shapes []shape) error {
	hotsetName := map[string]string{} // "hotset[1]" → its name, for messages
	for _, s := range shapes {
		if s.kind == unstable.KeyValue && s.vkind == unstable.String && strings.HasPrefix(s.key, "hotset[") && strings.HasSuffix(s.key, "].name") {
			hotsetName[strings.TrimSuffix(s.key, ".name")] = s.text
		}
	}
	for _, s := range shapes {
		switch s.kind {
		case unstable.Table:
			switch {
			case s.key == "hotset":
				return &Error{File: name, Pos: s.vpos, Key: "hotset", Msg: "each hotset is a [[hotset]] table, with double brackets; [hotset] is not one"}
			case exampleOf(s.key) != "":
				return &Error{File: name, Pos: s.vpos, Key: s.key, Msg: "a setting, not a table: write " + exampleOf(s.key)}
			}
		case unstable.ArrayTable:
			base := index.ReplaceAllString(s.key, "")
			switch {
			case base == "keys" || base == "tables" || strings.HasPrefix(base, "tables."):
				return &Error{File: name, Pos: s.vpos, Key: base, Msg: fmt.Sprintf("[%s] is one table, with single brackets; [[%s]] is not one", base, base)}
			case exampleOf(base) != "":
				return &Error{File: name, Pos: s.vpos, Key: base, Msg: "a setting, not a table: write " + exampleOf(base)}
			}
		case unstable.KeyValue:
			e, ok := expected(s.key)
			if !ok || slices.Contains(e.kinds, s.vkind) {
				continue
			}
			key, field := s.key, ""
			if strings.HasPrefix(key, "hotset[") {
				if i := strings.Index(key, "]."); i > 0 {
					h := key[:i+1]
					key, field = "hotset "+orQuoted(hotsetName[h]), key[i+2:]+": "
				}
			}
			what := e.what
			if (s.vkind == unstable.Integer || s.vkind == unstable.Float) && strings.Contains(what, "duration") {
				// A number where a duration belongs: the example is the number with a unit.
				what = fmt.Sprintf("a duration in quotes with its unit, such as \"%ss\"", s.text)
			}
			return &Error{File: name, Pos: s.vpos, Key: key, Msg: field + "want " + what + unquote(e, s) + ", got " + gotText(s)}
		}
	}
	return nil
}

// orQuoted is a hotset's quoted name, or "" quoted when it has none yet.
func orQuoted(q string) string {
	if q == "" {
		return `""`
	}
	return q
}

// unquote is the hint a value quoted where it should not be needs: show_loop = "true".
func unquote(e expectation, s shape) string {
	if s.vkind == unstable.String && !slices.Contains(e.kinds, unstable.String) && !slices.Contains(e.kinds, unstable.Array) {
		return " (without quotes)"
	}
	return ""
}

// gotText is the value as written, in the file's words: the number 5, true, "x", a list, a table.
func gotText(s shape) string {
	switch s.vkind {
	case unstable.Array:
		return "a list " + strings.Join(strings.Fields(s.text), " ")
	case unstable.InlineTable:
		return "a table " + strings.Join(strings.Fields(s.text), " ")
	}
	return s.text
}
