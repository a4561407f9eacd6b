package headless

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"dcimon/collect"
	"dcimon/collect/dds"
	"dcimon/collect/linux"
	"dcimon/collect/pcp"
	"dcimon/collect/synthetic"
	"dcimon/internal/regular"
	ns "dcimon/namespace"
	"dcimon/pcparchive"
	"dcimon/views"
)

// Env is what a command needs from the process; tests replace the clock and the sleep.
type Env struct {
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	Loc   *time.Location
	// Getenv reads the environment (the configuration file's place and DCIMON_* settings); nil
	// is os.Getenv.
	Getenv func(string) string
	// Process says the command is the whole process (the binary's, RealEnv), so that a recording
	// may set how many processors it runs on; never in a test sharing its process with others.
	Process bool
}

// Env returns the environment variable key through e.Getenv.
func (e Env) Env(key string) string {
	if e.Getenv == nil {
		return os.Getenv(key)
	}
	return e.Getenv(key)
}

// RealEnv is the process's own clock, sleep and time zone.
func RealEnv() Env {
	return Env{Now: time.Now, Loc: time.Local, Sleep: func(ctx context.Context, d time.Duration) error {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}, Process: true}
}

// OpenSampler builds the providers the common flags ask for and the sampler over them: every
// headless command's.
func OpenSampler(c Common, e Env) (*collect.Sampler, error) {
	s, _, err := OpenSource(c, e)
	return s, err
}

// OpenSource is OpenSampler, with the recorded past read when the source is PCP archives or
// pmproxy's time series (nil otherwise): the monitor's time cursor moves through it.
func OpenSource(c Common, e Env) (_ *collect.Sampler, past collect.History, _ error) {
	src, err := openProviders(c, e)
	if err != nil {
		return nil, nil, err
	}
	if c.watch != nil {
		src.provs = c.watch(src.provs)
	}
	// dcimon's own cost is this process's, whatever the source.
	opt := collect.Options{Now: src.clock, Replay: src.past != nil, Liveness: c.Liveness, Deadline: src.deadline, NoDerived: c.noDerived}
	if !c.noSelf {
		opt.Self = (&linux.SelfReader{}).Read
	}
	if len(c.Suppliers) > 0 {
		opt.Discover = dds.New(dds.Options{Dirs: c.Suppliers})
	}
	s, err := collect.NewSampler(ns.NewRegistry(), src.provs, opt)
	if err != nil {
		return nil, nil, fmt.Errorf("starting the providers: %w", err)
	}
	noteArchives(s, src.past)
	return s, src.past, nil
}

// openedSource is what a source gives its sampler: the providers, the collection's deadline
// (0: the sampler's default), the clock its readings are timed by, and the recorded past read
// (nil for a live source).
type openedSource struct {
	provs    []collect.Provider
	deadline time.Duration
	clock    func() time.Time
	past     collect.History
}

// openProviders opens the source the options name: pmproxy's time series, PCP archives, PCP
// hosts, the synthetic source, or this host.
func openProviders(c Common, e Env) (openedSource, error) {
	remote := strings.HasPrefix(c.Source, "pcp://") || strings.HasPrefix(c.Source, "pcps://")
	switch {
	case c.Series != "":
		return openSeriesSource(c, e)
	case len(c.Archives) > 0:
		return openArchiveSource(c, e)
	case remote || c.Hosts != "" || c.HostList != nil:
		return openFleetSource(c, e, remote)
	case strings.HasPrefix(c.Source, "synthetic"):
		opt, err := synthetic.Parse(c.Source)
		if err != nil {
			return openedSource{}, Usagef("--source: %v", err)
		}
		opt.Now = e.Now
		return openedSource{provs: synthetic.Providers(opt), clock: e.Now}, nil
	}
	provs := linux.Providers(linux.Options{Procfs: c.Procfs, Sysfs: c.Sysfs, ShowLoop: c.ShowLoop})
	for _, p := range provs {
		pcp.DescribeLinuxPMDA(p.Classes()) // describe names the PMDA's metric as through pmcd
	}
	return openedSource{provs: provs, clock: e.Now}, nil
}

// openSeriesSource opens pmproxy's time series (issue 34): every host they hold, or those
// --hosts names, read from --at or --from.
func openSeriesSource(c Common, e Env) (openedSource, error) {
	pw, err := pcpPassword(e)
	if err != nil {
		return openedSource{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), seriesOpenDeadline)
	defer cancel()
	ser, err := pcp.OpenSeries(ctx, pcp.SeriesOptions{URL: c.Series, Password: pw, Hosts: SeriesHosts(c.Hosts)})
	if err != nil {
		return openedSource{}, fmt.Errorf("--series: %w", err)
	}
	day, _ := ser.Span()
	var at time.Time
	for _, t := range []struct{ flag, v string }{{"--at", c.At}, {"--from", c.From}} {
		if t.v != "" {
			if at, err = ParseAtEnd(t.v, e.Loc, day, c.endOf(nil, e)); err != nil {
				return openedSource{}, Usagef("%s: %v", t.flag, err)
			}
		}
	}
	provs, err := pcp.SeriesProviders(ser, at, c.From != "")
	if err != nil {
		return openedSource{}, err
	}
	// Each request has its own deadline (pcp.SeriesOptions).
	return openedSource{provs: provs, deadline: 30 * time.Second, clock: ser.Clock, past: ser}, nil
}

// openArchiveSource opens PCP archives, read from --at or --from.
func openArchiveSource(c Common, e Env) (openedSource, error) {
	at, err := archivesAt(c, e)
	if err != nil {
		return openedSource{}, err
	}
	provs, as, err := pcp.ArchiveProviders(c.Archives, at, c.From != "", pcp.Options{ShowLoop: c.ShowLoop})
	if err != nil {
		return openedSource{}, err
	}
	// Local files: a slow disk, not a host that does not answer.
	return openedSource{provs: provs, deadline: 30 * time.Second, clock: as.Clock, past: as}, nil
}

// archivesAt is the time --at or --from names in the archives (zero: neither is given).
func archivesAt(c Common, e Env) (time.Time, error) {
	var at time.Time
	for _, t := range []struct{ flag, v string }{{"--at", c.At}, {"--from", c.From}} {
		if t.v != "" {
			var err error
			end := time.Time{}
			if _, rel, _ := Relative(t.v); rel {
				// Before the archives' end: their last sample (issue 39 item 6).
				if end, err = pcp.ArchivesEnd(c.Archives); err != nil {
					return time.Time{}, err
				}
			}
			if at, err = ParseAtEnd(t.v, e.Loc, c.ArchiveDay(), end); err != nil {
				return time.Time{}, Usagef("%s: %v", t.flag, err)
			}
		}
	}
	return at, nil
}

// openFleetSource opens PCP hosts: through pmproxy's REST API with a pcp:// source (remote),
// else each on a connection of its own to its pmcd, in PCP's own protocol (issue 31).
func openFleetSource(c Common, e Env, remote bool) (openedSource, error) {
	hosts := c.HostList
	if hosts == nil {
		var err error
		if hosts, err = ParseHosts(c.Hosts, ReadHostsFile); err != nil {
			return openedSource{}, Usagef("%v", err)
		}
	}
	o := pcp.Options{Interval: c.Interval, ShowLoop: c.ShowLoop}
	deadline := pcp.NativeDeadline(len(hosts))
	if remote {
		pw, err := pcpPassword(e)
		if err != nil {
			return openedSource{}, err
		}
		o.URL, o.Password = c.Source, pw
		deadline = pcp.FleetDeadline(len(hosts))
	}
	// A host's requests have the deadline above; the collection waits for them only up to
	// most of the interval, so a slow host never delays the others' readings (issue 40).
	o.Deadline = deadline
	deadline = pcp.CollectDeadline(c.Interval, deadline)
	provs, err := pcp.Fleet(o, hosts)
	if err != nil && remote {
		return openedSource{}, Usagef("--source: %v", err)
	} else if err != nil {
		return openedSource{}, Usagef("--hosts: %v", err)
	}
	return openedSource{provs: provs, deadline: deadline, clock: e.Now}, nil
}

// seriesOpenDeadline bounds the opening of a series source: the metrics' series resolved, the
// hosts named, their first and last samples found (each request within its own deadline).
const seriesOpenDeadline = 60 * time.Second

// SeriesHosts are the globs --hosts gives with --series (host names, separated by commas).
func SeriesHosts(s string) []string {
	var out []string
	for _, g := range strings.Split(s, ",") {
		if g = strings.TrimSpace(g); g != "" {
			out = append(out, g)
		}
	}
	return out
}

// firstReading opens the sampler and takes the first reading, which also fills the name space
// with the instances the providers see. The on-demand classes the paths reach (the processes
// of `Proc/*/rss`) are subscribed to for the command's life; the rest are read as always.
func firstReading(ctx context.Context, c Common, e Env, paths ...string) (*collect.Sampler, *ns.Snapshot, error) {
	s, _, snap, _, err := firstReadingOf(ctx, c, e, paths...)
	return s, snap, err
}

// firstReadingOf is firstReading, with the recorded past read (archives or time series; nil for
// a live source), whose damage the command says once it has printed what was read before it
// (damaged), and the day a time of day is on (TimeDay).
func firstReadingOf(ctx context.Context, c Common, e Env, paths ...string) (*collect.Sampler, collect.History, *ns.Snapshot, time.Time, error) {
	return openAndReach(ctx, c, e, nil, paths)
}

// firstNamedReadingOf is firstReadingOf for a command that prints only the statistics its
// patterns name (get; hot's peers): no other class is read, the first reading included
// (Sampler.Confine, issue 38 item 1), so `get Disk/*/busy` reads no partition.
func firstNamedReadingOf(ctx context.Context, c Common, e Env, patterns, paths []string) (*collect.Sampler, collect.History, *ns.Snapshot, time.Time, error) {
	var named []string
	for _, p := range patterns {
		named = append(named, namedForms(c, p)...)
	}
	return openAndReach(ctx, c, e, named, paths)
}

// namedForms are the paths a command's path may come to mean once the name space is read
// (hostPath): with its host's component and without, and on a fleet under every host.
func namedForms(c Common, p string) []string {
	if rest, ok := strings.CutPrefix(p, "/"); ok {
		if _, after, ok := strings.Cut(rest, "/"); ok && !c.Fleet {
			return []string{rest, after}
		}
		return []string{rest}
	}
	if c.Fleet && p != "" {
		return []string{p, "*/" + p}
	}
	return []string{p}
}

// openAndReach opens the source, confines its sampler to the classes named (when any) and
// takes the first reading.
func openAndReach(ctx context.Context, c Common, e Env, named, paths []string) (*collect.Sampler, collect.History, *ns.Snapshot, time.Time, error) {
	s, past, err := OpenSource(c, e)
	if err != nil {
		return nil, nil, nil, time.Time{}, err
	}
	if len(named) > 0 {
		s.Confine(named...)
	}
	day := c.TimeDay(past)
	snap, err := reach(ctx, c, s, past, paths)
	if err != nil {
		return nil, nil, nil, time.Time{}, err
	}
	return s, past, snap, day, nil
}

// reach takes the first reading (firstReading).
func reach(ctx context.Context, c Common, s *collect.Sampler, past collect.History, paths []string) (*ns.Snapshot, error) {
	for _, p := range paths {
		if cs := s.Registry().OnDemand(p); len(cs) > 0 {
			s.Subscribe(cs...)
		}
	}
	snap, err := s.Sample(ctx)
	if err != nil {
		return nil, err
	}
	// A path into a host's PCP name space is read a level at a time: as the name space will
	// name it (every host's, for a path without one), and without its host on a single host.
	var along []string
	for _, p := range paths {
		along = append(along, hostPath(c, s.Registry(), p))
		if rest, ok := strings.CutPrefix(p, "/"); ok && !c.Fleet {
			if _, after, ok := strings.Cut(rest, "/"); ok {
				along = append(along, after)
			}
		}
	}
	if h, ok := past.(interface{ Hold(bool) }); ok {
		// The levels of a PCP/ path are reached at the time read, not one sample each later.
		h.Hold(true)
		defer h.Hold(false)
	}
	if snap, err = s.Reach(ctx, snap, along...); err != nil {
		return nil, err
	}
	return awaitSuppliers(ctx, c, s, snap, paths)
}

// suppliersWait is how long a command waits at most for users' suppliers that may name one of
// its paths (awaitSuppliers).
const suppliersWait = 5 * time.Second

// awaitSuppliers reads again while one of paths names nothing yet and a user's supplier may
// still come to name it: a discovery not answered yet, or a supplier found that has not
// answered yet (a program's first run may take seconds: `dcimon get DDS/example/...` said "no
// statistic" of a program supplier that was there, on a loaded host). It reads a tenth of a
// second apart, for suppliersWait at most; a path that names nothing then is the error it was.
func awaitSuppliers(ctx context.Context, c Common, s *collect.Sampler, snap *ns.Snapshot, paths []string) (*ns.Snapshot, error) {
	until := time.Now().Add(suppliersWait)
	// A supplier's first answer declares its classes at the collection after the one that took
	// it: one more reading once none is coming.
	was := false
	for unnamed(c, s.Registry(), paths) && time.Now().Before(until) {
		coming := suppliersComing(s)
		if !coming && !was {
			break
		}
		was = coming
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		var err error
		if snap, err = s.Sample(ctx); err != nil {
			return nil, err
		}
	}
	return snap, nil
}

// unnamed says one of paths names nothing in reg, in any of the forms it may take (hostPath).
func unnamed(c Common, reg *ns.Registry, paths []string) bool {
	for _, p := range paths {
		if refs, err := reg.Glob(hostPath(c, reg, p)); err != nil || len(refs) == 0 {
			return true
		}
	}
	return false
}

// suppliersComing says a user's supplier may still add classes: a discovery is running, or a
// supplier found has not answered yet: none of its collections has, and it is "idle", "busy",
// or its last collection did not answer within the deadline (a program still running). One
// whose collections failed otherwise (a program that exits with an error) is not waited for.
func suppliersComing(s *collect.Sampler) bool {
	if s.Discovering() {
		return true
	}
	for _, st := range s.Status() {
		if st.Dynamic && st.Successes == 0 && (st.State == "idle" || st.State == "busy" || errors.Is(st.LastErr, collect.ErrNoAnswer)) {
			return true
		}
	}
	return false
}

// damaged is err with the damage met in the archives read, if any (issue 30 item 9): a command
// that read an archive up to a damaged record has printed what was before it, and then fails,
// saying which file, where and what.
func damaged(past collect.History, err error) error {
	d, ok := past.(interface{ Damage() error })
	if !ok {
		return err
	}
	if derr := d.Damage(); derr != nil {
		return errors.Join(derr, err)
	}
	return err
}

// Common holds what every command accepts: where the values come from, and how to print them.
type Common struct {
	// Interval is how often the command (or the monitor) reads: a remote host's pmproxy context
	// is made to outlive two of them (issue 31). Each command sets it from its own.
	Interval      time.Duration
	Procfs, Sysfs string        // read /proc and /sys from these trees (fixtures)
	Source        string        // "host" or "synthetic:..."
	ShowLoop      bool          // also show loop and ram block devices, pseudo and duplicate file systems
	Host          string        // the host name to show; "" for the host's own
	Liveness      time.Duration // a supplier is assumed dead after this long without new data
	JSON          bool          // machine-readable output (docs/json.md)
	All           bool          // list and get: also the implementation datums (Datum.Aux)
	NetBits       bool          // interfaces' byte rates in bits per second (net_units = "bits")
	Suppliers     []string      // directories of users' suppliers, read under DDS (issue 18)
	Hosts         string        // PCP hosts (ParseHosts): each pmcd on its own; with a pcp:// source, through it ("" is localhost)
	Archives      []string      // PCP archives to read instead of a live source, a host each (issue 15)
	Series        string        // pmproxy's time series to read instead (pcp://PROXY[:PORT], issue 34); Hosts are globs on their host names
	At            string        // with Archive: the time to read at (ParseAt); "" its start
	From, To      string        // with Archive: read the samples from From to To (ParseAt), a reading each
	HostList      []pcp.Host    // Hosts as the command line parsed it once; nil: parse Hosts
	// Fleet says the source has several hosts, each the first component of its paths
	// (`web1/Disk/sda`): listings then print `/web1/Disk/sda`, without a host of their own.
	Fleet bool
	// noSelf leaves dcimon's own process unread (its Monitor class n/a): a recording does not
	// write it (its /proc/self reads were 11% of a recording's profile at 100 ms; at 1 s, side by
	// side, within the runs' noise: issue 38 item 4).
	noSelf bool
	// watch, in tests, stands between the sampler and the source's providers (what a command
	// has read).
	watch func([]collect.Provider) []collect.Provider
	// noDerived leaves the derived datums uncomputed (collect.Options.NoDerived): a recording
	// writes the datums read only (issue 38 item 4).
	noDerived bool
}

// ParseHosts reads --hosts: hostspecs separated by commas (`web1,db1:44321`), each optionally
// named (`db=10.0.0.5:44321`), and `@FILE` for a file of them, one a line, `#` starting a
// comment. A name is a path component: no `/`, at most 31 bytes, and no two hosts share one;
// an unnamed socket (`unix:PATH`, `local:`) is named `local`.
func ParseHosts(s string, readFile func(string) ([]byte, error)) ([]pcp.Host, error) {
	if s == "" {
		return []pcp.Host{{Name: "localhost", Spec: "localhost"}}, nil
	}
	var items []string
	for _, it := range strings.Split(s, ",") {
		it = strings.TrimSpace(it)
		if f, ok := strings.CutPrefix(it, "@"); ok {
			data, err := readFile(f)
			if err != nil {
				return nil, fmt.Errorf("--hosts %s: %w", it, err)
			}
			for _, l := range strings.Split(string(data), "\n") {
				if i := strings.IndexByte(l, '#'); i >= 0 {
					l = l[:i]
				}
				if l = strings.TrimSpace(l); l != "" {
					items = append(items, l)
				}
			}
			continue
		}
		items = append(items, it)
	}
	var out []pcp.Host
	seen := map[string]bool{}
	for _, it := range items {
		name, spec, named := strings.Cut(it, "=")
		if !named {
			spec = name
			if strings.HasPrefix(spec, "unix:") || strings.HasPrefix(spec, "local:") {
				name = "local" // a socket's path is no path component
			}
		}
		name, spec = strings.TrimSpace(name), strings.TrimSpace(spec)
		switch {
		case spec == "" || name == "":
			return nil, fmt.Errorf("--hosts: %q: want HOSTSPEC or NAME=HOSTSPEC", it)
		case strings.ContainsAny(spec, " \t"):
			return nil, fmt.Errorf("--hosts: hostspec %q has white space", spec)
		case ns.ValidateName(name) != nil:
			return nil, fmt.Errorf("--hosts: host name %q: %v", name, ns.ValidateName(name))
		case seen[name]:
			return nil, fmt.Errorf("--hosts: two hosts named %q (name one: NAME=HOSTSPEC)", name)
		}
		seen[name] = true
		out = append(out, pcp.Host{Name: name, Spec: spec})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--hosts %q names no host", s)
	}
	if len(out) > MaxHosts {
		return nil, fmt.Errorf("--hosts: %d hosts, at most %d", len(out), MaxHosts)
	}
	return out, nil
}

// MaxHosts is how many hosts --hosts takes: issue 38's budget is a fleet of 10,000 pmcds read
// every second (each a connection, so the process needs as many file descriptors: ulimit -n).
const MaxHosts = 10000

// Bounds of the files a user names to headless commands: a longer one (or /dev/zero) is an
// error naming it, not an allocation of whatever it holds.
const (
	maxPasswordFile = 64 << 10
	maxHostsFile    = 4 << 20 // MaxHosts hosts of a long line (400 bytes) each
)

// ReadHostsFile reads the file of --hosts @FILE: a regular file only, bounded, under a deadline
// (regular.ReadFile), so a named pipe or /dev/zero named there is an error, never a hang.
func ReadHostsFile(path string) ([]byte, error) {
	return regular.ReadFile(context.Background(), path, maxHostsFile)
}

// UsageError is a malformed request: the command line's fault, exit status 2.
type UsageError struct {
	Msg string
	// Cmd is the command whose --help the error points at ("get"; "" for the monitor or
	// when not known).
	Cmd string
}

func (e *UsageError) Error() string { return e.Msg }

// Usagef is a UsageError with a formatted message.
func Usagef(format string, args ...any) error { return &UsageError{Msg: fmt.Sprintf(format, args...)} }

// pcpPassword is the password of a pcp://user@host source: DCIMON_PCP_PASSWORD, else the first
// line of the file DCIMON_PCP_PASSWORD_FILE names; never a command-line argument.
func pcpPassword(e Env) (string, error) {
	if pw := e.Env("DCIMON_PCP_PASSWORD"); pw != "" {
		return pw, nil
	}
	f := e.Env("DCIMON_PCP_PASSWORD_FILE")
	if f == "" {
		return "", nil
	}
	data, err := regular.ReadFile(context.Background(), f, maxPasswordFile)
	if err != nil {
		return "", fmt.Errorf("DCIMON_PCP_PASSWORD_FILE: %w", err)
	}
	pw, _, _ := strings.Cut(string(data), "\n")
	return strings.TrimRight(pw, "\r"), nil
}

// ParseAt reads --at, --from and --to (views.ParseTime): an RFC 3339 time, a date and time in loc
// (2026-11-25 03:12[:05]), or a time of day (03:12) on the day of day, the archive's start.
func ParseAt(s string, loc *time.Location, day time.Time) (time.Time, error) {
	if before, ok, err := Relative(s); ok {
		if err != nil {
			return time.Time{}, err
		}
		return time.Now().Add(-before), nil // before now: ParseAtEnd reads it before an archive's end
	}
	t, clock, err := views.ParseTime(s, loc, day)
	if err != nil {
		return time.Time{}, fmt.Errorf("%w; a time of day is on the archive's first day, or the next", err)
	}
	// A time of day on the archive's first day, or the next when that is before its start (an
	// archive from 22:00 to 06:00 has 03:12 on its second day).
	if clock && t.Before(day.Truncate(time.Minute)) {
		t = t.AddDate(0, 0, 1)
	}
	return t, nil
}

// ArchiveDay is the start of the first archive the flags name (zero when there is none, or it
// cannot be read: opening it says why), the day a time of day is on.
func (c Common) ArchiveDay() time.Time {
	if len(c.Archives) == 0 {
		return time.Time{}
	}
	l, err := pcparchive.ReadLabel(c.Archives[0])
	if err != nil {
		return time.Time{}
	}
	return l.Start
}

// TimeDay is the day a time of day (--at 03:12) is on: the first archive's start, or the time
// series' first sample (past, as OpenSource opened it).
func (c Common) TimeDay(past collect.History) time.Time {
	if c.Series != "" && past != nil {
		first, _ := past.Span()
		return first
	}
	return c.ArchiveDay()
}

// Archived says the command reads an archive or time series: its readings follow one another
// without waiting.
func (c Common) Archived() bool { return len(c.Archives) > 0 || c.Series != "" }

// pastTo says whether a reading at a time is after --to (the series is over), with --to read
// once for the series, a time of day on day (TimeDay), a relative one before end; never
// without --to.
func (c Common) pastTo(loc *time.Location, day, end time.Time) func(time.Time) bool {
	if c.To == "" {
		return func(time.Time) bool { return false }
	}
	to, err := ParseAtEnd(c.To, loc, day, end)
	return func(t time.Time) bool { return err == nil && t.After(to) }
}

// archiveEnded says the archive a sampler reads has no sample after the last one read.
func archiveEnded(s *collect.Sampler) bool {
	for _, st := range s.Status() {
		if st.LastErr != nil && errors.Is(st.LastErr, collect.ErrArchiveEnd) {
			return true
		}
	}
	return false
}

// hostPath is a path as the name space names it (issue 14). A leading `/<host>/`, as list prints
// paths, is the host's own context on a source of several hosts, and is dropped on a single host
// when the rest names something. On a source of several hosts a path whose first component names
// no host names every host: `Disk/*/busy` is `*/Disk/*/busy`.
func hostPath(c Common, reg *ns.Registry, p string) string {
	if rest, ok := strings.CutPrefix(p, "/"); ok {
		if c.Fleet {
			return rest
		}
		if _, after, ok := strings.Cut(rest, "/"); ok {
			if refs, err := reg.Glob(after); err == nil && len(refs) > 0 {
				return after
			}
		}
		return rest
	}
	if c.Fleet && p != "" {
		if refs, err := reg.Glob(p); err == nil && len(refs) > 0 {
			return p
		}
		return "*/" + p
	}
	return p
}
