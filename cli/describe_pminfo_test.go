package cli

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"dcimon/internal/pcptest"
	ns "dcimon/namespace"
)

// pmDescOf is a PCP descriptor's type, semantics and units, as words.
type pmDescOf struct{ typ, sem, units string }

// pminfoWords are pminfo -d's words for PCP's types, as the # PCP5 line writes them.
var pminfoWords = map[string]string{"32-bit int": "32", "32-bit unsigned int": "u32", "64-bit int": "64",
	"64-bit unsigned int": "u64", "float": "float", "double": "double", "string": "string"}

// pminfoDescs are the descriptors `pminfo -d` gives the metrics on the pmcd at hostspec.
func pminfoDescs(t *testing.T, hostspec string, metrics []string) map[string]pmDescOf {
	t.Helper()
	out := pcptest.Run(t, "pminfo", append([]string{"-h", hostspec, "-d"}, metrics...)...)
	descs := map[string]pmDescOf{}
	var name string
	for _, l := range strings.Split(out, "\n") {
		switch s := strings.TrimSpace(l); {
		case s == "":
		case !strings.HasPrefix(l, " "):
			name = s
		case strings.HasPrefix(s, "Data Type: "):
			d := descs[name]
			d.typ = pminfoWords[strings.TrimSpace(strings.SplitN(strings.TrimPrefix(s, "Data Type: "), "InDom:", 2)[0])]
			descs[name] = d
		case strings.HasPrefix(s, "Semantics: "):
			sem, units, _ := strings.Cut(strings.TrimPrefix(s, "Semantics: "), "Units: ")
			d := descs[name]
			d.sem, d.units = strings.TrimSpace(sem), strings.TrimSpace(units)
			descs[name] = d
		}
	}
	return descs
}

// pcp5Families are the families of a text by the metric their # PCP5 line names: the line's
// type, semantics and units, and the values of its samples, sorted.
func pcp5Families(t *testing.T, text string) (map[string]pmDescOf, map[string][]float64) {
	t.Helper()
	descs, values := map[string]pmDescOf{}, map[string][]float64{}
	var name string
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) >= 8 && f[0] == "#" && f[1] == "PCP5":
			name = f[2]
			descs[name] = pmDescOf{typ: f[4], sem: f[6], units: strings.Join(f[7:], " ")}
		case len(f) >= 2 && f[0] != "#" && name != "":
			v, err := strconv.ParseFloat(f[len(f)-1], 64)
			if err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			values[name] = append(values[name], v)
		}
	}
	for _, v := range values {
		slices.Sort(v)
	}
	return descs, values
}

// sameUnits says two PCP units texts (pmUnitsStr's "Kbyte / sec", dcimon's "Kbyte/sec") are one.
func sameUnits(a, b string) bool {
	ua, oka := ns.ParsePMUnits(a)
	ub, okb := ns.ParsePMUnits(b)
	return oka && okb && ua == ub
}

// describedPCP is describe's PCP descriptor of path: its metric, type, semantics and units.
func describedPCP(t *testing.T, args ...string) (string, pmDescOf) {
	t.Helper()
	out, errOut, code := runFake(t, append([]string{"describe"}, args...)...)
	if code != 0 {
		t.Fatalf("describe %v: exit %d: %s", args, code, errOut)
	}
	_, sec, ok := strings.Cut(out, "\nPCP descriptor\n")
	if !ok {
		t.Fatalf("describe %v: no PCP descriptor:\n%s", args, out)
	}
	sec, _, _ = strings.Cut(sec, "\n\n")
	var metric string
	var d pmDescOf
	for _, l := range strings.Split(sec, "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(l), " ")
		v = strings.TrimSpace(v)
		switch k {
		case "metric":
			metric = v
		case "type":
			t, _ := ns.ParsePMType(strings.ToLower(strings.TrimPrefix(v, "PM_TYPE_")))
			d.typ = t.Word()
		case "semantics":
			d.sem = strings.ToLower(strings.TrimPrefix(v, "PM_SEM_"))
		case "units":
			d.units, _, _ = strings.Cut(v, " (")
		}
	}
	return metric, d
}

// Issue 39 item 8: a user's statistic read from pmproxy's /metrics is described, and exported by
// `dcimon metrics`, with the descriptor `pminfo -d` gives its metric on the pmcd pmproxy read:
// Kbyte and Mbyte, millisec counters, a double in seconds and a float, each with its type and
// semantics (they were "byte", dcimon's own finer scale of a float, and "double"), named by its
// PCP name; and every exported value is the value pmproxy gave, in that unit (a Kbyte value is
// not a byte value mislabelled).
func TestUsersDescriptorsAsPMInfo(t *testing.T) {
	metrics := []string{"hinv.physmem", "mem.util.used", "kernel.percpu.cpu.user", "kernel.all.uptime", "kernel.all.load",
		"kernel.all.pswitch", "hinv.ncpu"}
	p := pcptest.Start(t)
	text := string(p.Metrics(t, strings.Join(metrics, ",")))
	want := pminfoDescs(t, p.Hostspec(), metrics)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pmproxy.prom"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	src := []string{"--suppliers", dir, "--source", "synthetic:disks=1,nics=1,cpus=1,seed=3"}
	paths := map[string]string{"hinv.physmem": "DDS/pmproxy/hinv_physmem/value", "mem.util.used": "DDS/pmproxy/mem_util_used/value",
		"kernel.percpu.cpu.user": "DDS/pmproxy/kernel_percpu_cpu_user/cpu0/value", "kernel.all.uptime": "DDS/pmproxy/kernel_all_uptime/value",
		"kernel.all.load": "DDS/pmproxy/kernel_all_load/1 minute/value", "kernel.all.pswitch": "DDS/pmproxy/kernel_all_pswitch/value",
		"hinv.ncpu": "DDS/pmproxy/hinv_ncpu/value"}
	for _, m := range metrics {
		w, ok := want[m]
		if !ok || w.typ == "" || w.units == "" {
			t.Fatalf("pminfo -d gave %s no descriptor: %v", m, want)
		}
		metric, got := describedPCP(t, append([]string{paths[m]}, src...)...)
		if metric != m || got.typ != w.typ || got.sem != w.sem || !sameUnits(got.units, w.units) {
			t.Errorf("describe %s: metric %s %+v, pminfo -d says %s %+v", paths[m], metric, got, m, w)
		}
	}
	out, errOut, code := runFake(t, append([]string{"metrics", "DDS/pmproxy"}, src...)...)
	if code != 0 {
		t.Fatalf("metrics: exit %d: %s", code, errOut)
	}
	gotDescs, gotValues := pcp5Families(t, out)
	_, inValues := pcp5Families(t, text)
	for _, m := range metrics {
		w, got := want[m], gotDescs[m]
		if got.typ != w.typ || got.sem != w.sem || !sameUnits(got.units, w.units) {
			t.Errorf("metrics exports %s as %+v, pminfo -d says %+v", m, got, w)
		}
		in, ex := inValues[m], gotValues[m]
		if len(in) == 0 || len(in) != len(ex) {
			t.Errorf("%s: exported values %v, pmproxy gave %v", m, ex, in)
			continue
		}
		for i := range in {
			if w.typ == "float" && float32(ex[i]) == float32(in[i]) {
				continue // pmproxy prints a float's 8 digits (4.6900001): one float32 all the same
			}
			if math.Abs(ex[i]-in[i]) > 1e-9*math.Max(1, math.Abs(in[i])) {
				t.Errorf("%s: exported %v, pmproxy gave %v", m, ex, in)
				break
			}
		}
	}
}

// Issue 39 item 8, without PCP: a text's own # PCP5 declarations (a Kbyte counter, a millisec
// double with decimals, a Kbyte/sec float, a count) are what describe shows and what the export
// declares, with the values in those units; a family without one is named by the PCP name the
// export gives it.
func TestUsersDescriptorsAsDeclared(t *testing.T) {
	text := "# TYPE queue gauge\nqueue 3\n" +
		"# PCP5 acme.cache.size 99.1.1 u64 PM_INDOM_NULL counter Kbyte\n# TYPE cache_size counter\ncache_size 2048\n" +
		"# PCP5 acme.lat 99.1.2 double PM_INDOM_NULL instant millisec\n# TYPE lat gauge\nlat 1.25\n" +
		"# PCP5 acme.rate 99.1.3 float PM_INDOM_NULL instant Kbyte / sec\n# TYPE rate gauge\nrate 3.5\n" +
		"# PCP5 acme.jobs 99.1.4 u32 PM_INDOM_NULL counter count\n# TYPE jobs counter\njobs 7\n"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "acme.prom"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	src := []string{"--suppliers", dir, "--source", "synthetic:disks=1,nics=1,cpus=1,seed=3"}
	want, inValues := pcp5Families(t, text)
	paths := map[string]string{"acme.cache.size": "DDS/acme/cache_size/value", "acme.lat": "DDS/acme/lat/value",
		"acme.rate": "DDS/acme/rate/value", "acme.jobs": "DDS/acme/jobs/value"}
	for m, path := range paths {
		metric, got := describedPCP(t, append([]string{path}, src...)...)
		if w := want[m]; metric != m || got.typ != w.typ || got.sem != w.sem || !sameUnits(got.units, w.units) {
			t.Errorf("describe %s: metric %s %+v, the text declares %s %+v", path, metric, got, m, w)
		}
	}
	out, errOut, code := runFake(t, append([]string{"metrics", "DDS/acme"}, src...)...)
	if code != 0 {
		t.Fatalf("metrics: exit %d: %s", code, errOut)
	}
	gotDescs, gotValues := pcp5Families(t, out)
	for m := range paths {
		if w, got := want[m], gotDescs[m]; got.typ != w.typ || got.sem != w.sem || !sameUnits(got.units, w.units) {
			t.Errorf("metrics exports %s as %+v, the text declares %+v", m, got, w)
		}
		if !slices.Equal(gotValues[m], inValues[m]) {
			t.Errorf("%s: exported %v, the text says %v", m, gotValues[m], inValues[m])
		}
	}
	metric, _ := describedPCP(t, append([]string{"DDS/acme/queue/value"}, src...)...)
	if _, ok := gotDescs[metric]; !ok || metric != "dcimon.dds.acme.queue" {
		t.Errorf("describe names queue's metric %q; the export's are %v", metric, gotDescs)
	}
}
