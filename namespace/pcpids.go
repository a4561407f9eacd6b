package namespace

import (
	"hash/fnv"
	"slices"
	"strings"
	"sync"
)

// A datum's PCP identifiers (issue 33, issue 39 item 8): valid PCP ones (domain.cluster.item,
// domain < 511, cluster < 4096, item < 1024), the same from one run to the next, and the same in
// `dcimon metrics`' # PCP5 lines and in describe's PCP descriptor, which both ask PCPID. dcimon's
// own classes (ids of at most two parts) are in domain 510, the one its archives use
// (collect/pcp/record.go), cluster first×32+second; every other class (a user's family, a host
// of a fleet, a remote host's PCP name space) is numbered from a hash of its path in domains
// 385-509, the end-user PMDAs' range of PCP's stdpmid, a collision among the registry's classes
// moving the later path (in name order) on to the next free number. The item is the datum's low
// byte; a class with instances has the instance domain domain.cluster.

const (
	pcpOwnDomain       = 510
	pcpOtherDomainLow  = 385
	pcpOtherDomainHigh = 509
)

// pcpNumbering is the clusters of the registry's classes that are not dcimon's own, by class
// id, worked out again when the registry's generation changes.
type pcpNumbering struct {
	mu       sync.Mutex
	gen      uint64
	ok       bool
	clusters map[string]PMID
}

// PCPID is the PCP metric identifier and instance domain of datum d of class c (see above).
func (r *Registry) PCPID(c *Class, d DatumID) (PMID, InDom) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.pcpIDLocked(c, d)
}

// pcpIDLocked is PCPID with the registry's lock held.
func (r *Registry) pcpIDLocked(c *Class, d DatumID) (PMID, InDom) {
	p, ok := ownCluster(c.ID)
	if !ok {
		p = r.otherCluster(c)
	}
	p.Item = uint32(d.Low())
	indom := InDomNull
	if !c.SingleInstance() {
		indom = InDom{Domain: p.Domain, Serial: p.Cluster}
	}
	return p, indom
}

// ownCluster places a class of dcimon's own name space: an id of one or two parts, the first
// below 128, the second below 32.
func ownCluster(id ClassID) (PMID, bool) {
	switch {
	case len(id) == 1 && id[0] < 128:
		return PMID{Domain: pcpOwnDomain, Cluster: id[0] * 32}, true
	case len(id) == 2 && id[0] < 128 && id[1] < 32:
		return PMID{Domain: pcpOwnDomain, Cluster: id[0]*32 + id[1]}, true
	}
	return PMID{}, false
}

// otherCluster is the cluster of a class that is not dcimon's own, numbered among the
// registry's classes with datums (a class not registered: its hash's own place).
func (r *Registry) otherCluster(c *Class) PMID {
	n := &r.pcpIDs
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.ok || n.gen != r.gen {
		n.clusters, n.gen, n.ok = r.numberClusters(), r.gen, true
	}
	if p, ok := n.clusters[c.ID.String()]; ok {
		return p
	}
	return hashCluster(r.classPathLocked(c), nil)
}

// numberClusters numbers the registry's classes with datums that are not dcimon's own, in the
// order of their paths.
func (r *Registry) numberClusters() map[string]PMID {
	type other struct {
		id, path string
	}
	var others []other
	for _, c := range r.ordered {
		if c == nil || len(c.Datums) == 0 {
			continue
		}
		if _, own := ownCluster(c.ID); !own {
			others = append(others, other{c.ID.String(), r.classPathLocked(c)})
		}
	}
	slices.SortFunc(others, func(a, b other) int {
		return strings.Compare(a.path+"\x00"+a.id, b.path+"\x00"+b.id)
	})
	out := make(map[string]PMID, len(others))
	used := make(map[[2]uint32]bool, len(others))
	for _, o := range others {
		out[o.id] = hashCluster(o.path, used)
	}
	return out
}

// hashCluster places a path in domains 385-509 by its hash, on to the next free cluster when
// used has it (and marks it used).
func hashCluster(path string, used map[[2]uint32]bool) PMID {
	h := fnv.New64a()
	h.Write([]byte(path))
	span := uint64(pcpOtherDomainHigh-pcpOtherDomainLow+1) * PMIDClusters
	n := h.Sum64() % span
	for {
		p := PMID{Domain: pcpOtherDomainLow + uint32(n/PMIDClusters), Cluster: uint32(n % PMIDClusters)}
		k := [2]uint32{p.Domain, p.Cluster}
		if !used[k] {
			if used != nil {
				used[k] = true
			}
			return p
		}
		n = (n + 1) % span
	}
}

// classPathLocked names a class by the names of the classes above it: DDS/acme/queue_depth/series.
func (r *Registry) classPathLocked(c *Class) string {
	parts := make([]string, 0, len(c.ID))
	for i := 1; i <= len(c.ID); i++ {
		if k := r.classes[c.ID[:i].String()]; k != nil {
			parts = append(parts, k.Name)
		}
	}
	return strings.Join(parts, "/")
}
