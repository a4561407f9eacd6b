package namespace

import (
	"fmt"
	"path"
	"strings"
)

// Glob resolves a path that may hold wildcards (`Disk/*/busy`, `CPU/cpu[01]/idle`, as path.Match
// reads them) in each component, in tree order. A path without wildcards resolves exactly, as
// Lookup does from Top (SPMI-HIER-7/8).
func (r *Registry) Glob(pattern string) ([]Ref, error) {
	if !strings.ContainsAny(pattern, "*?[") {
		ref, err := r.Lookup(nil, pattern)
		if err != nil {
			return nil, err
		}
		return []Ref{ref}, nil
	}
	parts := strings.Split(strings.Trim(pattern, "/"), "/")
	for _, p := range parts {
		if _, err := path.Match(p, ""); err != nil {
			return nil, &Error{Status: StatusInvalidArg, Si: SiBadArgument, Msg: fmt.Sprintf("bad pattern %q: %v", pattern, err)}
		}
	}
	var out []Ref
	r.Read(func() {
		var walk func(c *Context, i int)
		walk = func(c *Context, i int) {
			last := i == len(parts)-1
			for _, k := range c.Children() {
				if ok, _ := path.Match(parts[i], k.Name); ok {
					if last {
						out = append(out, Ref{Ctx: k})
					} else {
						walk(k, i+1)
					}
				}
			}
			if last && c.Stats != nil {
				for j := range c.Stats.Datums {
					d := &c.Stats.Datums[j]
					if d.ID == InvalidDatumID {
						continue
					}
					if ok, _ := path.Match(parts[i], d.Name); ok {
						out = append(out, Ref{Ctx: c, Datum: d})
					}
				}
			}
		}
		walk(r.Top(), 0)
	})
	if len(out) == 0 {
		return nil, &Error{Status: StatusNoInstances, Si: SiNotFound, Msg: fmt.Sprintf("nothing matches %q", pattern)}
	}
	return out, nil
}

// HostName is the host's name as the name space has it: the value of a "hostname" statistic of a
// top-level single-instance class (Host/hostname), or "" when there is none or it has no valid
// value. The monitor's status bar and the headless commands both take the host's name from here.
func (r *Registry) HostName(snap *Snapshot) string {
	name := ""
	r.Read(func() {
		for _, c := range r.Top().Children() {
			if c.Stats == nil || c.StatsInst == nil || name != "" {
				continue
			}
			if i := c.Stats.DatumByName("hostname"); i >= 0 {
				if cv := snap.Class(c.Stats); cv != nil {
					if v, ok := cv.Value(c.StatsInst, i); ok && v.State == Valid && v.S != "" {
						name = v.S
					}
				}
			}
		}
	})
	return name
}
