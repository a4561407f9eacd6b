package pcp

import (
	"reflect"
	"sync"
	"unsafe"

	ns "dcimon/namespace"
)

// sharedPlans are the reading plans of the hosts' classes, by what a plan is made from: the
// host's descriptors (a map hosts whose pmcds say the same share, sharedDescs), the mapping's
// datums and the class's declaration. A fleet's hosts then share one plan a class rather than
// have one each (issue 38 item 1: 17 KB a host). At most maxSharedPlans are kept.
var sharedPlans struct {
	sync.Mutex
	m map[planKey][]pcpCol
}

// planKey is what a plan is made from: the descriptors' map, the first of the datums read and of
// the class's datums (the declaration's, which its clones share), and whether the class is a
// churning one (a process's command line kept longer).
type planKey struct {
	descs  unsafe.Pointer
	datums *pcpDatum
	class  *ns.Datum
	churn  bool
}

// maxSharedPlans bounds the shared plans: past it (descriptors read again and again over a
// long run) they are made again as hosts read.
const maxSharedPlans = 4096

// sharedPlan is the plan of datums of pc: another host's made from the same, else one of its
// own, offered to the next. An archive's (its own columns, dcimon's names) is its own.
func (h *pcpHost) sharedPlan(pc pcpClass, datums []pcpDatum) []pcpCol {
	if h.archive != nil || h.descs == nil || len(pc.Class.Datums) == 0 {
		return h.planOnce(pc, datums)
	}
	k := planKey{descs: reflect.ValueOf(h.descs).UnsafePointer(), datums: &datums[0], class: &pc.Class.Datums[0], churn: pc.Class.Churn}
	sharedPlans.Lock()
	defer sharedPlans.Unlock()
	if cols, ok := sharedPlans.m[k]; ok {
		return cols
	}
	cols := h.planOnce(pc, datums)
	if sharedPlans.m == nil || len(sharedPlans.m) >= maxSharedPlans {
		sharedPlans.m = map[planKey][]pcpCol{}
	}
	sharedPlans.m[k] = cols
	return cols
}
