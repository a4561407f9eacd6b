package headless

import (
	"os"
	"testing"
)

// TestMain runs the package's tests and removes what they shared: the folder of the processes'
// recordings (processRecording).
func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range processRecording.dirs {
		_ = os.RemoveAll(d)
	}
	os.Exit(code)
}
