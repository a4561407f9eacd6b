package ui

import (
	"context"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestCollectionRacesWithTheUI runs collections on another goroutine, as the program does, while
// the UI goroutine handles keys and draws: instances come and go in the registry meanwhile. Run
// it with -race: View and Update may read only what the registry's lock or the snapshot protects
// (SPMI-FEAT-6: simultaneous use from several goroutines is safe).
func TestCollectionRacesWithTheUI(t *testing.T) {
	src := newFixture(t, 4, 4, "eth0")
	m := newModel(t, src, 120, 40, 2)
	msgs := make(chan tea.Msg)
	done := make(chan struct{})
	now := m.now
	go func() {
		defer close(msgs)
		for i := 0; i < 60; i++ {
			// The fixture is scripted from this goroutine only.
			switch i % 3 {
			case 0:
				src.NICs = []string{"eth0", "eth9"}
				src.Disks = 5
			case 1:
				src.NICs = []string{"eth0"}
				src.Disks = 3
			}
			select {
			case msgs <- sampleCmd(context.Background(), src, now)():
			case <-done:
				return
			}
		}
	}()
	defer close(done)
	script := []string{"j", "j", "{enter}", "2", "s", "3", "j", "4", "5", "1", "G", "/", "e", "{esc}", "g", "l"}
	for i := 0; ; i++ {
		select {
		case msg, ok := <-msgs:
			if !ok {
				if err := m.crash.get(); err != nil {
					t.Fatal(err)
				}
				return
			}
			m = send(t, m, msg)
		default:
			m = keys(t, m, script[i%len(script)])
			_ = m.View()
		}
	}
}
