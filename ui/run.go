package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"dcimon/internal/regular"
	"dcimon/theme"
	"dcimon/ui/internal/screen"
)

// DefaultFPS is the most frames the monitor draws in a second by default. Frames are drawn only
// when the screen changes (see package screen), so the rate costs nothing while nothing changes: it only
// bounds the drawing while keys are held down or the mouse is dragged.
const DefaultFPS = 60

// MaxFPS is the highest frame rate Options.FPS accepts.
const MaxFPS = 120

func fps(n int) int {
	if n <= 0 {
		return DefaultFPS
	}
	return min(n, MaxFPS)
}

// Run runs the monitor on the terminal until the person quits or ctx is cancelled; the caller
// cancels ctx on SIGTERM, SIGHUP, SIGINT and SIGQUIT (cli/run.go does, SPMI-INIT-2), so there is
// one signal path and the caller knows which signal ended the monitor. The terminal is always
// restored: on a quit, on cancellation, and on a panic anywhere in the model, which Run returns
// as an error. Leaving by a key or by ctx is a clean exit (nil).
func Run(ctx context.Context, src Sampler, opts Options) (err error) {
	if opts.Started.IsZero() {
		opts.Started = time.Now()
	}
	if theme.NoColor(os.Getenv) {
		opts.NoColor = true
	}
	if _, err := theme.Resolve(opts.Theme, opts.NoColor); err != nil {
		return err
	}
	if opts.DebugFile != "" {
		f, err := regular.OpenLog(opts.DebugFile) // a named pipe with no reader is an error, not a hang
		if err != nil {
			return fmt.Errorf("debug log: %w", err)
		}
		defer f.Close()
		opts.Debug = f
	}
	m := New(src, opts)
	m.ctx = ctx
	scr, err := screen.Open(fps(opts.FPS))
	if err != nil {
		return err
	}
	st := screen.CatchStrays()
	defer func() {
		// The terminal first, so what was caught is replayed on the shell's screen.
		if cerr := scr.Close(); cerr != nil && err == nil {
			err = cerr
		}
		st.Release(st.Stderr())
	}()
	// The first frame is laid out for the terminal's real size, so it can be drawn at once.
	m.resize(scr.Size())
	var once sync.Once
	o := onScreen{Model: m, scr: scr, holdUntil: time.Now().Add(placeholderWait), drawn: func(t time.Time) {
		once.Do(func() {
			m.log.Printf("first frame with data on the terminal %.1f ms after start", float64(t.Sub(opts.Started).Microseconds())/1000)
			if opts.Settled != nil {
				time.AfterFunc(SettleAfter, func() { m.log.Printf("settled: %s", opts.Settled()) })
			}
		})
	}}
	p := tea.NewProgram(o, tea.WithoutRenderer(), tea.WithInput(scr.In()),
		tea.WithContext(ctx), tea.WithoutSignalHandler()) // bubbletea's handler can block sending its quit message while the program shuts down
	m.crash.mu.Lock()
	m.crash.quit = p.Quit
	m.crash.mu.Unlock()
	go scr.WatchSize(ctx, func(w, h int) { p.Send(tea.WindowSizeMsg{Width: w, Height: h}) })
	if opts.Stop != nil {
		go func() {
			select {
			case <-opts.Stop:
				p.Quit() // not a kill: bubbletea waits for its reading of the keys to end
			case <-ctx.Done():
			}
		}()
	}
	// kill -TSTP from another shell stops the monitor as Ctrl-Z does; a continue after a stop
	// nobody told it of (SIGSTOP) takes the terminal back (issue 29 item 10).
	go scr.WatchJobControl(ctx, func() { p.Send(stopSignalMsg{}) }, func() { p.Send(continuedMsg{}) })
	defer func() {
		if r := recover(); r != nil {
			p.Kill()
			err = fmt.Errorf("dcimon: panic: %v\n%s", r, debug.Stack())
		}
	}()
	_, err = p.Run()
	if c := m.crash.get(); c != nil {
		return c
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, tea.ErrInterrupted):
		return nil // SIGINT delivered while the input is not a terminal
	case errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil:
		return nil
	}
	return err
}

// onScreen is the program's model: the monitor, with every frame handed to the screen. bubbletea
// asks for the view after every message; an unchanged frame is the cached string, which the
// screen recognises without drawing anything.
type onScreen struct {
	Model
	scr *screen.Screen
	// holdUntil is how long a frame before the first collection may wait for it: the collection
	// usually follows within milliseconds, and drawing the placeholder would only flash an empty
	// layout, so it is provisional until then.
	holdUntil time.Time
	// drawn is told when a frame with data has reached the terminal (the first-frame log line).
	drawn func(time.Time)
}

// placeholderWait is how long a frame without data waits for the first one with data.
const placeholderWait = 150 * time.Millisecond

// Update runs the monitor's Update, and job control. Ctrl-Z, or SIGTSTP from outside, starts
// suspendCmd, which gives the terminal back and has bubbletea stop the process (it sends the
// stop and waits for the continue); on resuming, resumeCmd takes the terminal back and the
// monitor is told the terminal's size, which may have changed meanwhile. A continue after a stop
// the monitor was not told of (SIGSTOP) retakes the terminal and redraws (retakeCmd). The
// terminal I/O and the look at the process tree happen in those commands, not here.
func (o onScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if key.Matches(msg, o.keys.Suspend) {
			return o, suspendCmd(o.scr)
		}
	case stopSignalMsg:
		return o, suspendCmd(o.scr)
	case continuedMsg:
		return o, retakeCmd(o.scr)
	case noJobControlMsg:
		// A stop nobody can continue would leave the monitor hanging.
		o.setFlash("Ctrl-Z: no shell job control here to stop and resume dcimon", true)
		o.touch()
		return o, nil
	case tea.ResumeMsg:
		return o, resumeCmd(o.scr)
	case resumedMsg:
		if msg.err != nil {
			o.crash.set(fmt.Errorf("dcimon: resuming after a stop: %w", msg.err))
			return o, tea.Quit
		}
		return o.Update(tea.WindowSizeMsg{Width: msg.w, Height: msg.h})
	}
	m, cmd := o.Model.Update(msg)
	o.Model = m.(Model)
	return o, cmd
}

// stopSignalMsg says SIGTSTP came from outside (kill -TSTP): stop as Ctrl-Z does.
type stopSignalMsg struct{}

// continuedMsg says SIGCONT came while the monitor had not stopped itself (it was stopped by
// SIGSTOP): the terminal may be cooked and drawn over, so it is taken back and redrawn whole.
type continuedMsg struct{}

// noJobControlMsg says Ctrl-Z cannot stop dcimon: no shell could continue it.
type noJobControlMsg struct{}

// resumedMsg says the screen has the terminal again, at the size it has now.
type resumedMsg struct {
	w, h int
	err  error
}

// suspendCmd gives the terminal back and asks bubbletea to stop the process, when a shell with
// job control can continue it.
func suspendCmd(scr *screen.Screen) tea.Cmd {
	return func() tea.Msg {
		if !screen.JobControl() {
			return noJobControlMsg{}
		}
		if scr.Suspended() {
			return nil // a second stop while the first is under way
		}
		// Even if giving the terminal back fails, the stop goes ahead: the shell restores its
		// own terminal state, and resuming sets the monitor's again.
		_ = scr.Suspend()
		return tea.SuspendMsg{}
	}
}

// resumeCmd takes the terminal back after a stop.
func resumeCmd(scr *screen.Screen) tea.Cmd {
	return func() tea.Msg {
		err := scr.Resume()
		w, h := scr.Size()
		return resumedMsg{w: w, h: h, err: err}
	}
}

// retakeCmd takes the terminal back after a continue the monitor did not stop for.
func retakeCmd(scr *screen.Screen) tea.Cmd {
	return func() tea.Msg {
		retaken, err := scr.Retake()
		if !retaken {
			return nil // a stop of the monitor's own: its resume takes the terminal back
		}
		w, h := scr.Size()
		return resumedMsg{w: w, h: h, err: err}
	}
}

// View draws the monitor and hands the frame to the screen: a frame before the first collection
// is provisional until holdUntil, a frame with data reports when it is drawn.
func (o onScreen) View() string {
	v := o.Model.View()
	f := screen.Frame{Text: v, Width: o.w}
	if o.snap == nil {
		f.HoldUntil = o.holdUntil
	} else {
		f.Drawn = o.drawn
	}
	o.scr.Submit(f)
	return v
}
