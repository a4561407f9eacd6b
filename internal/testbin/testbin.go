// Package testbin builds the dcimon binary for tests that run the real program: once per test
// binary, whichever test asks first, in a temporary directory that Cleanup removes (call it from
// TestMain). Only tests import it.
package testbin

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var built struct {
	once sync.Once
	dir  string
	bin  string
	err  string
}

// Dcimon returns the path of the dcimon binary built from the module root at root (a path
// relative to the test's package directory: "." or ".."), building it on first use.
func Dcimon(tb testing.TB, root string) string {
	tb.Helper()
	built.once.Do(func() { build(root) })
	if built.err != "" {
		tb.Fatalf("building dcimon: %s", built.err)
	}
	return built.bin
}

// Prebuild starts building the binary in the background (from TestMain), so that the build
// overlaps the tests that do not run it; Dcimon then waits for it (issue 37: CI time).
func Prebuild(root string) {
	go built.once.Do(func() { build(root) })
}

// build builds the binary from the module root at root into a temporary directory.
func build(root string) {
	dir, err := os.MkdirTemp("", "dcimon-test-bin-")
	if err != nil {
		built.err = err.Error()
		return
	}
	built.dir = dir
	bin := filepath.Join(dir, "dcimon")
	if out, err := exec.Command("go", "build", "-o", bin, root).CombinedOutput(); err != nil {
		built.err = err.Error() + "\n" + string(out)
		return
	}
	built.bin = bin
}

// Cleanup removes the binary, if one was built, waiting for a build Prebuild started.
func Cleanup() {
	built.once.Do(func() {})
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
}
