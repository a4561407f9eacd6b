package headless

import (
	"fmt"
	"strings"
	"time"

	ns "dcimon/namespace"
	"dcimon/views"
)

func safe(s string) string { return views.Safe(s) }

// viewOptions are the rendering options of the headless commands: local time, the host's boot
// time (for STF_MONOTONIC absolute times) and the class for derived units.
func viewOptions(e Env, netBits bool, reg *ns.Registry, snap *ns.Snapshot, c *ns.Class) views.Options {
	return views.Options{Location: e.Loc, Boot: bootTime(reg, snap), Class: c, Humanize: true, Interface: views.SupplierInterface(c), NetBits: netBits}
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
	Value  *float64 `json:"value"`            // the quantity text shows, in units at base scale; null when not valid
	Units  string   `json:"units,omitempty"`  // units of value: "B/s", "%", "reads/s", "s/op"
	Raw    *uint64  `json:"raw,omitempty"`    // val: the raw reading, for integer statistics, in raw_units
	Change *float64 `json:"change,omitempty"` // val_change: the interval delta, for counters, in raw_units
	// RawUnits is the datum's own unit, the unit of raw and change ("milliseconds", "bytes").
	RawUnits string  `json:"raw_units,omitempty"`
	String   *string `json:"string,omitempty"` // the value of a text statistic
	// Status is the value's DCI status (DCI-RET-1): DCI_SUCCESS; DCI_INVALIDDATA for a datum
	// named exactly and invalid (DCI-INV-3), DCI_INVALIDDATAPRESENT when a wildcard reached it.
	Status string `json:"status,omitempty"`
	// PCPError is the PCP error of a value that is not there: PM_ERR_VALUE, or PM_ERR_NOAGENT
	// when its supplier failed (PCPF-7, PCPD-15).
	PCPError string `json:"pcp_error,omitempty"`
	// Error stands for a request that matched nothing, in its place in the request order
	// (state "error", PCPF-11).
	Error string `json:"error,omitempty"`
	// Recorded is when a value read off an archive was recorded, where that is more than one
	// interval before the reading: one host of several whose archive has ended (issue 30).
	Recorded *time.Time `json:"recorded,omitempty"`
	// SPMI is the statistic's SPMI statset record (SPMI-SET-4): its context, ref_count and
	// per-value error; get reads the statistics it is asked for as one statset. raw and change
	// are the record's val and val_change.
	SPMI *spmiRecord `json:"spmi,omitempty"`
}

func makeJSONValue(ref ns.Ref, v ns.Value, opt views.Options) jsonValue {
	d := ref.Datum
	j := jsonValue{Path: ref.Path(), State: v.State.String(), Text: views.FormatValue(d, v, opt)}
	if e := v.PMErr(); e != 0 {
		j.PCPError = e.String()
	}
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
	// value and units say what text says, at the base of its unit (issue 12): `12.4 MiB/s` is
	// 13002342.4 B/s, `75.0%` is 75 %, a processor's time rate is its utilization in %.
	m := views.MeasureWith(opt, d)
	val := views.Clean(m.Base(v.V))
	j.Value = &val
	j.Units = m.BaseLabel()
	if !d.IsDerived() {
		n := v.N
		j.Raw = &n
		if d.Type != ns.TypeBoolean {
			j.RawUnits = views.RawUnits(opt.Class, d)
		}
	}
	if d.IsCounter() {
		c := v.Change
		j.Change = &c
		j.RawUnits = views.RawUnits(opt.Class, d)
	}
	return j
}
