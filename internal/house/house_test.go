package house

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// root is the module's root directory, seen from this package's tests.
const root = "../.."

// goFiles returns the module's Go files (test files too when tests is set), slash-separated and
// relative to root, skipping testdata, vendor and hidden folders as the go command does.
func goFiles(t *testing.T, tests bool) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || !tests && strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		files = append(files, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no Go files under %s", root)
	}
	return files
}

// over is a thing found over a limit: how big it is and where (file:line) it stands.
type over struct {
	size  int
	where string
}

// entry is one line of an allowlist: the size allowed and the line it stands on.
type entry struct {
	size, line int
}

// readAllowlist reads an allowlist of testdata/: lines `key... size`, the last field a whole
// number and the fields before it the key; blank lines and lines starting with # are skipped.
func readAllowlist(t *testing.T, path string) map[string]entry {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	list := map[string]entry{}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		n, err := strconv.Atoi(f[len(f)-1])
		if len(f) < 2 || err != nil {
			t.Errorf("internal/house/%s:%d: want `name... size`, got %q", path, i+1, line)
			continue
		}
		key := strings.Join(f[:len(f)-1], " ")
		if _, dup := list[key]; dup {
			t.Errorf("internal/house/%s:%d: %s is listed twice", path, i+1, key)
		}
		list[key] = entry{n, i + 1}
	}
	return list
}

// ratchet holds found (every thing over limit, by key) against the allowlist at path, which may
// only shrink: a thing over the limit must be listed, no bigger than its entry; an entry bigger
// than its thing, or whose thing is no longer over the limit, must be lowered or removed. Each
// failure names the file and line to change and what to write.
func ratchet(t *testing.T, path string, limit int, unit string, found map[string]over) {
	t.Helper()
	list := readAllowlist(t, path)
	path = "internal/house/" + path
	keys := make([]string, 0, len(found))
	for k := range found {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		o := found[k]
		e, listed := list[k]
		switch {
		case !listed:
			t.Errorf("%s: %s is %d %s, over the limit of %d: split it (house rules, issue 37)", o.where, k, o.size, unit, limit)
		case o.size > e.size:
			t.Errorf("%s: %s grew to %d %s, past its allowance of %d (%s:%d), which may only shrink: split it", o.where, k, o.size, unit, e.size, path, e.line)
		case o.size < e.size:
			t.Errorf("%s:%d: %s is %d %s now: lower its entry to `%s %d`", path, e.line, k, o.size, unit, k, o.size)
		}
	}
	for k, e := range list {
		if _, ok := found[k]; !ok {
			t.Errorf("%s:%d: %s is no longer over %d %s (or is gone): remove its entry", path, e.line, k, limit, unit)
		}
	}
}

// fmtWhere is file:line.
func fmtWhere(file string, line int) string { return fmt.Sprintf("%s:%d", file, line) }
