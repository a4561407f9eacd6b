package pcptest

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// Log runs PCP's pmlogger against p's pmcd for samples samples a second apart, logging metrics
// (PCP names, separated by white space), and returns the base name of the archive it wrote in a
// temporary directory of t's.
func (p *PCP) Log(t testing.TB, metrics string, samples int) string {
	t.Helper()
	dir := t.TempDir()
	conf := filepath.Join(dir, "config")
	if err := os.WriteFile(conf, []byte("log mandatory on every 1 second {\n\t"+metrics+"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "a")
	Run(t, "pmlogger", "-h", p.Hostspec(), "-c", conf, "-s", strconv.Itoa(samples), "-t", "1", "-l", filepath.Join(dir, "log"), base)
	return base
}
