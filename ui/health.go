package ui

import (
	"strings"

	"dcimon/namespace"
)

// health is how a supplier answered its last collection: ok; not sampled (never read yet);
// degraded (the last reading failed or timed out); dead (the supplier stopped updating,
// SiAssumedDead). The line comments are the names String gives.
type health uint8

//go:generate go run golang.org/x/tools/cmd/stringer@v0.51.0 -type=health,modal,hotFormDone,valuesMode,layoutMode -linecomment -output=enums_string.go

const (
	healthOK        health = iota // ok
	healthUnsampled               // not sampled
	healthDegraded                // degraded
	healthDead                    // dead
)

// healthMap is the health of every class in a snapshot, with each class's failure also marked
// on its uninstantiated ancestors, so a tree row can show a marker for the classes under it.
type healthMap map[*namespace.Class]health

// classHealth is one class's health in a snapshot.
func classHealth(cv *namespace.ClassValues) health {
	switch {
	case cv == nil || !cv.Sampled:
		return healthUnsampled
	case cv.ErrReason == namespace.ReasonAssumedDead:
		return healthDead
	case cv.Err != nil || cv.ErrReason != namespace.ReasonNone:
		return healthDegraded
	}
	return healthOK
}

// buildHealthHosts computes the map for a snapshot, how many suppliers (providers: the classes
// sharing a DCI4 supplier record) answered and how many are degraded or dead, and of the remote
// hosts of a PCP source (suppliers `pcp:<host>`) how many there are and answered. Only failing
// classes and their ancestors are stored; a class not in the map is fine.
func buildHealthHosts(reg *namespace.Registry, snap *namespace.Snapshot) (hm healthMap, ok, bad, hostsOK, hosts int) {
	hm = healthMap{}
	if snap == nil {
		return hm, 0, 0, 0, 0
	}
	suppliers := map[string]health{}
	// answering is each supplier's health over the classes read whatever is on screen: a host
	// whose processes its proc PMDA will not serve (an on-demand class in error) still answers
	// (issue 40 item 5: "1 of 3 hosts answer" beside two hosts whose rows say ok).
	answering := map[string]health{}
	for _, c := range reg.Classes() {
		if !c.Instantiated() {
			continue
		}
		h := classHealth(snap.Class(c))
		if h == healthUnsampled {
			continue
		}
		sup := "class " + c.ID.String()
		if c.Supplier != nil && c.Supplier.Module != "" {
			sup = c.Supplier.Module
		}
		if old, seen := suppliers[sup]; !seen || h > old {
			suppliers[sup] = h
		}
		if old, seen := answering[sup]; !c.OnDemand && (!seen || h > old) {
			answering[sup] = h
		}
		if h == healthOK {
			continue
		}
		hm.worsen(c, h)
		for id := c.ID.Parent(); len(id) > 0; id = id.Parent() {
			if p := reg.Class(id); p != nil {
				hm.worsen(p, h)
			}
		}
	}
	ok, bad, hostsOK, hosts = countHealth(suppliers, answering)
	return hm, ok, bad, hostsOK, hosts
}

// countHealth counts the suppliers that are well and not, and of the hosts (pcp: suppliers)
// those that answer: well over the classes read whatever is on screen (answering).
func countHealth(suppliers, answering map[string]health) (ok, bad, hostsOK, hosts int) {
	for sup, h := range suppliers {
		if h == healthOK {
			ok++
		} else {
			bad++
		}
		if strings.HasPrefix(sup, "pcp:") {
			hosts++
			if a, seen := answering[sup]; a == healthOK && (seen || h == healthOK) {
				hostsOK++
			}
		}
	}
	return ok, bad, hostsOK, hosts
}

func (hm healthMap) worsen(c *namespace.Class, h health) {
	if h > hm[c] {
		hm[c] = h
	}
}

// of is the worst health of the classes a context stands for or holds statistics of.
func (hm healthMap) of(ctx *namespace.Context) health {
	if ctx == nil || len(hm) == 0 {
		return healthOK
	}
	h := hm[ctx.Class]
	if s := hm[ctx.Stats]; s > h {
		h = s
	}
	if h == healthUnsampled {
		return healthOK
	}
	return h
}
