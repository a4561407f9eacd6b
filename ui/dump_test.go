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
	for _, sz := range [][2]int{{120, 40}, {80, 24}, {200, 60}} {
		src := newFixture(t, 4, 3, "eth0", "lo")
		m := newModel(t, src, sz[0], sz[1], 3)
		fmt.Println(screen(m))
		m = keys(t, m, "jjjj")
		fmt.Println(screen(m))
	}
}
