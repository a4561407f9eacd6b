package ui

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// isQuit says a command ends the program.
func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	return reflect.TypeOf(cmd()) == reflect.TypeOf(tea.Quit())
}

// issue 16: every action has a name; the built-in keys hold together; a rebinding moves the
// action to its new keys and off the old ones, and the help says so; two actions of one scope
// cannot share a key, and the error names both.
func TestKeyRebinding(t *testing.T) {
	if err := CheckKeys(nil); err != nil {
		t.Fatalf("the built-in keys conflict: %v", err)
	}
	names := map[string]bool{}
	for _, a := range KeyActions() {
		if names[a.Name] || a.Help == "" || len(a.Keys) == 0 {
			t.Errorf("action %+v: duplicate, or without help or keys", a)
		}
		names[a.Name] = true
	}
	for _, want := range []string{"quit", "filter", "goto", "pane.next", "hot.new"} {
		if !names[want] {
			t.Errorf("no action %s", want)
		}
	}

	opts := testOptions()
	opts.Keys = map[string][]string{"quit": {"x"}, "hot.new": {"N"}}
	m := New(newSynthSampler(t, "synthetic:disks=2,seed=1"), opts)
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	if _, cmd := sendCmd(t, m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'q'}}); isQuit(cmd) {
		t.Fatal("q still quits after quit was rebound to x")
	}
	if _, cmd := sendCmd(t, m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'x'}}); !isQuit(cmd) {
		t.Fatal("x does not quit")
	}
	m = keys(t, m, "?")
	help := strip(m.View())
	if !strings.Contains(help, "x ") || !strings.Contains(help, "quit") {
		t.Fatalf("the help does not show x for quit:\n%s", help)
	}

	for _, c := range []struct {
		rebind map[string][]string
		want   string
	}{
		{map[string][]string{"quit": {"n"}}, `keys: "n" is bound to both quit and hot.new (scope hotsets)`},
		{map[string][]string{"filter": {"j"}}, `"j" is bound to both`},
		{map[string][]string{"hot.new": {"e"}}, `"e" is bound to both hot.new and hot.edit (scope hotsets)`},
		{map[string][]string{"qiut": {"x"}}, `keys.qiut: no such action`},
		{map[string][]string{"pane_next": {"x"}}, `(did you mean pane.next?)`},
	} {
		if err := CheckKeys(c.rebind); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %s", c.rebind, err, c.want)
		}
	}
	// The same key in two panes' own actions is no conflict: h collapses in the tree and scrolls
	// columns in the values pane.
	if err := CheckKeys(map[string][]string{"tree.collapse": {"h"}, "values.left": {"h"}}); err != nil {
		t.Fatal(err)
	}
}

// issue 16: a hotset made, edited or deleted in the monitor is saved to the configuration file
// as the setting says: ask asks once, and y saves now and at every later change of the run; the
// saved configs carry every field, the threshold in display units, and names that stay.
func TestHotsetsSaved(t *testing.T) {
	var saved [][]HotsetConfig
	opts := testOptions()
	opts.SaveMode, opts.ConfigName = "ask", "config.toml"
	opts.SaveHotsets = func(c []HotsetConfig) error { saved = append(saved, c); return nil }
	opts.Hotsets = []HotsetConfig{{Name: "busiest-disks", Grandpa: "Disk", Stats: []string{"%util"}, MaxResp: 5, Feed: 2}}
	m := New(newFixture(t, 1, 3), opts)
	m.after = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	m = send(t, m, tea.WindowSizeMsg{Width: 200, Height: 60})
	m = collectOnce(t, collectOnce(t, m))
	m = keys(t, m, ":Disk/sda/%util{enter}3n25{enter}")
	if !m.askingSave || !strings.Contains(plainView(m), "save hotsets to config.toml?") || len(saved) != 0 {
		t.Fatalf("the first change asks:\n%s", plainView(m))
	}
	// The question stays on the status line until it is answered, however long that takes.
	m.flashUntil = m.now().Add(-time.Second)
	m = send(t, m, tickMsg{seq: m.tickSeq})
	if !strings.Contains(plainView(m), "save hotsets to config.toml?") {
		t.Fatalf("the question went away unanswered:\n%s", plainView(m))
	}
	m = keys(t, m, "y")
	if len(saved) != 1 || !strings.Contains(plainView(m), "hotsets saved to config.toml") {
		t.Fatalf("y saves: %v\n%s", saved, plainView(m))
	}
	got := saved[0]
	if len(got) != 2 || got[0].Name != "busiest-disks" || got[1].Name != "Disk-%util" || got[1].Threshold != 25 || got[1].MaxResp != 5 {
		t.Fatalf("saved %+v", got)
	}
	// Later changes are saved without asking; an edit keeps the name.
	m = keys(t, m, "e{ctrl+u}1{enter}")
	if len(saved) != 2 || m.askingSave || saved[1][1].Name != "Disk-%util" || saved[1][1].MaxResp != 1 {
		t.Fatalf("the edit: %+v", saved)
	}
	m = keys(t, m, "dd")
	if len(saved) != 3 || len(saved[2]) != 1 {
		t.Fatalf("the delete: %+v", saved)
	}
	// n: not in this run.
	opts.SaveMode = "ask"
	saved = nil
	m2 := New(newFixture(t, 1, 3), opts)
	m2.after = m.after
	m2 = send(t, m2, tea.WindowSizeMsg{Width: 200, Height: 60})
	m2 = collectOnce(t, collectOnce(t, m2))
	m2 = keys(t, m2, ":Disk/sda/%util{enter}3n{enter}n")
	m2 = keys(t, m2, "e{ctrl+u}2{enter}")
	if len(saved) != 0 || m2.askingSave {
		t.Fatalf("n saves nothing and does not ask again: %+v", saved)
	}
}

// issue 16: net_units = "bits": the interface table's rates in Mbit/s, the same quantity ×8.
func TestNetBitsTable(t *testing.T) {
	row := func(bits bool) (string, []string) {
		opts := testOptions()
		opts.NetBits = bits
		m := New(newSynthSampler(t, "synthetic:nics=2,seed=5"), opts)
		m.after = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
		m = send(t, m, tea.WindowSizeMsg{Width: 200, Height: 60})
		m = collectOnce(t, collectOnce(t, m))
		m = keys(t, m, ":NetIf{enter}")
		s := strip(m.values.View())
		for _, l := range strings.Split(s, "\n") {
			if f := strings.Fields(l); len(f) > 2 && f[0] == "eth0" {
				return s, f
			}
		}
		t.Fatalf("no eth0 row:\n%s", s)
		return "", nil
	}
	sb, fb := row(false)
	sx, fx := row(true)
	if !strings.Contains(sb, "rxkB/s") || !strings.Contains(sx, "rxMbit/s") || strings.Contains(sx, "rxkB/s") {
		t.Fatalf("headers:\n%s\n%s", sb, sx)
	}
	kB, _ := strconv.ParseFloat(fb[1], 64)
	mbit, _ := strconv.ParseFloat(fx[1], 64)
	if want := kB * 1024 * 8 / 1e6; math.Abs(mbit-want) > 0.01+want*0.001 {
		t.Fatalf("rx %v kB/s is %v Mbit/s, not %v", kB, mbit, want)
	}
}
