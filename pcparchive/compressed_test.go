package pcparchive

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"dcimon/internal/pcptest"
)

// compressFiles compresses an archive's files in place with the real tool, as pmlogger_daily
// does (its PCP_COMPRESS default on PCP 6.0.3 is `xz -0 --block-size=10MiB`; the index is left
// as it is, its regex excludes it): the originals are replaced.
func compressFiles(t *testing.T, tool string, args []string, paths ...string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Skipf("%s is not installed (Debian: xz-utils, bzip2)", tool)
	}
	if out, err := exec.Command(tool, append(args, paths...)...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", tool, err, out)
	}
}

// copyTo copies the files of the archive at base to dir as name.
func copyTo(t *testing.T, base, dir, name string) string {
	t.Helper()
	for _, suf := range []string{".meta", ".index", ".0"} {
		b, err := os.ReadFile(base + suf)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+suf), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, name)
}

// Issue 39 item 2: archives a real pmlogger wrote, compressed as pmlogger_daily leaves them
// (xz -0 --block-size=10MiB; bzip2 and gzip as older sites did), read as they were before
// compression, and as PCP's own pmdumplog reads the compressed files: every value equal.
func TestReadsCompressedPMLoggerArchives(t *testing.T) {
	p := pcptest.Start(t)
	for _, v := range []int{2, 3} {
		base := logArchive(t, p, v)
		plain, err := Open(base)
		if err != nil {
			t.Fatal(err)
		}
		want := ours(t, plain)
		for _, z := range []struct {
			tool   string
			args   []string
			suffix string
			cost   string
		}{
			{"xz", []string{"-0", "--block-size=10MiB"}, ".xz", "a seek backwards decompresses from the start (the xz file is one block)"},
			{"bzip2", nil, ".bz2", "a seek backwards decompresses from the start (bzip2 has no index)"},
			{"gzip", nil, ".gz", "a seek backwards decompresses from the start (gzip has no index)"},
		} {
			t.Run(fmt.Sprintf("v%d/%s", v, z.tool), func(t *testing.T) {
				zb := copyTo(t, base, t.TempDir(), "20261127.09.54")
				compressFiles(t, z.tool, z.args, zb+".0", zb+".meta")
				a, err := Open(zb)
				if err != nil {
					t.Fatal(err)
				}
				if !a.Compressed() || !slices.Equal(a.Parts[0].Files, []string{zb + ".meta" + z.suffix, zb + ".index", zb + ".0" + z.suffix}) {
					t.Errorf("files %q", a.Parts[0].Files)
				}
				note := fmt.Sprintf("compressed: 20261127.09.54.meta%s, 20261127.09.54.0%s; 20261127.09.54.0%s: %s", z.suffix, z.suffix, z.suffix, z.cost)
				if n := a.Notes(); len(n) != 1 || n[0] != note {
					t.Errorf("notes %q, want %q", n, note)
				}
				if len(a.Descs) != len(plain.Descs) || len(a.InDoms) != len(plain.InDoms) || len(a.Index) != len(plain.Index) {
					t.Errorf("%d descriptions, %d instance domains, %d index entries; uncompressed %d, %d, %d",
						len(a.Descs), len(a.InDoms), len(a.Index), len(plain.Descs), len(plain.InDoms), len(plain.Index))
				}
				got := ours(t, a)
				if !slices.Equal(got, want) {
					t.Fatalf("values differ from the uncompressed archive's:\n%q\n%q", got, want)
				}
				theirs := dumped(t, zb) // pmdumplog reads the compressed files itself
				if len(theirs) != len(got) {
					t.Fatalf("%d values, pmdumplog %d", len(got), len(theirs))
				}
				for i := range got {
					if !sameValue(got[i], theirs[i]) {
						t.Errorf("value %d: %s, pmdumplog %s", i, got[i], theirs[i])
					}
				}
				// A cursor at each index entry's time reads what the uncompressed one reads.
				for _, e := range plain.Index {
					c1, err1 := plain.Cursor(e.Time)
					c2, err2 := a.Cursor(e.Time)
					if err1 != nil || err2 != nil {
						t.Fatal(err1, err2)
					}
					r1, _ := c1.Next()
					r2, _ := c2.Next()
					if !r1.Time.Equal(r2.Time) || len(r1.Sets) != len(r2.Sets) {
						t.Errorf("at %v: a record at %v, uncompressed %v", e.Time, r2.Time, r1.Time)
					}
					c1.Close()
					c2.Close()
				}
			})
		}
	}
}

// Issue 39 item 2: damage inside a compressed volume is a DamageError naming the compressed
// file and the offset in it, after the records before it.
func TestCompressedDamage(t *testing.T) {
	base := copyTo(t, "testdata/v3/t", t.TempDir(), "t")
	plain, _ := Open(base)
	all, _ := plain.ReadVolume(0)
	compressFiles(t, "xz", []string{"-0"}, base+".0")
	b, _ := os.ReadFile(base + ".0.xz")
	if err := os.WriteFile(base+".0.xz", b[:len(b)-40], 0o644); err != nil { // cut inside its data
		t.Fatal(err)
	}
	a, err := Open(base)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := a.ReadVolume(0)
	d, ok := err.(*DamageError)
	if !ok || d.File != base+".0.xz" || d.Offset <= 0 || d.Offset > int64(len(b)) || !d.Cut ||
		!strings.Contains(d.What, "xz: the file ends inside its compressed data") || len(rs) >= len(all) {
		t.Errorf("%d of %d records, error %v", len(rs), len(all), err)
	}
	if !strings.HasPrefix(err.Error(), base+".0.xz: offset ") {
		t.Errorf("error %q does not say the file and offset first", err)
	}
}

// Issue 39 item 3: names as PCP's tools take them. A base with dots (pmlogger_daily's
// 20261127.09.54) is a base: its trailing number is a volume only when that file exists; a
// file of the archive (x.meta, x.0, x.index, x.meta.xz) names its archive.
func TestNames(t *testing.T) {
	dir := t.TempDir()
	base := copyTo(t, "testdata/v2/t", dir, "20261127.09.54")
	other := copyTo(t, "testdata/v3/t", dir, "20261127.09") // a trap: what the old reader opened
	_ = other
	zdir := t.TempDir()
	zbase := copyTo(t, "testdata/v2/t", zdir, "20261127.09.54")
	compressFiles(t, "xz", []string{"-0"}, zbase+".meta", zbase+".0")
	for _, name := range []string{base, base + ".meta", base + ".0", base + ".index", zbase, zbase + ".meta.xz", zbase + ".0.xz", zbase + ".index"} {
		a, err := Open(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		want := base
		if strings.HasPrefix(name, zdir) {
			want = zbase
		}
		if a.Parts[0].Base != want || a.Label.Version != 2 {
			t.Errorf("%s: opened %s (version %d), want %s", name, a.Parts[0].Base, a.Label.Version, want)
		}
		if l, err := ReadLabel(name); err != nil || l.Version != 2 {
			t.Errorf("ReadLabel(%s): %+v %v", name, l, err)
		}
	}
	if _, err := Open(filepath.Join(dir, "20261127.09.55")); err == nil {
		t.Error("a base that is not there opened")
	}
}

// Issue 39 item 3: pmlogger_daily's folder of one host's archives (YYYYMMDD.HH.MM, a Latest
// folio, pmlogger's log) opens as one archive over all of them, in time order, as PCP's
// multi-archive contexts read a folder: each value as pmdumplog reads each archive.
func TestFolderOfArchives(t *testing.T) {
	p := pcptest.Start(t)
	first := logArchive(t, p, 2)
	second := logArchive(t, p, 3) // after the first: each takes 3 s
	dir := filepath.Join(t.TempDir(), "host")
	os.Mkdir(dir, 0o755)
	// Named so that the name order is not the time order: time decides.
	b1 := copyTo(t, first, dir, "20261127.10.00")
	b2 := copyTo(t, second, dir, "20261127.00.00")
	compressFiles(t, "xz", []string{"-0", "--block-size=10MiB"}, b1+".0", b1+".meta")
	os.WriteFile(filepath.Join(dir, "Latest"), []byte("PCPFolio\nVersion: 1\nArchive: host 20261127.00.00\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "pmlogger.log"), []byte("log\n"), 0o644)
	a, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Parts) != 2 || a.Parts[0].Base != b1 || a.Parts[1].Base != b2 || a.Base != dir {
		t.Fatalf("parts %+v", a.Parts)
	}
	got := ours(t, a)
	want := append(dumped(t, b1), dumped(t, b2)...)
	if len(got) != len(want) {
		t.Fatalf("%d values, pmdumplog %d", len(got), len(want))
	}
	for i := range got {
		if !sameValue(got[i], want[i]) {
			t.Errorf("value %d: %s, pmdumplog %s", i, got[i], want[i])
		}
	}
	// A cursor reads the two as one timeline, and seeks into the second.
	c, _ := a.Cursor(time.Time{})
	var times []time.Time
	for {
		r, err := c.Next()
		if err != nil {
			break
		}
		times = append(times, r.Time)
	}
	if len(times) < 6 || !slices.IsSortedFunc(times, func(x, y time.Time) int { return x.Compare(y) }) {
		t.Errorf("%d records, in order %v", len(times), times)
	}
	l2, _ := ReadLabel(b2)
	c, _ = a.Cursor(l2.Start)
	if r, err := c.Next(); err != nil || r.Time.Before(l2.Start) {
		t.Errorf("a seek into the second archive: %v %v", r.Time, err)
	}
	if l, _ := ReadLabel(dir); !l.Start.Equal(a.Parts[0].Label.Start) {
		t.Errorf("the folder's label starts %v", l.Start)
	}
	// The Latest folio, as pmlogger_check writes it, names the latest archive; a folio of
	// both (pmafm's) is both, as one timeline, as PCP's tools take a folio (--archive-folio).
	for _, c := range []struct {
		folio string
		parts []string
	}{
		{"PCPFolio\nVersion: 1\n# use pmafm(1) to process this PCP archive folio\n#\nCreated: on vm at Fri Nov 27 10:00:00 2026\nCreator: pmlogger_check\n#\t\tHost\t\t\tBasename\n#\nArchive:\tvm\t\t\t20261127.00.00\n", []string{b2}},
		{"PCPFolio\nVersion: 1\nArchive: vm 20261127.00.00\nArchive: vm " + b1 + ".meta.xz\n", []string{b1, b2}},
	} {
		os.WriteFile(filepath.Join(dir, "Latest"), []byte(c.folio), 0o644)
		f, err := Open(filepath.Join(dir, "Latest"))
		if err != nil {
			t.Errorf("the folio %q: %v", c.folio, err)
			continue
		}
		var got []string
		for _, p := range f.Parts {
			got = append(got, p.Base)
		}
		if !slices.Equal(got, c.parts) {
			t.Errorf("the folio %q: archives %q, want %q", c.folio, got, c.parts)
		}
	}
	os.WriteFile(filepath.Join(dir, "Latest"), []byte("PCPFolio\nVersion: 1\nArchive: vm\n"), 0o644)
	if _, err := Open(filepath.Join(dir, "Latest")); err == nil || !strings.Contains(err.Error(), "line 3: an archive line without its host and path") {
		t.Errorf("a folio line without its path: %v", err)
	}
}

// Issue 39 item 3: a folder's archives are refused as PCP refuses them (of two hosts; two that
// begin together), an archive that cannot be read is passed over with a warning, and records
// of an archive not after the last of the one before are passed over with a warning.
func TestFolderRules(t *testing.T) {
	start := time.Date(2026, 11, 27, 9, 54, 0, 0, time.UTC)
	write := func(t *testing.T, base, host string, at time.Time, n int) {
		t.Helper()
		w, err := Create(base, 3, Label{Host: host, TZ: "UTC", Start: at})
		if err != nil {
			t.Fatal(err)
		}
		pmid := PMID(60, 0, 13)
		if err := w.PutDesc(Desc{PMID: pmid, Type: TypeU64, InDom: InDomNull, Sem: 1, Names: []string{"kernel.all.pswitch"}}); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if err := w.PutResult(at.Add(time.Duration(i)*time.Second), []OutSet{{PMID: pmid, Values: []OutValue{{Inst: -1, N: uint64(i)}}}}); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("two hosts", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir+"/a", "db1", start, 3)
		write(t, dir+"/b", "db2", start.Add(time.Hour), 3)
		if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "archives differ by host") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("same start", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir+"/a", "db1", start, 3)
		write(t, dir+"/b", "db1", start, 3)
		if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "archives overlap in time") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("overlap and unreadable", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir+"/a", "db1", start, 10)
		write(t, dir+"/b", "db1", start.Add(5*time.Second), 10) // its first 5 overlap a's
		os.WriteFile(dir+"/c.meta", []byte("not an archive"), 0o644)
		a, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := a.Cursor(time.Time{})
		var n []uint64
		for {
			r, err := c.Next()
			if err != nil {
				break
			}
			v, _ := r.Sets[0].Values[0].Uint64(TypeU64)
			n = append(n, v)
		}
		want := []uint64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 5, 6, 7, 8, 9}
		if !slices.Equal(n, want) {
			t.Errorf("values %v, want %v (b's records not after a's last passed over)", n, want)
		}
		notes := strings.Join(a.Notes(), "\n")
		if !strings.Contains(notes, "c: passed over, as PCP does") || !strings.Contains(notes, "b: its first 5 records are not after the last of the archive before it") {
			t.Errorf("notes %s", notes)
		}
	})
}

// Issue 39 item 4: the index is a hint. Entries of a real pmlogger's index that point inside a
// record, past the volume's end, to a volume that is not there, or 1 µs before the entry before
// them are passed over with a warning, and every seek reads what it reads with the index whole.
func TestIndexIsAHint(t *testing.T) {
	for _, v := range []string{"v2", "v3"} {
		clean, err := Open("testdata/" + v + "/t")
		if err != nil {
			t.Fatal(err)
		}
		if len(clean.Index) < 3 {
			t.Fatalf("%d index entries", len(clean.Index))
		}
		lab, size := labelSize(clean.Label.Version), int64(20)
		stamp := 8
		if v == "v3" {
			size, stamp = 32, 12
		}
		idx, _ := os.ReadFile("testdata/" + v + "/t.index")
		set := func(i int, at int, val uint64, wide bool) []byte {
			b := bytes.Clone(idx)
			o := int(lab+int64(i)*size) + at
			if wide {
				binary.BigEndian.PutUint64(b[o:], val)
			} else {
				binary.BigEndian.PutUint32(b[o:], uint32(val))
			}
			return b
		}
		volAt, wide := stamp+4+4, false // V2: time, vol, meta offset (4), volume offset (4)
		if v == "v3" {
			volAt, wide = stamp+4+8, true
		}
		last := len(clean.Index) - 1
		e := clean.Index[last]
		st, _ := os.Stat("testdata/" + v + "/t.0")
		for _, c := range []struct {
			name string
			b    []byte
			note string
		}{
			{"inside a record", set(last, volAt, uint64(e.VolumOff+4), wide), "where no record begins"},
			{"past the end", set(last, volAt, uint64(st.Size()+1000), wide), fmt.Sprintf("which has %d bytes", st.Size())},
			{"a volume not there", set(last, stamp, 7, false), "it names volume 7, which is not there"},
			{"1 µs backwards", func() []byte {
				// the last entry 1 µs before the one before it
				b := bytes.Clone(idx)
				prev := clean.Index[last-1].Time.Add(-time.Microsecond)
				o := int(lab + int64(last)*size)
				if v == "v2" {
					binary.BigEndian.PutUint32(b[o:], uint32(prev.Unix()))
					binary.BigEndian.PutUint32(b[o+4:], uint32(prev.Nanosecond()/1000))
				} else {
					binary.BigEndian.PutUint32(b[o:], uint32(prev.Unix()))
					binary.BigEndian.PutUint32(b[o+4:], 0)
					binary.BigEndian.PutUint32(b[o+8:], uint32(prev.Nanosecond()))
				}
				return b
			}(), "is before the entry before it"},
		} {
			t.Run(v+"/"+c.name, func(t *testing.T) {
				base := copyTo(t, "testdata/"+v+"/t", t.TempDir(), "t")
				os.WriteFile(base+".index", c.b, 0o644)
				a, err := Open(base)
				if err != nil {
					t.Fatalf("the archive is refused: %v", err)
				}
				all, _ := clean.ReadVolume(0)
				for _, r := range all {
					c1, err1 := clean.Cursor(r.Time)
					c2, err2 := a.Cursor(r.Time)
					if err1 != nil || err2 != nil {
						t.Fatalf("at %v: %v %v", r.Time, err1, err2)
					}
					r1, _ := c1.Next()
					r2, err := c2.Next()
					if err != nil || !r1.Time.Equal(r2.Time) {
						t.Errorf("at %v: a record at %v (%v), the whole index's at %v", r.Time, r2.Time, err, r1.Time)
					}
				}
				var said []string
				for _, n := range a.Notes() {
					if strings.Contains(n, c.note) && strings.Contains(n, "t.index: offset ") {
						said = append(said, n)
					}
				}
				if len(said) != 1 { // found out once, said once, however many seeks start there
					t.Errorf("notes %q, want one saying %q", a.Notes(), c.note)
				}
			})
		}
	}
}

// Issue 39 item 2: an archive that is there compressed (pmlogger_daily's x.0.xz, x.meta.xz) is
// there: Vacant refuses its base, as it refuses one written as is.
func TestVacantSeesCompressedArchives(t *testing.T) {
	dir := t.TempDir()
	base := copyTo(t, "testdata/v2/t", dir, "20261127.09.54")
	compressFiles(t, "xz", []string{"-0"}, base+".meta", base+".0")
	os.Remove(base + ".index")
	if err := Vacant(base); err == nil || !strings.Contains(err.Error(), base+".meta.xz file already exists") {
		t.Errorf("Vacant: %v", err)
	}
	if err := Vacant(filepath.Join(dir, "20261127.09")); err != nil {
		t.Errorf("Vacant of another base: %v", err)
	}
}
