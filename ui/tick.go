package ui

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"dcimon/namespace"
)

// tickMsg is one beat of the single tick chain. A chain is tagged with a sequence number; when the
// interval changes or the monitor pauses, the number moves on and the old chain's beats are
// dropped, so there is never more than one chain (house style rule 10).
type tickMsg struct {
	seq int
	at  time.Time
}

// sampleMsg carries one collection back from its command.
type sampleMsg struct {
	snap  *namespace.Snapshot
	err   error
	start time.Time
	took  time.Duration
}

// tickCmd schedules the chain's next beat with after (tea.Tick in the program).
func tickCmd(after func(time.Duration, func(time.Time) tea.Msg) tea.Cmd, d time.Duration, seq int) tea.Cmd {
	return after(d, func(t time.Time) tea.Msg { return tickMsg{seq: seq, at: t} })
}

// sampleCmd runs one collection off the UI goroutine. It changes no state: the result comes back
// as a message. A panicking sampler is turned into an error rather than taking the monitor down.
func sampleCmd(ctx context.Context, src Sampler, now func() time.Time) tea.Cmd {
	return func() (msg tea.Msg) {
		start := now()
		defer func() {
			if r := recover(); r != nil {
				msg = sampleMsg{err: fmt.Errorf("collection panicked: %v\n%s", r, debug.Stack()), start: start, took: now().Sub(start)}
			}
		}()
		snap, err := src.Sample(ctx)
		return sampleMsg{snap: snap, err: err, start: start, took: now().Sub(start)}
	}
}

// earlySample starts the first collection at once, off the UI goroutine, and returns where its
// result will be: Run starts it before it sets up the model and the terminal, so the two overlap
// (issue 38 item 5: the first frame with data waited for one and then the other). It reads what
// the first collection read when Init started it: every class but the on-demand ones, since the
// model subscribes to what it shows only once it takes in a message (resubscribe).
func earlySample(ctx context.Context, src Sampler, now func() time.Time) <-chan tea.Msg {
	ch := make(chan tea.Msg, 1)
	go func() { ch <- sampleCmd(ctx, src, now)() }()
	return ch
}

// firstSampleCmd is the first collection's command: the one Run started early when there is
// one, else one started now.
func (m Model) firstSampleCmd() tea.Cmd {
	if m.early == nil {
		return sampleCmd(m.ctx, m.src, m.now)
	}
	ch := m.early
	return func() tea.Msg { return <-ch }
}
