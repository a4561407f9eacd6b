package views

import (
	"math"
	"testing"
	"time"
	"unicode/utf8"

	ns "dcimon/namespace"
)

// checkSafe fails when s could disturb a terminal: invalid UTF-8, a C0 control (ESC included),
// DEL or a C1 control (DCI4-STR-1).
func checkSafe(t *testing.T, what, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("%s: invalid UTF-8 in %q", what, s)
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || unsafeRune(r) {
			t.Fatalf("%s: control character %U in %q", what, r, s)
		}
	}
}

func FuzzRenderDCI4(f *testing.F) {
	f.Add(uint32(1), uint32(0), uint32(7), uint32(4), uint32(0), false, []byte{1, 0, 0, 0})
	f.Add(uint32(2), uint32(0), uint32(0), uint32(16), uint32(0), false, []byte("\x1b[2J\x07\xff\xc2\x9b\u202e\x00"))
	f.Add(uint32(2), uint32(0), uint32(0), uint32(4), uint32(0), false, []byte("abcdefgh"))
	f.Add(uint32(3), uint32(4), uint32(0), uint32(4), uint32(0), false, []byte{0xff, 0, 0, 0})
	f.Add(uint32(6), uint32(1), uint32(2), uint32(8), uint32(0), false, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Add(uint32(6), uint32(0), uint32(0), uint32(4), uint32(0), false, []byte{1, 2})
	f.Add(uint32(7), uint32(0), uint32(0), uint32(8), uint32(100), false, []byte{0, 0x1a, 0x2b, 0x3c, 0x4d, 0x5e, 0, 0})
	f.Add(uint32(7), uint32(2), uint32(0), uint32(4), uint32(0), false, []byte{1, 0xfe})
	f.Add(uint32(8), uint32(0), uint32(0), uint32(8), uint32(0), false, []byte{0, 0, 0, 0, 0, 0xff, 0xff, 0xff})
	f.Add(uint32(8), uint32(1), uint32(0), uint32(8), uint32(0), false, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Add(uint32(8), uint32(1), uint32(1), uint32(8), uint32(0), true, []byte{0, 0, 0, 0, 0, 0, 0, 0x80})
	f.Add(uint32(8), uint32(2), uint32(0), uint32(8), uint32(0), true, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Add(uint32(9), uint32(0), uint32(0), uint32(6), uint32(0), false, []byte{0xde, 0xad})
	f.Add(uint32(0xffffffff), uint32(0xffffffff), uint32(0xffffffff), uint32(0xffffffff), uint32(0xffffffff), true, []byte(nil))
	zone := time.FixedZone("X", -5*3600)
	f.Fuzz(func(t *testing.T, typ, format, pres, size, iv uint32, human bool, raw []byte) {
		d := ns.DCI4Desc{Type: ns.DCI4Type(typ), Format: format, Presentation: pres, Size: size}
		for _, opt := range []Options{
			{Humanize: human, Interface: iv},
			{Location: zone, Boot: boot, Humanize: !human},
		} {
			r := RenderDCI4(d, raw, opt)
			checkSafe(t, "text", r.Text)
			for _, n := range r.Notes {
				checkSafe(t, "note", n)
			}
			if r.Skip != (d.Type == ns.STUnused) || (!r.Skip && r.Text == "" && d.Type != ns.STString) {
				t.Fatalf("rendering %+v of %+v: only ST_UNUSED is skipped, only an empty string is blank", r, d)
			}
			b, is := AppendDCI4(nil, d, raw, &opt)
			if string(b) != r.Text || is != r.Issues {
				t.Fatalf("AppendDCI4 %q %b differs from RenderDCI4 %q %b", b, is, r.Text, r.Issues)
			}
		}
		for _, w := range CheckDCI4(d, iv) {
			checkSafe(t, "check", w)
		}
	})
}

func FuzzFormatValue(f *testing.F) {
	f.Add(uint32(5), uint32(0), uint32(2), uint8(1), uint32(1), uint32(0), uint32(1), uint32(4), uint64(2), "", 0.0, uint8(0))
	f.Add(uint32(4), uint32(2), uint32(1), uint8(0), uint32(6), uint32(0), uint32(0), uint32(8), uint64(1), "\x1b]0;x\x07", 1e300, uint8(0))
	f.Add(uint32(6), uint32(1), uint32(3), uint8(0), uint32(7), uint32(0), uint32(0), uint32(8), uint64(0), "\x00\x1a", 0.5, uint8(0))
	f.Add(uint32(10), uint32(55), uint32(3), uint8(0), uint32(0), uint32(0), uint32(0), uint32(0), uint64(0), "", math.Inf(1), uint8(0))
	f.Add(uint32(2), uint32(70000), uint32(1), uint8(1), uint32(6), uint32(0), uint32(0), uint32(8), uint64(1<<63), "", -3.5, uint8(3))
	f.Fuzz(func(t *testing.T, typ, units, sem uint32, rawMode uint8, d4t, d4f, d4p, d4s uint32, n uint64, s string, v float64, state uint8) {
		d := &ns.Datum{Type: ns.DataType(typ), Units: ns.Unit(units), TickHz: 100,
			PCP:  ns.PCPDesc{Sem: ns.PMSem(sem)},
			DCI4: ns.DCI4Desc{Type: ns.DCI4Type(d4t), Format: d4f, Presentation: d4p, Size: d4s}}
		val := ns.Value{N: n, S: s, V: v, State: ns.ValueState(state % 5), Reason: ns.Reason(state)}
		opt := Options{Raw: rawMode&1 == 1, Humanize: rawMode&2 == 2, Boot: boot}
		checkSafe(t, "value", FormatValue(d, val, opt))
		col := NewColumn(d, opt)
		col.Fit([]ns.Value{val})
		checkSafe(t, "cell", col.Format(val))
	})
}

func FuzzFitText(f *testing.F) {
	f.Add(alphabet, 10, 20, 1)
	f.Add(desc80, 7, 50, 2)
	f.Add("\x1b[31m漢字 a\u0301 \xff", 3, 5, 1)
	f.Fuzz(func(t *testing.T, s string, width, min, maxLines int) {
		if width > 500 || min > 500 || maxLines > 50 || width < -5 || min < -5 {
			return
		}
		for _, l := range FitText(s, width, min, maxLines) {
			checkSafe(t, "line", l)
		}
	})
}
