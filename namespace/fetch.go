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
		classes := r.ListClasses(req.Class)
		if len(classes) == 0 {
			res.Sets = append(res.Sets, FetchSet{Request: ri, Status: StatusUnknownClass,
				Err: errf(StatusUnknownClass, SiInvalidCx, "no class matches %s", req.Class)})
			continue
		}
		for _, id := range classes {
			c := r.Class(id)
			if c == nil || !c.Instantiated() {
				if !req.Class.IsQuery() {
					res.Sets = append(res.Sets, FetchSet{Request: ri, Class: c, Status: StatusInvalidArg,
						Err: errf(StatusInvalidArg, SiBadArgument, "class %s is uninstantiated: it has no data (DCI-NS-3)", id)})
				}
				continue
			}
			insts, ierr := r.ListInstances(c, req.Inst)
			var datums []int
			if req.Datum == AllData {
				for i := range c.Datums {
					if c.Datums[i].ID != InvalidDatumID {
						datums = append(datums, i)
					}
				}
			} else {
				i := c.DatumIndex(req.Datum)
				switch {
				case i < 0:
					res.Sets = append(res.Sets, FetchSet{Request: ri, Class: c, Status: StatusUnknownDatum,
						Err: errf(StatusUnknownDatum, SiNotFound, "class %s has no datum %s", c.ID, req.Datum)})
					continue
				case c.Datums[i].IsDerived():
					res.Sets = append(res.Sets, FetchSet{Request: ri, Class: c, Datum: &c.Datums[i], Status: StatusInvalidArg,
						Err: errf(StatusInvalidArg, SiBadArgument, "datum %s (%s) is UMA_DERIVED: it is computed from a whole-class fetch and cannot be requested alone (DCI-TYPE-5)", c.Datums[i].ID, c.Datums[i].Name)})
					continue
				}
				datums = []int{i}
			}
			cv := s.Class(c)
			for _, di := range datums {
				set := FetchSet{Request: ri, Class: c, Datum: &c.Datums[di], Status: StatusSuccess}
				if ierr != nil {
					set.Status, set.Err = StatusNoInstances, ierr
					res.Sets = append(res.Sets, set)
					continue
				}
				for _, in := range insts {
					v, ok := cv.Value(in, di)
					if !ok {
						continue // no pmValue for an instance without a value (PCPF-7)
					}
					switch v.State {
					case Invalid:
						switch ValueStatus(v, req.Datum != AllData) {
						case StatusInvalidData:
							set.Status = StatusInvalidData // explicit reference (DCI-INV-3)
						default:
							invalidSeen = true
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
				res.Sets = append(res.Sets, set)
			}
		}
	}
	for _, set := range res.Sets {
		if set.Status.IsError() {
			res.Summary = set.Status
			return res
		}
	}
	if invalidSeen {
		res.Summary = StatusInvalidDataPresent
	}
	return res
}
