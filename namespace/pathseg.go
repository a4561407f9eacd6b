package namespace

import "strings"

// pathSeg is one component of a path: raw as written, and for a component in double quotes the
// name it means, its quotes removed (`"/home"` is /home): a quoted component may hold any
// character, a slash included, so a mount point can be named as it is (issue 32 item 11).
type pathSeg struct {
	raw, name string
	quoted    bool
}

// rootAlias names the root file system's context, whose name is "∕" (a mount point's slashes are
// U+2215 in the tree): `FS/root` is `FS/∕`.
const rootAlias = "root"

// splitPath cuts a path into its components at each slash outside double quotes. A component
// is quoted when it starts with `"` and a `"` closes it before the next slash or the end; inside,
// `\"` is a quote and `\\` a backslash. Any other component, an empty one included, is as written.
func splitPath(p string) []pathSeg {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	var out []pathSeg
	for {
		if strings.HasPrefix(p, `"`) {
			if end := closingQuote(p); end > 0 {
				out = append(out, pathSeg{raw: p[:end+1], name: unquote(p[1:end]), quoted: true})
				p = p[end+1:]
				if p == "" {
					return out
				}
				p = p[1:] // the slash after the closing quote
				continue
			}
		}
		seg, rest, more := strings.Cut(p, "/")
		out = append(out, pathSeg{raw: seg, name: seg})
		if !more {
			return out
		}
		p = rest
	}
}

// closingQuote is the index of the quote that closes the quoted component p starts with: the
// first unescaped `"` followed by a slash or the end; 0 when there is none.
func closingQuote(p string) int {
	for i := 1; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '"':
			if i+1 == len(p) || p[i+1] == '/' {
				return i
			}
		}
	}
	return 0
}

func unquote(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// child is the subcontext of c that component s names: the name exactly as written (the quoting
// rule: every name `list` prints is given back as printed), then a quoted name, with its slashes
// as the tree writes them (U+2215), then `root` for the root file system. Call it under the lock.
func (c *Context) child(s pathSeg) *Context {
	if k := c.k().byName[s.raw]; k != nil {
		return k
	}
	if s.quoted {
		if k := c.k().byName[s.name]; k != nil {
			return k
		}
		if k := c.k().byName[strings.ReplaceAll(s.name, "/", "∕")]; k != nil {
			return k
		}
	}
	if s.raw == rootAlias {
		return c.k().byName["∕"]
	}
	return nil
}

// slashHint says how to write a name with a slash when a path stopped at component i below
// cur: a mount point written with its slashes (`FS//home/%used`, `FS//%used`) splits into
// components that name nothing. When a name made of the components from i, joined by the
// tree's slash U+2215, is below cur, the hint gives the path with it, and quoted; "" otherwise.
func slashHint(cur *Context, segs []pathSeg, i int) string {
	for n := len(segs) - i; n >= 1; n-- {
		parts := make([]string, n)
		for k := range parts {
			parts[k] = segs[i+k].name
		}
		joined := strings.Join(parts, "/")
		for _, name := range []string{"/" + joined, joined} {
			if name != "/" {
				name = strings.TrimSuffix(name, "/")
			}
			if name == "" || !strings.Contains(name, "/") {
				continue
			}
			k := cur.k().byName[strings.ReplaceAll(name, "/", "∕")]
			if k == nil {
				continue
			}
			var head []string
			for _, s := range segs[:i] {
				head = append(head, s.raw)
			}
			var tail []string
			for _, s := range segs[i+n:] {
				tail = append(tail, s.raw)
			}
			with := func(seg string) string {
				return strings.Join(append(append(append([]string(nil), head...), seg), tail...), "/")
			}
			hint := "a slash in a name is written ∕ (U+2215) in a path: " + with(k.Name) + `, or quote the name: ` + with(`"`+name+`"`)
			if k.Name == "∕" {
				hint += ", or " + with(rootAlias)
			}
			return hint
		}
	}
	return ""
}
