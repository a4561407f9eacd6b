package ui

import (
	"fmt"
	"testing"

	"dcimon/internal/golden"
)

// TestGoldenPanes keeps each pane's text at the three reference sizes in testdata/. Run
// `go test ./ui/ -run Golden -update` after a deliberate change and read the diff.
func TestGoldenPanes(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			src := newFixture(t, 4, 3, "eth0", "lo")
			m := newModel(t, src, sz[0], sz[1], 3)
			name := func(pane string) string { return fmt.Sprintf("%s_%dx%d", pane, sz[0], sz[1]) }
			golden.Check(t, name("tree"), strip(m.tree.View()))
			golden.Check(t, name("hot"), strip(m.hot.View()))
			golden.Check(t, name("events"), strip(m.events.View()))
			m = keys(t, m, ":Disk{enter}")
			golden.Check(t, name("values_table"), strip(m.values.View()))
			m = keys(t, m, ":sda{enter}")
			m = collectOnce(t, m) // a second point for the sparklines
			golden.Check(t, name("values_stats"), strip(m.values.View()))
			m = keys(t, m, ":CPU/cpu0/idle{enter}")
			golden.Check(t, name("inspector_datum"), strip(m.insp.View()))
			m = keys(t, m, ":/Disk/sdb{enter}")
			golden.Check(t, name("inspector_instance"), strip(m.insp.View()))
		})
	}
}
