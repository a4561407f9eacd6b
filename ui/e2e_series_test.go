package ui

import (
	"strings"
	"testing"
	"time"

	"dcimon/internal/archivetest"
	"dcimon/internal/pcptest"
)

// Issue 40 item 7: the real program on pmproxy's series with the key-value server down at its
// start opens at once (before: a blank screen for 11 s, then exit 1) and says history is
// unreachable and why; once the server is back (and loaded), it goes on to the series' hosts,
// its events saying history is reachable again; q quits and the terminal is restored.
func TestSmokeSeriesDownAtStart(t *testing.T) {
	bin, _ := program(t)
	p := pcptest.StartSeries(t)
	bases, err := archivetest.WriteFleet(t.TempDir(), archivetest.Fleet{Hosts: 2, Disks: 1, Samples: 10})
	if err != nil {
		t.Fatal(err)
	}
	p.StopKV()
	start := time.Now()
	tm := startTermFor(t, 120, 40, "", []string{"Overview", "history"}, bin, "--series", p.URL())
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the first frame came %v after the start", d)
	}
	tm.keys("o") // back to the overview, where the latest events are
	tm.waitFor("history unreachable: pmproxy", "answers, but its key", "1 degraded")
	p.StartKV(t)
	p.Load(t, bases...)
	deadline := time.Now().Add(90 * time.Second)
	for s := tm.capture(); !strings.Contains(s, "2 hosts │ REPLAY"); s = tm.capture() {
		if time.Now().After(deadline) {
			t.Fatalf("the series' hosts are not shown 90 s after the server came back:\n%s", s)
		}
		time.Sleep(200 * time.Millisecond)
	}
	tm.waitFor("history reachable again")
	tm.keys("1") // the panes: the key reaches the monitor on the series
	tm.waitFor("1 Tree")
	tm.keys("q")
	tm.restored(0)
}
