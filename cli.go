package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

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
	cmd  string // "" (the TUI), "list", "describe", "get", "hot", "config"
	args []string
	// configFile is --config; set the settings given as flags (by their name in the file, with
	// their text), which beat the environment and the file; eff the configuration in force.
	configFile string
	set        map[string]string
	eff        *dcfg.Effective
	hotName    string          // hot --name: a saved hotset
	hotStats   []string        // its statistic names, to try in order
	hotFlags   map[string]bool // the hot flags given, which beat the saved hotset's fields
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
	// record
	duration       time.Duration
	volSize        int64         // record --size: a volume's bytes before the next (0: one volume)
	keep           time.Duration // record --keep: how long volumes are kept (0: all)
	archiveVersion int
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

func addCommon(fs *flag.FlagSet, c *headless.Common) {
	fs.StringVar(&c.Procfs, "procfs", "", "read /proc from `DIR` instead of /proc (a fixture tree)")
	fs.StringVar(&c.Sysfs, "sysfs", "", "read /sys from `DIR` instead of /sys")
	fs.StringVar(&c.Source, "source", "host", "data source: host, pcp://PROXY[:PORT] (a host through PCP's pmproxy), or synthetic:disks=N,nics=N,cpus=N,procs=N,seed=N")
	fs.StringVar(&c.Hosts, "hosts", "", "with a pcp:// source, the pmcds to read: `HOSTS` separated by commas, NAME=HOSTSPEC, @FILE (default localhost: pmproxy's own host)")
	fs.Func("archive", "read the PCP archive `BASE` (a pmlogger's: BASE.meta, BASE.0, ...) instead of a live source; again for several hosts' archives, replayed together", func(v string) error {
		if v == "" {
			return fmt.Errorf("an archive's base path, not nothing")
		}
		c.Archives = append(c.Archives, v)
		return nil
	})
	fs.StringVar(&c.From, "from", "", "with --archive: a reading for each sample from `TIME` (as --at) ...")
	fs.StringVar(&c.To, "to", "", "... to `TIME` (default the archive's end)")
	fs.StringVar(&c.At, "at", "", "with --archive: read at `TIME`, a date and time (2026-11-25 03:12, local unless a zone is given, or RFC 3339); default the archive's start")
	fs.BoolVar(&c.ShowLoop, "show-loop", false, "also show loop and ram block devices, pseudo and duplicate file systems")
	fs.StringVar(&c.Host, "host", "", "host name shown in listings (default: the host's own)")
	fs.DurationVar(&c.Liveness, "liveness", collect.DefaultLiveness, "assume a supplier dead after `D` without new data (0 disables, else 15s-600s)")
	fs.Var((*dirList)(&c.Suppliers), "suppliers", "read your own statistics (*.prom, *.om files and programs) from `DIR` (repeatable; default suppliers.d beside the configuration file)")
}

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

// parseArgs turns the command line into a config, or a usage error.
func parseArgs(args []string, stderr io.Writer) (*config, error) {
	cfg := &config{interval: time.Second, count: 1, max: 5, feed: "threshold", except: "none", frequency: 5, theme: "dark", fps: ui.DefaultFPS}
	cmd := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	cfg.cmd = cmd
	fs := flag.NewFlagSet("dcimon "+cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addCommon(fs, &cfg.c)
	fs.StringVar(&cfg.configFile, "config", "", "read the configuration from `FILE` (default $DCIMON_CONFIG, else $XDG_CONFIG_HOME/dcimon/config.toml)")
	switch cmd {
	case "":
		fs.DurationVar(&cfg.interval, "interval", time.Second, "refresh `INTERVAL` (e.g. 1s, 500ms)")
		fs.StringVar(&cfg.theme, "theme", "dark", "colour theme: dark, light, high-contrast, mono (NO_COLOR forces mono)")
		fs.StringVar(&cfg.debug, "debug", "", "write a debug log to `FILE`")
		fs.IntVar(&cfg.fps, "fps", ui.DefaultFPS, "frames per second at most; a frame is drawn only when the screen changes")
	case "list":
		fs.BoolVar(&cfg.c.All, "all", false, "also the implementation datums (arguments of derived statistics)")
		fs.BoolVar(&cfg.types, "types", false, "add the data type and value type line under each statistic")
		fs.BoolVar(&cfg.ids, "ids", false, "add the DCI class, instance and datum ids and the ASN.1 id")
		fs.BoolVar(&cfg.c.JSON, "json", false, "print JSON (see docs/json.md)")
	case "describe":
		fs.BoolVar(&cfg.c.JSON, "json", false, "print JSON (see docs/json.md)")
	case "metrics":
		fs.DurationVar(&cfg.interval, "i", time.Second, "`INTERVAL` between readings; the first is written one interval after start, so rates are over it")
		fs.DurationVar(&cfg.interval, "interval", time.Second, "the same as -i")
		fs.IntVar(&cfg.count, "n", 1, "number of readings to write; 0 writes until interrupted")
		fs.StringVar(&cfg.output, "output", "", "write each reading to `FILE`, whole and atomically (a node_exporter textfile directory's *.prom); default standard output")
		fs.BoolVar(&cfg.c.All, "all", false, "also the implementation datums")
	case "get", "hot":
		fs.DurationVar(&cfg.interval, "i", time.Second, "sampling `INTERVAL` (e.g. 1s, 500ms)")
		fs.DurationVar(&cfg.interval, "interval", time.Second, "the same as -i")
		fs.IntVar(&cfg.count, "n", 1, "number of readings to print; 0 prints until interrupted")
		fs.BoolVar(&cfg.c.JSON, "json", false, "print JSON lines, one object per reading (see docs/json.md)")
		if cmd == "get" {
			fs.BoolVar(&cfg.c.All, "all", false, "wildcards also match the implementation datums")
		}
		if cmd == "hot" {
			fs.IntVar(&cfg.max, "max", 5, "maximum responses per peer group (0 = all)")
			fs.StringVar(&cfg.threshold, "threshold", "0", "threshold `T` in the statistic's display units (50 = 50%, 10MiB on a byte rate): > T qualifies; negative: < |T| qualifies, ascending")
			fs.StringVar(&cfg.feed, "feed", "threshold", "feed type: none, threshold, always")
			fs.StringVar(&cfg.except, "exceptions", "none", "exception type: none, exception, trap, both")
			fs.IntVar(&cfg.frequency, "frequency", 5, "minimum minutes between exceptions (at least 5)")
			fs.IntVar(&cfg.severity, "severity", 0, "severity of exceptions (> 0 when exceptions are on)")
			fs.IntVar(&cfg.trapNo, "trap", 0, "trap number (> 0 when traps are on)")
			fs.StringVar(&cfg.hotName, "name", "", "a hotset of the configuration file by `NAME` (its flags beat the file's fields)")
		}
	case "record":
		fs.DurationVar(&cfg.interval, "i", time.Second, "sampling `INTERVAL` (e.g. 1s)")
		fs.DurationVar(&cfg.interval, "interval", time.Second, "the same as -i")
		fs.DurationVar(&cfg.duration, "duration", 0, "stop after `D` (e.g. 24h); 0 records until interrupted")
		fs.IntVar(&cfg.archiveVersion, "archive-version", 2, "PCP archive format `V`: 2 (what pmlogger writes by default, read by every PCP) or 3")
		fs.Func("size", "begin a new volume (BASE.1, BASE.2, ...) when one reaches `SIZE` (e.g. 100MiB, 1GiB), as pmlogger -v does", func(v string) error {
			n, err := headless.ParseSize(v)
			cfg.volSize = n
			return err
		})
		fs.Func("keep", "remove the volumes whose last sample is older than `AGE` (e.g. 7d, 36h), the volume being written never; with --size", func(v string) error {
			d, err := headless.ParseAge(v)
			cfg.keep = d
			return err
		})
	case "config":
		// The monitor's setting flags, so `dcimon config --theme mono` shows what they do.
		fs.DurationVar(&cfg.interval, "interval", time.Second, "refresh `INTERVAL` (e.g. 1s, 500ms)")
		fs.StringVar(&cfg.theme, "theme", "dark", "colour theme: dark, light, high-contrast, mono")
	case "help":
		return &config{cmd: "help"}, nil
	default:
		return nil, usagef("unknown command %q (commands: list, describe, get, hot, metrics, record, config; no command opens the monitor)", cmd)
	}
	if err := fs.Parse(interleave(fs, args)); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "Usage of dcimon %s:\n", cmd)
			fs.SetOutput(stderr)
			fs.PrintDefaults()
			return &config{cmd: "help-shown"}, nil
		}
		return nil, usagef("%v", err)
	}
	cfg.args = fs.Args()
	cfg.set, cfg.hotFlags = map[string]string{}, map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		cfg.hotFlags[f.Name] = true
		// Only the monitor's interval is the file's; get's and hot's -i are their own.
		if k, ok := settingFlags[f.Name]; ok && (k != "interval" || cmd == "" || cmd == "config") {
			cfg.set[k] = f.Value.String()
		}
	})
	return cfg, cfg.validate()
}

// interleave lets flags follow positional arguments (`dcimon get CPU/user -n 3`), which the
// standard flag package stops at.
func interleave(fs *flag.FlagSet, args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil {
			if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
				continue
			}
			if i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		}
	}
	return append(append(flags, "--"), pos...)
}

func (cfg *config) validate() error {
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
	if (cfg.c.At != "" || cfg.c.From != "" || cfg.c.To != "") && len(cfg.c.Archives) == 0 {
		return usagef("--at, --from and --to apply to --archive")
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
	if (cfg.c.From != "" || cfg.c.To != "") && !cfg.hotFlags["n"] {
		cfg.count = 0 // a series: every sample in it, unless -n says otherwise
	}
	if len(cfg.c.Archives) > 0 {
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
	}
	remote := strings.HasPrefix(cfg.c.Source, "pcp://") || strings.HasPrefix(cfg.c.Source, "pcps://")
	if cfg.c.Source != "host" && !strings.HasPrefix(cfg.c.Source, "synthetic") && !remote {
		return usagef("--source %q: want host, pcp://PROXY[:PORT] or synthetic:disks=N,nics=N,cpus=N,procs=N,seed=N", cfg.c.Source)
	}
	if remote {
		if _, _, err := pmproxy.ParseURL(cfg.c.Source); err != nil {
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
	} else if cfg.c.Hosts != "" {
		return usagef("--hosts applies to a pcp:// source")
	}
	if strings.HasPrefix(cfg.c.Source, "synthetic") {
		if _, err := synthetic.Parse(cfg.c.Source); err != nil {
			return usagef("--source: %v", err)
		}
	}
	if cfg.c.Source != "host" && (cfg.c.Procfs != "" || cfg.c.Sysfs != "") {
		return usagef("--procfs and --sysfs apply to the host source, not to %s", cfg.c.Source)
	}
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
	case "metrics":
		if cfg.count < 0 {
			return usagef("-n %d: want 0 (until interrupted) or more", cfg.count)
		}

	case "hot":
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
	case "config":
		if len(cfg.args) > 2 || (len(cfg.args) == 2 && cfg.args[0] != "check" && cfg.args[0] != "theme") {
			return usagef("config takes no argument, default, check [FILE] or theme NAME")
		}
	case "":
		if len(cfg.args) > 0 {
			return usagef("unexpected argument %q", cfg.args[0])
		}
	}
	return nil
}
