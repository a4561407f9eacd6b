package views

import (
	"errors"
	"math"
	"testing"

	ns "dcimon/namespace"
)

func TestSignificantDigits(t *testing.T) {
	cases := []struct {
		y     float64
		lone  string
		fixed string
	}{
		{1.234, "1.23", "1.23"},
		{12.34, "12.3", "12.3"},
		{123.4, "123", "123"},
		{0.1234, "0.123", "0.123"},
		{0.01234, "0.012", "0.012"},
		{1.5, "1.5", "1.50"},
		{2, "2", "2.00"},
		{9.996, "10.0", "10.0"}, // issue 12: zeros standing for rounded digits stay
		{99.96, "100", "100"},
		{0.99951, "1.00", "1.00"},
		{1.0002, "1.00", "1.00"}, // issue 12: clock_ms at 1000.2 ms/s
		{1010, "1010", "1010"},
		{0, "0", "0"},
		{0.0001, "0", "0"},
		{-0.0001, "0", "0"},
		{-1.5, "-1.5", "-1.50"},
		{math.NaN(), "?", "?"},
	}
	for _, c := range cases {
		if got := string(appendSig(nil, c.y, false, 0)); got != c.lone {
			t.Errorf("lone %g = %q, want %q", c.y, got, c.lone)
		}
		if got := string(appendSig(nil, c.y, true, 0)); got != c.fixed {
			t.Errorf("fixed %g = %q, want %q", c.y, got, c.fixed)
		}
	}
}

func TestUnitMeasureFormat(t *testing.T) {
	cases := []struct {
		name string
		m    Measure
		v    float64
		want string
	}{
		// DCI-UNIT-2 / AMB-29: base 1024, KiB labels, scaled mode.
		{"DCI-UNIT-2 2048 KB scaled", UnitMeasure(ns.UnitKBytes, 0), 2048, "2 MiB"},
		{"DCI-UNIT-2 bytes", UnitMeasure(ns.UnitBytes, 0), 512, "512 B"},
		{"AMB-29 1023 B stays B", UnitMeasure(ns.UnitBytes, 0), 1023, "1023 B"},
		{"AMB-29 1024 B is 1 KiB", UnitMeasure(ns.UnitBytes, 0), 1024, "1 KiB"},
		{"DCI-UNIT-2 terabytes", UnitMeasure(ns.UnitTBytes, 0), 3, "3 TiB"},
		{"DCI-UNIT-2 beyond TiB", UnitMeasure(ns.UnitTBytes, 0), 4096, "4 PiB"},
		{"X-2 12.4 MiB/s", UnitMeasure(ns.UnitBytes, 0).PerSecond(), 13002342.4, "12.4 MiB/s"},
		// DCI-UNIT-3: times, ticks need the tick rate.
		{"DCI-UNIT-3 250 ticks at 100 Hz", UnitMeasure(ns.UnitTicks, 100), 250, "2.50 s"},
		{"DCI-UNIT-3 200 ticks at 100 Hz", UnitMeasure(ns.UnitTicks, 100), 200, "2.00 s"},
		{"DCI-UNIT-3 5 ticks at 100 Hz", UnitMeasure(ns.UnitTicks, 100), 5, "50 ms"},
		{"DCI-UNIT-3 ticks without a rate", UnitMeasure(ns.UnitTicks, 0), 250, "250 ticks"},
		{"DCI-UNIT-3 1500000 ps", UnitMeasure(ns.UnitPicosecs, 0), 1500000, "1.5 µs"},
		{"DCI-UNIT-3 ms to s", UnitMeasure(ns.UnitMillisecs, 0), 2500, "2.5 s"},
		{"DCI-UNIT-3 ms stays ms", UnitMeasure(ns.UnitMillisecs, 0), 830, "830 ms"},
		{"DCI-UNIT-3 seconds to minutes", UnitMeasure(ns.UnitSecs, 0), 90, "1.5 min"},
		{"DCI-UNIT-3 hours", UnitMeasure(ns.UnitSecs, 0), 7200, "2 h"},
		{"DCI-UNIT-3 ns", UnitMeasure(ns.UnitNanosecs, 0), 42, "42 ns"},
		{"DCI-UNIT-3 µs", UnitMeasure(ns.UnitMicrosecs, 0), 1234, "1.23 ms"},
		{"time rate stops at s", UnitMeasure(ns.UnitMillisecs, 0).PerSecond(), 120000, "120 s/s"},
		// DCI-UNIT-4/5: counts with their noun, k/M.
		{"X-2 830 reads/s", UnitMeasure(ns.UnitReads, 0).PerSecond(), 830, "830 reads/s"},
		{"DCI-UNIT-5 12.3k reads/s", UnitMeasure(ns.UnitReads, 0).PerSecond(), 12345, "12.3k reads/s"},
		{"DCI-UNIT-4 packets", UnitMeasure(ns.UnitPackets, 0), 1.2e6, "1.2M pkts"},
		{"PCPD-3 100/s", UnitMeasure(ns.UnitCount, 0).PerSecond(), 100, "100/s"},
		{"DCI-UNIT-4 plain count", UnitMeasure(ns.UnitQLength, 0), 3, "3"},
		{"DCI-UNIT-4 giga", UnitMeasure(ns.UnitEvent, 0), 2.5e9, "2.5G events"},
		{"DCI-UNIT-4 fraction of a count", UnitMeasure(ns.UnitWrites, 0).PerSecond(), 0.5, "0.5 writes/s"},
		// DCI-UNIT-6: extension units are not scaled.
		{"DCI-UNIT-6 extension", UnitMeasure(70000, 0), 42, "42 unit 70000 (extension)"},
		{"DCI-UNIT-6 unknown predefined", UnitMeasure(60000, 0), 1234, "1234 unit 60000 (unknown)"},
		// DCI-UNIT-7 / AMB-17.
		{"AMB-17 percent", UnitMeasure(ns.DerivedPercent, 0), 0.75, "75.0%"},
		{"AMB-17 percent full", UnitMeasure(ns.DerivedPercent, 0), 1, "100.0%"},
		{"AMB-17 percent zero", UnitMeasure(ns.DerivedPercent, 0), 0, "0.0%"},
		{"DCI-UNIT-1 no units", UnitMeasure(ns.UnitNone, 0), 1.25, "1.25"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.m.Format(c.v); got != c.want {
				t.Fatalf("Format(%g) = %q, want %q", c.v, got, c.want)
			}
		})
	}
}

// DCI-UNIT-1, DCI-UNIT-4, DCI-UNIT-5, DCI-UNIT-6: the units column shows the document's text.
func TestUnitText(t *testing.T) {
	cases := []struct {
		u    ns.Unit
		want string
	}{
		{ns.UnitNone, "no units"},
		{ns.UnitKBytes, "kilobytes"},
		{ns.UnitTicks, "machine clock ticks"},
		{ns.UnitMarks, "tape marks"},
		{ns.UnitStreamsMsgs, "message blocks"},
		{ns.UnitChannels, "I/O channels"},
		{ns.UnitFilesystems, "file systems"},
		{70000, "unit 70000 (extension)"},
	}
	for _, c := range cases {
		if got := UnitText(c.u); got != c.want {
			t.Errorf("UnitText(%d) = %q, want %q", c.u, got, c.want)
		}
	}
	// DCI-UNIT-1: every predefined unit belongs to exactly one kind, and each has a measure.
	for u := ns.UnitNone; u <= ns.DerivedVariance; u++ {
		if u.Kind() == ns.KindExtension {
			t.Errorf("unit %s has no kind", u)
		}
		if m := UnitMeasure(u, 100); m.Kind == KindOther {
			t.Errorf("predefined unit %s is not scaled", u)
		}
	}
}

// The column rule: one unit for the whole column, the scale of its largest value.
func TestColumnScale(t *testing.T) {
	m := UnitMeasure(ns.UnitBytes, 0).PerSecond()
	vs := []float64{12 << 20, 500 << 10, 5, 0}
	sc := ColumnScale(m, vs)
	want := []string{"12.0 MiB/s", "0.488 MiB/s", "0 MiB/s", "0 MiB/s"}
	for i, v := range vs {
		if got := string(m.Append(nil, v, sc, true)); got != want[i] {
			t.Errorf("cell %d = %q, want %q", i, got, want[i])
		}
	}
	if got := m.Label(sc); got != "MiB/s" {
		t.Errorf("label %q", got)
	}
	if got := UnitMeasure(ns.UnitReads, 0).PerSecond().Label(1); got != "k reads/s" {
		t.Errorf("label %q", got)
	}
	if got := UnitMeasure(ns.DerivedPercent, 0).Label(Auto); got != "%" {
		t.Errorf("label %q", got)
	}
}

// The hysteresis rule: up at 1.0× the next unit, down below 0.9× the current one.
func TestScalerHysteresis(t *testing.T) {
	m := UnitMeasure(ns.UnitKBytes, 0).PerSecond() // values in KiB/s
	var s Scaler
	steps := []struct {
		kib  float64
		want string
	}{
		{999, "999 KiB/s"},
		{1000, "1000 KiB/s"},
		{1010, "1010 KiB/s"},
		{999, "999 KiB/s"},
		{1024, "1.00 MiB/s"}, // reaches 1.0× MiB: up
		{1000, "0.977 MiB/s"},
		{999, "0.976 MiB/s"}, // hovering: no flip back
		{1030, "1.01 MiB/s"},
		{922, "0.900 MiB/s"}, // 922 KiB ≥ 0.9 MiB: stays
		{0, "0 MiB/s"},       // zero keeps the scale
		{921, "921 KiB/s"},   // below 0.9 MiB: down
		{1023, "1023 KiB/s"},
		{5 << 20, "5.00 GiB/s"},
		{2, "2.00 KiB/s"}, // far below: straight down to the natural scale
	}
	for i, st := range steps {
		sc := s.Update(m, st.kib)
		if got := string(m.Append(nil, st.kib, sc, true)); got != st.want {
			t.Fatalf("step %d (%g KiB/s) = %q, want %q", i, st.kib, got, st.want)
		}
	}
	// A value hovering around 1000 KiB/s from above never flips.
	s.Reset()
	if s.Current() != Auto {
		t.Fatal("Reset")
	}
	flips, last := 0, Scale(-2)
	for i := 0; i < 100; i++ {
		v := 1000.0 + 40*math.Sin(float64(i))
		if sc := s.Update(m, v); sc != last {
			flips++
			last = sc
		}
	}
	if flips > 2 {
		t.Fatalf("hovering flipped the unit %d times", flips)
	}
	// A different measure resets the memory.
	if sc := s.Update(UnitMeasure(ns.UnitReads, 0), 5); sc != 0 {
		t.Fatalf("kind change kept scale %d", sc)
	}
}

// PCPD-8..PCPD-12: PCP scales, conversion with namespace.ConvScale and formatting.
func TestPCPUnits(t *testing.T) {
	space := func(s int8) ns.PMUnits { return ns.PMUnits{DimSpace: 1, ScaleSpace: s} }
	tm := func(s int8) ns.PMUnits { return ns.PMUnits{DimTime: 1, ScaleTime: s} }
	count := func(s int8) ns.PMUnits { return ns.PMUnits{DimCount: 1, ScaleCount: s} }
	conv := []struct {
		name     string
		v        float64
		from, to ns.PMUnits
		want     float64
	}{
		{"PCPD-8 GBYTE 2 in bytes", 2, space(ns.PMSpaceGByte), space(ns.PMSpaceByte), 2147483648},
		{"PCPD-9 MIN 2 in s", 2, tm(ns.PMTimeMin), tm(ns.PMTimeSec), 120},
		{"PCPD-9 USEC 1500 in ms", 1500, tm(ns.PMTimeUSec), tm(ns.PMTimeMSec), 1.5},
		{"PCPD-10 10^6 × 3", 3, count(6), count(0), 3000000},
		{"PCPD-10 10^-3 × 5000", 5000, count(-3), count(0), 5},
		{"PCPD-12 2048 KBYTE in MBYTE", 2048, space(ns.PMSpaceKByte), space(ns.PMSpaceMByte), 2},
		{"PCPD-12 90 SEC in MIN", 90, tm(ns.PMTimeSec), tm(ns.PMTimeMin), 1.5},
		{"PCPD-12 1 HOUR in NSEC", 1, tm(ns.PMTimeHour), tm(ns.PMTimeNSec), 3600000000000},
		{"PCPD-12 5 count×10^3", 5, count(3), count(0), 5000},
	}
	for _, c := range conv {
		got, err := ns.ConvScale(c.v, c.from, c.to)
		if err != nil || math.Abs(got-c.want) > 1e-9*c.want {
			t.Errorf("%s: ConvScale = %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	if _, err := ns.ConvScale(1, space(0), tm(0)); !errors.Is(err, ns.ErrDimension) {
		t.Errorf("PCPD-12: different dimensions converted, err %v", err)
	}

	mbps := ns.PMUnits{DimSpace: 1, DimTime: -1, ScaleSpace: ns.PMSpaceMByte, ScaleTime: ns.PMTimeSec}
	hourPerMega := ns.PMUnits{DimTime: 1, DimCount: -1, ScaleTime: ns.PMTimeHour, ScaleCount: 6}
	fmts := []struct {
		name string
		v    float64
		u    ns.PMUnits
		raw  bool
		want string
	}{
		{"PCPD-8 scale 3 × 2", 2, space(ns.PMSpaceGByte), false, "2 GiB"},
		{"PCPD-8 raw", 2, space(ns.PMSpaceGByte), true, "2 Gbyte"},
		{"PCPD-9 MIN 2", 2, tm(ns.PMTimeMin), false, "2 min"},
		{"PCPD-9 USEC 1500", 1500, tm(ns.PMTimeUSec), false, "1.5 ms"},
		{"PCPD-10 10^6 × 3", 3, count(6), false, "3M"},
		{"PCPD-10 10^-3 × 5000", 5000, count(-3), false, "5"},
		{"PCPD-11 Mbyte/sec raw", 1, mbps, true, "1 Mbyte/sec"},
		{"PCPD-11 Mbyte/sec scaled", 2, mbps, false, "2 MiB/s"},
		{"PCPD-11 hour/(10^6 count) raw", 1, hourPerMega, true, "1 hour/(10^6 count)"},
		{"PCPD-11 hour/(10^6 count) scaled", 1, hourPerMega, false, "3.6 ms/op"},
		{"PCPD-11 scaleSpace ignored without dimSpace", 5, ns.PMUnits{DimTime: 1, ScaleTime: ns.PMTimeSec, ScaleSpace: 3}, true, "5 sec"},
		{"PCPD-12 2048 KBYTE", 2048, space(ns.PMSpaceKByte), false, "2 MiB"},
		{"PCPD-12 90 SEC", 90, tm(ns.PMTimeSec), false, "1.5 min"},
		{"PCPD-6 events per second", 1500, ns.PMUnits{DimCount: 1, DimTime: -1, ScaleTime: ns.PMTimeSec}, false, "1.5k/s"},
		{"PCPD-6 Space·Time", 3, ns.PMUnits{DimSpace: 1, DimTime: 1, ScaleSpace: 1, ScaleTime: 3}, false, "3072 byte sec"},
		{"X-8 5 nsec", 5, tm(ns.PMTimeNSec), true, "5 nsec"},
		{"PCPD-2 dimensionless raw", 7, ns.PMUnits{}, true, "7"},
	}
	for _, c := range fmts {
		if got := FormatPM(c.v, c.u, Options{Raw: c.raw}); got != c.want {
			t.Errorf("%s: FormatPM(%g, %s) = %q, want %q", c.name, c.v, c.u, got, c.want)
		}
	}
	if m := PMMeasure(ns.PMUnits{DimTime: 1, ScaleTime: 9}); m.Kind != KindOther {
		t.Errorf("bad time scale gave %+v", m)
	}
}

// issue 12: a value that rounds to the next unit is shown in it, never as four digits.
func TestBoundaryRoundsUp(t *testing.T) {
	ms := Measure{Kind: KindTime, Factor: 1e-3}
	for v, want := range map[float64]string{999.7: "1.00 s", 999.4: "999 ms", 1000.2: "1.00 s", 1000: "1 s"} {
		if got := ms.Format(v); got != want {
			t.Errorf("Format(%g ms) = %q, want %q", v, got, want)
		}
	}
	if got := (Measure{Kind: KindCount, Noun: "reads"}).PerSecond().Format(999.8); got != "1.00k reads/s" {
		t.Errorf("999.8 reads/s = %q", got)
	}
}

// dcimon's extension units (issue 19): PSI's hundredths of a percent, hwmon's millidegrees,
// millivolts and RPM.
func TestExtensionUnits(t *testing.T) {
	for _, tc := range []struct {
		u    ns.Unit
		v    float64
		want string
	}{
		{ns.UnitCentiPercent, 123, "1.2%"},
		{ns.UnitMilliCelsius, 45500, "45.5 °C"},
		{ns.UnitMilliVolts, 1200, "1.2 V"},
		{ns.UnitRPM, 1800, "1800 RPM"},
	} {
		if got := UnitMeasure(tc.u, 0).Format(tc.v); got != tc.want {
			t.Errorf("%s %g = %q, want %q", tc.u, tc.v, got, tc.want)
		}
	}
}
