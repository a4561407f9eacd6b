package cli

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dcimon/collect"
	"dcimon/headless"
	"dcimon/ui"
)

// The flag groups, in the order help lists them. A flag's group is the annotation groupKey.
const (
	groupKey      = "dcimon_group"
	grpSampling   = "Sampling"
	grpOutput     = "Output"
	grpHotset     = "Hotset"
	grpRecording  = "Recording"
	grpMonitor    = "Monitor"
	grpSource     = "Source"
	grpTime       = "Time and archive"
	grpConfig     = "Configuration"
	grpOtherFlags = "Help"
)

var flagGroups = []string{grpSampling, grpOutput, grpHotset, grpRecording, grpMonitor, grpSource, grpTime, grpConfig, grpOtherFlags}

// exitStatus is every command's, in its help and in the man page.
const exitStatus = `Exit status: 0 on success, 1 on a runtime failure, 2 on a usage error, 128+n after
signal n (130 after SIGINT, 143 after SIGTERM), once the terminal is restored.`

// inGroup puts the flags define adds to fs into group.
func inGroup(fs *pflag.FlagSet, group string, define func()) {
	before := map[string]bool{}
	fs.VisitAll(func(f *pflag.Flag) { before[f.Name] = true })
	define()
	fs.VisitAll(func(f *pflag.Flag) {
		if !before[f.Name] {
			_ = fs.SetAnnotation(f.Name, groupKey, []string{group})
		}
	})
}

// source is which source flags a command takes.
type source int

const (
	noSource     source = iota
	liveSource          // this host, synthetic or pcp://
	anySource           // also PCP archives, at a time
	seriesSource        // also a series of an archive's samples (--from, --to)
)

// addSource adds the flags that choose and shape the source the command reads.
func addSource(fs *pflag.FlagSet, cfg *config, s source) {
	c := &cfg.c
	inGroup(fs, grpSource, func() {
		fs.StringVar(&c.Source, "source", "host", "read `SRC`: host (with --hosts: PCP hosts), pcp://PROXY[:PORT] (hosts through PCP's pmproxy) or synthetic:disks=N,nics=N,cpus=N,procs=N,seed=N")
		fs.StringVar(&c.Hosts, "hosts", "", "PCP hosts to read, each from its own pmcd (through pmproxy with a pcp:// source): `HOSTS` separated by commas, HOST[:PORT][@PROXY], NAME=HOSTSPEC or @FILE (with a pcp:// source, default pmproxy's own host); with --series, globs on the host names (node0*,db?)")
		fs.StringVar(&c.Procfs, "procfs", "", "read /proc from `DIR` (a fixture tree)")
		fs.StringVar(&c.Sysfs, "sysfs", "", "read /sys from `DIR`")
		fs.StringVar(&c.Host, "host", "", "host `NAME` shown in listings and the status bar (default the host's own)")
		fs.BoolVar(&c.ShowLoop, "show-loop", false, "also show loop and ram block devices, pseudo and duplicate file systems")
		fs.DurationVar(&c.Liveness, "liveness", collect.DefaultLiveness, "assume a supplier dead after `D` without new data (0 disables, else 15s to 600s)")
		fs.Var((*dirList)(&c.Suppliers), "suppliers", "read your own statistics (*.prom and *.om files, programs) from `DIR`; repeatable (default suppliers.d beside the configuration file)")
	})
	if s < anySource {
		return
	}
	inGroup(fs, grpTime, func() {
		fs.Func("archive", "read the PCP archive `BASE` (BASE.meta, BASE.index, BASE.0...) instead of a live source; repeat for several hosts' archives, read together", func(v string) error {
			if v == "" {
				return fmt.Errorf("an archive's base path, not nothing")
			}
			c.Archives = append(c.Archives, v)
			return nil
		})
		fs.StringVar(&c.Series, "series", "", "read the history pmproxy's time series hold (`URL`: pcp://PROXY[:PORT]), a host for each of their sources; --hosts takes globs on their names (docs/series.md)")
		fs.StringVar(&c.At, "at", "", "with --archive or --series, read at `TIME` (the last sample at or before it): 03:12 on the first sample's day, 2026-11-25 03:12 (local unless a zone is given), RFC 3339, or -5m before the archive's end (now for --series) (default where the first rates are)")
		if s == seriesSource {
			fs.StringVar(&c.From, "from", "", "with --archive or --series, a reading for each sample from `TIME` (as --at)...")
			fs.StringVar(&c.To, "to", "", "...to `TIME` (default the last sample)")
		}
	})
}

// addConfig adds --config, which every command reading the configuration takes.
func addConfig(fs *pflag.FlagSet, cfg *config) {
	inGroup(fs, grpConfig, func() {
		fs.StringVar(&cfg.configFile, "config", "", "read the configuration from `FILE` (default $DCIMON_CONFIG, else $XDG_CONFIG_HOME/dcimon/config.toml); flags beat DCIMON_* variables, which beat the file")
	})
}

// addSampling adds -i and -n: the interval between readings and how many.
func addSampling(fs *pflag.FlagSet, cfg *config, what string, count bool) {
	inGroup(fs, grpSampling, func() {
		fs.DurationVarP(&cfg.interval, "interval", "i", time.Second, what)
		if count {
			fs.IntVarP(&cfg.count, "count", "n", 1, "print `N` readings; 0 until interrupted")
		}
	})
}

// addJSON adds --json.
func addJSON(fs *pflag.FlagSet, cfg *config, what string) {
	inGroup(fs, grpOutput, func() { fs.BoolVar(&cfg.c.JSON, "json", false, what) })
}

// addAll adds --all.
func addAll(fs *pflag.FlagSet, cfg *config, what string) {
	inGroup(fs, grpOutput, func() { fs.BoolVar(&cfg.c.All, "all", false, what) })
}

// ranCmd marks cfg as parsed for the named command; the command runs after validation, outside
// cobra, so that a usage error is always status 2 and the run's context is the caller's.
func ranCmd(cfg *config, name string) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		cfg.cmd, cfg.args, cfg.parsed = name, args, cmd
		return nil
	}
}

// newCommands builds dcimon's command tree over cfg: every command, flag, help text and
// example, from which help, the completion scripts and the man pages are all made.
func newCommands(cfg *config, comp completer) *cobra.Command {
	root := &cobra.Command{
		Use:   "dcimon",
		Short: "a DCI metrics browser for the terminal",
		Long: `dcimon shows this host's metrics (or hosts' through Performance Co-Pilot, or PCP archives)
as a name space of classes, instances and statistics, with DCI4, PCP and SPMI views of
every one. With no command it opens the interactive monitor; the commands read the same
name space without it, as text or JSON.`,
		Example: `  dcimon                              the monitor on this host
  dcimon --archive /var/log/pcp/pmlogger/db1/20261125 --at 03:12
  dcimon --hosts web1,web2,db1         the monitor on three hosts' pmcds
  dcimon --source pcp://monitor:44322 --hosts web1,web2,db1
  dcimon get CPU/busy 'Disk/*/busy' -i 2s -n 0`,
		RunE:                  ranCmd(cfg, ""),
		Version:               buildVersion(),
		SilenceErrors:         true,
		SilenceUsage:          true,
		DisableFlagsInUseLine: true,
		CompletionOptions:     cobra.CompletionOptions{DisableDefaultCmd: true},
		ValidArgsFunction:     cobra.NoFileCompletions,
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SuggestionsMinimumDistance = 2 // two letters off, or a prefix: "lsit", "lst", "desc"
	fs := root.Flags()
	inGroup(fs, grpMonitor, func() {
		fs.DurationVarP(&cfg.interval, "interval", "i", time.Second, "refresh every `D` (e.g. 1s, 500ms)")
		fs.StringVar(&cfg.theme, "theme", "dark", "colour theme `NAME`: dark, light, high-contrast or mono (NO_COLOR forces mono)")
		fs.StringVar(&cfg.debug, "debug", "", "write a debug log to `FILE`")
		fs.IntVar(&cfg.fps, "fps", ui.DefaultFPS, "draw at most `N` frames a second, 1 to 120; a frame is drawn only when the screen changes")
	})
	addSource(fs, cfg, anySource)
	addConfig(fs, cfg)

	cmds := []*cobra.Command{listCmd(cfg, comp), describeCmd(cfg, comp), getCmd(cfg, comp), hotCmd(cfg, comp), hostsCmd(cfg),
		metricsCmd(cfg, comp), recordCmd(cfg, comp), confCmd(cfg, comp), completionCmd(cfg), manCmd(cfg), versionCmd(cfg)}
	root.AddCommand(cmds...)
	// Help and the man page list the commands in this order, the headless ones first; cobra's own
	// lists (completion) sort them by name.
	var order []string
	for _, c := range cmds {
		order = append(order, c.Name())
	}
	root.Annotations = map[string]string{orderKey: strings.Join(order, " ")}
	root.Flags().BoolP("version", "v", false, "print the version and exit")
	for _, c := range append([]*cobra.Command{root}, root.Commands()...) {
		c.Args = cobra.ArbitraryArgs // validate counts them, with the messages scripts know
		c.Flags().BoolP("help", "h", false, "print this help and exit")
	}
	unquoteArgs(root)
	registerFlagCompletions(root, comp)
	root.SetHelpFunc(func(c *cobra.Command, _ []string) { writeHelp(c.OutOrStdout(), c) })
	root.SetFlagErrorFunc(commandFlagError)
	return root
}

// withSource completes a command that reads a source: it runs as the first word of its Use and
// takes the flags flags adds, then the source's (src) and --config.
func withSource(cfg *config, c *cobra.Command, src source, flags func(fs *pflag.FlagSet)) *cobra.Command {
	c.RunE = ranCmd(cfg, strings.Fields(c.Use)[0])
	fs := c.Flags()
	flags(fs)
	addSource(fs, cfg, src)
	addConfig(fs, cfg)
	return c
}

// listCmd is `dcimon list`: the name space, one line per context and statistic.
func listCmd(cfg *config, comp completer) *cobra.Command {
	return withSource(cfg, &cobra.Command{
		Use:   "list [PATH]",
		Short: "the name space, one line per context and statistic",
		Long: `List the name space under PATH (everything without one), one line per context and statistic,
each with its description: /HOST/ first, contexts ending in "/".`,
		Example: `  dcimon list
  dcimon list CPU --types
  dcimon list Disk --ids --json`,
		ValidArgsFunction: comp.paths(headless.CompletePath, 1),
	}, anySource, func(fs *pflag.FlagSet) {
		addAll(fs, cfg, "also the implementation datums (the arguments of derived statistics)")
		inGroup(fs, grpOutput, func() {
			fs.BoolVar(&cfg.types, "types", false, "add the data type and value type line under each statistic")
			fs.BoolVar(&cfg.ids, "ids", false, "add the DCI class, instance and datum ids and the ASN.1 id")
		})
		addJSON(fs, cfg, "print JSON, one object per line (docs/json.md)")
	})
}

// describeCmd is `dcimon describe`: every attribute of a context or statistic.
func describeCmd(cfg *config, comp completer) *cobra.Command {
	return withSource(cfg, &cobra.Command{
		Use:   "describe PATH",
		Short: "every attribute of a context or statistic, in all four views",
		Long: `Describe a context or statistic: every attribute, in the DCI, DCI4, PCP and SPMI views, with
its current value.`,
		Example: `  dcimon describe CPU/cpu0/idle
  dcimon describe Disk --json`,
		ValidArgsFunction: comp.paths(headless.CompletePath, 1),
	}, anySource, func(fs *pflag.FlagSet) {
		addJSON(fs, cfg, "print JSON (docs/json.md)")
	})
}

// getCmd is `dcimon get`: values, counters as rates over the interval.
func getCmd(cfg *config, comp completer) *cobra.Command {
	return withSource(cfg, &cobra.Command{
		Use:   "get PATH...",
		Short: "values; counters as rates over the interval",
		Long: `Print the values of the statistics PATH names, counters as rates over the interval. Wildcards
match a level at a time ('Disk/*/busy'); a context's path is every statistic in it.`,
		Example: `  dcimon get CPU/busy
  dcimon get 'Disk/*/busy' 'NetIf/*/bytes' -i 2s -n 0
  dcimon get CPU/busy --json
  dcimon get Host/load1 --archive /var/log/pcp/pmlogger/db1/20261125 --from 03:00 --to 04:00`,
		ValidArgsFunction: comp.paths(headless.CompletePath, -1),
	}, seriesSource, func(fs *pflag.FlagSet) {
		addSampling(fs, cfg, "read every `D` (e.g. 1s, 500ms); counters are rates over it", true)
		addAll(fs, cfg, "wildcards also match the implementation datums")
		addJSON(fs, cfg, "print JSON lines, one object per reading (docs/json.md)")
	})
}

// hotCmd is `dcimon hot`: an SPMI hotset reading, also as a monitoring plugin or a watch.
func hotCmd(cfg *config, comp completer) *cobra.Command {
	return withSource(cfg, &cobra.Command{
		Use:   "hot GRANDPARENT STAT",
		Short: "an SPMI hotset reading: the busiest peers",
		Long: `Read a hotset: the peers under GRANDPARENT ranked by their statistic STAT, at most --max of
them, those beyond --threshold (in the units STAT is shown in: 50 is 50%, 10MiB on a byte
rate). --name NAME reads a hotset of the configuration file instead; flags given beat its
fields. --check makes it a monitoring plugin (Nagios, Icinga, Zabbix, Sensu): one status line
with performance data, exit 0 OK, 1 WARNING (a peer past --threshold), 2 CRITICAL (past
--critical), 3 UNKNOWN. --watch prints a line per exception as it starts and as it ends, until
interrupted.`,
		Example: `  dcimon hot Disk busy
  dcimon hot '*/Disk' busy --hosts @/etc/dcimon/fleet
  dcimon hot CPU busy --threshold 50 --max 0
  dcimon hot NetIf bytes --threshold 10MiB -n 0
  dcimon hot --name busiest-disks
  dcimon hot FS %used --threshold 80 --critical 90 --check
  dcimon hot Disk busy --threshold 90 --watch`,
		ValidArgsFunction: comp.hot(),
	}, seriesSource, func(fs *pflag.FlagSet) {
		addSampling(fs, cfg, "read every `D` (e.g. 1s, 500ms)", true)
		inGroup(fs, grpHotset, func() {
			fs.StringVar(&cfg.hotName, "name", "", "read the configuration file's hotset `NAME`")
			fs.IntVar(&cfg.max, "max", 5, "at most `N` responses per peer group (0: all)")
			fs.StringVar(&cfg.threshold, "threshold", "0", "a peer qualifies above `T`, in the statistic's display units; a negative T: below |T|, ascending")
			fs.StringVar(&cfg.feed, "feed", "threshold", "feed `TYPE`: none, threshold or always")
			fs.StringVar(&cfg.except, "exceptions", "none", "exception `TYPE`: none, exception, trap or both")
			fs.IntVar(&cfg.frequency, "frequency", 5, "at least `MIN` minutes between exceptions (5 or more)")
			fs.IntVar(&cfg.severity, "severity", 0, "severity `N` of exceptions (> 0 when exceptions are on)")
			fs.IntVar(&cfg.trapNo, "trap", 0, "trap number `N` (> 0 when traps are on)")
			addHotAlert(fs, cfg)
		})
		addJSON(fs, cfg, "print JSON lines, one object per reading (docs/json.md)")
	})
}

// metricsCmd is `dcimon metrics`: the name space as Prometheus text.
func metricsCmd(cfg *config, comp completer) *cobra.Command {
	return withSource(cfg, &cobra.Command{
		Use:   "metrics [PATH...]",
		Short: "the name space as Prometheus text, with PCP5 lines",
		Long: `Write the name space (or the statistics PATH names) as Prometheus text with PCP5 lines, for a
node_exporter textfile directory or pmdaopenmetrics. The first reading is written one
interval after the start, so rates are over it; --output writes each reading whole, through
a temporary file and a rename.`,
		Example: `  dcimon metrics CPU Disk
  dcimon metrics -i 15s -n 0 --output /var/lib/node_exporter/textfile/dcimon.prom
  dcimon metrics --format openmetrics Disk`,
		ValidArgsFunction: comp.paths(headless.CompletePath, -1),
	}, anySource, func(fs *pflag.FlagSet) {
		addSampling(fs, cfg, "read every `D`; the first reading is written one interval after the start", true)
		inGroup(fs, grpOutput, func() {
			fs.StringVar(&cfg.output, "output", "", "write each reading to `FILE`, whole and atomically (a textfile directory's *.prom); default standard output")
			fs.StringVar(&cfg.format, "format", headless.FormatPrometheus, "`FORMAT`: prometheus (text 0.0.4 with # PCP5 lines, what node_exporter's textfile collector reads) or openmetrics")
		})
		addAll(fs, cfg, "also the implementation datums")
	})
}

// recordCmd is `dcimon record`: this host recorded as a PCP archive.
func recordCmd(cfg *config, comp completer) *cobra.Command {
	return withSource(cfg, &cobra.Command{
		Use:   "record BASE",
		Short: "record this host as a PCP archive",
		Long: `Record this host (or one through pmproxy) as a PCP archive, BASE.meta, BASE.index and BASE.0,
that PCP's own tools read: until interrupted, or for --duration.`,
		Example: `  dcimon record /var/tmp/db1 -i 10s --duration 24h
  dcimon record /var/tmp/db1 --size 256MiB --keep 7d`,
		ValidArgsFunction: comp.files(1),
	}, liveSource, func(fs *pflag.FlagSet) {
		addSampling(fs, cfg, "sample every `D` (e.g. 1s)", false)
		inGroup(fs, grpRecording, func() {
			fs.DurationVar(&cfg.duration, "duration", 0, "stop after `D` (e.g. 24h); 0 records until interrupted")
			fs.IntVar(&cfg.archiveVersion, "archive-version", 2, "PCP archive format `V`: 2 (pmlogger's default, read by every PCP) or 3")
			fs.Func("size", "begin a new volume (BASE.1, BASE.2...) when one reaches `SIZE` (e.g. 100MiB, 1GiB), as pmlogger -v does", func(v string) error {
				n, err := headless.ParseSize(v)
				cfg.volSize = n
				return err
			})
			fs.Func("keep", "remove the volumes whose last sample is older than `AGE` (e.g. 7d, 36h), never the one being written; with --size", func(v string) error {
				d, err := headless.ParseAge(v)
				cfg.keep = d
				return err
			})
		})
	})
}

// confCmd is `dcimon config`: the configuration in force, the default file, a check, a
// theme. It takes the monitor's setting flags, so that `dcimon config --theme mono` shows what
// they do, and the source's: `config check` resolves the file's hotsets against its name space.
func confCmd(cfg *config, comp completer) *cobra.Command {
	return withSource(cfg, &cobra.Command{
		Use:   "config [default | check [FILE] | theme NAME]",
		Short: "the configuration in force, the default file, a check, a theme",
		Long: `With no argument, print the configuration in force and where each value comes from (a flag,
a DCIMON_* variable, the file or the default). default prints the annotated default file;
check validates a file (the configuration's own by default); theme NAME prints a built-in
theme as a file to copy.`,
		Example: `  dcimon config
  dcimon config --theme mono
  dcimon config default > ~/.config/dcimon/config.toml
  dcimon config check
  dcimon config theme dark > ~/.config/dcimon/themes/mine.toml`,
		ValidArgsFunction: comp.config(),
	}, liveSource, func(fs *pflag.FlagSet) {
		inGroup(fs, grpMonitor, func() {
			fs.DurationVarP(&cfg.interval, "interval", "i", time.Second, "refresh every `D` (e.g. 1s, 500ms)")
			fs.StringVar(&cfg.theme, "theme", "dark", "colour theme `NAME`: dark, light, high-contrast or mono")
		})
	})
}

// orderKey is the root's annotation that lists its commands in help's order.
const orderKey = "dcimon_order"

// orderedCommands is root's commands in the order they are defined, then any cobra added.
func orderedCommands(root *cobra.Command) []*cobra.Command {
	rank := map[string]int{}
	for i, n := range strings.Fields(root.Annotations[orderKey]) {
		rank[n] = i + 1
	}
	cs := slices.Clone(root.Commands())
	slices.SortStableFunc(cs, func(a, b *cobra.Command) int {
		ra, rb := rank[a.Name()], rank[b.Name()]
		if ra == 0 {
			ra = len(rank) + 1
		}
		if rb == 0 {
			rb = len(rank) + 1
		}
		return ra - rb
	})
	return cs
}

// argKey is the annotation holding the name of a flag's argument, `D` in its usage as written.
const argKey = "dcimon_arg"

// unquoteArgs moves each flag's argument name out of its usage (pflag's `NAME` convention)
// into the annotation argKey: help and the man page show it beside the flag, and the shells'
// completion descriptions read the usage without the back quotes.
func unquoteArgs(c *cobra.Command) {
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !strings.Contains(f.Usage, "`") {
			return
		}
		name, usage := pflag.UnquoteUsage(f)
		f.Usage = usage
		_ = c.Flags().SetAnnotation(f.Name, argKey, []string{name})
	})
	for _, s := range c.Commands() {
		unquoteArgs(s)
	}
}

// flagArg is the name of a flag's argument: "" for a switch.
func flagArg(f *pflag.Flag) string {
	if a := f.Annotations[argKey]; len(a) == 1 {
		return a[0]
	}
	name, _ := pflag.UnquoteUsage(f)
	return name
}

// versionCmd is `dcimon version`, the same as --version.
func versionCmd(cfg *config) *cobra.Command {
	return &cobra.Command{
		Use:               "version",
		Short:             "the module version, VCS revision and toolchain of this binary",
		Example:           "  dcimon version\n  dcimon --version",
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              ranCmd(cfg, "version"),
	}
}

// useLine is a command's synopsis as help and the man page show it.
func useLine(c *cobra.Command) string {
	if !c.HasParent() {
		return "dcimon [flags]"
	}
	return strings.TrimSpace("dcimon " + c.Use + " [flags]")
}

// pflagInvalid is pflag's error for a value its flag cannot take.
var pflagInvalid = regexp.MustCompile(`^invalid argument (".*") for "(.*)" flag: (.*)$`)

// flagError is a malformed flag as a usage error, worded as before the move to pflag
// ("invalid value "x" for -n, --count: ..."), without strconv's function names.
func flagError(err error) error {
	m := pflagInvalid.FindStringSubmatch(err.Error())
	if m == nil {
		return usagef("%v", err)
	}
	why := m[3]
	if i := strings.LastIndex(why, ": "); i >= 0 && strings.HasPrefix(why, "strconv.") {
		why = why[i+2:]
	}
	return usagef("invalid value %s for %s: %s", m[1], m[2], why)
}
