package pmcd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"dcimon/internal/pcptest"
	"dcimon/pcpwire"
)

// dial connects to hostspec under a 10 s deadline, failing the test otherwise.
func dial(t testing.TB, hostspec string) *Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, hostspec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func tctx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// described is the pmids of names and their descriptors, as c has them.
func described(t testing.TB, ctx context.Context, c *Conn, names []string) ([]uint32, []pcpwire.Desc) {
	t.Helper()
	ids, err := c.LookupNames(ctx, names, nil)
	if err != nil {
		t.Fatal(err)
	}
	descs, err := c.Descs(ctx, ids, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ids, descs
}

// pminfoDesc is what pminfo -md prints of one metric.
var pminfoDesc = regexp.MustCompile(`(?m)^(\S+) PMID: (\S+)\n\s+Data Type: (.+?)  InDom: (\S+) \S+\n\s+Semantics: (\S+)  Units: (.+)$`)

var typeNames = map[int32]string{
	pcpwire.Type32: "32-bit int", pcpwire.TypeU32: "32-bit unsigned int", pcpwire.Type64: "64-bit int",
	pcpwire.TypeU64: "64-bit unsigned int", pcpwire.TypeFloat: "float", pcpwire.TypeDouble: "double",
	pcpwire.TypeString: "string",
}

var semNames = map[int32]string{pcpwire.SemCounter: "counter", pcpwire.SemInstant: "instant", pcpwire.SemDiscrete: "discrete"}

// PCPD-1, PCPD-2, PCPD-3, PCPD-7, PCPD-16: names, pmids, descriptors and instance domains read
// through the native protocol are what PCP's own pminfo reads from the same pmcd, directly and
// through pmproxy's relay.
func TestNamesDescsInDomsAgreeWithPminfo(t *testing.T) {
	p := pcptest.Start(t)
	names := []string{"hinv.ncpu", "kernel.all.load", "disk.dev.read", "kernel.all.cpu.user", "mem.util.free", "kernel.uname.release"}
	out := pcptest.Run(t, "pminfo", append([]string{"-h", p.Hostspec(), "-md"}, names...)...)
	theirs := map[string][]string{}
	for _, m := range pminfoDesc.FindAllStringSubmatch(out, -1) {
		theirs[m[1]] = m[2:]
	}
	if len(theirs) != len(names) {
		t.Fatalf("pminfo -md described %d of %d metrics:\n%s", len(theirs), len(names), out)
	}
	for _, spec := range []string{p.Hostspec(), p.ProxyHostspec()} {
		c := dial(t, spec)
		ctx := tctx(t)
		ids, err := c.LookupNames(ctx, append(names, "no.such.metric"), nil)
		if err != nil {
			t.Fatal(err)
		}
		if ids[len(names)] != pcpwire.PMIDNull {
			t.Errorf("%s: an unknown name has pmid %s", spec, pcpwire.PMIDString(ids[len(names)]))
		}
		descs, err := c.Descs(ctx, ids, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, name := range names {
			d, want := descs[i], theirs[name]
			indom := pcpwire.InDomString(d.InDom)
			got := []string{pcpwire.PMIDString(ids[i]), typeNames[d.Type], indom, semNames[d.Sem], d.Units.String()}
			if !slices.Equal(got, want) {
				t.Errorf("%s: %s: %q, pminfo says %q", spec, name, got, want)
			}
		}
		if descs[len(names)].PMID != pcpwire.PMIDNull {
			t.Errorf("%s: the unknown name's descriptor %+v", spec, descs[len(names)])
		}
		// The same through one PDU_DESC_REQ each, as for a pmcd without PDU_DESC_IDS.
		c.greeting.Features &^= pcpwire.FeatureDescs
		one, err := c.Descs(ctx, ids, nil)
		if err != nil || !slices.Equal(one, descs) {
			t.Errorf("%s: one at a time: %+v %v, batched %+v", spec, one, err, descs)
		}
		if d, err := c.Desc(ctx, 0x7fffffff); !errors.Is(err, pcpwire.ErrPMID) && !errors.Is(err, pcpwire.ErrNoAgent) {
			t.Errorf("%s: the descriptor of an unknown pmid: %+v %v", spec, d, err)
		}
		if c.Broken() {
			t.Errorf("%s: broken by an error code pmcd sent", spec)
		}

		// The load average's instances, as pminfo -f names them.
		insts, err := c.InDom(ctx, descs[1].InDom)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, in := range insts {
			got = append(got, fmt.Sprintf("[%d or %q]", in.ID, in.Name))
		}
		f := pcptest.Run(t, "pminfo", "-h", spec, "-f", "kernel.all.load")
		for _, g := range got {
			if !strings.Contains(f, g) {
				t.Errorf("%s: instance %s is not in pminfo's\n%s", spec, g, f)
			}
		}
		if len(insts) != 3 {
			t.Errorf("%s: %d load averages", spec, len(insts))
		}
		if _, err := c.InDom(ctx, 0x7ffffff0); !errors.Is(err, pcpwire.ErrInDom) && !errors.Is(err, pcpwire.ErrNoAgent) {
			t.Errorf("%s: an unknown instance domain: %v", spec, err)
		}
	}
}

// The name space: children with which are metrics, and traversal, agree with pminfo's list of
// the metrics below a node; an unknown node is PM_ERR_NAME with its text.
func TestChildrenAndTraverse(t *testing.T) {
	p := pcptest.Start(t)
	c := dial(t, p.Hostspec())
	ctx := tctx(t)
	leaves := strings.Fields(pcptest.Run(t, "pminfo", "-h", p.Hostspec(), "kernel.all"))
	trav, err := c.Traverse(ctx, "kernel.all")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(trav)
	slices.Sort(leaves)
	if !slices.Equal(trav, leaves) {
		t.Errorf("traverse kernel.all: %d names, pminfo %d", len(trav), len(leaves))
	}
	kids, err := c.Children(ctx, "kernel.all")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range kids {
		full := "kernel.all." + k.Name
		_, isLeaf := slices.BinarySearch(leaves, full)
		under := slices.ContainsFunc(leaves, func(l string) bool { return strings.HasPrefix(l, full+".") })
		if k.Leaf != isLeaf || !k.Leaf && !under {
			t.Errorf("child %s: leaf %v; pminfo lists it %v, below it %v", k.Name, k.Leaf, isLeaf, under)
		}
	}
	root, err := c.Children(ctx, "")
	if err != nil || !slices.ContainsFunc(root, func(k Child) bool { return k.Name == "kernel" && !k.Leaf }) {
		t.Errorf("the root's children: %v %v", root, err)
	}
	_, err = c.Children(ctx, "no.such.node")
	if !errors.Is(err, pcpwire.ErrName) || !strings.Contains(err.Error(), "PM_ERR_NAME: Unknown metric name") ||
		!strings.Contains(err.Error(), p.Hostspec()) {
		t.Errorf("an unknown node: %v", err)
	}
	// pmcd's error code leaves the connection whole.
	if one, err := c.Traverse(ctx, "kernel.all.load"); err != nil || len(one) != 1 {
		t.Errorf("after an error: %v %v", one, err)
	}
}

// value reads one instance's value of a fetched set as a float, by the descriptor's type.
func value(t *testing.T, s pcpwire.ValueSet, d pcpwire.Desc) map[int32]float64 {
	t.Helper()
	out := map[int32]float64{}
	for _, v := range s.Values {
		x, err := v.Float64(d.Type)
		if err != nil {
			t.Fatalf("%s: %v", pcpwire.PMIDString(s.PMID), err)
		}
		out[v.Inst] = x
	}
	return out
}

// pminfoValues reads `pminfo -f`'s values of one metric by instance (PM_IN_NULL for none).
func pminfoValues(t *testing.T, out string) map[int32]float64 {
	t.Helper()
	vals := map[int32]float64{}
	for _, m := range regexp.MustCompile(`(?m)^\s+(?:inst \[(\d+) or "[^"]*"\] )?value (\S+)$`).FindAllStringSubmatch(out, -1) {
		inst := int64(pcpwire.InNull)
		if m[1] != "" {
			inst, _ = strconv.ParseInt(m[1], 10, 32)
		}
		x, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			t.Fatalf("pminfo's value %q: %v", m[2], err)
		}
		vals[int32(inst)] = x
	}
	return vals
}

// PCPF-2, PCPF-4, PCPF-6, PCPF-11: fetched values are pminfo's: the processor count exactly;
// the load averages and the disks' read counter between what this client read just before and
// just after pminfo (they move); a pmid pmcd has no agent for has its error code in its place,
// the others around it unharmed.
func TestFetchAgreesWithPminfo(t *testing.T) {
	p := pcptest.Start(t)
	for _, spec := range []string{p.Hostspec(), p.ProxyHostspec()} {
		c := dial(t, spec)
		ctx := tctx(t)
		names := []string{"hinv.ncpu", "kernel.all.load", "disk.dev.read"}
		ids, descs := described(t, ctx, c, names)
		bogus := uint32(500 << 22) // a domain no agent has
		fetch := append(slices.Clone(ids[:2]), bogus, ids[2])
		var before, after pcpwire.Result
		if _, err := c.Fetch(ctx, fetch, &before); err != nil {
			t.Fatal(err)
		}
		theirs := make([]map[int32]float64, len(names))
		for i, n := range names {
			theirs[i] = pminfoValues(t, pcptest.Run(t, "pminfo", "-h", spec, "-f", n))
		}
		if _, err := c.Fetch(ctx, fetch, &after); err != nil {
			t.Fatal(err)
		}
		if len(after.Sets) != 4 || after.Sets[2].PMID != bogus || after.Sets[2].Err != pcpwire.ErrNoAgent {
			t.Errorf("%s: the set of a pmid without an agent: %+v", spec, after.Sets[2])
		}
		if d := time.Since(after.Time); d < -time.Second || d > 5*time.Second || !after.Time.After(before.Time) {
			t.Errorf("%s: timestamps %v then %v", spec, before.Time, after.Time)
		}
		for i, set := range []int{0, 1, 3} {
			lo, hi := value(t, before.Sets[set], descs[i]), value(t, after.Sets[set], descs[i])
			if len(lo) != len(theirs[i]) || len(hi) != len(theirs[i]) {
				t.Errorf("%s: %s: %d and %d instances, pminfo %d", spec, names[i], len(lo), len(hi), len(theirs[i]))
			}
			for inst, x := range theirs[i] {
				a, b := min(lo[inst], hi[inst]), max(lo[inst], hi[inst])
				if x < a-1e-6*max(1, a) || x > b+1e-6*max(1, b) {
					t.Errorf("%s: %s[%d]: pminfo %v, this client %v then %v", spec, names[i], inst, x, lo[inst], hi[inst])
				}
			}
		}
	}
}

// Help texts, one-line and whole (with libpcp's fallback to the one line), are pminfo -tT's;
// labels of the context, domain, instance domain, item and instances together are pminfo -l's.
func TestHelpAndLabelsAgreeWithPminfo(t *testing.T) {
	p := pcptest.Start(t)
	c := dial(t, p.Hostspec())
	ctx := tctx(t)
	names := []string{"hinv.ncpu", "kernel.all.load"}
	ids, descs := described(t, ctx, c, names)
	help := pcptest.Run(t, "pminfo", "-h", p.Hostspec(), "-tT", names[0], names[1])
	for i, n := range names {
		one, err := c.Text(ctx, ids[i], pcpwire.TextOneLine|pcpwire.TextPMID)
		if err != nil || !strings.Contains(help, n+" ["+one+"]") {
			t.Errorf("%s: one line %q %v; pminfo:\n%s", n, one, err, help)
		}
		full, err := c.Text(ctx, ids[i], pcpwire.TextHelp|pcpwire.TextPMID)
		if err != nil || full == "" || !strings.Contains(help, "Help:\n"+full) {
			t.Errorf("%s: help %q %v; pminfo:\n%s", n, full, err, help)
		}
	}
	if _, err := c.Text(ctx, 0x7fffffff, pcpwire.TextOneLine|pcpwire.TextPMID); err == nil {
		t.Error("the help of an unknown pmid")
	}
	// Texts asks for many at once: the same texts, in order, and "" for a pmid with none (the
	// answers after it still line up).
	many, err := c.Texts(ctx, []uint32{ids[0], 0x7fffffff, ids[1]}, pcpwire.TextOneLine|pcpwire.TextPMID)
	if err != nil || len(many) != 3 || many[1] != "" {
		t.Fatalf("Texts: %q %v", many, err)
	}
	for i, k := range []int{0, 2} {
		one, _ := c.Text(ctx, ids[i], pcpwire.TextOneLine|pcpwire.TextPMID)
		if many[k] != one || one == "" {
			t.Errorf("Texts[%d] = %q, Text = %q", k, many[k], one)
		}
	}

	lab := pcptest.Run(t, "pminfo", "-h", p.Hostspec(), "-l", "kernel.all.load")
	m := regexp.MustCompile(`(?m)^\s+labels (\{.*\})$`).FindStringSubmatch(lab)
	if m == nil {
		t.Fatalf("pminfo -l:\n%s", lab)
	}
	var want map[string]any
	if err := json.Unmarshal([]byte(m[1]), &want); err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	d := descs[1]
	for _, q := range []struct {
		kind  int32
		ident uint32
	}{{pcpwire.LabelContext, 0}, {pcpwire.LabelDomain, d.PMID >> 22}, {pcpwire.LabelInDom, d.InDom}, {pcpwire.LabelCluster, d.PMID}, {pcpwire.LabelItem, d.PMID}} {
		sets, err := c.Labels(ctx, q.kind, q.ident)
		if err != nil {
			t.Fatalf("labels of kind %d: %v", q.kind, err)
		}
		for _, s := range sets {
			for _, l := range s.Labels {
				var v any
				if err := json.Unmarshal([]byte(l.Value), &v); err != nil {
					t.Errorf("label %s's value %q: %v", l.Name, l.Value, err)
				}
				got[l.Name] = v
			}
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("labels %v, pminfo -l %v", got, want)
	}
	inst, err := c.Labels(ctx, pcpwire.LabelInstances, d.InDom)
	if err != nil || len(inst) != 3 {
		t.Errorf("the load averages' instance labels: %+v %v", inst, err)
	}
}

// A profile narrows what a fetch returns (PCPF-1): only the 5-minute load average.
func TestProfile(t *testing.T) {
	p := pcptest.Start(t)
	c := dial(t, p.Hostspec())
	ctx := tctx(t)
	ids, descs := described(t, ctx, c, []string{"kernel.all.load"})
	c.SetProfile(pcpwire.Profile{InDoms: []pcpwire.InDomProfile{{InDom: descs[0].InDom, State: pcpwire.ProfileExclude, Insts: []int32{5}}}})
	var r pcpwire.Result
	if _, err := c.Fetch(ctx, ids, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Sets[0].Values) != 1 || r.Sets[0].Values[0].Inst != 5 {
		t.Errorf("a profile of the 5-minute average gave %+v", r.Sets[0].Values)
	}
	c.SetProfile(pcpwire.Profile{})
	if _, err := c.Fetch(ctx, ids, &r); err != nil || len(r.Sets[0].Values) != 3 {
		t.Errorf("the whole profile again: %+v %v", r.Sets[0].Values, err)
	}
}

// A steady fetch allocates almost nothing: the request and the answer are read and written in
// the connection's buffers and decoded into the caller's result; what is left is the context's
// watch for cancellation (context.AfterFunc, 3 allocations).
func TestFetchSteadyStateAllocations(t *testing.T) {
	p := pcptest.Start(t)
	c := dial(t, p.Hostspec())
	ctx := tctx(t)
	ids, err := c.LookupNames(ctx, []string{"hinv.ncpu", "kernel.all.load", "disk.dev.read", "kernel.all.cpu.user", "mem.util.free"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var r pcpwire.Result
	if _, err := c.Fetch(ctx, ids, &r); err != nil {
		t.Fatal(err)
	}
	n := testing.AllocsPerRun(50, func() {
		if _, err := c.Fetch(ctx, ids, &r); err != nil {
			t.Fatal(err)
		}
	})
	if n > 4 {
		t.Errorf("%v allocations a fetch", n)
	}
}
