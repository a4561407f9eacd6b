// Command dcimon is an interactive terminal monitor of the host's metrics, organised as a DCI name
// space of classes, instances and datums, with DCI4, PCP and SPMI views of every datum.
package main

import (
	"context"
	dcfg "dcimon/config"
	"dcimon/headless"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"sync/atomic"
	"syscall"
	"time"
)

// version is set at build time with -ldflags "-X main.version=..."; "dev" otherwise.
var version = "dev"

// started is when the process started, as near as Go lets package main know: the monitor's debug
// log measures its first frame from here.
var started = time.Now()

const usage = `dcimon — a DCI metrics browser for the terminal

Usage:
  dcimon [flags]                     open the interactive monitor on this host
  dcimon list [PATH] [--types] [--ids] [--all]
                                     the name space, one line per context and statistic
  dcimon describe PATH               every attribute of a context or statistic, in all
                                     four views (DCI, DCI4, PCP, SPMI)
  dcimon get PATH... [-i 1s] [-n 1]  values; counters as rates over the interval;
                                     wildcards allowed ('Disk/*/busy'); -n 0 prints
                                     until interrupted; --interval is -i; --all
                                     lets wildcards match implementation datums
  dcimon hot GRANDPARENT STAT [--max 5] [--threshold T] [--feed none|threshold|always]
             [--exceptions none|exception|trap|both] [--frequency 5] [--severity N]
             [--trap N] [-i 1s] [-n 1]
                                     an SPMI hotset reading: the busiest peers; T is
                                     in the units STAT is shown in (50 = 50%, 10MiB)
  dcimon hot --name NAME             a hotset of the configuration file
  dcimon metrics [PATH...] [-i 1s] [-n 1] [--output FILE] [--all]
             [--format prometheus|openmetrics]
                                     the name space (or the paths) as Prometheus text
                                     with PCP5 lines (the default: node_exporter's
                                     textfile collector reads only it) or OpenMetrics;
                                     --output writes each reading atomically; -n 0
                                     until interrupted
  dcimon record BASE [-i 1s] [--duration D] [--size SIZE [--keep AGE]]
             [--archive-version 2|3]
                                     record this host as a PCP archive (BASE.meta,
                                     BASE.index, BASE.0) that PCP's tools read; until
                                     interrupted, or for D; a new volume every SIZE
                                     (256MiB), volumes older than AGE (7d) removed
  dcimon config [default | check [FILE] | theme NAME]
                                     the configuration in force and where each value
                                     comes from; the annotated default file; check a
                                     file; a built-in theme as a file to copy
  dcimon --version | --help

Flags for every command:
  --procfs DIR    read /proc from DIR (a fixture tree)
  --sysfs DIR     read /sys from DIR
  --source SRC    host (default), pcp://PROXY[:PORT] (hosts through PCP's pmproxy), or
                  synthetic:disks=N,nics=N,cpus=N,procs=N,seed=N
  --hosts HOSTS   with pcp://: the pmcds to read, NAME=HOSTSPEC, @FILE, separated by commas
  --archive BASE  read a PCP archive instead; again for several hosts' archives. The
                  monitor replays it with a time cursor (, . [ ] < > :@TIME p + -)
  --at TIME       with --archive: read (or open the replay) at TIME: 03:12 on the
                  archive's day, 2026-11-25 03:12 (local unless a zone is given) or
                  RFC 3339; get and hot: --from T1 --to T2, every sample between
  --show-loop     also show loop and ram block devices, pseudo and duplicate file systems
  --host NAME     host name shown in listings and the status bar (default: the host's own)
  --liveness D    assume a supplier dead after D without new data (default 30s;
                  0 disables, else 15s to 600s)
  --json          machine-readable output (list, describe, get, hot)
  --config FILE   the configuration file (default $DCIMON_CONFIG, else
                  $XDG_CONFIG_HOME/dcimon/config.toml); flags beat DCIMON_* variables,
                  which beat the file

Monitor flags:
  --interval D    refresh interval (default 1s)
  --theme NAME    dark, light, high-contrast or mono (NO_COLOR forces mono)
  --debug FILE    write a debug log to FILE
  --fps N         frames per second at most, 1 to 120 (default 60); a frame is
                  drawn only when the screen changes

Exit status: 0 on success, 1 on a runtime failure, 2 on a usage error, 128+n after
signal n (130 after SIGINT, 143 after SIGTERM), once the terminal is restored.
`

func main() {
	// Signals are handled before anything is read (issue 21): the first cancels the command,
	// which restores the terminal and returns; a second one ends the process at once, should
	// anything still be stuck. Either way the exit status is a signalled program's, 128+n.
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	var got atomic.Int32
	go func() {
		s := (<-sigs).(syscall.Signal)
		got.Store(int32(s))
		cancel()
		s = (<-sigs).(syscall.Signal)
		os.Exit(signalStatus(s))
	}()
	stopProfile := startProfile(os.Getenv("DCIMON_CPUPROFILE"))
	code := runEnv(ctx, os.Args[1:], headless.RealEnv(), os.Stdout, os.Stderr)
	stopProfile()
	if s := got.Load(); s != 0 {
		code = signalStatus(syscall.Signal(s))
	}
	os.Exit(code)
}

// signalStatus is the exit status of a program ended by signal s, as a shell reports it.
func signalStatus(s syscall.Signal) int { return 128 + int(s) }

// startProfile writes a CPU profile to path when it is set (DCIMON_CPUPROFILE, for the
// performance work in README's Performance section); it returns the function that stops it.
func startProfile(path string) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "dcimon: DCIMON_CPUPROFILE: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "dcimon: DCIMON_CPUPROFILE: %v\n", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// runEnv is run with a context (cancelled by SIGINT, SIGTERM, SIGHUP and SIGQUIT, SPMI-INIT-2)
// and an environment tests can fake.
func runEnv(ctx context.Context, args []string, e headless.Env, stdout, stderr io.Writer) int {
	for _, a := range args {
		switch a {
		case "--version", "-version":
			fmt.Fprintf(stdout, "dcimon %s\n", version)
			return 0
		case "--help", "-help", "-h":
			if len(args) == 1 {
				fmt.Fprint(stdout, usage)
				return 0
			}
		}
	}
	cfg, err := parseArgs(args, stderr)
	if err != nil {
		var ue *headless.UsageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "dcimon: %v\nRun 'dcimon --help' for usage.\n", err)
			return 2
		}
		fmt.Fprintf(stderr, "dcimon: %v\n", err)
		return 1
	}
	switch cfg.cmd {
	case "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "help-shown":
		return 0
	}
	if err := executeEnv(ctx, cfg, e, stdout, stderr); err != nil {
		var ue *headless.UsageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "dcimon: %v\n", err)
			return 2
		}
		fmt.Fprintf(stderr, "dcimon: %v\n", err)
		return 1
	}
	return 0
}

// executeEnv runs a parsed command until it is done or ctx is cancelled.
func executeEnv(ctx context.Context, cfg *config, e headless.Env, stdout, stderr io.Writer) error {
	if cfg.cmd == "config" {
		return runConfig(cfg, e, stdout)
	}
	eff, err := loadSettings(cfg, e)
	if err != nil {
		return err
	}
	applySettings(cfg, eff)
	if cfg.cmd == "hot" && cfg.hotName != "" {
		if err := savedHotset(cfg); err != nil {
			return err
		}
	}
	switch cfg.cmd {
	case "list":
		o := headless.ListOptions{Common: cfg.c, Types: cfg.types, IDs: cfg.ids}
		if len(cfg.args) == 1 {
			o.Path = cfg.args[0]
		}
		return headless.List(ctx, o, e, stdout)
	case "describe":
		return headless.Describe(ctx, headless.DescribeOptions{Common: cfg.c, Path: cfg.args[0]}, e, stdout)
	case "get":
		return headless.Get(ctx, headless.GetOptions{Common: cfg.c, Paths: cfg.args, Interval: cfg.interval, Count: cfg.count}, e, stdout)
	case "metrics":
		emit := func(text []byte) error { _, err := stdout.Write(text); return err }
		if cfg.output != "" {
			// One whole reading at a time, through a temporary file and a rename: a collector
			// reading the file never sees half of one.
			emit = func(text []byte) error { return dcfg.WriteAtomic(cfg.output, text, 0o644) }
		}
		return headless.Metrics(ctx, headless.MetricsOptions{Common: cfg.c, Paths: cfg.args, Interval: cfg.interval, Count: cfg.count, Format: cfg.format, Emit: emit}, e)
	case "record":
		return headless.Record(ctx, headless.RecordOptions{Common: cfg.c, Base: cfg.args[0], Interval: cfg.interval,
			Duration: cfg.duration, Version: cfg.archiveVersion, VolumeSize: cfg.volSize, Keep: cfg.keep}, e, stderr)
	case "hot":
		return headless.Hot(ctx, headless.HotOptions{Common: cfg.c, Grandparent: cfg.args[0], Stat: cfg.args[1], Stats: cfg.hotStats,
			Max: cfg.max, Threshold: cfg.threshold, Feed: cfg.feed, Except: cfg.except, Frequency: cfg.frequency,
			Severity: cfg.severity, TrapNo: cfg.trapNo, Interval: cfg.interval, Count: cfg.count}, e, stdout)
	}
	return runMonitor(ctx, cfg, e, stdout, stderr)
}
