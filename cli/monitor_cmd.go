package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/mattn/go-isatty"

	"dcimon/collect"
	"dcimon/headless"
	"dcimon/internal/resident"
	"dcimon/namespace"
	"dcimon/theme"
	"dcimon/ui"
)

// stdoutIsTerminal reports whether standard output is a terminal; tests replace it.
var stdoutIsTerminal = func() bool {
	fd := os.Stdout.Fd()
	return isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd)
}

// errNotTerminal explains what to do when the monitor cannot draw.
var errNotTerminal = errors.New("standard output is not a terminal, so the interactive monitor cannot run.\n" +
	"For scripts and pipes use the headless commands:\n" +
	"  dcimon list [PATH]          the name space\n" +
	"  dcimon describe PATH        every attribute of a context or statistic\n" +
	"  dcimon get PATH... [-n N]   values (add --json for machine-readable output)\n" +
	"  dcimon hot Disk busy        the busiest peers")

// runMonitor opens the interactive monitor on the chosen source.
func runMonitor(ctx context.Context, cfg *config, e headless.Env, stdout, stderr io.Writer) error {
	if !stdoutIsTerminal() {
		return errNotTerminal
	}
	cfg.c.Interval = cfg.interval // a remote host's context outlives two of the monitor's intervals
	if cfg.c.Series != "" {
		return runMonitorHistory(ctx, cfg, e)
	}
	s, past, err := headless.OpenSource(cfg.c, e)
	if err != nil {
		return err
	}
	return runMonitorOn(ctx, cfg, e, s, past)
}

// runMonitorHistory runs the monitor on pmproxy's time series: at once on a waiting source
// when they do not open at once (openMonitorHistory), then on the series when they open, with
// an event that says so; the user quitting meanwhile ends it (issue 40 item 7).
func runMonitorHistory(ctx context.Context, cfg *config, e headless.Env) error {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	o, later := openMonitorHistory(ctx, cfg.c, e)
	if o.err != nil {
		return o.err
	}
	if later == nil {
		return runMonitorOn(ctx, cfg, e, o.s, o.past)
	}
	wctx, cancel := context.WithCancel(ctx)
	var got openedHistory
	var switched atomic.Bool
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		select {
		case got = <-later:
			switched.Store(true)
			close(quit) // the waiting monitor quits, as q does, and gives way to the series
		case <-wctx.Done():
		}
	}()
	waiting := *cfg // the configuration's hotsets wait for their classes, as a fleet's do
	waiting.c.Host, waiting.stop = o.status, quit
	err := runMonitorOn(wctx, &waiting, e, o.s, nil)
	cancel()
	<-done
	if !switched.Load() || got.s == nil || ctx.Err() != nil {
		return err // the user quit while history was unreachable
	}
	got.s.Events().Add(namespace.Event{Time: e.Now(), Kind: namespace.EvSupplierAlive, Path: "series",
		Text: "history reachable again: pmproxy's time series at " + cfg.c.Series + " opened"})
	return runMonitorOn(ctx, cfg, e, got.s, got.past)
}

// runMonitorOn runs the monitor on the sampler s, replaying past when there is one.
func runMonitorOn(ctx context.Context, cfg *config, e headless.Env, s *collect.Sampler, past collect.History) error {
	var err error
	if _, err := checkFileHotsets(s.Registry(), cfg.eff); err != nil && !cfg.c.Fleet {
		return headless.Usagef("%v", err) // never a monitor without the hotsets asked for (issue 29 item 17)
	}
	var src ui.Sampler = s
	host := monitorHost(cfg.c)
	if past != nil {
		// A replay: the monitor on the archives (or time series), with a time cursor, from
		// --at or the start.
		var at time.Time
		if cfg.c.At != "" {
			if at, err = headless.ParseAt(cfg.c.At, e.Loc, cfg.c.TimeDay(past)); err != nil {
				return headless.Usagef("--at: %v", err)
			}
		}
		src = collect.NewReplay(s, past, at)
		if cfg.c.Series != "" {
			host = fmt.Sprintf("%d hosts", len(past.Hosts()))
		}
		noteDamage(s, past, e.Now())
	}
	o := ui.Options{Overview: true, Interval: cfg.interval, Theme: cfg.theme, NoColor: theme.NoColor(os.Getenv),
		Host: host, DebugFile: cfg.debug, FPS: cfg.fps, Started: started, Settled: dropStartPages, Stop: cfg.stop}
	if cfg.eff != nil {
		monitorSettings(cfg.eff, &o)
	}
	if cfg.c.Fleet && o.Hotsets == nil {
		// Several hosts: the default hotsets rank across them, the busiest disks, interfaces
		// and processors of the whole fleet (issue 14).
		for _, h := range ui.DefaultHotsets() {
			h.Grandpa = "*/" + h.Grandpa
			o.Hotsets = append(o.Hotsets, h)
		}
	}
	return ui.Run(ctx, src, o)
}

// dropStartPages gives back the pages of dcimon's own file that start-up touched (package
// resident): a monitor at its refresh runs a fraction of its code. It says what it did, for the
// debug log.
func dropStartPages() string {
	d, err := resident.DropStartPages()
	if err != nil {
		return fmt.Sprintf("start-up's pages kept: %v", err)
	}
	return fmt.Sprintf("start-up's pages given back: %.1f MiB of %.1f MiB mapped read-only from the binary", float64(d.Resident)/(1<<20), float64(d.Mapped)/(1<<20))
}

// monitorHost is the status bar's host: the one given or found, or for a source of several
// hosts how many there are.
func monitorHost(c headless.Common) string {
	if c.Host != "" || !c.Fleet {
		return c.Host
	}
	return fmt.Sprintf("%d hosts", len(c.HostList))
}

// noteDamage says in the events the damage found as the archives were opened (a metadata file or
// an index): the replay shows what was before it, and the events say where it is (issue 30 item 9).
func noteDamage(s *collect.Sampler, past collect.History, now time.Time) {
	if d, ok := past.(interface{ Damage() error }); ok && d.Damage() != nil {
		err := d.Damage()
		s.Events().Add(namespace.Event{Time: now, Kind: namespace.EvProviderError, Path: "archive", Text: err.Error()})
	}
}
