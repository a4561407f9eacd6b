package pcparchive

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dcimon/internal/pcptest"
)

// writeSample writes a small archive of every type the writer knows: a 64-bit counter, a
// 32-bit value, a float and a double of a set of instances, and a string.
func writeSample(t *testing.T, version int) (string, []string) {
	t.Helper()
	base := filepath.Join(t.TempDir(), "w")
	start := time.Date(2026, 11, 25, 3, 12, 0, 123456000, time.UTC)
	w, err := Create(base, version, Label{PID: 4242, Start: start, Host: "db1", TZ: "UTC", Zoneinfo: ":UTC"})
	if err != nil {
		t.Fatal(err)
	}
	w.IndexEvery = 2
	if err := w.PutLabels(start, LabelContext, 0, map[string]string{"hostname": "db1", "machineid": "0a1b", "zone": `a "quoted" place`}); err != nil {
		t.Fatal(err)
	}
	disk := InDomOf(60, 1)
	descs := []Desc{
		{PMID: PMID(60, 0, 4), Type: TypeU64, InDom: disk, Sem: 1, Units: CountUnits, Names: []string{"disk.dev.read"}},
		{PMID: PMID(60, 0, 32), Type: TypeU32, InDom: InDomNull, Sem: 4, Names: []string{"hinv.ncpu"}},
		{PMID: PMID(60, 2, 0), Type: TypeFloat, InDom: InDomOf(60, 2), Sem: 3, Names: []string{"kernel.all.load"}},
		{PMID: PMID(245, 0, 1), Type: TypeDouble, InDom: InDomNull, Sem: 3, Names: []string{"dcimon.test.ratio"}},
		{PMID: PMID(60, 12, 0), Type: TypeString, InDom: InDomNull, Sem: 4, Names: []string{"kernel.uname.release"}},
	}
	for _, d := range descs {
		if err := w.PutDesc(d); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.PutText(Text{Type: 1 | 4, Ident: PMID(60, 0, 4), Text: "per-disk read operations"}); err != nil {
		t.Fatal(err)
	}
	for _, in := range []InDom{
		{Time: start, InDom: disk, Instances: []int32{0, 1}, Names: []string{"sda", "nvme0n1"}},
		{Time: start, InDom: InDomOf(60, 2), Instances: []int32{1, 5, 15}, Names: []string{"1 minute", "5 minute", "15 minute"}},
	} {
		if err := w.PutInDom(in); err != nil {
			t.Fatal(err)
		}
	}
	var want []string
	var end time.Time
	for k := range 5 {
		end = start.Add(time.Duration(k) * time.Second)
		reads := uint64(1<<60) + uint64(100*k)
		sets := []OutSet{
			{PMID: PMID(60, 0, 4), Values: []OutValue{{Inst: 0, N: reads}, {Inst: 1, N: uint64(7 * k)}}},
			{PMID: PMID(60, 0, 32), Values: []OutValue{{Inst: -1, N: 8}}},
			{PMID: PMID(60, 2, 0), Values: []OutValue{{Inst: 1, F: 0.5 + float64(k)}, {Inst: 5, F: 0.25}, {Inst: 15, F: 2}}},
			{PMID: PMID(245, 0, 1), Values: []OutValue{{Inst: -1, F: 1.0 / 3}}},
			{PMID: PMID(60, 12, 0), Values: []OutValue{{Inst: -1, S: fmt.Sprintf("6.18.%d-test", k)}}},
		}
		if err := w.PutResult(end, sets); err != nil {
			t.Fatal(err)
		}
		want = append(want,
			fmt.Sprintf("60.0.4 0 %d", reads), fmt.Sprintf("60.0.4 1 %d", 7*k), "60.0.32 -1 8",
			fmt.Sprintf("60.2.0 1 ~%g", 0.5+float64(k)), "60.2.0 5 ~0.25", "60.2.0 15 ~2",
			"245.0.1 -1 ~0.3333333333333333", fmt.Sprintf("60.12.0 -1 %q", fmt.Sprintf("6.18.%d-test", k)))
	}
	if err := w.CloseAt(end); err != nil {
		t.Fatal(err)
	}
	return base, want
}

// Issue 15: what the writer writes, of both versions, PCP's own tools read: pmlogcheck finds
// nothing wrong, pmdumplog shows the same descriptions and values, and this package reads them
// back the same (a counter above 2^53 exactly).
func TestWriterReadByPCP(t *testing.T) {
	if ok, why := pcptest.Installed(); !ok {
		t.Skip(why)
	}
	for _, v := range []int{2, 3} {
		t.Run(fmt.Sprintf("version%d", v), func(t *testing.T) {
			base, want := writeSample(t, v)
			if out := pcpRun(t, "pmlogcheck", base); strings.TrimSpace(out) != "" {
				t.Errorf("pmlogcheck:\n%s", out)
			}
			dump := pcpRun(t, "pmdumplog", "-a", base)
			labels := pcpRun(t, "pmdumplog", "-e", base)
			if want := `{"hostname":"db1","machineid":"0a1b","zone":"a \"quoted\" place"}`; !strings.Contains(labels, want) ||
				!strings.Contains(labels, "name(2,8) : value(12,5) [context]") {
				t.Errorf("pmdumplog -e does not show the context labels %s as written:\n%s", want, labels)
			}
			for _, s := range []string{"Log Format Version " + fmt.Sprint(v), "from host db1", "PMID: 60.0.4 (disk.dev.read)",
				`0 or "sda"`, `15 or "15 minute"`, "PMID: 245.0.1 (dcimon.test.ratio)"} {
				if !strings.Contains(dump, s) {
					t.Errorf("pmdumplog has no %q:\n%s", s, dump)
				}
			}
			theirs := dumped(t, base)
			if len(theirs) != len(want) {
				t.Fatalf("pmdumplog shows %d values, %d written:\n%q", len(theirs), len(want), theirs)
			}
			for i := range want {
				if !sameValue(want[i], theirs[i]) {
					t.Errorf("value %d: wrote %s, pmdumplog says %s", i, want[i], theirs[i])
				}
			}
			a, err := Open(base)
			if l, err := ReadLabel(base + ".0"); err != nil || l.Host != a.Label.Host || !l.Start.Equal(a.Label.Start) || l.Version != v {
				t.Errorf("ReadLabel = %+v, %v; Open's label %+v", l, err, a.Label)
			}
			if err != nil {
				t.Fatal(err)
			}
			got := ours(t, a)
			for i := range want {
				if i >= len(got) || !sameValue(got[i], strings.TrimPrefix(want[i], "~")) && got[i] != want[i] {
					t.Errorf("value %d: wrote %s, read %v", i, want[i], got[min(i, len(got)-1)])
				}
			}
			if len(a.Index) < 3 {
				t.Errorf("%d index entries, want the start, every second record and the end", len(a.Index))
			}
		})
	}
}

// A writer never overwrites an archive that is there: it is a user's file.
func TestWriterKeepsExisting(t *testing.T) {
	base, _ := writeSample(t, 2)
	if _, err := Create(base, 2, Label{Start: time.Now()}); err == nil {
		t.Error("an existing archive was opened for writing")
	}
}
