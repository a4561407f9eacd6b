package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"dcimon/collect"
	"dcimon/views"
)

// HostsOptions are what `dcimon hosts` is asked.
type HostsOptions struct {
	Common
	Interval time.Duration // between readings; the first covers one interval too
	Count    int           // readings to print; 0 until interrupted
	Sort     string        // a column of views.HostKeys; "" is the name
	Reverse  bool          // the other way round: figures largest first unless asked
}

// hostJSON is one host of a fleet in the JSON of `hosts` (docs/json.md): a figure that could
// not be read is null, and why is in why.
type hostJSON struct {
	Name     string   `json:"name"`
	Path     string   `json:"path"`
	State    string   `json:"state"`
	Why      string   `json:"why,omitempty"`
	CPU      *float64 `json:"cpu_percent"`
	Mem      *float64 `json:"mem_used_percent"`
	Load1    *float64 `json:"load1"`
	Disk     *float64 `json:"disk_busy_percent"`
	DiskName string   `json:"disk,omitempty"`
	Net      *float64 `json:"net_bytes_per_second"`
	Age      *float64 `json:"age_seconds"` // since its last reading; null when it never answered
}

// hostsReading is one reading of `hosts --json`.
type hostsReading struct {
	Time    time.Time  `json:"time"`
	Elapsed float64    `json:"elapsed"`
	Answer  int        `json:"answering"`
	Hosts   []hostJSON `json:"hosts"`
}

// Hosts prints the hosts table of a fleet (issue 40 item 4): a row per host with whether it
// answers and why not, its CPU, memory used, 1-minute load, busiest disk and network bytes a
// second, and the age of its reading; the same figures the monitor's hosts table shows. The
// first reading is printed one interval after the start, so its rates are over it.
func Hosts(ctx context.Context, o HostsOptions, e Env, w io.Writer) (err error) {
	key := o.Sort
	if key == "" {
		key = "name"
	}
	if !slices.Contains(views.HostKeys, key) {
		return Usagef("--sort %q: want one of %s", o.Sort, strings.Join(views.HostKeys, ", "))
	}
	desc := key != "name" && key != "state" && key != "age"
	if o.Reverse {
		desc = !desc
	}
	o.Common.Interval = o.Interval
	s, as, first, day, err := firstReadingOf(ctx, o.Common, e)
	if err != nil {
		return err
	}
	defer func() { err = damaged(as, err) }() // what was read is printed; then the damage is said
	reg := s.Registry()
	if len(views.HostRows(reg, first)) == 0 {
		return fmt.Errorf("hosts: the source is not a fleet: give several hosts (--hosts a,b), archives or --series")
	}
	ticks := ticksFrom(first, o.Interval, e)
	prev := first.End
	pastTo := o.pastTo(e.Loc, day, o.endOf(as, e))
	for n := 0; o.Count == 0 || n < o.Count; n++ {
		// The recorded past (archives, series) is read a sample at a time, without waiting.
		if o.Archived() {
			if archiveEnded(s) || (n > 0 && len(o.Archives) > 1 && !stepTogether(as, prev)) {
				return nil
			}
		} else if err := ticks.wait(ctx, e); err != nil {
			return nil
		}
		snap, err := s.Sample(ctx)
		if err != nil {
			return nil
		}
		if o.Archived() && (archiveEnded(s) || !snap.End.After(prev) || pastTo(snap.End)) {
			return nil
		}
		rows := views.HostRows(reg, snap)
		views.SortHosts(rows, key, desc)
		if o.JSON {
			err = writeHostsJSON(w, snap.End, snap.End.Sub(prev), rows)
		} else {
			err = writeHostsText(w, e, snap.End, rows)
		}
		if err != nil {
			return err
		}
		prev = snap.End
	}
	return nil
}

// stepTogether has the next reading of several hosts' archives (after the first, their first
// rates) read each of them up to one time, the next step after prev, as the monitor's replay
// steps: each host's figures are then those of its last sample at or before the reading's time.
// Read a sample each instead, the hosts of a pmlogger that missed a sample (a loaded one does)
// were shown a sample late from then on (issue 40, Truth: TestHostsAgreeWithPmrep). False when
// no archive has a sample after prev.
func stepTogether(past collect.History, prev time.Time) bool {
	if past == nil {
		return true
	}
	tls := past.Timelines()
	var first, last time.Time
	for _, x := range tls {
		if n, ok := x.After(prev); ok {
			if first.IsZero() || n.Before(first) {
				first = n
			}
			last = maxTime(last, n)
		}
	}
	if first.IsZero() {
		return false
	}
	next := last // every archive's next sample, when none has two by then
	for _, x := range tls {
		if x.Count(prev, last, 2) > 1 {
			next = first
			break
		}
	}
	for _, x := range tls {
		x.ReadTo(next)
	}
	return true
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func figure(x float64) *float64 {
	if math.IsNaN(x) {
		return nil
	}
	x = views.Clean(x)
	return &x
}

func writeHostsJSON(w io.Writer, at time.Time, elapsed time.Duration, rows []views.HostRow) error {
	out := hostsReading{Time: at.UTC(), Elapsed: elapsed.Seconds(), Hosts: make([]hostJSON, len(rows))}
	for i, r := range rows {
		h := hostJSON{Name: r.Name, Path: r.Path, State: r.State, Why: r.Why, CPU: figure(r.CPU), Mem: figure(r.Mem),
			Load1: figure(r.Load1), Disk: figure(r.Disk), DiskName: r.DiskName, Net: figure(r.Net)}
		if r.Age >= 0 {
			h.Age = figure(r.Age.Seconds())
		}
		if r.State == "ok" {
			out.Answer++
		}
		out.Hosts[i] = h
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// hostColumns are the text table's columns after the name: heading, width, key.
var hostColumns = []struct {
	head string
	w    int
	key  string
}{{"STATE", 8, "state"}, {"CPU%", 6, "cpu"}, {"MEM%", 6, "mem"}, {"LOAD1", 6, "load"}, {"DISK%", 6, "disk"}, {"NET", 11, "net"}, {"AGE", 6, "age"}}

func writeHostsText(w io.Writer, e Env, at time.Time, rows []views.HostRow) error {
	ok := 0
	nameW := 4
	for _, r := range rows {
		nameW = max(nameW, min(views.Width(views.Safe(r.Name)), 32))
		if r.State == "ok" {
			ok++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s  %d of %d hosts answer\n", at.In(e.Loc).Format("2006-01-02 15:04:05 MST"), ok, len(rows))
	b.WriteString(views.Pad("HOST", nameW))
	for _, c := range hostColumns {
		b.WriteString(" ")
		if c.key == "state" {
			b.WriteString(views.Pad(c.head, c.w))
		} else {
			b.WriteString(views.PadLeft(c.head, c.w))
		}
	}
	b.WriteString("  DISK\n")
	for _, r := range rows {
		b.WriteString(views.Pad(views.HostName(r.Name, nameW), nameW))
		for _, c := range hostColumns {
			b.WriteString(" ")
			if c.key == "state" {
				b.WriteString(views.Pad(views.Safe(r.State), c.w))
				continue
			}
			b.WriteString(views.PadLeft(views.HostFigure(c.key, r), c.w))
		}
		b.WriteString("  ")
		b.WriteString(views.Safe(r.DiskName))
		if r.Why != "" {
			b.WriteString("  (" + views.Safe(r.Why) + ")")
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
