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
	path     string // the context's SPMI path (for a statistic row, its context's; see full)
	kids     int    // subcontexts (context rows)
	stats    int    // statistics (context rows)
	expanded bool
	match    bool // the filter matched this row (not only a context above a match)
}

func (r treeRow) ref() namespace.Ref { return namespace.Ref{Ctx: r.ctx, Datum: r.datum} }

// full is the row's full path ("Disk/sda/busy"); statistic rows build it only when asked, so a
// filter matching a hundred thousand statistics does not make a hundred thousand strings.
func (r *treeRow) full() string {
	if r.datum == nil {
		return r.path
	}
	if r.path == "" {
		return r.datum.Name
	}
	return r.path + "/" + r.datum.Name
}

// is reports whether the row's full path is p, without building it.
func (r *treeRow) is(p string) bool {
	if r.datum == nil {
		return r.path == p
	}
	if r.path == "" {
		return r.datum.Name == p
	}
	n := len(r.path)
	return len(p) == n+1+len(r.datum.Name) && p[:n] == r.path && p[n] == '/' && p[n+1:] == r.datum.Name
}

// expandable reports whether the row has anything to show below it, or may have: a node of a
// remote PCP name space whose contents are read when it is selected (namespace.Class.Lazy).
func (r treeRow) expandable() bool {
	return r.datum == nil && (r.kids > 0 || r.stats > 0 || (r.ctx.Class != nil && r.ctx.Class.Lazy && !r.ctx.Class.Instantiated()))
}

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
		if !d.Shown() {
			continue
		}
		out = append(out, treeRow{ctx: c, datum: d, depth: depth, path: path})
	}
	return out
}

// filterIndex holds the lower-cased text the filter matches, built once per name space
// generation so a key stroke is one pass over prepared strings, with no map on the way.
type filterIndex struct {
	gen     uint64
	ctxs    []ctxEntry   // every context, parents before children (Top first)
	classes [][]statText // the statistics of each class that holds some, by ctxEntry.cls
	byClass map[*namespace.Class]int
	// Scratch space of filterRows, kept from one filtering to the next (the pane filters on
	// one goroutine): the needle's bytes, a statistic's full path, a chain of contexts, and
	// which statistics of each class match the needle by their text.
	nb, buf []byte
	chain   []int
	textHit [][]bool
}

type ctxEntry struct {
	ctx    *namespace.Context
	parent int // index of the parent entry; -1 for Top
	depth  int
	cls    int    // index into classes of the context's statistics; -1 for none
	path   string // as shown
	lower  string // lower-cased path
	text   string // lower-cased name, description and label
}

type statText struct {
	datum *namespace.Datum
	name  string // lower-cased name
	text  string // lower-cased name, label and description
}

// buildFilterIndex walks the tree (read lock held by the caller).
func buildFilterIndex(top *namespace.Context, gen uint64) *filterIndex {
	ix := &filterIndex{gen: gen, byClass: map[*namespace.Class]int{}}
	var walk func(c *namespace.Context, self int, path string, depth int)
	walk = func(c *namespace.Context, self int, path string, depth int) {
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
			ix.ctxs = append(ix.ctxs, ctxEntry{ctx: k, parent: self, depth: depth, cls: ix.classOf(k), path: p,
				lower: strings.ToLower(p), text: strings.ToLower(k.Name + "\n" + k.Desc + "\n" + label)})
			walk(k, len(ix.ctxs)-1, p, depth+1)
		}
	}
	ix.ctxs = append(ix.ctxs, ctxEntry{ctx: top, parent: -1, depth: -1, cls: ix.classOf(top)})
	walk(top, 0, "", 0)
	return ix
}

func (ix *filterIndex) classOf(c *namespace.Context) int {
	if c.Stats == nil {
		return -1
	}
	if i, ok := ix.byClass[c.Stats]; ok {
		return i
	}
	var st []statText
	for i := range c.Stats.Datums {
		d := &c.Stats.Datums[i]
		if !d.Shown() {
			continue
		}
		st = append(st, statText{datum: d, name: strings.ToLower(d.Name),
			text: strings.ToLower(d.Name + "\n" + d.Label.ASCII + "\n" + d.Desc)})
	}
	ix.classes = append(ix.classes, st)
	ix.byClass[c.Stats] = len(ix.classes) - 1
	return len(ix.classes) - 1
}

// filterRun is one filtering of the tree: the needle, lower-cased, the rows made so far with the
// row of each context shown (+1; 0 = not shown), the matches and the first one's row.
type filterRun struct {
	ix      *filterIndex
	needle  string
	byPath  bool
	row     []int32
	out     []treeRow
	matches int
	first   int
}

// filterRows lists the rows matching needle, each with the contexts above it, in tree order.
// A needle without "/" matches a context's name, description or label and a statistic's name,
// label or description; a needle with "/" matches full paths. The matched rows and the contexts
// shown for them are all expanded. It reports the number of matches and the row of the first.
func (ix *filterIndex) filterRows(needle string, out []treeRow) ([]treeRow, int, int) {
	needle = strings.ToLower(needle)
	ix.nb = append(ix.nb[:0], needle...)
	ix.markTextHits(needle)
	f := filterRun{ix: ix, needle: needle, byPath: strings.Contains(needle, "/"),
		row: make([]int32, len(ix.ctxs)), out: out[:0], first: -1}
	for i := range ix.ctxs {
		f.matchContext(i)
		f.matchStats(i)
	}
	// A context shows as open when rows below it are shown.
	for i := range f.out {
		f.out[i].expanded = f.out[i].datum == nil && i+1 < len(f.out) && f.out[i+1].depth > f.out[i].depth
	}
	return f.out, f.matches, f.first
}

// markTextHits notes in textHit which statistics of each class match needle by name, label or
// description: a statistic's are its class's, so they are matched once per class.
func (ix *filterIndex) markTextHits(needle string) {
	if len(ix.textHit) != len(ix.classes) {
		ix.textHit = make([][]bool, len(ix.classes))
		for c, st := range ix.classes {
			ix.textHit[c] = make([]bool, len(st))
		}
	}
	for c, st := range ix.classes {
		for j := range st {
			ix.textHit[c][j] = strings.Contains(st[j].text, needle)
		}
	}
}

// matchContext shows context i, a match, when its text (or with a "/" its path) holds the
// needle; Top is never one.
func (f *filterRun) matchContext(i int) {
	e := &f.ix.ctxs[i]
	if i == 0 || !(strings.Contains(e.text, f.needle) || (f.byPath && strings.Contains(e.lower, f.needle))) {
		return
	}
	f.matches++
	f.ensure(i)
	f.out[f.row[i]-1].match = true
	if f.first < 0 {
		f.first = int(f.row[i] - 1)
	}
}

// matchStats shows each statistic of context i that matches, under its context.
func (f *filterRun) matchStats(i int) {
	e := &f.ix.ctxs[i]
	if e.cls < 0 {
		return
	}
	hits, st := f.ix.textHit[e.cls], f.ix.classes[e.cls]
	for j := range st {
		if !hits[j] && !f.pathHit(e, st[j]) {
			continue
		}
		f.matches++
		f.ensure(i)
		if f.first < 0 {
			f.first = len(f.out)
		}
		f.out = append(f.out, treeRow{ctx: e.ctx, datum: st[j].datum, depth: e.depth + 1, path: e.path, match: true})
	}
}

// pathHit reports whether a needle with "/" is in the full path of statistic s of context e.
func (f *filterRun) pathHit(e *ctxEntry, s statText) bool {
	if !f.byPath {
		return false
	}
	f.ix.buf = append(append(append(f.ix.buf[:0], e.lower...), '/'), s.name...)
	return bytes.Contains(f.ix.buf, f.ix.nb)
}

// ensure shows entry e and the contexts above it that are not shown yet.
func (f *filterRun) ensure(e int) {
	chain := f.ix.chain[:0]
	for i := e; i > 0 && f.row[i] == 0; i = f.ix.ctxs[i].parent {
		chain = append(chain, i)
	}
	f.ix.chain = chain
	for k := len(chain) - 1; k >= 0; k-- {
		c := &f.ix.ctxs[chain[k]]
		f.out = append(f.out, treeRow{ctx: c.ctx, depth: c.depth, path: c.path, kids: len(c.ctx.Children()), stats: c.ctx.NumStats()})
		f.row[chain[k]] = int32(len(f.out))
	}
}
