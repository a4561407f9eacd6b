package ui

import (
	"bytes"
	"strings"

	"dcimon/namespace"
)

// treeRow is one visible row of the flattened tree: a context, or a statistic of a context.
type treeRow struct {
	ctx      *namespace.Context
	datum    *namespace.Datum // nil for a context row
	depth    int
	path     string // full SPMI path
	kids     int    // subcontexts (context rows)
	stats    int    // statistics (context rows)
	expanded bool
	match    bool // the filter matched this row (not only a context above a match)
}

func (r treeRow) ref() namespace.Ref { return namespace.Ref{Ctx: r.ctx, Datum: r.datum} }

// expandable reports whether the row has anything to show below it.
func (r treeRow) expandable() bool { return r.datum == nil && (r.kids > 0 || r.stats > 0) }

// flatten lists the rows the tree shows: each context, then, when it is expanded, its statistics
// and its subcontexts. isOpen says whether a context (by path and depth) is expanded. It must be
// called with the registry's read lock held (Registry.Read), since it walks the live tree.
func flatten(top *namespace.Context, isOpen func(path string, depth int) bool, out []treeRow) []treeRow {
	out = out[:0]
	var walk func(c *namespace.Context, path string, depth int)
	walk = func(c *namespace.Context, path string, depth int) {
		for _, k := range c.Children() {
			p := k.Name
			if path != "" {
				p = path + "/" + k.Name
			}
			row := treeRow{ctx: k, depth: depth, path: p, kids: len(k.Children()), stats: k.NumStats()}
			row.expanded = row.expandable() && isOpen(p, depth)
			out = append(out, row)
			if row.expanded {
				out = appendStats(out, k, p, depth+1)
				walk(k, p, depth+1)
			}
		}
	}
	out = appendStats(out, top, "", 0)
	walk(top, "", 0)
	return out
}

func appendStats(out []treeRow, c *namespace.Context, path string, depth int) []treeRow {
	if c.Stats == nil {
		return out
	}
	for i := range c.Stats.Datums {
		d := &c.Stats.Datums[i]
		if d.ID == namespace.InvalidDatumID {
			continue
		}
		p := d.Name
		if path != "" {
			p = path + "/" + d.Name
		}
		out = append(out, treeRow{ctx: c, datum: d, depth: depth, path: p})
	}
	return out
}

// filterIndex holds the lower-cased text the filter matches, built once per name space
// generation so a key stroke is one pass over prepared strings.
type filterIndex struct {
	gen   uint64
	ctxs  []ctxEntry
	stats map[*namespace.Class][]statText
}

type ctxEntry struct {
	ctx   *namespace.Context
	depth int
	path  string // as shown
	lower string // lower-cased path
	text  string // lower-cased name, description and label
}

type statText struct {
	datum *namespace.Datum
	name  string // lower-cased name
	text  string // lower-cased name, label and description
}

// buildFilterIndex walks the tree (read lock held by the caller).
func buildFilterIndex(top *namespace.Context, gen uint64) *filterIndex {
	ix := &filterIndex{gen: gen, stats: map[*namespace.Class][]statText{}}
	var walk func(c *namespace.Context, path string, depth int)
	walk = func(c *namespace.Context, path string, depth int) {
		ix.addStats(c)
		for _, k := range c.Children() {
			p := k.Name
			if path != "" {
				p = path + "/" + k.Name
			}
			label := ""
			if k.Inst != nil {
				label = k.Inst.Label.ASCII
			} else if k.Class != nil {
				label = k.Class.Label.ASCII
			}
			ix.ctxs = append(ix.ctxs, ctxEntry{ctx: k, depth: depth, path: p, lower: strings.ToLower(p),
				text: strings.ToLower(k.Name + "\n" + k.Desc + "\n" + label)})
			walk(k, p, depth+1)
		}
	}
	ix.ctxs = append(ix.ctxs, ctxEntry{ctx: top, depth: -1})
	walk(top, "", 0)
	return ix
}

func (ix *filterIndex) addStats(c *namespace.Context) {
	if c.Stats == nil {
		return
	}
	if _, ok := ix.stats[c.Stats]; ok {
		return
	}
	var st []statText
	for i := range c.Stats.Datums {
		d := &c.Stats.Datums[i]
		if d.ID == namespace.InvalidDatumID {
			continue
		}
		st = append(st, statText{datum: d, name: strings.ToLower(d.Name),
			text: strings.ToLower(d.Name + "\n" + d.Label.ASCII + "\n" + d.Desc)})
	}
	ix.stats[c.Stats] = st
}

// filterRows lists the rows matching needle, each with the contexts above it, in tree order.
// A needle without "/" matches a context's name, description or label and a statistic's name,
// label or description; a needle with "/" matches full paths. The matched rows and the contexts
// shown for them are all expanded. It reports the number of matches and the row of the first.
func (ix *filterIndex) filterRows(needle string, out []treeRow) ([]treeRow, int, int) {
	out = out[:0]
	needle = strings.ToLower(needle)
	byPath := strings.Contains(needle, "/")
	nb := []byte(needle)
	var buf []byte
	emitted := map[*namespace.Context]int{} // context → its row index
	var stack []*namespace.Context
	matches, first := 0, -1
	ensure := func(e *ctxEntry) {
		if e.depth < 0 {
			return
		}
		if _, ok := emitted[e.ctx]; ok {
			return
		}
		stack = stack[:0]
		for c := e.ctx; c != nil && c.Kind != namespace.CtxTop; c = c.Parent() {
			if _, ok := emitted[c]; ok {
				break
			}
			stack = append(stack, c)
		}
		for i := len(stack) - 1; i >= 0; i-- {
			c := stack[i]
			p := c.Path()
			depth := strings.Count(p, "/")
			emitted[c] = len(out)
			out = append(out, treeRow{ctx: c, depth: depth, path: p, kids: len(c.Children()), stats: c.NumStats()})
		}
	}
	for i := range ix.ctxs {
		e := &ix.ctxs[i]
		if e.depth >= 0 {
			hit := strings.Contains(e.text, needle) || (byPath && strings.Contains(e.lower, needle))
			if hit {
				matches++
				ensure(e)
				out[emitted[e.ctx]].match = true
				if first < 0 {
					first = emitted[e.ctx]
				}
			}
		}
		if e.ctx.Stats == nil {
			continue
		}
		for j := range ix.stats[e.ctx.Stats] {
			s := &ix.stats[e.ctx.Stats][j]
			hit := strings.Contains(s.text, needle)
			if !hit && byPath {
				buf = append(append(append(buf[:0], e.lower...), '/'), s.name...)
				hit = bytes.Contains(buf, nb)
			}
			if !hit {
				continue
			}
			matches++
			ensure(e)
			if first < 0 {
				first = len(out)
			}
			p := s.datum.Name
			if e.path != "" {
				p = e.path + "/" + s.datum.Name
			}
			out = append(out, treeRow{ctx: e.ctx, datum: s.datum, depth: e.depth + 1, path: p, match: true})
		}
	}
	// A context shows as open when rows below it are shown.
	for i := range out {
		out[i].expanded = out[i].datum == nil && i+1 < len(out) && out[i+1].depth > out[i].depth
	}
	return out, matches, first
}
