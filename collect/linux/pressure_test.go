package linux

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	ns "dcimon/namespace"
)

func TestParsePressure(t *testing.T) {
	good := "some avg10=1.23 avg60=5.00 avg300=10.07 total=349179942\nfull avg10=0.00 avg60=0.50 avg300=0.00 total=12\n"
	p, err := parsePressure("psi", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if p.some != (psiLine{123, 500, 1007, 349179942, true}) || p.full != (psiLine{0, 50, 0, 12, true}) {
		t.Fatalf("%+v", p)
	}
	// cpu before Linux 5.13 has no full line.
	p, err = parsePressure("psi", []byte("some avg10=0.61 avg60=5.23 avg300=10.07 total=3\n"))
	if err != nil || p.full.present {
		t.Fatalf("some only: %+v %v", p, err)
	}
	for _, bad := range []string{"", "half avg10=0 avg60=0 avg300=0 total=0\n", "some avg10=0.00 avg60=0.00 total=1\n",
		"some avg10=x avg60=0 avg300=0 total=0\n", "some avg10=0.001 avg60=0 avg300=0 total=0\n", "some avg10 avg60=0 avg300=0 total=0\n"} {
		if _, err := parsePressure("psi", []byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func FuzzParsePressure(f *testing.F) {
	f.Add([]byte("some avg10=1.23 avg60=5.00 avg300=10.07 total=349179942\nfull avg10=0.00 avg60=0.50 avg300=0.00 total=12\n"))
	f.Add([]byte("some avg10=0.61 avg60=5.23 avg300=10.07 total=3\n"))
	line := func(kind string, l psiLine) string {
		return fmt.Sprintf("%s avg10=%s avg60=%s avg300=%s total=%d\n", kind, hundredths(l.avg10), hundredths(l.avg60), hundredths(l.avg300), l.total)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip(t, data, parsePressure, func(p psiFile) string {
			if p.full.present {
				return line("some", p.some) + line("full", p.full)
			}
			return line("some", p.some)
		})
	})
}

// issue 19: Pressure reads /proc/pressure; on a kernel without it every value is n/a (not
// supported), never 0; cpu without a full line has its full datums not supported; the totals are
// utilizations.
func TestPressureProvider(t *testing.T) {
	t.Parallel()
	// DCI-CLS-2: a kernel without PSI at all (no /proc/pressure) has the class not applicable:
	// never read, and said so, not a class of n/a values read at every tick (issue 29 item 20).
	none := newRewriteTree(t, "basic")
	none.step(0)
	if v := none.h.Value("Pressure/cpu/some_avg10"); v.State != ns.Unavailable || v.Reason != ns.ReasonClassUnavailable {
		t.Fatalf("no /proc/pressure: %+v, want the class unavailable", v)
	}
	if c := none.h.Reg.Class(ns.ClassID{7, 2}); c == nil || c.Unavailable() != "n/a on this host" || !strings.Contains(c.Help, "/proc/pressure") {
		t.Fatalf("the Pressure class on a kernel without PSI: %+v", c)
	}
	rt := newRewriteTree(t, "basic", "proc/pressure")
	rt.step(0)
	if v := rt.h.Value("Pressure/cpu/some_avg10"); v.State != ns.Unavailable || v.Reason != ns.ReasonNotSupported {
		t.Fatalf("an empty /proc/pressure: %+v, want not supported", v)
	}
	dir := filepath.Join(rt.dir, "proc", "pressure")
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("cpu", "some avg10=1.23 avg60=5.00 avg300=10.07 total=1000000\n")
	write("memory", "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
	write("io", "some avg10=12.50 avg60=3.00 avg300=1.00 total=5000000\nfull avg10=2.00 avg60=1.00 avg300=0.50 total=2000000\n")
	rt.step(time.Second)
	write("cpu", "some avg10=1.23 avg60=5.00 avg300=10.07 total=1250000\n")
	write("io", "some avg10=12.50 avg60=3.00 avg300=1.00 total=5500000\nfull avg10=2.00 avg60=1.00 avg300=0.50 total=2100000\n")
	rt.step(time.Second)
	if v := rt.h.Value("Pressure/cpu/some_avg10"); v.State != ns.Valid || v.N != 123 {
		t.Fatalf("cpu some avg10 %+v", v)
	}
	if v := rt.h.Value("Pressure/cpu/full_avg10"); v.State != ns.Unavailable || v.Reason != ns.ReasonNotSupported {
		t.Fatalf("cpu full without a full line: %+v", v)
	}
	if v := rt.h.Value("Pressure/io/some_total"); v.State != ns.Valid || v.V != 500000 {
		t.Fatalf("io some total rate %+v, want 500000 µs/s", v)
	}
	if v := rt.h.Value("Pressure/memory/full_total"); v.State != ns.Valid || v.V != 0 {
		t.Fatalf("memory full total %+v", v)
	}
	write("io", "some avg10=banana\n")
	rt.step(time.Second)
	if v := rt.h.Value("Pressure/io/some_avg10"); v.State != ns.Unavailable || v.Reason != ns.ReasonProviderError {
		t.Fatalf("a broken io file: %+v", v)
	}
	if v := rt.h.Value("Pressure/cpu/some_avg10"); v.State != ns.Valid {
		t.Fatalf("cpu is unaffected by io: %+v", v)
	}
}

// issue 19: every datum names PCP's metric where the Linux PMDA has it, for the instance
// described: Pressure/io/some_total is kernel.all.pressure.io.some.total.
func TestPressurePCPNames(t *testing.T) {
	t.Parallel()
	rt := newRewriteTree(t, "basic")
	rt.step(0)
	for path, want := range map[string]string{
		"Pressure/io/some_total":  "kernel.all.pressure.io.some.total",
		"Pressure/cpu/full_total": "kernel.all.pressure.cpu.full.total",
		"TCP/retranssegs":         "network.tcp.retranssegs",
	} {
		ref, err := rt.h.Reg.Lookup(nil, path)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, sec := range rt.h.Reg.Describe(ref) {
			for _, f := range sec.Fields {
				if f.Key == "metric" {
					got = f.Value
				}
			}
		}
		if got != want {
			t.Errorf("%s: metric %q, want %q", path, got, want)
		}
	}
}
