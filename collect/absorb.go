package collect

import (
	"fmt"
	"slices"
	"time"

	"dcimon/namespace"
)

// absorb turns one provider result into class samples, appended to out, syncing instances and
// updating health.
func (s *Sampler) absorb(out []namespace.ClassSample, ps *provState, req Request, res result, now time.Time) []namespace.ClassSample {
	s.stMu.Lock()
	defer s.stMu.Unlock()
	ps.health.lastDur = res.dur
	if s.opt.Replay {
		// The replay clock is the latest record any archive has read: the other hosts' reads
		// move it meanwhile, so its difference over one reading is no duration of this one's.
		res.dur, res.slack = 0, ReplaySlack
	}
	wasDead := ps.health.liveness == assumedDead
	if res.err == nil {
		s.noteAnswer(ps, req, res, now)
	} else {
		s.noteFailure(ps, res, now)
	}
	if s.diesNow(ps, now) && ps.origin == discovered {
		// A user's supplier's contexts and statistics are removed (SPMI-DDS-4); they are
		// declared again when it updates.
		s.retract(ps, now)
		return out
	}
	if ps.origin == discovered && wasDead && ps.health.liveness == alive {
		s.redescribe(ps, now)
	}
	if res.err == nil && ps.health.liveness == alive {
		return s.readSamples(out, ps, req, res, now)
	}
	return s.failedSamples(out, ps, req, res, now)
}

// noteAnswer updates a provider's health after an answer: its time, a supplier answering again
// or warning anew is logged, and the static and variable datums count as read once every class
// has been read.
func (s *Sampler) noteAnswer(ps *provState, req Request, res result, now time.Time) {
	t := res.batch.Time
	if t.IsZero() {
		t = now.Add(res.dur)
	}
	updated := t.After(ps.lastTime) || ps.lastTime.IsZero()
	if updated {
		ps.lastTime, ps.health.lastOK = t, now
	}
	if ps.health.read == failed || (ps.health.liveness == assumedDead && updated) {
		s.log.Add(namespace.Event{Time: now, Kind: namespace.EvSupplierAlive, Path: ps.sup.Module,
			Text: fmt.Sprintf("supplier %s answers again", ps.sup.Module)})
	}
	ps.health.read, ps.health.lastErr = answered, nil
	s.noteWarning(ps, now)
	ps.health.successes++
	ps.health.reset = res.batch.Reset
	// Static and variable datums count as read once every class has been read.
	if req.Static && (req.Classes == nil || req.every) {
		ps.needStatic = false
	}
	if req.Variable && (req.Classes == nil || req.every) {
		ps.lastVar = now
	}
	if updated {
		ps.health.liveness = alive
	}
}

// noteWarning keeps a provider's warning (a Warner's), logging one that is new or changed.
func (s *Sampler) noteWarning(ps *provState, now time.Time) {
	w, ok := ps.p.(Warner)
	if !ok {
		return
	}
	werr := w.Warning()
	if werr != nil && (ps.health.warning == nil || ps.health.warning.Error() != werr.Error()) {
		s.log.Add(namespace.Event{Time: now, Kind: namespace.EvProviderError, Path: ps.sup.Module,
			Text: fmt.Sprintf("supplier %s: %v", ps.sup.Module, werr)})
	}
	ps.health.warning = werr
}

// noteFailure updates a provider's health after a failure, logging an error that is new.
func (s *Sampler) noteFailure(ps *provState, res result, now time.Time) {
	ps.health.failures++
	if ps.health.read != failed || ps.health.lastErr == nil || ps.health.lastErr.Error() != res.err.Error() {
		s.log.Add(namespace.Event{Time: now, Kind: namespace.EvProviderError, Path: ps.sup.Module,
			Text: fmt.Sprintf("provider %s: %v", ps.sup.Module, res.err)})
	}
	ps.health.read, ps.health.lastErr = failed, res.err
	// Static and variable datums skipped in a reading that never arrived must be read again.
	ps.needStatic = true
	if ps.health.lastOK.IsZero() {
		ps.health.lastOK = now // liveness counts from the first attempt
	}
}

// diesNow says the provider is assumed dead at this reading, marking and logging it so:
// SPMI-DDS-4, no update for longer than the timeout; its instances go.
func (s *Sampler) diesNow(ps *provState, now time.Time) bool {
	if s.opt.Liveness <= 0 || ps.health.liveness == assumedDead || ps.health.lastOK.IsZero() || now.Sub(ps.health.lastOK) <= s.opt.Liveness {
		return false
	}
	ps.health.liveness = assumedDead
	s.log.Add(namespace.Event{Time: now, Kind: namespace.EvSupplierDead, Path: ps.sup.Module,
		Text: fmt.Sprintf("supplier %s: %s", ps.sup.Module, namespace.SiAssumedDead.Line())})
	return true
}

// readSamples appends the samples of a good result's wanted classes, their instances synced
// with the registry.
func (s *Sampler) readSamples(out []namespace.ClassSample, ps *provState, req Request, res result, now time.Time) []namespace.ClassSample {
	for _, cr := range res.batch.Classes {
		if cr.Class == nil || !req.Wants(cr.Class) || (ps.origin == discovered && !slices.Contains(ps.classes, cr.Class)) {
			continue // a user's class the registry refused (a duplicate, SPMI-DDS-2)
		}
		insts, evs, err := s.reg.Sync(cr.Class, cr.Specs, now, ps.insts[cr.Class])
		ps.insts[cr.Class] = insts
		if !cr.Class.Churn {
			s.log.Add(evs...)
		}
		out = append(out, readSample(cr, insts, err, res, now))
	}
	return out
}

// readSample is one class's sample of a result: timed by the class's own time when it has one,
// else the batch's, else the collection's end; its error the reading's, else the instances'.
func readSample(cr ClassReading, insts []*namespace.Instance, syncErr error, res result, now time.Time) namespace.ClassSample {
	cs := namespace.ClassSample{Class: cr.Class, Reset: res.batch.Reset, Time: res.batch.Time,
		Start: now, End: now.Add(res.dur), Insts: insts, Raw: cr.Raw, Err: cr.Err, Slack: res.slack}
	if !cr.Time.IsZero() {
		cs.Time, cs.Times = cr.Time, cr.Times
	}
	if cs.Time.IsZero() {
		cs.Time = cs.End
	}
	if cr.Err != nil {
		cs.ErrReason = namespace.ReasonProviderError
	}
	if syncErr != nil && cr.Err == nil {
		cs.Err, cs.ErrReason = syncErr, namespace.ReasonProviderError
	}
	return cs
}

// failedSamples appends the samples of a failed or dead provider's wanted classes: each with
// the error and its reason, and a dead supplier's contexts removed (SPMI-DDS-4; they come back
// when it does).
func (s *Sampler) failedSamples(out []namespace.ClassSample, ps *provState, req Request, res result, now time.Time) []namespace.ClassSample {
	why, err := res.why, res.err
	if ps.health.liveness == assumedDead {
		why = namespace.ReasonAssumedDead
		if err == nil {
			err = fmt.Errorf("%s: %s", ps.sup.Module, namespace.SiAssumedDead.Line())
		}
	}
	for _, c := range ps.classes {
		if !c.Instantiated() || !req.Wants(c) {
			continue
		}
		insts := s.reg.Instances(c)
		if ps.health.liveness == assumedDead && !c.SingleInstance() && len(insts) > 0 {
			// A dead supplier's contexts are removed (SPMI-DDS-4); they come back when it does.
			_, evs, _ := s.reg.Sync(c, nil, now, nil)
			s.log.Add(evs...)
			insts = nil
		}
		out = append(out, namespace.ClassSample{Class: c, Reset: ps.health.reset, Time: now, Start: now,
			End: now.Add(res.dur), Insts: insts, Err: err, ErrReason: why})
	}
	return out
}
