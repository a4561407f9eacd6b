package headless

import (
	"fmt"
	"slices"
	"strings"

	ns "dcimon/namespace"
)

// whyNothing is the error of a path that matched nothing with, where the path goes through a
// context whose instances' class failed at the last reading, that class's error: a host whose
// proc PMDA denies access has no processes to match, and says why rather than only "nothing
// matches" (issue 40 item 5).
func whyNothing(reg *ns.Registry, snap *ns.Snapshot, pattern string, err error) error {
	if snap == nil {
		return err
	}
	// The context the path names before its first wildcard (`db/Proc` of `db/Proc/*/cpu`).
	parts := strings.Split(strings.TrimPrefix(pattern, "/"), "/")
	fixed := parts[:0:0]
	for _, p := range parts {
		if strings.ContainsAny(p, "*?[") {
			break
		}
		fixed = append(fixed, p)
	}
	ref, lerr := reg.Lookup(reg.Top(), strings.Join(fixed, "/"))
	if lerr != nil || ref.Ctx == nil || ref.Ctx.Class == nil {
		return err
	}
	at := ref.Ctx.Class.ID
	for _, c := range reg.Classes() {
		if len(c.ID) != len(at)+1 || !slices.Equal(c.ID[:len(at)], at) {
			continue
		}
		if cv := snap.Class(c); cv != nil && cv.Err != nil {
			return fmt.Errorf("%w: %w", err, cv.Err)
		}
	}
	return err
}
