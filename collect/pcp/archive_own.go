package pcp

import (
	"slices"

	ns "dcimon/namespace"
)

// ownClasses reads from dcimon's own names a class that dcimon record wrote whole under them
// (file systems: the PMDA's filesys has only those of a device, so the recording keeps tmpfs and
// a server's exports under dcimon.FS.fs.*, every file system named as dcimon names it). A class
// the archive has not whole so (any pmlogger archive) is read through the mapping as it is.
func (x *archiveContext) ownClasses(decl []*ns.Class, classes []pcpClass) {
	for k := range classes {
		pc := &classes[k]
		if pc.NameMetric == "" || pc.Fixed != nil || len(pc.Class.ID) < 2 {
			continue
		}
		// The path of the class's context, as the recording named it: its parent class's name
		// (a host's context of a fleet is not in it).
		var ctx string
		for _, c := range decl {
			if slices.Equal(c.ID, pc.Class.ID[:len(pc.Class.ID)-1]) {
				ctx = c.Name
			}
		}
		var own []pcpDatum
		for _, b := range pc.Datums {
			i := datumAt(pc.Class, ns.DatumID(b.Datum))
			if i < 0 {
				own = nil
				break
			}
			name := "dcimon." + recPathIn(ctx, pc.Class, &pc.Class.Datums[i])
			if x.byName[name] == nil {
				own = nil
				break
			}
			own = append(own, pcpDatum{Datum: b.Datum, Metric: name, Mult: 1})
		}
		if own == nil {
			continue
		}
		pc.Datums, pc.NameMetric, pc.NameAs, pc.InstText = own, "", nil, 0
		pc.expand()
	}
}

// ownColumns adds to a class's reading plan the datums the mapping does not read from the Linux
// PMDA but dcimon record wrote under its own names (dcimon.Host.threads, dcimon.Disk.disk.ro):
// a replay of dcimon's recording has them as live. Their values are as the datum held them, of
// the class's instance domain; fetches answer them from then on.
func (x *archiveContext) ownColumns(pc pcpClass, cols []pcpCol) []pcpCol {
	if pc.Class.Context() == nil {
		return cols
	}
	have := map[int]bool{}
	for _, c := range cols {
		have[c.at] = true
	}
	for i := range pc.Class.Datums {
		d := &pc.Class.Datums[i]
		if have[i] || d.IsDerived() || d.ID == ns.InvalidDatumID {
			continue
		}
		name := "dcimon." + recPath(pc.Class, d)
		desc := x.byName[name]
		if desc == nil {
			continue
		}
		if x.extra == nil {
			x.extra = map[string]bool{}
		}
		x.extra[name] = true
		cols = append(cols, pcpCol{at: i, metric: name, mult: 1, typ: ns.PMType(desc.Type).Word(), kind: colValue})
	}
	return cols
}

// datumAt is the index of the datum id in a class, -1 when it has none: by its declaration, so
// that it holds before the class is registered (DatumIndex's table is made then; before it, every
// datum read as the first, and a replay of dcimon's file systems read their size as used, avail,
// inodes: 50.0% used everywhere, issue 39 item 7).
func datumAt(c *ns.Class, id ns.DatumID) int {
	for i := range c.Datums {
		if c.Datums[i].ID == id {
			return i
		}
	}
	return -1
}
