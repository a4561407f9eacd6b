package headless

// `dcimon hot … --watch` (issue 42 item 4): one line (or one JSON object) per exception as it
// starts and as it ends, until interrupted, for a pager, a chat hook or a log. An exception is a
// peer past the hotset's threshold (SPMI-HOT-7); it starts at the first reading that finds the
// peer past it, and ends at the first that finds it back, or finds the peer gone. A peer whose
// value cannot be read for a while (n/a) keeps its exception open: a missing value is not a
// value back under the threshold. Every peer counts, not only the top --max: a peer that drops
// out of the top N while still past the threshold is still an exception.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"

	ns "dcimon/namespace"
	"dcimon/views"
)

// watchEvent is one line of `dcimon hot --watch --json` (docs/json.md).
type watchEvent struct {
	Time      time.Time `json:"time"`
	Event     string    `json:"event"`           // "start" or "end"
	Path      string    `json:"path"`            // the peer's context
	Name      string    `json:"name"`            // the peer's name
	Label     string    `json:"label,omitempty"` // a process's command beside its PID
	Stat      string    `json:"stat"`
	Value     *float64  `json:"value,omitempty"` // in units; absent when the peer has gone
	Text      string    `json:"text,omitempty"`
	Units     string    `json:"units"`
	Threshold float64   `json:"threshold"` // in units
	Since     time.Time `json:"since"`     // when the exception started
	Duration  float64   `json:"duration"`  // seconds since it started; 0 at its start
	Peak      float64   `json:"peak"`      // the farthest value past the threshold, in units
	Gone      bool      `json:"gone,omitempty"`
}

// openException is a peer past the threshold.
type openException struct {
	in    *ns.Instance
	label string // itemLabel: a process's command
	since time.Time
	peak  float64 // in the datum's own unit
}

// hotWatch reads the hotset until ctx is cancelled, the archive ends or Count readings were
// taken after the first, and prints each
// exception's start and end.
func hotWatch(ctx context.Context, o HotOptions, e Env, w io.Writer) (err error) {
	r, err := openHot(ctx, o, e, func(spec *ns.HotSpec, m views.Measure) error {
		if spec.Threshold == 0 {
			return &UsageError{Msg: "hot --watch needs a --threshold: an exception is a peer past it"}
		}
		// Every valid peer, ranked: one that is not there has no valid value this time.
		spec.Feed, spec.MaxResp, spec.Except, spec.Frequency, spec.Severity, spec.TrapNo = ns.SiHotAlways, 0, ns.SiHotNoException, 0, 0, 0
		return nil
	})
	if err != nil {
		return err
	}
	defer func() { err = damaged(r.as, err) }()
	open := map[*ns.Instance]*openException{}
	t := r.hs.Time()
	if err := r.watchStep(w, open, t); err != nil {
		return err
	}
	for n := 0; o.Count == 0 || n < o.Count; n++ {
		snap, _, ok, err := r.next(ctx)
		if err != nil || !ok {
			return err
		}
		if err := r.watchStep(w, open, snap.End); err != nil {
			return err
		}
	}
	return nil
}

// watchStep compares the hotset's last reading with the open exceptions: it opens those of the
// peers now past the threshold and closes those of the peers back, or gone.
func (r *hotRun) watchStep(w io.Writer, open map[*ns.Instance]*openException, t time.Time) error {
	thr := r.entry.Spec().Threshold
	now := map[*ns.Instance]*ns.HotItem{}
	var starts []*ns.HotItem
	for _, v := range peerSets(r.entry) {
		for i := range v.Items {
			it := &v.Items[i]
			now[it.Inst] = it
			if !beyond(it.Val.V, thr) {
				continue
			}
			if x, ok := open[it.Inst]; ok {
				if farther(it.Val.V, x.peak, thr) {
					x.peak = it.Val.V
				}
				continue
			}
			starts = append(starts, it)
		}
	}
	// Ends first, in the order of the peers' paths, then starts, worst first.
	var ends []*openException
	for in, x := range open {
		it, valid := now[in]
		switch {
		case in.Removed():
		case valid && !beyond(it.Val.V, thr):
		default:
			continue
		}
		ends = append(ends, x)
	}
	sort.Slice(ends, func(i, j int) bool { return ends[i].in.Path() < ends[j].in.Path() })
	for _, x := range ends {
		delete(open, x.in)
		var it *ns.HotItem
		if !x.in.Removed() {
			it = now[x.in]
		}
		if err := r.writeWatch(w, "end", t, x, it); err != nil {
			return err
		}
	}
	for _, it := range starts {
		x := &openException{in: it.Inst, label: itemLabel(*it), since: t, peak: it.Val.V}
		open[it.Inst] = x
		if err := r.writeWatch(w, "start", t, x, it); err != nil {
			return err
		}
	}
	return nil
}

// farther says whether x is farther past threshold t than y.
func farther(x, y, t float64) bool {
	if t < 0 {
		return x < y
	}
	return x > y
}

// writeWatch prints one exception's start or end: it is the peer's reading, nil when it has gone.
func (r *hotRun) writeWatch(w io.Writer, kind string, t time.Time, x *openException, it *ns.HotItem) error {
	m := r.measure
	thr := r.entry.Spec().Threshold
	if r.o.JSON {
		ev := watchEvent{Time: t.UTC(), Event: kind, Path: x.in.Path(), Name: x.in.Name, Label: x.label, Stat: r.o.Stat, Units: m.BaseLabel(),
			Threshold: views.Clean(m.Base(thr)), Since: x.since.UTC(), Duration: t.Sub(x.since).Seconds(), Peak: views.Clean(m.Base(x.peak)), Gone: it == nil}
		if ev.Threshold < 0 {
			ev.Threshold = -ev.Threshold
		}
		if it != nil {
			v := views.Clean(m.Base(it.Val.V))
			ev.Value, ev.Text = &v, m.Format(it.Val.V)
		}
		return json.NewEncoder(w).Encode(ev)
	}
	line := fmt.Sprintf("%s %-5s %s %s", t.In(r.e.Loc).Format("2006-01-02 15:04:05 MST"), kindWord(kind), safe(x.in.Path()), safe(r.o.Stat))
	switch {
	case kind == "start":
		line += " " + m.Format(it.Val.V) + " " + views.ThresholdText(m, thr)
	case it == nil:
		line += fmt.Sprintf(" gone (past %s for %s, at most %s)", views.ThresholdText(m, thr), watchDuration(t.Sub(x.since)), m.Format(x.peak))
	default:
		line += fmt.Sprintf(" %s (past %s for %s, at most %s)", m.Format(it.Val.V), views.ThresholdText(m, thr), watchDuration(t.Sub(x.since)), m.Format(x.peak))
	}
	if x.label != "" {
		line += "  " + x.label // a process's command beside its PID (itemLabel)
	}
	_, err := fmt.Fprintln(w, line)
	return err
}

func kindWord(kind string) string {
	if kind == "start" {
		return "START"
	}
	return "END"
}

// watchDuration is an exception's length as people say it: 45s, 2m10s, 1h5m.
func watchDuration(d time.Duration) string {
	if d < time.Hour {
		return d.Round(time.Second).String()
	}
	return d.Round(time.Minute).String()
}
