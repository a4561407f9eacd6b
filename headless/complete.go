package headless

import (
	"context"
	"strings"

	ns "dcimon/namespace"
)

// CompleteKind says what a path argument may name, for shell completion.
type CompleteKind int

const (
	// CompletePath is any context or statistic (list, describe, get, metrics).
	CompletePath CompleteKind = iota
	// CompleteContext is contexts only (hot's GRANDPARENT).
	CompleteContext
	// CompleteStat is the statistic names of a grandparent's children (hot's STAT).
	CompleteStat
)

// String names the kind, for test failures.
func (k CompleteKind) String() string {
	switch k {
	case CompletePath:
		return "path"
	case CompleteContext:
		return "context"
	case CompleteStat:
		return "stat"
	}
	return "unknown"
}

// Complete returns what may follow typed in the name space of the source c names, one level
// at a time as a shell completes file names: for "CPU/c" the children of CPU ("CPU/cpu0/",
// "CPU/user", ...), contexts ending in "/". The shell keeps those that start with what was
// typed. For CompleteStat, grandparent is hot's GRANDPARENT and the answer is the names of the
// statistics its children hold. The source is read once, as the first reading of a command;
// the caller bounds ctx, since a remote source may not answer.
func Complete(ctx context.Context, c Common, e Env, kind CompleteKind, typed, grandparent string) ([]string, error) {
	dir, shown := "", ""
	if i := strings.LastIndex(typed, "/"); i >= 0 {
		dir, shown = typed[:i], typed[:i+1]
	}
	if kind == CompleteStat {
		dir, shown = grandparent, ""
	}
	s, _, err := firstReading(ctx, c, e, dir)
	if err != nil {
		return nil, err
	}
	reg := s.Registry()
	root := ns.Ref{Ctx: reg.Top()}
	if dir != "" {
		if root, err = reg.Lookup(nil, hostPath(c, reg, dir)); err != nil || root.Datum != nil {
			return nil, err
		}
	}
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	stats := func(k *ns.Context, prefix string) {
		if k.Stats == nil {
			return
		}
		for i := range k.Stats.Datums {
			d := &k.Stats.Datums[i]
			if d.ID == ns.InvalidDatumID || (d.Aux && !c.All) {
				continue
			}
			add(prefix + d.Name)
		}
	}
	reg.Read(func() {
		for _, k := range root.Ctx.Children() {
			if k.Deleted() {
				continue
			}
			switch kind {
			case CompleteStat:
				stats(k, "")
			default:
				add(shown + k.Name + "/")
			}
		}
		if kind == CompletePath {
			stats(root.Ctx, shown)
		}
	})
	return out, nil
}
