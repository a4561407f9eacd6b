package ui

import (
	"errors"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// Issue 38 item 5: the first collection Run started before the screen is the one the monitor
// takes in (never a second one started at Init); without one, Init starts it.
func TestFirstSampleTakesTheEarlyOne(t *testing.T) {
	m := newModel(t, newSynthSampler(t, "synthetic:disks=1,nics=1,cpus=1,seed=1"), 80, 24, 0)
	want := errors.New("the early collection")
	ch := make(chan tea.Msg, 1)
	ch <- sampleMsg{err: want}
	m.early = ch
	if got, ok := m.firstSampleCmd()().(sampleMsg); !ok || got.err != want {
		t.Fatalf("first sample = %+v, want the early one", got)
	}
	m.early = nil
	if got, ok := m.firstSampleCmd()().(sampleMsg); !ok || got.err != nil || got.snap == nil {
		t.Fatalf("without an early one: %+v, want a collection", got)
	}
}
