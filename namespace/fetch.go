package namespace

import "time"

// FetchValue is one instance's value in a fetch result (a pmValue).
type FetchValue struct {
	Inst  *Instance
	Value Value
}

// FetchSet is the result for one expanded metric: a class and datum with a value per instance (a
// pmValueSet, PCPF-4). Status is its own DCI status; no values is numval 0 (PCPF-8).
type FetchSet struct {
	Request int // index of the request it expands
	Class   *Class
	Datum   *Datum // nil when the request failed before naming a datum
	Status  Status
	Err     error
	Values  []FetchValue
}

// FetchResult is the answer to a fetch: one timestamp, a summary status and the sets in request
// order, each request's expansion in class, datum and instance order (PCPF-2, PCPF-11, DCI-RET-1).
type FetchResult struct {
	Time    time.Time
	Summary Status
	Sets    []FetchSet
	// Changes are the snapshot's state-change flags (PCPF-13); the values are interpreted the
	// same way whatever they say.
	Changes int
}

// Fetch answers a list of metric ids, any part of which may be a query, from a snapshot. It never
// fails as a whole: every problem is reported in the set it concerns (PCPF-12).
func (r *Registry) Fetch(s *Snapshot, reqs []MetricID) FetchResult {
	res := FetchResult{Summary: StatusSuccess}
	if s != nil {
		res.Time, res.Changes = s.End, s.Changes
	}
	invalidSeen := false
	for ri, req := range reqs {
		var invalid bool
		res.Sets, invalid = r.fetchRequest(res.Sets, s, ri, req)
		invalidSeen = invalidSeen || invalid
	}
	res.Summary = fetchSummary(res.Sets, invalidSeen)
	return res
}

// fetchRequest appends the sets request ri expands to: one per datum of each class it names, or
// the one set that says why it names none (an unknown class; an uninstantiated class named
// outright). invalid reports that a value was left out as invalid (DCI-INV-3).
func (r *Registry) fetchRequest(sets []FetchSet, s *Snapshot, ri int, req MetricID) (out []FetchSet, invalid bool) {
	classes := r.ListClasses(req.Class)
	if len(classes) == 0 {
		return append(sets, FetchSet{Request: ri, Status: StatusUnknownClass,
			Err: errf(StatusUnknownClass, SiInvalidCx, "no class matches %s", req.Class)}), false
	}
	for _, id := range classes {
		c := r.Class(id)
		if c == nil || !c.Instantiated() {
			if !req.Class.IsQuery() {
				sets = append(sets, FetchSet{Request: ri, Class: c, Status: StatusInvalidArg,
					Err: errf(StatusInvalidArg, SiBadArgument, "class %s is uninstantiated: it has no data (DCI-NS-3)", id)})
			}
			continue
		}
		var inv bool
		sets, inv = r.fetchClass(sets, s, ri, req, c)
		invalid = invalid || inv
	}
	return sets, invalid
}

// fetchClass appends a set for each datum of class c that request ri names, each with the
// values of the instances it names; or the one set that says why the datum cannot be fetched.
func (r *Registry) fetchClass(sets []FetchSet, s *Snapshot, ri int, req MetricID, c *Class) (out []FetchSet, invalid bool) {
	insts, ierr := r.ListInstances(c, req.Inst)
	datums, bad, ok := requestedDatums(ri, req, c)
	if !ok {
		return append(sets, bad), false
	}
	cv := s.Class(c)
	for _, di := range datums {
		set := FetchSet{Request: ri, Class: c, Datum: &c.Datums[di], Status: StatusSuccess}
		if ierr != nil {
			set.Status, set.Err = StatusNoInstances, ierr
		} else if set.fill(cv, insts, di, req.Datum != AllData) {
			invalid = true
		}
		sets = append(sets, set)
	}
	return sets, invalid
}

// requestedDatums are the indexes of the datums of c that request ri names: all those with an
// id for AllData, else the one it names. ok is false, with the set that says why, when c has no
// such datum or it is derived, which only a whole-class fetch computes (DCI-TYPE-5).
func requestedDatums(ri int, req MetricID, c *Class) (datums []int, bad FetchSet, ok bool) {
	if req.Datum == AllData {
		for i := range c.Datums {
			if c.Datums[i].ID != InvalidDatumID {
				datums = append(datums, i)
			}
		}
		return datums, FetchSet{}, true
	}
	i := c.DatumIndex(req.Datum)
	switch {
	case i < 0:
		return nil, FetchSet{Request: ri, Class: c, Status: StatusUnknownDatum,
			Err: errf(StatusUnknownDatum, SiNotFound, "class %s has no datum %s", c.ID, req.Datum)}, false
	case c.Datums[i].IsDerived():
		return nil, FetchSet{Request: ri, Class: c, Datum: &c.Datums[i], Status: StatusInvalidArg,
			Err: errf(StatusInvalidArg, SiBadArgument, "datum %s (%s) is UMA_DERIVED: it is computed from a whole-class fetch and cannot be requested alone (DCI-TYPE-5)", c.Datums[i].ID, c.Datums[i].Name)}, false
	}
	return []int{i}, FetchSet{}, true
}

// fill puts datum di's value of each instance into the set. An instance without a value has no
// pmValue (PCPF-7); an invalid value is left out, and makes the set's status InvalidData where
// the datum was named outright (explicit), else is reported by the result (invalid true,
// DCI-INV-3); an unavailable value is left out, its reason the set's status when it is the only
// instance.
func (set *FetchSet) fill(cv *ClassValues, insts []*Instance, di int, explicit bool) (invalid bool) {
	for _, in := range insts {
		v, ok := cv.Value(in, di)
		if !ok {
			continue // no pmValue for an instance without a value (PCPF-7)
		}
		switch v.State {
		case Invalid:
			if ValueStatus(v, explicit) == StatusInvalidData {
				set.Status = StatusInvalidData // explicit reference (DCI-INV-3)
			} else {
				invalid = true
			}
			continue
		case Unavailable:
			if set.Status == StatusSuccess && len(insts) == 1 {
				set.Status = v.Reason.Status()
			}
			continue
		}
		set.Values = append(set.Values, FetchValue{Inst: in, Value: v})
	}
	return invalid
}

// fetchSummary is a result's summary status: the first error of its sets, else
// InvalidDataPresent when a value was left out as invalid, else success.
func fetchSummary(sets []FetchSet, invalidSeen bool) Status {
	for _, set := range sets {
		if set.Status.IsError() {
			return set.Status
		}
	}
	if invalidSeen {
		return StatusInvalidDataPresent
	}
	return StatusSuccess
}
