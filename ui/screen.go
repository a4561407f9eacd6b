package ui

import (
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

// screen is the monitor's terminal. bubbletea v1's renderer draws on a clock: it wakes at every
// tick of its frame rate whether or not anything changed (about 150 µs of CPU a wake-up on the
// 2-CPU VM of the README's Performance section), and a frame made between two ticks waits for
// the next one, so the first frame with data waited up to a whole period. The screen draws when
// the frame changes instead: at once when the last frame is at least one gap (1/fps) old, else
// when the gap has passed, and then only the newest frame. Idle, it does not wake at all. (The
// placeholder before the first collection waits briefly for it: see placeholderWait.)
// bubbletea still reads and parses the input and runs the model; the screen owns the terminal's
// modes and is the only writer to it while the monitor runs.
type screen struct {
	in, tty *os.File  // nil in tests
	out     io.Writer // tty, or what a test reads
	ownIn   bool      // in is /dev/tty, opened because standard input is not a terminal
	saved   *term.State
	gap     time.Duration

	mu      sync.Mutex // guards the fields below, shared by the model and the drawing goroutine
	frame   string
	fw      int  // the width frame was laid out for
	data    bool // frame shows collected data
	w, h    int  // the terminal's size
	resized bool

	// wmu is held while a frame is written, so suspend never interleaves with one.
	wmu       sync.Mutex
	suspended bool // guarded by wmu

	kick    chan struct{} // a new frame or size is waiting (capacity 1: kicks coalesce)
	done    chan struct{}
	stopped chan struct{}

	// The drawing goroutine's alone.
	p         painter
	firstData func(time.Time) // called once, when the first frame with data has been written
	werr      error

	closeOnce sync.Once
	closeErr  error
}

// openScreen puts the terminal in the monitor's modes and starts drawing. Input comes from
// standard input, or from /dev/tty when standard input is not a terminal (dcimon < file), and is
// put in raw mode; frames go to standard output, which must be a terminal. firstData, when not
// nil, is told when the first frame showing collected data has reached the terminal.
func openScreen(fps int, firstData func(time.Time)) (*screen, error) {
	s := newScreen(os.Stdout, time.Second/time.Duration(fps), firstData)
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

// newScreen is a screen drawing on out, not yet started (openScreen starts it on the terminal;
// tests start it on a buffer).
func newScreen(out io.Writer, gap time.Duration, firstData func(time.Time)) *screen {
	s := &screen{out: out, gap: gap, firstData: firstData,
		kick: make(chan struct{}, 1), done: make(chan struct{}), stopped: make(chan struct{})}
	s.p.invalidate()
	return s
}

// placeholderWait is how long a frame without data waits for the first one with data.
const placeholderWait = 150 * time.Millisecond

// pendingHasData reports whether the frame waiting to be drawn shows collected data.
func (s *screen) pendingHasData() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data
}

// size is the terminal's size as last read.
func (s *screen) size() (w, h int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w, s.h
}

// submit hands the screen a frame laid out for width fw. It never blocks on the terminal: the
// drawing goroutine writes it, and a frame replaced before it was drawn is never drawn.
func (s *screen) submit(frame string, fw int, data bool) {
	s.mu.Lock()
	if frame == s.frame && fw == s.fw && data == s.data {
		s.mu.Unlock()
		return
	}
	s.frame, s.fw, s.data = frame, fw, data
	s.mu.Unlock()
	s.poke()
}

// resize records the terminal's new size: the next frame is drawn whole on a cleared screen.
func (s *screen) resize(w, h int) {
	s.mu.Lock()
	s.w, s.h, s.resized = w, h, true
	s.mu.Unlock()
	s.poke()
}

func (s *screen) poke() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// loop draws frames as they come, at most one a gap after a frame with data; the first
// placeholder waits up to placeholderWait for the data.
func (s *screen) loop() {
	defer close(s.stopped)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var last time.Time
	held := false // the first placeholder has had its wait
	for {
		select {
		case <-s.done:
			return
		case <-s.kick:
		}
		if last.IsZero() && !held && !s.pendingHasData() {
			held = true
			// The frame before the first collection is a placeholder, and the collection
			// usually follows within milliseconds: drawing it would only flash an empty
			// layout. It is drawn if the data take longer than placeholderWait.
			timer.Reset(placeholderWait)
			select {
			case <-s.done:
				timer.Stop()
				return
			case <-s.kick:
				timer.Stop()
			case <-timer.C:
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
			continue // resume pokes the loop again
		}
		s.mu.Lock()
		frame, fw, data, w, h, resized := s.frame, s.fw, s.data, s.w, s.h, s.resized
		s.resized = false
		s.mu.Unlock()
		if resized {
			s.p.invalidate()
		}
		if b := s.p.paint(frame, fw, w, h); len(b) > 0 && s.werr == nil {
			if _, err := s.out.Write(b); err != nil {
				// The terminal is gone (a hang-up follows) or refuses output: stop writing.
				s.werr = err
			}
		}
		s.wmu.Unlock()
		if !data {
			// A frame before the first collection is a placeholder: it never holds back the
			// frame with data that follows it a few milliseconds later.
			continue
		}
		last = time.Now()
		if s.firstData != nil && s.werr == nil {
			s.firstData(last)
			s.firstData = nil
		}
	}
}

// suspend gives the terminal back for a job-control stop (Ctrl-Z): the frame being written is
// finished, drawing stops, and the modes and line discipline are undone as on exit.
func (s *screen) suspend() error {
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

// resume takes the terminal back after a stop: raw mode and the monitor's modes again, the size
// read again (the window may have changed meanwhile), and the whole frame drawn on a cleared
// screen.
func (s *screen) resume() error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if !s.suspended {
		return nil
	}
	s.suspended = false
	if s.tty != nil {
		saved, err := term.MakeRaw(s.in.Fd())
		if err != nil {
			return fmt.Errorf("putting the terminal in raw mode: %w", err)
		}
		s.saved = saved
		if _, err := io.WriteString(s.out, modesOn); err != nil {
			return fmt.Errorf("writing to the terminal: %w", err)
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
	return nil
}

// close stops drawing and gives the terminal back as it was: modes undone, the shell's screen and
// cursor back, the line discipline restored. It is safe to call more than once.
func (s *screen) close() error {
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

func (s *screen) closeIn() {
	if s.ownIn {
		_ = s.in.Close()
	}
}
