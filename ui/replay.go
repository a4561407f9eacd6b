package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"dcimon/views"
)

// replayer is a Sampler over PCP archives with a time cursor (collect.Replay, issue 15). Move
// and Step only say where the next collection reads; the reading is the collection's, in a
// tea.Cmd like any other. Now is the time of the sample read last.
type replayer interface {
	Span() (first, last time.Time)
	Now() time.Time
	Move(t time.Time)
	Step(n int)
	Hosts() []string
}

// replaySpeeds are how much faster than the recording a replay plays: + and - step through them.
var replaySpeeds = []int{1, 10, 100}

// replayState is the monitor's replay: the cursor, and while playing, where the play started on
// the wall clock and in the archive, so that archive time runs at speed × the wall's.
type replayState struct {
	r                    replayer
	speed                int
	wallFrom, archFrom   time.Time
	again                bool // a move came while a collection was running: collect once more after it
	endSaid              bool // the end of the archive was said for the current play
	hosts                string
	spanFirst, spanLast  time.Time
	headerFrom, headerTo string
}

func newReplayState(r replayer, loc *time.Location) *replayState {
	rs := &replayState{r: r, speed: 1}
	rs.spanFirst, rs.spanLast = r.Span()
	hosts := r.Hosts()
	switch len(hosts) {
	case 0:
	case 1:
		rs.hosts = safe(hosts[0])
	default:
		rs.hosts = strconv.Itoa(len(hosts)) + " hosts"
	}
	f, l := rs.spanFirst.In(loc), rs.spanLast.In(loc)
	rs.headerFrom = f.Format("2006-01-02 15:04:05")
	if f.Format("2006-01-02") == l.Format("2006-01-02") {
		rs.headerTo = l.Format("15:04:05")
	} else {
		rs.headerTo = l.Format("2006-01-02 15:04:05")
	}
	return rs
}

// title is what the header says of the replay: that it is one, of which hosts, and the period.
func (rs *replayState) title() string {
	t := "replay"
	if rs.hosts != "" {
		t += " of " + rs.hosts
	}
	return t + " · " + rs.headerFrom + " – " + rs.headerTo + " "
}

// onReplayKey handles the keys that differ in a replay: play and pause, the speed, and the time
// cursor's moves. ok is false for any other key.
func (m *Model) onReplayKey(km tea.KeyMsg) (cmd tea.Cmd, ok bool) {
	rs, k := m.rp, m.keys
	switch {
	case key.Matches(km, k.Pause):
		if m.paused {
			_, last := rs.r.Span()
			if !rs.r.Now().Before(last) {
				m.setFlash("the end of the archive: go back (, < [ or :@TIME) to play again", true)
				return nil, true
			}
			m.paused, rs.endSaid = false, false
			rs.wallFrom, rs.archFrom = m.now(), rs.r.Now()
			m.tickSeq++
			m.setFlash(fmt.Sprintf("playing at ×%d", rs.speed), false)
			return tickCmd(m.after, m.interval, m.tickSeq), true
		}
		m.paused = true
		m.tickSeq++
		return nil, true
	case key.Matches(km, k.Longer), key.Matches(km, k.Shorter):
		i := 0
		for j, s := range replaySpeeds {
			if s == rs.speed {
				i = j
			}
		}
		if key.Matches(km, k.Longer) {
			i = min(i+1, len(replaySpeeds)-1)
		} else {
			i = max(i-1, 0)
		}
		rs.speed = replaySpeeds[i]
		rs.wallFrom, rs.archFrom = m.now(), rs.r.Now()
		m.setFlash(fmt.Sprintf("replay at ×%d", rs.speed), false)
		return nil, true
	case key.Matches(km, k.Back):
		rs.r.Step(-1)
	case key.Matches(km, k.Forward):
		rs.r.Step(1)
		return m.replayRead(), true // the next sample: the history goes on
	case key.Matches(km, k.MinBack):
		rs.r.Move(rs.r.Now().Add(-time.Minute))
	case key.Matches(km, k.MinFwd):
		rs.r.Move(rs.r.Now().Add(time.Minute))
	case key.Matches(km, k.HourBack):
		rs.r.Move(rs.r.Now().Add(-time.Hour))
	case key.Matches(km, k.HourFwd):
		rs.r.Move(rs.r.Now().Add(time.Hour))
	default:
		return nil, false
	}
	m.values.ForgetHistory() // a jump: no line across it
	return m.replayRead(), true
}

// replayRead collects where the cursor was moved: now, or after the collection running.
func (m *Model) replayRead() tea.Cmd {
	rs := m.rp
	rs.wallFrom, rs.archFrom = m.now(), time.Time{} // a play goes on from the new place
	if m.inflight {
		rs.again = true
		return nil
	}
	m.inflight, m.extra = true, true
	return sampleCmd(m.ctx, m.src, m.now)
}

// replayTick is a beat of a play: the cursor moves on by speed × the wall time since the play
// (re)started.
func (m *Model) replayTick() tea.Cmd {
	rs := m.rp
	if rs.archFrom.IsZero() { // moved by a key meanwhile: go on from where that read
		rs.wallFrom, rs.archFrom = m.now(), rs.r.Now()
	}
	at := rs.archFrom.Add(time.Duration(rs.speed) * m.now().Sub(rs.wallFrom))
	rs.r.Move(at)
	return sampleCmd(m.ctx, m.src, m.now)
}

// replayed follows a replay's collection: the end of the archive stops a play, and a move that
// came during the collection is read now.
func (m *Model) replayed() tea.Cmd {
	rs := m.rp
	if _, last := rs.r.Span(); !m.paused && !rs.r.Now().Before(last) {
		m.paused = true
		m.tickSeq++
		if !rs.endSaid {
			rs.endSaid = true
			m.setFlash("the end of the archive: "+last.In(m.opts.Location).Format("2006-01-02 15:04:05"), false)
		}
	}
	if rs.again && !m.inflight {
		rs.again = false
		m.inflight, m.extra = true, true
		return sampleCmd(m.ctx, m.src, m.now)
	}
	return nil
}

// gotoTime moves the cursor to the time typed after @ in the go-to line: a time of day (03:12,
// 03:12:05) on the day of the sample shown, or the day that puts it in the archive, or a date
// and time (2026-11-25 03:12, RFC 3339).
func (m *Model) gotoTime(s string) tea.Cmd {
	rs := m.rp
	if rs == nil {
		m.setFlash("@TIME moves a replay's time cursor: this is live (dcimon --archive BASE replays)", true)
		return nil
	}
	t, err := parseReplayTime(strings.TrimSpace(s), rs.r.Now(), rs.spanFirst, rs.spanLast, m.opts.Location)
	if err != nil {
		m.setFlash(err.Error(), true)
		return nil
	}
	rs.r.Move(t)
	m.values.ForgetHistory() // a jump: no line across it
	return m.replayRead()
}

// parseReplayTime reads a time typed for a replay (gotoTime, views.ParseTime), in loc: a time
// of day is on the day of the sample shown, else the nearest day that has it in the archive.
func parseReplayTime(s string, cur, first, last time.Time, loc *time.Location) (time.Time, error) {
	span := fmt.Sprintf("the archive's samples are from %s to %s", first.In(loc).Format("2006-01-02 15:04:05"), last.In(loc).Format("2006-01-02 15:04:05 MST"))
	t, clock, err := views.ParseTime(s, loc, cur)
	if err != nil {
		return time.Time{}, fmt.Errorf("@%v; %s", err, span)
	}
	if clock {
		for _, days := range []int{0, -1, 1, -2, 2} {
			if u := t.AddDate(0, 0, days); inSpan(u, first, last) {
				t = u
				break
			}
		}
	}
	if !inSpan(t, first, last) {
		return time.Time{}, fmt.Errorf("@%s is outside the archive: %s", safe(s), span)
	}
	if t.Before(first) {
		t = first
	}
	return t, nil
}

// inSpan says t is in the archive: from the minute of its first sample (03:00 when it starts
// at 03:00:00.48) to its last.
func inSpan(t, first, last time.Time) bool {
	return !t.Before(first.Truncate(time.Minute)) && !t.After(last)
}
