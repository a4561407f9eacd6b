package headless

import (
	"hash/fnv"
	"slices"
	"strings"

	ns "dcimon/namespace"
)

// pcpIDs numbers the families' PCP metrics and instance domains (issue 33): valid PCP
// identifiers (domain.cluster.item, domain < 511, cluster < 4096, item < 1024), the same from one
// run to the next. dcimon's own classes (ids of at most two parts) are in domain 510, the one its
// archives use (collect/pcp/record.go), cluster first×32+second; every other class (a user's
// family, a host of a fleet, a remote host's PCP name space) is numbered from a hash of its path
// in domains 385-509, the end-user PMDAs' range of PCP's stdpmid, a collision moving the later
// path (in name order) on to the next free number. The item is the datum's low byte; a class with
// instances has the instance domain domain.cluster.
type pcpIDs map[*ns.Class]ns.PMID

const (
	dcimonDomain    = 510
	otherDomainLow  = 385
	otherDomainHigh = 509
)

func newPCPIDs(reg *ns.Registry, fams []*family) pcpIDs {
	ids := pcpIDs{}
	used := map[[2]uint32]bool{}
	type other struct {
		c   *ns.Class
		key string
	}
	var others []other
	for _, f := range fams {
		c := f.class
		if _, done := ids[c]; done {
			continue
		}
		if p, ok := builtinCluster(c.ID); ok {
			ids[c] = p
			used[[2]uint32{p.Domain, p.Cluster}] = true
			continue
		}
		ids[c] = ns.PMID{} // placed below
		others = append(others, other{c, classPath(reg, c)})
	}
	slices.SortFunc(others, func(a, b other) int { return strings.Compare(a.key, b.key) })
	span := uint64(otherDomainHigh-otherDomainLow+1) * ns.PMIDClusters
	for _, o := range others {
		h := fnv.New64a()
		h.Write([]byte(o.key))
		n := h.Sum64() % span
		for {
			p := ns.PMID{Domain: otherDomainLow + uint32(n/ns.PMIDClusters), Cluster: uint32(n % ns.PMIDClusters)}
			if !used[[2]uint32{p.Domain, p.Cluster}] {
				used[[2]uint32{p.Domain, p.Cluster}] = true
				ids[o.c] = p
				break
			}
			n = (n + 1) % span
		}
	}
	return ids
}

// builtinCluster places a class of dcimon's own name space: an id of one or two parts, the
// first below 128, the second below 32.
func builtinCluster(id ns.ClassID) (ns.PMID, bool) {
	switch {
	case len(id) == 1 && id[0] < 128:
		return ns.PMID{Domain: dcimonDomain, Cluster: id[0] * 32}, true
	case len(id) == 2 && id[0] < 128 && id[1] < 32:
		return ns.PMID{Domain: dcimonDomain, Cluster: id[0]*32 + id[1]}, true
	}
	return ns.PMID{}, false
}

// classPath names a class by the names of the classes above it: DDS/acme/queue_depth/series.
func classPath(reg *ns.Registry, c *ns.Class) string {
	var parts []string
	for i := 1; i <= len(c.ID); i++ {
		if k := reg.Class(c.ID[:i]); k != nil {
			parts = append(parts, k.Name)
		}
	}
	return strings.Join(parts, "/")
}

// of is the family's pmid and instance domain as the # PCP5 line writes them.
func (ids pcpIDs) of(f *family) (string, string) {
	p := ids[f.class]
	p.Item = uint32(f.datum.ID.Low())
	indom := ns.InDomNull
	if !f.class.SingleInstance() {
		indom = ns.InDom{Domain: p.Domain, Serial: p.Cluster}
	}
	return p.String(), indom.String()
}
