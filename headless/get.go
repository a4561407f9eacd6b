// dcimon get: values of statistics, one reading per interval, as text or JSON lines.

package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"dcimon/collect"
	ns "dcimon/namespace"
	"dcimon/views"
)

// request is one path asked for on the command line, expanded.
type request struct {
	pattern string
	all     bool     // wildcards also match implementation datums (--all)
	refs    []ns.Ref // what the next reading prints
	last    []ns.Ref // what the pattern matched at the last expansion
	err     error
}

// expand resolves the request against the name space as it is now. An instance that was shown
// and has gone stays on its row as n/a "instance removed" (never a valid 0): for a path named
// exactly, until it comes back; for a wildcard, for the one reading that notices the removal. An
// instance that returns is a new instance, so its counters start again with "—".
func (r *request) expand(reg *ns.Registry) {
	fresh, err := reg.Glob(r.pattern)
	exact := !strings.ContainsAny(r.pattern, "*?[")
	src := r.last
	if exact {
		src = r.refs
	}
	r.last = fresh
	var gone []ns.Ref
	for _, old := range src {
		if old.Ctx == nil || old.Ctx.StatsInst == nil || !old.Ctx.StatsInst.Removed() {
			continue
		}
		if !slices.ContainsFunc(fresh, func(f ns.Ref) bool { return f.Path() == old.Path() }) {
			gone = append(gone, old)
		}
	}
	if !exact && err == nil {
		all := r.all
		// A wildcard expands to statistics (issue 12): `CPU/*` is CPU's statistics, not an
		// error for each processor's context. Only a context named exactly is an error.
		stats := fresh[:0:0]
		for _, f := range fresh {
			if f.Datum != nil && (all || !f.Datum.Aux) {
				stats = append(stats, f)
			}
		}
		if len(stats) == 0 && len(fresh) > 0 {
			err = fmt.Errorf("%s matches contexts only, no statistic; try %s/*", r.pattern, strings.TrimSuffix(r.pattern, "/"))
		}
		fresh = stats
		r.last = fresh
	}
	switch {
	case err == nil:
		r.refs, r.err = fresh, nil
		if !exact {
			r.refs = append(r.refs, gone...)
		}
	case len(gone) > 0:
		r.refs, r.err = gone, nil
	default:
		r.refs, r.err = nil, err
	}
}

// getReading is one JSON line of `dcimon get --json`.
type getReading struct {
	Time    time.Time   `json:"time"`
	Elapsed float64     `json:"elapsed"` // seconds since the previous reading
	Values  []jsonValue `json:"values"`
	Errors  []jsonError `json:"errors,omitempty"`
	// Status is the reading's summary DCI status (DCI-RET-1): DCI_SUCCESS only when every value
	// is; otherwise the first error, or DCI_INVALIDDATAPRESENT when a wildcard reached invalid data.
	Status string `json:"status"`
}

type jsonError struct {
	Request string `json:"request"`
	Error   string `json:"error"`
}

// GetOptions are what `dcimon get` is asked.
type GetOptions struct {
	Common
	Paths    []string      // statistics, with wildcards in any component ('Disk/*/busy')
	Interval time.Duration // between readings; the first covers one interval too
	Count    int           // readings to print; 0 until interrupted
}

// Get prints values of the requested paths, one value set per request in the order asked
// (PCPF-2, PCPF-11), after one interval so counters show rates (SPMI-SET-15).
func Get(ctx context.Context, o GetOptions, e Env, w io.Writer) (err error) {
	o.Common.Interval = o.Interval
	s, as, first, day, err := firstNamedReadingOf(ctx, o.Common, e, o.Paths, o.Paths)
	if err != nil {
		return err
	}
	defer func() { err = damaged(as, err) }() // what was read is printed; then the damage is said
	reg := s.Registry()
	reqs, err := getRequests(o, reg, first)
	if err != nil {
		return err
	}
	set := newGetSet(reg, first) // the statistics asked for, read as one SPMI statset
	set.sync(reqs)
	// The first printed reading's rates cover the interval since this first reading: its
	// elapsed is that interval, not 0 (issue 12).
	g := &getRun{o: o, e: e, w: w, s: s, reg: reg, set: set, reqs: reqs, prev: first.End,
		pastTo: o.pastTo(e.Loc, day, o.endOf(as, e)), ticks: ticksFrom(first, o.Interval, e),
		shown: map[string]time.Time{}, last: first, as: as}
	defer func() {
		if err == nil && g.printed == 0 && o.Archived() {
			// Nothing to print is said, never a silent success (issue 39 item 5).
			err = fmt.Errorf("nothing to print: the archive has no reading of %s %s", strings.Join(o.Paths, " "), o.span(as))
		}
	}()
	for n := 0; o.Count == 0 || n < o.Count; n++ {
		if stop, err := g.next(ctx); stop {
			return err
		}
	}
	return g.outcome()
}

// getRequests are the requests of the paths asked for, expanded once. When no request can ever
// resolve, that is said at once, not after an interval (issue 32 item 12): paths that stop where
// no instance can come (Nope/x, CPU/nope). One that stops under a class of instances (a disk not
// plugged in yet) is waited for, and beside paths that resolve a bad one is printed in its place
// with its error (PCPF-11, DCI-RET-1).
func getRequests(o GetOptions, reg *ns.Registry, first *ns.Snapshot) ([]request, error) {
	reqs := make([]request, len(o.Paths))
	final := 0
	for i, p := range o.Paths {
		reqs[i].pattern, reqs[i].all = hostPath(o.Common, reg, p), o.All
		reqs[i].expand(reg)
		if neverResolves(reqs[i].err) {
			final++
		}
	}
	if final == len(reqs) && final > 0 {
		return nil, whyNothing(reg, first, reqs[0].pattern, reqErr(reg, reqs[0]))
	}
	return reqs, nil
}

// getRun is the state of `dcimon get` between its readings.
type getRun struct {
	o      GetOptions
	e      Env
	w      io.Writer
	s      *collect.Sampler
	reg    *ns.Registry
	set    *getSet
	reqs   []request
	prev   time.Time // the end of the last reading: the next one's rates start there
	pastTo func(time.Time) bool
	ticks  *clockTicks
	shown  map[string]time.Time // when each statistic printed was recorded
	last   *ns.Snapshot         // the last reading: why a path matched nothing (its class's error)
	as     collect.History      // the archives read, stepped together when there are several
	reads  int                  // the readings next has taken
	// printed counts the readings printed; failed is the last one's failure, if any.
	printed int
	failed  error
}

// next reads and prints one reading; stop says there is no other to read, with the error the
// command ends with (none for the end of an archive or an interruption: a clean stop).
func (g *getRun) next(ctx context.Context) (stop bool, err error) {
	g.reads++
	if g.o.Archived() {
		// Several hosts' archives are read up to one time a reading (stepTogether), so that a
		// host whose pmlogger missed a sample is not shown a sample late from then on.
		if archiveEnded(g.s) || (g.reads > 1 && len(g.o.Archives) > 1 && !stepTogether(g.as, g.last.End)) {
			return true, nil // the archive's last sample was printed
		}
	} else if err := g.ticks.wait(ctx, g.e); err != nil {
		return true, nil // interrupted: a clean stop
	}
	snap, err := g.s.Sample(ctx)
	if err != nil {
		return true, nil
	}
	g.last = snap
	if g.o.Archived() && (archiveEnded(g.s) || !snap.End.After(g.prev) || g.pastTo(snap.End)) {
		return true, nil // past the archive's last sample (or its time stands still): nothing more to print
	}
	// Instances come and go between readings: expand every request again (issue 21).
	for i := range g.reqs {
		g.reqs[i].expand(g.reg)
	}
	g.set.sync(g.reqs)
	if err := g.set.read(snap); err != nil {
		return true, err
	}
	if g.o.From != "" && nothingNew(snap, g.reqs, g.shown) {
		return false, nil // a record of other metrics (another logging group): nothing asked for was logged
	}
	rd, err := g.writeReading(snap)
	if err != nil {
		return true, err
	}
	g.printed++
	g.failed = g.readingFailed(snap, rd)
	g.prev = snap.End
	return false, nil
}

// readingFailed is why a printed reading is no success: nothing could be read, nothing asked for
// is in the archive, or a statistic named exactly could not be given.
func (g *getRun) readingFailed(snap *ns.Snapshot, rd reading) error {
	failed := nothingRead(snap, g.reqs)
	if failed == nil && g.o.Archived() {
		failed = notInArchive(snap, g.reqs)
	}
	if failed == nil && rd.fails {
		// DCI-RET-1: the values are printed, each with its own status; the command says
		// the reading was not a success.
		failed = fmt.Errorf("summary %s: a statistic named exactly could not be given (see its line)", rd.sum)
	}
	return failed
}

// outcome is the error the command ends with after its last reading: a request that never
// resolved, else the last reading's failure.
func (g *getRun) outcome() error {
	for _, r := range g.reqs {
		if r.err != nil {
			if g.o.Archived() {
				// Where the archive read holds none of it (issue 39 item 5).
				return fmt.Errorf("%w; the archive read holds none of it (pmlogger logs what its configuration names; `dcimon list PCP --archive ...` shows the metrics it holds)", reqErr(g.reg, r))
			}
			return whyNothing(g.reg, g.last, r.pattern, reqErr(g.reg, r))
		}
	}
	return g.failed
}

// neverResolves says a path's error is final, so waiting for another reading cannot make it
// resolve: it stopped at a context that holds no instances, or at its last component, which a
// statistic of the context would have matched (statistics are declared, not found), or at an
// empty component (a slash in a name: the error says how to write it).
func neverResolves(err error) bool {
	var ne *ns.Error
	if !errors.As(err, &ne) || ne.At == nil {
		return false
	}
	return !ne.At.Instantiable() || ne.Si == ns.SiNotFound || ne.Name == ""
}

// exact reports whether the request names one statistic, no wildcard: an invalid value it reaches
// is then an error (DCI_INVALIDDATA, DCI-INV-3) rather than a warning.
func (r *request) exact() bool { return !strings.ContainsAny(r.pattern, "*?[") }

// summary is the reading's summary status so far with one more value's (DCI-RET-1): DCI_SUCCESS
// only while every value succeeded; otherwise the first error, or the DCI_INVALIDDATAPRESENT
// warning while there is no error.
func summary(sum, st ns.Status) ns.Status {
	switch {
	case sum.IsError(), st == ns.StatusSuccess:
		return sum
	case st.IsError() || sum == ns.StatusSuccess:
		return st
	}
	return sum
}

// reading is what one printed reading says about the request as a whole.
type reading struct {
	sum ns.Status // the summary status (DCI-RET-1)
	// fails says the command is to exit 1 once the values are printed: a statistic named exactly
	// is invalid for its instance (DCI-INV-3), or a path names nothing. A value that is
	// unavailable for the moment (a provider error, a removed instance, a zero denominator) says
	// why on its line and in the summary, and the command still succeeds, unless nothing at all
	// could be read (nothingRead).
	fails bool
}

// add counts one value of request r.
func (rd *reading) add(r *request, v ns.Value) ns.Status {
	st := ns.ValueStatus(v, r.exact())
	rd.sum = summary(rd.sum, st)
	if v.State == ns.Invalid && r.exact() {
		rd.fails = true
	}
	return st
}

// failed counts a request that matched nothing.
func (rd *reading) failed() {
	rd.sum, rd.fails = summary(rd.sum, ns.StatusUnknownClass), true
}

// nothingRead is an error when every value of the reading failed with its provider (issue 12:
// a command that could read nothing does not exit 0), naming the first provider's error.
func nothingRead(snap *ns.Snapshot, reqs []request) error {
	var first error
	noRate, values := 0, 0
	var why ns.Reason
	for _, r := range reqs {
		for _, ref := range r.refs {
			if ref.Datum == nil {
				continue
			}
			values++
			v, cv, _ := snap.Lookup(ref)
			if v.State == ns.NoRate {
				// A rate asked for that has none (issue 31): the reading is no success when
				// every one is so.
				noRate++
				why = v.Reason
				continue
			}
			if views.Mark(v) != views.MarkError {
				return nil
			}
			if first == nil && cv != nil && cv.Err != nil {
				first = cv.Err
			}
		}
	}
	if values > 0 && noRate == values {
		return fmt.Errorf("no rate could be given: %s", why)
	}
	if first == nil {
		return nil
	}
	return fmt.Errorf("nothing could be read: %w", first)
}

// writeReading prints one reading and returns its summary status (DCI-RET-1).
func (g *getRun) writeReading(snap *ns.Snapshot) (reading, error) {
	elapsed := 0.0
	if !g.prev.IsZero() {
		elapsed = snap.End.Sub(g.prev).Seconds()
	}
	if g.o.JSON {
		return g.writeJSON(snap, elapsed)
	}
	return g.writeText(snap, elapsed)
}

// lookup is a statistic's value in a reading: the statset's where the set holds the statistic,
// else the snapshot's.
func (g *getRun) lookup(snap *ns.Snapshot, ref ns.Ref) (ns.Value, *ns.ClassValues, *ns.StatVal) {
	v, cv, _ := snap.Lookup(ref)
	if sv, rec, ok := g.set.value(ref); ok {
		return sv, cv, rec
	}
	return v, cv, nil
}

// walk visits a reading's requests in order: failed for a request that matched nothing (context
// nil) or a context named where a statistic is read (context set), each counted as a failure;
// value for each statistic.
func (rd *reading) walk(reqs []request, failed func(r *request, context *ns.Ref), value func(r *request, ref ns.Ref)) {
	for i := range reqs {
		r := &reqs[i]
		if r.err != nil {
			failed(r, nil)
			rd.failed()
			continue
		}
		for _, ref := range r.refs {
			if ref.Datum == nil {
				failed(r, &ref)
				rd.failed()
				continue
			}
			value(r, ref)
		}
	}
}

// writeJSON prints a reading as one JSON object (docs/json.md).
func (g *getRun) writeJSON(snap *ns.Snapshot, elapsed float64) (reading, error) {
	out := getReading{Time: snap.End.UTC(), Elapsed: elapsed, Values: []jsonValue{}}
	rd := reading{sum: ns.StatusSuccess}
	// A request that fails keeps its place among the values (PCPF-11), and is listed in errors
	// too, as before.
	rd.walk(g.reqs, func(r *request, context *ns.Ref) {
		msg := ""
		if context == nil {
			msg = r.err.Error()
		} else {
			msg = fmt.Sprintf("%s is a context, not a statistic", context.Path())
		}
		out.Errors = append(out.Errors, jsonError{Request: r.pattern, Error: msg})
		out.Values = append(out.Values, jsonValue{Path: r.pattern, State: "error", Text: "error", Error: msg,
			Status: ns.StatusUnknownClass.String(), PCPError: ns.PMErrPMID.String()})
	}, func(r *request, ref ns.Ref) {
		v, cv, rec := g.lookup(snap, ref)
		jv := makeJSONValue(ref, v, viewOptions(g.e, g.o.NetBits, g.reg, snap, classOf(cv, ref)))
		jv.Status = rd.add(r, v).String()
		if rec != nil {
			jv.SPMI = recordOf(rec)
		}
		if g.o.Archived() && v.State == ns.Valid && stale(cv, ref, snap.End) {
			t := recordedAt(cv, ref).UTC()
			jv.Recorded = &t
		}
		out.Values = append(out.Values, jv)
	})
	out.Status = rd.sum.String()
	return rd, json.NewEncoder(g.w).Encode(out)
}

// textRow is one line of a reading in text: the path, the value and its unit, and a note.
type textRow struct{ path, text, unit, note string }

// writeText prints a reading as text, a line a statistic, the numbers lined up.
func (g *getRun) writeText(snap *ns.Snapshot, elapsed float64) (reading, error) {
	rd := reading{sum: ns.StatusSuccess}
	var rows []textRow
	rd.walk(g.reqs, func(r *request, context *ns.Ref) {
		if context == nil {
			rows = append(rows, textRow{safe(r.pattern), "error", "", r.err.Error()})
		} else {
			rows = append(rows, textRow{safe(context.Path()), "error", "", "a context, not a statistic; try " + safe(context.Path()) + "/*"})
		}
	}, func(r *request, ref ns.Ref) {
		rows = append(rows, g.statRow(snap, &rd, r, ref))
	})
	pw, vw, uw := 0, 0, 0
	for _, r := range rows {
		pw, uw = max(pw, views.Width(r.path)), max(uw, views.Width(r.unit))
		if r.unit != "" || numeric(r.text) {
			vw = max(vw, views.Width(r.text)) // a command line does not push the numbers right
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s", readingTime(snap.End.In(g.e.Loc), g.o.Archived()))
	if elapsed > 0 {
		fmt.Fprintf(&b, "  interval %.2f s", elapsed)
	}
	b.WriteByte('\n')
	for _, r := range rows {
		line := r.path + strings.Repeat(" ", pw-views.Width(r.path)+2)
		if r.unit == "" && !numeric(r.text) {
			// Words, names and dates read from the left, in the value and unit columns.
			line += views.Pad(r.text, vw+1+uw)
		} else {
			line += views.PadLeft(r.text, vw) + " " + views.Pad(r.unit, uw)
		}
		if r.note != "" {
			line += " " + r.note
		}
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(g.w, b.String())
	return rd, err
}

// statRow is a statistic's line: its value and unit, and why it has none (or when it was
// recorded, for a value of an archive that has stopped).
func (g *getRun) statRow(snap *ns.Snapshot, rd *reading, r *request, ref ns.Ref) textRow {
	v, cv, _ := g.lookup(snap, ref)
	opt := viewOptions(g.e, g.o.NetBits, g.reg, snap, classOf(cv, ref))
	note := ""
	if v.State != ns.Valid {
		note = "(" + views.Why(v) + classErr(cv, v)
		if st := rd.add(r, v); v.State == ns.Invalid && st == ns.StatusInvalidData {
			note += "; " + st.String() // named exactly and invalid (DCI-INV-3)
		}
		note += ")"
	} else {
		rd.add(r, v)
		if g.o.Archived() && stale(cv, ref, snap.End) {
			// One host of several whose archive has ended (or samples less often), or a
			// metric logged less often than others: its last values, with when they were
			// recorded (issues 30, 39).
			note = "(recorded " + recordedAt(cv, ref).In(g.e.Loc).Format("15:04:05.000") + ")"
		}
	}
	num, unit := views.FormatValue(ref.Datum, v, opt), ""
	if v.State == ns.Valid {
		num, unit = views.SplitUnit(num)
	}
	return textRow{safe(ref.Path()), num, unit, note}
}

// numeric reports whether a value's text is a plain number or a mark, which line up on the right.
func numeric(text string) bool {
	switch text {
	case views.MarkNA, views.MarkNoRate, views.MarkError, "error":
		return true
	}
	_, err := strconv.ParseFloat(text, 64)
	return err == nil
}

// classErr is ": <the class's error>" for a value that failed with its class (a provider error, a
// timeout), so the reason a file could not be read is on the value's line; "" otherwise.
func classErr(cv *ns.ClassValues, v ns.Value) string {
	if cv == nil || cv.Err == nil || views.Mark(v) != views.MarkError {
		return ""
	}
	msg, _, _ := strings.Cut(cv.Err.Error(), "\n")
	return ": " + safe(msg)
}

func classOf(cv *ns.ClassValues, ref ns.Ref) *ns.Class {
	if cv != nil {
		return cv.Class
	}
	return ref.Ctx.Stats
}

// readingTime is a reading's time as the text output shows it: to the second for a live one, to
// the millisecond for one read off an archive, whose samples a user types times of (issue 30).
func readingTime(t time.Time, archived bool) string {
	if archived {
		return t.Format("2006-01-02 15:04:05.000 MST")
	}
	return t.Format("2006-01-02 15:04:05 MST")
}

// stale says a statistic's values were recorded before a reading at t: more than one of their
// own intervals before it (a replay keeps a host's last values once its archive has ended), or
// at all before it when the archive's metrics have times of their own (a metric not logged at
// the record read, issue 39).
func stale(cv *ns.ClassValues, ref ns.Ref, t time.Time) bool {
	if cv == nil || cv.Time.IsZero() {
		return false
	}
	if cv.Times != nil {
		// A value logged once (a name, a size: pmlogger's once group, dcimon's when they
		// change) is the value until another is logged; a rate kept is marked.
		// Records of one round of pmlogger's groups are a few milliseconds apart: a rate
		// logged in the same round is no kept one.
		return ref.Datum != nil && ref.Datum.IsCounter() && keptFrom(cv, ref, t)
	}
	step := cv.Elapsed
	if step <= 0 {
		step = time.Second
	}
	return t.Sub(cv.Time) > step
}

// span is the time asked for in words, and the archives' span, for a reading that found nothing.
func (o GetOptions) span(as collect.History) string {
	what := "at its default time"
	switch {
	case o.From != "":
		what = "from " + o.From
		if o.To != "" {
			what += " to " + o.To
		}
	case o.At != "":
		what = "at " + o.At
	}
	if as != nil {
		first, last := as.Span()
		what += fmt.Sprintf(" (its samples are from %s to %s)", first.UTC().Format("2006-01-02 15:04:05.000"), last.UTC().Format("2006-01-02 15:04:05.000 MST"))
	}
	return what
}

// nothingNew says a reading of an archive has no value asked for that was logged since the
// reading printed before (shown: when each was recorded then, kept up to date): each is the
// one printed, at a metric's own time (its logging group's, issue 39 item 1).
func nothingNew(snap *ns.Snapshot, reqs []request, shown map[string]time.Time) bool {
	same := true
	for _, r := range reqs {
		for _, ref := range r.refs {
			if ref.Datum == nil {
				return false
			}
			_, cv, _ := snap.Lookup(ref)
			if cv == nil || cv.Times == nil {
				return false
			}
			at := recordedAt(cv, ref)
			if was, ok := shown[ref.Path()]; !ok || !was.Equal(at) {
				same = false
			}
			shown[ref.Path()] = at
		}
	}
	return same
}

// keptFrom says a statistic's value at a reading at t was logged at an earlier round of
// pmlogger's groups (whose records are a few milliseconds apart): kept, not new.
func keptFrom(cv *ns.ClassValues, ref ns.Ref, t time.Time) bool {
	return t.Sub(recordedAt(cv, ref)) > max(50*time.Millisecond, cv.Elapsed/10)
}

// recordedAt is when a statistic's values were recorded: its datum's own time, or its class's.
func recordedAt(cv *ns.ClassValues, ref ns.Ref) time.Time {
	d := -1
	if ref.Datum != nil {
		d = cv.Class.DatumIndex(ref.Datum.ID)
	}
	return cv.TimeOf(d)
}
