// Package cli is dcimon's command line: its commands and flags, help, completion scripts, man
// page and version, and the dispatch of a parsed command to the monitor (ui) or to the headless
// commands (headless). The module's main package calls Main.
package cli

import (
	"context"
	dcfg "dcimon/config"
	"dcimon/headless"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"sync/atomic"
	"syscall"
	"time"
)

// started is when the process started, as near as a package can know (its variables are set before main runs): the monitor's debug
// log measures its first frame from here.
var started = time.Now()

// Main runs dcimon with the process's arguments and environment and exits with its status.
func Main() {
	// Signals are handled before anything is read (issue 21): the first cancels the command,
	// which restores the terminal and returns; a second one, or the first's grace running out
	// (signals.go), ends the process at once, should anything still be stuck. Either way the
	// exit status is a signalled program's, 128+n.
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	var got atomic.Int32
	go watchSignals(sigs, &got, cancel, exitGrace, os.Exit)
	stopProfile := startProfile(os.Getenv("DCIMON_CPUPROFILE"))
	stopMemProfile := startMemProfile(os.Getenv("DCIMON_MEMPROFILE"))
	stopStats := startStats(os.Getenv("DCIMON_STATS")) // stats.go: the soak's figures
	code := runEnv(ctx, os.Args[1:], headless.RealEnv(), os.Stdout, os.Stderr)
	writeHeapProfile(os.Getenv("DCIMON_HEAPPROFILE"))
	stopProfile()
	stopMemProfile()
	stopStats()
	if s := got.Load(); s != 0 && !(watchMode(os.Args[1:]) && watchEndsClean(syscall.Signal(s))) {
		code = signalStatus(syscall.Signal(s))
	}
	os.Exit(code)
}

// signalStatus is the exit status of a program ended by signal s, as a shell reports it.
func signalStatus(s syscall.Signal) int { return 128 + int(s) }

// writeHeapProfile writes to path, when it is set, the heap in use at the garbage collector's
// last cycle of the run (DCIMON_HEAPPROFILE, for the memory figures of docs/performance.md:
// `go tool pprof -sample_index=inuse_space`); called as the run ends, before anything collects
// what the run held.
func writeHeapProfile(path string) {
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.WriteHeapProfile(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "dcimon: DCIMON_HEAPPROFILE: %v\n", err)
	}
}

// startProfile writes a CPU profile to path when it is set (DCIMON_CPUPROFILE, for the
// performance work in docs/performance.md); it returns the function that stops it.
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

// startMemProfile records every allocation of 4 KiB (a sample on average) when path is set
// (DCIMON_MEMPROFILE, for docs/performance.md's memory work); the function it returns writes the
// allocation profile (`go tool pprof -sample_index=alloc_space dcimon FILE`).
func startMemProfile(path string) func() {
	if path == "" {
		return func() {}
	}
	runtime.MemProfileRate = 4096
	return func() {
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "dcimon: DCIMON_MEMPROFILE: %v\n", err)
			return
		}
		defer f.Close()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			fmt.Fprintf(os.Stderr, "dcimon: DCIMON_MEMPROFILE: %v\n", err)
		}
	}
}

// runEnv is run with a context (cancelled by SIGINT, SIGTERM, SIGHUP and SIGQUIT, SPMI-INIT-2)
// and an environment tests can fake.
func runEnv(ctx context.Context, args []string, e headless.Env, stdout, stderr io.Writer) int {
	stderr, flush := terminalSafe(stderr) // errors quote others' names (termsafe.go)
	defer flush()
	cfg, err := parseArgs(ctx, args, e, stdout, stderr)
	if err != nil && checkMode(args) {
		return headless.WritePluginUnknown(stdout, err) // a plugin's usage error is UNKNOWN
	}
	if err != nil {
		if isUsage(err) {
			fmt.Fprintf(stderr, "dcimon: %v\n%s\n", err, helpHint(cfg, err))
			return 2
		}
		fmt.Fprintf(stderr, "dcimon: %v\n", err)
		return 1
	}
	if cfg.cmd == "help-shown" {
		return 0
	}
	if err := executeEnv(ctx, cfg, e, stdout, stderr); err != nil {
		if cfg.alert.check {
			return pluginStatus(err, stdout)
		}
		if isUsage(err) {
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
	switch cfg.cmd {
	case "config":
		return runConfig(cfg, e, stdout)
	case "completion":
		return writeCompletion(cfg.root, cfg.args[0], stdout)
	case "man":
		return writeMan(cfg.root, manDate(), "dcimon "+moduleVersion(), stdout)
	case "version":
		_, err := fmt.Fprintln(stdout, buildVersion())
		return err
	}
	eff, err := loadSettings(cfg, e)
	if err != nil {
		return err
	}
	applySettings(cfg, eff)
	if cfg.cmd != "" { // "" is the monitor, which owns the terminal
		var flush func()
		stdout, flush = terminalSafe(stdout) // the headless commands print others' text (termsafe.go)
		defer flush()
	}
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
	case "hosts":
		return headless.Hosts(ctx, headless.HostsOptions{Common: cfg.c, Interval: cfg.interval, Count: cfg.count,
			Sort: cfg.hostsSort, Reverse: cfg.hostsReverse}, e, stdout)
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
		return headless.Hot(ctx, cfg.alert.options(cfg, headless.HotOptions{Common: cfg.c, Grandparent: cfg.args[0], Stat: cfg.args[1], Stats: cfg.hotStats,
			Max: cfg.max, Threshold: cfg.threshold, Feed: cfg.feed, Except: cfg.except, Frequency: cfg.frequency,
			Severity: cfg.severity, TrapNo: cfg.trapNo, Interval: cfg.interval, Count: cfg.count}), e, stdout)
	}
	return runMonitor(ctx, cfg, e, stdout, stderr)
}
