package namespace

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// X-6, issue 38: a Sync puts its added and removed subcontexts in place once at its end; after
// every Sync of a churning class (instances going and coming, preferred numbers colliding, names
// out of order) the children are exactly the live instances, by ASN.1 number then name, and each
// name and number finds its own context.
func TestSyncKeepsChildrenInOrder(t *testing.T) {
	r, c, insts := benchClass(t, 0)
	rng := rand.New(rand.NewPCG(1, 2))
	live := map[uint64]InstanceSpec{}
	next := uint64(0)
	for round := range 40 {
		// Some go, some come; a few come back under a name that went this round.
		for k := range live {
			if rng.IntN(4) == 0 {
				delete(live, k)
			}
		}
		for range rng.IntN(60) {
			live[next] = InstanceSpec{Levels: []uint64{next}, OSName: fmt.Sprintf("p%d", rng.IntN(5000)), ASN: uint16(rng.IntN(300))}
			next++
		}
		specs := make([]InstanceSpec, 0, len(live))
		seen := map[string]bool{}
		for _, s := range live {
			if !seen[s.OSName] { // one name, one subcontext (SPMI-HIER-10)
				seen[s.OSName] = true
				specs = append(specs, s)
			}
		}
		var err error
		if insts, _, err = r.Sync(c, specs, t0, insts); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		kids := c.ctx.Children()
		if len(kids) != len(specs) {
			t.Fatalf("round %d: %d children, %d instances", round, len(kids), len(specs))
		}
		if !slices.IsSortedFunc(kids, childOrder) {
			t.Fatalf("round %d: children out of order", round)
		}
		for _, k := range kids {
			if k.Deleted() || k.Inst.Removed() || c.ctx.Child(k.Name) != k {
				t.Fatalf("round %d: child %s is deleted or not found by its name", round, k.Name)
			}
			if k.ASN != 0 && c.ctx.k().byASN[k.ASN] != k {
				t.Fatalf("round %d: child %s is not found by its number %d", round, k.Name, k.ASN)
			}
		}
		if len(c.ctx.k().added) != 0 || c.ctx.k().unsettled || len(r.unsettled) != 0 || r.syncing {
			t.Fatalf("round %d: a Sync left changes unsettled", round)
		}
	}
}
