package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dcimon/collect"
	"dcimon/collect/synthetic"
	dcfg "dcimon/config"
	"dcimon/headless"
	"dcimon/pcparchive"
	"dcimon/pmproxy"
	"dcimon/ui"
)

// usagef is a malformed command line: exit status 2 with the message on stderr.
func usagef(format string, args ...any) error { return headless.Usagef(format, args...) }

// config is a parsed command line.
type config struct {
	cmd  string // "" (the TUI), "list", "describe", "get", "hot", "config"...; "help-shown" when cobra answered
	args []string
	// stop quits the monitor when closed (the waiting monitor of series not yet open:
	// monitor_history.go).
	stop <-chan struct{}
	// root is the command tree; parsed the command that was parsed (nil when help, --version or
	// a completion request was answered during parsing).
	root, parsed *cobra.Command
	// configFile is --config; set the settings given as flags (by their name in the file, with
	// their text), which beat the environment and the file; eff the configuration in force.
	configFile string
	set        map[string]string
	eff        *dcfg.Effective
	hotName    string          // hot --name: a saved hotset
	hotStats   []string        // its statistic names, to try in order
	hotFlags   map[string]bool // the hot flags given, which beat the saved hotset's fields
	alert      hotAlert        // hot --check, --critical, --watch (check_cmd.go)
	c          headless.Common
	debug      string // the monitor's debug log
	interval   time.Duration
	count      int
	theme      string
	fps        int
	// list
	types, ids bool
	// metrics
	output string
	format string
	// record
	duration       time.Duration
	volSize        int64         // record --size: a volume's bytes before the next (0: one volume)
	keep           time.Duration // record --keep: how long volumes are kept (0: all)
	archiveVersion int
	// hosts
	hostsSort    string
	hostsReverse bool
	// hot
	max       int
	threshold string
	feed      string
	except    string
	frequency int
	severity  int
	trapNo    int
}

const (
	minInterval = 100 * time.Millisecond
	maxInterval = time.Hour
)

// settingFlags are the flags that are also settings of the configuration file, by flag name.
var settingFlags = map[string]string{"interval": "interval", "theme": "theme", "show-loop": "show_loop", "liveness": "liveness", "suppliers": "suppliers"}

// dirList is a repeatable flag of directories; its text is the configuration's, joined by ":".
type dirList []string

func (d *dirList) String() string { return strings.Join(*d, string(filepath.ListSeparator)) }
func (d *dirList) Set(v string) error {
	if v == "" {
		return fmt.Errorf("empty directory")
	}
	*d = append(*d, v)
	return nil
}
func (d *dirList) Type() string { return "dirs" }

// parseArgs turns the command line into a config, or a usage error. Help, --version and the
// shells' completion requests are answered here, on stdout (cfg.cmd is then "help-shown").
func parseArgs(ctx context.Context, args []string, e headless.Env, stdout, stderr io.Writer) (*config, error) {
	cfg := &config{interval: time.Second, count: 1, max: 5, feed: "threshold", except: "none", frequency: 5, theme: "dark", fps: ui.DefaultFPS}
	root := newCommands(cfg, completer{ctx: ctx, cfg: cfg, env: e})
	cfg.root = root
	if err := singleDash(root, args); err != nil {
		return nil, err
	}
	root.Args = func(_ *cobra.Command, pos []string) error {
		if len(pos) == 0 {
			return nil
		}
		if len(args) > 0 && args[0] == pos[0] {
			// The first word names no command: say which there are, and the nearest.
			hint := ""
			if s := nearestCommand(root, pos[0]); s != "" {
				hint = fmt.Sprintf("; did you mean %s?", s)
			}
			return usagef("unknown command %q (commands: list, describe, get, hot, metrics, record, config, completion, man, version; no command opens the monitor)%s", pos[0], hint)
		}
		return usagef("unexpected argument %q", pos[0])
	}
	// Never nil: cobra reads os.Args for nil, so a caller's "no arguments" would become the
	// process's (a test binary's -update, issue 37).
	root.SetArgs(append([]string{}, args...))
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetContext(ctx)
	if _, err := root.ExecuteC(); err != nil {
		var ue *headless.UsageError
		if errors.As(err, &ue) {
			return nil, err
		}
		return nil, usagef("%v", err) // cobra's own: a malformed command line
	}
	if cfg.parsed == nil {
		return &config{cmd: "help-shown"}, nil
	}
	cfg.set, cfg.hotFlags = map[string]string{}, map[string]bool{}
	cmd := cfg.cmd
	cfg.parsed.Flags().Visit(func(f *pflag.Flag) {
		cfg.hotFlags[f.Name] = true
		// Only the monitor's interval is the file's; get's and hot's -i are their own.
		if k, ok := settingFlags[f.Name]; ok && (k != "interval" || cmd == "" || cmd == "config") {
			cfg.set[k] = f.Value.String()
		}
	})
	return cfg, cfg.validate()
}

// singleDash turns a long flag written with one dash (-interval, the standard flag package's
// way, which dcimon took before) into a usage error that names the right spelling: read as
// GNU short flags, -interval would be -i nterval.
func singleDash(root *cobra.Command, args []string) error {
	long := map[string]bool{"help": true, "version": true}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) { long[f.Name] = true })
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	for _, a := range args {
		if a == "--" {
			break
		}
		if len(a) < 3 || a[0] != '-' || a[1] == '-' {
			continue
		}
		name, _, _ := strings.Cut(a[1:], "=")
		if long[name] {
			return usagef("%s: a long flag takes two dashes: -%s", a, a)
		}
	}
	return nil
}

func (cfg *config) validate() error {
	for _, check := range []func() error{cfg.validateReading, cfg.validateTimes, cfg.validateArchive,
		cfg.validateSeries, cfg.validateSource, cfg.validateArgs} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// validateReading checks what every reading takes: its interval and count, the trees read as
// /proc and /sys, the liveness of the monitor's own class.
func (cfg *config) validateReading() error {
	if cfg.interval < minInterval || cfg.interval > maxInterval {
		return usagef("interval %v out of range %v..%v", cfg.interval, minInterval, maxInterval)
	}
	if cfg.count < 0 {
		return usagef("-n %d: the count cannot be negative", cfg.count)
	}
	for _, dir := range []struct{ flag, path string }{{"--procfs", cfg.c.Procfs}, {"--sysfs", cfg.c.Sysfs}} {
		if dir.path == "" {
			continue
		}
		st, err := os.Stat(dir.path)
		if err != nil {
			return usagef("%s %s: %v", dir.flag, dir.path, errors.Unwrap(err))
		}
		if !st.IsDir() {
			return usagef("%s %s: not a directory", dir.flag, dir.path)
		}
	}
	if err := collect.ValidateLiveness(cfg.c.Liveness); err != nil {
		return usagef("--liveness: %v", err)
	}
	return nil
}

// validateTimes checks --at, --from and --to, and reads a series whole unless -n says otherwise.
func (cfg *config) validateTimes() error {
	if (cfg.c.At != "" || cfg.c.From != "" || cfg.c.To != "") && len(cfg.c.Archives) == 0 && cfg.c.Series == "" {
		return usagef("--at, --from and --to apply to --archive and --series")
	}
	if cfg.c.At != "" && (cfg.c.From != "" || cfg.c.To != "") {
		return usagef("--at reads at one time; --from and --to read a series: one or the other")
	}
	for _, t := range []struct{ flag, v string }{{"--from", cfg.c.From}, {"--to", cfg.c.To}} {
		if t.v != "" {
			if _, err := headless.ParseAt(t.v, time.Local, time.Now()); err != nil { // the form only
				return usagef("%s: %v", t.flag, err)
			}
		}
	}
	if (cfg.c.From != "" || cfg.c.To != "") && !cfg.hotFlags["count"] {
		cfg.count = 0 // a series: every sample in it, unless -n says otherwise
	}
	return nil
}

// validateArchive checks --archive, a source of its own, and names the host its label does.
func (cfg *config) validateArchive() error {
	if len(cfg.c.Archives) == 0 {
		return nil
	}
	switch {
	case cfg.cmd == "config":
		return usagef("--archive: config reads no archive")
	case cfg.cmd == "" && (cfg.c.From != "" || cfg.c.To != ""):
		return usagef("--from and --to read a series, in get and hot; the monitor opens at --at and moves from there")
	case cfg.c.Source != "host" || cfg.c.Hosts != "" || cfg.c.Procfs != "" || cfg.c.Sysfs != "":
		return usagef("--archive is a source of its own: not with --source, --hosts, --procfs or --sysfs")
	}
	if cfg.c.At != "" {
		if _, err := headless.ParseAt(cfg.c.At, time.Local, time.Now()); err != nil { // the form only
			return usagef("--at: %v", err)
		}
	}
	cfg.c.Fleet = len(cfg.c.Archives) > 1
	if cfg.c.Host == "" && !cfg.c.Fleet {
		// The host is the one the archive's label names, as pmlogger recorded it.
		if l, err := pcparchive.ReadLabel(cfg.c.Archives[0]); err == nil {
			cfg.c.Host = l.Host
		}
	}
	return nil
}

// validateSeries checks --series, a source of its own: pmproxy's URL and the hosts' globs.
func (cfg *config) validateSeries() error {
	if cfg.c.Series == "" {
		return nil
	}
	switch {
	case cfg.cmd == "config" || cfg.cmd == "record":
		return usagef("--series: %s reads no time series", cfg.cmd)
	case cfg.cmd == "" && (cfg.c.From != "" || cfg.c.To != ""):
		return usagef("--from and --to read a series, in get and hot; the monitor opens at --at and moves from there")
	case len(cfg.c.Archives) > 0 || cfg.c.Source != "host" || cfg.c.Procfs != "" || cfg.c.Sysfs != "":
		return usagef("--series is a source of its own: not with --archive, --source, --procfs or --sysfs")
	}
	if _, _, err := pmproxy.ParseURL(cfg.c.Series); err != nil {
		return usagef("--series: %v", err)
	}
	for _, g := range headless.SeriesHosts(cfg.c.Hosts) {
		if _, err := path.Match(g, ""); err != nil {
			return usagef("--hosts %q: with --series, globs on host names: %v", g, err)
		}
	}
	if cfg.c.At != "" {
		if _, err := headless.ParseAt(cfg.c.At, time.Local, time.Now()); err != nil { // the form only
			return usagef("--at: %v", err)
		}
	}
	// Every host of the series under its own name, however many there are.
	cfg.c.Fleet = true

	return nil
}

// validateSource checks --source and --hosts, and names the host of a single remote one.
func (cfg *config) validateSource() error {
	remote := strings.HasPrefix(cfg.c.Source, "pcp://") || strings.HasPrefix(cfg.c.Source, "pcps://")
	if cfg.c.Source != "host" && !strings.HasPrefix(cfg.c.Source, "synthetic") && !remote {
		return usagef("--source %q: want host, pcp://PROXY[:PORT] or synthetic:disks=N,nics=N,cpus=N,procs=N,seed=N", cfg.c.Source)
	}
	if cfg.c.Hosts != "" && !remote && cfg.c.Source != "host" {
		return usagef("--hosts reads PCP hosts (alone: from each pmcd; with --source pcp://PROXY: through pmproxy), not --source %s", cfg.c.Source)
	}
	if (remote || cfg.c.Hosts != "") && cfg.c.Series == "" {
		if _, _, err := pmproxy.ParseURL(cfg.c.Source); remote && err != nil {
			return usagef("--source: %v", err)
		}
		hosts, err := headless.ParseHosts(cfg.c.Hosts, headless.ReadHostsFile)
		if err != nil {
			return usagef("%v", err)
		}
		cfg.c.HostList, cfg.c.Fleet = hosts, len(hosts) > 1
		if cfg.c.Host == "" && !cfg.c.Fleet {
			// The host is named by its hostspec as the user gave it, or its alias (issue 14).
			cfg.c.Host = hosts[0].Name
		}
	}
	if strings.HasPrefix(cfg.c.Source, "synthetic") {
		if _, err := synthetic.Parse(cfg.c.Source); err != nil {
			return usagef("--source: %v", err)
		}
	}
	if cfg.c.Source != "host" && (cfg.c.Procfs != "" || cfg.c.Sysfs != "") {
		return usagef("--procfs and --sysfs apply to the host source, not to %s", cfg.c.Source)
	}
	return nil
}

// validateArgs checks the frame rate and each command's arguments and flags of its own.
func (cfg *config) validateArgs() error {
	if cfg.fps < 1 || cfg.fps > ui.MaxFPS {
		return usagef("--fps %d: want 1 to %d", cfg.fps, ui.MaxFPS)
	}
	switch cfg.cmd {
	case "list":
		if len(cfg.args) > 1 {
			return usagef("list takes at most one PATH, got %d", len(cfg.args))
		}
	case "describe":
		if len(cfg.args) != 1 {
			return usagef("describe takes exactly one PATH")
		}
	case "get":
		if len(cfg.args) == 0 {
			return usagef("get needs at least one PATH (e.g. CPU/user or 'Disk/*/busy')")
		}
	case "record":
		return cfg.validateRecord()
	case "metrics":
		if cfg.count < 0 {
			return usagef("-n %d: want 0 (until interrupted) or more", cfg.count)
		}
		if cfg.format != headless.FormatPrometheus && cfg.format != headless.FormatOpenMetrics {
			return usagef("--format %q: want prometheus or openmetrics", cfg.format)
		}

	case "hot":
		return cfg.validateHot()
	case "config":
		if len(cfg.args) > 2 || (len(cfg.args) == 2 && cfg.args[0] != "check" && cfg.args[0] != "theme") {
			return usagef("config takes no argument, default, check [FILE] or theme NAME")
		}
	case "":
		if len(cfg.args) > 0 {
			return usagef("unexpected argument %q", cfg.args[0])
		}
	case "completion":
		if len(cfg.args) != 1 {
			return usagef("completion takes the SHELL: bash, zsh or fish")
		}
	case "man", "version":
		if len(cfg.args) > 0 {
			return usagef("%s takes no argument, got %q", cfg.cmd, cfg.args[0])
		}
	}
	return nil
}

// validateRecord checks record's archive, its version and length, and its source.
func (cfg *config) validateRecord() error {
	if len(cfg.args) != 1 {
		return usagef("record takes the archive's BASE (its files are BASE.meta, BASE.index, BASE.0)")
	}
	if cfg.archiveVersion != 2 && cfg.archiveVersion != 3 {
		return usagef("--archive-version %d: 2 or 3", cfg.archiveVersion)
	}
	if cfg.duration < 0 {
		return usagef("--duration %v: not negative", cfg.duration)
	}
	switch remote := strings.HasPrefix(cfg.c.Source, "pcp://") || strings.HasPrefix(cfg.c.Source, "pcps://"); {
	case len(cfg.c.Archives) > 0:
		return usagef("record reads a live source: this host, or one through pmproxy (pmlogextract copies archives)")
	case remote && cfg.c.Fleet:
		return usagef("record writes one host's archive, as pmlogger does: one host of --hosts at a time")
	case !remote && cfg.c.Source != "host":
		return usagef("record reads this host or one through pmproxy (--source pcp://), not %s", cfg.c.Source)
	}
	if cfg.keep > 0 && cfg.volSize == 0 {
		return usagef("--keep removes old volumes: give --size too, or there is only the one being written")
	}
	return nil
}

// validateHot checks hot's GRANDPARENT and STAT or saved hotset, its feed and exceptions.
func (cfg *config) validateHot() error {
	if cfg.hotName != "" && len(cfg.args) != 0 {
		return usagef("hot --name %s takes no GRANDPARENT or STAT: the saved hotset has them", cfg.hotName)
	}
	if cfg.hotName == "" && len(cfg.args) != 2 {
		return usagef("hot takes GRANDPARENT and STAT (e.g. dcimon hot Disk busy), or --name NAME")
	}
	switch cfg.feed {
	case "none", "threshold", "always":
	default:
		return usagef("--feed %q: want none, threshold or always", cfg.feed)
	}
	switch cfg.except {
	case "none", "exception", "trap", "both":
	default:
		return usagef("--exceptions %q: want none, exception, trap or both", cfg.except)
	}
	return cfg.alert.validate(cfg)
}
