package headless

import (
	"fmt"

	ns "dcimon/namespace"
)

// getSet is the SPMI statset `dcimon get` reads its statistics through (SPMI-SET-2, SPMI-SET-4,
// issue 29 item 19): every numeric statistic its paths name, read at one time from each reading,
// each with its per-value record (the statistic and its context, ref_count, val, val_change and
// the SPMI error) given in the JSON output. A statistic asked for twice is one row with ref_count
// 2 (SPMI-SET-5), printed in both places (PCPF-11). What a statset cannot hold (a text statistic,
// an instance that has gone) is read from the snapshot as it is.
type getSet struct {
	src  *ns.Reading
	set  *ns.StatSet
	rows map[statKey]*ns.StatVal
}

type statKey struct {
	ctx *ns.Context
	d   *ns.Datum
}

func newGetSet(reg *ns.Registry, first *ns.Snapshot) *getSet {
	src := ns.NewReading(nil)
	src.Publish(first)
	return &getSet{src: src, set: ns.NewStatSet(reg, src), rows: map[statKey]*ns.StatVal{}}
}

// sync makes the set's rows what the requests expand to now, each with the ref_count of the
// times it is asked for; a row added is primed with the reading published last.
func (g *getSet) sync(reqs []request) {
	want := map[statKey]int{}
	refs := map[statKey]ns.Ref{}
	for _, r := range reqs {
		for _, ref := range r.refs {
			if ref.Datum == nil || ref.Ctx == nil || ref.Ctx.Deleted() {
				continue
			}
			k := statKey{ref.Ctx, ref.Datum}
			want[k]++
			refs[k] = ref
		}
	}
	for k, v := range g.rows {
		for v.RefCount() > want[k] {
			_ = g.set.Del(v)
		}
		if want[k] == 0 {
			delete(g.rows, k)
		}
	}
	for k, n := range want {
		for {
			v := g.rows[k]
			if v != nil && v.RefCount() >= n {
				break
			}
			nv, err := g.set.AddRef(refs[k])
			if err != nil {
				break // a text statistic, or one whose context has just gone: read from the snapshot
			}
			g.rows[k] = nv
		}
	}
}

// read takes snap as the set's new reading and reads every row from it at one time.
func (g *getSet) read(snap *ns.Snapshot) error {
	g.src.Publish(snap)
	return g.set.Read(false)
}

// value is ref's value as the set read it, with its record; ok false for a statistic the set
// does not hold.
func (g *getSet) value(ref ns.Ref) (ns.Value, *ns.StatVal, bool) {
	if ref.Datum == nil {
		return ns.Value{}, nil, false
	}
	v := g.rows[statKey{ref.Ctx, ref.Datum}]
	if v == nil || !v.WasRead() || v.Err == ns.SiDeleted {
		return ns.Value{}, nil, false
	}
	return v.Val, v, true
}

// spmiRecord is a statset row's per-value record for the JSON output (SPMI-SET-4).
type spmiRecord struct {
	Context  string `json:"context"`   // the context handle, as its path
	RefCount int    `json:"ref_count"` // times the statistic is in the set
	Error    string `json:"error"`     // the per-value SPMI error: "SiSuccess (0)" for a value
}

func recordOf(v *ns.StatVal) *spmiRecord {
	return &spmiRecord{Context: v.Ref().Ctx.Path(), RefCount: v.RefCount(), Error: fmt.Sprintf("%s (%d)", v.Err, int(v.Err))}
}
