package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 41 item 10: DCIMON_STATS writes the soak's figures at once and then every statsEvery.
func TestStatsLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stats")
	stop := startStats(path)
	deadline := time.Now().Add(5 * time.Second)
	var data []byte
	for len(data) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		data, _ = os.ReadFile(path)
	}
	stop()
	line := string(data)
	for _, f := range []string{"live_heap=", "heap_objects=", "goroutines=", "fds="} {
		if !strings.Contains(line, f) {
			t.Errorf("no %s in %q", f, line)
		}
	}
	if strings.Contains(line, "fds=-1") || strings.Contains(line, "goroutines=0") {
		t.Errorf("figures not read: %q", line)
	}
}
