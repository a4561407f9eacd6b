package ui

import (
	"fmt"
	"os"
	"testing"
)

func TestDump(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip()
	}
	for _, sz := range [][2]int{{120, 40}, {80, 24}} {
		src := newFixture(t, 4, 3, "eth0", "lo")
		m := newModel(t, src, sz[0], sz[1], 6)
		m = keys(t, m, os.Getenv("DUMP"))
		fmt.Println(screen(m))
	}
}
