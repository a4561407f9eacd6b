package pcp

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/linux"
	ns "dcimon/namespace"
)

// recordFixture records n samples of the fixture host (collect/linux's basic tree) a second
// apart at base, with the sampler's options opt, and returns the archive's files.
func recordFixture(t *testing.T, base string, n int, opt collect.Options) map[string][]byte {
	t.Helper()
	fix := "../linux/testdata/basic/t0/"
	at := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	opt.Now = func() time.Time { return at }
	s, err := collect.NewSampler(ns.NewRegistry(), linux.Providers(linux.Options{Procfs: fix + "proc", Sysfs: fix + "sys"}), opt)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRecorder(base, 2, "fix", at, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range n {
		snap, err := s.Sample(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Record(s.Registry(), snap); err != nil {
			t.Fatal(err)
		}
		at = at.Add(time.Second)
	}
	if err := r.Close(at.Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, ext := range []string{".meta", ".index", ".0"} {
		b, err := os.ReadFile(base + ext)
		if err != nil {
			t.Fatal(err)
		}
		files[ext] = b
	}
	return files
}

// A recording whose sampler leaves the derived datums uncomputed (dcimon record's, issue 38
// item 4) is the same archive, byte for byte: the recorder never wrote a derived datum.
func TestRecordWithoutDerivedIsTheSame(t *testing.T) {
	dir := t.TempDir()
	with := recordFixture(t, filepath.Join(dir, "with"), 4, collect.Options{})
	without := recordFixture(t, filepath.Join(dir, "without"), 4, collect.Options{NoDerived: true})
	if len(with[".0"]) < 4096 {
		t.Fatalf("the fixture's recording holds %d bytes of data: nothing to compare", len(with[".0"]))
	}
	// The metadata's records are compared as sets: the recorder writes the instance domains
	// of one time in the order of a map.
	with[".meta"], without[".meta"] = sortedRecords(t, with[".meta"]), sortedRecords(t, without[".meta"])
	for ext, b := range with {
		if !bytes.Equal(b, without[ext]) {
			t.Errorf("%s: %d bytes with the derived datums worked out, %d without, not the same", ext, len(b), len(without[ext]))
		}
	}
}

// sortedRecords are the records of an archive file (each framed by its length, a 32-bit
// big-endian number, before and after it) in byte order, the label first as it is.
func sortedRecords(t *testing.T, b []byte) []byte {
	t.Helper()
	var recs [][]byte
	for len(b) > 0 {
		if len(b) < 4 {
			t.Fatalf("%d bytes left over", len(b))
		}
		n := int(binary.BigEndian.Uint32(b))
		if n < 8 || n > len(b) {
			t.Fatalf("a record of %d bytes in %d", n, len(b))
		}
		recs, b = append(recs, b[:n]), b[n:]
	}
	slices.SortFunc(recs[1:], bytes.Compare)
	return bytes.Join(recs, nil)
}
