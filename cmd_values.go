package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	ns "dcimon/namespace"
	"dcimon/views"
)

func safe(s string) string { return views.Safe(s) }

// viewOptions are the rendering options of the headless commands: local time, the host's boot
// time (for STF_MONOTONIC absolute times) and the class for derived units.
func viewOptions(e env, reg *ns.Registry, snap *ns.Snapshot, c *ns.Class) views.Options {
	return views.Options{Location: e.loc, Boot: bootTime(reg, snap), Class: c, Humanize: true}
}

// bootTime finds the host's boot time in the name space: a top-level statistic whose DCI4 view is
// an absolute C time named like "boot…". Zero when there is none.
func bootTime(reg *ns.Registry, snap *ns.Snapshot) time.Time {
	var t time.Time
	reg.Read(func() {
		for _, c := range reg.Top().Children() {
			if c.Stats == nil || c.StatsInst == nil {
				continue
			}
			for i := range c.Stats.Datums {
				d := &c.Stats.Datums[i]
				if d.DCI4.Type == ns.STTime && d.DCI4.Format == ns.STFCTime && strings.HasPrefix(d.Name, "boot") {
					if cv := snap.Class(c.Stats); cv != nil {
						if v, ok := cv.Value(c.StatsInst, i); ok && v.State == ns.Valid {
							t = time.Unix(int64(v.N), 0)
						}
					}
				}
			}
		}
	})
	return t
}

// jsonValue is one value in the JSON output of get, describe and hot.
type jsonValue struct {
	Path   string   `json:"path"`
	State  string   `json:"state"`            // valid, no rate, invalid, unavailable
	Reason string   `json:"reason,omitempty"` // why it is not valid
	Code   string   `json:"code,omitempty"`   // SPMI code for the reason, e.g. "SiNoValue (189)"
	Text   string   `json:"text"`             // as dcimon shows it: "12.4 MiB/s", "n/a", "—"
	Value  *float64 `json:"value"`            // decoded: rate per second for counters, level otherwise; null when not valid
	Units  string   `json:"units,omitempty"`  // units of value, e.g. "bytes/s", "%"
	Raw    *uint64  `json:"raw,omitempty"`    // val: the raw reading, for integer statistics
	Change *float64 `json:"change,omitempty"` // val_change: the interval delta, for counters
	String *string  `json:"string,omitempty"` // the value of a text statistic
}

func makeJSONValue(ref ns.Ref, v ns.Value, opt views.Options) jsonValue {
	d := ref.Datum
	j := jsonValue{Path: ref.Path(), State: v.State.String(), Text: views.FormatValue(d, v, opt)}
	if v.State != ns.Valid {
		j.Reason = v.Reason.String()
		if code := v.Reason.SiErr(); code != ns.SiSuccess {
			j.Code = fmt.Sprintf("%s (%d)", code, int(code))
		}
		return j
	}
	switch {
	case d.Type == ns.TypeTextString || d.Type == ns.TypeOctetString:
		s := v.S
		if d.Type == ns.TypeOctetString {
			s = j.Text
		}
		j.String = &s
		return j
	}
	val := v.V
	j.Value = &val
	m := views.MeasureFor(opt.Class, d)
	j.Units = m.Label(m.Natural(0)) // value is in the source unit, so label it at its base scale
	if !d.IsDerived() {
		n := v.N
		j.Raw = &n
	}
	if d.IsCounter() {
		c := v.Change
		j.Change = &c
	}
	return j
}

// request is one path asked for on the command line, expanded.
type request struct {
	pattern string
	refs    []ns.Ref
	err     error
}

// getReading is one JSON line of `dcimon get --json`.
type getReading struct {
	Time    time.Time   `json:"time"`
	Elapsed float64     `json:"elapsed"` // seconds since the previous reading
	Values  []jsonValue `json:"values"`
	Errors  []jsonError `json:"errors,omitempty"`
}

type jsonError struct {
	Request string `json:"request"`
	Error   string `json:"error"`
}

// runGet prints values of the requested paths, one value set per request in the order asked
// (PCPF-2, PCPF-11), after one interval so counters show rates (SPMI-SET-15).
func runGet(ctx context.Context, cfg *config, e env, w io.Writer) error {
	s, _, err := firstReading(ctx, cfg, e)
	if err != nil {
		return err
	}
	reg := s.Registry()
	reqs := make([]request, len(cfg.args))
	for i, p := range cfg.args {
		reqs[i].pattern = p
		reqs[i].refs, reqs[i].err = expand(reg, p)
	}
	var prev time.Time
	for n := 0; cfg.count == 0 || n < cfg.count; n++ {
		if err := e.sleep(ctx, cfg.interval); err != nil {
			return nil // interrupted: a clean stop
		}
		snap, err := s.Sample(ctx)
		if err != nil {
			return nil
		}
		// Paths may appear later (an interface that comes up): expand the failed ones again.
		for i := range reqs {
			if reqs[i].err != nil {
				reqs[i].refs, reqs[i].err = expand(reg, reqs[i].pattern)
			}
		}
		if err := writeReading(w, cfg, e, reg, snap, reqs, prev); err != nil {
			return err
		}
		prev = snap.End
	}
	for _, r := range reqs {
		if r.err != nil {
			return fmt.Errorf("%s: %w", r.pattern, r.err)
		}
	}
	return nil
}

func writeReading(w io.Writer, cfg *config, e env, reg *ns.Registry, snap *ns.Snapshot, reqs []request, prev time.Time) error {
	elapsed := 0.0
	if !prev.IsZero() {
		elapsed = snap.End.Sub(prev).Seconds()
	}
	if cfg.c.json {
		out := getReading{Time: snap.End.UTC(), Elapsed: elapsed, Values: []jsonValue{}}
		for _, r := range reqs {
			if r.err != nil {
				out.Errors = append(out.Errors, jsonError{Request: r.pattern, Error: r.err.Error()})
				continue
			}
			for _, ref := range r.refs {
				if ref.Datum == nil {
					out.Errors = append(out.Errors, jsonError{Request: r.pattern, Error: fmt.Sprintf("%s is a context, not a statistic", ref.Path())})
					continue
				}
				v, cv, _ := snap.Lookup(ref)
				out.Values = append(out.Values, makeJSONValue(ref, v, viewOptions(e, reg, snap, classOf(cv, ref))))
			}
		}
		return json.NewEncoder(w).Encode(out)
	}
	type row struct{ path, text, note string }
	var rows []row
	for _, r := range reqs {
		if r.err != nil {
			rows = append(rows, row{safe(r.pattern), "error", r.err.Error()})
			continue
		}
		for _, ref := range r.refs {
			if ref.Datum == nil {
				rows = append(rows, row{safe(ref.Path()), "error", "a context, not a statistic; try " + safe(ref.Path()) + "/*"})
				continue
			}
			v, cv, _ := snap.Lookup(ref)
			opt := viewOptions(e, reg, snap, classOf(cv, ref))
			note := ""
			if v.State != ns.Valid {
				note = "(" + views.Why(v) + ")"
			}
			rows = append(rows, row{safe(ref.Path()), views.FormatValue(ref.Datum, v, opt), note})
		}
	}
	pw, vw := 0, 0
	for _, r := range rows {
		pw, vw = max(pw, views.Width(r.path)), max(vw, views.Width(r.text))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s", snap.End.In(e.loc).Format("2006-01-02 15:04:05 MST"))
	if elapsed > 0 {
		fmt.Fprintf(&b, "  interval %.2f s", elapsed)
	}
	b.WriteByte('\n')
	for _, r := range rows {
		b.WriteString(r.path)
		b.WriteString(strings.Repeat(" ", pw-views.Width(r.path)+2))
		b.WriteString(views.PadLeft(r.text, vw))
		if r.note != "" {
			b.WriteString("  " + r.note)
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func classOf(cv *ns.ClassValues, ref ns.Ref) *ns.Class {
	if cv != nil {
		return cv.Class
	}
	return ref.Ctx.Stats
}

// describeOut is the JSON form of `dcimon describe`.
type describeOut struct {
	Path     string       `json:"path"`
	Kind     string       `json:"kind"` // "context" or "statistic"
	Sections []ns.Section `json:"sections"`
	Value    *jsonValue   `json:"value,omitempty"`
}

// runDescribe prints every attribute of a context or statistic in all four views, as the
// inspector shows them, and for a statistic its current value and status.
func runDescribe(ctx context.Context, cfg *config, e env, w io.Writer) error {
	s, snap, err := firstReading(ctx, cfg, e)
	if err != nil {
		return err
	}
	reg := s.Registry()
	ref, err := reg.Lookup(nil, cfg.args[0])
	if err != nil {
		return err
	}
	out := describeOut{Path: ref.Path(), Kind: "context", Sections: reg.Describe(ref)}
	if ref.Datum != nil {
		out.Kind = "statistic"
		v, cv, _ := snap.Lookup(ref)
		jv := makeJSONValue(ref, v, viewOptions(e, reg, snap, classOf(cv, ref)))
		out.Value = &jv
		val := []ns.Field{{Key: "value", Value: jv.Text}, {Key: "state", Value: jv.State}}
		if jv.Reason != "" {
			val = append(val, ns.Field{Key: "reason", Value: jv.Reason})
		}
		if jv.Raw != nil {
			val = append(val, ns.Field{Key: "val", Value: fmt.Sprint(*jv.Raw)})
		}
		if ref.Datum.IsCounter() && !ref.Datum.IsDerived() {
			val = append(val, ns.Field{Key: "note", Value: "a counter: its rate needs two readings; use dcimon get for rates"})
		}
		out.Sections = append([]ns.Section{{Title: "Value", Fields: val}}, out.Sections...)
	}
	if cfg.c.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", safe(out.Path))
	kw := 0
	for _, sec := range out.Sections {
		for _, f := range sec.Fields {
			kw = max(kw, len(f.Key))
		}
	}
	for _, sec := range out.Sections {
		fmt.Fprintf(&b, "\n%s\n", sec.Title)
		for _, f := range sec.Fields {
			fmt.Fprintf(&b, "  %-*s  %s\n", kw, f.Key, safe(f.Value))
		}
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// runList prints the name space under PATH (or everything).
func runList(ctx context.Context, cfg *config, e env, w io.Writer) error {
	s, snap, err := firstReading(ctx, cfg, e)
	if err != nil {
		return err
	}
	reg := s.Registry()
	root := ns.Ref{Ctx: reg.Top()}
	if len(cfg.args) == 1 {
		if root, err = reg.Lookup(nil, cfg.args[0]); err != nil {
			return err
		}
	}
	host := cfg.c.host
	if host == "" {
		host = hostName(reg, snap)
	}
	return writeList(w, listing(reg, root), safe(host), cfg.types, cfg.ids, cfg.c.json)
}

// hostName is the host's name as the name space has it (a top-level text statistic named
// "hostname"), else "localhost".
func hostName(reg *ns.Registry, snap *ns.Snapshot) string {
	name := ""
	reg.Read(func() {
		for _, c := range reg.Top().Children() {
			if c.Stats == nil || c.StatsInst == nil {
				continue
			}
			if i := c.Stats.DatumByName("hostname"); i >= 0 {
				if v, ok := snap.Class(c.Stats).Value(c.StatsInst, i); ok && v.State == ns.Valid && v.S != "" {
					name = v.S
				}
			}
		}
	})
	if name == "" {
		return "localhost"
	}
	return strings.ReplaceAll(name, "/", "_")
}
