package views

import (
	"math"
	"testing"

	ns "dcimon/namespace"
)

// testDatums covers every kind of value a pane shows; ids are their low bytes.
func testDatums() []ns.Datum {
	return []ns.Datum{
		ns.Counter(1, "rbytes", ns.TypeUint8, ns.UnitBytes, "Bytes read", "test"),
		ns.Counter(2, "reads", ns.TypeUint8, ns.UnitReads, "Reads", "test"),
		ns.Gauge(3, "up", ns.TypeBoolean, ns.UnitNone, "Link up", "test"),
		ns.Gauge(4, "ready", ns.TypeBoolean, ns.UnitNone, "Ready", "test").WithDCI4(ns.STBoolean, ns.SBFInverted, ns.SBPYesNo),
		ns.Gauge(5, "flags", ns.TypeUint4, ns.UnitNone, "Flags", "test").WithDCI4(ns.STInteger16, ns.SIFUnsigned, ns.SIPHexadecimal),
		ns.Discrete(6, "mac", ns.TypeOctetString, ns.UnitNone, "MAC address", "test").WithDCI4(ns.STAddress, ns.SAFEthernet, ns.SAPNormal),
		ns.Discrete(7, "addr", ns.TypeUint4, ns.UnitNone, "IPv4 address", "test").WithDCI4(ns.STInteger32, ns.SIFUnsigned|ns.SIFBigEndian, ns.SIPDotted),
		ns.Discrete(8, "boot", ns.TypeTimespec, ns.UnitSecs, "Boot time", "test"),
		ns.Gauge(9, "uptime", ns.TypeUint8, ns.UnitNone, "Uptime", "test").WithDCI4(ns.STTime, ns.STFMonotonic, ns.STPRelative),
		ns.Counter(10, "busy", ns.TypeUint8, ns.UnitMillisecs, "Busy time", "test"),
		ns.Counter(11, "idle", ns.TypeUint8, ns.UnitMillisecs, "Idle time", "test"),
		ns.Derived(12, "%busy", ns.DerivedPercent, ns.PMSemInstant, "Busy share", 10, 11),
		ns.Text(13, "model", "Model", "test"),
		ns.Gauge(14, "big", ns.TypeUint8, ns.UnitNone, "Big", "test"),
		ns.Gauge(15, "neg", ns.TypeInt4, ns.UnitNone, "Negative", "test"),
		ns.Gauge(16, "cputime", ns.TypeUint8, ns.UnitTicks, "CPU time", "test").WithTicks(100),
		ns.Counter(17, "ticks", ns.TypeUint8, ns.UnitTicks, "CPU ticks", "test").WithTicks(100),
		ns.Gauge(18, "lat", ns.TypeUint8, ns.UnitPicosecs, "Latency", "test"),
		ns.Gauge(19, "cache", ns.TypeUint8, ns.UnitKBytes, "Cache", "test"),
		ns.Gauge(20, "ext", ns.TypeUint4, 70000, "Vendor", "test"),
		ns.Gauge(21, "blob", ns.TypeOctetString, ns.UnitNone, "Blob", "test"),
		ns.Counter(22, "wbytes", ns.TypeUint8, ns.UnitBytes, "Bytes written", "test"),
		ns.Derived(23, "iobytes", ns.DerivedSum2, ns.PMSemCounter, "Bytes moved", 1, 22),
		ns.Derived(24, "svctime", ns.DerivedAverage, ns.PMSemInstant, "Time per read", 10, 2),
		ns.Derived(25, "var", ns.DerivedVariance, ns.PMSemInstant, "Variance", 2, 10, 11),
		ns.Gauge(26, "u32", ns.TypeUint4, ns.UnitNone, "U32", "test"),
		ns.Gauge(27, "inflight", ns.TypeUint8, ns.UnitQLength, "In flight", "test"),
		ns.Gauge(28, "ncpu", ns.TypeUint4, ns.UnitProcessors, "Processors", "test"),
		ns.Gauge(29, "mem", ns.TypeUint8, ns.UnitBytes, "Memory", "test"),
		ns.Gauge(30, "hexmem", ns.TypeUint8, ns.UnitBytes, "Memory", "test").WithDCI4(ns.STInteger64, ns.SIFUnsigned, ns.SIPHexadecimal),
		ns.Derived(31, "allbytes", ns.DerivedSum2, ns.PMSemCounter, "A sum of a sum", 23, 1),
		ns.Derived(32, "busyms", ns.DerivedSum2, ns.PMSemCounter, "Busy and idle", 10, 11),
		ns.Derived(33, "msperread", ns.DerivedAverage, ns.PMSemInstant, "Time per read", 32, 2),
		ns.Counter(34, "alluser", ns.TypeUint8, ns.UnitMillisecs, "User time of 4 processors", "test").WithShare(4),
		ns.Counter(35, "cpu_us", ns.TypeUint8, ns.UnitMicrosecs, "CPU time of a process", "test"),
		ns.Counter(36, "writes", ns.TypeUint8, ns.UnitWrites, "Writes", "test"),
		ns.Derived(37, "rw", ns.DerivedSum2, ns.PMSemCounter, "Reads and writes", 2, 36),
	}
}

func testClass(t testing.TB) *ns.Class {
	t.Helper()
	r := ns.NewRegistry()
	if err := r.RegisterClass(&ns.Class{ID: ns.ClassID{1}, Name: "T", Desc: "Test", Flags: ns.ClassEnabled}); err != nil {
		t.Fatal(err)
	}
	c := &ns.Class{ID: ns.ClassID{1, 1}, Name: "t", Desc: "Test", Flags: ns.ClassEnabled,
		Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagSingleInst, Size: 4}}, Datums: testDatums()}
	if err := r.RegisterClass(c); err != nil {
		t.Fatal(err)
	}
	return c
}

func datumNamed(t testing.TB, c *ns.Class, name string) *ns.Datum {
	t.Helper()
	i := c.DatumByName(name)
	if i < 0 {
		t.Fatalf("no datum %q", name)
	}
	return &c.Datums[i]
}

func valid(n uint64, v float64) ns.Value { return ns.Value{N: n, V: v} }
func str(s string) ns.Value              { return ns.Value{S: s} }

func TestFormatValue(t *testing.T) {
	c := testClass(t)
	opt := Options{Class: c, Boot: boot}
	raw := Options{Class: c, Raw: true}
	cases := []struct {
		name  string
		datum string
		v     ns.Value
		opt   Options
		want  string
	}{
		// Counters as rates with the unit stated (X-2, PCPD-6).
		{"X-2 byte counter rate", "rbytes", valid(1<<40, 13002342.4), opt, "12.4 MiB/s"},
		{"X-2 reads counter rate", "reads", valid(99999, 830), opt, "830 reads/s"},
		{"X-2 raw shows the cumulative reading", "reads", valid(123456, 830), raw, "123456 reads"},
		{"PCPD-6 byte counter raw", "rbytes", valid(2048, 1), raw, "2048 bytes"},
		{"X-5 zero is a number", "reads", valid(5, 0), opt, "0 reads/s"},
		// issue 12: a time counter read as a rate is a utilization, % of one second per second.
		{"DCI-UNIT-3 ticks counter", "ticks", valid(1000, 250), opt, "250.0%"},
		{"issue 12 ms/s of one processor is % of it", "busy", valid(0, 999), opt, "99.9%"},
		{"issue 12 totals over 4 processors are % of all (mpstat all)", "alluser", valid(0, 2000), opt, "50.0%"},
		{"issue 12 a process's µs/s are % of one processor, as top", "cpu_us", valid(0, 1.5e6), opt, "150.0%"},
		{"issue 12 a sum of time counters is a utilization too", "busyms", valid(0, 1000), opt, "100.0%"},
		// Booleans through the DCI4 description (DCI-TYPE-1: UMA TRUE is not zero).
		{"DCI-TYPE-1 boolean 2 is true", "up", valid(2, 0), opt, "true"},
		{"DCI-TYPE-1 boolean 0 is false", "up", valid(0, 0), opt, "false"},
		{"DCI4-BOOL-2 inverted yes_no true", "ready", valid(1, 1), opt, "yes"},
		{"DCI4-BOOL-2 inverted yes_no false", "ready", valid(0, 0), opt, "no"},
		// Integers in their presentations.
		{"DCI4-INT-2 hex", "flags", valid(255, 255), opt, "0x00ff"},
		{"DCI4-INT-2 dotted BE", "addr", valid(0xC0A80001, 0), opt, "192.168.0.1"},
		{"DCI-TYPE-1 UINT8 max exact", "big", valid(math.MaxUint64, 0), opt, "18446744073709551615"},
		{"DCI-TYPE-1 INT4 -5", "neg", valid(uint64(math.MaxUint32-4), -5), opt, "-5"},
		{"DCI-TYPE-1 INT4 -5 sign-extended", "neg", valid(^uint64(4), -5), opt, "-5"},
		{"PCPF-6 U32 0xffffffff", "u32", valid(0xffffffff, 0), opt, "4294967295"},
		{"DCI4-INT-2 hex with a unit stays exact", "hexmem", valid(4096, 4096), opt, "0x0000000000001000"},
		// Addresses and times.
		{"DCI4-ADDR-1 mac", "mac", str("\x00\x1a\x2b\x3c\x4d\x5e"), opt, "00:1a:2b:3c:4d:5e"},
		{"DCI4-ADDR-1 short mac", "mac", str("\x00\x1a"), opt, "(short read 2 of 6 bytes?)"},
		{"DCI-TYPE-4 timespec", "boot", valid(1700000000, 1700000000), opt, "2023-11-14 22:13:20 UTC"},
		{"DCI4-TIME-2 monotonic relative", "uptime", valid(250, 250), opt, "2.50 seconds"},
		{"AMB-15 monotonic humanised", "uptime", valid(372300, 372300), Options{Humanize: true}, "3723.00 seconds (1h 2m)"},
		// Strings: literal but harmless (DCI4-STR-1, DCI-TYPE-3).
		{"DCI-TYPE-3 text", "model", str("sda"), opt, "sda"},
		{"DCI4-STR-1 escape sequence", "model", str("\x1b[2Jx\x00hidden"), opt, `\x1b[2Jx`},
		{"DCI-TYPE-3 PCPD-5 octet string as hex, not parsed", "blob", str("\x00\x01A"), opt, "00 01 41"},
		// Derived (DCI-UNIT-7, AMB-17, DCI-DER-2).
		{"AMB-17 percent", "%busy", valid(0, 0.75), opt, "75.0%"},
		{"DCI-DER-4 percent 50", "%busy", valid(0, 0.5), opt, "50.0%"},
		{"AMB-17 percent raw is the fraction", "%busy", valid(0, 0.75), raw, "0.75"},
		{"DCI-UNIT-7 SUM2 of bytes is bytes/s", "iobytes", valid(0, 1024), opt, "1 KiB/s"},
		{"DCI-UNIT-7 SUM2 without the class", "iobytes", valid(0, 1024), Options{}, "1.02k/s"},
		{"issue 12 reads + writes are ops", "rw", valid(0, 1220), opt, "1.22k ops/s"},
		{"DCI-UNIT-7 a sum of a derived sum keeps the bytes", "allbytes", valid(0, 3<<20), opt, "3 MiB/s"},
		{"DCI-UNIT-7 an average over a derived sum of times is a time per op", "msperread", valid(0, 2.5), opt, "2.5 ms/op"},
		{"PCPD-6 ms per op", "svctime", valid(0, 2.5), opt, "2.5 ms/op"},
		{"DCI-DER-2 variance", "var", valid(0, 1.25), opt, "1.25"},
		// Units of levels (DCI-UNIT-2, DCI-UNIT-3, DCI-UNIT-6).
		{"DCI-UNIT-3 ticks level", "cputime", valid(250, 250), opt, "2.50 s"},
		{"DCI-UNIT-3 ticks raw", "cputime", valid(250, 250), raw, "250 machine clock ticks"},
		{"DCI-UNIT-3 picoseconds", "lat", valid(1500000, 1500000), opt, "1.5 µs"},
		{"DCI-UNIT-2 KB scaled", "cache", valid(2048, 2048), opt, "2 MiB"},
		{"DCI-UNIT-2 KB raw", "cache", valid(2048, 2048), raw, "2048 kilobytes"},
		{"DCI-UNIT-2 memory", "mem", valid(8<<30, 8<<30), opt, "8 GiB"},
		{"DCI-UNIT-6 extension", "ext", valid(42, 42), opt, "42 unit 70000 (extension)"},
		{"DCI-UNIT-6 extension raw", "ext", valid(42, 42), raw, "42 unit 70000 (extension)"},
		{"DCI-UNIT-4 SPMI-FEAT-1 SPMI-VAL-1 a level (queue length) as a plain number", "inflight", valid(3, 3), opt, "3"},
		{"DCI-UNIT-5 processors", "ncpu", valid(4, 4), opt, "4 cpus"},
		{"DCI-UNIT-5 processors raw", "ncpu", valid(4, 4), raw, "4 processors"},
		// States: never 0.
		{"SPMI-SET-15 no rate", "reads", ns.Value{State: ns.NoRate, Reason: ns.ReasonFirstSample}, opt, "—"},
		{"DCI4-SUP-8 reset", "reads", ns.Value{State: ns.NoRate, Reason: ns.ReasonReset}, opt, "—"},
		{"DCI-INV-4 invalid", "reads", ns.Value{State: ns.Invalid, Reason: ns.ReasonInvalidData}, opt, "n/a"},
		{"PCPF-7 unavailable", "reads", ns.Value{State: ns.Unavailable, Reason: ns.ReasonNotPresent}, opt, "n/a"},
		{"PCPF-9 provider error", "reads", ns.Value{State: ns.Unavailable, Reason: ns.ReasonProviderError}, opt, "err"},
		{"DCI-DER-5 zero denominator", "%busy", ns.Value{State: ns.Unavailable, Reason: ns.ReasonZeroDenominator}, opt, "n/a"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := datumNamed(t, c, tc.datum)
			if got := FormatValue(d, tc.v, tc.opt); got != tc.want {
				t.Fatalf("FormatValue(%s, %+v) = %q, want %q", tc.datum, tc.v, got, tc.want)
			}
		})
	}
}

// invalid, unavailable, erroring, no-rate and zero cells are all visibly distinct from 0,
// and the reason is available.
func TestStates(t *testing.T) {
	cases := []struct {
		v         ns.Value
		mark, why string
	}{
		{ns.Value{}, "", ""},
		{ns.Value{State: ns.NoRate, Reason: ns.ReasonFirstSample}, "—", "no previous sample"},
		{ns.Value{State: ns.Invalid}, "n/a", "not valid for this instance"},
		{ns.Value{State: ns.Unavailable}, "n/a", "no values"},
		{ns.Value{State: ns.Unavailable, Reason: ns.ReasonNotPresent}, "n/a", "off-line / not present"},
		{ns.Value{State: ns.Unavailable, Reason: ns.ReasonTimeout}, "err", "provider timed out"},
		{ns.Value{State: ns.Unavailable, Reason: ns.ReasonAssumedDead}, "err", "supplier assumed dead"},
	}
	for _, c := range cases {
		if m, w := Mark(c.v), Why(c.v); m != c.mark || w != c.why {
			t.Errorf("X-5: %+v → %q %q, want %q %q", c.v, m, w, c.mark, c.why)
		}
	}
}

// A column shares one unit, keeps fixed digits and does not jitter.
func TestColumn(t *testing.T) {
	c := testClass(t)
	col := NewColumn(datumNamed(t, c, "rbytes"), Options{Class: c})
	if !col.Scaled() || col.Measure().Kind != KindSize {
		t.Fatalf("column %+v", col.Measure())
	}
	vals := []ns.Value{valid(0, 12<<20), valid(0, 1536), {State: ns.NoRate}, valid(0, 0)}
	col.Fit(vals)
	want := []string{"12.0 MiB/s", "0.001 MiB/s", "—", "0 MiB/s"}
	for i, v := range vals {
		if got := col.Format(v); got != want[i] {
			t.Errorf("cell %d = %q, want %q", i, got, want[i])
		}
	}
	if col.Unit() != "MiB/s" {
		t.Errorf("unit %q", col.Unit())
	}
	// Invalid values alone do not move the scale.
	col.Fit([]ns.Value{{State: ns.Invalid}})
	if col.Unit() != "MiB/s" {
		t.Errorf("unit moved to %q", col.Unit())
	}
	// Exact columns render their DCI4 text.
	mac := NewColumn(datumNamed(t, c, "mac"), Options{})
	if mac.Scaled() || mac.Fit([]ns.Value{str("\x00\x1a\x2b\x3c\x4d\x5e")}) != Auto || mac.Unit() != "" {
		t.Fatal("address column scaled")
	}
	if got := mac.Format(str("\x00\x1a\x2b\x3c\x4d\x5e")); got != "00:1a:2b:3c:4d:5e" {
		t.Errorf("mac cell %q", got)
	}
	pct := NewColumn(datumNamed(t, c, "%busy"), Options{Class: c})
	if got := pct.Format(valid(0, 0.05)); got != "5.0%" {
		t.Errorf("percent cell %q", got)
	}
}

func TestAppendRight(t *testing.T) {
	cases := []struct {
		cell  string
		width int
		want  string
	}{
		{"12.4 MiB/s", 12, "  12.4 MiB/s"},
		{"1.50 µs", 9, "  1.50 µs"},
		{"—", 3, "  —"},
		{"toolong", 3, "toolong"},
	}
	for _, c := range cases {
		if got := string(AppendRight(nil, []byte(c.cell), c.width)); got != c.want {
			t.Errorf("AppendRight(%q, %d) = %q, want %q", c.cell, c.width, got, c.want)
		}
		if got := PadLeft(c.cell, c.width); got != c.want {
			t.Errorf("PadLeft(%q, %d) = %q, want %q", c.cell, c.width, got, c.want)
		}
	}
	if Width("漢字") != 4 || Width("abc") != 3 {
		t.Error("Width")
	}
}

// SPMI-VAL-3 / AMB-41: bars use the default scale, rates for counters, clamped; the text does not.
func TestBarFraction(t *testing.T) {
	level := ns.Gauge(1, "lvl", ns.TypeUint8, ns.UnitCount, "Level", "test").WithScale(0, 100)
	counter := ns.Counter(2, "cnt", ns.TypeUint8, ns.UnitCount, "Counter", "test").WithScale(0, 100)
	cases := []struct {
		name        string
		d           *ns.Datum
		v           ns.Value
		frac        float64
		clamped, ok bool
	}{
		{"SPMI-VAL-3 level 50", &level, valid(50, 50), 0.5, false, true},
		{"SPMI-VAL-3 counter 100 over 2 s", &counter, ns.Value{N: 1100, Change: 100, V: 50}, 0.5, false, true},
		{"AMB-41 150 clamped", &level, valid(150, 150), 1, true, true},
		{"AMB-41 below min clamped", &level, valid(0, -5), 0, true, true},
		{"X-5 no bar for n/a", &level, ns.Value{State: ns.Invalid}, 0, false, false},
		{"SPMI-VAL-3 no range", &ns.Datum{}, valid(1, 1), 0, false, false},
	}
	for _, c := range cases {
		f, cl, ok := BarFraction(c.d, c.v)
		if f != c.frac || cl != c.clamped || ok != c.ok {
			t.Errorf("%s: BarFraction = %v %v %v, want %v %v %v", c.name, f, cl, ok, c.frac, c.clamped, c.ok)
		}
	}
	if got := FormatValue(&level, valid(150, 150), Options{}); got != "150" {
		t.Errorf("AMB-41: clamped value text %q, want 150", got)
	}
}
