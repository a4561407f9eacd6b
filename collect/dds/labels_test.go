package dds

import (
	"strconv"
	"testing"
	"time"
)

// issue 38 item 3: a label set is kept once. The name space's instance has the family's own
// labels (not a copy), the text's series keep none of theirs once learnt, and a rewritten text
// whose series keep their label sets leaves the instances those same labels.
func TestDDSLabelSetsKeptOnce(t *testing.T) {
	h := newDDSHarness(t, 0)
	text := func(v int) string {
		return "# TYPE io counter\n" +
			"io_total{dev=\"sda\",host=\"a\"} " + strconv.Itoa(v) + "\n" +
			"io_total{dev=\"sdb\",host=\"a\"} " + strconv.Itoa(2*v) + "\n"
	}
	h.write("acme.prom", text(1), time.Second)
	h.tick(time.Second)
	for round := range 2 {
		if round > 0 {
			h.write("acme.prom", text(5), time.Second)
			h.tick(time.Second)
		}
		if len(h.dds.sups) != 1 {
			t.Fatalf("%d suppliers", len(h.dds.sups))
		}
		for _, s := range h.dds.sups {
			s.mu.Lock()
			for _, f := range s.doc.Families {
				for _, se := range f.Series {
					if se.Labels != nil {
						t.Errorf("round %d: the text's series %s keeps its labels %v", round, f.Name, se.Labels)
					}
				}
			}
			checked := 0
			for _, fd := range s.fams {
				for _, in := range h.s.Registry().Instances(fd.stats) {
					for _, set := range fd.sets {
						if set.id == in.Levels[0] {
							checked++
							if len(in.Labels) != 2 || &in.Labels[0] != &set.labels[0] {
								t.Errorf("round %d: %s's labels %v are not its label set's own", round, in.Name, in.Labels)
							}
						}
					}
				}
			}
			s.mu.Unlock()
			if checked != 2 {
				t.Errorf("round %d: %d instances checked, want 2", round, checked)
			}
		}
	}
}
