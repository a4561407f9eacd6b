package pcparchive

import (
	"io"
	"os"
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

// Issue 15: a hostile or truncated metadata file is an error, never a panic, a hang or an
// allocation sized by a count the bytes do not back.
func FuzzParseMeta(f *testing.F) {
	seeds(f, "meta")
	f.Fuzz(func(t *testing.T, b []byte) {
		a := &Archive{}
		_ = a.parseMeta(b)
	})
}

// The same for a data volume, of either version.
func FuzzParseVolume(f *testing.F) {
	seeds(f, "0")
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = parseVolume(b, 2)
		_, _ = parseVolume(b, 3)
	})
}

// The same for the temporal index.
func FuzzParseIndex(f *testing.F) {
	seeds(f, "index")
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = parseIndex(b, 2)
		_, _ = parseIndex(b, 3)
	})
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
		if d == nil || d.Names[0] != "kernel.uname.release" || rs[1].Sets[0].Values[0].String() != "6.18.44-fc-v782" {
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
	for _, suf := range []string{"meta", "index", "0"} {
		b, err := os.ReadFile("testdata/v3/t." + suf)
		if err != nil {
			t.Fatal(err)
		}
		if suf == "0" {
			b = b[:len(b)-10]
		}
		if err := os.WriteFile(dir+"/t."+suf, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
			if !strings.Contains(err.Error(), "cut short") {
				t.Errorf("error %v", err)
			}
			break
		}
		n++
	}
	if n != 4 {
		t.Errorf("%d records before the cut, want 4", n)
	}
}

// A metadata file or index that ends inside a record (a writer killed, or out of room) opens:
// the metadata ends before the torn record, which is said (MetaCut); a torn index entry is
// left out. A record whose length disagrees with its end, with more after it, is damage.
func TestTornMetadataAndIndex(t *testing.T) {
	dir := t.TempDir()
	for _, suf := range []string{"meta", "index", "0"} {
		b, err := os.ReadFile("testdata/v2/t." + suf)
		if err != nil {
			t.Fatal(err)
		}
		switch suf {
		case "meta":
			b = b[:len(b)-5]
		case "index":
			b = b[:len(b)-3]
		}
		if err := os.WriteFile(dir+"/t."+suf, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, err := Open(dir + "/t")
	if err != nil {
		t.Fatalf("a torn metadata file: %v", err)
	}
	if !a.MetaCut || len(a.Descs) == 0 || len(a.Index) != 2 {
		t.Errorf("MetaCut %v, %d descriptions, %d index entries (want true, some, 2)", a.MetaCut, len(a.Descs), len(a.Index))
	}
	b, _ := os.ReadFile("testdata/v2/t.meta")
	b[len(b)-1] ^= 0xff // the last record's closing length, wrong
	b = append(b, b[132:200]...)
	if err := os.WriteFile(dir+"/t.meta", b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir + "/t"); err == nil {
		t.Error("a damaged record in the middle of the metadata was taken")
	}
}
