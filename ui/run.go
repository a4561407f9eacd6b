package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"

	"dcimon/theme"
)

// DefaultFPS is the renderer's default frame rate. bubbletea's renderer wakes at every frame
// whether or not there is anything to draw, and on a 2-CPU VM each wake-up costs about 150 µs of
// CPU: at 30 frames a second the wake-ups alone cost as much as htop does in all. At 10 a
// keystroke is drawn within 100 ms and dcimon at a 1 s refresh costs about 0.7x htop's CPU
// (scripts/overhead.sh; README, Performance).
const DefaultFPS = 10

// MaxFPS is the highest frame rate Options.FPS accepts (bubbletea's own limit is 120).
const MaxFPS = 60

func fps(n int) int {
	if n <= 0 {
		return DefaultFPS
	}
	return min(n, MaxFPS)
}

// Run runs the monitor on the terminal until the person quits, ctx is cancelled, or the process
// gets SIGTERM, SIGHUP, SIGINT or SIGQUIT (SPMI-INIT-2). The terminal is always restored: on a
// quit, on a signal, on cancellation, and on a panic anywhere in the model, which Run returns as
// an error. Leaving by a key, a signal or ctx is a clean exit (nil). progOpts are passed to the
// bubbletea program after the monitor's own (tests give their input and output).
func Run(ctx context.Context, src Source, opts Options, progOpts ...tea.ProgramOption) (err error) {
	// One signal path: bubbletea's own handler can block forever sending its quit message while
	// the program shuts down for a cancelled context, so signals cancel the context instead.
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT)
	defer stop()
	if theme.NoColor(os.Getenv) {
		opts.NoColor = true
	}
	if _, err := theme.Resolve(opts.Theme, opts.NoColor); err != nil {
		return err
	}
	if opts.DebugFile != "" {
		f, err := os.OpenFile(opts.DebugFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return fmt.Errorf("debug log: %w", err)
		}
		defer f.Close()
		opts.Debug = f
	}
	m := New(src, opts)
	m.ctx = ctx
	// The screen changes once per interval and on input; 30 frames a second draws a keystroke
	// within 33 ms while the renderer, which copies and compares the whole frame at every tick,
	// wakes half as often as at bubbletea's default 60.
	all := append([]tea.ProgramOption{tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithContext(ctx),
		tea.WithoutSignalHandler(), tea.WithFPS(fps(opts.FPS))}, progOpts...)
	p := tea.NewProgram(m, all...)
	m.crash.mu.Lock()
	m.crash.quit = p.Quit
	m.crash.mu.Unlock()
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
