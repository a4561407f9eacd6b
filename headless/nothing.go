package headless

import (
	"fmt"

	ns "dcimon/namespace"
)

// noneRecorded is the error of a command on an archive that holds no instance of what it asks
// for (an archive of sample.* or mysql.* has no disk): said, never a silent "top 0 of 0" with
// exit 0 (issue 39 item 5). nil when there are instances (none past the threshold).
func noneRecorded(reg *ns.Registry, context string) error {
	if refs, err := reg.Glob(context + "/*"); err == nil && len(refs) > 0 {
		return nil
	}
	return fmt.Errorf("nothing to print: the archive holds no %s (pmlogger logs what its configuration names); `dcimon list PCP --archive ...` shows the metrics it holds", safe(context))
}

// notInArchive says every value asked for is absent from the archive read (its metrics were
// never logged): the reading printed them n/a, and the command fails, saying why (issue 39
// item 5).
func notInArchive(snap *ns.Snapshot, reqs []request) error {
	n := 0
	for _, r := range reqs {
		for _, ref := range r.refs {
			if ref.Datum == nil {
				continue
			}
			if v, _, _ := snap.Lookup(ref); v.State != ns.Unavailable || v.Reason != ns.ReasonNotRecorded {
				return nil
			}
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return fmt.Errorf("nothing to print: the archive holds none of the metrics of %s (pmlogger logs what its configuration names); `dcimon list PCP --archive ...` shows the metrics it holds", safe(reqs[0].pattern))
}
