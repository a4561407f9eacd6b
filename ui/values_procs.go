// The process table's htop keys (issue 32 item 7): sorting by %CPU, %MEM and TIME+, the tree, the
// sort column, one user's processes and a command line that scrolls. dcimon only watches: there
// is no kill and no renice.

package ui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// cmdStep is how far → and ← move the command line, in cells.
const cmdStep = 10

// ProcTable reports whether the pane shows a process table (a table whose rows have a parent
// PID): htop's keys are its keys then.
func (p *valuesPane) ProcTable() bool {
	return p.mode == valuesTable && p.class != nil && p.class.DatumByName("ppid") >= 0 && p.class.DatumByName("cmdline") >= 0
}

// procKey handles one of htop's keys in the process table; ok is false for any other key. The
// search and the user (/, F3 and u) open an input, which the root owns: it matches them first.
func (p *valuesPane) procKey(km tea.KeyMsg) (cmd tea.Cmd, ok bool) {
	k := p.pkeys
	sortBy := func(h string) tea.Cmd {
		if !p.SortBy(h) {
			return flashCmd("this table has no "+h+" column", true)
		}
		return nil
	}
	switch {
	case key.Matches(km, k.SortCPU):
		return sortBy("%CPU"), true
	case key.Matches(km, k.SortMem):
		return sortBy("%MEM"), true
	case key.Matches(km, k.SortTime):
		return sortBy("TIME+"), true
	case key.Matches(km, k.SortNext), key.Matches(km, k.SortPrev):
		n := len(p.cols) + 1
		step := 1
		if key.Matches(km, k.SortPrev) {
			step = n - 1
		}
		p.sortCol = (p.sortCol + step) % n
		p.sortDesc = p.sortCol != 0 && !p.cols[p.sortCol-1].text && !p.cols[p.sortCol-1].fill
		p.showSortCol()
		p.sortRows()
		return flashCmd("sorted by "+p.sortTitle(), false), true
	case key.Matches(km, k.Forest):
		p.forest = !p.forest
		p.sortRows()
		if p.forest {
			return flashCmd("processes as a tree by parent, siblings in the sort order (t: a list)", false), true
		}
		return flashCmd("processes as a list (t: a tree by parent)", false), true
	case key.Matches(km, k.Kill):
		// htop's F9 signals; dcimon reads and never acts (docs/keys.md says why), so it says
		// so, and how to do it.
		pid := "PID"
		if r := p.Selected(); r.Ctx != nil && r.Ctx.Inst != nil {
			pid = safe(r.Ctx.Name)
		}
		return flashCmd("dcimon only watches: it sends no signal. To end "+pid+": kill "+pid+" (or kill -9 "+pid+"), or htop", false), true
	case key.Matches(km, k.Threads):
		return flashCmd("dcimon lists processes, not their threads: THR counts each process's threads", false), true
	}
	return nil, false
}

// sortTitle names the sort column.
func (p *valuesPane) sortTitle() string {
	if p.sortCol == 0 || p.sortCol > len(p.cols) {
		return "PID"
	}
	return p.cols[p.sortCol-1].title()
}

// SetUser keeps the processes of one user ("" for every user's), as htop's u.
func (p *valuesPane) SetUser(user string) {
	user = strings.TrimSpace(user)
	if user == p.user {
		return
	}
	p.user = user
	p.cursor, p.offset = 0, 0
	p.refresh()
}

// User is the user whose processes the table keeps, "" for all.
func (p *valuesPane) User() string { return p.user }

// Users are the users the process table has processes of, sorted, for the u input's hint.
func (p *valuesPane) Users() []string {
	i := slices.IndexFunc(p.cols, func(c tableCol) bool { return c.name == "user" })
	if i < 0 || p.snap == nil {
		return nil
	}
	var out []string
	for k := range p.rows {
		if v, ok := p.cell(&p.rows[k], &p.cols[i]); ok && v.S != "" && !slices.Contains(out, safe(v.S)) {
			out = append(out, safe(v.S))
		}
	}
	slices.Sort(out)
	return out
}

// commandScrolls says → moves the command line rather than the columns: the table has a fill
// column and no column is hidden to the right.
func (p *valuesPane) commandScrolls() bool {
	if !slices.ContainsFunc(p.cols, func(c tableCol) bool { return c.fill }) {
		return false
	}
	_, vis := p.tableLayout()
	_, right := p.moreCols(vis)
	return !right
}

// longestCommand is the widest command line of the table's rows, in cells: how far it scrolls.
func (p *valuesPane) longestCommand() int {
	i := slices.IndexFunc(p.cols, func(c tableCol) bool { return c.fill })
	if i < 0 || p.snap == nil {
		return 0
	}
	n := 0
	for k := range p.rows {
		v, ok := p.cell(&p.rows[k], &p.cols[i])
		n = max(n, width(p.cols[i].textCell(v, ok)))
	}
	return max(n-cmdStep, 0)
}

// skipCells drops the first n cells of s (a wide character that straddles the edge goes whole).
func skipCells(s string, n int) string {
	if n <= 0 {
		return s
	}
	w := 0
	for i, r := range s {
		if w >= n {
			return s[i:]
		}
		w += cellWidth(string(r))
	}
	return ""
}

// ClickHeader sorts a table by the column whose header is at x on line y of the pane, as a
// click on htop's header does (issue 42 item 2): highest first (a text column: A to Z), and a
// click on the sort column reverses it. It says what it did, "" when the click was not on a
// header.
func (p *valuesPane) ClickHeader(x, y int) string {
	if p.mode != valuesTable || y != len(p.degradedLines()) || x < 0 {
		return ""
	}
	nameW, vis := p.tableLayout()
	col := -1 // the sort column the click names: 0 the name column, i+1 column i
	if x < nameW {
		col = 0
	}
	at := nameW
	for _, i := range vis {
		w := p.colWidth(i)
		if p.cols[i].fill {
			w = p.fillWidth(vis)
		}
		if x >= at && x < at+1+w {
			col = i + 1
		}
		at += 1 + w
	}
	if col < 0 || (col > 0 && p.cols[col-1].fill && !p.ProcTable()) {
		return ""
	}
	if col == p.sortCol {
		p.sortDesc = !p.sortDesc
	} else {
		p.sortCol = col
		p.sortDesc = col != 0 && !p.cols[col-1].text && !p.cols[col-1].fill
	}
	p.showSortCol()
	p.sortRows()
	order := "highest first"
	switch {
	case col == 0 || (col > 0 && (p.cols[col-1].text || p.cols[col-1].fill)):
		order = "A to Z"
		if p.sortDesc {
			order = "Z to A"
		}
	case !p.sortDesc:
		order = "lowest first"
	}
	return "sorted by " + p.sortTitle() + ", " + order + " (click again: reversed)"
}
