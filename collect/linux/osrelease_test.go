package linux

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"dcimon/collect"
	"dcimon/collect/collecttest"
)

func TestParseOSRelease(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"NAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n": "Debian GNU/Linux 12 (bookworm)",
		"NAME=Fedora\nVERSION_ID=40\n":                    "Fedora 40",
		"NAME='Alpine Linux'\nVERSION=\"3.20 \\\"x\\\"\"": `Alpine Linux 3.20 "x"`,
		"# comment\n\nID=arch\n":                          "",
		"PRETTY_NAME=\n=x\nNAME=Void\n":                   "Void",
	} {
		if got := parseOSRelease([]byte(in)); got != want {
			t.Errorf("parseOSRelease(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParseOSRelease(f *testing.F) {
	f.Add([]byte("NAME=\"Debian\"\nVERSION_ID=\"12\"\n"))
	f.Add([]byte("PRETTY_NAME='x'\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = parseOSRelease(data)
	})
}

// TestOSReleaseFromTree: the host's os datum comes from the tree's etc/os-release.
func TestOSReleaseFromTree(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "basic", "t0"))); err != nil {
		t.Fatal(err)
	}
	var fr fileReader
	ctx := withRoots(context.Background(), treeRoots(dir))
	if _, err := readOSRelease(ctx, &fr); err == nil {
		t.Errorf("no os-release: no error")
	}
	if err := os.MkdirAll(filepath.Join(dir, "usr", "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "usr", "lib", "os-release"), []byte("NAME=Tree\nVERSION_ID=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	provs := Providers(Options{Procfs: filepath.Join(dir, "proc"), Sysfs: filepath.Join(dir, "sys")})
	pointAt(t, provs, dir)
	h := collecttest.NewHarness(t, provs)
	h.Step(collect.Request{Static: true})
	if v := h.Value("Host/os"); v.S != "Tree 1" {
		t.Errorf("os = %+v", v)
	}
}
