package ui

import (
	"dcimon/namespace"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// lessRow orders rows by name the way a person reads a device list: naturally (cpu2 before
// cpu10, sdz before sdaa), a partition right after its disk.
func lessRow(a, b *tableRow) bool {
	ka, kb := a.name, b.name
	if a.depth > 0 {
		ka = a.parent
	}
	if b.depth > 0 {
		kb = b.parent
	}
	if ka != kb {
		return lessName(ka, kb)
	}
	if a.depth != b.depth {
		return a.depth < b.depth
	}
	return lessName(a.name, b.name)
}

// sortRows orders the instance rows by the sort column, keeps those the filter matches, and in
// tree mode puts each process under its parent.
func (p *valuesPane) sortRows() {
	p.sortRowsBy()
	p.filterRows()
	if p.forest {
		p.forestOrder()
	}
	p.followPicked()
}

// filterRows keeps the rows whose name or text (user, command line) holds the filter, in any case,
// and those of the user chosen with u (by the exact name, as htop).
func (p *valuesPane) filterRows() {
	if p.user != "" {
		keep := p.order[:0]
		ui := slices.IndexFunc(p.cols, func(c tableCol) bool { return c.name == "user" })
		for _, i := range p.order {
			r := &p.rows[i]
			if ui >= 0 {
				if v, ok := p.cell(r, &p.cols[ui]); ok && v.S == p.user {
					keep = append(keep, i)
				}
			}
		}
		p.order = keep
		p.cursor = min(p.cursor, max(len(p.order)-1, 0))
	}
	if p.filter == "" {
		return
	}
	f := strings.ToLower(p.filter)
	keep := p.order[:0]
	for _, i := range p.order {
		r := &p.rows[i]
		if r.totals || strings.Contains(strings.ToLower(r.name), f) {
			keep = append(keep, i)
			continue
		}
		for k := range p.cols {
			c := &p.cols[k]
			if !c.text && !c.fill {
				continue
			}
			if v, ok := p.cell(r, c); ok && v.State == namespace.Valid && strings.Contains(strings.ToLower(v.S), f) {
				keep = append(keep, i)
				break
			}
		}
	}
	p.order = keep
	p.cursor = min(p.cursor, max(len(p.order)-1, 0))
}

// forestOrder lays the rows out as a tree by parent (the ppid statistic), each parent's
// children in the sort order, as top -V and htop's tree view: a row whose parent is not shown
// is a root. tdepth holds each row's depth.
func (p *valuesPane) forestOrder() {
	pi := -1
	if p.class != nil {
		pi = p.class.DatumByName("ppid")
	}
	if pi < 0 || p.snap == nil {
		return
	}
	roots, kids := p.parentTree(p.snap.Class(p.class), pi)
	if p.tdepth == nil {
		p.tdepth, p.tprefix = map[int]int{}, map[int]string{}
	}
	clear(p.tdepth)
	clear(p.tprefix)
	w := forestWalk{p: p, kids: kids, seen: make(map[int]bool, len(p.order)), out: p.order[:0:0]}
	for _, i := range roots {
		w.place(i, 0, "", true)
	}
	for _, i := range p.order { // rows left in a loop of parents
		if !w.seen[i] {
			w.place(i, 0, "", true)
		}
	}
	p.order = w.out
}

// parentTree is the rows in order as a tree: those whose parent is not shown (roots), and each
// shown parent's children (kids), by the ppid datum pi.
func (p *valuesPane) parentTree(cv *namespace.ClassValues, pi int) (roots []int, kids map[int][]int) {
	byPID := make(map[string]int, len(p.order))
	for _, i := range p.order {
		byPID[p.rows[i].name] = i
	}
	kids = map[int][]int{}
	for _, i := range p.order {
		if parent := p.parentRow(i, cv, pi, byPID); parent >= 0 {
			kids[parent] = append(kids[parent], i)
		} else {
			roots = append(roots, i)
		}
	}
	return roots, kids
}

// parentRow is the row of row i's parent process, by its valid ppid (datum pi) among the rows'
// PIDs; -1 for the totals row, a gone row, or a parent not shown.
func (p *valuesPane) parentRow(i int, cv *namespace.ClassValues, pi int, byPID map[string]int) int {
	r := &p.rows[i]
	if r.totals || r.gone || cv == nil {
		return -1
	}
	v, ok := cv.Value(r.inst, pi)
	if !ok || v.State != namespace.Valid {
		return -1
	}
	if j, ok := byPID[strconv.FormatUint(uint64(v.V), 10)]; ok && j != i {
		return j
	}
	return -1
}

// forestWalk lays rows out depth first under their parents: each row's children, the rows
// placed so far (a loop of parents, PIDs reused while read, is cut) and the order they make.
type forestWalk struct {
	p    *valuesPane
	kids map[int][]int
	seen map[int]bool
	out  []int
}

// place puts row i at depth d, then its children below it. A child's line is its parent's
// indent and ├─ (└─ for the last child); below it, the indent goes on with │ while siblings
// follow and blanks after the last, as htop and pstree draw a tree (issue 32 item 8).
func (w *forestWalk) place(i, d int, indent string, last bool) {
	if w.seen[i] {
		return // a loop of parents (PIDs reused while read) is cut
	}
	w.seen[i] = true
	w.out = append(w.out, i)
	w.p.tdepth[i] = d
	below := ""
	if d > 0 {
		branch, cont := "├─ ", "│  "
		if last {
			branch, cont = "└─ ", "   "
		}
		w.p.tprefix[i] = indent + branch
		below = indent + cont
	}
	ks := w.kids[i]
	for n, k := range ks {
		w.place(k, d+1, below, n == len(ks)-1)
	}
}

// treePrefix draws a row's branch in tree mode before its command: ├─ and └─ under its
// parent's, with │ down the side while the parent's children go on. Deep trees are cut to their
// last 20 levels' worth of indent.
func (p *valuesPane) treePrefix(row int) string {
	s := p.tprefix[row]
	if n := len([]rune(s)); n > 60 {
		s = "…" + string([]rune(s)[n-59:])
	}
	return s
}

// sortRowsBy orders the instance rows by the sort column; the totals row stays first, values
// that are not valid sort last whatever the direction, ties go by name.
func (p *valuesPane) sortRowsBy() {
	p.ver = p.cache.next()
	p.order = p.order[:0]
	first := 0
	if len(p.rows) > 0 && p.rows[0].totals {
		p.order = append(p.order, 0)
		first = 1
	}
	for i := first; i < len(p.rows); i++ {
		p.order = append(p.order, i)
	}
	rest := p.order[first:]
	if p.sortCol == 0 || p.sortCol > len(p.cols) || p.snap == nil {
		sort.SliceStable(rest, func(a, b int) bool {
			if p.sortDesc {
				return lessRow(&p.rows[rest[b]], &p.rows[rest[a]])
			}
			return lessRow(&p.rows[rest[a]], &p.rows[rest[b]])
		})
		return
	}
	c := &p.cols[p.sortCol-1]
	if c.text || c.fill {
		texts := make([]string, len(p.rows))
		for _, i := range rest {
			v, ok := p.cell(&p.rows[i], c)
			texts[i] = c.textCell(v, ok)
		}
		sort.SliceStable(rest, func(a, b int) bool {
			ta, tb := texts[rest[a]], texts[rest[b]]
			if ta != tb {
				return (ta < tb) != p.sortDesc
			}
			return lessName(p.rows[rest[a]].name, p.rows[rest[b]].name)
		})
		return
	}
	keys := make([]float64, len(p.rows))
	for _, i := range rest {
		v, ok := p.cell(&p.rows[i], c)
		if ok && v.State == namespace.Valid {
			keys[i] = v.V
		} else {
			keys[i] = math.NaN()
		}
	}
	sort.SliceStable(rest, func(a, b int) bool {
		ka, kb := keys[rest[a]], keys[rest[b]]
		switch {
		case math.IsNaN(ka) != math.IsNaN(kb):
			return !math.IsNaN(ka)
		case ka != kb && !math.IsNaN(ka):
			if p.sortDesc {
				return ka > kb
			}
			return ka < kb
		}
		return lessName(p.rows[rest[a]].name, p.rows[rest[b]].name)
	})
}

// lessName orders names naturally: numbers by value (cpu2 before cpu10), and the letters of
// kernel device names the way the kernel hands them out (sda … sdz, then sdaa): two runs of
// letters that share their first two are shorter first.
func lessName(a, b string) bool {
	for a != "" && b != "" {
		ia, ib := digitsAt(a), digitsAt(b)
		if ia > 0 && ib > 0 {
			na, _ := strconv.ParseUint(a[:min(ia, 18)], 10, 64)
			nb, _ := strconv.ParseUint(b[:min(ib, 18)], 10, 64)
			if na != nb {
				return na < nb
			}
			a, b = a[ia:], b[ib:]
			continue
		}
		la, lb := lettersAt(a), lettersAt(b)
		if la > 0 && lb > 0 {
			ra, rb := a[:la], b[:lb]
			if ra != rb {
				if la != lb && la >= 2 && lb >= 2 && ra[:2] == rb[:2] {
					return la < lb
				}
				return ra < rb
			}
			a, b = a[la:], b[lb:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func lettersAt(s string) int {
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	return i
}

func digitsAt(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
