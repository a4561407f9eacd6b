package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"dcimon/internal/golden"
	ns "dcimon/namespace"
)

// hotNames are the names of the open peer sets.
func hotNames(m Model) []string {
	var out []string
	for _, v := range m.hot.Entries() {
		out = append(out, m.hot.names[v])
	}
	return out
}

// Issue 17: the process table reads like top, at every size; %CPU ranks it at first.
func TestProcTable(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := newModel(t, newSynthSampler(t, "synthetic:procs=40,seed=3"), sz[0], sz[1], 2)
			m = keys(t, m, ":Proc{enter}")
			m = collectOnce(t, collectOnce(t, m))
			if m.values.Mode() != valuesTable {
				t.Fatalf("Proc shows mode %v, want the table", m.values.Mode())
			}
			// issue 32 item 8: htop's %MEM and TIME+ beside top's columns; then every other
			// statistic, scrolled to with ›.
			if got, want := columnTitles(m, 13), "USER S %CPU %MEM RES TIME+ read/s write/s io/s THR NI VIRT COMMAND"; got != want {
				t.Fatalf("columns %s, want %s", got, want)
			}
			if c := m.values.cols[m.values.sortCol-1]; c.title() != "%CPU" || !m.values.sortDesc {
				t.Errorf("sorted by %s (desc %v), want %%CPU highest first", c.title(), m.values.sortDesc)
			}
			view := strip(m.values.View())
			wantAll(t, "the table", view, "PID", "USER", "%CPU", "COMMAND", "/usr/bin/")
			golden.Check(t, fmt.Sprintf("proc_table_%dx%d", sz[0], sz[1]), view)
			// The rows are ranked by %CPU: each at most the one above.
			cv := m.snap.Class(m.values.class)
			di := m.values.class.DatumByName("cpu")
			last := 1e18
			for _, i := range m.values.order {
				r := m.values.rows[i]
				if r.gone {
					continue
				}
				v, _ := cv.Value(r.inst, di)
				if v.State == ns.Valid {
					if v.V > last {
						t.Fatalf("row %s (%v) above a lower one", r.name, v.V)
					}
					last = v.V
				}
			}
		})
	}
}

// The process table is filtered by its own / and shown as a tree by parent with t (htop's key).
func TestProcTableFilterAndTree(t *testing.T) {
	m := newModel(t, newSynthSampler(t, "synthetic:procs=40,seed=3"), 160, 50, 2)
	m = keys(t, m, ":Proc{enter}")
	m = collectOnce(t, collectOnce(t, m))
	m = keys(t, m, "2/nginx{enter}")
	if m.values.Filter() != "nginx" || m.tree.Filter() != "" {
		t.Fatalf("values filter %q, tree filter %q: / on the table filters the table", m.values.Filter(), m.tree.Filter())
	}
	if len(m.values.order) == 0 || len(m.values.order) == len(m.values.rows) {
		t.Fatalf("%d of %d rows shown for nginx", len(m.values.order), len(m.values.rows))
	}
	for _, i := range m.values.order {
		r := &m.values.rows[i]
		cmd, _ := m.snap.Class(m.values.class).Value(r.inst, m.values.class.DatumByName("cmdline"))
		if !strings.Contains(cmd.S, "nginx") {
			t.Errorf("row %s (%q) does not match the filter", r.name, cmd.S)
		}
	}
	if !strings.Contains(strip(m.View()), "table filter “nginx”") {
		t.Error("the header does not say the table is filtered")
	}
	m = keys(t, m, "{esc}")
	if m.values.Filter() != "" {
		t.Fatal("esc did not clear the table's filter")
	}
	m = keys(t, m, "t")
	if !m.values.forest || !strings.Contains(strip(m.values.View()), "COMMAND (tree)") {
		t.Fatal("t did not show the processes as a tree")
	}
	// Every synthetic process's parent is PID 1, which it does not list: all are roots.
	for _, i := range m.values.order {
		if d := m.values.tdepth[i]; d != 0 {
			t.Fatalf("row %s at depth %d", m.values.rows[i].name, d)
		}
	}
}

// Issue 17: the processes are read only while something shows them, and the default hotsets of
// processes open when Proc is on screen and close when it leaves.
func TestProcOnScreen(t *testing.T) {
	s := newSynthSampler(t, "synthetic:procs=20")
	m := newModel(t, s, 160, 50, 2)
	procCls := m.reg.Class(ns.ClassID{13, 2})
	if cv := m.snap.Class(procCls); cv != nil && cv.Sampled {
		t.Fatal("the processes were read with nothing showing them")
	}
	if slices.Contains(hotNames(m), "top-processes-cpu") {
		t.Fatal("the process hotsets are open before Proc is on screen")
	}
	m = keys(t, m, ":Proc{enter}")
	m = collectOnce(t, collectOnce(t, m))
	if cv := m.snap.Class(procCls); cv == nil || !cv.Sampled || len(cv.Insts) != 20 {
		t.Fatalf("Proc on screen: %+v", cv)
	}
	for _, n := range []string{"top-processes-cpu", "top-processes-io", "top-processes-memory"} {
		if !slices.Contains(hotNames(m), n) {
			t.Errorf("%s is not open with Proc on screen: %v", n, hotNames(m))
		}
	}
	// The items name the process: PID and command.
	for _, v := range m.hot.Entries() {
		if m.hot.names[v] == "top-processes-memory" && len(v.Items) > 0 && !strings.Contains(itemName(v.Items[0]), " ") {
			t.Errorf("item %q lacks the command name", itemName(v.Items[0]))
		}
	}
	m = keys(t, m, ":Disk{enter}")
	m = collectOnce(t, m)
	if slices.Contains(hotNames(m), "top-processes-cpu") {
		t.Error("the process hotsets stay open after Proc left the screen")
	}
	read := m.snap.Class(procCls).End
	m = collectOnce(t, collectOnce(t, m))
	if !m.snap.Class(procCls).End.Equal(read) {
		t.Error("the processes are still read after they left the screen")
	}
	// The saved configuration keeps them as configured.
	cfgs := m.hot.Configs()
	if i := slices.IndexFunc(cfgs, func(c HotsetConfig) bool { return c.Name == "top-processes-cpu" }); i < 0 || !cfgs[i].OnScreen {
		t.Errorf("configs lose the on-screen peer sets: %+v", cfgs)
	}
}

// P on a disk opens the processes ranked by I/O: which process uses which disk is not known.
func TestProcsKeyFromDisk(t *testing.T) {
	m := newModel(t, newSynthSampler(t, "synthetic:procs=20,disks=2"), 160, 50, 2)
	m = keys(t, m, ":Disk{enter}P")
	m = collectOnce(t, collectOnce(t, m))
	if p := m.tree.SelectedPath(); p != "Proc" {
		t.Fatalf("P selected %q", p)
	}
	if m.values.sortCol == 0 || m.values.cols[m.values.sortCol-1].title() != "io/s" {
		t.Errorf("processes from a disk are not ranked by io/s")
	}
}

// The cursor stays on the process the user chose while the table re-sorts by %CPU, as top's.
func TestProcCursorFollows(t *testing.T) {
	m := newModel(t, newSynthSampler(t, "synthetic:procs=40,seed=3"), 160, 50, 2)
	m = keys(t, m, ":Proc{enter}")
	m = collectOnce(t, collectOnce(t, m))
	m = keys(t, m, "2jjjj")
	picked := m.values.Selected().Ctx
	moved := false
	for range 8 {
		before := m.values.cursor
		m = collectOnce(t, m)
		if got := m.values.Selected().Ctx; got != picked && !picked.Inst.Removed() {
			t.Fatalf("the cursor left %s for %s", picked.Path(), got.Path())
		}
		moved = moved || m.values.cursor != before
	}
	if !moved {
		t.Error("the chosen process kept its rank throughout: the test saw no re-sort (seed 3 re-sorts)")
	}
}

// procTableModel is the monitor on the fixture host's process table, the table with the focus.
func procTableModel(t *testing.T, w, h int) Model {
	t.Helper()
	m := newModel(t, newHostFixture(t, 4), w, h, 2)
	m = keys(t, m, ":Proc{enter}")
	m = collectOnce(t, m)
	m = keys(t, m, "2")
	if !m.values.ProcTable() || m.focus != paneValues {
		t.Fatalf("not on the process table: mode %v focus %v", m.values.Mode(), m.focus)
	}
	return m
}

// firstPIDs are the PIDs of the table's first n rows, in order.
func firstPIDs(m Model, n int) string {
	var out []string
	for _, i := range m.values.order[:min(n, len(m.values.order))] {
		out = append(out, m.values.rows[i].name)
	}
	return strings.Join(out, " ")
}

// issue 32 item 7: htop's keys in the process table, winning over the global ones while it has
// the focus: P, M, T sort by %CPU, %MEM and TIME+; t and F5 the tree; F3 and / search; F6, <
// and > the sort column; u one user's processes; H says threads are not listed.
func TestProcTableHtopKeys(t *testing.T) {
	m := procTableModel(t, 160, 50)
	theme := m.st.theme.Name
	sorted := func(m Model) string { return m.values.sortTitle() }
	m = keys(t, m, "M")
	if sorted(m) != "%MEM" || firstPIDs(m, 1) != "812" {
		t.Errorf("M: sorted by %s, first %s; want %%MEM with postgres (812) first", sorted(m), firstPIDs(m, 1))
	}
	m = keys(t, m, "P")
	if sorted(m) != "%CPU" || firstPIDs(m, 3) != "4242 812 5150" || !m.values.ProcTable() {
		t.Errorf("P: sorted by %s, first %s; want %%CPU, stress-ng first, and the table kept", sorted(m), firstPIDs(m, 3))
	}
	m = keys(t, m, "T")
	if sorted(m) != "TIME+" || firstPIDs(m, 1) != "4242" {
		t.Errorf("T: sorted by %s, first %s", sorted(m), firstPIDs(m, 1))
	}
	m = keys(t, m, ">")
	next := sorted(m)
	m = keys(t, m, "<")
	if next == "TIME+" || sorted(m) != "TIME+" {
		t.Errorf("> then <: %s then %s, want the column after TIME+ and TIME+ again", next, sorted(m))
	}
	m = keys(t, m, "{f6}")
	if sorted(m) != next {
		t.Errorf("F6: %s, want %s", sorted(m), next)
	}
	m = keys(t, m, "t")
	if !m.values.forest || m.st.theme.Name != theme {
		t.Fatalf("t: tree %v, theme %s (was %s): t is the table's tree while it has the focus", m.values.forest, m.st.theme.Name, theme)
	}
	m = keys(t, m, "{f5}")
	if m.values.forest {
		t.Fatal("F5 did not go back to the list")
	}
	m = keys(t, m, "{f3}rsync{enter}")
	if m.values.Filter() != "rsync" || firstPIDs(m, 9) != "5150" || m.tree.Filter() != "" {
		t.Errorf("F3 rsync: filter %q, rows %s", m.values.Filter(), firstPIDs(m, 9))
	}
	m = keys(t, m, "{esc}/stress{enter}")
	if firstPIDs(m, 9) != "4242" {
		t.Errorf("/ stress: rows %s", firstPIDs(m, 9))
	}
	m = keys(t, m, "{esc}u")
	if !strings.Contains(plainView(m), "u user") || !strings.Contains(plainView(m), "alice bob postgres root www-data") {
		t.Errorf("u: no prompt with the users:\n%s", plainView(m))
	}
	m = keys(t, m, "root{enter}")
	if got := firstPIDs(m, 9); got != "1 1337 2" && got != "1 2 1337" || !strings.Contains(plainView(m), "user “root”") {
		t.Errorf("u root: rows %s\n%s", got, plainView(m))
	}
	m = keys(t, m, "{esc}H")
	if m.values.User() != "" || !strings.Contains(plainView(m), "not their threads") {
		t.Errorf("esc did not clear the user, or H said nothing:\n%s", plainView(m))
	}
	// Away from the table, the global meanings are back: t changes the theme.
	m = keys(t, m, "1t")
	if m.st.theme.Name == theme {
		t.Error("t on the tree pane did not change the theme")
	}
	// ? says the table's keys win while it has the focus, and that nothing is killed.
	m = keys(t, m, "2?")
	help := strip(strings.Join(m.helpBody(), "\n"))
	wantAll(t, "the help", help, "Process table (htop's keys", "sort by %MEM", "no kill, no renice")
}

// issue 32 item 8: the tree is drawn as htop and pstree draw it: ├─ for a child with siblings
// after it, └─ for the last, │ down the side while the parent's children go on.
func TestProcTreeDrawn(t *testing.T) {
	m := procTableModel(t, 200, 50)
	m = keys(t, m, "t")
	m.values.sortCol, m.values.sortDesc = 0, false // siblings by PID
	m.values.sortRows()
	view := strip(m.values.View())
	var tree []string
	for _, l := range strings.Split(view, "\n") {
		if i := strings.Index(l, "/sbin/init"); i >= 0 {
			tree = append(tree, strings.TrimRight(l[i:], " "))
			continue
		}
		at := -1
		for _, mark := range []string{"├─ ", "└─ ", "│  "} {
			if i := strings.Index(l, mark); i >= 0 && (at < 0 || i < at) {
				at = i
			}
		}
		if at >= 0 {
			tree = append(tree, strings.TrimRight(l[at:], " "))
		}
	}
	want := []string{
		"/sbin/init splash",
		"├─ /usr/lib/postgresql/15/bin/postgres -D /var/lib/postgresql/15/main",
		"├─ sshd: /usr/sbin/sshd -D [listener] 0 of 10-100 startups",
		"│  ├─ stress-ng --cpu 1 --cpu-method matrixprod --timeout 600s",
		"│  └─ rsync -a --info=progress2 /srv/photos/ /mnt/backup/photos/",
		"└─ nginx: worker process",
	}
	same := len(tree) == len(want)
	for i := range min(len(tree), len(want)) {
		same = same && strings.HasPrefix(want[i], strings.TrimSuffix(tree[i], "…")) && len(tree[i]) > 10
	}
	if !same {
		t.Fatalf("tree:\n%s\nwant:\n%s\n\n%s", strings.Join(tree, "\n"), strings.Join(want, "\n"), view)
	}
}

// issue 32 item 8: the command takes the width the other columns leave, and → past the last
// column scrolls it; ← brings it back before it moves the columns.
func TestProcCommandScrolls(t *testing.T) {
	m := procTableModel(t, 200, 40)
	view := strip(m.values.View())
	head := strings.Split(view, "\n")[0]
	if i := strings.Index(head, "COMMAND"); i < 0 || width(head[i:]) < m.values.w*2/5 {
		t.Fatalf("the command has less than two fifths of the width:\n%s", view)
	}
	m = procTableModel(t, 100, 30)
	for i := 0; m.values.cmdOff == 0 && i < 80; i++ {
		m = keys(t, m, "l")
	}
	view = strip(m.values.View())
	if m.values.cmdOff != cmdStep || !strings.Contains(view, "COMMAND ‹ +10") || !strings.Contains(view, " 1 --cpu-method matrixprod") {
		t.Fatalf("→ did not scroll the command line (offset %d):\n%s", m.values.cmdOff, view)
	}
	for range 100 {
		m = keys(t, m, "h")
	}
	if m.values.cmdOff != 0 || m.values.colOff != 0 {
		t.Fatalf("← did not bring the command and the columns back: %d %d", m.values.cmdOff, m.values.colOff)
	}
}

// issue 32 item 9: a configured column order is kept, %util included: it is not pinned last.
func TestTableLayoutOrderKept(t *testing.T) {
	opts := testOptions()
	opts.Tables = map[string]TableLayout{"disk": {Columns: []string{"%util", "r/s", "w/s"}}}
	m := New(newFixture(t, 2, 3, "eth0"), opts)
	m = send(t, m, tea.WindowSizeMsg{Width: 160, Height: 40})
	m = collectOnce(t, collectOnce(t, m))
	m = keys(t, m, ":Disk{enter}")
	if got := columnTitles(m, len(m.values.cols)); got != "%util r/s w/s" {
		t.Fatalf("columns %s", got)
	}
	head := strings.Fields(strings.Split(strip(m.values.View()), "\n")[0])
	if len(head) < 4 || head[1] != "%util" || head[3] != "w/s" {
		t.Fatalf("header %v, want %%util first as configured", head)
	}
}
