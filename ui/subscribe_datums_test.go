package ui

import (
	"testing"
)

// Issue 38 item 5: the overview alone, on a terminal too narrow for the processes' I/O ranking,
// subscribes to the process class without the datums of /proc/PID/io; a wide one, or the
// panes on a process, to the whole class; and the block still ranks by CPU and memory.
func TestOverviewSubscribesToTheBlocksDatums(t *testing.T) {
	for _, c := range []struct {
		w       int
		partial bool
	}{{80, true}, {150, true}, {181, true}, {182, false}, {200, false}} {
		m := overviewModel(t, newSynthSampler(t, "synthetic:disks=2,nics=1,cpus=2,seed=3"), c.w, 40, 3)
		m.resubscribe()
		pc := m.procClass()
		if pc == nil {
			t.Fatal("no process class")
		}
		if got := m.sub.partial == pc.c; got != c.partial {
			t.Errorf("%d cells: some datums only = %v, want %v", c.w, got, c.partial)
		}
		if c.partial {
			for _, cl := range m.sub.classes {
				if cl == pc.c {
					t.Errorf("%d cells: the process class subscribed whole beside its datums", c.w)
				}
			}
			if l := m.overviewProcs(c.w-ovMargin, 20); len(l) <= 2 {
				t.Errorf("%d cells: the block ranks nothing: %v", c.w, l)
			}
			// The values pane on the processes (behind the overview, or after o): whole.
			ref, err := m.reg.Lookup(nil, "Proc")
			if err != nil {
				t.Fatal(err)
			}
			m.sel.Ctx = ref.Ctx
			m.resubscribe()
			if m.sub.partial != nil {
				t.Errorf("%d cells, Proc selected: some datums only", c.w)
			}
		}
	}
}
