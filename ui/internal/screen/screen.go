package screen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/charmbracelet/x/term"
)

// Terminal modes the monitor runs in, set on start and undone on every exit path: the alternate
// screen, a hidden cursor, no auto-wrap (a line one cell too wide then overwrites the last column
// instead of scrolling the whole screen), mouse button and drag reports in SGR encoding, and
// bracketed paste. modesOff undoes them in reverse order; leaving the alternate screen puts back
// the cursor and the shell's screen.
const (
	modesOn  = "\x1b[?1049h\x1b[?25l\x1b[?7l\x1b[?1002h\x1b[?1006h\x1b[?2004h"
	modesOff = "\x1b[m\x1b[?2004l\x1b[?1006l\x1b[?1002l\x1b[?7h\x1b[?25h\x1b[?1049l"
)

// closeWait bounds how long closing waits for a frame being written: a terminal that stopped
// reading must not keep the monitor from exiting.
const closeWait = 2 * time.Second

// Screen is the monitor's terminal: its modes and the only writer to it while the monitor runs.
//
// Why it exists: bubbletea v1's renderer draws on a clock. It wakes at every tick of its frame
// rate whether or not anything changed (about 150 µs of CPU a wake-up on the 2-CPU VM of the
// README's Performance section), and a frame made between two ticks waits for the next tick, so
// the first frame with data waited up to a whole period. The Screen draws when the frame changes
// instead: at once when the last frame is at least one gap (1/fps) old, else when the gap has
// passed, and then only the newest frame; idle, it does not wake at all. bubbletea still reads
// and parses the input and runs the model.
//
// When it can be deleted: once dcimon moves to a bubbletea whose renderer flushes on demand
// rather than on a ticker (the v2 line's cell renderer does), this package goes and bubbletea's
// renderer comes back; nothing outside ui/run.go calls it.
//
// It holds no policy of the monitor's: what a frame is, when one may be held back, and what to do
// once it has been drawn are the caller's, said with each Frame.
type Screen struct {
	in, tty *os.File  // nil in tests
	out     io.Writer // tty, or what a test reads
	ownIn   bool      // in is /dev/tty, opened because standard input is not a terminal
	saved   *term.State
	gap     time.Duration

	mu      sync.Mutex // guards the fields below, shared by the caller and the drawing goroutine
	pend    Frame
	w, h    int // the terminal's size
	resized bool

	// wmu is held while a frame is written, so Suspend never interleaves with one.
	wmu       sync.Mutex
	suspended bool // guarded by wmu

	kick    chan struct{} // a new frame or size is waiting (capacity 1: kicks coalesce)
	done    chan struct{}
	stopped chan struct{}

	// The drawing goroutine's alone.
	p    Painter
	werr error

	closeOnce sync.Once
	closeErr  error
}

// Frame is one picture of the whole screen.
type Frame struct {
	// Text is the frame's lines, separated by '\n', styled with SGR sequences only.
	Text string
	// Width is the width Text was laid out for: lines are cut only when the terminal has since
	// become narrower.
	Width int
	// HoldUntil, when set, makes the frame provisional: it is drawn no earlier than HoldUntil,
	// and not at all if a newer frame replaces it first; drawing it does not start the gap
	// between frames, so the frame that follows is never held back by it.
	HoldUntil time.Time
	// Drawn, when set, is called with the time the frame has reached the terminal. A frame
	// replaced before it was drawn is never drawn, and its Drawn is never called.
	Drawn func(time.Time)
}

// provisional reports whether f may be replaced before it is drawn.
func (f *Frame) provisional() bool { return !f.HoldUntil.IsZero() }

// same reports whether f and g draw the same picture under the same rules.
func (f *Frame) same(g *Frame) bool {
	return f.Text == g.Text && f.Width == g.Width && f.HoldUntil.Equal(g.HoldUntil)
}

// Open puts the terminal in the monitor's modes and starts drawing at most fps frames a second.
// Input comes from standard input, or from /dev/tty when standard input is not a terminal
// (dcimon < file), and is put in raw mode; frames go to standard output, which must be a
// terminal.
func Open(fps int) (*Screen, error) {
	s := newScreen(os.Stdout, time.Second/time.Duration(fps))
	s.in, s.tty = os.Stdin, os.Stdout
	if !term.IsTerminal(s.tty.Fd()) {
		return nil, errors.New("standard output is not a terminal")
	}
	if !term.IsTerminal(s.in.Fd()) {
		f, err := os.Open("/dev/tty")
		if err != nil {
			return nil, fmt.Errorf("standard input is not a terminal and there is no /dev/tty to read keys from: %w", err)
		}
		s.in, s.ownIn = f, true
	}
	w, h, err := term.GetSize(s.tty.Fd())
	if err != nil {
		s.closeIn()
		return nil, fmt.Errorf("reading the terminal's size: %w", err)
	}
	s.w, s.h = w, h
	if s.saved, err = term.MakeRaw(s.in.Fd()); err != nil {
		s.closeIn()
		return nil, fmt.Errorf("putting the terminal in raw mode: %w", err)
	}
	if _, err := io.WriteString(s.out, modesOn); err != nil {
		_ = term.Restore(s.in.Fd(), s.saved)
		s.closeIn()
		return nil, fmt.Errorf("writing to the terminal: %w", err)
	}
	go s.loop()
	return s, nil
}

// newScreen is a screen drawing on out, not yet started (Open starts it on the terminal; tests
// start it on a buffer).
func newScreen(out io.Writer, gap time.Duration) *Screen {
	s := &Screen{out: out, gap: gap,
		kick: make(chan struct{}, 1), done: make(chan struct{}), stopped: make(chan struct{})}
	s.p.Invalidate()
	return s
}

// In is where keys come from: the terminal the screen put in raw mode.
func (s *Screen) In() *os.File { return s.in }

// Size is the terminal's size as last read.
func (s *Screen) Size() (w, h int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w, s.h
}

// Submit hands the screen a frame. It never blocks on the terminal: the drawing goroutine writes
// it, and a frame replaced before it was drawn is never drawn.
func (s *Screen) Submit(f Frame) {
	s.mu.Lock()
	if f.same(&s.pend) {
		s.mu.Unlock()
		return
	}
	s.pend = f
	s.mu.Unlock()
	s.poke()
}

// Resize records the terminal's new size: the next frame is drawn whole on a cleared screen.
func (s *Screen) Resize(w, h int) {
	s.mu.Lock()
	s.w, s.h, s.resized = w, h, true
	s.mu.Unlock()
	s.poke()
}

// WatchSize reads the terminal's size whenever it changes, records it as Resize does, and tells
// fn, until ctx ends.
func (s *Screen) WatchSize(ctx context.Context, fn func(w, h int)) {
	onSignals(ctx, 1, notifyResize, func(os.Signal) {
		if w, h, err := term.GetSize(s.tty.Fd()); err == nil {
			s.Resize(w, h)
			fn(w, h)
		}
	})
}

func (s *Screen) poke() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// holdUntil is when the waiting frame may be drawn: zero for a frame that need not wait.
func (s *Screen) holdUntil() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pend.HoldUntil
}

// loop draws frames as they come, at most one a gap after the last frame that was not
// provisional; a provisional frame waits for its time unless a newer frame replaces it.
func (s *Screen) loop() {
	defer close(s.stopped)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var last time.Time
	for {
		select {
		case <-s.done:
			return
		case <-s.kick:
		}
	hold:
		for {
			until := s.holdUntil()
			wait := time.Until(until)
			if until.IsZero() || wait <= 0 {
				break
			}
			timer.Reset(wait)
			select {
			case <-s.done:
				timer.Stop()
				return
			case <-s.kick: // a newer frame: look at its hold instead
				timer.Stop()
			case <-timer.C:
				break hold
			}
		}
		if wait := s.gap - time.Since(last); !last.IsZero() && wait > 0 {
			timer.Reset(wait)
			select {
			case <-s.done:
				timer.Stop()
				return
			case <-timer.C:
			}
		}
		s.wmu.Lock()
		if s.suspended {
			s.wmu.Unlock()
			continue // Resume pokes the loop again
		}
		s.mu.Lock()
		f, w, h, resized := s.pend, s.w, s.h, s.resized
		s.resized = false
		s.pend.Drawn = nil // told once
		s.mu.Unlock()
		if resized {
			s.p.Invalidate()
		}
		if b := s.p.Paint(f.Text, f.Width, w, h); len(b) > 0 && s.werr == nil {
			if _, err := s.out.Write(b); err != nil {
				// The terminal is gone (a hang-up follows) or refuses output: stop writing.
				s.werr = err
			}
		}
		s.wmu.Unlock()
		now := time.Now()
		if f.Drawn != nil && s.werr == nil {
			f.Drawn(now)
		}
		if !f.provisional() {
			last = now
		}
	}
}

// Suspend gives the terminal back for a job-control stop (Ctrl-Z, or SIGTSTP from outside): the
// frame being written is finished, drawing stops, and the modes and line discipline are undone as
// on exit.
func (s *Screen) Suspend() error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.suspended = true
	if s.tty == nil {
		return nil
	}
	_, werr := io.WriteString(s.out, modesOff)
	if err := term.Restore(s.in.Fd(), s.saved); err != nil {
		return fmt.Errorf("restoring the terminal: %w", err)
	}
	return werr
}

// Resume takes the terminal back after a stop: raw mode and the monitor's modes again, the size
// read again (the window may have changed meanwhile), and the whole frame drawn on a cleared
// screen.
func (s *Screen) Resume() error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if !s.suspended {
		return nil
	}
	s.suspended = false
	saved, err := s.takeBack()
	if saved != nil {
		s.saved = saved // the line discipline Close gives back, as the shell left it
	}
	return err
}

// Close stops drawing and gives the terminal back as it was: modes undone, the shell's screen and
// cursor back, the line discipline restored. It is safe to call more than once.
func (s *Screen) Close() error {
	s.closeOnce.Do(func() {
		close(s.done)
		gone := false
		select {
		case <-s.stopped:
			gone = s.werr != nil // the drawing goroutine is done: its error is ours to read
		case <-time.After(closeWait):
		}
		if s.tty == nil {
			return
		}
		_, werr := io.WriteString(s.out, modesOff)
		rerr := term.Restore(s.in.Fd(), s.saved)
		s.closeIn()
		switch {
		case gone:
			// The terminal stopped taking output while the monitor ran (a hang-up): there is
			// nothing left to restore, and nobody to tell.
		case rerr != nil:
			s.closeErr = fmt.Errorf("restoring the terminal: %w", rerr)
		case werr != nil:
			s.closeErr = fmt.Errorf("restoring the terminal: %w", werr)
		}
	})
	return s.closeErr
}

func (s *Screen) closeIn() {
	if s.ownIn {
		_ = s.in.Close()
	}
}
