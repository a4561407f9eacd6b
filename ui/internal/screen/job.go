package screen

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/charmbracelet/x/term"
)

// WatchJobControl follows job-control signals sent from outside until ctx ends: a SIGTSTP (kill
// -TSTP from another shell; the terminal's own Ctrl-Z arrives as a key in raw mode) calls stop,
// which should stop the monitor the way Ctrl-Z does; a SIGCONT that does not end a stop of the
// monitor's own (one by SIGSTOP, which cannot be caught) calls cont, which should call Retake.
// Without it, a stop from outside would leave the shell on the alternate screen with the mouse
// on, and the monitor in a cooked terminal after fg.
//
// Once SIGTSTP is caught, Go never lets it stop the process again (its default action is not
// restored when it stops being caught), so the SIGTSTP that bubbletea sends its own process
// group after Suspend arrives here too; it is turned into the stop the kernel would have made,
// a SIGSTOP to the group. The SIGCONT that ends that stop is bubbletea's, which then resumes.
func (s *Screen) WatchJobControl(ctx context.Context, stop, cont func()) {
	onSignals(ctx, 2, notifyJob, func(sig os.Signal) {
		switch own := s.Suspended(); {
		case isStop(sig) && own:
			stopGroup()
		case isStop(sig):
			stop()
		case !own:
			cont()
		}
	})
}

// onSignals calls fn with each signal notify has delivered (to a channel of room buffered
// signals), until ctx ends.
func onSignals(ctx context.Context, room int, notify func(chan<- os.Signal), fn func(os.Signal)) {
	c := make(chan os.Signal, room)
	notify(c)
	defer signal.Stop(c)
	for {
		select {
		case <-ctx.Done():
			return
		case sig := <-c:
			fn(sig)
		}
	}
}

// Suspended reports whether the terminal is given back for a stop.
func (s *Screen) Suspended() bool {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return s.suspended
}

// Retake puts the terminal in the monitor's modes again and redraws the whole frame, after the
// process was stopped and continued behind the monitor's back (SIGSTOP, then fg): the shell may
// have put the terminal back in cooked mode and drawn on it meanwhile. The line discipline saved
// at Open stays the one Close gives back. It does nothing while the terminal is given back for a
// stop of the monitor's own (Resume takes it back then) and reports whether it retook it.
func (s *Screen) Retake() (bool, error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.suspended {
		return false, nil
	}
	if _, err := s.takeBack(); err != nil {
		return true, err
	}
	return true, nil
}

// takeBack puts the terminal in raw mode with the monitor's modes on again, reads its size again
// (the window may have changed meanwhile) and has the whole frame drawn on a cleared screen. It
// returns the line discipline raw mode replaced (nil without a terminal or when raw mode failed),
// also when writing the modes fails. The caller holds wmu.
func (s *Screen) takeBack() (*term.State, error) {
	var saved *term.State
	if s.tty != nil {
		var err error
		if saved, err = term.MakeRaw(s.in.Fd()); err != nil {
			return nil, fmt.Errorf("putting the terminal in raw mode: %w", err)
		}
		if _, err := io.WriteString(s.out, modesOn); err != nil {
			return saved, fmt.Errorf("writing to the terminal: %w", err)
		}
		if w, h, err := term.GetSize(s.tty.Fd()); err == nil {
			s.mu.Lock()
			s.w, s.h = w, h
			s.mu.Unlock()
		}
	}
	s.mu.Lock()
	s.resized = true
	s.mu.Unlock()
	s.poke()
	return saved, nil
}
