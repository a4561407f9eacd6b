package pmproxy

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The fetch answer is the one pmproxy answer read at every collection, of every host: 100 hosts
// are some 50,000 values a second. encoding/json decodes it through reflection and an interface
// per value; this reader walks the bytes once, keeping each number as its text (exact for every
// integer type), and allocates only the strings it keeps. It reads the shape pmproxy writes:
//
//	{"context":N, "timestamp":S.NS, "values":[{"pmid":…, "name":"m",
//	    "instances":[{"instance":N|null, "value":N|"text"}, …]}, …]}
//
// Other members, anywhere, are skipped, as is a value that is neither a number nor a string (an
// aggregate or an event). Anything that is not JSON is an error. FuzzFetchDecoder checks it
// against encoding/json on any input.

// errSyntax is a malformed answer.
var errSyntax = errors.New("malformed JSON")

type scanner struct {
	vals []Value // every value of a fetch answer, in one array; each metric has a range of it
	b    string  // the answer, once as a string: what is kept of it is a substring, not a copy
	i    int
	buf  []byte // scratch for strings with escapes
	at   int    // the answer's offset of b, for errors: b is one element of a streamed answer
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek is the next byte after white space, 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *scanner) expect(c byte) error {
	if s.peek() != c {
		return s.err("want %q", c)
	}
	s.i++
	return nil
}

func (s *scanner) err(format string, a ...any) error {
	return fmt.Errorf("%w at byte %d: %s", errSyntax, s.at+s.i, fmt.Sprintf(format, a...))
}

// str reads a string: a substring of the answer unless it has escapes or bytes that are not
// UTF-8.
func (s *scanner) str() (string, error) {
	if err := s.expect('"'); err != nil {
		return "", err
	}
	start := s.i
	var hi byte
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			v := s.b[start:s.i]
			s.i++
			if hi >= 0x80 && !utf8.ValidString(v) {
				return string([]rune(v)), nil // as encoding/json: U+FFFD for each bad byte
			}
			return v, nil
		case c == '\\':
			return s.escaped(start)
		case c < 0x20:
			return "", s.err("control character in a string")
		}
		hi |= c
		s.i++
	}
	return "", s.err("unterminated string")
}

// escaped reads the rest of a string that has an escape, from start.
func (s *scanner) escaped(start int) (string, error) {
	out := append(s.buf[:0], s.b[start:s.i]...)
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			s.buf = out
			if !utf8.Valid(out) {
				return string([]rune(string(out))), nil
			}
			return string(out), nil
		case c < 0x20:
			return "", s.err("control character in a string")
		case c != '\\':
			out = append(out, c)
			s.i++
			continue
		}
		if s.i+1 >= len(s.b) {
			break
		}
		var err error
		if out, err = s.escape(out); err != nil {
			return "", err
		}
	}
	return "", s.err("unterminated string")
}

// escape appends to out the character the escape at s.i stands for (a backslash and at least
// one byte after it) and reads past it.
func (s *scanner) escape(out []byte) ([]byte, error) {
	e := s.b[s.i+1]
	s.i += 2
	switch e {
	case '"', '\\', '/':
		return append(out, e), nil
	case 'b':
		return append(out, '\b'), nil
	case 'f':
		return append(out, '\f'), nil
	case 'n':
		return append(out, '\n'), nil
	case 'r':
		return append(out, '\r'), nil
	case 't':
		return append(out, '\t'), nil
	case 'u':
		return s.unicodeEscape(out)
	}
	return nil, s.err("bad escape")
}

// unicodeEscape appends to out the character of a \u escape, just read past its "\u": a UTF-16
// surrogate pair of two escapes is one character; a surrogate on its own is U+FFFD, and an
// escape after it that does not pair with it stands alone.
func (s *scanner) unicodeEscape(out []byte) ([]byte, error) {
	r, ok := s.hex4()
	if !ok {
		return nil, s.err("bad \\u escape")
	}
	if !utf16.IsSurrogate(r) {
		return utf8.AppendRune(out, r), nil
	}
	if s.i+1 < len(s.b) && s.b[s.i] == '\\' && s.b[s.i+1] == 'u' {
		save := s.i
		s.i += 2
		r2, ok := s.hex4()
		if !ok {
			return nil, s.err("bad \\u escape")
		}
		if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
			return utf8.AppendRune(out, d), nil
		}
		s.i = save // not a pair: the second escape stands alone
	}
	return utf8.AppendRune(out, utf8.RuneError), nil
}

func (s *scanner) hex4() (rune, bool) {
	if s.i+4 > len(s.b) {
		return 0, false
	}
	var r rune
	for _, c := range s.b[s.i : s.i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	s.i += 4
	return r, true
}

// num reads a number's text, checked against JSON's grammar.
func (s *scanner) num() (string, error) {
	s.ws()
	start := s.i
	digits := func() int {
		n := 0
		for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case digits() == 0:
		return "", s.err("bad number")
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if digits() == 0 {
			return "", s.err("bad number")
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if digits() == 0 {
			return "", s.err("bad number")
		}
	}
	return s.b[start:s.i], nil
}

// number reads a value kept as a json.Number: a number, or a string holding one (as
// encoding/json takes it); null leaves was as it was.
func (s *scanner) number(was string) (string, error) {
	switch s.peek() {
	case 'n':
		return was, s.lit()
	case '"':
		v, err := s.str()
		if err != nil {
			return was, err
		}
		in := &scanner{b: v}
		if n, err := in.num(); err != nil || len(n) != len(v) {
			return was, s.err("a string that is not a number")
		}
		return v, nil
	case '{', '[', 't', 'f':
		if err := s.skip(0); err != nil {
			return was, err
		}
		return was, s.err("not a number")
	}
	return s.num()
}

// lit reads true, false or null.
func (s *scanner) lit() error {
	for _, w := range []string{"true", "false", "null"} {
		if len(s.b)-s.i >= len(w) && s.b[s.i:s.i+len(w)] == w {
			s.i += len(w)
			return nil
		}
	}
	return s.err("unexpected character")
}

// skip reads any value, nested at most 10,000 deep, as encoding/json allows.
func (s *scanner) skip(depth int) error {
	if depth > 10000 {
		return s.err("nested too deeply")
	}
	switch s.peek() {
	case '"':
		_, err := s.str()
		return err
	case '{':
		return s.object(func(string) error { return s.skip(depth + 1) })
	case '[':
		return s.array(func() error { return s.skip(depth + 1) })
	case 't', 'f', 'n':
		return s.lit()
	}
	_, err := s.num()
	return err
}

// object reads an object, calling member for each key with the scanner at its value.
func (s *scanner) object(member func(key string) error) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	if s.peek() == '}' {
		s.i++
		return nil
	}
	for {
		k, err := s.str()
		if err != nil {
			return err
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		if err := member(k); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return nil
		default:
			return s.err("want , or }")
		}
	}
}

// array reads an array, calling elem with the scanner at each element.
func (s *scanner) array(elem func() error) error {
	if err := s.expect('['); err != nil {
		return err
	}
	if s.peek() == ']' {
		s.i++
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return nil
		default:
			return s.err("want , or ]")
		}
	}
}

// fetchAnswer is a decoded fetch answer: the timestamp's text and each metric's values.
type fetchAnswer struct {
	timestamp string
	values    []fetchMetric
}

type fetchMetric struct {
	name      string
	instances []Value
	lo, hi    int // instances is vals[lo:hi] of the scanner
}

// decodeFetch reads a fetch answer. As with encoding/json, a repeated member's last value wins,
// member names match case-insensitively, and a value of another JSON type than expected is an
// error (a number where a string is wanted, an object for the values).
func decodeFetch(b []byte) (*fetchAnswer, error) {
	s := &scanner{b: string(b), vals: make([]Value, 0, len(b)/48+8)}
	a := fetchAnswer{values: make([]fetchMetric, 0, len(b)/512+4)}
	err := s.object(func(k string) error {
		switch {
		case fold(k, "timestamp"):
			t, err := s.number(a.timestamp)
			a.timestamp = t
			return err
		case fold(k, "values"):
			if s.peek() == 'n' {
				a.values = nil
				return s.lit()
			}
			a.values = a.values[:0]
			return s.array(func() error {
				m, err := s.metric()
				a.values = append(a.values, m)
				return err
			})
		}
		return s.skip(0)
	})
	if err != nil {
		return nil, err
	}
	if s.peek() != 0 {
		return nil, s.err("more after the answer")
	}
	for i := range a.values {
		if m := &a.values[i]; m.hi > m.lo {
			m.instances = s.vals[m.lo:m.hi:m.hi]
		}
	}
	return &a, nil
}

// metric reads one member of "values".
func (s *scanner) metric() (fetchMetric, error) {
	var m fetchMetric
	if s.peek() == 'n' {
		return m, s.lit()
	}
	err := s.object(func(k string) error {
		switch {
		case fold(k, "name"):
			switch s.peek() {
			case 'n':
				return s.lit() // null leaves a member as it was
			case '"':
				v, err := s.str()
				m.name = v
				return err
			}
			if err := s.skip(0); err != nil {
				return err
			}
			return fmt.Errorf("the name is not a string")
		case fold(k, "instances"):
			m.lo = len(s.vals)
			m.hi = m.lo
			if s.peek() == 'n' {
				return s.lit()
			}
			err := s.array(func() error {
				v, keep, err := s.instance()
				if keep {
					s.vals = append(s.vals, v)
				}
				return err
			})
			m.hi = len(s.vals)
			return err
		}
		return s.skip(0)
	})
	return m, err
}

// instance reads one instance's value; keep is false for a value that is neither a number nor a
// string.
func (s *scanner) instance() (v Value, keep bool, err error) {
	v.Instance = -1
	if s.peek() == 'n' {
		return v, false, s.lit()
	}
	var inst string
	err = s.object(func(k string) error {
		switch {
		case fold(k, "instance"):
			n, err := s.number(inst)
			inst = n
			return err
		case fold(k, "value"):
			switch s.peek() {
			case '"':
				t, err := s.str()
				v.Text, keep = t, true
				return err
			case '{', '[', 't', 'f', 'n':
				v.Text, keep = "", false
				return s.skip(0)
			}
			t, err := s.num()
			v.Text, keep = t, true
			return err
		}
		return s.skip(0)
	})
	if err != nil {
		return v, false, err
	}
	if len(inst) > 0 {
		id, perr := strconv.ParseInt(inst, 10, 64)
		if perr != nil {
			return v, false, fmt.Errorf("instance %q is not a number", inst)
		}
		v.Instance = id
	}
	return v, keep, nil
}

// fold says key is name under Unicode case folding (encoding/json's rule for member names).
func fold(key, name string) bool { return key == name || strings.EqualFold(key, name) }
