package ui

import (
	"slices"
	"testing"
)

// Issue 38 item 5: the process block's lines kept from the last frame never change what is
// drawn: at every step of a source whose processes move, and after a theme switch, the block is
// the one made from nothing; and a frame with nothing moved keeps every line.
func TestProcRowMemoDrawsTheSame(t *testing.T) {
	for _, w := range []int{80, 200} {
		m := overviewModel(t, newSynthSampler(t, "synthetic:disks=2,nics=1,cpus=2,seed=5"), w, 50, 3)
		for step := range 6 {
			kept := m.ov.rowMemo.kept
			got := m.overviewProcs(w, 40)
			again := m.overviewProcs(w, 40) // nothing moved since: every process line kept
			if m.ov.rowMemo.kept-kept < len(got)-2 || len(got) <= 2 {
				t.Fatalf("%d cells, step %d: %d of %d lines kept by a frame with nothing moved", w, step, m.ov.rowMemo.kept-kept, len(got))
			}
			memo := m.ov.rowMemo
			m.ov.rowMemo = procRowMemo{}
			fresh := m.overviewProcs(w, 40)
			m.ov.rowMemo = memo
			if !slices.Equal(got, fresh) || !slices.Equal(again, fresh) {
				t.Fatalf("%d cells, step %d: the kept lines differ from those made from nothing:\n%v\n%v", w, step, got, fresh)
			}
			if step == 3 {
				m.nextTheme()
				l := m.overviewProcs(w, 40)
				m.ov.rowMemo = procRowMemo{}
				if fresh := m.overviewProcs(w, 40); !slices.Equal(l, fresh) {
					t.Fatalf("after a theme switch the lines of the old theme were drawn")
				}
			}
			m = collectOnce(t, m)
		}
	}
}
