package main

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	"dcimon/collect"
	ns "dcimon/namespace"
)

// env is what a command needs from the process; tests replace the clock and the sleep.
type env struct {
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error
	loc   *time.Location
}

func realEnv() env {
	return env{now: time.Now, loc: time.Local, sleep: func(ctx context.Context, d time.Duration) error {
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

// openSampler builds the providers the flags ask for and the sampler over them.
func openSampler(cfg *config, e env) (*collect.Sampler, error) {
	var provs []collect.Provider
	if strings.HasPrefix(cfg.c.source, "synthetic") {
		opt, err := collect.ParseSynthetic(cfg.c.source)
		if err != nil {
			return nil, usagef("--source: %v", err)
		}
		opt.Now = e.now
		provs = collect.SyntheticProviders(opt)
	} else {
		provs = collect.HostProviders(collect.HostOptions{Procfs: cfg.c.procfs, Sysfs: cfg.c.sysfs, ShowLoop: cfg.c.showLoop})
	}
	s, err := collect.NewSampler(ns.NewRegistry(), provs, collect.Options{Now: e.now, Liveness: cfg.c.liveness})
	if err != nil {
		return nil, fmt.Errorf("starting the providers: %w", err)
	}
	return s, nil
}

// firstReading opens the sampler and takes the first reading, which also fills the name space
// with the instances the providers see.
func firstReading(ctx context.Context, cfg *config, e env) (*collect.Sampler, *ns.Snapshot, error) {
	s, err := openSampler(cfg, e)
	if err != nil {
		return nil, nil, err
	}
	snap, err := s.Sample(ctx)
	if err != nil {
		return nil, nil, err
	}
	return s, snap, nil
}

// expand resolves a path that may hold wildcards (`Disk/*/busy`, `CPU/cpu[01]/idle`) in each
// component, in tree order. A path without wildcards resolves exactly (SPMI-HIER-7/8).
func expand(reg *ns.Registry, pattern string) ([]ns.Ref, error) {
	if !strings.ContainsAny(pattern, "*?[") {
		ref, err := reg.Lookup(nil, pattern)
		if err != nil {
			return nil, err
		}
		return []ns.Ref{ref}, nil
	}
	parts := strings.Split(strings.Trim(pattern, "/"), "/")
	for _, p := range parts {
		if _, err := path.Match(p, ""); err != nil {
			return nil, &ns.Error{Status: ns.StatusInvalidArg, Si: ns.SiBadArgument, Msg: fmt.Sprintf("bad pattern %q: %v", pattern, err)}
		}
	}
	var out []ns.Ref
	reg.Read(func() {
		var walk func(c *ns.Context, i int)
		walk = func(c *ns.Context, i int) {
			last := i == len(parts)-1
			for _, k := range c.Children() {
				if ok, _ := path.Match(parts[i], k.Name); ok {
					if last {
						out = append(out, ns.Ref{Ctx: k})
					} else {
						walk(k, i+1)
					}
				}
			}
			if last && c.Stats != nil {
				for j := range c.Stats.Datums {
					d := &c.Stats.Datums[j]
					if d.ID == ns.InvalidDatumID {
						continue
					}
					if ok, _ := path.Match(parts[i], d.Name); ok {
						out = append(out, ns.Ref{Ctx: c, Datum: d})
					}
				}
			}
		}
		walk(reg.Top(), 0)
	})
	if len(out) == 0 {
		return nil, &ns.Error{Status: ns.StatusNoInstances, Si: ns.SiNotFound, Msg: fmt.Sprintf("nothing matches %q", pattern)}
	}
	return out, nil
}
