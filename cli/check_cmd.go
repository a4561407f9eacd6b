package cli

// `dcimon hot … --check` and `--watch` on the command line (issue 42 item 4): their flags, their
// usage errors, and their exit statuses: a monitoring plugin's 0..3 for --check, whatever went
// wrong included (a plugin's usage error is UNKNOWN, 3, not 2, which a monitoring system would
// read as CRITICAL); 0 for a --watch that SIGINT or SIGTERM ended, its normal end.

import (
	"errors"
	"io"
	"slices"
	"syscall"

	"dcimon/headless"

	"github.com/spf13/pflag"
)

// hotAlert holds hot's --check, --critical and --watch.
type hotAlert struct {
	check, watch bool
	critical     string
}

// addHotAlert adds hot's --check, --critical and --watch to the Hotset group.
func addHotAlert(fs *pflag.FlagSet, cfg *config) {
	fs.BoolVar(&cfg.alert.check, "check", false, "be a monitoring plugin: one status line with performance data; exit 0 OK, 1 WARNING (a peer past --threshold), 2 CRITICAL (past --critical), 3 UNKNOWN")
	fs.StringVar(&cfg.alert.critical, "critical", "", "with --check: CRITICAL when a peer is past `T` (typed as --threshold)")
	fs.BoolVar(&cfg.alert.watch, "watch", false, "print a line per exception (a peer past --threshold) as it starts and as it ends, until interrupted")
}

// validate refuses what --check and --watch cannot do.
func (a hotAlert) validate(cfg *config) error {
	switch {
	case a.check && a.watch:
		return usagef("--check and --watch: one at a time (--check answers once, --watch until interrupted)")
	case a.critical != "" && !a.check:
		return usagef("--critical is --check's critical threshold: give --check too")
	case a.check && cfg.hotFlags["count"]:
		return usagef("--check reads once (over one interval): -n does not apply")
	case a.check && cfg.c.JSON:
		return usagef("--check prints a monitoring plugin's status line, not JSON: --json does not apply")
	}
	return nil
}

// options sets the alerting fields of hot's options; --watch reads until interrupted unless -n
// is given.
func (a hotAlert) options(cfg *config, o headless.HotOptions) headless.HotOptions {
	o.Check, o.Critical, o.Watch, o.Name = a.check, a.critical, a.watch, cfg.hotName
	if a.watch && !cfg.hotFlags["count"] {
		o.Count = 0
	}
	return o
}

// watchEndsClean says that signal s ends a --watch as it is meant to end: exit status 0.
func watchEndsClean(s syscall.Signal) bool { return s == syscall.SIGINT || s == syscall.SIGTERM }

// checkMode says whether the command line asks for --check, before it could be parsed.
func checkMode(args []string) bool { return hasFlag(args, "check") }

// watchMode says whether the command line asks for --watch: main's signal rule, which runs
// outside the parsed command.
func watchMode(args []string) bool { return hasFlag(args, "watch") }

// hasFlag says whether args turn on the boolean flag --name (before a "--").
func hasFlag(args []string, name string) bool {
	if i := slices.Index(args, "--"); i >= 0 {
		args = args[:i]
	}
	return slices.Contains(args, "--"+name) || slices.Contains(args, "--"+name+"=true")
}

// pluginStatus is the exit status of a --check that returned err: its state once the status
// line is printed, else UNKNOWN with err as the status line.
func pluginStatus(err error, stdout io.Writer) int {
	var pe *headless.PluginExit
	if errors.As(err, &pe) {
		return pe.Code
	}
	return headless.WritePluginUnknown(stdout, err)
}
