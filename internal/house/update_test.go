package house

import (
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestEveryPackageTakesUpdate fails for every package of the module whose test binary does not
// define -update, so that `go test ./... -update` (the README's way to rewrite goldens) runs in
// all of them instead of stopping at "flag provided but not defined". The module's one flag is
// internal/golden's: a package with no golden file of its own imports it blank from a
// golden_flag_test.go.
func TestEveryPackageTakesUpdate(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	// Each test binary, pkg.test, is listed with everything it links.
	cmd := exec.Command("go", "list", "-test", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .Deps \" \"}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var binaries int
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 || !strings.HasSuffix(f[0], ".test") {
			continue
		}
		binaries++
		deps := " " + f[2] + " "
		if strings.Contains(deps, " dcimon/internal/golden ") || strings.HasSuffix(f[0], "dcimon/internal/golden.test") {
			continue
		}
		pkg := strings.TrimSuffix(f[0], ".test")
		t.Errorf("%s:1: the tests of %s do not take -update: add a golden_flag_test.go that imports dcimon/internal/golden blank", firstTestFile(t, pkg), pkg)
	}
	if binaries == 0 {
		t.Fatalf("go list named no test binary:\n%s", out)
	}
}

// firstTestFile names the first test file of package pkg, relative to the module root.
func firstTestFile(t *testing.T, pkg string) string {
	cmd := exec.Command("go", "list", "-f", "{{.Dir}}\t{{join .TestGoFiles \" \"}} {{join .XTestGoFiles \" \"}}", pkg)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return pkg
	}
	f := strings.SplitN(strings.TrimSpace(string(out)), "\t", 2)
	files := strings.Fields(f[len(f)-1])
	sort.Strings(files)
	abs, _ := filepath.Abs(root)
	rel, err := filepath.Rel(abs, f[0])
	if len(files) == 0 || err != nil {
		return pkg
	}
	return filepath.ToSlash(filepath.Join(rel, files[0]))
}
