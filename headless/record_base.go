package headless

import (
	"path/filepath"
	"strings"
)

// baseNamed refuses a base name that names no file of its own: empty, a directory's ("dir/",
// ".", ".."), whose files would be hidden ones (".0", ".meta", ".index") in that directory
// (issue 39 item 7: `record ""` wrote them in the current directory and exited 0).
func baseNamed(base string) error {
	name := filepath.Base(base)
	if strings.TrimSpace(base) == "" || strings.HasSuffix(base, "/") || name == "." || name == ".." {
		return Usagef("record: %q names no archive: give a base name, as pmlogger takes (BASE writes BASE.0, BASE.meta and BASE.index)", base)
	}
	return nil
}
