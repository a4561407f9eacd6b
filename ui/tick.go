package ui

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/charmbracelet/bubbles/key"
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

// refreshNow rereads the source's variable values and samples now, unless a sample is in flight
// or the live view is paused.
func (m *Model) refreshNow() tea.Cmd {
	r, ok := m.src.(refresher)
	if !ok {
		m.setFlash("this source has nothing to refresh", false)
		return nil
	}
	r.Refresh()
	m.setFlash("refreshing: addresses, MTUs, capacities and every other variable value are read now", false)
	if m.inflight || (m.paused && m.rp == nil) {
		return nil
	}
	m.inflight, m.extra = true, true
	return sampleCmd(m.ctx, m.src, m.now)
}

// togglePause pauses or resumes the ticks.
func (m *Model) togglePause() tea.Cmd {
	m.paused = !m.paused
	if m.paused {
		m.tickSeq++ // the running chain stops at its next beat
		return nil
	}
	return m.restartTicks()
}

// stepRefresh makes the refresh interval one step longer or shorter.
func (m *Model) stepRefresh(km tea.KeyMsg) tea.Cmd {
	dir := 1
	if key.Matches(km, m.keys.Shorter) {
		dir = -1
	}
	d := stepInterval(m.interval, dir)
	if d == m.interval {
		return nil
	}
	m.interval = d
	m.setFlash("refresh every "+d.String(), false)
	if !m.paused {
		return m.restartTicks()
	}
	return nil
}

// firstRateAfter bounds the first beat: the first collection shows levels at once, and counters
// need a second one for a rate, so it comes after a short interval rather than a whole one.
const firstRateAfter = 250 * time.Millisecond

// firstBeat is how long after the start the first beat comes.
func firstBeat(interval time.Duration) time.Duration { return min(interval, firstRateAfter) }

// onTick takes one beat of the chain: a flash whose time is up goes, and a collection starts
// unless the view is paused or one is still in flight (a replay reads on at the next beat).
func (m *Model) onTick(msg tickMsg) tea.Cmd {
	if msg.seq != m.tickSeq {
		return nil // a beat of a chain that was replaced
	}
	if m.flash != "" && !m.flashUntil.IsZero() && !m.now().Before(m.flashUntil) && !m.askingSave {
		m.flash = "" // a question stays until it is answered
	}
	if m.paused {
		return nil // the chain stops; unpausing starts a new one
	}
	next := tickCmd(m.after, m.interval, m.tickSeq)
	if m.rp != nil {
		if m.inflight {
			return next // the play goes on from where that collection reads, at the next beat
		}
		m.inflight = true
		return tea.Batch(m.replayTick(), next)
	}
	if m.inflight {
		if m.extra {
			return next // a collection for a class that just came on screen: as fresh as this one
		}
		m.skipped++
		m.log.Printf("tick %d: the previous collection is still running; skipped", m.tickSeq)
		return next
	}
	m.inflight = true
	return tea.Batch(sampleCmd(m.ctx, m.src, m.now), next)
}

// restartTicks replaces the tick chain (a new interval, or unpausing) and collects at once.
func (m *Model) restartTicks() tea.Cmd {
	m.tickSeq++
	cmds := []tea.Cmd{tickCmd(m.after, m.interval, m.tickSeq)}
	if !m.inflight {
		m.inflight = true
		cmds = append(cmds, sampleCmd(m.ctx, m.src, m.now))
	}
	return tea.Batch(cmds...)
}

// tickChain is the one tick chain and the collections its beats start.
type tickChain struct {
	interval time.Duration
	paused   bool
	// rp is the replay of PCP archives, with its time cursor (nil: live). A replay is paused
	// unless playing.
	rp       *replayState
	tickSeq  int  // the chain's number: a beat of an older chain is dropped
	inflight bool // a collection is running
	skipped  int  // beats passed over while a collection ran
	after    func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
	now      func() time.Time
	// lastStart is when the latest collection started; extra says the one in flight was started
	// for a class that came on screen, not by the tick chain.
	lastStart time.Time
	extra     bool
	retried   bool // the last collection was a retry of a slow one (DCI-RET-2): never twice
}
