package pcp

import (
	"time"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// timed gives a class's reading of an archive the times of its values: each datum's its
// metric's record's, the class's its newest (issue 39 item 1). False when none of them is newer
// than at the class's last reading: the class is not read again, it keeps its values as
// recorded then (a metric logged every minute between records of others logged every second).
func (x *archiveContext) timed(pc pcpClass, cr *collect.ClassReading) bool {
	if pc.Fixed != nil || cr.Err != nil {
		return true
	}
	pmids := x.pmidsOf(pc)
	times := make([]time.Time, len(pmids))
	var newest time.Time
	for i, id := range pmids {
		if id == 0 {
			continue
		}
		if t := x.valueTime(id); !t.IsZero() {
			times[i] = t
			if t.After(newest) {
				newest = t
			}
		}
	}
	if newest.IsZero() {
		return true // nothing recorded yet: its values say so
	}
	if x.classAt == nil {
		x.classAt = map[*ns.Class]time.Time{}
	}
	if last, ok := x.classAt[pc.Class]; ok && last.Equal(newest) {
		return false
	}
	x.classAt[pc.Class] = newest
	// The clock a class's derived shares are over (Disk/*/clock_ms) is its values' time.
	nd := len(pc.Class.Datums)
	for _, b := range pc.Datums {
		if i := datumAt(pc.Class, ns.DatumID(b.Datum)); i >= 0 && b.Metric == schema.MetricClock {
			times[i] = newest
			for r := i; r < len(cr.Raw); r += nd {
				if cr.Raw[r].State == ns.RawOK {
					cr.Raw[r] = ns.RawN(uint64(newest.UnixMilli()))
				}
			}
		}
	}
	cr.Time, cr.Times = newest, times
	return true
}

// pmidsOf are the pmids of a class's datums, by datum index (0: a datum read from no metric of
// the archive), worked out once.
func (x *archiveContext) pmidsOf(pc pcpClass) []uint32 {
	if ids, ok := x.timesOf[pc.Class]; ok {
		return ids
	}
	ids := make([]uint32, len(pc.Class.Datums))
	for _, b := range pc.Datums {
		if i := datumAt(pc.Class, ns.DatumID(b.Datum)); i >= 0 {
			if d := x.byName[b.Metric]; d != nil {
				ids[i] = d.PMID
			}
		}
	}
	for i := range pc.Class.Datums { // dcimon's own metrics (ownColumns)
		if ids[i] != 0 || pc.Class.Context() == nil {
			continue
		}
		if d := x.byName["dcimon."+recPath(pc.Class, &pc.Class.Datums[i])]; d != nil && x.extra["dcimon."+recPath(pc.Class, &pc.Class.Datums[i])] {
			ids[i] = d.PMID
		}
	}
	if x.timesOf == nil {
		x.timesOf = map[*ns.Class][]uint32{}
	}
	x.timesOf[pc.Class] = ids
	return ids
}

// timedNode is timed for a class of the PCP name space: each datum is its metric's.
func (x *archiveContext) timedNode(n *pcpNode, cr *collect.ClassReading) bool {
	if cr.Err != nil || len(n.metrics) != len(n.class.Datums) {
		return true
	}
	times := make([]time.Time, len(n.metrics))
	var newest time.Time
	for i, m := range n.metrics {
		if d := x.byName[m]; d != nil {
			if t := x.valueTime(d.PMID); !t.IsZero() {
				times[i] = t
				if t.After(newest) {
					newest = t
				}
			}
		}
	}
	if newest.IsZero() {
		return true
	}
	if x.classAt == nil {
		x.classAt = map[*ns.Class]time.Time{}
	}
	if last, ok := x.classAt[n.class]; ok && last.Equal(newest) {
		return false
	}
	x.classAt[n.class] = newest
	cr.Time, cr.Times = newest, times
	return true
}

// Hold makes the archives' next collections answer what the last one did, without moving, until
// Hold(false): a path into the PCP name space, reached a level at a time (each level a
// collection that registers the next), costs no sample (issue 39 item 6).
func (as *Archives) Hold(on bool) {
	for _, x := range as.xs {
		x.held = on
	}
}
