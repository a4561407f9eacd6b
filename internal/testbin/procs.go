package testbin

import (
	"os"
	"path/filepath"
	"strings"
)

// ProcessesWith lists the processes whose command line holds arg as one of its words, each as
// its pid and command line: the tests that start suppliers find what is left of them by it.
func ProcessesWith(arg string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		for _, w := range strings.Split(string(data), "\x00") {
			if w == arg {
				out = append(out, e.Name()+": "+strings.ReplaceAll(string(data), "\x00", " "))
				break
			}
		}
	}
	return out
}
