package archivetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// PMLoggerDailyXZ is the compression pmlogger_daily applies to the volumes and metadata of older
// archives on PCP 6.0.3 (its PCP_COMPRESS default: `xz -0 --block-size=10MiB`; the index is
// left as it is).
var PMLoggerDailyXZ = []string{"-0", "--block-size=10MiB"}

// CompressXZ writes the archive at base, compressed by the real xz with args as pmlogger_daily
// compresses it, at dst (dst.0.xz, dst.meta.xz, and dst.index as it is). It skips tb when xz is
// not installed (Debian: xz-utils).
func CompressXZ(tb testing.TB, base, dst string, args ...string) {
	tb.Helper()
	if _, err := exec.LookPath("xz"); err != nil {
		tb.Skip("xz is not installed (Debian: xz-utils)")
	}
	for _, suf := range []string{".0", ".meta"} {
		out, err := os.Create(dst + suf + ".xz")
		if err != nil {
			tb.Fatal(err)
		}
		cmd := exec.Command("xz", append(append([]string{"-T1", "-c"}, args...), base+suf)...)
		cmd.Stdout = out
		if err := cmd.Run(); err != nil {
			out.Close()
			tb.Fatalf("xz %s: %v", base+suf, err)
		}
		if err := out.Close(); err != nil {
			tb.Fatal(err)
		}
	}
	b, err := os.ReadFile(base + ".index")
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(dst+".index", b, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// CachedXZ is the archive of spec compressed as pmlogger_daily compresses it (PMLoggerDailyXZ),
// made once per machine beside Cached's.
func CachedXZ(tb testing.TB, s Spec) string {
	tb.Helper()
	plain := Cached(tb, s)
	dir := filepath.Join(filepath.Dir(filepath.Dir(plain)), s.Name+"-xz-v"+genVersion)
	return cachedDir(tb, dir, "compressed", s.Name, func(base string) error {
		CompressXZ(tb, plain, base, PMLoggerDailyXZ...)
		return nil
	})
}
