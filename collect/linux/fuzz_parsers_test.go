package linux

// Fuzz targets for every parser and sysfs reader of outside data that FuzzParseDiskstats,
// FuzzParseNetDev and FuzzParseStat do not cover (issue 21). Each checks a property of the
// parser's contract, not only that it does not panic; each corpus starts from the real files of
// the fixture trees. CI runs them as tests over their seeds; longer runs:
// go test ./collect -run '^$' -fuzz '^FuzzName$' -fuzztime 60s.

import (
	"bytes"
	"context"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// FuzzParseUint: parseUint agrees with strconv.ParseUint on every input, value and error.
func FuzzParseUint(f *testing.F) {
	for _, s := range []string{"0", "42", "18446744073709551615", "18446744073709551616", "", "-1", "+1", "1_0", "007", " 1"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := parseUint(b)
		want, werr := strconv.ParseUint(string(b), 10, 64)
		if (err == nil) != (werr == nil) || got != want && err == nil {
			t.Fatalf("parseUint(%q) = %d, %v; strconv: %d, %v", b, got, err, want, werr)
		}
	})
}

// FuzzParseUints: parseUints fills at most len(dst) values, each the number of the matching
// field of the input, and stops at the first field that is not one.
func FuzzParseUints(f *testing.F) {
	f.Add([]byte("1 2 3"), uint8(3))
	f.Add([]byte("  10\t20 x 30"), uint8(4))
	f.Add([]byte("18446744073709551616 1"), uint8(2))
	f.Fuzz(func(t *testing.T, b []byte, n uint8) {
		dst := make([]uint64, n%20)
		got, _, err := parseUints(b, dst)
		fields := bytes.Fields(b)
		if got > len(dst) || got > len(fields) {
			t.Fatalf("filled %d of %d from %d fields", got, len(dst), len(fields))
		}
		for i := 0; i < got; i++ {
			if want, werr := strconv.ParseUint(string(fields[i]), 10, 64); werr != nil || want != dst[i] {
				t.Fatalf("field %d %q: got %d", i, fields[i], dst[i])
			}
		}
		if err == nil && got < len(dst) && got < len(fields) {
			t.Fatalf("stopped at %d of %d fields without an error", got, len(fields))
		}
	})
}

var centi = regexp.MustCompile(`^[0-9]+(\.[0-9]{0,2})?$`)

// FuzzParseCenti: parseCenti accepts exactly decimals with at most two fractional digits that fit
// in 64 bits as hundredths, and gives their exact value ×100.
func FuzzParseCenti(f *testing.F) {
	for _, s := range []string{"216.47", "0.5", "3", "1.", ".5", "1.234", "184467440737095516.15", "184467440737095516.16", ""} {
		f.Add([]byte(s))
	}
	addFixtureSeeds(f, "proc/uptime")
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := parseCenti(b)
		var want *big.Int
		if centi.Match(b) {
			r, ok := new(big.Rat).SetString(strings.TrimSuffix(string(b), "."))
			if !ok {
				t.Fatalf("big.Rat cannot read %q", b)
			}
			r.Mul(r, big.NewRat(100, 1))
			want = r.Num()
			if !r.IsInt() || !want.IsUint64() {
				want = nil
			}
		}
		switch {
		case want == nil && err == nil:
			t.Fatalf("parseCenti(%q) = %d, want an error", b, got)
		case want != nil && (err != nil || got != want.Uint64()):
			t.Fatalf("parseCenti(%q) = %d, %v; want %v", b, got, err, want)
		}
	})
}

// FuzzParseHex: parseHex reads 0x-prefixed hexadecimal as strconv does, and nothing else.
func FuzzParseHex(f *testing.F) {
	for _, s := range []string{"0x1003", "0X10", "0x", "10", "0xffffffffffffffff", "0x10000000000000000", " 0x1\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := parseHex(b)
		s := string(trimSpace(b))
		var want uint64
		werr := fmt.Errorf("not prefixed")
		if len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X") {
			want, werr = strconv.ParseUint(s[2:], 16, 64)
		}
		if (err == nil) != (werr == nil) || err == nil && got != want {
			t.Fatalf("parseHex(%q) = %#x, %v; want %#x, %v", b, got, err, want, werr)
		}
	})
}

// FuzzParseDevNum: parseDevNum reads "major:minor" of two 32-bit decimals, and nothing else.
func FuzzParseDevNum(f *testing.F) {
	for _, s := range []string{"254:0\n", "8:16", "4294967295:1", "4294967296:0", "1:", ":1", "1:2:3"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ma, mi, err := parseDevNum(b)
		a, c, ok := strings.Cut(string(trimSpace(b)), ":")
		wa, e1 := strconv.ParseUint(a, 10, 32)
		wc, e2 := strconv.ParseUint(c, 10, 32)
		want := ok && e1 == nil && e2 == nil
		if want != (err == nil) || want && (uint64(ma) != wa || uint64(mi) != wc) {
			t.Fatalf("parseDevNum(%q) = %d:%d, %v", b, ma, mi, err)
		}
	})
}

// FuzzParseSpeed: a known speed is a positive whole number of Mbit/s, exactly as the file says.
func FuzzParseSpeed(f *testing.F) {
	for _, s := range []string{"1000\n", "-1", "0", "9223372036854", "9223372036855", "10x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		bps, known := parseSpeed(b)
		if !known {
			if bps != 0 {
				t.Fatalf("unknown speed %d", bps)
			}
			return
		}
		v, err := strconv.ParseInt(string(trimSpace(b)), 10, 64)
		if err != nil || v <= 0 || bps%1_000_000 != 0 || bps/1_000_000 != uint64(v) {
			t.Fatalf("parseSpeed(%q) = %d bit/s", b, bps)
		}
	})
}

// FuzzParseBool01: only "0" and "1" (white space around) are booleans.
func FuzzParseBool01(f *testing.F) {
	for _, s := range []string{"0\n", "1", "2", "", "01", " 1 "} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := parseBool01("fuzz", b)
		s := string(trimSpace(b))
		if (s == "0" || s == "1") != (err == nil) || err == nil && v != (s == "1") {
			t.Fatalf("parseBool01(%q) = %v, %v", b, v, err)
		}
	})
}

// FuzzParseRows: every non-blank line is a record or a reported bad line (a last line the file
// ends inside is bad: issue 29), records keep the input's order, and reusing storage that holds
// another parse changes nothing.
func FuzzParseRows(f *testing.F) {
	f.Add([]byte("1\n2\n\nx\n3"))
	f.Add([]byte(strings.Repeat("bad\n", 20)))
	parse := func(_ int, line []byte, v *uint64) error {
		n, err := parseUint(trimSpace(line))
		*v = n
		return err
	}
	rows := func(data []byte, dst []uint64) ([]uint64, error) {
		var errs lineErrs
		dst = parseRows("fuzz", "fuzz", data, dst, nil, parse, &errs)
		return dst, errs.err()
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := rows(data, nil)
		reused, err2 := rows(data, []uint64{7, 8, 9})
		if fmt.Sprint(got) != fmt.Sprint(reused) || (err == nil) != (err2 == nil) {
			t.Fatalf("reuse changed the result: %v %v", got, reused)
		}
		var want []uint64
		bad := 0
		lines := bytes.Split(data, []byte("\n"))
		for i, l := range lines {
			if len(trimSpace(l)) == 0 {
				continue
			}
			// A last line with no newline is where the file was cut: bad, whatever it says.
			if v, err := strconv.ParseUint(string(trimSpace(l)), 10, 64); err == nil && i < len(lines)-1 {
				want = append(want, v)
			} else {
				bad++
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) || (bad > 0) != (err != nil) {
			t.Fatalf("got %v (%v), want %v with %d bad lines", got, err, want, bad)
		}
	})
}

// FuzzParseMeminfo and FuzzParseVMStat: parsing is deterministic and independent of what the
// destination held; the fixtures' real files parse without error.
func FuzzParseMeminfo(f *testing.F) {
	addFixtureSeeds(f, "proc/meminfo")
	f.Add([]byte("MemTotal: 18014398509481984 kB\nMemFree: 1 kB\n"))
	f.Add([]byte("MemTotal: 1 MB\nMemFree:\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dirty := memInfo{present: ^uint64(0)}
		for i := range dirty.bytes {
			dirty.bytes[i] = 99
		}
		a := parsedAlike(t, data, dirty, parseMeminfo)
		for k := memKey(0); k < numMemKeys; k++ {
			if v, ok := a.get(k); ok && v%1024 != 0 {
				t.Fatalf("line %d: %d bytes is not a whole number of kB", k, v)
			}
		}
	})
}

func FuzzParseVMStat(f *testing.F) {
	addFixtureSeeds(f, "proc/vmstat")
	f.Add([]byte("pgpgin 18014398509481984\npswpin x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dirty := vmStat{present: ^uint64(0)}
		for i := range dirty.v {
			dirty.v[i] = 99
		}
		parsedAlike(t, data, dirty, parseVMStat)
	})
}

// parsedAlike parses data into a zero destination and into dirty, and fails the test when the
// two results differ, value or error: a parser must not depend on what its destination held.
// It returns the zero destination's value.
func parsedAlike[T comparable](t *testing.T, data []byte, dirty T, parse func(src string, data []byte, dst *T) error) T {
	t.Helper()
	var a T
	ea, eb := parse("fuzz", data, &a), parse("fuzz", data, &dirty)
	if a != dirty || (ea == nil) != (eb == nil) {
		t.Fatalf("destination changed the result: %+v %+v", a, dirty)
	}
	return a
}

// FuzzParseLoadAvg: what parses prints back, in the kernel's format, to what parses the same.
func FuzzParseLoadAvg(f *testing.F) {
	addFixtureSeeds(f, "proc/loadavg")
	f.Add([]byte("0.39 0.36 0.15 1/81 4870\n"))
	f.Add([]byte("0.39 0.36 0.15 1/ 4870"))
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip(t, data, parseLoadAvg, func(l loadAvg) string {
			return fmt.Sprintf("%s %s %s %d/%d %d\n", hundredths(l.load1), hundredths(l.load5), hundredths(l.load15), l.running, l.threads, l.lastPID)
		})
	})
}

// FuzzParseUptime: what parses prints back to what parses the same.
func FuzzParseUptime(f *testing.F) {
	addFixtureSeeds(f, "proc/uptime")
	f.Add([]byte("216.47 400.12\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip(t, data, parseUptime, func(u uptime) string { return hundredths(u.upCs) + " " + hundredths(u.idleCs) + "\n" })
	})
}

// roundTrip checks that what parse accepts of data, printed back in the kernel's format by print,
// parses to the same value: the contract of a parser of one small file.
func roundTrip[T comparable](t *testing.T, data []byte, parse func(name string, data []byte) (T, error), print func(T) string) {
	t.Helper()
	v, err := parse("fuzz", data)
	if err != nil {
		return
	}
	text := print(v)
	back, err := parse("back", []byte(text))
	if err != nil || back != v {
		t.Fatalf("%q parsed to %+v, printed %q, parsed back to %+v (%v)", data, v, text, back, err)
	}
}

// hundredths prints hundredths with two decimals, as the kernel prints load averages, uptimes and
// stall averages.
func hundredths(v uint64) string { return fmt.Sprintf("%d.%02d", v/100, v%100) }

// FuzzParseSelfStat: deterministic and independent of the destination; the fixtures parse.
func FuzzParseSelfStat(f *testing.F) {
	addFixtureSeeds(f, "proc/self/stat")
	f.Add([]byte("1 (a b) S 0 1 1 0 -1 4194560 10 0 2 0 3 4 0 0 20 0 7 0 100 0 0"))
	f.Add([]byte("1 (a) b) c) S 0"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var a selfStat
		b := selfStat{utimeTicks: 9, stimeTicks: 9, minflt: 9, majflt: 9, threads: 9}
		ea, eb := parseSelfStat("fuzz", data, &a), parseSelfStat("fuzz", data, &b)
		if (ea == nil) != (eb == nil) || ea == nil && a != b {
			t.Fatalf("destination changed the result: %+v %+v", a, b)
		}
	})
}

// FuzzParseStatm: sizes are pages × page size exactly; a size that would overflow is an error,
// never a wrapped number.
func FuzzParseStatm(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*", "t[01]", "proc", "self", "statm"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, uint64(4096))
		}
	}
	f.Add([]byte("1234 567 89 1 0 100 0\n"), uint64(4096))
	f.Add([]byte("18446744073709551615 1\n"), uint64(4096))
	f.Fuzz(func(t *testing.T, data []byte, page uint64) {
		page = page%65536 + 1
		var s selfStat
		if err := parseStatm("fuzz", data, page, &s); err != nil {
			return
		}
		fields := bytes.Fields(firstLine(data))
		vm, _ := strconv.ParseUint(string(fields[0]), 10, 64)
		rss, _ := strconv.ParseUint(string(fields[1]), 10, 64)
		if s.vmBytes/page != vm || s.vmBytes%page != 0 || s.rssBytes/page != rss || s.rssBytes%page != 0 {
			t.Fatalf("%q × %d: vm %d rss %d", data, page, s.vmBytes, s.rssBytes)
		}
	})
}

func firstLine(b []byte) []byte { l, _ := cutLine(b); return l }

// writeAttrs writes name → content files into dir.
func writeAttrs(t *testing.T, dir string, attrs map[string][]byte) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range attrs {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzReadBlockCommon: a block device's dev, size and ro attributes are each taken only when
// they are exactly what the kernel prints, and the size is the sectors × 512, never wrapped.
func FuzzReadBlockCommon(f *testing.F) {
	f.Add([]byte("254:0\n"), []byte("41943040\n"), []byte("0\n"))
	f.Add([]byte("8:0"), []byte("36028797018963968\n"), []byte("2"))
	f.Fuzz(func(t *testing.T, dev, size, ro []byte) {
		dir := filepath.Join(t.TempDir(), "vda")
		writeAttrs(t, dir, map[string][]byte{"dev": dev, "size": size, "ro": ro})
		var fr fileReader
		ma, mi, bytes, isRO, have, _ := readBlockCommon(&fr, dir)
		if wma, wmi, err := parseDevNum(dev); err == nil && (wma != ma || wmi != mi) {
			t.Fatalf("dev %q: %d:%d", dev, ma, mi)
		}
		sectors, err := strconv.ParseUint(string(trimSpace(size)), 10, 64)
		if want := err == nil && sectors <= (1<<64-1)/512; want != have.size || want && bytes != sectors*512 {
			t.Fatalf("size %q: %d bytes (have %v)", size, bytes, have.size)
		}
		if s := string(trimSpace(ro)); (s == "0" || s == "1") != have.ro || have.ro && isRO != (s == "1") {
			t.Fatalf("ro %q: %v (have %v)", ro, isRO, have.ro)
		}
	})
}

// FuzzReadNetIf: an interface's numeric attributes are taken exactly as printed or not at all.
func FuzzReadNetIf(f *testing.F) {
	f.Add([]byte("1500\n"), []byte("2\n"), []byte("0x1003\n"), []byte("1000\n"), []byte("up\n"))
	f.Add([]byte("18446744073709551615"), []byte("-1"), []byte("4099"), []byte("-1"), []byte("\x1b[31m"))
	f.Fuzz(func(t *testing.T, mtu, ifindex, flags, speed, oper []byte) {
		sys := t.TempDir()
		writeAttrs(t, filepath.Join(sys, "class", "net", "eth0"), map[string][]byte{"mtu": mtu, "ifindex": ifindex,
			"flags": flags, "speed": speed, "operstate": oper, "address": []byte("52:54:00:12:34:56\n")})
		ctx := withRoots(context.Background(), roots{proc: sys, sys: sys})
		var fr fileReader
		n, err := readNetIf(ctx, &fr, "eth0")
		if w, werr := strconv.ParseUint(string(trimSpace(mtu)), 10, 64); werr == nil && err == nil && n.mtu != w {
			t.Fatalf("mtu %q: %d", mtu, n.mtu)
		}
		if w, werr := strconv.ParseUint(string(trimSpace(ifindex)), 10, 64); werr == nil && err == nil && n.ifindex != w {
			t.Fatalf("ifindex %q: %d", ifindex, n.ifindex)
		}
		if bps, known := parseSpeed(speed); known != n.speedKnown || known && bps != n.speedBps {
			t.Fatalf("speed %q: %d %v", speed, n.speedBps, n.speedKnown)
		}
	})
}

// FuzzReadHostID: the host name and release are the files' exact bytes less one trailing newline.
func FuzzReadHostID(f *testing.F) {
	addFixturePairs := func(rel string) {
		paths, _ := filepath.Glob(filepath.Join("testdata", "*", "t0", rel))
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err == nil {
				f.Add(b, []byte("6.18.44\n"))
			}
		}
	}
	addFixturePairs("proc/sys/kernel/hostname")
	f.Add([]byte("evil\x1b]0;owned\x07host\n"), []byte("6.18.44-fc\n\n"))
	f.Fuzz(func(t *testing.T, hostname, release []byte) {
		proc := t.TempDir()
		writeAttrs(t, filepath.Join(proc, "sys", "kernel"), map[string][]byte{"hostname": hostname, "osrelease": release})
		var fr fileReader
		id, err := readHostID(withRoots(context.Background(), roots{proc: proc, sys: proc}), &fr)
		if err != nil {
			t.Fatal(err)
		}
		if id.hostname != string(bytes.TrimSuffix(hostname, []byte("\n"))) || id.osRelease != string(bytes.TrimSuffix(release, []byte("\n"))) {
			t.Fatalf("%q %q read as %q %q", hostname, release, id.hostname, id.osRelease)
		}
	})
}
