package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

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
			var got []string
			for _, c := range m.values.cols[:12] { // then every other statistic, scrolled to with ›
				got = append(got, c.title())
			}
			// issue 32 item 8: htop's %MEM and TIME+ beside top's columns.
			if want := "[USER S %CPU %MEM RES TIME+ read/s write/s io/s THR NI COMMAND]"; fmt.Sprint(got) != want {
				t.Fatalf("columns %v, want %s", got, want)
			}
			if c := m.values.cols[m.values.sortCol-1]; c.title() != "%CPU" || !m.values.sortDesc {
				t.Errorf("sorted by %s (desc %v), want %%CPU highest first", c.title(), m.values.sortDesc)
			}
			view := strip(m.values.View())
			for _, w := range []string{"PID", "USER", "%CPU", "COMMAND", "/usr/bin/"} {
				if !strings.Contains(view, w) {
					t.Errorf("the table lacks %q:\n%s", w, view)
				}
			}
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

// The process table is filtered by its own / and shown as a tree by parent with T.
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
	m = keys(t, m, "T")
	if !m.values.forest || !strings.Contains(strip(m.values.View()), "COMMAND (tree)") {
		t.Fatal("T did not show the processes as a tree")
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
