package cli

import (
	"fmt"
	"slices"
	"strings"

	dcfg "dcimon/config"
	"dcimon/headless"
	"dcimon/internal/spell"
	ns "dcimon/namespace"
)

// Issue 29 item 17: the hotsets of the configuration file are checked against the name space
// as `dcimon hot --name` resolves them (HotSet.Statistic), so a misspelt path or statistic is an
// error that names the hotset, at its line, with a did-you-mean, both in `config check` and when
// the monitor starts, rather than a hotset that waits for ever for peers it will never have.

// hotsetIssue is what is wrong with one configured hotset; later says the path may only appear
// later (a supplier's, a remote host's or PCP's context), so not finding it now is no error.
type hotsetIssue struct {
	hotset int // its place in the file
	key    string
	msg    string
	later  bool
}

// deferredPath says the context a path names may appear after start: users' suppliers (DDS),
// PCP's name space, a fleet's hosts, or a class named by its DCI id.
func deferredPath(path string) bool {
	top, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if _, err := ns.ParseClassID(path); err == nil {
		return true
	}
	return top == "DDS" || top == "PCP" || strings.HasPrefix(path, "*") || strings.HasPrefix(path, "/")
}

// checkHotset resolves hotset h as `hot --name` would: ok when one of its statistics is
// carried by the peers below its path.
func checkHotset(reg *ns.Registry, i int, h dcfg.Hotset) *hotsetIssue {
	hs := ns.NewHotSet(reg, ns.NewReading(nil), ns.NewEventLog(1))
	for _, st := range h.Stats {
		if _, _, err := hs.Statistic(nil, h.Path, st); err == nil {
			return nil
		}
	}
	ref, err := reg.Lookup(nil, h.Path)
	switch {
	case err != nil && deferredPath(h.Path):
		return &hotsetIssue{hotset: i, key: "path", later: true,
			msg: fmt.Sprintf("path %q is not in the name space now; a supplier's or a remote host's context may appear later", h.Path)}
	case err != nil:
		return &hotsetIssue{hotset: i, key: "path", msg: fmt.Sprintf("path %q: %s", h.Path, pathProblem(reg, h.Path))}
	}
	if ref.IsStat() {
		return &hotsetIssue{hotset: i, key: "path", msg: fmt.Sprintf("path %q names a statistic: a hotset's path is the context whose subcontexts are ranked (\"Disk\")", h.Path)}
	}
	names := peerStatNames(reg, ref.Ctx)
	if len(names) == 0 {
		return &hotsetIssue{hotset: i, key: "path", msg: fmt.Sprintf("path %q has no peer subcontexts to rank (a hotset ranks the instances of a class, such as Disk's)", h.Path)}
	}
	var msgs []string
	for _, st := range h.Stats {
		m := fmt.Sprintf("stat %q: no peer of %s has such a statistic", st, ref.Ctx.Path())
		if c := spell.Closest(st, names); c != "" {
			m += fmt.Sprintf(" (did you mean %q?)", c)
		}
		msgs = append(msgs, m)
	}
	if len(msgs) > 1 {
		return &hotsetIssue{hotset: i, key: "stat", msg: "none of its statistics is there: " + strings.Join(msgs, "; ")}
	}
	return &hotsetIssue{hotset: i, key: "stat", msg: msgs[0]}
}

// pathProblem says which part of path is not in the name space, with the names there are.
func pathProblem(reg *ns.Registry, path string) string {
	cur := reg.Top()
	parts := strings.Split(strings.Trim(path, "/"), "/")
	for _, p := range parts {
		if k := cur.Child(p); k != nil {
			cur = k
			continue
		}
		var names []string
		for _, k := range cur.Children() {
			names = append(names, k.Name)
		}
		where := "Top"
		if cur != reg.Top() {
			where = cur.Path()
		}
		if c := spell.Closest(p, names); c != "" {
			return fmt.Sprintf("%s has no context %q (did you mean %q?)", where, p, c)
		}
		if len(names) > 12 {
			names = append(names[:12], "…")
		}
		return fmt.Sprintf("%s has no context %q (it has %s)", where, p, strings.Join(names, ", "))
	}
	return "not in the name space"
}

// peerStatNames are the statistics the peers below ctx carry: the datums of the classes whose
// instances are its subcontexts (or nested under its instance).
func peerStatNames(reg *ns.Registry, ctx *ns.Context) []string {
	var out []string
	for _, c := range reg.Classes() {
		peer := c.Instantiated() && !c.SingleInstance() && len(c.NestUnder) == 0 && c.Context() == ctx
		if ctx.Kind == ns.CtxInstance && ctx.Class != nil {
			peer = len(c.NestUnder) > 0 && c.NestUnder.Equal(ctx.Class.ID)
		}
		if !peer {
			continue
		}
		for _, d := range c.Datums {
			if d.ID != ns.InvalidDatumID && !slices.Contains(out, d.Name) {
				out = append(out, d.Name)
			}
		}
	}
	return out
}

// checkFileHotsets checks the hotsets the configuration file lists (the built-in defaults may
// wait for their peers: Pressure is not on every host). It returns the first error, at the
// hotset's line, and notes on hotsets whose path may appear later.
func checkFileHotsets(reg *ns.Registry, eff *dcfg.Effective) (notes []string, err error) {
	if eff == nil || !eff.HotsetsFromFile || eff.File == nil {
		return nil, nil
	}
	for i, h := range eff.Hotsets {
		is := checkHotset(reg, i, h)
		if is == nil {
			continue
		}
		pos, ok := eff.File.Set[fmt.Sprintf("hotset[%d].%s", i, is.key)]
		if !ok {
			pos = eff.File.Set[fmt.Sprintf("hotset[%d]", i)]
		}
		e := &dcfg.Error{File: eff.File.Name, Pos: pos, Key: fmt.Sprintf("hotset %q", h.Name), Msg: is.msg}
		if is.later {
			notes = append(notes, e.Error())
			continue
		}
		return notes, e
	}
	return notes, nil
}

// checkSourceHotsets checks the file's hotsets against the name space of the source the flags
// name (this host unless --source, --procfs or --archive say otherwise), as `config check` does:
// the classes its providers declare, read nothing yet.
func checkSourceHotsets(cfg *config, e headless.Env, eff *dcfg.Effective) (notes []string, err error) {
	if eff == nil || !eff.HotsetsFromFile || cfg.c.Fleet {
		return nil, nil // a fleet's contexts are its hosts', made as they answer
	}
	s, err := headless.OpenSampler(cfg.c, e)
	if err != nil {
		return nil, fmt.Errorf("checking the hotsets against the name space: %w", err)
	}
	return checkFileHotsets(s.Registry(), eff)
}
