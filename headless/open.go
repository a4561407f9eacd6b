package headless

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"dcimon/collect"
	ns "dcimon/namespace"
)

// Env is what a command needs from the process; tests replace the clock and the sleep.
type Env struct {
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	Loc   *time.Location
	// Getenv reads the environment (the configuration file's place and DCIMON_* settings); nil
	// is os.Getenv.
	Getenv func(string) string
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
	}}
}

// OpenSampler builds the providers the common flags ask for and the sampler over them: the
// monitor's and every headless command's.
func OpenSampler(c Common, e Env) (*collect.Sampler, error) {
	var provs []collect.Provider
	if strings.HasPrefix(c.Source, "pcp://") || strings.HasPrefix(c.Source, "pcps://") {
		host := c.Hosts
		if host == "" {
			host = "localhost"
		}
		pw, err := pcpPassword(e)
		if err != nil {
			return nil, err
		}
		provs, err = collect.PCPProviders(collect.PCPOptions{URL: c.Source, Hostspec: host, Password: pw})
		if err != nil {
			return nil, Usagef("--source: %v", err)
		}
	} else if strings.HasPrefix(c.Source, "synthetic") {
		opt, err := collect.ParseSynthetic(c.Source)
		if err != nil {
			return nil, Usagef("--source: %v", err)
		}
		opt.Now = e.Now
		provs = collect.SyntheticProviders(opt)
	} else {
		provs = collect.HostProviders(collect.HostOptions{Procfs: c.Procfs, Sysfs: c.Sysfs, ShowLoop: c.ShowLoop})
	}
	opt := collect.Options{Now: e.Now, Liveness: c.Liveness}
	if len(c.Suppliers) > 0 {
		opt.Discover = collect.NewDDS(collect.DDSOptions{Dirs: c.Suppliers})
	}
	s, err := collect.NewSampler(ns.NewRegistry(), provs, opt)
	if err != nil {
		return nil, fmt.Errorf("starting the providers: %w", err)
	}
	return s, nil
}

// firstReading opens the sampler and takes the first reading, which also fills the name space
// with the instances the providers see. The on-demand classes the paths reach (the processes
// of `Proc/*/rss`) are subscribed to for the command's life; the rest are read as always.
func firstReading(ctx context.Context, c Common, e Env, paths ...string) (*collect.Sampler, *ns.Snapshot, error) {
	s, err := OpenSampler(c, e)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range paths {
		if cs := s.Registry().OnDemand(p); len(cs) > 0 {
			s.Subscribe(cs...)
		}
	}
	snap, err := s.Sample(ctx)
	if err != nil {
		return nil, nil, err
	}
	return s, snap, nil
}

// Common holds what every command accepts: where the values come from, and how to print them.
type Common struct {
	Procfs, Sysfs string        // read /proc and /sys from these trees (fixtures)
	Source        string        // "host" or "synthetic:..."
	ShowLoop      bool          // also show loop and ram block devices, pseudo and duplicate file systems
	Host          string        // the host name to show; "" for the host's own
	Liveness      time.Duration // a supplier is assumed dead after this long without new data
	JSON          bool          // machine-readable output (docs/json.md)
	All           bool          // list and get: also the implementation datums (Datum.Aux)
	NetBits       bool          // interfaces' byte rates in bits per second (net_units = "bits")
	Suppliers     []string      // directories of users' suppliers, read under DDS (issue 18)
	Hosts         string        // with a pcp:// source: the pmcd's hostspec ("" is localhost)
}

// UsageError is a malformed request: the command line's fault, exit status 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Usagef is a UsageError with a formatted message.
func Usagef(format string, args ...any) error { return &UsageError{fmt.Sprintf(format, args...)} }

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
	data, err := os.ReadFile(f)
	if err != nil {
		return "", fmt.Errorf("DCIMON_PCP_PASSWORD_FILE: %w", err)
	}
	pw, _, _ := strings.Cut(string(data), "\n")
	return strings.TrimRight(pw, "\r"), nil
}
