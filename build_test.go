package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// built is the dcimon binary of this test run: built once, by the first test that needs it, and
// shared by every test and benchmark of the package (each build took about half a second of every
// run, and several tests need one).
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  string
}

// buildDcimon returns the path of the dcimon binary, building it on first use.
func buildDcimon(tb testing.TB) string {
	tb.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "dcimon-test-bin-")
		if err != nil {
			built.err = err.Error()
			return
		}
		built.dir = dir
		bin := filepath.Join(dir, "dcimon")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			built.err = err.Error() + "\n" + string(out)
			return
		}
		built.bin = bin
	})
	if built.err != "" {
		tb.Fatalf("build: %s", built.err)
	}
	return built.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}
