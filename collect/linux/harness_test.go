package linux

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	ns "dcimon/namespace"
)

// treeTime is a tree's own clock: its boot time plus its uptime, so that two captures are
// exactly as far apart as the machine measured (basic: 1.89 s).
func treeTime(t testing.TB, dir string) time.Time {
	t.Helper()
	ctx := withRoots(context.Background(), treeRoots(dir))
	var fr fileReader
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var st procStat
	if err := readStat(ctx, &fr, &st); err == nil || st.present != 0 {
		if b, ok := st.get(statBtime); ok {
			base = time.Unix(int64(b), 0).UTC()
		}
	}
	up, err := readUptime(ctx, &fr)
	if err != nil {
		return base
	}
	return base.Add(time.Duration(up.upCs) * 10 * time.Millisecond)
}

// pointAt points host providers at a tree and gives them the tree's clock.
func pointAt(t testing.TB, provs []collect.Provider, dir string) {
	t.Helper()
	now := treeTime(t, dir)
	r := treeRoots(dir)
	for _, p := range provs {
		b := baseOf(t, p)
		b.roots, b.now = r, func() time.Time { return now }
	}
}

// baseOf is the part every host provider embeds: its roots and its clock, which tests set.
func baseOf(t testing.TB, p collect.Provider) *base {
	t.Helper()
	hb, ok := p.(interface{ hostBase() *base })
	if !ok {
		t.Fatalf("%T is not a host provider", p)
	}
	return hb.hostBase()
}

func (b *base) hostBase() *base { return b }

// treeProviders are the host providers reading testdata/<scenario>/<tn>.
func treeProviders(t testing.TB, scenario, tn string, showLoop bool) []collect.Provider {
	t.Helper()
	dir := filepath.Join("testdata", scenario, tn)
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
	provs := Providers(Options{Procfs: filepath.Join(dir, "proc"), Sysfs: filepath.Join(dir, "sys"), ShowLoop: showLoop})
	pointAt(t, provs, dir)
	return provs
}

// treeHarness is a harness over the host providers reading testdata/<scenario>/t0, after their
// first, complete collection; the providers are returned to be pointed at the next capture.
func treeHarness(t *testing.T, scenario string, showLoop bool) (*collecttest.Harness, []collect.Provider) {
	t.Helper()
	provs := treeProviders(t, scenario, "t0", showLoop)
	h := collecttest.NewHarness(t, provs)
	h.Step(collect.Request{Static: true, Variable: true})
	return h, provs
}

// dumpBatch writes a stable text form of every class, instance and raw value of one reading.
func dumpBatch(b *strings.Builder, p collect.Provider, batch collect.Batch, err error) {
	sup := p.Supplier()
	fmt.Fprintf(b, "supplier %s %q type %s i_version %d s_version %d handle %d max_stat %d reset %x\n",
		sup.Module, sup.Title, sup.Type, sup.IVersion, sup.SVersion, sup.Handle, sup.MaxStat, batch.Reset[:])
	if err != nil {
		fmt.Fprintf(b, "  error: %v\n", err)
		return
	}
	for _, cr := range batch.Classes {
		c := cr.Class
		fmt.Fprintf(b, "  class %s %s", c.ID, c.Name)
		if cr.Err != nil {
			fmt.Fprintf(b, " error: %s", strings.ReplaceAll(cr.Err.Error(), "\n", " | "))
		}
		b.WriteByte('\n')
		nd := len(c.Datums)
		for k, s := range cr.Specs {
			fmt.Fprintf(b, "    instance %v", s.Levels)
			if s.OSName != "" {
				fmt.Fprintf(b, " os=%q name=%q asn=%d desc=%q", s.OSName, ns.InstanceName(s.OSName), s.ASN, s.Desc)
			}
			for _, a := range s.Attrs {
				fmt.Fprintf(b, " %s=%q", a.Key, a.Value)
			}
			b.WriteByte('\n')
			for d := range c.Datums {
				if c.Datums[d].IsDerived() {
					continue
				}
				r := cr.Raw[k*nd+d]
				if c.Datums[d].ID == ns.InvalidDatumID && r.State == ns.RawOK {
					fmt.Fprintf(b, "      %-14s %v\n", "invalid list", decodeInvalid(r.S))
					continue
				}
				fmt.Fprintf(b, "      %-14s %s\n", c.Datums[d].Name, rawText(r))
			}
		}
	}
}

// decodeInvalid decodes a DCIInvalidData list as the providers encode it (invalidList).
func decodeInvalid(s string) []ns.DatumID {
	var ids []ns.DatumID
	for i := 0; i+4 <= len(s); i += 4 {
		ids = append(ids, ns.DatumID(binary.LittleEndian.Uint32([]byte(s[i:i+4]))))
	}
	return ids
}

func rawText(r ns.Raw) string {
	switch r.State {
	case ns.RawInvalid:
		return "invalid"
	case ns.RawSkipped:
		return "skipped"
	case ns.RawUnavailable:
		return "unavailable (" + r.Reason.String() + ")"
	}
	if r.S != "" {
		return fmt.Sprintf("%q", r.S)
	}
	return fmt.Sprint(r.N)
}

// dumpSnapshot writes every value of every class in a snapshot, derived ones included.
func dumpSnapshot(b *strings.Builder, reg *ns.Registry, snap *ns.Snapshot) {
	for _, c := range reg.Classes() {
		cv := snap.Class(c)
		if cv == nil {
			continue
		}
		for _, in := range cv.Insts {
			if in == nil {
				continue
			}
			fmt.Fprintf(b, "%s (%s)\n", in.Path(), in.Context().ASNPath())
			for d, v := range cv.Row(in) {
				dd := &c.Datums[d]
				if dd.ID == ns.InvalidDatumID {
					fmt.Fprintf(b, "  %-14s %v\n", "invalid list", cv.InvalidList(in))
					continue
				}
				fmt.Fprintf(b, "  %-14s %s\n", dd.Name, valueText(dd, v))
			}
		}
	}
}

func valueText(d *ns.Datum, v ns.Value) string {
	if v.State != ns.Valid {
		return v.State.String() + " (" + v.Reason.String() + ")"
	}
	switch {
	case d.IsDerived() || d.IsCounter():
		return fmt.Sprintf("%.6g", v.V)
	case d.Type.IsNumeric():
		return fmt.Sprint(v.N)
	}
	return fmt.Sprintf("%q", v.S)
}
