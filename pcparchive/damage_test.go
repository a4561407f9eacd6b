package pcparchive

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// span is one framed record of a file: its offset and length.
type span struct{ off, n int }

// spans walks a sound file's records (the files in testdata, as pmlogger wrote them).
func spans(b []byte) []span {
	var out []span
	for off := 0; off+4 <= len(b); {
		n := int(be.Uint32(b[off:]))
		out = append(out, span{off, n})
		off += n
	}
	return out
}

// put32 is b with the 32-bit word at off set to v.
func put32(b []byte, off int, v uint32) []byte {
	be.PutUint32(b[off:], v)
	return b
}

// Issue 30 item 9: every kind of damage to the label, the metadata, the index and a volume, of
// both versions, is an error naming the file, the damaged record's offset and what was wrong,
// and what was read before it stays: the archive's descriptions, instance domains and index
// entries before the damage, a volume's records before it.
func TestDamageSaysWhereAndWhat(t *testing.T) {
	for _, v := range []string{"v2", "v3"} {
		clean := map[string][]byte{}
		for _, suf := range []string{"meta", "index", "0"} {
			b, err := os.ReadFile("testdata/" + v + "/t." + suf)
			if err != nil {
				t.Fatal(err)
			}
			clean[suf] = b
		}
		good, err := Open("testdata/" + v + "/t")
		if err != nil {
			t.Fatal(err)
		}
		meta, vol := spans(clean["meta"]), spans(clean["0"])
		lab := int(labelSize(good.Label.Version))
		entry := 20
		if v == "v3" {
			entry = 32
		}
		idxLen := len(clean["index"])
		// The first instance domain record, and its first instance.
		var indom span
		for _, s := range meta[1:] {
			if tag := be.Uint32(clean["meta"][s.off+4:]); tag == tagInDomV2 || tag == tagInDom {
				indom = s
				break
			}
		}
		stamp := 8
		if v == "v3" {
			stamp = 12
		}
		inst0 := int32(be.Uint32(clean["meta"][indom.off+8+stamp+8:]))
		ninst := int(be.Uint32(clean["meta"][indom.off+8+stamp+4:]))
		descsBefore := func(off int) int { // descriptions before offset off
			n := 0
			for _, s := range meta[1:] {
				if s.off < off && be.Uint32(clean["meta"][s.off+4:]) == tagDesc {
					n++
				}
			}
			return n
		}
		huge := uint32(4294967040)
		cases := []struct {
			name  string
			file  string
			edit  func(b []byte) []byte
			want  string // the message, after "<dir>/t."
			cut   bool
			descs int // descriptions kept; -1: no archive
			index int // index entries kept
			recs  int // records of volume 0 read before the damage
		}{
			{"label's length", "meta", func(b []byte) []byte { return put32(b, 0, huge) },
				"meta: offset 0: the label record says it is 4294967040 bytes; a label is 132 (Version 2) or 808 (Version 3)", false, -1, 0, 0},
			{"label's magic", "meta", func(b []byte) []byte { return put32(b, 4, 0x12345678) },
				"meta: offset 0: no archive label (magic 0x500526xx)", false, -1, 0, 0},
			{"a second record of 4 GB", "meta", func(b []byte) []byte { return put32(b, lab, huge) },
				fmt.Sprintf("meta: offset %d: a descriptor record says it is 4294967040 bytes, past the 64 MiB a record may be (the file has %d left)", lab, len(clean["meta"])-lab), false, 0, len(good.Index), len(vol) - 1},
			{"a record longer than the rest", "meta", func(b []byte) []byte { return put32(b, meta[3].off, 3000) },
				fmt.Sprintf("meta: offset %d: a descriptor record says it is 3000 bytes, the file has %d left", meta[3].off, len(clean["meta"])-meta[3].off), true, 1, len(good.Index), len(vol) - 1},
			{"a record shorter than its lengths", "meta", func(b []byte) []byte { return put32(b, meta[3].off, 6) },
				fmt.Sprintf("meta: offset %d: a descriptor record says it is 6 bytes, less than its two lengths", meta[3].off), false, 1, len(good.Index), len(vol) - 1},
			{"a record whose two lengths differ", "meta", func(b []byte) []byte { return put32(b, meta[3].off+meta[3].n-4, 7) },
				fmt.Sprintf("meta: offset %d: a descriptor record of %d bytes ends with the length 7", meta[3].off, meta[3].n), false, 1, len(good.Index), len(vol) - 1},
			{"a record of no type", "meta", func(b []byte) []byte { return put32(b, lab+4, 99) },
				fmt.Sprintf("meta: offset %d: a record of type 99 of %d bytes: not a type of metadata record (1 to 7)", lab, meta[1].n), false, 0, len(good.Index), len(vol) - 1},
			{"a descriptor with 2^31 names", "meta", func(b []byte) []byte { return put32(b, lab+28, 0x7fffffff) },
				fmt.Sprintf("meta: offset %d: a descriptor record of %d bytes: its fields run past its end", lab, meta[1].n), false, 0, len(good.Index), len(vol) - 1},
			{"an instance's name outside the string table", "meta", func(b []byte) []byte { return put32(b, indom.off+8+stamp+8+4*ninst, 0x7fff0000) },
				fmt.Sprintf("meta: offset %d: an instance domain record of %d bytes: instance %d's name is not in its string table", indom.off, indom.n, inst0), false, descsBefore(indom.off), len(good.Index), len(vol) - 1},
			{"padded with zeros", "meta", func(b []byte) []byte { return append(b, make([]byte, 1<<20)...) },
				fmt.Sprintf("meta: offset %d: a record of length 0, and zeros to the end: the file is padded, not written", len(clean["meta"])), false, len(good.Descs), len(good.Index), len(vol) - 1},
			{"cut inside its last record", "meta", func(b []byte) []byte { return b[:len(b)-5] },
				fmt.Sprintf("meta: offset %d: an instance domain record says it is %d bytes, the file has %d left", meta[len(meta)-1].off, meta[len(meta)-1].n, meta[len(meta)-1].n-5), true, len(good.Descs), len(good.Index), len(vol) - 1},
			// Issue 39 item 4: the index is a hint: a bad entry is passed over with a warning,
			// and the archive opens without an error (the want is the warning).
			{"an index padded with zeros", "index", func(b []byte) []byte { return append(b, make([]byte, 1<<20)...) },
				fmt.Sprintf("index: offset %d: an index entry of zeros: the index is padded from there, and ends before it", idxLen), false, len(good.Descs), len(good.Index), len(vol) - 1},
			{"an index entry before the one before it", "index", func(b []byte) []byte { return put32(put32(b, lab+2*entry, 1), lab+2*entry+stamp-4, 0) },
				fmt.Sprintf("index: offset %d: an index entry passed over: its time 1970-01-01T00:00:01Z is before the entry before it (%s) (the index is a hint; reading goes on from the data)", lab+2*entry, good.Index[1].Time.UTC().Format(time.RFC3339Nano)), false, len(good.Descs), len(good.Index) - 1, len(vol) - 1},
			{"an index entry of volume -1", "index", func(b []byte) []byte { return put32(b, lab+entry+stamp, 0xffffffff) },
				fmt.Sprintf("index: offset %d: an index entry passed over: it names volume -1 (the index is a hint; reading goes on from the data)", lab+entry), false, len(good.Descs), len(good.Index) - 1, len(vol) - 1},
			{"an index cut inside an entry", "index", func(b []byte) []byte { return b[:len(b)-3] },
				fmt.Sprintf("index: offset %d: an index entry of %d bytes is cut short after %d: the index ends before it", idxLen-entry, entry, entry-3), false, len(good.Descs), len(good.Index) - 1, len(vol) - 1},
			{"a data record of 4 GB", "0", func(b []byte) []byte { return put32(b, vol[3].off, huge) },
				fmt.Sprintf("0: offset %d: a data record says it is 4294967040 bytes, past the 64 MiB a record may be (the file has %d left)", vol[3].off, len(clean["0"])-vol[3].off), false, len(good.Descs), len(good.Index), 2},
			{"a data record with 2^31 metrics", "0", func(b []byte) []byte { return put32(b, vol[3].off+4+stamp, 0x7fffffff) },
				fmt.Sprintf("0: offset %d: a data record of %d bytes: at offset %d, 2147483647 metrics, and room for %d", vol[3].off, vol[3].n, vol[3].off+4+stamp, (vol[3].n-8-stamp-4)/8), false, len(good.Descs), len(good.Index), 2},
			{"a data record whose two lengths differ", "0", func(b []byte) []byte { return put32(b, vol[3].off+vol[3].n-4, 9) },
				fmt.Sprintf("0: offset %d: a data record of %d bytes ends with the length 9", vol[3].off, vol[3].n), false, len(good.Descs), len(good.Index), 2},
			{"a volume cut inside its last record", "0", func(b []byte) []byte { return b[:len(b)-10] },
				fmt.Sprintf("0: offset %d: a data record says it is %d bytes, the file has %d left", vol[len(vol)-1].off, vol[len(vol)-1].n, vol[len(vol)-1].n-10), true, len(good.Descs), len(good.Index), len(vol) - 2},
			{"a volume labelled 1", "0", func(b []byte) []byte { return put32(b, 4+map[string]int{"v2": 16, "v3": 20}[v], 1) },
				"0: offset 0: the label says volume 1, in the file of volume 0", false, len(good.Descs), len(good.Index), 0},
		}
		for _, c := range cases {
			t.Run(v+"/"+c.name, func(t *testing.T) {
				dir := t.TempDir()
				for suf, b := range clean {
					b = append([]byte(nil), b...)
					if suf == c.file {
						b = c.edit(b)
					}
					if err := os.WriteFile(filepath.Join(dir, "t."+suf), b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				base := filepath.Join(dir, "t")
				want := base + "." + c.want
				a, err := Open(base)
				if c.file == "0" {
					// The volume is read by a cursor, and whole.
					if err != nil {
						t.Fatal(err)
					}
					var cur *Cursor
					cur, err = a.Cursor(time.Time{})
					if err == nil {
						n := 0
						for ; ; n++ {
							if _, err = cur.Next(); err != nil {
								break
							}
						}
						if again, _ := cur.Next(); n != c.recs || again.Sets != nil {
							t.Errorf("the cursor read %d records before the damage, want %d", n, c.recs)
						}
						cur.Close()
					}
					rs, err2 := a.ReadVolume(0)
					if len(rs) != c.recs || err2 == nil || err2.Error() != err.Error() {
						t.Errorf("ReadVolume: %d records, %v; the cursor's error %v", len(rs), err2, err)
					}
				}
				var d *DamageError
				if c.file == "index" {
					if err != nil || a == nil || !slices.Contains(a.Notes(), "t."+c.want) {
						t.Errorf("error %v, notes %q; want no error and the warning\n%s", err, notes(a), "t."+c.want)
					}
				} else if !errors.As(err, &d) || !strings.HasPrefix(err.Error(), want) || err.Error() != want ||
					d.Cut != c.cut || !errors.Is(err, ErrFormat) {
					t.Errorf("error\n%v\nwant\n%s (cut %v)", err, want, c.cut)
				}
				if c.descs < 0 {
					if a != nil {
						t.Error("an archive without its label")
					}
					return
				}
				if a == nil {
					t.Fatal("no archive: what was read before the damage is lost")
				}
				if len(a.Descs) != c.descs || len(a.Index) != c.index || a.Label != good.Label {
					t.Errorf("kept %d descriptions and %d index entries (want %d, %d), label %+v", len(a.Descs), len(a.Index), c.descs, c.index, a.Label)
				}
			})
		}
	}
}

// Issue 30 item 10: memory is bounded by each record's checked length and the limits, never by
// a file's size: a metadata file or index padded with 4 GiB of zeros (sparse: no disk used) and
// a record claiming 4 GB are refused at once, allocating next to nothing; so is /dev/zero as
// either file (item 11: not a regular file).
func TestMemoryBoundedByRecords(t *testing.T) {
	dir := t.TempDir()
	copyArchive := func(name string) string {
		base := filepath.Join(dir, name)
		copyTestArchive(t, "v3", base, nil)
		return base
	}
	pad := func(base, suf string) {
		st, err := os.Stat(base + "." + suf)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(base+"."+suf, st.Size()+4<<30); err != nil {
			t.Fatal(err)
		}
	}
	link := func(base, suf string) {
		if err := os.Remove(base + "." + suf); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("/dev/zero", base+"."+suf); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		make func(base string)
		want string
	}{
		{"meta padded", func(b string) { pad(b, "meta") }, "t1.meta: offset 3467: a record of length 0, and zeros to the end"},
		{"index padded", func(b string) { pad(b, "index") }, "t2.index: offset 904: an index entry of zeros"}, // a warning (issue 39 item 4)
		{"4 GB record", func(b string) {
			f, err := os.OpenFile(b+".meta", os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteAt([]byte{0xff, 0xff, 0xff, 0x00}, 808); err != nil {
				t.Fatal(err)
			}
		}, "t3.meta: offset 808: a descriptor record says it is 4294967040 bytes"},
		{"/dev/zero as meta", func(b string) { link(b, "meta") }, "t4.meta: not a regular file (a character device)"},
		{"/dev/zero as index", func(b string) { link(b, "index") }, "t5.index: not a regular file (a character device)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := copyArchive(fmt.Sprintf("t%d", map[string]int{"meta padded": 1, "index padded": 2, "4 GB record": 3, "/dev/zero as meta": 4, "/dev/zero as index": 5}[c.name]))
			c.make(base)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			_, err := Open(base)
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			if c.name == "index padded" {
				if a, err := Open(base); err != nil || !slices.ContainsFunc(a.Notes(), func(n string) bool { return strings.HasPrefix(n, c.want) }) {
					t.Errorf("error %v, notes %q, want the warning %q", err, notes(a), c.want)
				}
			} else if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 2<<20 {
				t.Errorf("opening it allocated %d bytes; the budget is 2 MiB", got)
			}
			if took > time.Second {
				t.Errorf("refused after %v, not at once", took)
			}
		})
	}
}

// Issue 30 item 11: a named pipe as any file of an archive, a directory as one, is refused at
// once with an error naming it, never read (a FIFO with no writer blocked Open for ever).
func TestNotRegularFilesRefusedAtOnce(t *testing.T) {
	for _, suf := range []string{"meta", "index", "0", "1"} {
		for _, kind := range []string{"fifo", "dir"} {
			t.Run(suf+"/"+kind, func(t *testing.T) {
				dir := t.TempDir()
				base := filepath.Join(dir, "t")
				copyTestArchive(t, "v2", base, nil)
				os.Remove(base + "." + suf)
				var err error
				if kind == "fifo" {
					err = syscall.Mkfifo(base+"."+suf, 0o644)
				} else {
					err = os.Mkdir(base+"."+suf, 0o755)
				}
				if err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				go func() {
					if _, err := ReadLabel(base); suf == "meta" && err == nil {
						done <- errors.New("ReadLabel read it")
						return
					}
					_, err := Open(base)
					done <- err
				}()
				select {
				case err := <-done:
					word := map[string]string{"fifo": "a named pipe", "dir": "a directory"}[kind]
					if want := base + "." + suf + ": not a regular file (" + word + ")"; err == nil || !strings.Contains(err.Error(), want) {
						t.Errorf("error %v, want %q", err, want)
					}
				case <-time.After(time.Second):
					t.Fatal("still blocked after a second")
				}
			})
		}
	}
}

// notes are an archive's notes, none for no archive.
func notes(a *Archive) []string {
	if a == nil {
		return nil
	}
	return a.Notes()
}

// copyTestArchive copies the archive testdata/<v>/t to base (base.meta, base.index, base.0), each
// file's bytes through edit (given its suffix) when there is one.
func copyTestArchive(t *testing.T, v, base string, edit func(suf string, b []byte) []byte) {
	t.Helper()
	for _, suf := range []string{"meta", "index", "0"} {
		b, err := os.ReadFile("testdata/" + v + "/t." + suf)
		if err != nil {
			t.Fatal(err)
		}
		if edit != nil {
			b = edit(suf, b)
		}
		if err := os.WriteFile(base+"."+suf, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
