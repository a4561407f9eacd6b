// Hotset iteration: entries, then their peer groups and items, in the SPMI order (SPMI-HOT-21).

package namespace

// First returns the first peer set of the hotset, expanding multi-level entries into their peer
// groups (SpmiFirstHot, SPMI-HOT-21, AMB-37), or nil before the first read or when there is none.
func (hs *HotSet) First() *HotVals {
	if !hs.read {
		return nil
	}
	return hs.firstFrom(0)
}

// Next returns the peer set after v in the walk (SpmiNextHot), or nil at the end. Given a
// multi-level entry, it returns the entry's first group.
func (hs *HotSet) Next(v *HotVals) *HotVals {
	if v == nil || v.hs != hs || !hs.read {
		return nil
	}
	if e := v.entry; e != nil {
		if v.idx+1 < len(e.groups) && e.groups[v.idx] == v {
			return e.groups[v.idx+1]
		}
		return hs.firstFrom(e.idx + 1)
	}
	if v.multi() && len(v.groups) > 0 {
		return v.groups[0]
	}
	return hs.firstFrom(v.idx + 1)
}

func (hs *HotSet) firstFrom(i int) *HotVals {
	for ; i < len(hs.entries); i++ {
		e := hs.entries[i]
		switch {
		case !e.multi():
			return e
		case len(e.groups) > 0:
			return e.groups[0]
		}
	}
	return nil
}

// NextItem walks every item of every peer set (SpmiNextHotItem, SPMI-HOT-21): pass a nil peer set
// to start at the first one (index ignored), then feed back the peer set and index it returns.
// It returns the peer set owning the item, the index of the following item in that set, and the
// item, whose Val.V is the decoded value and Name the peer's name; after a set's last item the
// next call moves on to the first item of the next set with items. At the end, or before the
// first read, the peer set is nil.
func (hs *HotSet) NextItem(v *HotVals, index int) (*HotVals, int, *HotItem) {
	if !hs.read {
		return nil, 0, nil
	}
	if v == nil {
		v, index = hs.First(), 0
	} else if v.hs != hs {
		return nil, 0, nil
	}
	for v != nil {
		if index >= 0 && index < len(v.Items) {
			return v, index + 1, &v.Items[index]
		}
		v, index = hs.Next(v), 0
	}
	return nil, 0, nil
}
