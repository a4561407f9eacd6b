package views

// The nearest name to one mistyped (issue 42 item 3), for the commands' errors and the
// monitor's go-to: `Dsk/sda` is `Disk/sda`, said in people's words.

import (
	"strings"

	"dcimon/internal/spell"
	ns "dcimon/namespace"
)

// NearestPath walks path through the name space: known is the longest leading part that names a
// context, near the path with the next name replaced by the nearest one there, when the path so
// mended names something ("" when not, or the path is quoted and not for a simple walk).
func NearestPath(reg *ns.Registry, path string) (known, near string) {
	if strings.ContainsAny(path, `"*?[\`) {
		return "", ""
	}
	lead := ""
	if strings.HasPrefix(path, "/") {
		lead = "/"
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	reg.Read(func() {
		cur := reg.Top()
		for i, p := range parts {
			if k := cur.Child(p); k != nil {
				cur = k
				continue
			}
			if cur != reg.Top() {
				known = lead + strings.Join(parts[:i], "/")
			}
			if c := spell.Closest(p, nearCandidates(cur, i == len(parts)-1)); c != "" {
				fixed := append(append(parts[:i:i], c), parts[i+1:]...)
				near = lead + strings.Join(fixed, "/")
			}
			return
		}
	})
	if near != "" {
		// Only a name that leads somewhere: DDS/acme is not FS/acme when FS has no acme.
		if _, err := reg.Lookup(nil, near); err != nil {
			near = ""
		}
	}
	return known, near
}

// nearCandidates are the names a mistyped name under cur may have meant: its children's and,
// when it is the path's last name, cur's statistics' (not the auxiliary ones).
func nearCandidates(cur *ns.Context, last bool) []string {
	var names []string
	for _, k := range cur.Children() {
		names = append(names, k.Name)
	}
	if !last || cur.Stats == nil {
		return names
	}
	for j := range cur.Stats.Datums {
		if d := &cur.Stats.Datums[j]; d.ID != ns.InvalidDatumID && !d.Aux {
			names = append(names, d.Name)
		}
	}
	return names
}
