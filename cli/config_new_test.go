package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	dcfg "dcimon/config"
)

// Issue 42 item 3: DCIMON_CONFIG naming a file that does not exist yet is no error (the built-in
// defaults are in force) and the first save creates it; --config naming one is still an error.
func TestDCIMONConfigNewFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new", "dcimon.toml")
	env := fakeEnv()
	env.Getenv = func(k string) string {
		return map[string]string{"HOME": "/nonexistent", "DCIMON_CONFIG": path}[k]
	}
	cfg, err := parseArgs(t.Context(), []string{"get", "CPU/busy", "--source", "synthetic:cpus=1,seed=1"}, env, &strings.Builder{}, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	eff, err := loadSettings(cfg, env)
	if err != nil {
		t.Fatalf("DCIMON_CONFIG to a new file: %v", err)
	}
	if eff.FilePath != path || eff.File != nil {
		t.Fatalf("file %q (%v), want %q and none read", eff.FilePath, eff.File, path)
	}
	// The monitor's save of its hotsets is the first save: it creates the file.
	if err := dcfg.SaveHotsets(eff.FilePath, eff.Hotsets[:1]); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), "[[hotset]]") {
		t.Fatalf("after the first save: %v\n%s", err, data)
	}
	// --config must name a file that exists.
	_, stderr, code := runFake(t, "get", "CPU/busy", "--config", filepath.Join(dir, "nope.toml"), "--source", "synthetic:cpus=1,seed=1")
	if code != 2 || !strings.Contains(stderr, "no such file") {
		t.Errorf("--config to a missing file: exit %d %s", code, stderr)
	}
}
