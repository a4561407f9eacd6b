package pcparchive

import (
	"bytes"
	"errors"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// seeds are the files of the two archives pmlogger 6.0.3 wrote here (testdata/v2, testdata/v3:
// three samples of load, disks, memory and a string), the fuzzers' starting points.
func seeds(f *testing.F, suffix string) {
	f.Helper()
	for _, v := range []string{"v2", "v3"} {
		b, err := os.ReadFile("testdata/" + v + "/t." + suffix)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
}

// fuzzBudget is the most a fuzzer's one call may allocate for an input of n bytes: memory is
// bounded by each record's own checked length and the limits (issue 30 item 10), so by the
// input's size times a small factor, plus what the limits allow; never by a length field the
// bytes do not back.
func fuzzBudget(n int) uint64 { return uint64(64*n) + uint64(maxMetaKept)*4 + 4<<20 }

// withinBudget runs f and fails t when it allocated more than fuzzBudget(n) bytes in all. The
// limits are lowered for the fuzzers so that a breach shows at once.
func withinBudget(t *testing.T, n int, f func()) {
	t.Helper()
	defer func(r, k int64) { maxRecord, maxMetaKept = r, k }(maxRecord, maxMetaKept)
	maxRecord, maxMetaKept = 1<<20, 1<<20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > fuzzBudget(n) {
		t.Fatalf("%d bytes of input allocated %d bytes, past the budget of %d", n, got, fuzzBudget(n))
	}
}

// reader of b as a file named name.
func framesOf(name string, b []byte) *frames {
	return newFrames(name, bytes.NewReader(b), int64(len(b)), 0)
}

// Issue 15, issue 30 items 9 and 10: a hostile or truncated metadata file is an error (a
// *DamageError naming the offset), never a panic, a hang or an allocation sized by a count the
// bytes do not back; what it allocates stays within a budget of its size.
func FuzzParseMeta(f *testing.F) {
	seeds(f, "meta")
	f.Fuzz(func(t *testing.T, b []byte) {
		withinBudget(t, len(b), func() {
			a := &Archive{}
			checkDamage(t, a.readMeta(framesOf("f.meta", b), &Part{}), len(b))
		})
	})
}

// The same for a data volume, of either version.
func FuzzParseVolume(f *testing.F) {
	seeds(f, "0")
	f.Fuzz(func(t *testing.T, b []byte) {
		withinBudget(t, len(b), func() {
			for _, v := range []int{2, 3} {
				_, err := readVolume(framesOf("f.0", b), v, 0)
				checkDamage(t, err, len(b))
			}
		})
	})
}

// The same for the temporal index.
func FuzzParseIndex(f *testing.F) {
	seeds(f, "index")
	f.Fuzz(func(t *testing.T, b []byte) {
		withinBudget(t, len(b), func() {
			for _, v := range []int{2, 3} {
				a := &Archive{Parts: []Part{{Label: Label{Version: v}}}}
				checkDamage(t, a.readIndex(framesOf("f.index", b), 0), len(b))
			}
		})
	})
}

// checkDamage fails t when err is not nil and not a *DamageError at an offset in the file.
func checkDamage(t *testing.T, err error, n int) {
	t.Helper()
	if err == nil {
		return
	}
	var d *DamageError
	if !errors.As(err, &d) || d.Offset < 0 || d.Offset > int64(n) || !strings.HasPrefix(err.Error(), d.File+": offset ") {
		t.Fatalf("an error that does not say where: %v", err)
	}
}

// The archives kept in testdata read without PCP installed: the same label, descriptions and
// values as pmdumplog printed when they were written (pmdumplog -a testdata/v2/t).
func TestTestdataArchives(t *testing.T) {
	for _, v := range []string{"v2", "v3"} {
		a, err := Open("testdata/" + v + "/t")
		if err != nil {
			t.Fatal(err)
		}
		if a.Label.Host != "vm" || len(a.Descs) != 12 || len(a.Index) != 3 {
			t.Errorf("%s: host %q, %d descriptions, %d index entries; want vm, 12, 3", v, a.Label.Host, len(a.Descs), len(a.Index))
		}
		rs, err := a.ReadVolume(0)
		if err != nil || len(rs) != 5 {
			t.Fatalf("%s: %d records, %v", v, len(rs), err)
		}
		d := a.Desc(rs[1].Sets[0].PMID)
		if d == nil || d.Names[0] != "kernel.uname.release" || rs[1].Sets[0].Values[0].StringValue() != "6.18.44-fc-v782" {
			t.Errorf("%s: the second record's first value: %+v %+v", v, d, rs[1].Sets[0])
		}
	}
	a, _ := Open("testdata/v2/t")
	rs, _ := a.ReadVolume(0)
	// pmdumplog: 60.1.0 (mem.physmem): value 24683620; 60.2.0 (kernel.all.load) inst [1] 0.62.
	for _, s := range rs[1].Sets {
		d := a.Desc(s.PMID)
		switch d.Names[0] {
		case "mem.physmem":
			if n, err := s.Values[0].Uint64(d.Type); err != nil || n != 24683620 {
				t.Errorf("mem.physmem %d %v", n, err)
			}
		case "kernel.all.load":
			if x, err := s.Values[0].Float64(d.Type); err != nil || s.Values[0].Inst != 1 || x < 0.6199 || x > 0.6201 {
				t.Errorf("kernel.all.load inst %d = %v %v", s.Values[0].Inst, x, err)
			}
		}
	}
}

// Issue 15: a cursor reads the same records as reading the volume whole, from the start and from
// any time through the temporal index, and a volume cut short ends it with an error.
func TestCursorAgreesWithWholeReading(t *testing.T) {
	for _, v := range []string{"v2", "v3"} {
		a, err := Open("testdata/" + v + "/t")
		if err != nil {
			t.Fatal(err)
		}
		all, err := a.ReadVolume(0)
		if err != nil {
			t.Fatal(err)
		}
		for k, from := range append([]Result{{}}, all...) {
			c, err := a.Cursor(from.Time)
			if err != nil {
				t.Fatal(err)
			}
			start := max(k-1, 0) // the zero time is the start; record k-1 is at from
			for i := start; ; i++ {
				r, err := c.Next()
				if err == io.EOF {
					if i != len(all) {
						t.Errorf("%s from %v: %d records, want %d", v, from.Time, i-start, len(all)-start)
					}
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if !r.Time.Equal(all[i].Time) || len(r.Sets) != len(all[i].Sets) {
					t.Fatalf("%s from %v: record %d at %v, want %v", v, from.Time, i, r.Time, all[i].Time)
				}
			}
			c.Close()
		}
	}
	// A copy cut short.
	dir := t.TempDir()
	copyTestArchive(t, "v3", dir+"/t", func(suf string, b []byte) []byte {
		if suf == "0" {
			return b[:len(b)-10]
		}
		return b
	})
	a, err := Open(dir + "/t")
	if err != nil {
		t.Fatal(err)
	}
	c, err := a.Cursor(time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		_, err := c.Next()
		if err == io.EOF {
			t.Fatal("a cut volume read to its end without an error")
		}
		if err != nil {
			// Issue 30 item 9: the file, the record's offset and what is wrong.
			var d *DamageError
			if !errors.As(err, &d) || !d.Cut || err.Error() != dir+"/t.0: offset 1796: a data record says it is 172 bytes, the file has 162 left" {
				t.Errorf("error %v", err)
			}
			if _, again := c.Next(); again != err {
				t.Errorf("the cursor went on past the damage: %v", again)
			}
			break
		}
		n++
	}
	if n != 4 {
		t.Errorf("%d records before the cut, want 4", n)
	}
}

// A metadata file or index that ends inside a record (a writer killed, or out of room) opens with
// what was written before the torn record, and an error for each file saying where it is
// (issue 30 item 9: never silent). A record whose length disagrees with its end, with more after
// it, is damage.
func TestTornMetadataAndIndex(t *testing.T) {
	dir := t.TempDir()
	copyTestArchive(t, "v2", dir+"/t", func(suf string, b []byte) []byte {
		switch suf {
		case "meta":
			return b[:len(b)-5]
		case "index":
			return b[:len(b)-3]
		}
		return b
	})
	a, err := Open(dir + "/t")
	if a == nil || len(a.Descs) == 0 || len(a.Index) != 2 {
		t.Fatalf("a torn metadata file and index: %v; want the archive before the tears, with 2 index entries", err)
	}
	var d *DamageError
	if !errors.As(err, &d) || !d.Cut || d.File != dir+"/t.meta" {
		t.Errorf("error %v", err)
	}
	// The index is a hint (issue 39 item 4): its torn entry is a warning, as libpcp ends the
	// index there.
	if !slices.Contains(a.Notes(), "t.index: offset 172: an index entry of 20 bytes is cut short after 17: the index ends before it") {
		t.Errorf("notes %q", a.Notes())
	}
	b, _ := os.ReadFile("testdata/v2/t.meta")
	b[len(b)-1] ^= 0xff // the last record's closing length, wrong
	b = append(b, b[132:200]...)
	if err := os.WriteFile(dir+"/t.meta", b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir + "/t"); !errors.As(err, &d) || d.Cut {
		t.Errorf("a damaged record in the middle of the metadata: %v", err)
	}
}
