// Hotset evaluation: each peer's value against the threshold, the top maxresp kept, feeds and
// exceptions raised, in one atomic read (SPMI-HOT-6 to SPMI-HOT-14, SPMI-HOT-17, SPMI-HOT-23).

package namespace

import (
	"fmt"
	"strconv"
	"time"
)

// Read reads every peer set of the hotset at the same time, from one reading of the source
// (SpmiGetHotSet, SPMI-HOT-17). Force works as for statsets (SPMI-HOT-20, SPMI-SET-13): with it
// the source takes a new reading first; without, the hotset ranks the source's current reading if
// it has not yet, and otherwise keeps its results. Exceptions and traps are raised while ranking a
// new reading. Per peer set problems are in each peer set's Err (SPMI-HOT-19); the returned error
// reports only that the source has no reading or could not take one.
func (hs *HotSet) Read(force bool) error {
	if hs.freed {
		return errf(StatusInvalidArg, SiBadArgument, "hotset: the hotset has been freed")
	}
	snap, gen, err := hs.src.acquire(force)
	if err != nil {
		return err
	}
	if snap == nil {
		return errf(StatusNotInitialized, SiNoValue, "hotset: the source has no reading yet")
	}
	if !hs.read || gen != hs.gen {
		t := readingTime(snap)
		if hs.read {
			hs.timeChange = t.Sub(hs.time)
		}
		hs.time, hs.gen, hs.read = t, gen, true
	}
	rgen := hs.reg.Generation()
	for _, e := range hs.entries {
		if e.gen != gen && e.planGen != rgen {
			hs.replan(e, rgen)
		}
	}
	var evs []Event
	hs.reg.Read(func() {
		for _, e := range hs.entries {
			if e.gen != gen {
				evs = hs.evaluate(e, snap, evs)
				e.gen = gen
			}
		}
	})
	if len(evs) > 0 && hs.log != nil {
		hs.log.Add(evs...)
	}
	return nil
}

// evaluate ranks one entry on a reading: one pass over the peers' values in the snapshot, in slot
// order, with a bounded selection per peer set. It runs under the registry's read lock.
func (hs *HotSet) evaluate(e *HotVals, snap *Snapshot, evs []Event) []Event {
	t := hs.time
	multi := e.multi()
	e.begin(t)
	for _, g := range e.groups {
		g.begin(t)
	}
	switch {
	case e.grandpa.Deleted(): // begin left the entry and its groups without results
		e.note(SiDeleted, ReasonNone)
		return evs
	case e.planErr != nil:
		e.note(e.planErr.Si, ReasonNone)
		return evs
	}
	for i := range e.plan.peers {
		pc := &e.plan.peers[i]
		cv := snap.Class(pc.c)
		if cv == nil || !cv.Sampled {
			e.note(SiNoValue, ReasonNotSampled)
			continue
		}
		if why := classFailure(cv); why != ReasonNone {
			e.note(why.SiErr(), why)
		}
		// The hot loop: the snapshot's rows in slot order. An instance is dereferenced only when
		// its value ranks among the kept ones (for its name, on ties) or becomes an item.
		nd, di := len(pc.c.Datums), pc.di
		insts, route := cv.Insts, pc.route
		if route == nil {
			for slot, in := range insts {
				if in == nil {
					continue // a free slot
				}
				if x, ok := cv.valid(slot*nd + di); ok {
					e.consider(in, x, cv, slot*nd+di)
				}
			}
			continue
		}
		for slot, in := range insts {
			if in == nil || slot >= len(route) || route[slot].in != in {
				continue // a free slot, not a peer, or an instance newer than the route
			}
			x, ok := cv.valid(slot*nd + di)
			if !ok {
				continue
			}
			if multi {
				e.groups[route[slot].g].consider(in, x, cv, slot*nd+di)
			} else {
				e.consider(in, x, cv, slot*nd+di)
			}
		}
	}
	if !multi {
		return e.finish(hs, evs)
	}
	for _, g := range e.groups {
		evs = g.finish(hs, evs)
		e.AvailResp += g.AvailResp
		e.Count += g.Count
	}
	return evs
}

// classFailure says why a class's reading failed as a whole, or ReasonNone.
func classFailure(cv *ClassValues) Reason {
	switch {
	case cv.ErrReason != ReasonNone:
		return cv.ErrReason
	case cv.Err != nil:
		return ReasonProviderError
	case cv.Class.Unavailable() != "":
		return ReasonClassUnavailable
	}
	return ReasonNone
}

// begin clears the results before a new ranking and decides whether exceptions may fire now.
func (v *HotVals) begin(t time.Time) {
	v.AvailResp, v.Count, v.Err, v.ErrReason = 0, 0, SiSuccess, ReasonNone
	clear(v.Items) // drop string and instance references of the previous read
	v.Items = v.Items[:0]
	if v.multi() {
		return
	}
	asc := v.spec.Threshold < 0
	v.feed.reset(asc, v.spec.MaxResp)
	v.excDue = v.spec.Except != SiHotNoException &&
		(!v.excFired || t.Sub(v.lastExc) >= time.Duration(v.spec.Frequency)*time.Minute ||
			t.Before(v.lastExc)) // a replay moved back in time: then is not after the last one
	v.exc.reset(asc, v.spec.MaxResp)
}

// note records the first error of a reading on the entry and its groups (SPMI-HOT-19).
func (v *HotVals) note(code SiErr, why Reason) {
	if v.Err == SiSuccess {
		v.Err, v.ErrReason = code, why
	}
	for _, g := range v.groups {
		g.note(code, why)
	}
}

// qualifies applies the threshold (SPMI-HOT-7, AMB-36): strictly above a positive one, strictly
// below the magnitude of a negative one; zero admits every value.
func (v *HotVals) qualifies(x float64) bool {
	switch thr := v.spec.Threshold; {
	case thr > 0:
		return x > thr
	case thr < 0:
		return x < -thr
	}
	return true
}

// consider offers one peer's valid value to the peer set (SPMI-HOT-9, SPMI-HOT-10): x, its
// decoded value, at index at of cv's values.
func (v *HotVals) consider(in *Instance, x float64, cv *ClassValues, at int) {
	if x != x { // NaN never ranks
		return
	}
	q := v.qualifies(x)
	switch v.spec.Feed {
	case SiHotThreshold:
		if q {
			v.AvailResp++
			if v.feed.wants(x) {
				v.feed.push(hotCand{v: x, in: in, cv: cv, at: at})
			}
		}
	case SiHotAlways:
		v.AvailResp++
		if v.feed.wants(x) {
			v.feed.push(hotCand{v: x, in: in, cv: cv, at: at})
		}
	default:
		if q {
			v.AvailResp++
		}
	}
	if v.excDue && q && v.exc.wants(x) {
		v.exc.push(hotCand{v: x, in: in, cv: cv, at: at})
	}
}

// finish turns the selections into items and events.
func (v *HotVals) finish(hs *HotSet, evs []Event) []Event {
	if v.spec.Feed != SiHotNoFeed {
		fleet := v.owner().fleet
		for _, c := range v.feed.sorted() {
			name := c.in.Name
			if fleet {
				name = c.in.Path() // `web1/Disk/sda`: the host says which one
			}
			v.Items = append(v.Items, HotItem{Name: name, Inst: c.in, Val: c.value()})
		}
	}
	v.Count = len(v.Items)
	if v.excDue && len(v.exc.h) > 0 {
		evs = v.raise(hs.time, v.exc.sorted(), evs)
		v.lastExc, v.excFired = hs.time, true
	}
	return evs
}

// raise turns the qualifying peers into exception and trap events (SPMI-HOT-12, SPMI-HOT-15):
// `Disk/sdb busy 50.0/s > 25 severity 3`, and `trap 7: Disk/sdb busy 50.0/s > 25` for traps,
// which are recorded only: no SNMP is sent.
func (v *HotVals) raise(t time.Time, cands []hotCand, evs []Event) []Event {
	stat := v.owner().plan.stat
	op, thr := ">", v.spec.Threshold
	if thr < 0 {
		op, thr = "<", -thr
	}
	for _, c := range cands {
		path := c.in.Path()
		val := strconv.FormatFloat(c.v, 'f', 1, 64)
		if stat.IsCounter() {
			val += "/s"
		}
		thrText := strconv.FormatFloat(thr, 'f', -1, 64)
		if v.spec.Format != nil {
			val, thrText = v.spec.Format(c.v), v.spec.Format(thr)
		}
		text := fmt.Sprintf("%s %s %s %s %s", path, stat.Name, val, op, thrText)
		ev := Event{Time: t, Path: path + "/" + stat.Name, Class: c.in.Class.ID, Inst: c.in.ID()}
		if v.spec.Except.Exceptions() {
			ev.Kind, ev.Severity, ev.TrapNo = EvHotException, v.spec.Severity, 0
			ev.Text = fmt.Sprintf("%s severity %d", text, v.spec.Severity)
			evs = append(evs, ev)
		}
		if v.spec.Except.Traps() {
			ev.Kind, ev.Severity, ev.TrapNo = EvHotTrap, 0, v.spec.TrapNo
			ev.Text = fmt.Sprintf("trap %d: %s", v.spec.TrapNo, text)
			evs = append(evs, ev)
		}
	}
	return evs
}
