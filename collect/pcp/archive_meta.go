package pcp

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"math"
	"sort"
	"strconv"
	"strings"

	ns "dcimon/namespace"
	"dcimon/pcparchive"
	"dcimon/pmproxy"
)

// Labels are the archive's host, as its label names it.
// Labels are the archive's host, as its label names it, and its context's labels as recorded
// (the first context label set: pmlogger's pmcd's, dcimon record's host's).
func (x *archiveContext) Labels() (string, map[string]string) {
	out := map[string]string{"hostname": x.a.Label.Host}
	for _, ls := range x.a.Labels {
		if ls.Type&pcparchive.LabelContext == 0 || len(ls.Sets) == 0 {
			continue
		}
		var m map[string]any
		if json.Unmarshal([]byte(ls.Sets[0].JSON), &m) == nil {
			for k, v := range m {
				if s, ok := v.(string); ok {
					out[k] = s
				} else if b, err := json.Marshal(v); err == nil {
					out[k] = string(b)
				}
			}
		}
		break
	}
	return x.a.Label.Host, out
}

// Metrics describes names as pmproxy would; a name the archive lacks is ErrUnknownMetric.
func (x *archiveContext) Metrics(_ context.Context, names ...string) ([]pmproxy.Desc, error) {
	out := make([]pmproxy.Desc, 0, len(names))
	var missing []string
	for _, n := range names {
		d := x.byName[n]
		if d == nil {
			missing = append(missing, n)
			continue
		}
		pd := pmproxy.Desc{Name: n, PMID: pcparchive.PMIDString(d.PMID), Type: ns.PMType(d.Type).Word(), Sem: ns.PMSem(d.Sem).Word(),
			Units: archiveUnits(d.Units)}
		if d.InDom != pcparchive.InDomNull {
			pd.InDom = pcparchive.InDomString(d.InDom)
		}
		for _, t := range x.a.Texts {
			if t.Ident == d.PMID && t.Type&4 != 0 { // PM_TEXT_PMID
				if t.Type&1 != 0 {
					pd.OneLine = t.Text
				} else {
					pd.Help = t.Text
				}
			}
		}
		out = append(out, pd)
	}
	if len(missing) > 0 {
		return out, fmt.Errorf("archive %s: %w: %s", x.a.Base, pmproxy.ErrUnknownMetric, strings.Join(missing, ", "))
	}
	return out, nil
}

// InDom is the instance domain as it was at the current sample (its latest observation up to
// it), or its first one before that.
func (x *archiveContext) InDom(_ context.Context, indom string) ([]pmproxy.Instance, error) {
	var best *pcparchive.InDom
	for i := range x.a.InDoms {
		in := &x.a.InDoms[i]
		if pcparchive.InDomString(in.InDom) != indom {
			continue
		}
		if best == nil || (!in.Time.After(x.now) && in.Time.After(best.Time)) || best.Time.After(x.now) && in.Time.Before(best.Time) {
			best = in
		}
	}
	if best == nil {
		// Never described: no instance was ever recorded (dcimon's partitions of a host that
		// has none), which is no instance now.
		return nil, nil
	}
	out := make([]pmproxy.Instance, len(best.Instances))
	for i, id := range best.Instances {
		out[i] = pmproxy.Instance{ID: int64(id), Name: best.Names[i]}
	}
	return out, nil
}

// Children is the archive's name space below prefix.
func (x *archiveContext) Children(_ context.Context, prefix string) (leaf, nonleaf []string, err error) {
	leaf, nonleaf = childrenOf(maps.Keys(x.byName), prefix)
	return leaf, nonleaf, nil
}

// childrenOf is the name space the metric names make, below prefix: the next component of each
// name under it, a leaf where it is the last, each once and in order.
func childrenOf(names iter.Seq[string], prefix string) (leaf, nonleaf []string) {
	seen := map[string]bool{}
	for n := range names {
		rest := n
		if prefix != "" {
			var ok bool
			if rest, ok = strings.CutPrefix(n, prefix+"."); !ok {
				continue
			}
		}
		first, _, more := strings.Cut(rest, ".")
		if seen[first] {
			continue
		}
		seen[first] = true
		if more {
			nonleaf = append(nonleaf, first)
		} else {
			leaf = append(leaf, first)
		}
	}
	sort.Strings(leaf)
	sort.Strings(nonleaf)
	return leaf, nonleaf
}

// scales are the processor count and memory size the archive records at its start (1 and 0
// when it has none there), for the classes' scales: pmlogger logs them with its first samples.
func (x *archiveContext) scales() (int, uint64) {
	ncpu, mem := 1, uint64(0)
	first := func(name string) (uint64, bool) {
		d := x.byName[name]
		if d == nil || len(x.prologue.latest[d.PMID]) != 1 {
			return 0, false
		}
		n, err := strconv.ParseUint(x.prologue.latest[d.PMID][0].Text, 10, 64)
		return n, err == nil
	}
	if n, ok := first("hinv.ncpu"); ok && n > 0 && n < 1<<20 {
		ncpu = int(n)
	}
	if n, ok := first("mem.physmem"); ok && n < math.MaxUint64/1024 {
		mem = n * 1024
	}
	return ncpu, mem
}

// archiveText is a recorded value as pmproxy would send it: integers exactly, floats in
// full, strings as they are.
func archiveText(v pcparchive.Value, typ int32) (string, bool) {
	switch typ {
	case pcparchive.TypeString:
		return v.StringValue(), true
	case pcparchive.TypeAggr:
		return string(v.Block), true // dcimon's octet strings (an address): the bytes as they are
	case pcparchive.TypeFloat, pcparchive.TypeDouble:
		f, err := v.Float64(typ)
		if err != nil || math.IsNaN(f) {
			return "", err == nil
		}
		return strconv.FormatFloat(f, 'g', -1, 64), true
	case pcparchive.Type32, pcparchive.Type64:
		n, err := v.Uint64(typ)
		return strconv.FormatInt(int64(n), 10), err == nil
	case pcparchive.TypeU32, pcparchive.TypeU64:
		n, err := v.Uint64(typ)
		return strconv.FormatUint(n, 10), err == nil
	}
	return "", false
}

func archiveUnits(u uint32) string { return ns.UnpackPMUnits(u >> 8).String() }
