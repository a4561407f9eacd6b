package ui

import (
	"testing"
)

// Issue 38 item 5: the overview alone subscribes to the process class without its control group
// (never shown there) and, on a terminal too narrow for the processes' I/O ranking, without the
// datums of /proc/PID/io; the panes on a process, to the whole class; and the block still ranks.
func TestOverviewSubscribesToTheBlocksDatums(t *testing.T) {
	for _, c := range []struct {
		w  int
		io bool
	}{{80, false}, {150, false}, {181, false}, {182, true}, {200, true}} {
		m := overviewModel(t, newSynthSampler(t, "synthetic:disks=2,nics=1,cpus=2,seed=3"), c.w, 40, 3)
		m.resubscribe()
		pc := m.procClass()
		if pc == nil {
			t.Fatal("no process class")
		}
		if m.sub.partial != pc.c {
			t.Fatalf("%d cells: the whole process class subscribed", c.w)
		}
		_, mask := m.procDatums(m.sub.key, append(m.sub.classes, pc.c))
		if mask == nil || mask[pc.c.DatumByName("io_bytes")] != c.io || mask[pc.c.DatumByName("cgroup")] || !mask[pc.c.DatumByName("cpu")] {
			t.Errorf("%d cells: datums %v, want io_bytes %v, cgroup never, cpu always", c.w, mask, c.io)
		}
		{
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
