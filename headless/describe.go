// dcimon describe: every attribute of a context or statistic in the four views.

package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	ns "dcimon/namespace"
	"dcimon/views"
)

// describeOut is the JSON form of `dcimon describe`.
type describeOut struct {
	Path     string       `json:"path"`
	Kind     string       `json:"kind"` // "context" or "statistic"
	Sections []ns.Section `json:"sections"`
	Value    *jsonValue   `json:"value,omitempty"`
}

// DescribeOptions are what `dcimon describe` is asked.
type DescribeOptions struct {
	Common
	Path string // a context or a statistic
}

// Describe prints every attribute of a context or statistic in all four views, as the
// inspector shows them, and for a statistic its current value and status.
func Describe(ctx context.Context, o DescribeOptions, e Env, w io.Writer) (err error) {
	s, as, snap, _, err := firstReadingOf(ctx, o.Common, e, o.Path)
	if err != nil {
		return err
	}
	defer func() { err = damaged(as, err) }() // what was read is printed; then the damage is said
	reg := s.Registry()
	ref, err := reg.Lookup(nil, hostPath(o.Common, reg, o.Path))
	if err != nil {
		// PCPD-15: the PCP view of the same failure, after people's words (issue 42 item 3).
		if pe, ok := pathError(reg, o.Path, "context or statistic", err).(*PathError); ok {
			return &wordsError{msg: fmt.Sprintf("%s (%s; %s: %s)", pe.Error(), pe.Codes(), ns.PMErrPMID, ns.PMErrPMID.Text()), err: err}
		}
		return fmt.Errorf("%w; %s: %s", err, ns.PMErrPMID, ns.PMErrPMID.Text())
	}
	out := describeOut{Path: ref.Path(), Kind: "context", Sections: reg.Describe(ref)}
	if reset, ok := snap.SupplierReset(ns.DescribedSupplier(ref)); ok {
		ns.LiveReset(out.Sections, reset)
	}
	if ref.Datum != nil {
		views.AddConformance(out.Sections, ref.Ctx.Stats, ref.Datum)
		out.Kind = "statistic"
		v, cv, _ := snap.Lookup(ref)
		jv := makeJSONValue(ref, v, viewOptions(e, o.NetBits, reg, snap, classOf(cv, ref)))
		out.Value = &jv
		val := []ns.Field{{Key: "value", Value: jv.Text}, {Key: "state", Value: jv.State}}
		if jv.Reason != "" {
			val = append(val, ns.Field{Key: "reason", Value: jv.Reason})
		}
		if e := v.PMErr(); e != 0 {
			val = append(val, ns.Field{Key: "pcp error", Value: e.String() + ": " + e.Text()}) // PCPD-15
		}
		if jv.Raw != nil {
			val = append(val, ns.Field{Key: "val", Value: fmt.Sprint(*jv.Raw)})
		}
		if ref.Datum.IsCounter() && !ref.Datum.IsDerived() {
			val = append(val, ns.Field{Key: "note", Value: "a counter: its rate needs two readings; use dcimon get for rates"})
		}
		out.Sections = append([]ns.Section{{Title: "Value", Fields: val}}, out.Sections...)
	}
	if sec, ok := archiveSection(as); ok { // compressed, what a seek costs, what was passed over
		out.Sections = append(out.Sections, sec)
	}
	if o.JSON {
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
