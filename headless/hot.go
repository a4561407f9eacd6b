package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"dcimon/collect"
	ns "dcimon/namespace"
	"dcimon/views"
)

var feeds = map[string]ns.HotFeed{"none": ns.SiHotNoFeed, "threshold": ns.SiHotThreshold, "always": ns.SiHotAlways}
var excepts = map[string]ns.HotExcept{"none": ns.SiHotNoException, "exception": ns.SiHotException, "trap": ns.SiHotTrap, "both": ns.SiHotBoth}

// hotReading is one JSON line of `dcimon hot --json`.
type hotReading struct {
	Time    time.Time  `json:"time"`
	Elapsed float64    `json:"elapsed"` // the hotset's time_change, seconds
	Sets    []hotJSON  `json:"sets"`
	Events  []hotEvent `json:"events,omitempty"` // exceptions and traps raised by this reading
}

type hotJSON struct {
	Path           string        `json:"path"` // the grandparent (or, for a peer group, its parent)
	Stat           string        `json:"stat"`
	Threshold      float64       `json:"threshold"`       // in threshold_units, the units the statistic is shown in
	ThresholdUnits string        `json:"threshold_units"` // "%", "B/s", "reads/s"
	MaxResp        int           `json:"max_responses"`
	Feed           string        `json:"feed"`
	Except         string        `json:"exceptions"`
	Frequency      int           `json:"frequency"`
	Severity       int           `json:"severity"`
	TrapNo         int           `json:"trap"`
	AvailResp      int           `json:"avail_resp"` // peers meeting the criteria
	Count          int           `json:"count"`      // items returned
	Error          string        `json:"error,omitempty"`
	Items          []hotItemJSON `json:"items"`
}

type hotItemJSON struct {
	Rank int `json:"rank"`
	jsonValue
	Name string `json:"name"`
	// Label is the peer's label where it says more than its name: a process's command.
	Label string `json:"label,omitempty"`
}

// itemLabel is a ranked peer's label when it is not its name (a process is named by its PID
// and labelled with its command), else "".
func itemLabel(it ns.HotItem) string {
	if it.Inst != nil && it.Inst.Label.ASCII != "" && it.Inst.Label.ASCII != it.Name && it.Inst.Label.ASCII != it.Inst.Name {
		return it.Inst.Label.ASCII // a process's command beside its PID; not a name said again
	}
	return ""
}

// itemText is a ranked peer as the text output names it: "1099 sshd" for a process.
func itemText(it ns.HotItem) string {
	if l := itemLabel(it); l != "" {
		return safe(it.Name) + " " + l
	}
	return safe(it.Name)
}

type hotEvent struct {
	Time     time.Time `json:"time"`
	Kind     string    `json:"kind"`
	Text     string    `json:"text"`
	Severity int       `json:"severity,omitempty"`
	TrapNo   int       `json:"trap,omitempty"`
}

// HotOptions are what `dcimon hot` is asked: an SPMI hotset and how often to read it.
type HotOptions struct {
	Common
	Grandparent, Stat string // rank the peers below Grandparent by Stat
	// Stats are names to try in order when Stat is empty (a saved hotset's list): the first the
	// peers carry is ranked.
	Stats []string
	Max   int // maxresp: items per peer group, 0 for all
	// Threshold is typed in the units Stat is shown in (views.ParseThreshold): "50" is 50% on a
	// percentage; > T qualifies, negative: < |T|, ascending (SPMI-HOT-7).
	Threshold        string
	Feed, Except     string        // none|threshold|always; none|exception|trap|both
	Frequency        int           // minutes between exceptions
	Severity, TrapNo int           // of exceptions and traps
	Interval         time.Duration // between readings
	Count            int           // readings to print; 0 until interrupted
	// Name is the saved hotset's name (hot --name), which titles --check's status line.
	Name string
	// Check makes the command a monitoring plugin (check.go): one status line, exit by state.
	Check bool
	// Critical is the critical threshold of Check, typed as Threshold; "" for none.
	Critical string
	// Watch prints a line per exception as it starts and ends, until interrupted (watch.go).
	Watch bool
}

// Hot prints hotset readings (SPMI-HOT-*): the header with qualifying and returned counts and
// the ranked items, one reading per interval. With Check it is a monitoring plugin (check.go);
// with Watch it prints the exceptions as they start and end (watch.go).
func Hot(ctx context.Context, o HotOptions, e Env, w io.Writer) (err error) {
	switch {
	case o.Check:
		return hotCheck(ctx, o, e, w)
	case o.Watch:
		return hotWatch(ctx, o, e, w)
	}
	r, err := openHot(ctx, o, e, nil)
	if err != nil {
		return err
	}
	defer func() { err = damaged(r.as, err) }() // what was read is printed; then the damage is said
	var failed error                            // the last reading's: a hotset that could read nothing exits non-zero
	for n := 0; o.Count == 0 || n < o.Count; n++ {
		snap, evs, ok, err := r.next(ctx)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if err := writeHot(w, r.o.JSON, r.o.NetBits, e, r.reg, snap, r.hs, r.entry, evs); err != nil {
			return err
		}
		failed = nil
		if r.entry.Count == 0 && r.entry.Err != ns.SiSuccess {
			if err := hotClassErr(snap, r.entry); err != nil {
				failed = fmt.Errorf("nothing could be read: %w", err)
			}
		}
		if failed == nil && r.entry.Count == 0 && r.o.Archived() {
			failed = noneRecorded(r.reg, r.o.Grandparent) // nothing to print says why (issue 39 item 5)
		}
	}
	return failed
}

// hotRun is a hotset being read: its source, its one peer set and where the readings are.
type hotRun struct {
	o       HotOptions // with Grandparent and Stat as the name space names them
	e       Env
	s       *collect.Sampler
	as      collect.History
	reg     *ns.Registry
	src     *ns.Reading
	log     *ns.EventLog
	hs      *ns.HotSet
	entry   *ns.HotVals
	measure views.Measure // the statistic's display units
	seen    uint64        // the event log's sequence already handed out
	prev    time.Time     // the last reading's end
	pastTo  func(time.Time) bool
	ticks   *clockTicks // live readings on the clock (cadence.go)
	reads   int         // the readings next has taken
}

// hotPeers are the paths of the statistics a hotset ranks, its peers' (issue 38 item 1: `hot
// Disk busy` reads no partition): each statistic it may rank below each of the grandparent's
// instances. A grandparent given by class id, or a statistic by number, names no class here,
// and nothing is confined.
func hotPeers(o HotOptions) []string {
	var out []string
	for _, st := range append([]string{o.Stat}, o.Stats...) {
		if st != "" {
			out = append(out, strings.TrimSuffix(o.Grandparent, "/")+"/*/"+st)
		}
	}
	return out
}

// openHot opens the source, resolves the hotset's statistic and threshold and adds its peer set,
// as adjust (when not nil) changes the specification, given the statistic's display measure; the first reading is read, its events kept
// for the first reading next gives.
func openHot(ctx context.Context, o HotOptions, e Env, adjust func(*ns.HotSpec, views.Measure) error) (*hotRun, error) {
	o.Common.Interval = o.Interval
	s, as, first, day, err := firstNamedReadingOf(ctx, o.Common, e, hotPeers(o), []string{o.Grandparent})
	if err != nil {
		return nil, err
	}
	reg := s.Registry()
	o.Grandparent = hostPath(o.Common, reg, o.Grandparent)
	src := ns.NewReading(nil)
	src.Publish(first)
	log := ns.NewEventLog(256)
	hs := ns.NewHotSet(reg, src, log)
	if o.Stat == "" && len(o.Stats) > 0 {
		o.Stat = o.Stats[0]
		for _, st := range o.Stats {
			if _, _, err := hs.Statistic(nil, o.Grandparent, st); err == nil {
				o.Stat = st
				break
			}
		}
	}
	o.Grandparent, o.Stat = dciNames(reg, o.Grandparent, o.Stat)
	threshold, m, err := hotThreshold(hs, o)
	if err != nil {
		return nil, damaged(as, err)
	}
	var format func(float64) string // nil while the statistic is not resolved: bare numbers
	if m != (views.Measure{}) {
		format = m.Format
	}
	spec := ns.HotSpec{Grandpa: o.Grandparent, Stat: o.Stat, MaxResp: o.Max, Threshold: threshold,
		Format: format, Feed: feeds[o.Feed], Except: excepts[o.Except], Frequency: o.Frequency, Severity: o.Severity, TrapNo: o.TrapNo}
	if !spec.Except.Exceptions() && !spec.Except.Traps() && spec.Frequency == 5 {
		spec.Frequency = 0 // the default only applies with exceptions; the guide wants 0 otherwise
	}
	if adjust != nil {
		if err := adjust(&spec, m); err != nil {
			return nil, damaged(as, err)
		}
	}
	entry, err := hs.Add(spec)
	if err != nil {
		var ne *ns.Error
		if asNS(err, &ne) && ne.Si == ns.SiBadArgument {
			return nil, &UsageError{Msg: views.PlainError(err)} // plain words (issue 32 item 4)
		}
		if _, _, serr := hs.Statistic(nil, o.Grandparent, o.Stat); serr != nil {
			// People's words first (issue 42 item 3): the grandparent, or the statistic.
			if _, lerr := reg.Lookup(nil, o.Grandparent); lerr != nil {
				return nil, damaged(as, pathError(reg, o.Grandparent, "context", lerr))
			}
			return nil, damaged(as, statError(reg, o.Grandparent, o.Stat, err))
		}
		return nil, damaged(as, err)
	}
	r := &hotRun{o: o, e: e, s: s, as: as, reg: reg, src: src, log: log, hs: hs, entry: entry, measure: m,
		prev: first.End, pastTo: o.pastTo(e.Loc, day, o.endOf(as, e)), ticks: ticksFrom(first, o.Interval, e)}
	// The events of this first reading are printed with the first line of output: a level
	// statistic (a file system's %used) is valid at once, so its exception is raised here, and
	// with a frequency of minutes it is not raised again by the readings that follow (issue 29
	// item 18).
	r.seen = log.Seq()
	if err := hs.Read(false); err != nil {
		return nil, damaged(as, err)
	}
	return r, nil
}

// next waits an interval (or steps the archive), reads and ranks; ok is false when there is
// nothing more to read: the context was cancelled, the archive ended or passed --to. evs are
// the events raised since the last call.
func (r *hotRun) next(ctx context.Context) (snap *ns.Snapshot, evs []ns.Event, ok bool, err error) {
	r.reads++
	if r.o.Archived() {
		if archiveEnded(r.s) || (r.reads > 1 && len(r.o.Archives) > 1 && !stepTogether(r.as, r.prev)) {
			return nil, nil, false, nil // the archive's last sample was read
		}
	} else if err := r.ticks.wait(ctx, r.e); err != nil {
		return nil, nil, false, nil
	}
	snap, err = r.s.Sample(ctx)
	if err != nil {
		return nil, nil, false, nil
	}
	if r.o.Archived() && (archiveEnded(r.s) || !snap.End.After(r.prev) || r.pastTo(snap.End)) {
		return nil, nil, false, nil // past the archive's last sample (or its time stands still)
	}
	r.prev = snap.End
	r.src.Publish(snap)
	if err := r.hs.Read(false); err != nil {
		return nil, nil, false, err
	}
	if seq := r.log.Seq(); seq != r.seen {
		all := r.log.Events()
		evs = all[:min(int(seq-r.seen), len(all))]
		r.seen = seq
	}
	return snap, evs, true, nil
}

// dciNames lets a hotset be named in the DCI view: a grandparent given as an instantiated
// class id (`2.2`) is the context its instances are in (`Disk`), and a statistic given as a datum
// id (`9`, or `0x09`) is that datum's name. Anything else is returned as given: SPMI paths and
// names.
func dciNames(reg *ns.Registry, gp, stat string) (string, string) {
	id, err := ns.ParseClassID(gp)
	if err != nil {
		return gp, stat
	}
	c := reg.Class(id)
	if c == nil || !c.Instantiated() || c.Context() == nil {
		return gp, stat
	}
	if low, err := strconv.ParseUint(stat, 0, 8); err == nil {
		if d := c.Datum(uint8(low)); d != nil {
			stat = d.Name
		}
	}
	return c.Context().Path(), stat
}

// hotThreshold converts the typed threshold from the statistic's display units to its own
// (issue 12). A statistic that cannot be resolved is left for Add to refuse with its SPMI error.
// It also gives the statistic's display measure, for the exception texts.
func hotThreshold(hs *ns.HotSet, o HotOptions) (float64, views.Measure, error) {
	c, d, err := hs.Statistic(nil, o.Grandparent, o.Stat)
	if err != nil {
		return 0, views.Measure{}, nil
	}
	m := views.MeasureWith(views.Options{Class: c, NetBits: o.NetBits}, d)
	t := strings.TrimSpace(o.Threshold)
	if t == "" {
		return 0, m, nil
	}
	v, err := views.ParseThreshold(m, t)
	if err != nil {
		return 0, m, &UsageError{Msg: "--threshold: " + err.Error()}
	}
	return v, m, nil
}

// hotErrText is a peer set's SPMI error with what caused it (issue 12): the reason, and the
// provider's own error (file, line, what was wrong) when its class failed.
func hotErrText(v *ns.HotVals, snap *ns.Snapshot, entry *ns.HotVals) string {
	s := views.ErrWords(v.Err)
	if v.ErrReason != ns.ReasonNone {
		s += " " + v.ErrReason.String()
	}
	if err := hotClassErr(snap, entry); err != nil {
		msg, _, _ := strings.Cut(err.Error(), "\n")
		s += ": " + safe(msg)
	}
	return s
}

// hotClassErr is the error of the class the hotset ranks, nil when it was read; of a fleet's,
// the first host's whose class failed (one whose proc PMDA denies access, issue 40 item 5).
func hotClassErr(snap *ns.Snapshot, entry *ns.HotVals) error {
	if snap == nil {
		return nil
	}
	for _, c := range entry.PeerClasses() {
		if cv := snap.Class(c); cv != nil && cv.Err != nil {
			return cv.Err
		}
	}
	return nil
}

func asNS(err error, target **ns.Error) bool {
	e, ok := err.(*ns.Error)
	if ok {
		*target = e
	}
	return ok
}

// peerSets are the sets to show for an entry: its peer groups when it has them, else itself.
func peerSets(entry *ns.HotVals) []*ns.HotVals {
	if g := entry.Groups(); len(g) > 0 {
		return g
	}
	return []*ns.HotVals{entry}
}

func writeHot(w io.Writer, asJSON, netBits bool, e Env, reg *ns.Registry, snap *ns.Snapshot, hs *ns.HotSet, entry *ns.HotVals, evs []ns.Event) error {
	stat := entry.Stat()
	spec := entry.Spec()
	m := views.MeasureWith(views.Options{Class: entry.StatClass(), NetBits: netBits}, stat)
	if asJSON {
		out := hotReading{Time: hs.Time().UTC(), Elapsed: hs.TimeChange().Seconds(), Sets: []hotJSON{}}
		for _, v := range peerSets(entry) {
			hj := hotJSON{Path: v.Path(), Stat: spec.Stat, Threshold: m.Base(spec.Threshold), ThresholdUnits: m.BaseLabel(), MaxResp: spec.MaxResp,
				Feed: spec.Feed.String(), Except: spec.Except.String(), Frequency: spec.Frequency, Severity: spec.Severity,
				TrapNo: spec.TrapNo, AvailResp: v.AvailResp, Count: v.Count, Items: []hotItemJSON{}}
			if v.Err != ns.SiSuccess {
				hj.Error = hotErrText(v, snap, entry)
			}
			for i, it := range v.Items {
				ref := ns.Ref{Ctx: it.Inst.Context(), Datum: stat}
				opt := viewOptions(e, netBits, reg, snap, it.Inst.Class)
				hj.Items = append(hj.Items, hotItemJSON{Rank: i + 1, Name: it.Name, Label: itemLabel(it), jsonValue: makeJSONValue(ref, it.Val, opt)})
			}
			out.Sets = append(out.Sets, hj)
		}
		for _, ev := range evs {
			out.Events = append(out.Events, hotEvent{Time: ev.Time.UTC(), Kind: ev.Kind.String(), Text: ev.Text, Severity: ev.Severity, TrapNo: ev.TrapNo})
		}
		return json.NewEncoder(w).Encode(out)
	}
	var b strings.Builder
	// SPMI-HOT-7: a positive threshold qualifies values above it, a negative one values below its
	// magnitude, and 0 every value.
	cond := views.ThresholdText(m, spec.Threshold)
	fmt.Fprintf(&b, "# %s  interval %.2f s\n", hs.Time().In(e.Loc).Format("2006-01-02 15:04:05 MST"), hs.TimeChange().Seconds())
	for _, v := range peerSets(entry) {
		fmt.Fprintf(&b, "%s %s  threshold %s  max %d  listed %s  alerts %s — top %d of %d\n",
			safe(v.Path()), safe(spec.Stat), cond, spec.MaxResp, views.FeedWords(spec.Feed), views.ExceptWords(spec.Except), v.Count, v.AvailResp)
		if v.Err != ns.SiSuccess {
			fmt.Fprintf(&b, "  error: %s\n", hotErrText(v, snap, entry))
		}
		nw, vw := 0, 0
		texts := make([]string, len(v.Items))
		for i, it := range v.Items {
			opt := viewOptions(e, netBits, reg, snap, it.Inst.Class)
			texts[i] = views.FormatValue(stat, it.Val, opt)
			nw, vw = max(nw, views.Width(itemText(it))), max(vw, views.Width(texts[i]))
		}
		for i, it := range v.Items {
			name := itemText(it)
			fmt.Fprintf(&b, "  %2d  %s%s  %s\n", i+1, name, strings.Repeat(" ", nw-views.Width(name)), views.PadLeft(texts[i], vw))
		}
	}
	for _, ev := range evs {
		fmt.Fprintf(&b, "! %s %s %s\n", ev.Time.In(e.Loc).Format("15:04:05"), ev.Kind, safe(ev.Text))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
